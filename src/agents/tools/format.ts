// Shared helpers of the tools: row caps, deployment resolution, and the text an agent receives
// (a few lines plus a Markdown table), with every string redacted.
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

/** Text of one cell: JSON for objects, one line, redacted (by `scrub`) before it is truncated. */
export function cellText(v: unknown, scrub?: (s: string) => string): string {
  if (v === null || v === undefined) return '';
  const s = typeof v === 'string' ? v : typeof v === 'object' ? JSON.stringify(v) : String(v);
  const one = s.replace(/\r?\n/g, ' ');
  return excerpt(one, MAX_CELL, scrub);
}

/** A Markdown table (pipes escaped) of a table, cells redacted. */
export function markdownTable(table: Table, redact: (s: string) => string = (s) => s): string {
  if (table.columns.length === 0) return '';
  const esc = (s: string) => redact(s).replace(/\\/g, '\\\\').replace(/\|/g, '\\|');
  const head = `| ${table.columns.map(esc).join(' | ')} |`;
  const rule = `| ${table.columns.map(() => '---').join(' | ')} |`;
  const rows = table.rows.map(
    (r) => `| ${table.columns.map((_, i) => esc(cellText(r[i], redact))).join(' | ')} |`,
  );
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

/** "Revenue (12)" style label. */
export function named(name: unknown, id: number | string): string {
  return typeof name === 'string' && name ? `"${name}" (${id})` : String(id);
}
