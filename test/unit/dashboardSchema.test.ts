// The JSON Schema contributed for *.dashboard.json is generated from the zod schema the client
// publishes with: the build writes exactly the generated text, the manifest points at it, and zod and
// the JSON Schema accept and reject the same samples (required fields, enums, breakpoint keys).
import { strict as assert } from 'node:assert';
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { BREAKPOINT_KEYS, PublishDashboardInputSchema, WIDGET_TYPES } from '../../src/api/schemas/platform';
import {
  DASHBOARD_SCHEMA_PATH,
  THEME_KEYWORDS,
  dashboardJsonSchema,
  dashboardSchemaText,
  themeChoicesOf,
} from '../../src/dashboards/dashboardSchema';
import { THEME_FIELDS } from '../../src/shared/dashboardEditorProtocol';
import { isCssValue, themeValueKind, type CssValueKind } from '../../src/shared/cssValues';

const root = join(__dirname, '..', '..', '..');

type Schema = Record<string, unknown>;

/** The draft-07 subset z.toJSONSchema emits here; returns the JSON paths of violations. */
function validate(schema: Schema, value: unknown, path = '$'): string[] {
  const errors: string[] = [];
  // A list of types (how nullable fields are written): valid when one of them is.
  if (Array.isArray(schema.type)) {
    const ok = (schema.type as string[]).some(
      (t) => validate({ ...schema, type: t }, value, path).length === 0,
    );
    return ok ? [] : [`${path}: none of ${(schema.type as string[]).join(', ')}`];
  }
  const type = schema.type as string | undefined;
  if (schema.anyOf) {
    const ok = (schema.anyOf as Schema[]).some((s) => validate(s, value, path).length === 0);
    return ok ? [] : [`${path}: no anyOf branch matches`];
  }
  if (schema.enum && !(schema.enum as unknown[]).includes(value)) errors.push(`${path}: not in enum`);
  const isObj = typeof value === 'object' && value !== null && !Array.isArray(value);
  switch (type) {
    case 'object':
      if (!isObj) return [`${path}: not an object`];
      break;
    case 'array':
      if (!Array.isArray(value)) return [`${path}: not an array`];
      break;
    case 'string':
      if (typeof value !== 'string') return [`${path}: not a string`];
      break;
    case 'boolean':
      if (typeof value !== 'boolean') return [`${path}: not a boolean`];
      break;
    case 'null':
      if (value !== null) return [`${path}: not null`];
      break;
    case 'number':
      if (typeof value !== 'number') return [`${path}: not a number`];
      break;
    case 'integer':
      if (typeof value !== 'number' || !Number.isInteger(value)) return [`${path}: not an integer`];
      break;
    case undefined:
      break;
    default:
      throw new Error(`validator: unsupported type ${type}`);
  }
  if (typeof value === 'number') {
    if (typeof schema.minimum === 'number' && value < schema.minimum) errors.push(`${path}: below minimum`);
    if (typeof schema.maximum === 'number' && value > schema.maximum) errors.push(`${path}: above maximum`);
  }
  if (isObj) {
    const obj = value as Record<string, unknown>;
    for (const key of (schema.required as string[] | undefined) ?? []) {
      if (!(key in obj)) errors.push(`${path}.${key}: required`);
    }
    const props = (schema.properties as Record<string, Schema> | undefined) ?? {};
    for (const [k, v] of Object.entries(obj)) {
      const sub =
        props[k] ??
        (typeof schema.additionalProperties === 'object' ? schema.additionalProperties : undefined);
      if (schema.additionalProperties === false && !props[k]) errors.push(`${path}.${k}: not allowed`);
      if (sub) errors.push(...validate(sub as Schema, v, `${path}.${k}`));
    }
  }
  if (Array.isArray(value) && schema.items) {
    value.forEach((v, i) => errors.push(...validate(schema.items as Schema, v, `${path}[${i}]`)));
  }
  return errors;
}

const schema = dashboardJsonSchema();
const zodAccepts = (v: unknown) => PublishDashboardInputSchema.safeParse(v).success;
const jsonAccepts = (v: unknown) => validate(schema, v).length === 0;

function at(s: Schema, ...path: string[]): Schema {
  // A nullable object is written as anyOf [object, null]: descend into the non-null branch.
  const unwrap = (x: Schema): Schema =>
    (x.anyOf as Schema[] | undefined)?.find((b) => b.type !== 'null' && (b.properties || b.items)) ?? x;
  let cur = s;
  for (const p of path) {
    cur = unwrap(cur);
    const next = p === '[]' ? cur.items : (cur.properties as Record<string, Schema> | undefined)?.[p];
    assert.ok(next, `schema has no ${path.join('.')}`);
    cur = next as Schema;
  }
  return unwrap(cur);
}

const box = { h: 2, w: 4, x: 0, y: 0 };
const full = {
  workbookId: 7,
  dashboardId: 3,
  allowEmbed: true,
  title: 'Sales',
  description: 'Weekly',
  config: {
    title: 'Sales',
    layout: {
      breakpoints: { lg: 1200, md: 996, sm: 768, xs: 480, xxs: 0 },
      cols: { lg: 12, md: 10, sm: 6, xs: 4, xxs: 2 },
      containerPadding: [8, 8],
      margin: [4, 4],
      rowHeight: 30,
    },
    theme: {
      primaryColor: '#f00',
      widgets: { border: { color: '#000', width: '1px' }, title: { fontSize: '14px' } },
    },
    settings: { anything: [1, 2] },
    widgets: [
      {
        id: 'w1',
        type: 'CHART',
        position: box,
        responsiveLayouts: Object.fromEntries(BREAKPOINT_KEYS.map((b) => [b, box])),
        config: { reportId: 1 },
      },
      { id: 'w2', type: 'SOMETHING_NEW', position: box },
    ],
  },
  extraFieldKept: 1,
};

describe('dashboard JSON Schema', () => {
  it('is what the build writes to the file the manifest contributes', function () {
    this.timeout(60_000);
    execFileSync(process.execPath, ['esbuild.mjs', '--only=dashboard-schema'], { cwd: root, stdio: 'pipe' });
    assert.equal(readFileSync(join(root, DASHBOARD_SCHEMA_PATH), 'utf8'), dashboardSchemaText());
    const manifest = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as {
      contributes: { jsonValidation: { fileMatch: string; url: string }[] };
    };
    const entry = manifest.contributes.jsonValidation.find((j) => j.fileMatch === '*.dashboard.json');
    assert.ok(entry, 'jsonValidation for *.dashboard.json');
    assert.equal(entry.url, `./${DASHBOARD_SCHEMA_PATH}`);
  });

  it('is draft-07 and carries descriptions, enums and the breakpoint keys', () => {
    assert.equal(schema.$schema, 'http://json-schema.org/draft-07/schema#');
    assert.deepEqual(schema.required, ['workbookId']);
    assert.match(String(at(schema, 'workbookId').description), /workbook/i);
    assert.ok(at(schema, 'config').description);
    for (const group of ['breakpoints', 'cols']) {
      const per = at(schema, 'config', 'layout', group);
      assert.deepEqual(Object.keys(per.properties as object), [...BREAKPOINT_KEYS]);
      for (const b of BREAKPOINT_KEYS)
        assert.match(String(at(per, b).description), new RegExp(`${b} breakpoint`));
    }
    const rl = at(schema, 'config', 'widgets', '[]', 'responsiveLayouts');
    assert.deepEqual(Object.keys(rl.properties as object), [...BREAKPOINT_KEYS]);
    assert.deepEqual(at(rl, 'lg').required, ['h', 'w', 'x', 'y']);
    const widget = at(schema, 'config', 'widgets', '[]');
    assert.deepEqual(widget.required, ['id', 'position']);
    const typeBranches = (at(widget, 'type').anyOf as Schema[]) ?? [];
    assert.ok(
      typeBranches.some((b) => JSON.stringify(b.enum) === JSON.stringify(WIDGET_TYPES)),
      'widget type enum carried over',
    );
    assert.match(String(at(widget, 'type').description), /CHART/);
  });

  // A dashboard pulled from the service may carry nulls wherever the published input allows them.
  const withNulls = {
    workbookId: 1,
    dashboardId: null,
    title: null,
    config: {
      title: null,
      layout: { breakpoints: { lg: null }, cols: null, rowHeight: null },
      theme: { primaryColor: null, widgets: { border: null, title: { fontSize: null } } },
      settings: null,
      widgets: [{ id: 'a', type: 'TEXT', position: box, config: null, responsiveLayouts: { md: null } }],
    },
  };

  it('accepts what zod accepts', () => {
    for (const sample of [full, withNulls, { workbookId: 1 }, { workbookId: 1, config: {} }]) {
      assert.ok(zodAccepts(sample), 'zod accepts');
      assert.deepEqual(validate(schema, sample), []);
      assert.ok(jsonAccepts(sample));
    }
  });

  const invalid: [string, (d: typeof full) => unknown][] = [
    ['missing workbookId', ({ workbookId: _w, ...rest }) => rest],
    ['workbookId 0', (d) => ({ ...d, workbookId: 0 })],
    ['workbookId not an integer', (d) => ({ ...d, workbookId: 1.5 })],
    ['allowEmbed not a boolean', (d) => ({ ...d, allowEmbed: 'yes' })],
    ['title not a string', (d) => ({ ...d, title: 3 })],
    ['widget without id', (d) => ({ ...d, config: { widgets: [{ position: box }] } })],
    ['widget without position', (d) => ({ ...d, config: { widgets: [{ id: 'a' }] } })],
    ['theme colour not a string', (d) => ({ ...d, config: { theme: { primaryColor: 1 } } })],
    [
      'widget type not a string',
      (d) => ({ ...d, config: { widgets: [{ id: 'a', position: box, type: 1 }] } }),
    ],
    ...(['h', 'w', 'x', 'y'] as const).map((k): [string, (d: typeof full) => unknown] => [
      `position without ${k}`,
      (d) => {
        const { [k]: _drop, ...pos } = box;
        return { ...d, config: { widgets: [{ id: 'a', position: pos }] } };
      },
    ]),
    ...BREAKPOINT_KEYS.flatMap((b): [string, (d: typeof full) => unknown][] => [
      [`cols.${b} not a number`, (d) => ({ ...d, config: { layout: { cols: { [b]: '12' } } } })],
      [
        `breakpoints.${b} not a number`,
        (d) => ({ ...d, config: { layout: { breakpoints: { [b]: '1200' } } } }),
      ],
      [
        `responsiveLayouts.${b} without h`,
        (d) => ({
          ...d,
          config: { widgets: [{ id: 'a', position: box, responsiveLayouts: { [b]: { w: 1, x: 0, y: 0 } } }] },
        }),
      ],
    ]),
  ];
  for (const [name, make] of invalid) {
    it(`rejects, as zod does: ${name}`, () => {
      const sample = make(full);
      assert.equal(zodAccepts(sample), false, 'zod rejects');
      assert.equal(jsonAccepts(sample), false, 'JSON Schema rejects');
    });
  }

  it("offers the fixed-set theme fields' keywords as choices, each one a value the pattern accepts", () => {
    const choices = themeChoicesOf(schema);
    const fixed = THEME_FIELDS.filter((f) => {
      const kind = themeValueKind(f.path);
      return kind !== undefined && THEME_KEYWORDS[kind] !== undefined;
    }).map((f) => f.path.join('.'));
    assert.deepEqual(Object.keys(choices).sort(), fixed.sort());
    assert.deepEqual(choices['widgets.border.style'], [...THEME_KEYWORDS.borderStyle!]);
    assert.ok(fixed.includes('controls.title.fontWeight'));
    for (const [kind, words] of Object.entries(THEME_KEYWORDS) as [CssValueKind, string[]][])
      for (const w of words) assert.ok(isCssValue(kind, w), `${kind} ${w}`);
    // Examples suggest; they do not close the set (var(--x) and weights like 650 stay valid).
    const style = at(schema, 'config', 'theme', 'widgets', 'border', 'style');
    assert.equal(style.enum, undefined);
    assert.ok(
      jsonAccepts({ workbookId: 1, config: { theme: { widgets: { title: { fontWeight: '650' } } } } }),
    );
  });
});
