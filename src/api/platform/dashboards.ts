// Publishing a workbook's dashboard, and attaching an AI widget thread to the published one.
// The response is read tolerantly: once the server answered 200 the dashboard IS published, so no
// field of the answer (nulls anywhere the documents allow them, new fields, new statuses) may turn
// that into an error. The request is built strictly: only fields the published
// PublishDashboardInput declares are sent (the description included, spec 4.2 and 2.6), each
// checked before sending.
import { z } from 'zod';
import { BREAKPOINT_KEYS, WIDGET_TYPES, type PublishDashboardInput } from '../schemas/dashboard';
import { call, table } from './operation';
import { id, maybe, parseInput, type PlatformTransport } from './transport';

export const ReportSnapshotSchema = z.looseObject({
  id: id.optional(),
  reportId: id.optional(),
  versionNumber: z.number().int().optional(),
  name: maybe(z.string()),
  title: maybe(z.string()),
  kind: maybe(z.string()),
});

/** The published `Dashboard`: every field optional and nullable where published so. */
export const PublishedDashboardSchema = z.looseObject({
  id: id.optional(),
  publicId: z.string().optional(),
  deploymentId: id.optional(),
  workbookId: id.optional(),
  versionId: id.optional(),
  versionNumber: z.number().int().optional(),
  /** Known: draft, published, archived; any other value is kept as it is. */
  status: z.string().optional(),
  allowEmbed: z.boolean().optional(),
  // What the editor shows comes from the workbook; the answer's config is kept, never judged.
  config: z.unknown().optional(),
  reportSnapshots: z.array(z.unknown()).optional(),
  createdBy: maybe(z.number().int()),
  title: maybe(z.string()),
  fromSharedWorkspace: maybe(z.boolean()),
  restrictDataDownload: maybe(z.boolean()),
  useBoardDashboards: maybe(z.boolean()),
});
export type PublishedDashboard = z.infer<typeof PublishedDashboardSchema>;

// ---- the wire body of publishDashboard, as the documents publish it (strict: nothing undeclared)

const nullable = <T extends z.ZodType>(t: T) => t.nullable().optional();
const str = nullable(z.string());
const int = z.number().int();
const perBreakpoint = <T extends z.ZodType>(v: T) =>
  z.strictObject(
    Object.fromEntries(BREAKPOINT_KEYS.map((b) => [b, nullable(v)])) as Record<
      (typeof BREAKPOINT_KEYS)[number],
      z.ZodOptional<z.ZodNullable<T>>
    >,
  );
const position = z.strictObject({ x: int, y: int, w: int, h: int });
const border = z.strictObject({ color: str, radius: str, style: str, width: str });
const title = z.strictObject({ color: str, fontFamily: str, fontSize: str, fontWeight: str });
const freeObject = nullable(z.record(z.string(), z.unknown()));

export const DashboardConfigWireSchema = z.strictObject({
  app: freeObject,
  description: str,
  kind: nullable(z.enum(['CLASSIC', 'APP'])),
  layout: nullable(
    z.strictObject({
      breakpoints: nullable(perBreakpoint(int)),
      cols: nullable(perBreakpoint(int)),
      containerPadding: nullable(z.array(int)),
      margin: nullable(z.array(int)),
      rowHeight: nullable(int),
    }),
  ),
  settings: freeObject,
  theme: nullable(
    z.strictObject({
      backgroundColor: str,
      fontFamily: str,
      primaryColor: str,
      themeId: str,
      controls: nullable(
        z.strictObject({
          backgroundColor: str,
          padding: str,
          border: nullable(border),
          title: nullable(title),
        }),
      ),
      dashboard: nullable(z.strictObject({ backgroundColor: str, padding: str })),
      widgets: nullable(
        z.strictObject({
          backgroundColor: str,
          margin: str,
          padding: str,
          border: nullable(border),
          text: nullable(
            z.strictObject({ codeFontFamily: str, color: str, fontFamily: str, secondaryColor: str }),
          ),
          title: nullable(title),
        }),
      ),
    }),
  ),
  title: str,
  widgets: nullable(
    z.array(
      z.strictObject({
        id: z.string().max(128),
        type: z.enum(WIDGET_TYPES),
        position,
        config: freeObject,
        responsiveLayouts: nullable(perBreakpoint(position)),
        style: freeObject,
      }),
    ),
  ),
});

export const PublishDashboardWireSchema = z.strictObject({
  workbookId: int.min(1),
  dashboardId: nullable(int),
  allowEmbed: nullable(z.boolean()),
  title: str,
  description: str,
  config: nullable(DashboardConfigWireSchema),
});
export type PublishDashboardWire = z.infer<typeof PublishDashboardWireSchema>;

/** The top-level fields of the published PublishDashboardInput, in the documents' order. */
export const PUBLISH_INPUT_FIELDS = [
  'workbookId',
  'dashboardId',
  'allowEmbed',
  'title',
  'description',
] as const;

function pick(from: Record<string, unknown>, keys: readonly string[]): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const k of keys) if (from[k] !== undefined) out[k] = from[k];
  return out;
}

/**
 * The publish body from a dashboard file's input: the declared fields only (the description at the
 * top and in the config included), then checked strictly so a field the service would refuse is
 * named before anything is sent.
 */
export function publishBody(input: PublishDashboardInput): PublishDashboardWire {
  return parseInput(PublishDashboardWireSchema, publishFields(input), 'Dashboard not published');
}

function publishFields(input: PublishDashboardInput): Record<string, unknown> {
  const top = pick(input as Record<string, unknown>, PUBLISH_INPUT_FIELDS);
  if (input.config !== undefined) top.config = input.config;
  return top;
}

export const UpdatePublishedAiWidgetThreadInputSchema = z.strictObject({
  threadId: z.string().min(1),
  widgetId: z.string().min(1),
  checksum: z.string().optional(),
});
export type UpdatePublishedAiWidgetThreadInput = z.infer<typeof UpdatePublishedAiWidgetThreadInputSchema>;

const workbook = '/v1/deployments/{deploymentId}/workbooks/{workbookId}';

export const DASHBOARDS = table(
  {},
  {
    updateAiWidgetThread: {
      method: 'POST',
      path: `${workbook}/dashboard/ai-widget-thread`,
      body: UpdatePublishedAiWidgetThreadInputSchema,
      answer: PublishedDashboardSchema,
      refused: 'AI widget thread not attached',
    },
  },
);

const PUBLISH = table(
  {},
  {
    publishDashboard: {
      method: 'POST',
      path: `${workbook}/publish`,
      body: PublishDashboardWireSchema,
      answer: PublishedDashboardSchema,
      refused: 'Dashboard not published',
      action: 'Publishing the dashboard',
      check: 'Check the publish history before publishing again, so as not to make a duplicate version.',
    },
  },
);

/** Spec 4.2. Never retried: a publish that may have reached the server is reported, not repeated. */
export async function publishDashboard(
  t: PlatformTransport,
  deploymentId: number,
  workbookId: number,
  input: PublishDashboardInput,
  signal?: AbortSignal,
): Promise<PublishedDashboard> {
  // Only the declared fields are sent; the row's strict schema names a field the service would refuse.
  return call(t, PUBLISH.publishDashboard, deploymentId, workbookId, publishFields(input) as never, signal);
}
