// A small line diff (LCS) in unified format, for showing a proposed file change as text.

const CONTEXT = 3;
/** Above this many line pairs the LCS table is too big: the change is shown as one hunk. */
const MAX_CELLS = 4_000_000;

type Op = { kind: ' ' | '-' | '+'; line: string };

function lineOps(a: string[], b: string[]): Op[] {
  // Trim the common head and tail first: proposals usually touch a few lines.
  let head = 0;
  while (head < a.length && head < b.length && a[head] === b[head]) head++;
  let tail = 0;
  while (
    tail < a.length - head &&
    tail < b.length - head &&
    a[a.length - 1 - tail] === b[b.length - 1 - tail]
  )
    tail++;
  const am = a.slice(head, a.length - tail);
  const bm = b.slice(head, b.length - tail);
  const middle: Op[] = [];
  if (am.length * bm.length > MAX_CELLS) {
    middle.push(
      ...am.map((line) => ({ kind: '-' as const, line })),
      ...bm.map((line) => ({ kind: '+' as const, line })),
    );
  } else {
    const n = am.length;
    const m = bm.length;
    const lcs = Array.from({ length: n + 1 }, () => new Uint32Array(m + 1));
    for (let i = n - 1; i >= 0; i--)
      for (let j = m - 1; j >= 0; j--)
        lcs[i]![j] = am[i] === bm[j] ? lcs[i + 1]![j + 1]! + 1 : Math.max(lcs[i + 1]![j]!, lcs[i]![j + 1]!);
    let i = 0;
    let j = 0;
    while (i < n || j < m) {
      if (i < n && j < m && am[i] === bm[j]) {
        middle.push({ kind: ' ', line: am[i]! });
        i++;
        j++;
      } else if (i < n && (j === m || lcs[i + 1]![j]! >= lcs[i]![j + 1]!)) {
        middle.push({ kind: '-', line: am[i++]! });
      } else {
        middle.push({ kind: '+', line: bm[j++]! });
      }
    }
  }
  return [
    ...a.slice(0, head).map((line) => ({ kind: ' ' as const, line })),
    ...middle,
    ...a.slice(a.length - tail).map((line) => ({ kind: ' ' as const, line })),
  ];
}

/** A unified diff of two texts ('' when they are equal). */
export function unifiedDiff(oldText: string, newText: string, name: string): string {
  if (oldText === newText) return '';
  const ops = lineOps(oldText.split('\n'), newText.split('\n'));
  const out = [`--- a/${name}`, `+++ b/${name}`];
  let k = 0;
  let oldLine = 1;
  let newLine = 1;
  const lineNos: { o: number; n: number }[] = ops.map((op) => {
    const at = { o: oldLine, n: newLine };
    if (op.kind !== '+') oldLine++;
    if (op.kind !== '-') newLine++;
    return at;
  });
  while (k < ops.length) {
    if (ops[k]!.kind === ' ') {
      k++;
      continue;
    }
    const start = Math.max(0, k - CONTEXT);
    let end = k;
    // Extend the hunk while the next change is within 2*CONTEXT lines.
    for (;;) {
      while (end < ops.length && ops[end]!.kind !== ' ') end++;
      let gap = end;
      while (gap < ops.length && ops[gap]!.kind === ' ' && gap - end < 2 * CONTEXT) gap++;
      if (gap < ops.length && ops[gap]!.kind !== ' ') end = gap;
      else break;
    }
    const stop = Math.min(ops.length, end + CONTEXT);
    const slice = ops.slice(start, stop);
    const oldCount = slice.filter((o) => o.kind !== '+').length;
    const newCount = slice.filter((o) => o.kind !== '-').length;
    const at = lineNos[start]!;
    out.push(`@@ -${at.o},${oldCount} +${at.n},${newCount} @@`);
    for (const o of slice) out.push(`${o.kind}${o.line}`);
    k = stop;
  }
  return out.join('\n');
}
