// Finds where the value at a JSON path sits in a JSON text, without building a tree: one forward
// scan that skips every subtree off the path (no vscode, no DOM). With duplicate keys it finds the
// first unless asked for the last (the one JSON.parse keeps). The dashboard editor uses it to
// replace a single value in place; the notebook's diagnostics use it to point at the exact value.
export interface Span {
  offset: number;
  length: number;
}

const WS = new Set([0x20, 0x09, 0x0a, 0x0d]);

function ws(text: string, i: number): number {
  while (i < text.length && WS.has(text.charCodeAt(i))) i++;
  return i;
}

/** The index just past the string starting at `i` (a `"`), or -1. */
function skipString(text: string, i: number): number {
  for (;;) {
    const q = text.indexOf('"', i + 1);
    if (q < 0) return -1;
    // The quote ends the string unless an odd number of backslashes escapes it.
    let b = q - 1;
    while (text.charCodeAt(b) === 0x5c) b--;
    if ((q - 1 - b) % 2 === 0) return q + 1;
    i = q;
  }
}

const STRUCTURE = /["[\]{}]/g;

/** The index just past the value starting at `i`, or -1 when the text ends first. */
function skipValue(text: string, i: number): number {
  const c = text.charCodeAt(i);
  if (c === 0x22) return skipString(text, i);
  if (c === 0x7b || c === 0x5b) {
    // Jump from one quote or bracket to the next (a native search), counting depth.
    let depth = 0;
    STRUCTURE.lastIndex = i;
    for (;;) {
      const m = STRUCTURE.exec(text);
      if (!m) return -1;
      const d = text.charCodeAt(m.index);
      if (d === 0x22) {
        const end = skipString(text, m.index);
        if (end < 0) return -1;
        STRUCTURE.lastIndex = end;
      } else if (d === 0x7b || d === 0x5b) depth++;
      else if (--depth === 0) return m.index + 1;
    }
  }
  // number, true, false, null
  while (i < text.length && !WS.has(text.charCodeAt(i)) && !',]}'.includes(text[i]!)) i++;
  return i;
}

/** The span of the value at `path`, or undefined when the path does not exist (or the text is not JSON). */
export function locate(
  text: string,
  path: readonly (string | number)[],
  /** Find the last member of a duplicated key (the one JSON.parse keeps); scans whole objects. */
  opts: { last?: boolean } = {},
): Span | undefined {
  let i = ws(text, 0);
  for (const segment of path) {
    const open = text.charCodeAt(i);
    if (typeof segment === 'number') {
      if (open !== 0x5b) return undefined;
      i = ws(text, i + 1);
      if (text.charCodeAt(i) === 0x5d) return undefined;
      for (let k = 0; k < segment; k++) {
        i = skipValue(text, i);
        if (i < 0) return undefined;
        i = ws(text, i);
        if (text.charCodeAt(i) !== 0x2c) return undefined;
        i = ws(text, i + 1);
      }
      continue;
    }
    if (open !== 0x7b) return undefined;
    i = ws(text, i + 1);
    let match = -1;
    for (;;) {
      if (text.charCodeAt(i) !== 0x22) return undefined;
      const end = skipString(text, i);
      if (end < 0) return undefined;
      const raw = text.slice(i + 1, end - 1);
      const key = raw.includes('\\') ? (JSON.parse(text.slice(i, end)) as string) : raw;
      i = ws(text, end);
      if (text.charCodeAt(i) !== 0x3a) return undefined;
      i = ws(text, i + 1);
      // The first member of that name, unless asked for the last (JSON.parse keeps the last).
      if (key === segment) {
        match = i;
        if (!opts.last) break;
      }
      i = skipValue(text, i);
      if (i < 0) return undefined;
      i = ws(text, i);
      if (text.charCodeAt(i) !== 0x2c) break;
      i = ws(text, i + 1);
    }
    if (match < 0) return undefined;
    i = match;
  }
  const end = skipValue(text, i);
  return end < 0 ? undefined : { offset: i, length: end - i };
}

/**
 * Line and column of offsets in one text: the line starts are found in one pass, then each offset
 * is a binary search, so locating P problems in N characters costs O(N + P log N), not O(N * P).
 * `work` counts the characters and search steps spent (tests check linearity with it).
 */
export class LineIndex {
  private readonly starts: number[] = [0];
  work = 0;

  constructor(private readonly text: string) {
    for (let i = text.indexOf('\n'); i >= 0; i = text.indexOf('\n', i + 1)) this.starts.push(i + 1);
    this.work += text.length;
  }

  /** 0-based line and column of `offset` (clamped to the text). */
  position(offset: number): { line: number; column: number } {
    const at = Math.max(0, Math.min(offset, this.text.length));
    let lo = 0;
    let hi = this.starts.length - 1;
    while (lo < hi) {
      this.work++;
      const mid = (lo + hi + 1) >> 1;
      if (this.starts[mid]! <= at) lo = mid;
      else hi = mid - 1;
    }
    return { line: lo, column: at - this.starts[lo]! };
  }
}

/** How deep a JSON text nests (brackets outside strings), without parsing it and without recursion. */
export function nestingDepth(text: string): number {
  let depth = 0;
  let max = 0;
  STRUCTURE.lastIndex = 0;
  for (;;) {
    const m = STRUCTURE.exec(text);
    if (!m) return max;
    const c = text.charCodeAt(m.index);
    if (c === 0x22) {
      const end = skipString(text, m.index);
      if (end < 0) return max;
      STRUCTURE.lastIndex = end;
    } else if (c === 0x7b || c === 0x5b) {
      if (++depth > max) max = depth;
    } else depth--;
  }
}
