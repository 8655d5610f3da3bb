// Incremental NDJSON: bytes in any chunking -> one parsed value per non-blank line. Memory is bounded
// by the longest line (capped by `maxLineBytes`), never by the body.
import { isUtf8 } from 'node:buffer';
import { ApiError } from './errors';
import { excerpt as redactedExcerpt } from './log';

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

/** A view of `bytes` as a Buffer (no copy), for Buffer's fast UTF-8 decoding. */
function asBuffer(bytes: Uint8Array): Buffer {
  return Buffer.isBuffer(bytes) ? bytes : Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
}

/** One line's bytes (no newline) to its value; undefined for a blank line. */
export function parseLine(bytes: Uint8Array, line: number): NdjsonLine | undefined {
  let end = bytes.length;
  if (end > 0 && bytes[end - 1] === CR) end--;
  const buf = asBuffer(bytes);
  const text = buf.toString('utf8', 0, end);
  // Decoding puts U+FFFD where the bytes are not UTF-8; only a line that holds one is validated
  // (the character itself is valid data), so valid lines pay for one decode and no second pass.
  if (text.includes('\uFFFD') && !isUtf8(buf.subarray(0, end))) {
    throw new ApiError('protocol', `The server sent invalid UTF-8 on line ${line} of the stream.`, {
      code: 'NDJSON_UTF8',
      line,
    });
  }
  if (!text.trim()) return undefined;
  try {
    return { value: JSON.parse(text) as unknown, line };
  } catch {
    const excerpt = redactedExcerpt(text, 81);
    throw new ApiError(
      'protocol',
      `The server sent a malformed line ${line} in the stream (not JSON: ${JSON.stringify(excerpt)}). The response may have been cut off; try again.`,
      { code: 'NDJSON_MALFORMED', line },
    );
  }
}

export function tooLong(line: number, max: number): ApiError {
  return new ApiError('protocol', `Line ${line} of the stream is longer than ${max} bytes; giving up.`, {
    code: 'NDJSON_LINE_TOO_LONG',
    line,
  });
}

/** A piece of one line (a subarray of a chunk, never a copy); `eol` when a newline ends the line here. */
export interface LinePiece {
  bytes: Uint8Array;
  eol: boolean;
}

/**
 * The line splitter of rowScan's scanLines, which counts a line's rows piece by piece without
 * holding the line: a byte stream in any chunking to pieces of lines. A line inside one chunk is one piece; a line across
 * chunks is several, the last with `eol` (or none when the body ends without a newline). Empty
 * pieces come only for empty lines.
 */
export async function* linePieces(body: AsyncIterable<Uint8Array>): AsyncGenerator<LinePiece> {
  for await (const chunk of body) {
    let start = 0;
    for (;;) {
      const nl = chunk.indexOf(NL, start);
      if (nl < 0) break;
      yield { bytes: chunk.subarray(start, nl), eol: true };
      start = nl + 1;
    }
    if (start < chunk.length) yield { bytes: chunk.subarray(start), eol: false };
  }
}

/**
 * The pieces of the current line kept until its end, bounded by the maximum line length. Pieces are
 * kept as views, never copied: a chunk read from a stream belongs to its reader (Node's streams
 * hand each chunk over and never write into it again). A line of several pieces is joined into one
 * buffer kept from line to line (grown to the longest line seen): a new buffer per joined line was
 * an allocation of the line's size outside the heap each time, and the collections it set off.
 */
export class LineJoiner {
  private parts: Uint8Array[] = [];
  private size = 0;
  private scratch: Buffer | undefined;
  constructor(private readonly max: number) {}

  get empty(): boolean {
    return this.size === 0;
  }

  /** Keeps a piece of line `line`. */
  add(bytes: Uint8Array, line: number): void {
    if (this.size + bytes.length > this.max) throw tooLong(line, this.max);
    this.size += bytes.length;
    this.parts.push(bytes);
  }

  /**
   * The kept pieces as one line; the joiner is then empty. A joined line is a view of the joiner's
   * buffer, valid until the next take() (callers decode it at once).
   */
  take(): Uint8Array {
    let out: Uint8Array;
    if (this.parts.length === 1) out = this.parts[0]!;
    else {
      if (!this.scratch || this.scratch.length < this.size)
        this.scratch = Buffer.allocUnsafeSlow(Math.max(this.size, (this.scratch?.length ?? 0) * 2));
      let off = 0;
      for (const p of this.parts) {
        this.scratch.set(p, off);
        off += p.length;
      }
      out = this.scratch.subarray(0, this.size);
    }
    this.parts = [];
    this.size = 0;
    return out;
  }
}

/**
 * Parses an NDJSON byte stream. Throws ApiError 'protocol' naming the line of a malformed value.
 * Lines are found in the bytes (indexOf of the newline); a line inside one chunk is decoded from a
 * view of it, a line across chunks is joined once at its end, and only whole lines are decoded.
 */
export async function* ndjsonLines(
  body: AsyncIterable<Uint8Array>,
  opts: NdjsonOptions = {},
): AsyncGenerator<NdjsonLine> {
  const max = opts.maxLineBytes ?? DEFAULT_MAX_LINE_BYTES;
  const joiner = new LineJoiner(max);
  let line = 1;
  for await (const chunk of body) {
    let start = 0;
    for (;;) {
      const nl = chunk.indexOf(NL, start);
      if (nl < 0) break;
      let whole = chunk.subarray(start, nl);
      if (!joiner.empty) {
        joiner.add(whole, line);
        whole = joiner.take();
      } else if (whole.length > max) throw tooLong(line, max);
      start = nl + 1;
      const parsed = parseLine(whole, line++);
      if (parsed) yield parsed;
    }
    if (start < chunk.length) joiner.add(chunk.subarray(start), line);
  }
  if (!joiner.empty) {
    const parsed = parseLine(joiner.take(), line);
    if (parsed) yield parsed;
  }
}
