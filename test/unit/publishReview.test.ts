// The publish review: formatting-only differences (arrays expanded or inline, key order, widget
// order) vanish from the normalised texts; real changes are summarised by name; theme values that
// are not CSS are problems at their location, in the file parser and in the JSON Schema.
import { strict as assert } from 'node:assert';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import Ajv from 'ajv';
import type { PublishDashboardInput } from '../../src/api/schemas/platform';
import { normaliseDashboardPath, parseDashboardFile } from '../../src/dashboards/dashboardFile';
import { dashboardJsonSchema } from '../../src/dashboards/dashboardSchema';
import {
  checkReview,
  DOCUMENTED_SERVER_FILLS,
  detectStyle,
  formatJson,
  learnServerFills,
  publishReview,
  summariseChanges,
  withoutServerFills,
} from '../../src/dashboards/publishReview';
import { dashboardFromWorkbook } from '../../src/dashboards/dashboardFile';
import { requireReference, type Json } from '../contract/openapiDocs';
import { isCssValue, themeProblems } from '../../src/shared/cssValues';

const root = join(__dirname, '..', '..', '..');
const demoText = readFileSync(join(root, 'demo', 'revenue.dashboard.json'), 'utf8');

function demo(): PublishDashboardInput {
  const r = parseDashboardFile(demoText);
  assert.ok(r.ok, 'the demo dashboard is valid');
  return r.input;
}

type W = { id: string; position: { x: number; y: number; w: number; h: number } };
const widgetsOf = (x: PublishDashboardInput) => x.config!.widgets as unknown as W[];

describe('publish review', () => {
  it('shows a description the publish changes, at the top and in the config', () => {
    const local = demo() as PublishDashboardInput & { description?: string };
    assert.ok(local.description, 'the demo file has a description');
    const published = JSON.parse(JSON.stringify(local)) as PublishDashboardInput & { description?: string };
    published.description = 'Old words';
    (published.config as { description?: string }).description = 'Old words';
    const review = publishReview(demoText, local, published);
    assert.deepEqual(review.changes, ['description changed', 'config.description changed']);
    assert.match(review.left, /"description": "Old words"/);
    assert.match(review.right, new RegExp(`"description": "${local.description}"`));
    // Unchanged, it is no change at all.
    assert.deepEqual(publishReview(demoText, local, demo()).changes, []);
  });

  it('shows no change when only the formatting, key order and widget order differ', () => {
    const local = demo();
    // What the service returns: arrays expanded, keys in another order, widgets reversed.
    const published = JSON.parse(JSON.stringify(local)) as PublishDashboardInput;
    published.config!.widgets = [...widgetsOf(published)].reverse() as never;
    const reordered = Object.fromEntries(Object.entries(published).reverse()) as PublishDashboardInput;
    const review = publishReview(demoText, local, reordered);
    assert.equal(review.left, review.right);
    assert.deepEqual(review.changes, []);
    assert.equal(review.summary, 'no changes');
    // The texts keep the file's own style: 2-space indent and short arrays inline.
    assert.match(review.right, /"containerPadding": \[16, 16\]/);
    assert.ok(review.right.startsWith('{\n  "workbookId"'));
  });

  it('names moved widgets and changed theme values, and the diff holds only those lines', () => {
    const published = demo();
    const local = demo();
    widgetsOf(local)[1]!.position.x += 1;
    widgetsOf(local)[2]!.position.y += 2;
    local.config!.theme!.primaryColor = '#ff0000';
    const review = publishReview(demoText, local, published);
    assert.deepEqual(review.changes, ['2 widgets moved', 'theme.primaryColor changed']);
    assert.equal(review.summary, '2 widgets moved, theme.primaryColor changed');
    const left = review.left.split('\n');
    const right = review.right.split('\n');
    assert.equal(left.length, right.length);
    const differing = left.filter((line, i) => line !== right[i]);
    assert.equal(differing.length, 3, `only the changed lines differ: ${differing.join(' | ')}`);
  });

  it('counts added, removed and resized widgets and reports a first publish', () => {
    const published = demo();
    const local = demo();
    const ws = widgetsOf(local);
    ws[0]!.position.w -= 1;
    ws.pop();
    ws.push({ id: 'new1', position: { x: 0, y: 40, w: 2, h: 2 } });
    ws.push({ id: 'new2', position: { x: 2, y: 40, w: 2, h: 2 } });
    assert.deepEqual(summariseChanges(published, local), [
      '2 widgets added',
      '1 widget removed',
      '1 widget resized',
    ]);
    assert.match(summariseChanges(undefined, local)[0]!, /^first publish, \d+ widgets$/);
  });

  it('leaves out top-level fields the file does not send', () => {
    const local = demo();
    delete local.dashboardId;
    const published = { ...demo(), allowEmbed: false };
    const review = publishReview(demoText, local, published);
    assert.deepEqual(review.changes, []);
    assert.ok(!review.left.includes('allowEmbed') && !review.left.includes('dashboardId'));
  });

  it('hides what the server fills in for fields the file does not write, and keeps real changes', () => {
    const local = demo();
    // What the sandbox (like the service) answers for the demo file: kind and app filled in, and
    // nulls where the file writes nothing.
    const published = JSON.parse(JSON.stringify(local)) as PublishDashboardInput;
    const config = published.config as Record<string, unknown>;
    Object.assign(config, { kind: 'CLASSIC', app: null });
    const first = widgetsOf(published)[0] as unknown as Record<string, unknown>;
    first.config = { ...(first.config as object), filters: null };
    const review = publishReview(demoText, local, published);
    assert.deepEqual(review.changes, []);
    assert.equal(review.left, review.right);
    assert.doesNotMatch(review.left, /^ {4}"kind"|"app"/m);
    // The file round trip keeps them: a file that writes them sends and shows them.
    const written = JSON.parse(JSON.stringify(published)) as PublishDashboardInput;
    assert.match(publishReview(demoText, written, published).right, /"kind": "CLASSIC"/);
    // A filled field whose value is not the fill is a change the publish makes (APP → CLASSIC).
    config.kind = 'APP';
    assert.deepEqual(publishReview(demoText, local, published).changes, ['config.kind changed']);
    // A field the user deleted from the file is shown as removed.
    const trimmed = demo();
    delete (trimmed.config!.theme as Record<string, unknown>).primaryColor;
    assert.deepEqual(publishReview(demoText, trimmed, demo()).changes, ['theme.primaryColor changed']);
  });

  it('counts a null the file writes for a field the answer leaves out as no change', () => {
    const local = demo();
    (local.config as Record<string, unknown>).app = null;
    assert.deepEqual(publishReview(demoText, local, demo()).changes, []);
    assert.deepEqual(withoutServerFills({ a: 1 }, { a: 1, b: null }, {}), { a: 1, b: null });
  });

  it('learns the fields a server adds from its publish answer (widgets matched by id)', () => {
    const sent = { title: 'T', widgets: [{ id: 'a', position: {} }], theme: { primaryColor: '#fff' } };
    const answer = {
      title: 'T',
      kind: 'CLASSIC',
      app: null,
      widgets: [{ id: 'a', position: {}, style: {} }],
      theme: { primaryColor: '#fff', themeId: 'default' },
    };
    assert.deepEqual(learnServerFills(sent, answer), {
      'config.kind': 'CLASSIC',
      'config.widgets[].style': {},
      'config.theme.themeId': 'default',
    });
    // What is learned hides exactly those values when the file leaves the fields out.
    const fills = learnServerFills(sent, answer);
    const left = withoutServerFills({ config: answer }, { config: sent }, fills);
    assert.deepEqual(left, { config: sent });
  });

  it('compares with the title and description of the published dashboard', () => {
    const local = demo();
    const config = JSON.parse(JSON.stringify(local.config)) as Record<string, unknown>;
    const workbook = {
      id: 1001,
      name: 'Revenue Dashboard',
      dashboardPublished: config,
      publishedDashboard: { id: 1001, versionNumber: 2, title: local.title, description: null, config },
    };
    const published = dashboardFromWorkbook(workbook, 'published');
    assert.equal(published.description, null);
    assert.deepEqual(publishReview(demoText, local, published).changes, ['description changed']);
  });

  it('follows the file style: tabs and expanded arrays', () => {
    const text = JSON.stringify({ a: [1, 2] }, null, '\t');
    assert.deepEqual(detectStyle(text), { indent: '\t', inlineScalarArrays: false });
    assert.deepEqual(detectStyle('{\n    "a": [1, 2]\n}'), { indent: '    ', inlineScalarArrays: true });
  });
});

describe('publish review binding', () => {
  const basis = { text: demoText, publishedVersion: 3, changes: ['2 widgets moved'] };
  const now = { text: demoText, dirty: false, publishedVersion: 3 };

  it('publishes a review only while the file and the published version are what it compared', () => {
    assert.deepEqual(checkReview(basis, now), { kind: 'publish' });
    assert.deepEqual(checkReview(basis, { ...now, text: `${demoText} ` }), {
      kind: 'stale',
      why: 'file',
      detail: 'changed since this review',
    });
    assert.deepEqual(checkReview(basis, { ...now, dirty: true }), {
      kind: 'stale',
      why: 'file',
      detail: 'has unsaved changes',
    });
    assert.deepEqual(checkReview(basis, { ...now, publishedVersion: 4 }), {
      kind: 'stale',
      why: 'published',
      detail: 'version 3 → 4',
    });
    assert.deepEqual(
      checkReview({ ...basis, publishedVersion: undefined }, { ...now, publishedVersion: 1 }),
      {
        kind: 'stale',
        why: 'published',
        detail: 'version none → 1',
      },
    );
  });

  it('has nothing to publish for a review without changes, unless it went stale', () => {
    const empty = { ...basis, changes: [] };
    assert.deepEqual(checkReview(empty, now), { kind: 'nothing' });
    // A stale "no changes" review is reviewed again: the new review may find changes.
    assert.equal(checkReview(empty, { ...now, text: '{}' }).kind, 'stale');
  });
});

describe('dashboard theme values', () => {
  it('accepts CSS colours and sizes and rejects the rest', () => {
    for (const c of [
      '#fff',
      '#5b5fc7',
      '#5b5fc780',
      'rgb(1 2 3)',
      'rgba(1,2,3,.5)',
      'hsl(200 50% 50%)',
      'red',
      'Red',
      'transparent',
      'var(--accent)',
    ])
      assert.ok(isCssValue('colour', c), c);
    for (const c of ['banana', '#12', '#ggg', 'rgb(1,2', '12px', '']) assert.ok(!isCssValue('colour', c), c);
    for (const s of ['0', '12px', '0.5rem', '8px 12px', '1px 2px 3px 4px', 'calc(100% - 4px)', '50%'])
      assert.ok(isCssValue('size', s), s);
    for (const s of ['12', 'banana', '1px 2px 3px 4px 5px', 'px']) assert.ok(!isCssValue('size', s), s);
    assert.ok(isCssValue('fontWeight', '600') && !isCssValue('fontWeight', 'heavy'));
    assert.ok(isCssValue('borderStyle', 'dashed') && !isCssValue('borderStyle', 'wavy'));
  });

  it('finds every bad theme value by path', () => {
    assert.deepEqual(
      themeProblems({ primaryColor: 'banana', widgets: { padding: '12', border: { color: '#abc' } } }).map(
        (p) => p.path.join('.'),
      ),
      ['primaryColor', 'widgets.padding'],
    );
  });

  it('makes "banana" a problem at its location, in the parser and in the JSON Schema', () => {
    const bad = demoText.replace('"primaryColor": "#5b5fc7"', '"primaryColor": "banana"');
    assert.notEqual(bad, demoText);
    const r = parseDashboardFile(bad);
    assert.ok(!r.ok);
    assert.equal(r.problems.length, 1);
    const p = r.problems[0]!;
    assert.deepEqual(p.path, ['config', 'theme', 'primaryColor']);
    assert.match(p.message, /config\.theme\.primaryColor: "banana" is not a CSS colour/);
    assert.equal(bad.slice(p.offset, p.offset + p.length), '"banana"');

    const ajv = new Ajv({ strict: false });
    const validate = ajv.compile(dashboardJsonSchema());
    assert.equal(validate(JSON.parse(demoText)), true, JSON.stringify(validate.errors));
    assert.equal(validate(JSON.parse(bad)), false);
    assert.equal(validate.errors?.[0]?.instancePath, '/config/theme/primaryColor');
  });
});

describe('dashboard file names', () => {
  it('keeps one .dashboard.json suffix whatever the save dialog returned', () => {
    assert.equal(normaliseDashboardPath('/w/sales.dashboard.json'), '/w/sales.dashboard.json');
    assert.equal(normaliseDashboardPath('/w/sales.dashboard.json.dashboard.json'), '/w/sales.dashboard.json');
    assert.equal(normaliseDashboardPath('/w/sales.json'), '/w/sales.dashboard.json');
    assert.equal(normaliseDashboardPath('/w/sales'), '/w/sales.dashboard.json');
  });
});

// The review's noise rules, checked against the published documents (read from ../shared/reference).
describe('publish review against the published documents', function () {
  let schemas: Record<string, Json>;
  before(function () {
    schemas = requireReference(this).docs.platform.root.components.schemas as Record<string, Json>;
  });
  const props = (name: string) => Object.keys((schemas[name]?.properties ?? {}) as object);
  const nullable = (s: Json) =>
    Array.isArray(s?.oneOf) && (s.oneOf as Json[]).some((b) => b?.type === 'null');

  it('never shows the fields only the answer has (the published Dashboard against the input)', () => {
    const answerOnly = props('Dashboard').filter((k) => !props('PublishDashboardInput').includes(k));
    assert.ok(answerOnly.includes('publicId') && answerOnly.includes('versionNumber'), answerOnly.join());
    const local = demo();
    const config = JSON.parse(JSON.stringify(local.config)) as Record<string, unknown>;
    const dashboard: Record<string, unknown> = {
      id: local.dashboardId,
      title: local.title,
      description: local.description,
      config,
    };
    for (const k of answerOnly) dashboard[k] ??= k === 'reportSnapshots' ? [] : `server ${k}`;
    const published = dashboardFromWorkbook(
      { id: 1001, name: 'Revenue Dashboard', dashboardPublished: config, publishedDashboard: dashboard },
      'published',
    );
    const review = publishReview(demoText, local, published);
    assert.deepEqual(review.changes, []);
    for (const k of answerOnly) assert.doesNotMatch(review.left, new RegExp(`^  "${k}"`, 'm'), k);
  });

  it('hides nulls only where the input documents every field as nullable', () => {
    for (const name of [
      'PublishDashboardInput',
      'DashboardConfigInput',
      'DashboardLayoutInput',
      'DashboardThemeInput',
    ]) {
      const schema = schemas[name]!;
      const required = new Set((schema.required ?? []) as string[]);
      for (const [k, v] of Object.entries(schema.properties as Record<string, Json>)) {
        if (required.has(k)) continue;
        assert.ok(nullable(v), `${name}.${k} is nullable, so leaving it out and null mean the same`);
      }
    }
    const local = demo();
    const published = JSON.parse(JSON.stringify(local)) as PublishDashboardInput;
    for (const k of props('DashboardConfigInput').filter((k) => !(k in local.config!)))
      (published.config as Record<string, unknown>)[k] = null;
    assert.deepEqual(publishReview(demoText, local, published).changes, []);
  });

  it("fills the kind with a value of the documents' enum, the same in the answer and the input", () => {
    const kind = DOCUMENTED_SERVER_FILLS['config.kind'];
    assert.ok((schemas.DashboardConfigKind!.enum as string[]).includes(kind as string));
    assert.deepEqual(schemas.DashboardConfigKind!.enum, schemas.DashboardConfigInputKind!.enum);
  });
});

describe('publish review: summary and texts, exactly', () => {
  const base = (): PublishDashboardInput =>
    ({
      workbookId: 1,
      title: 'T',
      config: {
        theme: { a: '1', b: '1', c: '1', d: '1' },
        layout: { columns: 12 },
        widgets: [
          { id: 'w1', type: 'chart', position: { x: 0, y: 0, w: 2, h: 2 }, config: { title: 'One' } },
          { id: 'w2', type: 'chart', position: { x: 2, y: 0, w: 2, h: 2 } },
        ],
      },
    }) as unknown as PublishDashboardInput;
  type Cfg = {
    theme: Record<string, string>;
    layout: Record<string, number>;
    widgets: Record<string, unknown>[];
  };
  const cfg = (x: PublishDashboardInput) => x.config as unknown as Cfg;

  it('names up to three changed values of a group, counts more, and shortens a long summary', () => {
    const local = base();
    cfg(local).theme = { a: '2', b: '2', c: '2', d: '1' };
    assert.deepEqual(summariseChanges(base(), local), [
      'theme.a changed',
      'theme.b changed',
      'theme.c changed',
    ]);
    cfg(local).theme = { a: '2', b: '2', c: '2', d: '2' };
    cfg(local).layout = { columns: 6 };
    (cfg(local) as unknown as Record<string, unknown>).extra = 1;
    local.title = 'New';
    const changes = summariseChanges(base(), local);
    assert.deepEqual(changes, [
      'title changed',
      '4 theme values changed',
      'layout.columns changed',
      'config.extra changed',
    ]);
    const more = base();
    more.title = 'X';
    cfg(more).theme = { a: '2', b: '2', c: '2', d: '2' };
    cfg(more).layout = { columns: 1 };
    cfg(more).widgets[0]!.position = { x: 9, y: 0, w: 2, h: 2 };
    (cfg(more) as unknown as Record<string, unknown>).extra = 1;
    const review = publishReview(JSON.stringify(more, null, 2), more, base());
    assert.equal(
      review.summary,
      'title changed, 1 widget moved, 4 theme values changed, layout.columns changed and 1 more',
    );
  });

  it('tells moved, resized and reconfigured widgets apart, responsive boxes included', () => {
    const local = base();
    cfg(local).widgets[0]!.config = { title: 'Renamed' };
    cfg(local).widgets[1]!.responsiveLayouts = { sm: { x: 0, y: 5, w: 2, h: 2 } };
    assert.deepEqual(summariseChanges(base(), local), [
      '1 widget moved',
      '1 widget resized',
      '1 widget reconfigured',
    ]);
    const resized = base();
    cfg(resized).widgets[1]!.position = { x: 2, y: 0, w: 3, h: 2 };
    assert.deepEqual(summariseChanges(base(), resized), ['1 widget resized']);
    const withBoxes = base();
    cfg(withBoxes).widgets[1]!.responsiveLayouts = { sm: { x: 0, y: 0, w: 2, h: 2 } };
    const movedBox = JSON.parse(JSON.stringify(withBoxes)) as PublishDashboardInput;
    (cfg(movedBox).widgets[1]!.responsiveLayouts as Record<string, Record<string, number>>).sm!.y = 1;
    assert.deepEqual(summariseChanges(withBoxes, movedBox), ['1 widget moved']);
    // Keys in another order inside a widget are no change.
    const reordered = base();
    cfg(reordered).widgets[0] = Object.fromEntries(Object.entries(cfg(reordered).widgets[0]!).reverse());
    assert.deepEqual(summariseChanges(base(), reordered), []);
    const one = base();
    cfg(one).widgets.pop();
    assert.deepEqual(summariseChanges(undefined, one), ['first publish, 1 widget']);
    assert.deepEqual(summariseChanges(undefined, { workbookId: 1 } as PublishDashboardInput), [
      'first publish, 0 widgets',
    ]);
  });

  it('writes both sides in one style; nothing published is an empty left side', () => {
    const local = base();
    const text = JSON.stringify(local, null, 2);
    const first = publishReview(text, local, undefined);
    assert.equal(first.left, '');
    assert.equal(first.summary, 'first publish, 2 widgets');
    assert.equal(first.right, `${JSON.stringify(local, null, 2)}\n`);
    const odd = {
      workbookId: 1,
      config: { widgets: [], empty: {}, list: [{ a: 1 }, [1, 'x', null, true]], gone: undefined },
    };
    assert.equal(
      publishReview('{\n\t"a": [1]\n}', odd as unknown as PublishDashboardInput, undefined).right,
      '{\n\t"workbookId": 1,\n\t"config": {\n\t\t"widgets": [],\n\t\t"empty": {},\n\t\t"list": [\n\t\t\t{\n\t\t\t\t"a": 1\n\t\t\t},\n\t\t\t[1, "x", null, true]\n\t\t]\n\t}\n}\n',
    );
  });

  it('orders the published side like the file: its keys first, its widgets by id, the rest after', () => {
    const local = base();
    const published = base();
    const extra = { id: 'w0', type: 'text', position: { x: 0, y: 9, w: 1, h: 1 } };
    const noId = { type: 'note', position: { x: 0, y: 9, w: 1, h: 1 } };
    cfg(published).widgets = [noId, extra, cfg(published).widgets[1]!, cfg(published).widgets[0]!] as never;
    const review = publishReview(JSON.stringify(local, null, 2), local, published);
    const ids = [...review.left.matchAll(/"(?:id|type)": "(\w+)"/g)].map((m) => m[1]);
    assert.deepEqual(ids, ['w1', 'chart', 'w2', 'chart', 'note', 'w0', 'text']);
    assert.deepEqual(review.changes, ['1 widget removed']);
  });
});

describe('publish review: styles, odd shapes and matching, exactly', () => {
  const pub = (config: Record<string, unknown>, extra: Record<string, unknown> = {}) =>
    ({ workbookId: 1, ...extra, config }) as unknown as PublishDashboardInput;
  const style = { indent: '  ', inlineScalarArrays: false };

  it('detects tabs, a two-space default and spaced inline arrays', () => {
    assert.deepEqual(detectStyle('{"a":1}'), { indent: '  ', inlineScalarArrays: false });
    // A tab first is a tab-indented file, whatever follows it on the line.
    assert.equal(detectStyle('{\n\t  "a": 1\n}').indent, '\t');
    assert.equal(detectStyle('{\n    "a": 1\n}').indent, '    ');
    // Inline arrays with spaces inside the brackets (as some formatters write them).
    assert.equal(detectStyle('{\n  "a": [ 1, 2 ]\n}').inlineScalarArrays, true);
    assert.equal(detectStyle('{\n  "a": [\n    1\n  ],\n  "b": []\n}').inlineScalarArrays, false);
  });

  it('writes empty and mixed arrays and missing values as JSON does', () => {
    assert.equal(formatJson({ a: [], b: {} }, style), '{\n  "a": [],\n  "b": {}\n}\n');
    assert.equal(formatJson([1, undefined], style), '[\n  1,\n  null\n]\n');
    assert.equal(formatJson(undefined, style), 'null\n');
    // Inline only when every item is a scalar: an object among them expands the array.
    assert.equal(
      formatJson({ a: [1, { b: 2 }] }, { indent: '  ', inlineScalarArrays: true }),
      '{\n  "a": [\n    1,\n    {\n      "b": 2\n    }\n  ]\n}\n',
    );
  });

  it('counts layout and other config values, and lists four changes without "and 0 more"', () => {
    const before = pub({ layout: { a: 1, b: 1, c: 1, d: 1 }, p: 1, q: 1, r: 1, s: 1 });
    const after = pub({ layout: { a: 2, b: 2, c: 2, d: 2 }, p: 2, q: 2, r: 2, s: 2 });
    assert.deepEqual(summariseChanges(before, after), ['4 layout values changed', '4 config values changed']);
    const four = pub({ p: 2, q: 2, r: 2 }, { title: 'New' });
    const review = publishReview('{}', four, pub({ p: 1, q: 1, r: 1 }, { title: 'Old' }));
    assert.equal(review.summary, 'title changed, config.p changed, config.q changed, config.r changed');
  });

  it('a height change is a resize; a theme removed from the file is a change', () => {
    const box = (h: number) => pub({ widgets: [{ id: 'a', position: { x: 0, y: 0, w: 2, h } }] });
    assert.deepEqual(summariseChanges(box(2), box(3)), ['1 widget resized']);
    assert.deepEqual(summariseChanges(pub({ theme: { a: '1' } }), pub({})), ['theme changed']);
  });

  it('reads published widgets that are not objects, or a widget list that is not a list, without failing', () => {
    const local = pub({ widgets: [{ id: 'a', position: { x: 0, y: 0, w: 1, h: 1 } }] });
    const odd = pub({ widgets: [null, 'w', { id: 'a', position: { x: 0, y: 0, w: 1, h: 1 } }] });
    // Outside the documents (a published widget always has a string id): shown in the diff, though
    // the summary counts widgets by id only.
    const review = publishReview('{}', local, odd);
    assert.match(
      review.left,
      /"widgets": \[\n {6}\{\n {8}"id": "a",[^\]]*\n {6}\},\n {6}null,\n {6}"w"\n {4}\]/,
    );
    // A file without a widget list: the published widgets keep their order, those without an id too.
    const noList = publishReview('{}', pub({}), pub({ widgets: [{ id: 'a' }, { type: 'n' }] }));
    assert.match(noList.left, /"id": "a"\n {6}\},\n {6}\{\n {8}"type": "n"/);
    const notList = publishReview('{}', local, pub({ widgets: { id: 'a' } }));
    assert.deepEqual(notList.changes, ['1 widget added']);
    assert.match(notList.left, /"widgets": \{\n {6}"id": "a"\n {4}\}/);
    // A list the file writes where the published one had a value, and the other way round.
    assert.deepEqual(learnServerFills({ x: 'a', y: [1] }, { x: ['a'], y: { a: 1 }, widgets: 5 }), {
      'config.widgets': 5,
    });
    assert.deepEqual(publishReview('{}', pub({}), pub({ extra: [1, { id: 'x' }] })).changes, [
      'config.extra changed',
    ]);
  });

  it("orders each published widget's keys like the file's widget of the same string id", () => {
    const local = pub({
      widgets: [
        { id: 'a', type: 't', position: { x: 0, y: 0, w: 1, h: 1 }, config: { k: 1 } },
        { position: { x: 1, y: 0, w: 1, h: 1 }, id: 'b', type: 't' },
        { type: 'n', position: { x: 2, y: 0, w: 1, h: 1 } },
        { id: 1, type: 'num', position: { x: 3, y: 0, w: 1, h: 1 } },
        { id: 2, type: 'num', position: { x: 4, y: 0, w: 1, h: 1 } },
      ],
    });
    const reversed = (w: unknown) => Object.fromEntries(Object.entries(w as object).reverse());
    const [a, b, n, one, two] = (local.config as { widgets: unknown[] }).widgets;
    // Published in another order, every widget's keys reversed.
    const published = pub({ widgets: [two, b, n, a, one].map(reversed) });
    const review = publishReview('{}', local, published);
    assert.deepEqual(review.changes, []);
    // a and b follow the file; the widget without an id and those with number ids are not matched:
    // they keep their published order and keys, after the matched ones.
    assert.equal(
      review.left,
      formatJson(pub({ widgets: [a, b, reversed(two), reversed(n), reversed(one)] }), style),
    );
  });

  it('orders nested lists by position: only the dashboard widget list is matched by id', () => {
    const inner = (ids: string[]) => ids.map((id) => ({ id, v: 1 }));
    const group = (ids: string[]) => ({ id: 'g', config: { widgets: inner(ids) } });
    const local = pub({ widgets: [group(['x', 'y'])], pages: [{ config: { widgets: inner(['x', 'y']) } }] });
    const published = pub({
      widgets: [group(['y', 'x'])],
      pages: [{ config: { widgets: inner(['y', 'x']) } }],
    });
    const left = publishReview('{}', local, published).left;
    assert.deepEqual(
      [...left.matchAll(/"id": "(\w)"/g)].map((m) => m[1]),
      ['g', 'y', 'x', 'y', 'x'],
    );
    // Objects in other lists take the keys' order of the file's item at the same position.
    const listLocal = pub({ list: [{ a: 1, b: 2 }] });
    const listPublished = pub({ list: [{ b: 2, a: 1 }] });
    const r = publishReview('{}', listLocal, listPublished);
    assert.equal(r.left, r.right);
  });

  it('hides nulls and fills of widgets matched by string id only, and never inside other lists', () => {
    const local = pub({
      widgets: [{ id: 'a', note: 'x' }, { id: 'b' }, { type: 'n' }],
      list: [{ id: 'l' }],
    });
    const published = pub({
      widgets: [
        { id: 'a', note: 'x' },
        { id: 'b', note: null },
        { type: 'n', note: null },
      ],
      list: [{ id: 'l', note: null }],
    });
    const sent = withoutServerFills(published, local, {}) as { config: unknown };
    assert.deepEqual(sent.config, {
      widgets: [{ id: 'a', note: 'x' }, { id: 'b' }, { type: 'n', note: null }],
      list: [{ id: 'l', note: null }],
    });
    // A field the file adds is not copied to the published side (only a null the answer leaves out is).
    const added = publishReview('{}', pub({ extra: 'new' }), pub({}));
    assert.deepEqual(added.changes, ['config.extra changed']);
    assert.doesNotMatch(added.left, /extra/);
  });

  it('learns fills of widgets matched by string id, never of others, nor inside other lists', () => {
    const sent = {
      widgets: [{ id: 'a', style: {} }, { id: 'b' }, { type: 'n' }, { id: 3 }],
      list: [{ id: 'l' }],
    };
    const answer = {
      widgets: [
        { id: 'a', style: {} },
        { id: 'b', style: { s: 1 } },
        { type: 'n', kind: 'K' },
        { id: 3, size: 9 },
      ],
      list: [{ id: 'l', extra: 1 }],
      gone: undefined,
    };
    assert.deepEqual(learnServerFills(sent, answer), { 'config.widgets[].style': { s: 1 } });
  });
});
