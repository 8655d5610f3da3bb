// The .dpnb file: readable, diff-friendly JSON. Keys are written in a fixed order, 2-space indent,
// one cell per block. Parse errors carry the reason and the line/column where they occur.
import { z } from 'zod';

export const NOTEBOOK_TYPE = 'dashboard-platform-notebook';
/** The language of SQL cells ("Platform SQL"); files store the cell kind, so older files open as it too. */
export const PLATFORM_SQL = 'dashboard-platform-sql';
export const FORMAT_VERSION = 1;

export const CellKindSchema = z.enum(['markdown', 'sql', 'json']);
export type CellKind = z.infer<typeof CellKindSchema>;

export const SavedOutputSchema = z.object({
  mime: z.string(),
  /** Text of the output item (JSON text for JSON mimes). */
  data: z.string(),
});
export type SavedOutput = z.infer<typeof SavedOutputSchema>;

export const CellSchema = z.object({
  kind: CellKindSchema,
  source: z.string(),
  outputs: z.array(z.array(SavedOutputSchema)).optional(),
  metadata: z.record(z.string(), z.unknown()).optional(),
});
export type FileCell = z.infer<typeof CellSchema>;

export const NotebookMetaSchema = z.object({
  profile: z.string().optional(),
  deploymentId: z.number().int().optional(),
});
export type NotebookMeta = z.infer<typeof NotebookMetaSchema>;

export const NotebookFileSchema = z.object({
  version: z.literal(FORMAT_VERSION),
  metadata: NotebookMetaSchema.optional().default({}),
  cells: z.array(CellSchema),
});
export type NotebookFile = z.infer<typeof NotebookFileSchema>;

export class NotebookParseError extends Error {
  override readonly name = 'NotebookParseError';
  constructor(
    readonly reason: string,
    readonly line: number,
    readonly column: number,
  ) {
    super(
      `Cannot open this query notebook: ${reason} (line ${line}, column ${column}). The file was left unchanged.`,
    );
  }
}

/** Line and column (1-based) of a character offset. */
export function position(text: string, offset: number): { line: number; column: number } {
  let line = 1;
  let last = -1;
  for (let i = 0; i < offset && i < text.length; i++) {
    if (text.charCodeAt(i) === 10) {
      line++;
      last = i;
    }
  }
  return { line, column: offset - last };
}

/** Parses file text. An empty file is an empty notebook; anything else must be valid. */
export function parseNotebook(text: string): NotebookFile {
  if (text.trim() === '') return { version: FORMAT_VERSION, metadata: {}, cells: [] };
  let raw: unknown;
  try {
    raw = JSON.parse(text);
  } catch (e) {
    const msg = e instanceof Error ? e.message : String(e);
    const m = /position (\d+)/.exec(msg);
    const lc = /line (\d+) column (\d+)/.exec(msg);
    let pos = m ? position(text, Number(m[1])) : { line: 1, column: 1 };
    if (lc) pos = { line: Number(lc[1]), column: Number(lc[2]) };
    else if (!m) pos = position(text, text.length);
    const reason = msg.replace(/ in JSON at position \d+.*$/, '').replace(/\s*\(line \d+ column \d+\)/, '');
    throw new NotebookParseError(`invalid JSON: ${reason}`, pos.line, pos.column);
  }
  const parsed = NotebookFileSchema.safeParse(raw);
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!;
    const pathText = issue.path.join('.');
    const pos = locatePath(text, issue.path);
    throw new NotebookParseError(`${pathText ? `${pathText}: ` : ''}${issue.message}`, pos.line, pos.column);
  }
  return parsed.data;
}

/** Approximate position of a JSON path: the last key's occurrence, else the start. */
function locatePath(text: string, path: readonly PropertyKey[]): { line: number; column: number } {
  let from = 0;
  for (const p of path) {
    if (typeof p === 'string') {
      const i = text.indexOf(JSON.stringify(p), from);
      if (i >= 0) from = i;
    } else if (typeof p === 'number') {
      // nth object in the array: count '{' at the next depth, approximately
      let count = -1;
      for (let i = from; i < text.length; i++) {
        if (text[i] === '{') {
          count++;
          if (count === p) {
            from = i;
            break;
          }
          // skip the nested object
          let depth = 0;
          for (; i < text.length; i++) {
            if (text[i] === '{') depth++;
            else if (text[i] === '}' && --depth === 0) break;
          }
        }
      }
    }
  }
  return position(text, from);
}

/** Stable key order, 2-space indent, trailing newline. */
export function stringifyNotebook(file: NotebookFile): string {
  const ordered = {
    version: file.version,
    metadata: orderMeta(file.metadata ?? {}),
    cells: file.cells.map((c) => {
      const cell: Record<string, unknown> = { kind: c.kind, source: c.source };
      if (c.metadata && Object.keys(c.metadata).length > 0) cell.metadata = sortKeys(c.metadata);
      if (c.outputs && c.outputs.length > 0) {
        cell.outputs = c.outputs.map((o) => o.map((i) => ({ mime: i.mime, data: i.data })));
      }
      return cell;
    }),
  };
  return JSON.stringify(ordered, null, 2) + '\n';
}

function orderMeta(m: NotebookMeta): NotebookMeta {
  const out: NotebookMeta = {};
  if (m.profile !== undefined) out.profile = m.profile;
  if (m.deploymentId !== undefined) out.deploymentId = m.deploymentId;
  return out;
}

function sortKeys(v: unknown): unknown {
  if (Array.isArray(v)) return v.map(sortKeys);
  if (v && typeof v === 'object') {
    return Object.fromEntries(
      Object.keys(v)
        .sort()
        .map((k) => [k, sortKeys((v as Record<string, unknown>)[k])]),
    );
  }
  return v;
}
