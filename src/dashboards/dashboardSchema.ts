// The JSON Schema of `*.dashboard.json`, generated from the zod schema the platform client publishes
// with (one source of truth). esbuild.mjs writes it to dist/schemas/dashboard.schema.json, which the
// manifest contributes through `jsonValidation`; test/unit/dashboardSchema.test.ts fails on drift.
import { z } from 'zod';
import { PublishDashboardInputSchema } from '../api/schemas/platform';
import { CSS_PATTERNS, themeValueKind, type CssValueKind } from '../shared/cssValues';

/** Where the build writes the schema, relative to the extension root (and the manifest's url). */
export const DASHBOARD_SCHEMA_PATH = 'dist/schemas/dashboard.schema.json';

/** The JSON Schema (draft-07) of a publish input, as the user writes it (zod's input side). */
export function dashboardJsonSchema(): Record<string, unknown> {
  const schema = z.toJSONSchema(PublishDashboardInputSchema, { target: 'draft-7', io: 'input' });
  const config = objectOf((schema as Schema).properties?.config);
  const theme = objectOf(config?.properties?.theme);
  if (theme) addThemePatterns(theme, []);
  return { ...schema, title: 'Dashboard Platform dashboard (*.dashboard.json)' };
}

interface Schema {
  type?: unknown;
  anyOf?: Schema[];
  properties?: Record<string, Schema>;
  pattern?: string;
  patternErrorMessage?: string;
  examples?: string[];
}

/**
 * The keyword values of the theme fields that take one of a fixed set (the text editor completes
 * them, the dashboard editor offers them in a dropdown). The patterns also take `var(--x)`, and
 * font weights any number from 1 to 1000, so these are `examples`, not a closing `enum`.
 */
export const THEME_KEYWORDS: Partial<Record<CssValueKind, readonly string[]>> = {
  borderStyle: [
    'none',
    'hidden',
    'dotted',
    'dashed',
    'solid',
    'double',
    'groove',
    'ridge',
    'inset',
    'outset',
  ],
  fontWeight: [
    'normal',
    'bold',
    'bolder',
    'lighter',
    '100',
    '200',
    '300',
    '400',
    '500',
    '600',
    '700',
    '800',
    '900',
  ],
};

/** The object branch of a field that may also be null (zod writes `anyOf: [{object}, {null}]`). */
function objectOf(node: Schema | undefined): Schema | undefined {
  if (!node) return undefined;
  if (node.properties) return node;
  return node.anyOf?.find((branch) => branch.properties);
}

const allowsString = (t: unknown) => t === 'string' || (Array.isArray(t) && t.includes('string'));

/** The theme's CSS fields get the patterns the file parser checks (src/shared/cssValues.ts). */
function addThemePatterns(node: Schema, path: string[]): void {
  for (const [key, child] of Object.entries(node.properties ?? {})) {
    const at = [...path, key];
    const object = objectOf(child);
    if (object) addThemePatterns(object, at);
    const kind = themeValueKind(at);
    // `pattern` constrains strings only, so a nullable field keeps accepting null.
    if (kind && allowsString(child.type)) {
      child.pattern = CSS_PATTERNS[kind];
      child.patternErrorMessage = PATTERN_MESSAGES[kind];
      const keywords = THEME_KEYWORDS[kind];
      if (keywords) child.examples = [...keywords];
    }
  }
}

const PATTERN_MESSAGES: Record<keyof typeof CSS_PATTERNS, string> = {
  colour: 'Use a CSS colour: #5b5fc7, rgb(91 95 199), hsl(…) or a colour name.',
  size: 'Use a CSS length such as 12px, 0.5rem or 0 (up to four for padding and margin).',
  fontSize: 'Use a CSS font size such as 14px, 1rem or small.',
  fontWeight: 'Use normal, bold, bolder, lighter or 100 to 900.',
  borderStyle: 'Use a CSS border style: none, solid, dashed, dotted, double, …',
};

/** The exact text the build writes. */
export function dashboardSchemaText(): string {
  return `${JSON.stringify(dashboardJsonSchema(), null, 2)}\n`;
}

/**
 * The choices of the theme's fixed-set fields, read from a dashboard JSON Schema: the `examples`
 * of every field under `config.theme`, by its path there (`widgets.border.style`).
 */
export function themeChoicesOf(schema: Record<string, unknown>): Record<string, string[]> {
  const out: Record<string, string[]> = {};
  const walk = (node: Schema | undefined, path: string[]) => {
    for (const [key, child] of Object.entries(node?.properties ?? {})) {
      const object = objectOf(child);
      if (object) walk(object, [...path, key]);
      if (Array.isArray(child.examples)) out[[...path, key].join('.')] = [...child.examples];
    }
  };
  walk(objectOf(objectOf((schema as Schema).properties?.config)?.properties?.theme), []);
  return out;
}
