// Messages between the chat panel host (src/chat) and its webview (webview/chat). Both sides parse
// what they receive with these schemas. The host sends small render operations, so the webview
// can update one element per event instead of re-rendering the transcript.
import { z } from 'zod';

const toolResult = z.looseObject({
  schema: z.array(z.looseObject({ name: z.string() })).optional(),
  data: z.array(z.array(z.unknown())).optional(),
  totalRows: z.number().optional(),
  vegaSpec: z.unknown().optional(),
  error: z.string().optional(),
  /** The rollups (pre-aggregations) that served the query: name and build time. */
  rollups: z.array(z.object({ id: z.string(), builtAt: z.string().optional() })).optional(),
});

export const hostToWebview = z.discriminatedUnion('type', [
  z.object({
    type: z.literal('init'),
    agentName: z.string(),
    agentUrl: z.string().optional(),
    chatId: z.string().optional(),
    allowRemoteImages: z.boolean(),
    /** The profile this chat's agent belongs to. */
    profileName: z.string().optional(),
  }),
  /** Questions to start an empty chat with (from the model's cubes). */
  z.object({ type: z.literal('starters'), prompts: z.array(z.string()) }),
  /** The active profile changed: this panel still talks to `own`'s agent. */
  z.object({ type: z.literal('profile'), own: z.string(), active: z.string() }),
  /** What the agent's queries run against: `dev` when a data-model branch in dev mode. */
  z.object({ type: z.literal('target'), text: z.string(), dev: z.boolean() }),
  z.object({ type: z.literal('reset') }),
  z.object({ type: z.literal('turnStarted'), turnId: z.string(), userText: z.string().optional() }),
  z.object({
    type: z.literal('userMessage'),
    id: z.string(),
    text: z.string(),
  }),
  /** Append `delta` to the message's text, or replace the text when `text` is given. */
  z.object({
    type: z.literal('assistantText'),
    id: z.string(),
    delta: z.string().optional(),
    text: z.string().optional(),
    thinking: z.string().optional(),
    inProcess: z.boolean(),
  }),
  z.object({
    type: z.literal('toolCall'),
    id: z.string(),
    name: z.string(),
    input: z.unknown(),
    sql: z.string().optional(),
    result: toolResult.optional(),
    resultText: z.string().optional(),
  }),
  z.object({ type: z.literal('final'), id: z.string(), markdown: z.string() }),
  z.object({
    type: z.literal('usage'),
    usage: z.looseObject({
      llmCalls: z.number().optional(),
      inputTokens: z.number().optional(),
      outputTokens: z.number().optional(),
      totalTokens: z.number().optional(),
    }),
  }),
  z.object({ type: z.literal('suspended'), reason: z.string().optional() }),
  z.object({ type: z.literal('aborted') }),
  z.object({ type: z.literal('error'), message: z.string(), retryable: z.boolean() }),
  z.object({ type: z.literal('turnEnded'), chatId: z.string().optional() }),
  /** Asks the page what it shows (answered with `inspection`; used by tests and the bench). */
  z.object({ type: z.literal('inspect'), requestId: z.number() }),
]);
export type HostToWebview = z.infer<typeof hostToWebview>;
export type ToolResult = z.infer<typeof toolResult>;

export const webviewToHost = z.discriminatedUnion('type', [
  z.object({ type: z.literal('ready') }),
  z.object({ type: z.literal('send'), text: z.string().min(1) }),
  z.object({ type: z.literal('stop') }),
  z.object({ type: z.literal('resume') }),
  z.object({ type: z.literal('retry') }),
  z.object({ type: z.literal('newChat') }),
  z.object({ type: z.literal('history') }),
  z.object({ type: z.literal('openInNotebook'), sql: z.string() }),
  z.object({ type: z.literal('copy'), text: z.string(), what: z.enum(['sql', 'csv']) }),
  /** Sent after a batch of operations has been applied and painted (used by tests and benchmarks). */
  z.object({ type: z.literal('painted'), count: z.number() }),
  z.object({ type: z.literal('inspection'), requestId: z.number(), view: z.lazy(() => transcriptView) }),
]);
export type WebviewToHost = z.infer<typeof webviewToHost>;

/** What the page shows, as text: the answer of a test asking the real DOM. */
export const transcriptView = z.object({
  userMessages: z.array(z.string()),
  assistantTexts: z.array(z.string()),
  finalAnswers: z.array(z.string()),
  toolCards: z.array(
    z.object({
      name: z.string(),
      rowCount: z.string().optional(),
      tableRows: z.number(),
      hasChart: z.boolean(),
      /** The rollup badge's text, when a rollup served the query. */
      rollup: z.string().optional(),
    }),
  ),
  notices: z.array(z.string()),
  /** The header: agent and profile. */
  header: z.string().default(''),
  starters: z.array(z.string()).default([]),
  /** The composer's text (a failed question is put back there). */
  draft: z.string().default(''),
  /** Whether the transcript is scrolled to its end. */
  atBottom: z.boolean().default(true),
  jumpVisible: z.boolean().default(false),
  /** The profile banner's text ('' when hidden). */
  banner: z.string().default(''),
  /** Whether anything in the transcript is wider than the panel (a long token not wrapped). */
  overflowsX: z.boolean().default(false),
  usage: z.string(),
  inputDisabled: z.boolean(),
  scriptElements: z.number(),
});
export type TranscriptView = z.infer<typeof transcriptView>;

/** State the webview keeps with setState so a reload can ask the host for the same chat. */
export const chatPanelState = z.object({
  chatId: z.string().optional(),
  agentUrl: z.string().optional(),
});
export type ChatPanelState = z.infer<typeof chatPanelState>;

/** Rows as CSV (RFC 4180 quoting), used by "Copy table as CSV". */
export function toCsv(columns: string[], rows: unknown[][]): string {
  const cell = (v: unknown): string => {
    const s = v == null ? '' : typeof v === 'object' ? JSON.stringify(v) : String(v);
    return /[",\r\n]/.test(s) ? `"${s.replace(/"/g, '""')}"` : s;
  };
  return [columns, ...rows].map((r) => r.map(cell).join(',')).join('\r\n');
}
