// Messages between the dashboard custom editor (src/dashboards/dashboardEditor.ts) and its page
// (webview/dashboard). Both sides parse what they receive with these schemas. Every edit message
// becomes a text edit of the `*.dashboard.json` document on the host (src/dashboards/dashboardEdits.ts).
import { z } from 'zod';

export const EDITOR_BREAKPOINTS = ['lg', 'md', 'sm', 'xs', 'xxs'] as const;
export type EditorBreakpoint = (typeof EDITOR_BREAKPOINTS)[number];

/** Widget types the platform knows (spec 2.6 shows CHART; the rest are the ones the editor offers). */
export const EDITOR_WIDGET_TYPES = [
  'CHART',
  'TEXT',
  'FILTER',
  'AI',
  'TIME_GRAIN',
  'FIELD',
  'PARENT',
  'SPACER',
  'DIVIDER',
  'CONTAINER',
] as const;

/** The theme's fields (spec 2.7, all strings), as the editor lists them. */
export const THEME_FIELDS: readonly { path: readonly string[]; label: string; colour: boolean }[] = [
  { path: ['backgroundColor'], label: 'Page background', colour: true },
  { path: ['primaryColor'], label: 'Accent', colour: true },
  { path: ['fontFamily'], label: 'Font family', colour: false },
  { path: ['themeId'], label: 'Saved theme id', colour: false },
  { path: ['dashboard', 'backgroundColor'], label: 'Dashboard background', colour: true },
  { path: ['dashboard', 'padding'], label: 'Dashboard padding', colour: false },
  { path: ['widgets', 'backgroundColor'], label: 'Widget background', colour: true },
  { path: ['widgets', 'padding'], label: 'Widget padding', colour: false },
  { path: ['widgets', 'margin'], label: 'Widget margin', colour: false },
  { path: ['widgets', 'border', 'color'], label: 'Widget border colour', colour: true },
  { path: ['widgets', 'border', 'width'], label: 'Widget border width', colour: false },
  { path: ['widgets', 'border', 'style'], label: 'Widget border style', colour: false },
  { path: ['widgets', 'border', 'radius'], label: 'Widget corner radius', colour: false },
  { path: ['widgets', 'title', 'color'], label: 'Widget title colour', colour: true },
  { path: ['widgets', 'title', 'fontFamily'], label: 'Widget title font', colour: false },
  { path: ['widgets', 'title', 'fontSize'], label: 'Widget title size', colour: false },
  { path: ['widgets', 'title', 'fontWeight'], label: 'Widget title weight', colour: false },
  { path: ['widgets', 'text', 'color'], label: 'Widget text colour', colour: true },
  { path: ['widgets', 'text', 'secondaryColor'], label: 'Widget secondary text', colour: true },
  { path: ['widgets', 'text', 'fontFamily'], label: 'Widget text font', colour: false },
  { path: ['widgets', 'text', 'codeFontFamily'], label: 'Widget code font', colour: false },
  { path: ['controls', 'backgroundColor'], label: 'Control background', colour: true },
  { path: ['controls', 'padding'], label: 'Control padding', colour: false },
  { path: ['controls', 'border', 'color'], label: 'Control border colour', colour: true },
  { path: ['controls', 'border', 'width'], label: 'Control border width', colour: false },
  { path: ['controls', 'border', 'style'], label: 'Control border style', colour: false },
  { path: ['controls', 'border', 'radius'], label: 'Control corner radius', colour: false },
  { path: ['controls', 'title', 'color'], label: 'Control title colour', colour: true },
  { path: ['controls', 'title', 'fontFamily'], label: 'Control title font', colour: false },
  { path: ['controls', 'title', 'fontSize'], label: 'Control title size', colour: false },
  { path: ['controls', 'title', 'fontWeight'], label: 'Control title weight', colour: false },
];
const themePathKeys = new Set(THEME_FIELDS.map((f) => f.path.join('.')));

export const editorProblem = z.object({
  message: z.string(),
  line: z.number(),
  column: z.number(),
  /** The JSON path of the value at fault, so the page can mark that field. */
  path: z.array(z.union([z.string(), z.number()])).optional(),
});
export type EditorProblem = z.infer<typeof editorProblem>;

export const editorHistoryEntry = z.object({
  time: z.string(),
  // The service's answer may omit these; the publish succeeded all the same.
  versionNumber: z.number().optional(),
  who: z.string(),
  deploymentId: z.number(),
  /** The deployment's name when it was known at publish time. */
  deploymentName: z.string().optional(),
  status: z.string(),
  publicId: z.string().optional(),
});
export type EditorHistoryEntry = z.infer<typeof editorHistoryEntry>;

export const editorReport = z.object({
  title: z.string(),
  kind: z.string().optional(),
  /** The snapshot's SQL, shown as a small preview. */
  sql: z.string().optional(),
  /** The snapshot's chart mark (bar, line, …) when its spec names one. */
  mark: z.string().optional(),
});
export type EditorReport = z.infer<typeof editorReport>;

export const hostToWebview = z.object({
  type: z.literal('state'),
  /** The last valid publish input (kept while the text is invalid), or null before any. */
  input: z.record(z.string(), z.unknown()).nullable(),
  problems: z.array(editorProblem),
  /**
   * Editing pauses (the preview shows the last valid version) while the file's shape is broken;
   * problems in values only (a theme colour that is not CSS) leave it editable.
   */
  locked: z.boolean().default(false),
  /** Publishes of this file from this workspace, oldest first. */
  history: z.array(editorHistoryEntry).default([]),
  /** The choices of the theme's fixed-set fields by path under the theme (from the JSON Schema). */
  themeChoices: z.record(z.string(), z.array(z.string())).default({}),
  /** The summary of this file's open publish review, if one is open. */
  review: z.object({ summary: z.string(), where: z.string() }).optional(),
  /** What the widgets' reports are, by report id (from the published snapshots or the report list). */
  reports: z.record(z.string(), editorReport).default({}),
  /** Switches the preview to this breakpoint (the page keeps its own choice otherwise). */
  breakpoint: z.enum(EDITOR_BREAKPOINTS).optional(),
  /** Selects this widget (after an add or duplicate). */
  select: z.string().optional(),
});
export type HostToWebview = z.infer<typeof hostToWebview>;

const bp = z.enum(EDITOR_BREAKPOINTS);
const cell = z.number().int().min(0).max(10_000);
const size = z.number().int().min(1).max(10_000);
const widgetId = z.string().min(1);

export const webviewToHost = z.discriminatedUnion('type', [
  z.object({ type: z.literal('ready') }),
  z.object({ type: z.literal('setTitle'), title: z.string() }),
  z.object({ type: z.literal('setDescription'), description: z.string() }),
  z.object({ type: z.literal('setAllowEmbed'), allowEmbed: z.boolean() }),
  z.object({
    type: z.literal('setTheme'),
    path: z
      .array(z.string())
      .refine((p) => themePathKeys.has(p.join('.')), { message: 'Not a theme field.' }),
    /** null removes the field. */
    value: z.string().nullable(),
  }),
  z.object({ type: z.literal('setRowHeight'), value: z.number().positive().max(10_000).nullable() }),
  z.object({
    type: z.literal('setSpacing'),
    field: z.enum(['margin', 'containerPadding']),
    value: z.tuple([z.number().min(0).max(10_000), z.number().min(0).max(10_000)]).nullable(),
  }),
  z.object({
    type: z.literal('setBreakpointValue'),
    field: z.enum(['cols', 'breakpoints']),
    breakpoint: bp,
    value: z.number().int().min(0).max(100_000).nullable(),
  }),
  z.object({
    type: z.literal('moveWidget'),
    id: widgetId,
    x: cell,
    y: cell,
    /** Moves the widget's responsive layout at this breakpoint; null moves its main position. */
    breakpoint: bp.nullable(),
  }),
  z.object({ type: z.literal('resizeWidget'), id: widgetId, w: size, h: size, breakpoint: bp.nullable() }),
  /** Gives a widget its own layout at a breakpoint (a copy of its position), or removes it. */
  z.object({ type: z.literal('setResponsive'), id: widgetId, breakpoint: bp, enabled: z.boolean() }),
  z.object({ type: z.literal('addWidget'), widgetType: z.string().min(1) }),
  z.object({ type: z.literal('duplicateWidget'), id: widgetId }),
  z.object({ type: z.literal('deleteWidget'), id: widgetId }),
  /** An empty type removes the field. */
  z.object({ type: z.literal('setWidgetType'), id: widgetId, widgetType: z.string() }),
  z.object({
    type: z.literal('setWidgetConfig'),
    id: widgetId,
    config: z.record(z.string(), z.unknown()),
  }),
  /** One field of a widget's config: its title, its markdown text or the report it shows; null removes it. */
  z.object({
    type: z.literal('setWidgetConfigValue'),
    id: widgetId,
    key: z.enum(['title', 'text', 'reportId']),
    value: z.union([z.string(), z.number().int().positive()]).nullable(),
  }),
  /** A widget's report (picked by name), and its title when that followed the old report's name. */
  z.object({
    type: z.literal('setWidgetReport'),
    id: widgetId,
    reportId: z.number().int().positive(),
    title: z.string().optional(),
  }),
  /** Asks the host to pick a widget's report (a searchable list of the deployment's reports). */
  z.object({ type: z.literal('pickReport'), id: widgetId }),
  z.object({ type: z.literal('publish') }),
  /** Saves the file as the workbook's draft on the server (nothing is published). */
  z.object({ type: z.literal('saveDraft') }),
  /** Confirms or cancels this file's open publish review. */
  z.object({ type: z.literal('publishReviewed') }),
  z.object({ type: z.literal('cancelReview') }),
  z.object({ type: z.literal('openText') }),
  /** Opens the text at a problem's location (0-based). */
  z.object({ type: z.literal('reveal'), line: z.number().int().min(0), column: z.number().int().min(0) }),
]);
export type WebviewToHost = z.infer<typeof webviewToHost>;

/** The messages that edit the document. */
export type EditorEdit = Exclude<
  WebviewToHost,
  | { type: 'ready' }
  | { type: 'publish' }
  | { type: 'saveDraft' }
  | { type: 'publishReviewed' }
  | { type: 'cancelReview' }
  | { type: 'pickReport' }
  | { type: 'openText' }
  | { type: 'reveal' }
>;
const NON_EDITS = new Set([
  'ready',
  'publish',
  'saveDraft',
  'publishReviewed',
  'cancelReview',
  'pickReport',
  'openText',
  'reveal',
]);
export function isEditorEdit(m: WebviewToHost): m is EditorEdit {
  return !NON_EDITS.has(m.type);
}
