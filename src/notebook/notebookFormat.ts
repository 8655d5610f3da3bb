// The .dpnb file: readable, diff-friendly JSON. Keys are written in a fixed order, 2-space indent,
// one cell per block. Parse errors carry the reason and the line/column where they occur. Keys this
// version does not know (top level, metadata, cells, output items) are kept and written back after
// the known ones, so a file from a newer version loses nothing when saved here.
import { z } from 'zod';
import { redact } from '../api/log';
import { PLATFORM_SQL_LANGUAGE } from '../shared/platformSql';

export const NOTEBOOK_TYPE = 'dashboard-platform-notebook';
/** The language of SQL cells ("Platform SQL"); files store the cell kind, so older files open as it too. */
export const PLATFORM_SQL = PLATFORM_SQL_LANGUAGE;
export const FORMAT_VERSION = 1;

export const CellKindSchema = z.enum(['markdown', 'sql', 'json']);
export type CellKind = z.infer<typeof CellKindSchema>;

export const SavedOutputSchema = z.looseObject({
  mime: z.string(),
  /** Text of the output item (JSON text for JSON mimes). */
  data: z.string(),
});
export type SavedOutput = z.infer<typeof SavedOutputSchema>;

export const CellSchema = z.looseObject({
  kind: CellKindSchema,
  source: z.string(),
  outputs: z.array(z.array(SavedOutputSchema)).optional(),
  metadata: z.record(z.string(), z.unknown()).optional(),
});
export type FileCell = z.infer<typeof CellSchema>;

export const NotebookMetaSchema = z.looseObject({
  profile: z.string().optional(),
  deploymentId: z.number().int().optional(),
});
export type NotebookMeta = z.infer<typeof NotebookMetaSchema>;

export const NotebookFileSchema = z.looseObject({
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

/** Thrown when a notebook cannot be written as it is (nothing is written). */
export class NotebookSaveError extends Error {
  override readonly name = 'NotebookSaveError';
}

/** How deep values in a .dpnb may nest (JSON.stringify overflows the stack long before 100,000). */
export const MAX_DEPTH = 256;

/** The file's bytes as text; invalid UTF-8 is refused (never replaced and rewritten). */
export function decodeNotebook(bytes: Uint8Array): string {
  try {
    return new TextDecoder('utf-8', { fatal: true }).decode(bytes);
  } catch {
    const at = firstInvalidUtf8(bytes);
    const before = new TextDecoder().decode(bytes.subarray(0, at));
    const pos = position(before, before.length);
    throw new NotebookParseError(
      `the file is not valid UTF-8 (byte ${at}); save it as UTF-8 in another editor first`,
      pos.line,
      pos.column,
    );
  }
}

/** The offset of the first byte that does not start or continue a valid UTF-8 sequence. */
function firstInvalidUtf8(b: Uint8Array): number {
  const fatal = new TextDecoder('utf-8', { fatal: true });
  // Sequences are at most 4 bytes: grow a prefix until it no longer decodes (stream mode keeps an
  // unfinished sequence pending instead of failing on it).
  let i = 0;
  try {
    for (; i < b.length; i++) fatal.decode(b.subarray(i, i + 1), { stream: true });
    fatal.decode();
  } catch {
    // i is the byte that made the text invalid, or the end of an unfinished sequence
  }
  return Math.min(i, b.length);
}

/** Nesting depth of a JSON value (iterative: safe on any depth). */
export function jsonDepth(value: unknown, limit = Infinity): number {
  let max = 0;
  const stack: [unknown, number][] = [[value, 1]];
  while (stack.length > 0) {
    const [v, d] = stack.pop()!;
    if (v === null || typeof v !== 'object') continue;
    if (d > max) max = d;
    if (max > limit) return max;
    for (const child of Object.values(v)) stack.push([child, d + 1]);
  }
  return max;
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
  const depth = jsonDepth(raw, MAX_DEPTH);
  if (depth > MAX_DEPTH) {
    throw new NotebookParseError(`values nest more than ${MAX_DEPTH} levels deep`, 1, 1);
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
  // The end of the object the path is in: a key missing from a cell is not looked for in the next.
  let end = text.length;
  const closing = (open: number): number => {
    let depth = 0;
    for (let i = open; i < text.length; i++) {
      if (text[i] === '{') depth++;
      else if (text[i] === '}' && --depth === 0) return i;
    }
    return text.length;
  };
  for (const p of path) {
    if (typeof p === 'string') {
      const i = text.indexOf(JSON.stringify(p), from);
      if (i >= 0 && i < end) from = i;
    } else if (typeof p === 'number') {
      // nth object in the array: count '{' at the next depth, approximately
      let count = -1;
      for (let i = from; i < end; i++) {
        if (text[i] === '{') {
          count++;
          if (count === p) {
            from = i;
            end = closing(i);
            break;
          }
          i = closing(i); // skip the nested object
        }
      }
    }
  }
  return position(text, from);
}

/** The keys of `o` that are not in `known`, in their order (undefined when there are none). */
export function unknownKeys(
  o: Record<string, unknown>,
  known: readonly string[],
): Record<string, unknown> | undefined {
  const extra = Object.entries(o).filter(([k, v]) => !known.includes(k) && v !== undefined);
  return extra.length > 0 ? Object.fromEntries(extra) : undefined;
}

export const FILE_KEYS = ['version', 'metadata', 'cells'] as const;
export const CELL_KEYS = ['kind', 'source', 'metadata', 'outputs'] as const;

/**
 * Stable key order (known keys first, then unknown ones as they came), 2-space indent, trailing
 * newline. Output order is kept; output text is redacted of every known credential.
 */
export function stringifyNotebook(file: NotebookFile): string {
  if (jsonDepth(file, MAX_DEPTH + 2) > MAX_DEPTH + 2) {
    throw new NotebookSaveError(
      `The notebook was not saved: its metadata nests more than ${MAX_DEPTH} levels deep. Flatten the cell metadata and save again.`,
    );
  }
  const ordered = {
    version: file.version,
    metadata: orderMeta(file.metadata ?? {}),
    cells: file.cells.map((c) => {
      const cell: Record<string, unknown> = { kind: c.kind, source: c.source };
      if (c.metadata && Object.keys(c.metadata).length > 0) cell.metadata = sortKeys(c.metadata);
      if (c.outputs && c.outputs.length > 0) {
        cell.outputs = c.outputs.map((o) =>
          o.map((i) => ({ mime: i.mime, data: redact(i.data), ...unknownKeys(i, ['mime', 'data']) })),
        );
      }
      return { ...cell, ...unknownKeys(c, CELL_KEYS) };
    }),
    ...unknownKeys(file, FILE_KEYS),
  };
  return JSON.stringify(ordered, null, 2) + '\n';
}

function orderMeta(m: NotebookMeta): NotebookMeta {
  const out: NotebookMeta = {};
  if (m.profile !== undefined) out.profile = m.profile;
  if (m.deploymentId !== undefined) out.deploymentId = m.deploymentId;
  return { ...out, ...unknownKeys(m, ['profile', 'deploymentId']) };
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
