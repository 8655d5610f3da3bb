// Messages between the dashboard custom editor (src/dashboards/dashboardEditor.ts) and its page
// (webview/dashboard). Both sides parse what they receive with these schemas.
import { z } from 'zod';

export const EDITOR_BREAKPOINTS = ['lg', 'md', 'sm', 'xs', 'xxs'] as const;
export type EditorBreakpoint = (typeof EDITOR_BREAKPOINTS)[number];

export const editorProblem = z.object({ message: z.string(), line: z.number(), column: z.number() });
export type EditorProblem = z.infer<typeof editorProblem>;

export const hostToWebview = z.object({
  type: z.literal('state'),
  /** The last valid publish input (kept while the text is invalid), or null before any. */
  input: z.record(z.string(), z.unknown()).nullable(),
  problems: z.array(editorProblem),
  /** Switches the preview to this breakpoint (the page keeps its own choice otherwise). */
  breakpoint: z.enum(EDITOR_BREAKPOINTS).optional(),
});
export type HostToWebview = z.infer<typeof hostToWebview>;

export const webviewToHost = z.discriminatedUnion('type', [
  z.object({ type: z.literal('ready') }),
  z.object({ type: z.literal('setTitle'), title: z.string() }),
  z.object({
    type: z.literal('moveWidget'),
    id: z.string(),
    x: z.number().int().min(0),
    y: z.number().int().min(0),
    /** Moves the widget's responsive layout at this breakpoint; null moves its main position. */
    breakpoint: z.enum(EDITOR_BREAKPOINTS).nullable(),
  }),
]);
export type WebviewToHost = z.infer<typeof webviewToHost>;
