// The webviews' logic as a user sees it, exactly: the results table's numbers and dates, its sort
// order and clipboard text, the chart chooser's labels, a bar chart's time unit, the chart theme's
// Vega-Lite config (run as the bundle a webview loads, in jsdom), and the shared rules the extension
// and the pages both use: a saved chart choice checked against the columns, the CSV of a result.
import * as assert from 'node:assert/strict';
import * as path from 'node:path';
import { defaultChoice, validChoice } from '../../src/shared/chartChoice';
import {
  columnKind,
  csvCell,
  toCsv,
  type ResultColumn,
  type ResultPayload,
} from '../../src/shared/notebookOutput';
import { jsdomWindow, webviewBundle } from './webviewBundle';

const root = path.resolve(__dirname, '..', '..', '..');

interface Lib {
  columnFormatter(col: ResultColumn, values: readonly unknown[]): (v: unknown) => string;
  formatCell(v: unknown, col: ResultColumn): string;
  parseSpecifier(spec: string | undefined): Record<string, unknown> | undefined;
  specifierOf(col: ResultColumn): string;
  sortedOrder(rows: readonly unknown[][], c: number, dir: 1 | -1, numeric: boolean): number[];
  rowsToTsv(cols: readonly ResultColumn[], rows: readonly unknown[][], header?: boolean): string;
  createChooser(
    doc: Document,
    columns: readonly ResultColumn[],
    initial: unknown,
    onChange: (c: unknown) => void,
  ): { el: HTMLElement };
  buildSpec(p: ResultPayload, colours?: unknown, choice?: unknown, width?: number): Record<string, unknown>;
  vegaThemeConfig(c: unknown, font?: string): Record<string, unknown>;
}

function load(): { lib: Lib; doc: Document } {
  const code = webviewBundle(
    {
      stdin: {
        contents: [
          "export { columnFormatter, formatCell, parseSpecifier, specifierOf, sortedOrder, rowsToTsv } from './format';",
          "export { createChooser } from './chooser';",
          "export { buildSpec } from './chart';",
          "export { vegaThemeConfig } from '../shared/chartTheme';",
        ].join('\n'),
        resolveDir: path.join(root, 'webview', 'renderer'),
        loader: 'ts',
      },
    },
    'L',
  );
  const dom = jsdomWindow('outside-only');
  Object.assign(dom.window, { structuredClone });
  dom.window.eval(code);
  return { lib: (dom.window as unknown as { L: Lib }).L, doc: dom.window.document };
}

/** Plain data out of the jsdom realm (its arrays and objects are another realm's). */
const plain = (v: unknown): unknown => JSON.parse(JSON.stringify(v)) as unknown;

const num = (extra: Partial<ResultColumn> = {}): ResultColumn => ({ name: 'n', kind: 'number', ...extra });

describe('webview logic: the results table', function () {
  this.timeout(60_000);
  let lib: Lib;
  before(() => ({ lib } = load()));

  it('writes every number of a column by its format, with the decimals the column needs', () => {
    const cases: [string, Partial<ResultColumn>, unknown[], string[]][] = [
      // named formats (the engine's specifiers), trimmed to the decimals a value of the column needs
      ['currency', { format: 'currency' }, [1234.5, 2, -3.25], ['$1,234.50', '$2.00', '-$3.25']],
      ['currency, whole', { format: 'currency' }, [1234, 2], ['$1,234', '$2']],
      ['currency in euros', { format: 'currency', currency: 'EUR' }, [5], ['€5']],
      ['percent', { format: 'percent' }, [0.125, 0.5], ['12.5%', '50.0%']],
      ['percent, at most 2 decimals', { format: 'percent' }, [0.123456], ['12.35%']],
      ['number (default)', {}, [1234.5678, 1], ['1,234.57', '1.00']],
      ['number format', { format: 'number' }, [1000000], ['1,000,000']],
      ['unknown named format falls back to number', { format: 'weird' }, [1.5, 2], ['1.5', '2.0']],
      // specifiers from the model
      ['fixed, no grouping', { specifier: '.3f' }, [1234.5], ['1234.500']],
      ['fixed, grouped', { specifier: ',.1f' }, [1234.56], ['1,234.6']],
      ['integer', { specifier: 'd' }, [1234.4, 7], ['1234', '7']],
      ['grouped integer', { specifier: ',d' }, [1234567], ['1,234,567']],
      ['no precision: six decimals', { specifier: 'f' }, [1.5], ['1.500000']],
      ['trimmed, no precision', { specifier: '~f' }, [1.5, 2], ['1.5', '2.0']],
      ['accounting negatives', { specifier: '(,.2f' }, [-1234.5, 3], ['(1,234.50)', '3.00']],
      ['accounting currency', { specifier: '($,.0f' }, [-12], ['($12)']],
      ['percent, fixed', { specifier: '.1%' }, [0.25, -0.5], ['25.0%', '-50.0%']],
      ['exponent', { specifier: '.2e' }, [12345], ['1.23e+4']],
      ['SI, significant digits', { specifier: '.2s' }, [1234567], ['1.2M']],
      ['SI, default digits', { specifier: 's' }, [1234], ['1.23K']],
      ['SI currency', { specifier: '$.3s' }, [1500], ['$1.5K']],
      ['fill, align and width ignored', { specifier: '*>10,.2f' }, [1234.5], ['1,234.50']],
      ['not a specifier: number format', { specifier: 'nonsense!' }, [1234.5], ['1,234.5']],
      // numbers as text, nulls and text that is not a number
      ['numeric text', { format: 'currency' }, ['12.5', '3'], ['$12.5', '$3.0']],
      ['null and not-a-number', {}, [null, undefined, 'n/a', 1.25], ['∅', '∅', 'n/a', '1.25']],
    ];
    const got = cases.map(([what, col, values]) => {
      const f = lib.columnFormatter(num(col), values);
      return [what, values.map((v) => f(v))];
    });
    assert.deepEqual(
      got,
      cases.map(([what, , , want]) => [what, want]),
    );
  });

  it('a column of blanks and text keeps no decimals it does not need', () => {
    const f = lib.columnFormatter(num({ format: 'currency' }), ['', '  ', 'x', 7]);
    assert.deepEqual(
      ['', 'x', 7].map((v) => f(v)),
      ['', 'x', '$7'],
    );
  });

  it('writes one cell on its own: numbers, dates (with the time unless midnight), objects', () => {
    const cases: [unknown, ResultColumn, string][] = [
      [1234.5, num({ format: 'currency' }), '$1,234.5'],
      ['1234.5', num({ format: 'currency' }), '$1,234.5'],
      [-0.5, num({ specifier: '(.2f' }), '(0.50)'],
      ['   ', num(), '   '],
      ['', num(), ''],
      ['abc', num(), 'abc'],
      [null, num(), '∅'],
      [undefined, { name: 's', kind: 'string' }, '∅'],
      ['2024-03-01T00:00:00.000', { name: 't', kind: 'time' }, '2024-03-01'],
      ['2024-03-01T12:30:05.000', { name: 't', kind: 'time' }, '2024-03-01 12:30:05'],
      ['2024-03-01 12:30:05', { name: 't', kind: 'time' }, '2024-03-01 12:30:05'],
      ['2024-03-01T00:00:00Z', { name: 't', kind: 'time' }, '2024-03-01'],
      ['2024-03-01T12:30:05.123Z', { name: 't', kind: 'time' }, '2024-03-01 12:30:05'],
      ['2024-03', { name: 't', kind: 'time' }, '2024-03'],
      ['x2024-03-01T00:00:00', { name: 't', kind: 'time' }, 'x2024-03-01T00:00:00'],
      ['2024-03-01T00:00:00+02:00', { name: 't', kind: 'time' }, '2024-03-01T00:00:00+02:00'],
      [1700000000, { name: 't', kind: 'time' }, '1700000000'],
      [{ a: 1 }, { name: 'o', kind: 'string' }, '{"a":1}'],
      [true, { name: 'b', kind: 'boolean' }, 'true'],
    ];
    assert.deepEqual(
      cases.map(([v, col]) => lib.formatCell(v, col)),
      cases.map(([, , want]) => want),
    );
  });

  it('reads d3 specifiers and picks the column specifier', () => {
    assert.deepEqual(plain(lib.parseSpecifier('($,.2~f')), {
      paren: true,
      currency: true,
      group: true,
      precision: 2,
      trim: true,
      type: 'f',
    });
    assert.deepEqual(plain(lib.parseSpecifier('d')), {
      paren: false,
      currency: false,
      group: false,
      trim: false,
      type: 'd',
    });
    assert.deepEqual(plain(lib.parseSpecifier('')), {
      paren: false,
      currency: false,
      group: false,
      trim: false,
      type: '',
    });
    assert.equal(lib.parseSpecifier(undefined), undefined);
    assert.equal(lib.parseSpecifier('.2q!'), undefined);
    assert.deepEqual(
      [
        num({ specifier: '.1f', format: 'currency' }),
        num({ format: 'percent' }),
        num({ format: 'x' }),
        num(),
      ].map((c) => lib.specifierOf(c)),
      ['.1f', '.2~%', ',.2~f', ',.2~f'],
    );
  });

  it('sorts rows: numbers numerically, text by locale, nulls and blanks last, ties in row order', () => {
    const rows = [[10], [null], [2], [''], [2], [undefined], [-1], ['x']];
    assert.deepEqual(lib.sortedOrder(rows, 0, 1, true), [6, 2, 4, 0, 1, 3, 5, 7]);
    assert.deepEqual(lib.sortedOrder(rows, 0, -1, true), [0, 2, 4, 6, 1, 3, 5, 7]);
    const text = [['b'], [null], ['a'], ['B'], ['a'], [undefined], ['10'], ['9']];
    assert.deepEqual(lib.sortedOrder(text, 0, 1, false), [6, 7, 2, 4, 0, 3, 1, 5]);
    assert.deepEqual(lib.sortedOrder(text, 0, -1, false), [3, 0, 2, 4, 7, 6, 1, 5]);
    assert.deepEqual(lib.sortedOrder([['9'], ['10']], 0, 1, true), [0, 1]);
    assert.deepEqual(lib.sortedOrder([['10'], ['9']], 0, 1, true), [1, 0]);
  });

  it('copies rows as tab-separated text, tabs and newlines in values made spaces', () => {
    const cols: ResultColumn[] = [
      { name: 'city', kind: 'string' },
      { name: 'n', kind: 'number' },
      { name: 'o', kind: 'string' },
    ];
    const rows = [
      ['Paris\tFR', 3, { a: 1 }],
      ['Line\r\nbreak', null, undefined],
    ];
    assert.equal(lib.rowsToTsv(cols, rows), 'city\tn\to\nParis FR\t3\t{"a":1}\nLine  break\t\t');
    assert.equal(lib.rowsToTsv(cols, rows.slice(0, 1), false), 'Paris FR\t3\t{"a":1}');
  });
});

describe('webview logic: the chart', function () {
  this.timeout(60_000);
  let lib: Lib;
  let doc: Document;
  before(() => ({ lib, doc } = load()));

  const columns: ResultColumn[] = [
    { name: 'month', kind: 'time' },
    { name: 'status', kind: 'string', title: 'Status' },
    { name: 'revenue', kind: 'number', measure: true, title: 'Revenue' },
    { name: 'orders', kind: 'number', measure: true },
  ];

  it('offers the chart types, the x columns and the series by their titles', () => {
    const c = lib.createChooser(doc, columns, { type: 'bar', x: 'month', y: ['revenue'] }, () => undefined);
    const options = (key: string) =>
      [...c.el.querySelectorAll<HTMLOptionElement>(`select[data-key="${key}"] option`)].map((o) => [
        o.value,
        o.textContent,
      ]);
    assert.deepEqual(options('type'), [
      ['line', 'Line'],
      ['bar', 'Bar'],
      ['area', 'Area'],
      ['point', 'Point'],
    ]);
    assert.equal(c.el.querySelector<HTMLSelectElement>('select[data-key="type"]')!.value, 'bar');
    assert.deepEqual(options('x'), [
      ['month', 'month'],
      ['status', 'Status'],
      ['revenue', 'Revenue'],
      ['orders', 'orders'],
    ]);
    assert.deepEqual(options('series'), [
      ['', 'None'],
      ['month', 'month'],
      ['status', 'Status'],
    ]);
  });

  it('makes a bar over time as wide as its period', () => {
    const monthly = (values: string[]): ResultPayload => ({
      version: 1,
      source: 'cubesql',
      columns,
      rows: values.map((m, i) => [m, 'paid', i * 10, i]),
      totalRows: values.length,
      capped: false,
    });
    const xOf = (spec: Record<string, unknown>): Record<string, unknown> => {
      const found: Record<string, unknown>[] = [];
      const walk = (v: unknown): void => {
        if (!v || typeof v !== 'object') return;
        const o = v as Record<string, unknown>;
        const enc = o.encoding as Record<string, unknown> | undefined;
        if (enc?.x) found.push(plain(enc.x) as Record<string, unknown>);
        for (const child of Object.values(o)) walk(child);
      };
      walk(spec);
      assert.ok(found.length > 0, 'an x encoding');
      return found[0]!;
    };
    const months = ['2024-01-01T00:00:00.000', '2024-02-01T00:00:00.000', '2024-03-01T00:00:00.000'];
    const days = ['2024-01-01T00:00:00.000', '2024-01-02T00:00:00.000', '2024-01-03T00:00:00.000'];
    const years = ['2022-01-01T00:00:00.000', '2023-01-01T00:00:00.000', '2024-01-01T00:00:00.000'];
    const hours = ['2024-01-01T01:00:00.000', '2024-01-01T02:00:00.000', '2024-01-01T03:00:00.000'];
    const minutes = ['2024-01-01T01:01:00.000', '2024-01-01T01:02:00.000', '2024-01-01T01:03:00.000'];
    const quarters = ['2024-01-01T00:00:00.000', '2024-04-01T00:00:00.000', '2024-07-01T00:00:00.000'];
    const weeks = ['2024-01-01T00:00:00.000', '2024-01-08T00:00:00.000', '2024-01-15T00:00:00.000'];
    const bar = (values: string[]) =>
      xOf(lib.buildSpec(monthly(values), undefined, { type: 'bar', x: 'month', y: ['revenue'] }));
    assert.deepEqual(
      [months, days, years, hours, minutes, quarters, weeks].map((v) => [
        bar(v).timeUnit,
        bar(v).bandPosition,
      ]),
      [
        ['yearmonth', 0],
        ['yearmonthdate', 0],
        ['year', 0],
        ['yearmonthdatehours', 0],
        ['yearmonthdatehoursminutes', 0],
        ['yearquarter', 0],
        ['yearweek', 0],
      ],
    );
    const line = xOf(lib.buildSpec(monthly(months), undefined, { type: 'line', x: 'month', y: ['revenue'] }));
    assert.equal(line.timeUnit, undefined, 'a line keeps its points at their instants');
  });

  it('themes the chart: axes, legend, title and marks in the theme colours, no background', () => {
    const colours = { fg: '#111111', muted: '#777777', grid: '#dddddd', palette: ['#aa0000', '#00aa00'] };
    assert.deepEqual(plain(lib.vegaThemeConfig(colours, 'Segoe UI')), {
      background: 'transparent',
      font: 'Segoe UI',
      axis: {
        labelColor: '#111111',
        titleColor: '#111111',
        domainColor: '#777777',
        tickColor: '#777777',
        gridColor: '#dddddd',
        gridOpacity: 0.6,
      },
      legend: { labelColor: '#111111', titleColor: '#111111' },
      title: { color: '#111111' },
      view: { stroke: 'transparent' },
      range: { category: ['#aa0000', '#00aa00'] },
      line: { color: '#aa0000' },
      bar: { color: '#aa0000' },
      area: { color: '#aa0000' },
      point: { color: '#aa0000' },
    });
    assert.equal('font' in lib.vegaThemeConfig(colours), false, 'no font unless the page has one');
  });
});

describe('shared rules: chart choice and CSV', () => {
  const cols: ResultColumn[] = [
    { name: 'month', kind: 'time' },
    { name: 'status', kind: 'string' },
    { name: 'revenue', kind: 'number', measure: true },
    { name: 'orders', kind: 'number' },
    { name: 'rank', kind: 'number', measure: false },
  ];

  it('keeps a saved chart choice only when it fits the columns', () => {
    const cases: [string, unknown, unknown][] = [
      [
        'whole',
        { type: 'bar', x: 'month', y: ['revenue'], series: 'status' },
        { type: 'bar', x: 'month', y: ['revenue'], series: 'status' },
      ],
      [
        'every type',
        { type: 'point', x: 'revenue', y: ['orders'] },
        { type: 'point', x: 'revenue', y: ['orders'] },
      ],
      ['not an object', 'bar', undefined],
      ['null', null, undefined],
      ['unknown type', { type: 'pie', x: 'month', y: ['revenue'] }, undefined],
      ['x not a column', { type: 'line', x: 'day', y: ['revenue'] }, undefined],
      ['x not text', { type: 'line', x: 3, y: ['revenue'] }, undefined],
      ['y not a list', { type: 'line', x: 'month', y: 'revenue' }, undefined],
      ['y not numbers', { type: 'line', x: 'month', y: ['status', 'month'] }, undefined],
      [
        'y drops the x, text and unknown',
        { type: 'line', x: 'revenue', y: ['revenue', 'orders', 'status', 7, 'gone'] },
        { type: 'line', x: 'revenue', y: ['orders'] },
      ],
      [
        'series unknown dropped',
        { type: 'area', x: 'month', y: ['revenue'], series: 'gone' },
        { type: 'area', x: 'month', y: ['revenue'] },
      ],
      [
        'series as x dropped',
        { type: 'area', x: 'status', y: ['revenue'], series: 'status' },
        { type: 'area', x: 'status', y: ['revenue'] },
      ],
      [
        'series not text dropped',
        { type: 'area', x: 'month', y: ['revenue'], series: 1 },
        { type: 'area', x: 'month', y: ['revenue'] },
      ],
    ];
    assert.deepEqual(
      cases.map(([what, v]) => [what, validChoice(v, cols)]),
      cases.map(([what, , want]) => [what, want]),
    );
  });

  it('opens a chart of the measures by time, else by category, else none', () => {
    assert.deepEqual(defaultChoice(cols), { type: 'line', x: 'month', y: ['revenue', 'orders'] });
    assert.deepEqual(defaultChoice(cols.slice(1)), { type: 'bar', x: 'status', y: ['revenue', 'orders'] });
    assert.deepEqual(defaultChoice([cols[1]!, cols[4]!]), { type: 'bar', x: 'status', y: ['rank'] });
    assert.equal(defaultChoice(cols.slice(2)), undefined);
    assert.equal(defaultChoice(cols.slice(0, 2)), undefined);
  });

  it('writes CSV with RFC 4180 quoting and reads column kinds from server types', () => {
    assert.equal(
      toCsv(
        [
          { name: 'city, country', kind: 'string' },
          { name: 'n', kind: 'number' },
        ],
        [
          ['Paris, "FR"', 3],
          ['line\nbreak', null],
          [{ a: 1 }, undefined],
        ],
      ),
      '"city, country",n\r\n"Paris, ""FR""",3\r\n"line\nbreak",\r\n"{""a"":1}",\r\n',
    );
    assert.deepEqual(['a\rb', 'plain', 0].map(csvCell), ['"a\rb"', 'plain', '0']);
    assert.deepEqual(
      ['BIGINT', 'double', 'count', 'timestamp', 'DATE', 'boolean', 'varchar', undefined, 'xnumber'].map(
        columnKind,
      ),
      ['number', 'number', 'number', 'time', 'time', 'boolean', 'string', 'string', 'string'],
    );
  });
});
