// Counting cubesql rows without parsing them. Past the notebook's row cap the rows are only
// counted, and JSON.parse of rows that are then dropped was most of the client's CPU. The scan is
// quote-aware (brackets inside strings, escaped quotes and backslashes do not count) and works on
// bytes in any chunking; lines that are not `{"data":[...]}` are still parsed, so a trailing error
// line is reported as before. A counted line is checked for balance, not validated as JSON.
import { ApiError } from './errors';
import { DEFAULT_MAX_LINE_BYTES, LineJoiner, linePieces, parseLine, type NdjsonLine } from './ndjson';

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
 * `{"data":[...]}` lines are counted (never held in memory) and other lines still parsed. Lines are
 * split by ndjson.ts's splitter; `counting()` is asked at the start of each line, once the consumer
 * has taken the line before.
 */
export async function* scanLines(
  body: AsyncIterable<Uint8Array>,
  opts: ScanOptions,
): AsyncGenerator<NdjsonLine | CountedLine> {
  const max = opts.maxLineBytes ?? DEFAULT_MAX_LINE_BYTES;
  let counting = false;
  let line = 1;
  const counter = new RowCounter();
  const joiner = new LineJoiner(max);
  let head = 0; // bytes of DATA_PREFIX matched at the start of the line
  // fresh: nothing of the line seen yet; prefix: matching DATA_PREFIX; count: a data line being
  // counted; keep: a line kept whole to be parsed.
  let mode: 'fresh' | 'prefix' | 'count' | 'keep' = 'fresh';
  const finish = (): NdjsonLine | CountedLine | undefined => {
    let out: NdjsonLine | CountedLine | undefined;
    if (mode === 'count') {
      const rows = counter.rows;
      counter.rows = 0;
      if (!counter.end()) throw malformed(line);
      out = { counted: rows, line };
    } else {
      if (mode === 'prefix' && head > 0) joiner.add(DATA_PREFIX.subarray(0, head), line);
      if (!joiner.empty) out = parseLine(joiner.take(), line);
    }
    head = 0;
    mode = 'fresh';
    line++;
    return out;
  };
  for await (const { bytes, eol } of linePieces(body)) {
    if (mode === 'fresh') {
      if (!counting) counting = opts.counting();
      mode = counting ? 'prefix' : 'keep';
    }
    let i = 0;
    const end = bytes.length;
    if (mode === 'prefix') {
      while (i < end && head < DATA_PREFIX.length && bytes[i] === DATA_PREFIX[head]) {
        i++;
        head++;
      }
      if (head === DATA_PREFIX.length) {
        mode = 'count';
        counter.scan(DATA_PREFIX);
      } else if (i < end) {
        mode = 'keep';
        if (head > 0) joiner.add(DATA_PREFIX.subarray(0, head), line);
      }
    }
    if (mode === 'count') counter.scan(bytes, i, end);
    else if (mode === 'keep' && i < end) joiner.add(bytes.subarray(i), line);
    if (eol) {
      const out = finish();
      if (out) yield out;
    }
  }
  if (mode !== 'fresh') {
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
