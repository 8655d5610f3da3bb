// Shared helpers of the tools: row caps, deployment resolution, and the text an agent receives
// (a few lines plus a Markdown table), with every string redacted. Text from the service (names,
// SQL, titles, error messages) is DATA: it reaches the agent only inside a container it cannot
// close: a JSON string literal in a summary line (quote), a fence longer than any backtick run in
// it (fenced), or a table cell with line breaks, control characters and pipes escaped (cellText).
import { z } from 'zod';
import { excerpt } from '../../api/log';
import type { PlatformGateway } from '../gateway';
import type { Table, ToolOutput } from './types';

/** The most rows any tool returns in one call. */
export const MAX_ROWS = 100;
/** Longest cell text in the table an agent reads. */
const MAX_CELL = 200;

export const deploymentIdField = z
  .number()
  .int()
  .min(1)
  .optional()
  .describe(
    "Deployment id (from list_deployments). Optional: defaults to the profile's default deployment, or the only deployment.",
  );

export const pageSizeField = (what: string) =>
  z
    .number()
    .int()
    .min(1)
    .max(MAX_ROWS)
    .optional()
    .describe(`How many ${what} to return (1-${MAX_ROWS}, default 50).`);

export const cursorField = z
  .string()
  .min(1)
  .optional()
  .describe('The nextCursor of the previous call, to fetch the next page.');

/**
 * Line breaks in every spelling Markdown or a model may honour (CR alone ends a line in CommonMark),
 * and the other control and invisible formatting characters (bidi overrides can reorder what a
 * reader sees).
 */
// eslint-disable-next-line no-control-regex -- matching control characters is the point
const LINE_BREAKS = /\r\n|[\n\r\u000b\u000c\u0085\u2028\u2029]/g;
const CONTROLS =
  // eslint-disable-next-line no-control-regex -- matching control characters is the point
  /[\u0000-\u001f\u007f-\u009f\u00ad\u061c\u180e\u200b-\u200f\u202a-\u202e\u2060-\u206f\ufeff\ufff9-\ufffb]/g;
const hex = (c: string) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`;

/**
 * A JSON string literal of `text` that stays on one line: JSON escapes plus the line separators
 * and invisible characters JSON leaves raw. Service text in a summary line goes through this.
 */
export function quote(text: string): string {
  return JSON.stringify(text).replace(CONTROLS, hex).replace(LINE_BREAKS, hex);
}

/** The longest run of backticks in a text. */
function longestBacktickRun(text: string): number {
  let longest = 0;
  for (const m of text.matchAll(/`+/g)) longest = Math.max(longest, m[0].length);
  return longest;
}

/**
 * A fenced code block that its content cannot close: the fence is one backtick longer than the
 * longest run in the content (at least three), per CommonMark a closing fence must be at least as
 * long as the opening one.
 */
export function fenced(content: string, lang = ''): string {
  const fence = '`'.repeat(Math.max(3, longestBacktickRun(content) + 1));
  return `${fence}${lang}\n${content}\n${fence}`;
}

/**
 * Text of one cell: JSON for objects, redacted BEFORE it is cut (a cut token would escape the
 * redaction), one line, control characters escaped, truncated.
 */
export function cellText(v: unknown, redact: (s: string) => string = (s) => s): string {
  if (v === null || v === undefined) return '';
  const s = redact(typeof v === 'string' ? v : typeof v === 'object' ? JSON.stringify(v) : String(v));
  return excerpt(s.replace(LINE_BREAKS, ' ').replace(CONTROLS, hex), MAX_CELL, (t) => t);
}

/** A Markdown table (pipes escaped) of a table, cells redacted. */
export function markdownTable(table: Table, redact: (s: string) => string = (s) => s): string {
  if (table.columns.length === 0) return '';
  const esc = (v: unknown) => cellText(v, redact).replace(/\\/g, '\\\\').replace(/\|/g, '\\|');
  const head = `| ${table.columns.map(esc).join(' | ')} |`;
  const rule = `| ${table.columns.map(() => '---').join(' | ')} |`;
  const rows = table.rows.map((r) => `| ${table.columns.map((_, i) => esc(r[i])).join(' | ')} |`);
  return [head, rule, ...rows].join('\n');
}

/** Redacts every string in a JSON-like value. */
export function redactValue<T>(value: T, redact: (s: string) => string): T {
  if (typeof value === 'string') return redact(value) as T;
  if (Array.isArray(value)) return value.map((v) => redactValue(v, redact)) as T;
  if (value && typeof value === 'object') {
    const out: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(value)) out[k] = redactValue(v, redact);
    return out as T;
  }
  return value;
}

/** The whole text an agent receives: the summary lines, paging, then the table. */
export function renderText(out: ToolOutput, redact: (s: string) => string): string {
  const parts = [redact(out.text)];
  if (out.page) {
    const p = out.page;
    const facts = [`returned: ${p.returned}`, `hasMore: ${p.hasMore}`];
    if (p.total !== undefined) facts.push(`total: ${p.total}`);
    if (p.nextCursor) facts.push(`nextCursor: ${p.nextCursor}`);
    if (p.nextOffset !== undefined) facts.push(`nextOffset: ${p.nextOffset}`);
    parts.push(facts.join(', '));
  }
  if (out.table && out.table.rows.length > 0) parts.push(markdownTable(out.table, redact));
  return parts.join('\n\n');
}

/** The structured form (MCP structuredContent), redacted. */
export function structured(out: ToolOutput, redact: (s: string) => string): Record<string, unknown> {
  const value: Record<string, unknown> = { ...(out.data ?? {}) };
  if (out.page) Object.assign(value, out.page);
  if (out.table) value.table = out.table;
  return redactValue(value, redact);
}

/** The deployment a tool acts on: given, else the profile's default, else the only one. */
export async function resolveDeployment(
  gateway: PlatformGateway,
  given: number | undefined,
  signal?: AbortSignal,
): Promise<{ id: number; name: string }> {
  const id = given ?? gateway.profile().defaultDeploymentId;
  if (id !== undefined) return { id, name: (await gateway.deploymentName(id, signal)) ?? `deployment ${id}` };
  const page = await gateway.listDeployments({ first: 2 }, signal);
  if (page.items.length === 1) {
    const only = page.items[0]!;
    return { id: only.id, name: String(only.name ?? `deployment ${only.id}`) };
  }
  throw new Error(
    page.items.length === 0
      ? 'This profile can see no deployment.'
      : `Say which deployment: pass deploymentId (list_deployments lists them; profile "${gateway.profile().name}" has no default deployment).`,
  );
}

/** `"Revenue" (12)` style label; the name is a JSON string literal (it comes from the service). */
export function named(name: unknown, id: number | string): string {
  if (typeof name === 'string' && name) return `${quote(name)} (${typeof id === 'number' ? id : quote(id)})`;
  return typeof id === 'number' ? String(id) : quote(id);
}

/**
 * The text of a failed call: the message as a string literal, since it may carry the service's
 * words (an API error quotes the server's message) or the caller's input.
 */
export function failureText(message: string): string {
  return `The tool failed. The error message (as a JSON string): ${quote(message)}`;
}
