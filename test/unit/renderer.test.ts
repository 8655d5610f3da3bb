// The notebook renderer's view in jsdom: virtualization (only rows in view are in the DOM, even at
// 100,000 rows), sorting, the "showing N of M rows" line, copy, errors and the chart spec.
import * as assert from 'node:assert/strict';
import * as path from 'node:path';
import type { ResultPayload } from '../../src/shared/notebookOutput';
import { jsdomWindow, webviewBundle } from './webviewBundle';

const root = path.resolve(__dirname, '..', '..', '..');

interface Lib {
  renderResult(
    doc: Document,
    p: ResultPayload,
    copy: (t: string) => void,
    draw?: unknown,
    onChoice?: unknown,
  ): {
    root: HTMLElement;
    table: { renderedRows(): number; sort(c: number, d?: 1 | -1): void; el: HTMLElement };
  };
  renderError(doc: Document, e: { message: string; requestId?: string }): HTMLElement;
  buildSpec(
    p: ResultPayload,
    colours?: unknown,
    choice?: unknown,
    width?: number,
  ): Record<string, unknown> | undefined;
  granularityOf(values: unknown[], name?: string): string;
  chartColours(doc: Document): { fg: string; grid: string; palette: string[] };
  seriesPalette(theme: string[], dark: boolean, background?: string): string[];
  parseColour(v: string): number[] | undefined;
  onThemeChange(doc: Document, redraw: () => void): () => void;
  countText(p: ResultPayload): string;
  activate(ctx: {
    postMessage(m: unknown): void;
    onDidReceiveMessage(listener: (m: unknown) => void): { dispose(): void };
  }): {
    renderOutputItem(item: { id: string; mime: string; json(): unknown }, element: HTMLElement): void;
    disposeOutputItem(id?: string): void;
  };
}

function load(): { lib: Lib; doc: Document } {
  const code = webviewBundle(
    {
      stdin: {
        contents:
          "export { renderResult, renderError, countText } from './view'; export { buildSpec, granularityOf } from './chart'; export { chartColours, onThemeChange, seriesPalette, parseColour } from '../shared/chartTheme'; export { activate } from './index';",
        resolveDir: path.join(root, 'webview', 'renderer'),
        loader: 'ts',
      },
    },
    'R',
  );
  const dom = jsdomWindow('outside-only');
  Object.assign(dom.window, { structuredClone });
  dom.window.eval(code);
  return { lib: (dom.window as unknown as { R: Lib }).R, doc: dom.window.document };
}

function payload(n: number, total = n): ResultPayload {
  const rows: unknown[][] = [];
  for (let i = 0; i < n; i++)
    rows.push([
      `s${i % 7}`,
      `2024-01-${String((i % 28) + 1).padStart(2, '0')}T00:00:00.000`,
      (i * 37) % 1000,
    ]);
  return {
    version: 1,
    source: 'cubesql',
    columns: [
      { name: 'status', kind: 'string' },
      { name: 'day', kind: 'time' },
      { name: 'amount', kind: 'number', measure: true, format: 'currency' },
    ],
    rows,
    totalRows: total,
    capped: total > n,
  };
}

describe('notebook renderer', () => {
  const { lib, doc } = load();

  // Speed is measured in bench/ (notebookFirstRows); here only that the table is virtual.
  it('renders only the rows in view at 100,000 rows', () => {
    const v = lib.renderResult(doc, payload(100_000), () => undefined);
    doc.body.replaceChildren(v.root);
    assert.ok(
      v.table.renderedRows() > 0 && v.table.renderedRows() < 60,
      `rendered ${v.table.renderedRows()}`,
    );
    const spacer = v.table.el.querySelector('.dp-scroll > div') as HTMLElement;
    assert.equal(spacer.style.height, `${100_000 * 22}px`);
  });

  it('says "showing N of M rows" when capped', () => {
    assert.match(lib.countText(payload(10, 25)), /^showing 10 of 25 rows/);
    assert.match(lib.countText(payload(3)), /^3 rows/);
    const v = lib.renderResult(doc, payload(10, 25), () => undefined);
    assert.match(v.root.querySelector('.dp-count')!.textContent!, /showing 10 of 25 rows/);
  });

  it('sorts by a column (numbers numerically) and formats cells', () => {
    const v = lib.renderResult(doc, payload(50), () => undefined);
    v.table.sort(2, -1);
    const first = v.table.el.querySelector('.dp-tr .dp-td.dp-number')!.textContent!;
    assert.match(first, /^\$9\d\d/);
    (v.table.el.querySelectorAll('.dp-th')[0] as HTMLElement).click();
    assert.equal(v.table.el.querySelector('.dp-tr .dp-td')!.textContent, 's0');
    assert.equal(v.table.el.querySelectorAll('.dp-tr .dp-time')[0]!.textContent, '2024-01-01');
  });

  /** The texts of a column's cells, in row order. */
  const cellsOf = (v: { table: { el: HTMLElement } }, column: number) =>
    [...v.table.el.querySelectorAll('.dp-tr')].map((tr) => tr.children[column + 1]!.textContent);

  it('writes each number column with the same decimals, by the model format', () => {
    const p: ResultPayload = {
      version: 1,
      source: 'load',
      columns: [
        { name: 'orders.status', kind: 'string' },
        { name: 'orders.count', kind: 'number', measure: true, specifier: ',.2~f' },
        { name: 'orders.avg_amount', kind: 'number', measure: true, format: 'currency', specifier: '$,.2~f' },
        { name: 'orders.total_amount', kind: 'number', measure: true, specifier: ',.2~f' },
        { name: 'share', kind: 'number', specifier: '.1%' },
        { name: 'plain', kind: 'number' },
      ],
      rows: [
        ['completed', '1234', '249.0420750000003', '1234.5', '0.25', '3'],
        ['shipped', '17', '251.5', '1234.56', '0.125', '2.5'],
      ],
      totalRows: 2,
    };
    const v = lib.renderResult(doc, p, () => undefined);
    // Counts need no decimals; an average is rounded to the format's two; a sum keeps two on
    // every row because one row needs two (not 1,234.5 above 1,234.56).
    assert.deepEqual(cellsOf(v, 1), ['1,234', '17']);
    assert.deepEqual(cellsOf(v, 2), ['$249.04', '$251.50']);
    assert.deepEqual(cellsOf(v, 3), ['1,234.50', '1,234.56']);
    assert.deepEqual(cellsOf(v, 4), ['25.0%', '12.5%']);
    assert.deepEqual(cellsOf(v, 5), ['3.0', '2.5']);
  });

  it('shows a badge naming the rollup that served the result, with its age', () => {
    const built = new Date(Date.now() - 5 * 60_000).toISOString();
    const p: ResultPayload = {
      ...payload(3),
      source: 'load',
      rollups: [{ id: 'orders.orders_by_status', builtAt: built }],
    };
    const v = lib.renderResult(doc, p, () => undefined);
    const badge = v.root.querySelector('.dp-rollup')!;
    assert.equal(badge.textContent, 'Rollup orders.orders_by_status · built 5 min ago');
    assert.match(badge.getAttribute('title')!, /pre-aggregation orders\.orders_by_status, built /);
    assert.equal(lib.renderResult(doc, payload(3), () => undefined).root.querySelector('.dp-rollup'), null);
  });

  it('copies a row and all rows', () => {
    const copied: string[] = [];
    const v = lib.renderResult(doc, payload(3), (t) => copied.push(t));
    (v.table.el.querySelector('.dp-rownum') as HTMLElement).click();
    const copyAll = [...v.root.querySelectorAll('button')].find((b) => b.textContent === 'Copy')!;
    copyAll.click();
    assert.equal(copied[0], 's0\t2024-01-01T00:00:00.000\t0');
    assert.equal(copied[1]!.split('\n')[0], 'status\tday\tamount');
    assert.equal(copied[1]!.split('\n').length, 4);
  });

  it('shows the server message and requestId of an error', () => {
    const el = lib.renderError(doc, { message: 'Unknown column x', requestId: 'req-1' });
    assert.match(el.textContent!, /Unknown column x[\s\S]*requestId: req-1/);
  });

  it('charts a measure by a time dimension as a line, and offers no chart without a measure', () => {
    const spec = lib.buildSpec(payload(5))!;
    assert.equal((spec.mark as { type: string }).type, 'line');
    const noMeasure = {
      ...payload(2),
      columns: [{ name: 'a', kind: 'string' as const }],
      rows: [['x'], ['y']],
    };
    assert.equal(lib.buildSpec(noMeasure), undefined);
  });

  const monthly = (): ResultPayload => ({
    version: 1,
    source: 'cubesql',
    columns: [
      { name: 'month', kind: 'time' },
      { name: 'orders', kind: 'number' },
      { name: 'revenue', kind: 'number', title: 'Revenue' },
      { name: 'status', kind: 'string' },
    ],
    rows: Array.from({ length: 24 }, (_, i) => [
      `${2024 + Math.floor(i / 12)}-${String((i % 12) + 1).padStart(2, '0')}-01T00:00:00.000`,
      i,
      i * 10,
      i % 2 ? 'new' : 'shipped',
    ]),
    totalRows: 24,
  });
  const plain = (v: unknown): unknown => JSON.parse(JSON.stringify(v));
  type Enc = Record<string, { field?: string; axis?: Record<string, unknown>; type?: string }>;

  it('plots every measure as its own series', () => {
    const spec = lib.buildSpec(monthly())!;
    const transform = spec.transform as Record<string, unknown>[];
    assert.deepEqual(plain(transform[0]!.fold), ['c0', 'c1']);
    const enc = spec.encoding as Enc;
    assert.equal(enc.color!.field, 'measure');
    const first = (spec.data as { values: Record<string, unknown>[] }).values[1]!;
    assert.deepEqual([first.c0, first.c1], [1, 10]);
  });

  it('ticks monthly data by month (or quarter when long) with the year, and never rotates categories 90°', () => {
    assert.equal(lib.granularityOf(monthly().rows.map((r) => r[0])), 'month');
    assert.equal(lib.granularityOf(['2024-01-01', '2024-01-02', '2024-01-04']), 'day');
    assert.equal(lib.granularityOf(['2024-01-01', '2025-01-01']), 'year');
    assert.equal(lib.granularityOf([], 'orders.created_at.quarter'), 'quarter');
    const axis = (lib.buildSpec(monthly())!.encoding as Enc).x!.axis!;
    assert.equal(axis.format, '%b %Y');
    assert.deepEqual(plain(axis.tickCount), { interval: 'month', step: 2 }, '24 months: every second month');
    assert.equal(axis.labelAngle, 0);
    const short = { ...monthly(), rows: monthly().rows.slice(0, 6) };
    assert.deepEqual(plain((lib.buildSpec(short)!.encoding as Enc).x!.axis!.tickCount), {
      interval: 'month',
      step: 1,
    });

    const many = {
      version: 1 as const,
      source: 'cubesql' as const,
      columns: [
        { name: 'customer', kind: 'string' as const },
        { name: 'n', kind: 'number' as const },
      ],
      rows: Array.from({ length: 30 }, (_, i) => [`A rather long customer name ${i}`, i]),
      totalRows: 30,
    };
    const cat = (lib.buildSpec(many, undefined, undefined, 600)!.encoding as Enc).x!.axis!;
    assert.equal(cat.labelAngle, -40);
    const few = { ...many, rows: many.rows.slice(0, 3).map((r, i) => [`c${i}`, r[1]]) };
    assert.equal((lib.buildSpec(few, undefined, undefined, 600)!.encoding as Enc).x!.axis!.labelAngle, 0);
  });

  it('draws the chosen type, x, y and series, and the theme colours', () => {
    const colours = {
      fg: '#eeeeee',
      muted: '#aaaaaa',
      grid: '#333333',
      palette: ['#111111', '#222222', '#333333'],
    };
    const spec = lib.buildSpec(monthly(), colours, {
      type: 'bar',
      x: 'month',
      y: ['revenue'],
      series: 'status',
    })!;
    assert.equal((spec.mark as { type: string }).type, 'bar');
    const enc = spec.encoding as Enc;
    assert.equal(enc.color!.field, 's');
    assert.equal((enc.y as { title?: string }).title, 'Revenue');
    const config = spec.config as { axis: Record<string, string>; range: { category: string[] } };
    assert.equal(config.axis.labelColor, '#eeeeee');
    assert.equal(config.axis.gridColor, '#333333');
    assert.deepEqual(plain(config.range.category), colours.palette);
    // A saved choice that no longer fits the columns falls back to the default chart.
    const stale = lib.buildSpec(monthly(), colours, { type: 'bar', x: 'gone', y: ['revenue'] })!;
    assert.equal((stale.mark as { type: string }).type, 'line');
  });

  it('puts measures of different magnitudes on two axes, each titled and formatted by its measure', () => {
    const mixed: ResultPayload = {
      version: 1,
      source: 'load',
      columns: [
        { name: 'orders.created_at.month', kind: 'time' },
        { name: 'orders.total_amount', kind: 'number', measure: true, title: 'Revenue', format: 'currency' },
        { name: 'orders.count', kind: 'number', measure: true, title: 'Orders' },
      ],
      rows: Array.from({ length: 12 }, (_, i) => [
        `2025-${String(i + 1).padStart(2, '0')}-01T00:00:00.000`,
        250_000 + i * 1000,
        800 + i,
      ]),
      totalRows: 12,
    };
    type Layer = {
      mark: { type: string };
      encoding: { y: { title: string; axis: { format?: string; orient?: string } } };
    };
    const spec = lib.buildSpec(mixed)!;
    const layers = spec.layer as Layer[];
    assert.ok(layers, 'two layers, not one shared axis');
    assert.deepEqual(plain(spec.resolve), { scale: { y: 'independent' } });
    assert.deepEqual(
      plain(
        layers.map((l) => [l.encoding.y.title, l.encoding.y.axis.format ?? '', l.encoding.y.axis.orient]),
      ),
      [
        ['Revenue ($)', '$~s', 'left'],
        ['Orders', '', 'right'],
      ],
    );
    // Bars keep bars on the left; the small measure is a line on its own axis.
    const bars = lib.buildSpec(mixed, undefined, {
      type: 'bar',
      x: 'orders.created_at.month',
      y: ['orders.total_amount', 'orders.count'],
    })!;
    assert.deepEqual(plain((bars.layer as Layer[]).map((l) => l.mark.type)), ['bar', 'line']);

    // Similar magnitudes share one axis, titled by the measures (never "Value").
    const similar = { ...mixed, rows: mixed.rows.map((r) => [r[0], r[2], Number(r[2]) * 2]) };
    const one = lib.buildSpec(similar)!;
    assert.equal(one.layer, undefined);
    assert.equal((one.encoding as { y: { title: string } }).y.title, 'Revenue · Orders');
    // One currency measure: its title with the unit, labels as money.
    const single = lib.buildSpec(payload(10))!;
    const y = (single.encoding as { y: { title: string; axis: { format: string } } }).y;
    assert.deepEqual([y.title, y.axis.format], ['amount ($)', '$~s']);
  });

  it('on two axes, draws each layer by measure: bars over categories beside each other, never lines', () => {
    const columns: ResultPayload['columns'] = [
      { name: 'city', kind: 'string' },
      { name: 'revenue', kind: 'number', measure: true, title: 'Revenue' },
      { name: 'orders', kind: 'number', measure: true, title: 'Orders' },
    ];
    const byCity: ResultPayload = {
      version: 1,
      source: 'load',
      columns,
      rows: [
        ['Paris', 250_000, 800],
        ['Lyon', 120_000, 400],
      ],
      totalRows: 2,
    };
    type Layer = { mark: { type: string }; encoding: Record<string, Record<string, unknown>> };
    const layers = (choice: unknown, p = byCity) =>
      (plain(lib.buildSpec(p, undefined, choice)!.layer) as Layer[]).map((l) => {
        const { field, type, stack } = l.encoding.y!;
        return [l.mark.type, { field, type, stack }, l.encoding.color, l.encoding.xOffset ?? 'no offset'];
      });
    const measure = { field: 'measure', type: 'nominal', title: 'Measure' };
    const y = { field: 'v', type: 'quantitative', stack: null };
    assert.deepEqual(layers({ type: 'bar', x: 'city', y: ['revenue', 'orders'] }), [
      ['bar', y, measure, { field: 'measure', type: 'nominal' }],
      ['line', y, measure, 'no offset'],
    ]);
    assert.deepEqual(layers({ type: 'line', x: 'city', y: ['revenue', 'orders'] }), [
      ['line', y, measure, 'no offset'],
      ['line', y, measure, 'no offset'],
    ]);
    const overTime: ResultPayload = {
      ...byCity,
      columns: [{ name: 'day', kind: 'time' }, ...columns.slice(1)],
      rows: [
        ['2025-01-01T00:00:00.000', 250_000, 800],
        ['2025-01-02T00:00:00.000', 120_000, 400],
      ],
    };
    assert.deepEqual(
      layers({ type: 'bar', x: 'day', y: ['revenue', 'orders'] }, overTime),
      [
        ['bar', y, measure, 'no offset'],
        ['line', y, measure, 'no offset'],
      ],
      'bars over time are not offset',
    );
    // One axis: the y values are counted as quantities too.
    const one = lib.buildSpec({ ...byCity, columns: columns.slice(0, 2), rows: [['Paris', 1]] })!;
    assert.equal((one.encoding as Enc).y!.type, 'quantitative');
  });

  it('applies a chart choice the extension sends to the outputs showing that output, until they are disposed', () => {
    const posted: unknown[] = [];
    let fromHost: (m: unknown) => void = () => assert.fail('the renderer listens to the extension');
    const renderer = lib.activate({
      postMessage: (m) => posted.push(plain(m)),
      onDidReceiveMessage: (l) => {
        fromHost = l;
        return { dispose: () => undefined };
      },
    });
    const show = (id: string, outputKey: string) => {
      const el = doc.createElement('div');
      doc.body.append(el);
      renderer.renderOutputItem(
        { id, mime: 'application/json', json: () => ({ ...monthly(), outputKey }) },
        el,
      );
      return () => el.querySelector<HTMLSelectElement>('select[data-key="type"]')!.value;
    };
    const chart = (outputKey: string, type: string) =>
      fromHost({ type: 'chart', outputKey, chart: { type, x: 'month', y: ['orders'] } });
    const a = show('a', 'k1');
    const b = show('b', 'k2');
    const c = show('c', 'k3');
    assert.deepEqual(posted, [
      { type: 'hello', outputKey: 'k1' },
      { type: 'hello', outputKey: 'k2' },
      { type: 'hello', outputKey: 'k3' },
    ]);
    assert.equal(a(), 'line');
    chart('k1', 'bar');
    fromHost({ type: 'other', outputKey: 'k2', chart: { type: 'bar', x: 'month', y: ['orders'] } });
    assert.deepEqual(
      [a(), b(), c()],
      ['bar', 'line', 'line'],
      'only the output it names, only a chart message',
    );
    renderer.disposeOutputItem('a');
    renderer.disposeOutputItem('not shown');
    chart('k1', 'area');
    chart('k2', 'area');
    assert.deepEqual([a(), b(), c()], ['bar', 'area', 'line'], 'a disposed output takes no choice');
    renderer.disposeOutputItem();
    chart('k2', 'bar');
    chart('k3', 'bar');
    assert.deepEqual([b(), c()], ['area', 'line'], 'disposing all: none takes a choice');
  });

  it('the Chart button shows the chart, drawn once, and Table shows the rows again', async () => {
    const drawn: unknown[] = [];
    const v = lib.renderResult(
      doc,
      monthly(),
      () => undefined,
      async (_el: HTMLElement, _p: unknown, c: unknown) => {
        drawn.push(plain(c));
      },
    );
    const [table, chart] = [...v.root.querySelectorAll<HTMLButtonElement>('.dp-bar button')].filter((b) =>
      ['Table', 'Chart'].includes(b.textContent!),
    );
    const pane = v.root.querySelector<HTMLElement>('.dp-chart-pane')!;
    assert.equal(pane.style.display, 'none');
    chart!.click();
    await new Promise((r) => setTimeout(r, 0));
    assert.deepEqual(
      [pane.style.display, v.table.el.style.display, chart!.getAttribute('aria-pressed'), drawn.length],
      ['', 'none', 'true', 1],
    );
    table!.click();
    chart!.click();
    await new Promise((r) => setTimeout(r, 0));
    assert.equal(drawn.length, 1, 'shown again, not drawn again');
    assert.equal(table!.getAttribute('aria-pressed'), 'false');
  });

  it('series colours are opaque and stand out from the background in light and dark themes', () => {
    const dark = lib.seriesPalette(['#3794ff', 'rgba(234, 92, 0, 0.33)', '#89d185'], true, '#1e1e1e');
    assert.equal(dark[1], '#ea5c00', 'a translucent theme colour is used opaque');
    assert.ok(
      dark.every((c) => /^#[0-9a-f]{6}$/.test(c)),
      dark.join(),
    );
    assert.ok(dark.length >= 6, 'missing colours come from the theme kind');
    // A colour too close to the background is replaced by the theme kind's own.
    const light = lib.seriesPalette(['#fafafa', '#c75300'], false, '#ffffff');
    assert.notEqual(light[0], '#fafafa');
    assert.equal(light[1], '#c75300');
    assert.deepEqual(plain(lib.parseColour('#ea5c0054')), [234, 92, 0, 0x54 / 255]);
  });

  it('offers a chooser whose changes are reported and redraw the chart', async () => {
    const choices: unknown[] = [];
    const drawn: unknown[] = [];
    const v = lib.renderResult(
      doc,
      monthly(),
      () => undefined,
      async (_el: HTMLElement, _p: ResultPayload, choice: unknown) => {
        drawn.push(choice);
      },
      (c: unknown) => choices.push(c),
    ) as unknown as { root: HTMLElement; showChart(): Promise<void> };
    doc.body.replaceChildren(v.root);
    await v.showChart();
    assert.deepEqual(plain(drawn[0]), { type: 'line', x: 'month', y: ['orders', 'revenue'] });
    const type = v.root.querySelector<HTMLSelectElement>('select[data-key="type"]')!;
    type.value = 'area';
    type.dispatchEvent(new doc.defaultView!.Event('change'));
    const orders = v.root.querySelector<HTMLInputElement>('input[data-key="y:orders"]')!;
    orders.checked = false;
    orders.dispatchEvent(new doc.defaultView!.Event('change'));
    const series = v.root.querySelector<HTMLSelectElement>('select[data-key="series"]')!;
    series.value = 'status';
    series.dispatchEvent(new doc.defaultView!.Event('change'));
    await new Promise((r) => setTimeout(r, 0));
    assert.deepEqual(plain(choices[choices.length - 1]), {
      type: 'area',
      x: 'month',
      y: ['revenue'],
      series: 'status',
    });
    assert.equal(drawn.length, 4);
  });

  it('redraws when VS Code switches the theme', async () => {
    let calls = 0;
    const stop = lib.onThemeChange(doc, () => calls++);
    doc.body.className = 'vscode-dark';
    doc.body.setAttribute('data-vscode-theme-kind', 'vscode-dark');
    await new Promise((r) => setTimeout(r, 0));
    assert.ok(calls >= 1, 'a theme switch redraws');
    stop();
    doc.body.className = 'vscode-light';
    await new Promise((r) => setTimeout(r, 0));
    const after = calls;
    doc.body.className = 'vscode-dark';
    await new Promise((r) => setTimeout(r, 0));
    assert.equal(calls, after, 'no redraw after stop');
  });
});
