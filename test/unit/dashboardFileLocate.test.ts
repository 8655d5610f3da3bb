// The *.dashboard.json file's locating parser and helpers, pinned exactly: each syntax error's
// sentence and position, escapes and numbers read as JSON reads them, every kind of whitespace,
// problems at the exact span of their value, the problem cap at its edge, the nesting limit at its
// edge, the pull from a workbook's older and newer shapes, and the save path and draft. Written from
// the mutants of `npm run mutation -- dashboard-file` that no test killed (docs/mutation-triage.md).
import { strict as assert } from 'node:assert';
import {
  dashboardFileName,
  dashboardFromWorkbook,
  draftOf,
  MAX_DEPTH,
  MAX_PROBLEMS,
  normaliseDashboardPath,
  parseDashboardFile,
  type DashboardProblem,
} from '../../src/dashboards/dashboardFile';
import { themeValueProblem } from '../../src/shared/cssValues';

/** The single problem of a file that must not parse. */
function onlyProblem(text: string): DashboardProblem {
  const r = parseDashboardFile(text);
  assert.ok(!r.ok, text);
  assert.equal(r.problems.length, 1, JSON.stringify(r.problems));
  return r.problems[0]!;
}

/** A file whose shape is valid but whose theme colour is not: it reaches the locating parser and returns its input. */
function withBadTheme(members: string, ws = ' '): string {
  return `{${ws}"workbookId":${ws}7,${ws}${members}${members ? `,${ws}` : ''}"config":${ws}{${ws}"theme":${ws}{"primaryColor":${ws}"banana"}}}`;
}

describe('dashboard file: the locating parser, exactly', () => {
  it('names each syntax error in a sentence at the offset, line and column where it is', () => {
    const cases: [string, string, number][] = [
      ['{"workbookId" 7}', `Invalid JSON: Expected ':' after "workbookId"`, 14],
      ['{"workbookId": [1 2]}', "Invalid JSON: Expected ',' or ']'", 18],
      ['{"workbookId": 7 "x": 1}', "Invalid JSON: Expected ',' or '}'", 17],
      ['{"workbookId": x1}', 'Invalid JSON: Expected a value', 15],
      ['{"workbookId": tru}', 'Invalid JSON: Expected a value', 15],
      ['{"title": "a\\xb"}', 'Invalid JSON: Invalid escape in string', 12],
      ['{"title": "a\\u12G4"}', 'Invalid JSON: Invalid escape in string', 12],
      ['{"title": "a\tb"}', 'Invalid JSON: Control character in string', 12],
      ['{"title": "a\\n\u0001"}', 'Invalid JSON: Control character in string', 14],
      ['{"title": "a\\nb', 'Invalid JSON: Unterminated string', 10],
      ['{"title": "ab', 'Invalid JSON: Unterminated string', 10],
      ['{"workbookId": ', 'Invalid JSON: Unexpected end of file: Expected a value', 15],
    ];
    for (const [text, message, offset] of cases) {
      assert.deepEqual(
        onlyProblem(text),
        { message, path: [], offset, length: 1, line: 0, column: offset },
        text,
      );
    }
    // Line and column after line breaks of every kind.
    const p = onlyProblem('{\r\n\t"workbookId":\n\t\t7\n  "x": 1}');
    assert.equal(p.message, "Invalid JSON: Expected ',' or '}'");
    assert.deepEqual([p.line, p.column], [3, 2]);
  });

  it('reads spaces, tabs, CR and LF anywhere JSON allows them, empty objects and arrays included', () => {
    for (const ws of [' ', '\t', '\r', '\n', ' \r\n\t ']) {
      const text = withBadTheme(
        `"config0":${ws}{${ws}},${ws}"list":${ws}[${ws}],${ws}"more":${ws}[${ws}1${ws},${ws}{}${ws}]`,
        ws,
      );
      const r = parseDashboardFile(text);
      assert.ok(!r.ok, JSON.stringify(ws));
      assert.equal(r.problems.length, 1, `${JSON.stringify(ws)}: ${r.problems[0]?.message}`);
      assert.match(r.problems[0]!.message, /^config\.theme\.primaryColor: "banana" is not /);
      assert.deepEqual(r.input, {
        workbookId: 7,
        config0: {},
        list: [],
        more: [1, {}],
        config: { theme: { primaryColor: 'banana' } },
      } as never);
    }
  });

  it('decodes every escape and keeps plain text as written, as JSON.parse does', () => {
    const title = String.raw`q\" b\\ s\/ \b\f\n\r\t \u00e9\u00C9 end`;
    const text = withBadTheme(`"title": "${title}", "description": "plain text, no escape"`);
    const r = parseDashboardFile(text);
    assert.ok(!r.ok);
    assert.equal(r.input?.title, JSON.parse(`"${title}"`));
    assert.equal(r.input?.description, 'plain text, no escape');
    // An escaped key is the key it spells: its problem is found at its value.
    const keyed = '{"workbookId": 7, "ti\\u0074le": 5}';
    const p = onlyProblem(keyed);
    assert.deepEqual(p.path, ['title']);
    assert.equal(keyed.slice(p.offset, p.offset + p.length), '5');
  });

  it('reads numbers as JSON does: fractions, exponents with and without a sign', () => {
    const text = withBadTheme('"n": [0, -0.25, 1.125, 12e10, 2E-7, -3.5e+2, 10]');
    const r = parseDashboardFile(text);
    assert.ok(!r.ok);
    assert.deepEqual((r.input as unknown as { n: number[] }).n, [0, -0.25, 1.125, 12e10, 2e-7, -350, 10]);
  });

  it('puts a problem at the exact span of its value, in arrays and objects alike', () => {
    const text =
      '{"workbookId": 7, "config": {"widgets": [{"id": "a", "position": {"h": 1, "w": 1, "x": 0, "y": 0}}, ' +
      '{"id": "b", "position": {"h": 1, "w": 1, "x": [true], "y": 0}}]}}';
    const p = onlyProblem(text);
    assert.deepEqual(p.path, ['config', 'widgets', 1, 'position', 'x']);
    assert.equal(p.offset, text.indexOf('[true]'));
    assert.equal(p.length, '[true]'.length);
    // A missing member is reported at the object that lacks it, not at the file.
    const missing = '{"workbookId": 7, "config": {"widgets": [{"id": "a"}]}}';
    const m = onlyProblem(missing);
    assert.deepEqual(m.path.slice(0, 3), ['config', 'widgets', 0]);
    assert.equal(missing.slice(m.offset, m.offset + m.length), '{"id": "a"}');
  });

  it('lists MAX_PROBLEMS problems without a note, and one more as "1 more problem"', () => {
    const file = (n: number) =>
      JSON.stringify({
        workbookId: 7,
        config: {
          widgets: Array.from({ length: n }, (_v, i) => ({
            id: `w${i}`,
            position: { h: 1, w: 1, x: 'a', y: 0 },
          })),
        },
      });
    const exact = parseDashboardFile(file(MAX_PROBLEMS));
    assert.ok(!exact.ok);
    assert.equal(exact.problems.length, MAX_PROBLEMS);
    assert.ok(exact.problems.every((p) => p.path.length === 5));
    const over = parseDashboardFile(file(MAX_PROBLEMS + 1));
    assert.ok(!over.ok);
    assert.equal(over.problems.length, MAX_PROBLEMS + 1);
    assert.deepEqual(over.problems.at(-1), {
      message: '…and 1 more problem (fix the ones above first).',
      path: [],
      offset: 0,
      length: 0,
      line: 0,
      column: 0,
    });
  });

  it('accepts nesting exactly MAX_DEPTH deep and refuses one level more with a whole problem', () => {
    const nested = (levels: number) =>
      `{"workbookId": 7, "config": {"x": ${'['.repeat(levels - 2)}${']'.repeat(levels - 2)}}}`;
    assert.ok(parseDashboardFile(nested(MAX_DEPTH)).ok);
    const r = parseDashboardFile(nested(MAX_DEPTH + 1));
    assert.ok(!r.ok);
    assert.deepEqual(r.problems, [
      {
        message: `The file nests values ${MAX_DEPTH + 1} levels deep; at most ${MAX_DEPTH} are supported. Flatten the deepest values.`,
        path: [],
        offset: 0,
        length: 0,
        line: 0,
        column: 0,
      },
    ]);
  });

  it('reads a "__proto__" member as data, as JSON.parse does, never as fields the file lacks', () => {
    // Without workbookId the file is refused, whatever its "__proto__" member holds.
    const p = onlyProblem('{"__proto__": {"workbookId": 7}}');
    assert.deepEqual(p.path, ['workbookId']);
    // Its fields never become the file's (the schema's output drops the member itself, on both paths).
    const r = parseDashboardFile(withBadTheme('"__proto__": {"x": 1}'));
    assert.ok(!r.ok);
    assert.ok(r.input && !('x' in r.input), JSON.stringify(r.input));
  });

  it('a valid file takes the fast path: the locating parser never runs for it', () => {
    const stats = { work: 0 };
    assert.ok(parseDashboardFile('{"workbookId": 7, "config": {"title": "x"}}', stats).ok);
    assert.equal(stats.work, 0);
    const located = { work: 0 };
    assert.ok(!parseDashboardFile('{"workbookId": "7"}', located).ok);
    assert.ok(located.work > 0);
  });
});

describe('dashboard file: pull, name, save path and draft', () => {
  it("pulls the published dashboard's title and description from the wrapper, null when it has none", () => {
    const wrapped = {
      id: 4,
      name: 'w',
      dashboardPublished: {
        id: 8,
        allowEmbed: false,
        title: null,
        description: 'pd',
        config: { title: 'c' },
      },
    };
    assert.deepEqual(dashboardFromWorkbook(wrapped, 'published'), {
      workbookId: 4,
      dashboardId: 8,
      allowEmbed: false,
      title: null,
      description: 'pd',
      config: { title: 'c' },
    } as never);
    // A draft's nulls are not copied: a draft keeps its title in its config.
    const draftNull = { id: 4, name: 'w', dashboardDraft: { title: null, config: { description: 'cd' } } };
    assert.deepEqual(dashboardFromWorkbook(draftNull), {
      workbookId: 4,
      description: 'cd',
      config: { description: 'cd' },
    } as never);
  });

  it('pulls from the newer shape: a published Dashboard with its title beside a bare config', () => {
    const workbook = {
      id: 5,
      name: 'w',
      publishedDashboard: {
        id: 9,
        allowEmbed: true,
        title: 'On the dashboard',
        description: null,
        config: { title: 'cfg' },
      },
    };
    assert.deepEqual(dashboardFromWorkbook(workbook, 'published'), {
      workbookId: 5,
      dashboardId: 9,
      allowEmbed: true,
      title: 'On the dashboard',
      description: null,
      config: { title: 'cfg' },
    } as never);
    // Only the draft asked for, and none: the published config, its title from the config.
    assert.deepEqual(dashboardFromWorkbook(workbook), {
      workbookId: 5,
      dashboardId: 9,
      allowEmbed: true,
      title: 'cfg',
      config: { title: 'cfg' },
    } as never);
    // Ids and flags of the wrong type are not copied.
    assert.deepEqual(
      dashboardFromWorkbook({ id: 6, name: 'w', publishedDashboard: { id: '9', allowEmbed: 'yes' } }),
      {
        workbookId: 6,
      },
    );
  });

  it('takes the title from the right place in each published shape, and survives a corrupt draft', () => {
    // A published wrapper (title beside its config) wins over the newer published Dashboard.
    const both = {
      id: 7,
      name: 'w',
      dashboardPublished: { title: 'Wrapper', config: { title: 'c' } },
      publishedDashboard: { id: 9, title: 'Dashboard', config: { title: 'c2' } },
    };
    assert.deepEqual(dashboardFromWorkbook(both, 'published'), {
      workbookId: 7,
      dashboardId: 9,
      title: 'Wrapper',
      config: { title: 'c' },
    } as never);
    // A bare published config: the title is the published Dashboard's, not the config's.
    const bare = {
      id: 7,
      name: 'w',
      dashboardPublished: { title: 'cfg' },
      publishedDashboard: { id: 9, title: 'Dashboard', config: { title: 'inner' } },
    };
    assert.deepEqual(dashboardFromWorkbook(bare, 'published'), {
      workbookId: 7,
      dashboardId: 9,
      title: 'Dashboard',
      config: { title: 'cfg' },
    } as never);
    // Nothing published: the draft's config.
    assert.deepEqual(
      dashboardFromWorkbook({ id: 7, name: 'w', dashboardDraft: { title: 'd' } }, 'published'),
      {
        workbookId: 7,
        title: 'd',
        config: { title: 'd' },
      } as never,
    );
    // A draft that is not an object is ignored, never a TypeError.
    assert.deepEqual(dashboardFromWorkbook({ id: 7, name: 'w', dashboardDraft: 'corrupt' }), {
      workbookId: 7,
    });
    // A unicode escape is \u and four hex digits only.
    assert.equal(onlyProblem('{"title": "\\x0041"}').message, 'Invalid JSON: Invalid escape in string');
  });

  it('names the file with one dash between words and none at the ends', () => {
    assert.equal(dashboardFileName('  Sales -- Q1 / EMEA!! '), 'sales-q1-emea.dashboard.json');
    assert.equal(dashboardFileName('--x--'), 'x.dashboard.json');
  });

  it('normalises a picked save path to exactly one .dashboard.json', () => {
    assert.equal(normaliseDashboardPath('/w/sales.dashboard.json'), '/w/sales.dashboard.json');
    assert.equal(normaliseDashboardPath('/w/sales.Dashboard.JSON'), '/w/sales.Dashboard.JSON');
    assert.equal(normaliseDashboardPath('/w/sales.dashboard.json.dashboard.json'), '/w/sales.dashboard.json');
    assert.equal(
      normaliseDashboardPath('/w/sales.dashboard.json.dashboard.json.dashboard.json'),
      '/w/sales.dashboard.json',
    );
    assert.equal(normaliseDashboardPath('/w/sales.json'), '/w/sales.dashboard.json');
    assert.equal(normaliseDashboardPath('/w/sales.JSON'), '/w/sales.dashboard.json');
    assert.equal(normaliseDashboardPath('/w/sales'), '/w/sales.dashboard.json');
    assert.equal(normaliseDashboardPath('/w/json.notes'), '/w/json.notes.dashboard.json');
    assert.equal(
      normaliseDashboardPath('/w/a.dashboard.json.dashboard.json.bak'),
      '/w/a.dashboard.json.dashboard.json.bak.dashboard.json',
    );
    assert.equal(normaliseDashboardPath('/w/a.dashboard.json.bak'), '/w/a.dashboard.json.bak.dashboard.json');
    assert.equal(normaliseDashboardPath('/w/a.json.v2'), '/w/a.json.v2.dashboard.json');
  });

  it("the draft a file saves is its config with the file's title and description, unknown fields kept", () => {
    assert.deepEqual(
      draftOf({
        workbookId: 1,
        title: 'T',
        description: null,
        config: { title: 'old', extra: { k: 1 } } as never,
      }),
      { title: 'T', description: null, extra: { k: 1 } },
    );
    assert.deepEqual(draftOf({ workbookId: 1, config: { title: 'kept' } as never }), { title: 'kept' });
    assert.deepEqual(draftOf({ workbookId: 1, description: 'd' }), { description: 'd' });
  });
});

describe('dashboard file: theme values', () => {
  it('checks fields named ...color (any case) as colours; blank, non-string and other fields are not checked', () => {
    assert.match(themeValueProblem(['widgets', 'borderCOLOR'], 'banana') ?? '', /^"banana" is not /);
    assert.equal(themeValueProblem(['primaryColor'], '#123456'), undefined);
    assert.equal(themeValueProblem(['primaryColor'], '   '), undefined, 'blank is unset');
    assert.equal(themeValueProblem(['primaryColor'], 5), undefined, 'the schema reports a wrong type');
    assert.equal(themeValueProblem(['colorScheme'], 'banana'), undefined, 'not a colour field');
    assert.equal(themeValueProblem([], 'banana'), undefined);
    assert.match(themeValueProblem(['widgets', 'border', 'style'], 'banana') ?? '', /^"banana" is not /);
    assert.equal(themeValueProblem(['fonts', 'style'], 'banana'), undefined, 'only a border has a style');
  });
});
