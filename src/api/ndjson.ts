// Incremental NDJSON: bytes in any chunking -> one parsed value per non-blank line. Memory is bounded
// by the longest line (capped by `maxLineBytes`), never by the body.
import { ApiError } from './errors';

export interface NdjsonOptions {
  /** A line longer than this is a protocol error. Default 64 MiB. */
  maxLineBytes?: number;
}

export interface NdjsonLine {
  value: unknown;
  /** 1-based physical line number (blank lines count). */
  line: number;
}

export const DEFAULT_MAX_LINE_BYTES = 64 * 1024 * 1024;
const NL = 0x0a;
const CR = 0x0d;

const decoder = new TextDecoder('utf-8', { fatal: true });

/** One line's bytes (no newline) to its value; undefined for a blank line. */
export function parseLine(bytes: Uint8Array, line: number): NdjsonLine | undefined {
  let end = bytes.length;
  if (end > 0 && bytes[end - 1] === CR) end--;
  let text: string;
  try {
    text = decoder.decode(end === bytes.length ? bytes : bytes.subarray(0, end));
  } catch {
    throw new ApiError('protocol', `The server sent invalid UTF-8 on line ${line} of the stream.`, {
      code: 'NDJSON_UTF8',
      line,
    });
  }
  if (!text.trim()) return undefined;
  try {
    return { value: JSON.parse(text) as unknown, line };
  } catch {
    const excerpt = text.length > 80 ? text.slice(0, 80) + '…' : text;
    throw new ApiError(
      'protocol',
      `The server sent a malformed line ${line} in the stream (not JSON: ${JSON.stringify(excerpt)}). The response may have been cut off; try again.`,
      { code: 'NDJSON_MALFORMED', line },
    );
  }
}

function tooLong(line: number, max: number): ApiError {
  return new ApiError('protocol', `Line ${line} of the stream is longer than ${max} bytes; giving up.`, {
    code: 'NDJSON_LINE_TOO_LONG',
    line,
  });
}

/** Parses an NDJSON byte stream. Throws ApiError 'protocol' naming the line of a malformed value. */
export async function* ndjsonLines(
  body: AsyncIterable<Uint8Array>,
  opts: NdjsonOptions = {},
): AsyncGenerator<NdjsonLine> {
  const max = opts.maxLineBytes ?? DEFAULT_MAX_LINE_BYTES;
  let pending: Uint8Array[] = []; // pieces of the current, unfinished line
  let pendingBytes = 0;
  let line = 1;
  for await (const chunk of body) {
    let start = 0;
    for (;;) {
      const nl = chunk.indexOf(NL, start);
      if (nl < 0) break;
      let bytes: Uint8Array;
      const piece = chunk.subarray(start, nl);
      if (pendingBytes + piece.length > max) throw tooLong(line, max);
      if (pending.length === 0) bytes = piece;
      else {
        pending.push(piece);
        bytes = concat(pending, pendingBytes + piece.length);
        pending = [];
        pendingBytes = 0;
      }
      const parsed = parseLine(bytes, line);
      if (parsed) yield parsed;
      line++;
      start = nl + 1;
    }
    if (start < chunk.length) {
      const rest = chunk.subarray(start);
      pendingBytes += rest.length;
      if (pendingBytes > max) throw tooLong(line, max);
      // Copy: the producer may reuse its buffer after we yield.
      pending.push(Uint8Array.prototype.slice.call(rest));
    }
  }
  if (pendingBytes > 0) {
    const parsed = parseLine(concat(pending, pendingBytes), line);
    if (parsed) yield parsed;
  }
}

function concat(parts: Uint8Array[], total: number): Uint8Array {
  if (parts.length === 1) return parts[0];
  const out = new Uint8Array(total);
  let off = 0;
  for (const p of parts) {
    out.set(p, off);
    off += p.length;
  }
  return out;
}
