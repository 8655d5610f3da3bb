// The agent tools, their JSON Schemas, and runTool(): input validated, the call logged (redacted,
// without results), the output rendered as text plus a table with every string redacted.
import { z } from 'zod';
import { getReportSql, listDeployments, listNotifications, searchReports, searchWorkbooks } from './catalog';
import { getDashboardConfig, proposeDashboardChange, publishDashboard } from './dashboards';
import { runQuery, searchDataModel } from './data';
import { failureText, renderText, structured } from './format';
import { excerpt } from '../../api/log';
import type { AgentTool, ToolContext, ToolOutput } from './types';

export * from './types';
export { MAX_ROWS, fenced, markdownTable, quote } from './format';

export const AGENT_TOOLS: readonly AgentTool[] = [
  listDeployments,
  searchDataModel,
  runQuery,
  searchReports,
  searchWorkbooks,
  getReportSql,
  getDashboardConfig,
  listNotifications,
  proposeDashboardChange,
  publishDashboard,
];

export function findTool(name: string): AgentTool | undefined {
  return AGENT_TOOLS.find((t) => t.name === name);
}

/** The JSON Schema of a tool's input (as in package.json and the MCP tool list). */
export function inputJsonSchema(tool: AgentTool): Record<string, unknown> {
  const schema = z.toJSONSchema(tool.input, { io: 'input', unrepresentable: 'any' }) as Record<
    string,
    unknown
  >;
  delete schema.$schema;
  return schema;
}

export interface ToolCallLog {
  info(line: string): void;
  warn(line: string): void;
}

export interface ToolRun {
  ok: boolean;
  /** The text for the agent (redacted): the output, or the error sentence. */
  text: string;
  output?: ToolOutput;
  /** The redacted structured result. */
  structured?: Record<string, unknown>;
}

/** Parses raw input against the tool's schema; the error names the field. */
export function parseInput(tool: AgentTool, raw: unknown): unknown {
  const parsed = tool.input.safeParse(raw ?? {});
  if (parsed.success) return parsed.data;
  const issue = parsed.error.issues[0]!;
  throw new Error(`Invalid input for ${tool.name}: ${issue.path.join('.') || 'input'}: ${issue.message}`);
}

const brief = (value: unknown, scrub: (s: string) => string): string =>
  excerpt(JSON.stringify(value) ?? '', 300, scrub);

/** Runs one tool call: never throws; failures come back as `ok: false` with a sentence. */
export async function runTool(
  tool: AgentTool,
  ctx: ToolContext,
  raw: unknown,
  opts: { log: ToolCallLog; surface: string; signal?: AbortSignal },
): Promise<ToolRun> {
  const t0 = Date.now();
  const profile = (() => {
    try {
      return ctx.gateway.profile().name;
    } catch {
      return '(no profile)';
    }
  })();
  opts.log.info(
    ctx.redact(
      `[${opts.surface}] tool ${tool.name} called (profile "${profile}"): ${brief(raw, ctx.redact)}`,
    ),
  );
  try {
    const input = parseInput(tool, raw);
    const output = await tool.execute(ctx, input, opts.signal);
    const rows = output.page ? `, ${output.page.returned} rows, hasMore ${output.page.hasMore}` : '';
    opts.log.info(`[${opts.surface}] tool ${tool.name} done in ${Date.now() - t0} ms${rows}`);
    return {
      ok: true,
      text: renderText(output, ctx.redact),
      output,
      structured: structured(output, ctx.redact),
    };
  } catch (e) {
    const message = ctx.redact(e instanceof Error ? e.message : String(e));
    opts.log.warn(`[${opts.surface}] tool ${tool.name} failed after ${Date.now() - t0} ms: ${message}`);
    return { ok: false, text: failureText(message) };
  }
}
