// The JSON Schema of `*.dashboard.json`, generated from the zod schema the platform client publishes
// with (one source of truth). esbuild.mjs writes it to dist/schemas/dashboard.schema.json, which the
// manifest contributes through `jsonValidation`; test/unit/dashboardSchema.test.ts fails on drift.
import { z } from 'zod';
import { PublishDashboardInputSchema } from '../api/schemas/platform';
import { CSS_PATTERNS, themeValueKind } from '../shared/cssValues';

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
}

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
