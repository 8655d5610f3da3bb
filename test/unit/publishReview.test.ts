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
import { detectStyle, publishReview, summariseChanges } from '../../src/dashboards/publishReview';
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
  it('leaves out the description the publish does not send (the service keeps none)', () => {
    const local = demo() as PublishDashboardInput & { description?: string };
    assert.ok(local.description, 'the demo file has a description');
    // What the service returns after a publish: no description at the top or in the config.
    const published = JSON.parse(JSON.stringify(local)) as PublishDashboardInput & { description?: string };
    delete published.description;
    delete (published.config as { description?: string }).description;
    const review = publishReview(demoText, local, published);
    assert.deepEqual(review.changes, []);
    assert.equal(review.left, review.right);
    assert.doesNotMatch(review.right, /"description"/);
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

  it('follows the file style: tabs and expanded arrays', () => {
    const text = JSON.stringify({ a: [1, 2] }, null, '\t');
    assert.deepEqual(detectStyle(text), { indent: '\t', inlineScalarArrays: false });
    assert.deepEqual(detectStyle('{\n    "a": [1, 2]\n}'), { indent: '    ', inlineScalarArrays: true });
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
