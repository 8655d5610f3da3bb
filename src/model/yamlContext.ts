// Where the cursor is in a YAML cube file, without vscode: which cube it is in, and whether a
// cube name or a member of some cube fits there (`{orders.`, `${CUBE}.`, `orders.sta`, a join's
// name, a pre-aggregation's measures and dimensions). Drives completions and hover.

export type YamlContext = { kind: 'cube'; prefix: string } | { kind: 'member'; cube: string; prefix: string };

const indentOf = (line: string) => /^\s*/.exec(line)![0].length;

/** The cube whose definition holds `lineNo`: the last `- name: x` at the cube items' indent. */
export function currentCube(lines: readonly string[], lineNo: number): string | undefined {
  let cubesAt = -1;
  for (let i = lineNo; i >= 0; i--)
    if (/^\s*cubes\s*:\s*$/.test(lines[i]!)) {
      cubesAt = i;
      break;
    }
  if (cubesAt < 0) return undefined;
  let itemIndent: number | undefined;
  let cube: string | undefined;
  for (let i = cubesAt + 1; i <= lineNo && i < lines.length; i++) {
    const m = /^(\s*)-\s*name\s*:\s*["']?([\w]+)["']?\s*$/.exec(lines[i]!);
    if (!m) continue;
    itemIndent ??= m[1]!.length;
    if (m[1]!.length === itemIndent) cube = m[2];
  }
  return cube;
}

/** The nearest enclosing key of `lineNo` (`joins`, `measures`, `pre_aggregations`, …), innermost first. */
export function enclosingKeys(lines: readonly string[], lineNo: number): string[] {
  const keys: string[] = [];
  let limit = indentOf(lines[lineNo] ?? '');
  for (let i = lineNo - 1; i >= 0 && limit > 0; i--) {
    const line = lines[i]!;
    if (!line.trim() || line.trim().startsWith('#')) continue;
    const ind = indentOf(line);
    if (ind >= limit) continue;
    const key = /^\s*(?:-\s*)?([\w]+)\s*:/.exec(line)?.[1];
    if (key) keys.push(key);
    limit = ind;
  }
  return keys;
}

export function yamlContext(
  lines: readonly string[],
  lineNo: number,
  before: string,
): YamlContext | undefined {
  const dotted = /(?:\$?\{)?([A-Za-z_]\w*)\.(\w*)$/.exec(before);
  if (dotted) {
    const cube = dotted[1] === 'CUBE' ? currentCube(lines, lineNo) : dotted[1];
    return cube ? { kind: 'member', cube, prefix: dotted[2]! } : undefined;
  }
  const braced = /\$?\{(\w*)$/.exec(before);
  if (braced) return { kind: 'cube', prefix: braced[1]! };
  const keys = enclosingKeys(lines, lineNo);
  const word = /(\w*)$/.exec(before)![1]!;
  // A join names another cube.
  if (/^\s*-?\s*name\s*:\s*\w*$/.test(before) && keys[0] === 'joins') return { kind: 'cube', prefix: word };
  // A pre-aggregation lists members of its cube (bare or `CUBE.x`).
  if (
    keys.includes('pre_aggregations') &&
    /^(measures|dimensions|time_dimension|segments)$/.test(keys[0] ?? '')
  ) {
    const cube = currentCube(lines, lineNo);
    if (cube && /^\s*-\s*\w*$/.test(before)) return { kind: 'member', cube, prefix: word };
  }
  if (/^\s*time_dimension\s*:\s*\w*$/.test(before) && keys.includes('pre_aggregations')) {
    const cube = currentCube(lines, lineNo);
    return cube ? { kind: 'member', cube, prefix: word } : undefined;
  }
  return undefined;
}

/** The reference under the cursor for hover: `cube.member`, `CUBE.member` or a cube name. */
export function referenceAt(
  lines: readonly string[],
  lineNo: number,
  character: number,
): { cube: string; member?: string } | undefined {
  const line = lines[lineNo] ?? '';
  const re = /[A-Za-z_]\w*(?:\.\w+)?/g;
  for (let m = re.exec(line); m; m = re.exec(line)) {
    if (character < m.index || character > m.index + m[0].length) continue;
    const [a, b] = m[0].split('.') as [string, string | undefined];
    const cube = a === 'CUBE' ? currentCube(lines, lineNo) : a;
    if (!cube) return undefined;
    return b ? { cube, member: b } : { cube };
  }
  return undefined;
}
