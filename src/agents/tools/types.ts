// What every agent tool is: a name ({verb}_{noun}), a description for the model, a zod input schema
// (its JSON Schema goes into package.json and the MCP tool list), and execute() returning compact
// text plus a table. vscode-free: shared by the language model tools and the MCP server.
import type { z } from 'zod';
import type { PlatformGateway } from '../gateway';

/**
 * read: only reads; query: reads but runs work on the warehouse (costs); write: changes a local
 * file; production: changes what the platform's users see (publish, merge or commit to the default
 * branch, deletes). The effect decides the annotations, the confirmation and the MCP policy.
 */
export type ToolEffect = 'read' | 'query' | 'write' | 'production';

/** The MCP tool annotations (and the manifest's tags) that follow from an effect. */
export interface ToolAnnotations {
  readOnlyHint: boolean;
  destructiveHint: boolean;
  idempotentHint: boolean;
  openWorldHint: boolean;
}

/**
 * Honest hints: a local file write replaces the file's text (destructive, repeatable, local); a
 * production change is destructive and each call makes a new version (not idempotent).
 */
export function toolAnnotations(effect: ToolEffect): ToolAnnotations {
  switch (effect) {
    case 'read':
      return { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: true };
    case 'query':
      return { readOnlyHint: true, destructiveHint: false, idempotentHint: false, openWorldHint: true };
    case 'write':
      return { readOnlyHint: false, destructiveHint: true, idempotentHint: true, openWorldHint: false };
    case 'production':
      return { readOnlyHint: false, destructiveHint: true, idempotentHint: false, openWorldHint: true };
  }
}

/** The manifest's tags for an effect (VS Code's tool contribution has tags, no annotations). */
export function effectTags(effect: ToolEffect): string[] {
  const a = toolAnnotations(effect);
  return [
    'dashboard-platform',
    a.readOnlyHint ? 'read-only' : 'writes',
    ...(a.destructiveHint ? ['destructive'] : []),
    ...(effect === 'production' ? ['production'] : []),
  ];
}

export interface Table {
  columns: string[];
  rows: unknown[][];
}

export interface ToolOutput {
  /** A few lines for the model: what was done, counts, paging. */
  text: string;
  table?: Table;
  /** Paging facts, when the tool pages. */
  page?: { returned: number; hasMore: boolean; total?: number; nextCursor?: string; nextOffset?: number };
  /** Extra structured data (the MCP server returns it as structuredContent). */
  data?: Record<string, unknown>;
}

/** How a proposed file change is put to the user (VS Code: a diff to apply or discard; MCP: written when allowed). */
export interface FileAccess {
  /** The file's text; throws a clear error when it cannot be read. */
  read(file: string): Promise<{ text: string; display: string }>;
  /** Puts the change to the user; says whether it was applied. */
  propose(change: ProposedChange, signal?: AbortSignal): Promise<ProposalOutcome>;
}

export interface ProposedChange {
  file: string;
  display: string;
  oldText: string;
  newText: string;
  diff: string;
  summary: string;
}

export type ProposalOutcome = { applied: true; detail: string } | { applied: false; detail: string };

export interface ToolContext {
  gateway: PlatformGateway;
  files?: FileAccess;
  /** Removes secrets from text returned to the agent. */
  redact(text: string): string;
}

export interface AgentTool<S extends z.ZodType = z.ZodType> {
  name: string;
  /** Short title for UIs. */
  title: string;
  /** What the tool does, for the model: precise, with when to use it. */
  description: string;
  input: S;
  effect: ToolEffect;
  /** One line saying what will run (no network): shown before the tool runs. */
  summary(input: z.infer<S>): string;
  execute(ctx: ToolContext, input: z.infer<S>, signal?: AbortSignal): Promise<ToolOutput>;
}

/** Helper that keeps the input type attached to the tool. */
export function defineTool<S extends z.ZodType>(tool: AgentTool<S>): AgentTool<S> {
  return tool;
}
