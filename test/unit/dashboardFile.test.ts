// *.dashboard.json parsing: syntax errors at their line/column, zod issues at the value their path
// names (or the parent object of a missing field), unknown fields kept, and the pull from a workbook.
import { strict as assert } from 'node:assert';
import {
  dashboardFileName,
  dashboardFromWorkbook,
  formatDashboardFile,
  formatPath,
  MAX_PROBLEMS,
  parseDashboardFile,
} from '../../src/dashboards/dashboardFile';

const valid = {
  workbookId: 7,
  title: 'Sales "weekly" \u00e9',
  config: {
    title: 'Sales',
    widgets: [{ id: 'w1', position: { h: 1, w: 2, x: 0, y: 0 }, custom: { keep: [1, null, true] } }],
    futureField: { nested: 1.5e3 },
  },
  topLevelExtra: 'kept',
};

describe('dashboard file', () => {
  it('parses a valid file and keeps every field the user wrote', () => {
    const text = formatDashboardFile(valid);
    const r = parseDashboardFile(text);
    assert.ok(r.ok);
    assert.deepEqual(r.input, valid);
    assert.equal(text, `${JSON.stringify(valid, null, 2)}\n`);
  });

  it('locates a JSON syntax error by line and column', () => {
    const text = '{\n  "workbookId": 7,\n  "title": "x"\n  "config": {}\n}\n';
    const r = parseDashboardFile(text);
    assert.ok(!r.ok);
    assert.equal(r.problems.length, 1);
    const p = r.problems[0]!;
    assert.match(p.message, /^Invalid JSON: Expected ',' or '}'/);
    assert.deepEqual([p.line, p.column], [3, 2]);
    assert.equal(text.slice(p.offset, p.offset + 8), '"config"');
  });

  it('reports an unterminated string, a trailing comma and trailing text', () => {
    for (const [text, re] of [
      ['{"workbookId": 7, "title": "abc', /Unterminated string/],
      ['{"workbookId": 7,}', /property name/],
      ['{"workbookId": 7} x', /after the end/],
      ['', /end of file/],
    ] as const) {
      const r = parseDashboardFile(text);
      assert.ok(!r.ok, text);
      assert.match(r.problems[0]!.message, re);
    }
  });

  it('maps a zod issue to the location of the value its path names', () => {
    const text = formatDashboardFile({
      workbookId: 7,
      config: { widgets: [{ id: 'w1', position: { h: 1, w: 2, x: 'left', y: 0 } }] },
    } as never);
    const r = parseDashboardFile(text);
    assert.ok(!r.ok);
    const p = r.problems[0]!;
    assert.deepEqual(p.path, ['config', 'widgets', 0, 'position', 'x']);
    assert.match(p.message, /^config\.widgets\[0\]\.position\.x: /);
    assert.equal(text.slice(p.offset, p.offset + p.length), '"left"');
    const lines = text.split('\n');
    assert.equal(lines[p.line]!.slice(p.column, p.column + 6), '"left"');
  });

  it('reports a missing required field at its parent object', () => {
    const text = '{\n  "title": "no workbook"\n}';
    const r = parseDashboardFile(text);
    assert.ok(!r.ok);
    const p = r.problems[0]!;
    assert.deepEqual(p.path, ['workbookId']);
    assert.match(p.message, /^workbookId: /);
    assert.deepEqual([p.offset, p.line, p.column], [0, 0, 0]);
    assert.equal(p.length, text.length);
  });

  it('reads a file whose only problems are values, and says where they are', () => {
    const text = JSON.stringify({ workbookId: 1, config: { theme: { primaryColor: 'banana' } } }, null, 2);
    const r = parseDashboardFile(text);
    assert.ok(!r.ok);
    assert.deepEqual(
      r.problems.map((p) => p.path),
      [['config', 'theme', 'primaryColor']],
    );
    assert.deepEqual(r.input?.config?.theme, { primaryColor: 'banana' }, 'the input as written');
    const broken = parseDashboardFile('{"workbookId": "x", "config": {"theme": {"primaryColor": "banana"}}}');
    assert.ok(!broken.ok && broken.input === undefined, 'a broken shape has no input');
  });

  it('formats JSON paths', () => {
    assert.equal(formatPath([]), '');
    assert.equal(formatPath(['config', 'widgets', 2, 'id']), 'config.widgets[2].id');
  });

  it('pulls the draft (or the published dashboard) of a workbook into a publish input', () => {
    const workbook = {
      id: 12,
      name: 'Sales Dashboard',
      dashboardDraft: { title: 'Draft title', description: 'd', config: { title: 'Draft title', extra: 1 } },
      dashboardPublished: { id: 99, allowEmbed: true, title: 'Pub', config: { title: 'Pub' } },
    };
    assert.deepEqual(dashboardFromWorkbook(workbook), {
      workbookId: 12,
      dashboardId: 99,
      allowEmbed: true,
      title: 'Draft title',
      description: 'd',
      config: { title: 'Draft title', extra: 1 },
    });
    assert.deepEqual(dashboardFromWorkbook(workbook, 'published'), {
      workbookId: 12,
      dashboardId: 99,
      allowEmbed: true,
      title: 'Pub',
      config: { title: 'Pub' },
    });
    assert.deepEqual(dashboardFromWorkbook({ id: 3, name: 'x', dashboardPublished: null }), {
      workbookId: 3,
    });
    const pulled = parseDashboardFile(formatDashboardFile(dashboardFromWorkbook(workbook)));
    assert.ok(pulled.ok);
  });

  it('pulls from the published shapes: configs in dashboardDraft/dashboardPublished, the Dashboard in publishedDashboard', () => {
    const workbook = {
      id: 12,
      name: 'Sales Dashboard',
      dashboardDraft: { title: 'Draft title', layout: null, widgets: null },
      dashboardPublished: { title: 'Pub', theme: null },
      publishedDashboard: { id: 99, publicId: 'abcdefabcdef', allowEmbed: false, config: { title: 'Pub' } },
    };
    assert.deepEqual(dashboardFromWorkbook(workbook), {
      workbookId: 12,
      dashboardId: 99,
      allowEmbed: false,
      title: 'Draft title',
      config: { title: 'Draft title', layout: null, widgets: null },
    });
    assert.deepEqual(dashboardFromWorkbook(workbook, 'published'), {
      workbookId: 12,
      dashboardId: 99,
      allowEmbed: false,
      title: 'Pub',
      config: { title: 'Pub', theme: null },
    });
    // Nulls the service sends are valid in the file too.
    assert.ok(parseDashboardFile(formatDashboardFile(dashboardFromWorkbook(workbook))).ok);
  });

  it('names the file after the workbook', () => {
    assert.equal(dashboardFileName('Sales Dashboard 2'), 'sales-dashboard-2.dashboard.json');
    assert.equal(dashboardFileName('***'), 'dashboard.dashboard.json');
  });
});

describe('dashboard file: large and hostile files', () => {
  /** A valid file with `bad` widgets whose position.x is a string (one problem each), ~400 bytes a widget. */
  function fileWith(bad: number): string {
    const widgets = Array.from({ length: bad }, (_v, i) => ({
      id: `w${i}`,
      position: { h: 1, w: 2, x: 'zero', y: i },
      custom: { note: 'x'.repeat(300) },
    }));
    return formatDashboardFile({ workbookId: 7, config: { title: 'Big', widgets } } as never);
  }

  it('locates problems with work linear in the file size and lists at most MAX_PROBLEMS of them', () => {
    const small = fileWith(2_000);
    const large = fileWith(4_000);
    assert.ok(large.length > 1_600_000, `${large.length} bytes`);
    const s1 = { work: 0 };
    const r1 = parseDashboardFile(small, s1);
    const s2 = { work: 0 };
    const r2 = parseDashboardFile(large, s2);
    assert.ok(!r1.ok && !r2.ok);
    assert.equal(r1.problems.length, MAX_PROBLEMS + 1);
    assert.match(r1.problems.at(-1)!.message, /and 1900 more problems/);
    assert.match(r2.problems.at(-1)!.message, /and 3900 more problems/);
    // The first problem is where the value is (line/column from the line index).
    const first = r1.problems[0]!;
    assert.equal(first.path.join('.'), 'config.widgets.0.position.x');
    assert.equal(small.split('\n')[first.line]!.slice(first.column, first.column + 6), '"zero"');
    // Work: one pass over the text plus a binary search per listed problem; doubling the file
    // doubles it (a scan from the start per problem would be thousands of times more).
    const perProblem = Math.ceil(Math.log2(small.split('\n').length)) + 1;
    assert.ok(s1.work >= small.length, `work ${s1.work}`);
    assert.ok(s1.work <= small.length + (MAX_PROBLEMS + 1) * perProblem, `work ${s1.work}`);
    const ratio = s2.work / s1.work;
    assert.ok(ratio > 1.8 && ratio < 2.2, `ratio ${ratio}`);
  });

  it('very deep nesting is a clear problem, never a RangeError', () => {
    const deep = `{"workbookId": 7, "config": {"x": ${'['.repeat(5_000)}${']'.repeat(5_000)}}}`;
    const r = parseDashboardFile(deep);
    assert.ok(!r.ok);
    assert.equal(r.problems.length, 1);
    assert.match(r.problems[0]!.message, /nests values 5002 levels deep; at most 256/);
    // Unbalanced and deep (a syntax error deep down) too.
    const r2 = parseDashboardFile(`{"config": ${'['.repeat(20_000)}`);
    assert.ok(!r2.ok);
    assert.match(r2.problems[0]!.message, /levels deep/);
  });
});
