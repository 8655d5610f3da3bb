// Cube and member names from /v1/meta (DataClient.meta is cached per deployment), shared by
// completions, hover and diagnostics.
import { LOAD_FILTER_OPERATORS, numberFormatOf, type Meta, type NumberFormat } from '../api/schemas/data';
import { locate } from '../shared/jsonLocate';

export interface MemberInfo {
  name: string;
  cube: string;
  kind: 'measure' | 'dimension' | 'segment';
  type?: string;
  title?: string;
  description?: string;
  /** How its numbers are written (formatDescription / format of /v1/meta). */
  format?: NumberFormat;
}

/** Edit distance of two strings (insertions, deletions, substitutions). */
function distance(a: string, b: string): number {
  let prev = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    const cur = [i];
    for (let j = 1; j <= b.length; j++)
      cur[j] = Math.min(prev[j]! + 1, cur[j - 1]! + 1, prev[j - 1]! + (a[i - 1] === b[j - 1] ? 0 : 1));
    prev = cur;
  }
  return prev[b.length]!;
}

/**
 * The member a mistyped name most likely meant, among the kinds allowed where it was typed: the
 * closest by edit distance (case ignored), if it is close enough to be a typo.
 */
export function suggestMember(
  name: string,
  index: MemberIndex,
  kinds?: readonly MemberInfo['kind'][],
): string | undefined {
  const typed = name.toLowerCase();
  let best: { name: string; d: number } | undefined;
  for (const m of index.members.values()) {
    if (kinds && !kinds.includes(m.kind)) continue;
    const d = distance(typed, m.name.toLowerCase());
    if (!best || d < best.d) best = { name: m.name, d };
  }
  const member = typed.split('.').pop() ?? typed;
  return best && best.d <= Math.max(2, Math.floor(member.length / 3)) ? best.name : undefined;
}

/** "Unknown member "orders.statuss" in dimensions. Did you mean "orders.status"?" */
export function unknownMemberMessage(
  name: string,
  where: string,
  index: MemberIndex,
  kinds?: readonly MemberInfo['kind'][],
): string {
  const hint = suggestMember(name, index, kinds);
  if (hint) return `Unknown member "${name}" in ${where}. Did you mean "${hint}"?`;
  const cube = name.split('.')[0]!;
  if (index.cubes.has(cube))
    return `Unknown member "${name}" in ${where}: cube "${cube}" has no such member (members the model hides, such as primary keys, cannot be queried).`;
  return `Unknown member "${name}" in ${where}: there is no cube "${cube}". Cubes: ${[...index.cubes.keys()].join(', ')}.`;
}

export class MemberIndex {
  readonly cubes = new Map<string, { title?: string; description?: string }>();
  readonly members = new Map<string, MemberInfo>();
  constructor(meta: Meta) {
    for (const c of meta.cubes) {
      this.cubes.set(c.name, { title: c.title, description: c.description });
      const typed = [
        ['measure', c.measures],
        ['dimension', c.dimensions],
      ] as const;
      for (const [kind, members] of typed)
        for (const m of members)
          this.members.set(m.name, {
            name: m.name,
            cube: c.name,
            kind,
            type: m.type,
            title: m.title,
            description: m.description,
            format: numberFormatOf(m),
          });
      // Segments have no type or number format.
      for (const m of c.segments ?? [])
        this.members.set(m.name, {
          name: m.name,
          cube: c.name,
          kind: 'segment',
          title: m.title,
          description: m.description,
        });
    }
  }
}

export const FILTER_OPERATORS: readonly string[] = LOAD_FILTER_OPERATORS;

/** The load-query key that a JSON position sits under, from the text before it (approximate). */
export function jsonMemberContext(
  before: string,
): 'measures' | 'dimensions' | 'timeDimensions' | 'filters' | 'order' | 'segments' | undefined {
  const re = /"(measures|dimensions|timeDimensions|filters|order|segments)"\s*:/g;
  let last: RegExpExecArray | null = null;
  for (let m = re.exec(before); m; m = re.exec(before)) last = m;
  if (!last) return undefined;
  return last[1] as ReturnType<typeof jsonMemberContext>;
}

export interface Problem {
  start: number;
  end: number;
  message: string;
}

/** Unknown members and bad operators in a JSON load query, with text offsets. */
export function checkLoadQuery(text: string, index: MemberIndex): Problem[] {
  const problems: Problem[] = [];
  let q: unknown;
  try {
    q = JSON.parse(text);
  } catch {
    return problems; // the JSON language service reports syntax errors
  }
  if (!q || typeof q !== 'object') return problems;
  type Path = (string | number)[];
  // The exact value a problem is about (the path JSON.parse read it from).
  const at = (path: Path) => {
    const span = locate(text, path, { last: true });
    return span ? { start: span.offset, end: span.offset + span.length } : { start: 0, end: 1 };
  };
  const member = (name: unknown, where: string, path: Path, allowed?: MemberInfo['kind'][]) => {
    if (typeof name !== 'string') return;
    // "cube.time_dimension.granularity" in dimensions is the short form of a time dimension.
    const parts = name.split('.');
    if (parts.length === 3 && index.members.get(`${parts[0]}.${parts[1]}`)?.type === 'time') return;
    const m = index.members.get(name);
    if (!m) problems.push({ ...at(path), message: unknownMemberMessage(name, where, index, allowed) });
    else if (allowed && !allowed.includes(m.kind))
      problems.push({
        ...at(path),
        message: `"${name}" is a ${m.kind}, not allowed in ${where}${m.kind === 'measure' ? ': put it in measures' : m.kind === 'dimension' ? ': put it in dimensions' : ''}.`,
      });
  };
  const o = q as Record<string, unknown>;
  arr(o.measures).forEach((n, i) => member(n, 'measures', ['measures', i], ['measure']));
  arr(o.dimensions).forEach((n, i) => member(n, 'dimensions', ['dimensions', i], ['dimension']));
  arr(o.segments).forEach((n, i) => member(n, 'segments', ['segments', i], ['segment']));
  arr(o.timeDimensions).forEach((t, i) => {
    if (t && typeof t === 'object')
      member(
        (t as Record<string, unknown>).dimension,
        'timeDimensions',
        ['timeDimensions', i, 'dimension'],
        ['dimension'],
      );
  });
  const filters = (fs: unknown[], base: Path) => {
    fs.forEach((f, i) => {
      if (!f || typeof f !== 'object') return;
      const r = f as Record<string, unknown>;
      const path = [...base, i];
      if (Array.isArray(r.and)) filters(r.and, [...path, 'and']);
      if (Array.isArray(r.or)) filters(r.or, [...path, 'or']);
      member(
        r.member ?? r.dimension,
        'filters',
        [...path, r.member !== undefined ? 'member' : 'dimension'],
        ['measure', 'dimension'],
      );
      if (typeof r.operator === 'string' && !FILTER_OPERATORS.includes(r.operator)) {
        problems.push({
          ...at([...path, 'operator']),
          message: `Unknown filter operator "${r.operator}". Use one of: ${FILTER_OPERATORS.join(', ')}.`,
        });
      }
    });
  };
  filters(arr(o.filters), ['filters']);
  if (Array.isArray(o.order)) {
    o.order.forEach((p, i) => {
      if (Array.isArray(p)) member(p[0], 'order', ['order', i, 0], ['measure', 'dimension']);
    });
  } else if (o.order && typeof o.order === 'object') {
    for (const k of Object.keys(o.order)) {
      if (index.members.has(k)) continue;
      // The key itself: the last occurrence of its quoted name before its value.
      const value = locate(text, ['order', k], { last: true });
      const quoted = JSON.stringify(k);
      const start = value ? text.lastIndexOf(quoted, value.offset) : -1;
      problems.push({
        ...(start >= 0 ? { start, end: start + quoted.length } : { start: 0, end: 1 }),
        message: unknownMemberMessage(k, 'order', index, ['measure', 'dimension']),
      });
    }
  }
  return problems;
}

function arr(v: unknown): unknown[] {
  return Array.isArray(v) ? v : [];
}

/** What SQL a completion at the end of `before` is for, given the cell's whole text. */
export type SqlCompletionContext =
  { kind: 'cubes' } | { kind: 'columns'; cube: string } | { kind: 'members'; cubes: string[] };

const SQL_WORDS = new Set(
  'where join left right inner outer full cross on group order limit offset having union as select from'.split(
    ' ',
  ),
);

/**
 * After FROM or JOIN: cube names. After `cube.` or `alias.`: that cube's columns. Elsewhere: the
 * members of the cubes the query reads (all cubes' members when it names none yet).
 */
export function sqlCompletionContext(before: string, full: string, index: MemberIndex): SqlCompletionContext {
  const aliases = new Map<string, string>();
  const used: string[] = [];
  for (const m of full.matchAll(/\b(?:from|join)\s+"?(\w+)"?(?:\s+(?:as\s+)?"?(\w+)"?)?/gi)) {
    const cube = m[1]!;
    if (!index.cubes.has(cube)) continue;
    if (!used.includes(cube)) used.push(cube);
    const alias = m[2];
    if (alias && !SQL_WORDS.has(alias.toLowerCase())) aliases.set(alias, cube);
  }
  const dotted = /(\w+)\.\w*$/.exec(before);
  if (dotted) return { kind: 'columns', cube: aliases.get(dotted[1]!) ?? dotted[1]! };
  if (/\b(?:from|join)\s+"?\w*$/i.test(before)) return { kind: 'cubes' };
  return { kind: 'members', cubes: used };
}

/**
 * Where to add `FROM <cube>` when a column of a cube is completed in a query that reads no cube
 * yet (a bare column with no FROM is rejected): before the first WHERE, GROUP BY, HAVING, ORDER
 * BY or LIMIT after the cursor, else at the end of the statement. `offset` is the cursor's.
 */
export function fromClauseInsertion(
  text: string,
  offset: number,
  cube: string,
): { offset: number; text: string } {
  const after = text.slice(offset);
  const clause = /\b(?:where|group\s+by|having|order\s+by|limit)\b/i.exec(after);
  if (clause) return { offset: offset + clause.index, text: `FROM ${cube}\n` };
  const end = text.replace(/[\s;]*$/, '').length;
  return { offset: Math.max(end, offset), text: `\nFROM ${cube}` };
}
