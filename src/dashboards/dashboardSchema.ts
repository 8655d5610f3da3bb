// The JSON Schema of `*.dashboard.json`, generated from the zod schema the platform client publishes
// with (one source of truth). esbuild.mjs writes it to dist/schemas/dashboard.schema.json, which the
// manifest contributes through `jsonValidation`; test/unit/dashboardSchema.test.ts fails on drift.
import { z } from 'zod';
import { PublishDashboardInputSchema } from '../api/schemas/platform';

/** Where the build writes the schema, relative to the extension root (and the manifest's url). */
export const DASHBOARD_SCHEMA_PATH = 'dist/schemas/dashboard.schema.json';

/** The JSON Schema (draft-07) of a publish input, as the user writes it (zod's input side). */
export function dashboardJsonSchema(): Record<string, unknown> {
  const schema = z.toJSONSchema(PublishDashboardInputSchema, { target: 'draft-7', io: 'input' });
  return { ...schema, title: 'Dashboard Platform dashboard (*.dashboard.json)' };
}

/** The exact text the build writes. */
export function dashboardSchemaText(): string {
  return `${JSON.stringify(dashboardJsonSchema(), null, 2)}\n`;
}
