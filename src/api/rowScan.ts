// Counting cubesql rows without parsing them. Past the notebook's row cap the rows are only
// counted, and JSON.parse of rows that are then dropped was most of the client's CPU. The scan is
// quote-aware (brackets inside strings, escaped quotes and backslashes do not count) and works on
// bytes in any chunking; lines that are not `{"data":[...]}` are still parsed, so a trailing error
// line is reported as before. A counted line is checked for balance, not validated as JSON.
import { ApiError } from './errors';
import { DEFAULT_MAX_LINE_BYTES, ndjsonLines, parseLine, type NdjsonLine } from './ndjson';

const NL = 0x0a;
const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const OPEN_BRACKET = 0x5b;
const CLOSE_BRACKET = 0x5d;
const OPEN_BRACE = 0x7b;
const CLOSE_BRACE = 0x7d;

/**
 * Counts the rows of `{"data":[[...],[...]]}` lines fed in any chunking: a row is an array that
 * opens two levels deep. Call `end()` at the end of each line.
 */
export class RowCounter {
  /** Rows counted so far (all lines). */
  rows = 0;
  private depth = 0;
  private inString = false;
  private escaped = false;

  /** Scans bytes [start, end) of the current line (which contain no newline). */
  scan(bytes: Uint8Array, start = 0, end = bytes.length): void {
    // One pass, state in locals: the hot loop of counting (strings are short, so a byte loop beats
    // searching for the next quote).
    let depth = this.depth;
    let rows = this.rows;
    let inString = this.inString;
    let i = start;
    if (this.escaped && i < end) {
      this.escaped = false;
      i++;
    }
    while (i < end) {
      if (inString) {
        // The rest of the string in a tight loop of its own.
        while (i < end) {
          const c = bytes[i++];
          if (c === QUOTE) {
            inString = false;
            break;
          }
          if (c === BACKSLASH) {
            // The escaped byte may be the first of the next range.
            if (i === end) this.escaped = true;
            i++;
          }
        }
        continue;
      }
      const b = bytes[i++];
      if (b === QUOTE) {
        inString = true;
      } else if (b === OPEN_BRACKET) {
        if (depth === 2) rows++;
        depth++;
      } else if (b === OPEN_BRACE) {
        depth++;
      } else if (b === CLOSE_BRACKET || b === CLOSE_BRACE) {
        depth--;
      }
    }
    this.depth = depth;
    this.rows = rows;
    this.inString = inString;
  }

  /** The current line is complete; true when its brackets balanced (a whole JSON value). */
  end(): boolean {
    const whole = this.depth === 0 && !this.inString && !this.escaped;
    this.depth = 0;
    this.inString = false;
    this.escaped = false;
    return whole;
  }
}

/** The bytes every counted line starts with (what the service and the sandbox write). */
const DATA_PREFIX = new TextEncoder().encode('{"data":[');

/** A data line whose rows were counted, not parsed. */
export interface CountedLine {
  counted: number;
  /** 1-based physical line number. */
  line: number;
}

export interface ScanOptions {
  maxLineBytes?: number;
  /** Checked between chunks: once true, data lines from the next line on are counted. */
  counting(): boolean;
}

/**
 * NDJSON lines, parsed as ndjsonLines() parses them until `counting()` turns true; from then on
 * `{"data":[...]}` lines are counted (never held in memory) and other lines still parsed.
 */
export async function* scanLines(
  body: AsyncIterable<Uint8Array>,
  opts: ScanOptions,
): AsyncGenerator<NdjsonLine | CountedLine> {
  const max = opts.maxLineBytes ?? DEFAULT_MAX_LINE_BYTES;
  const it = body[Symbol.asyncIterator]();
  let leftover: Uint8Array | undefined;
  let newlines = 0;
  let done = false;

  // Phase 1: to the parser one line at a time (it asks for the next piece only once the consumer
  // took the line before), until counting() turns true at a line end.
  async function* gate(): AsyncGenerator<Uint8Array> {
    for (;;) {
      const r = await it.next();
      if (r.done) {
        done = true;
        return;
      }
      const chunk = r.value;
      let from = 0;
      for (;;) {
        const nl = chunk.indexOf(NL, from);
        if (nl < 0) break;
        yield chunk.subarray(from, nl + 1);
        newlines++;
        from = nl + 1;
        if (opts.counting()) {
          if (from < chunk.length) leftover = chunk.subarray(from);
          return;
        }
      }
      if (from < chunk.length) yield chunk.subarray(from);
    }
  }
  yield* ndjsonLines(gate(), { maxLineBytes: max });
  if (done) return;

  // Phase 2: line by line; data lines counted, the others parsed.
  let line = newlines + 1;
  const counter = new RowCounter();
  let head = 0; // bytes of DATA_PREFIX matched at the start of the line
  let mode: 'start' | 'count' | 'keep' = 'start';
  let kept: Uint8Array[] = [];
  let keptBytes = 0;
  const keep = (bytes: Uint8Array) => {
    keptBytes += bytes.length;
    if (keptBytes > max) {
      throw new ApiError('protocol', `Line ${line} of the stream is longer than ${max} bytes; giving up.`, {
        code: 'NDJSON_LINE_TOO_LONG',
        line,
      });
    }
    // Copy: the producer may reuse its buffer.
    kept.push(Uint8Array.prototype.slice.call(bytes));
  };
  const finish = (): NdjsonLine | CountedLine | undefined => {
    let out: NdjsonLine | CountedLine | undefined;
    if (mode === 'count') {
      const rows = counter.rows;
      counter.rows = 0;
      if (!counter.end()) throw malformed(line);
      out = { counted: rows, line };
    } else {
      if (mode === 'start' && head > 0) keep(DATA_PREFIX.subarray(0, head));
      if (kept.length) out = parseLine(concat(kept, keptBytes), line);
    }
    kept = [];
    keptBytes = 0;
    head = 0;
    mode = 'start';
    line++;
    return out;
  };
  for (;;) {
    let chunk: Uint8Array;
    if (leftover) {
      chunk = leftover;
      leftover = undefined;
    } else {
      const r = await it.next();
      if (r.done) break;
      chunk = r.value;
    }
    let i = 0;
    while (i < chunk.length) {
      const nl = chunk.indexOf(NL, i);
      const end = nl < 0 ? chunk.length : nl;
      if (mode === 'start') {
        while (i < end && head < DATA_PREFIX.length && chunk[i] === DATA_PREFIX[head]) {
          i++;
          head++;
        }
        if (head === DATA_PREFIX.length) {
          mode = 'count';
          counter.scan(DATA_PREFIX);
        } else if (i < end) {
          mode = 'keep';
          if (head > 0) keep(DATA_PREFIX.subarray(0, head));
        }
      }
      if (mode === 'count') counter.scan(chunk, i, end);
      else if (mode === 'keep' && i < end) keep(chunk.subarray(i, end));
      if (nl < 0) break;
      const out = finish();
      if (out) yield out;
      i = nl + 1;
    }
  }
  if (mode !== 'start' || head > 0) {
    const out = finish();
    if (out) yield out;
  }
}

function malformed(line: number): ApiError {
  return new ApiError(
    'protocol',
    `The server sent a malformed line ${line} in the stream (an unbalanced data line). The response may have been cut off; try again.`,
    { code: 'NDJSON_MALFORMED', line },
  );
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
