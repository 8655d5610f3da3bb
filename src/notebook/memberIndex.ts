// Cube and member names from /v1/meta (DataClient.meta is cached per deployment), shared by
// completions, hover and diagnostics.
import { LOAD_FILTER_OPERATORS, type Meta } from '../api/schemas/data';

export interface MemberInfo {
  name: string;
  cube: string;
  kind: 'measure' | 'dimension' | 'segment';
  type?: string;
  title?: string;
  description?: string;
}

export class MemberIndex {
  readonly cubes = new Map<string, { title?: string; description?: string }>();
  readonly members = new Map<string, MemberInfo>();
  constructor(meta: Meta) {
    for (const c of meta.cubes) {
      this.cubes.set(c.name, { title: c.title, description: c.description });
      for (const m of c.measures)
        this.members.set(m.name, {
          name: m.name,
          cube: c.name,
          kind: 'measure',
          type: m.type,
          title: m.title,
          description: m.description,
        });
      for (const m of c.dimensions)
        this.members.set(m.name, {
          name: m.name,
          cube: c.name,
          kind: 'dimension',
          type: m.type,
          title: m.title,
          description: m.description,
        });
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
  const at = (s: string, from = 0) => {
    const i = text.indexOf(JSON.stringify(s), from);
    return i < 0 ? { start: 0, end: 1 } : { start: i, end: i + JSON.stringify(s).length };
  };
  const member = (name: unknown, where: string, allowed?: MemberInfo['kind'][]) => {
    if (typeof name !== 'string') return;
    const m = index.members.get(name);
    if (!m) problems.push({ ...at(name), message: `Unknown member "${name}" in ${where}.` });
    else if (allowed && !allowed.includes(m.kind))
      problems.push({ ...at(name), message: `"${name}" is a ${m.kind}, not allowed in ${where}.` });
  };
  const o = q as Record<string, unknown>;
  for (const n of arr(o.measures)) member(n, 'measures', ['measure']);
  for (const n of arr(o.dimensions)) member(n, 'dimensions', ['dimension']);
  for (const n of arr(o.segments)) member(n, 'segments', ['segment']);
  for (const t of arr(o.timeDimensions))
    if (t && typeof t === 'object')
      member((t as Record<string, unknown>).dimension, 'timeDimensions', ['dimension']);
  const filters = (fs: unknown[]) => {
    for (const f of fs) {
      if (!f || typeof f !== 'object') continue;
      const r = f as Record<string, unknown>;
      if (Array.isArray(r.and)) filters(r.and);
      if (Array.isArray(r.or)) filters(r.or);
      member(r.member ?? r.dimension, 'filters');
      if (typeof r.operator === 'string' && !FILTER_OPERATORS.includes(r.operator)) {
        problems.push({
          ...at(r.operator),
          message: `Unknown filter operator "${r.operator}". Use one of: ${FILTER_OPERATORS.join(', ')}.`,
        });
      }
    }
  };
  filters(arr(o.filters));
  if (o.order && typeof o.order === 'object') {
    const keys = Array.isArray(o.order)
      ? o.order.map((p) => (Array.isArray(p) ? p[0] : undefined))
      : Object.keys(o.order);
    for (const k of keys) member(k, 'order');
  }
  return problems;
}

function arr(v: unknown): unknown[] {
  return Array.isArray(v) ? v : [];
}
