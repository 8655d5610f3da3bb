// A minimal valid value of a zod 4 schema, made by walking its definition (`_zod.def`): what the
// fault matrix sends as the body or required query of an operation row it knows nothing else
// about. Each value is checked against the schema it was made for; candidates are tried in order
// (the live value of a field named like a known id first, then plain ones), so a field the walk
// cannot satisfy yields nothing rather than a value the client would refuse before sending.
import { randomUUID } from 'node:crypto';
import type { z } from 'zod';

interface Def {
  type: string;
  [key: string]: unknown;
}
interface CheckDef {
  check: string;
  [key: string]: unknown;
}

const defOf = (s: z.ZodType): Def => (s as unknown as { _zod: { def: Def } })._zod.def;
const checksOf = (d: Def): CheckDef[] =>
  ((d.checks as { _zod: { def: CheckDef } }[] | undefined) ?? []).map((c) => c._zod.def);
const accepts = (s: z.ZodType, v: unknown) => s.safeParse(v).success;

export interface SynthContext {
  /** Live values by field name (`workbookId` → a seeded workbook): preferred where the schema takes them. */
  live: Readonly<Record<string, unknown>>;
  /** A fresh number per call, so names made for two calls never collide (a create repeated per cell). */
  fresh(): number;
  /**
   * Every optional field given where the schema takes it, and one item in a list that may be
   * empty: the fullest input, so each field a row can send is sent (and judged) at least once.
   */
  fullest?: boolean;
}

/** A value `schema` accepts, or `undefined` when the walk finds none. */
export function synthesize(schema: z.ZodType, ctx: SynthContext): { value: unknown } | undefined {
  for (const v of candidates(schema, '', ctx, 0)) if (accepts(schema, v)) return { value: v };
  return undefined;
}

/** Values to try for `schema` (the field `key` of an object), most plausible first. */
function candidates(schema: z.ZodType, key: string, ctx: SynthContext, depth: number): unknown[] {
  if (depth > 8) return [];
  const d = defOf(schema);
  const live = key in ctx.live ? [ctx.live[key]] : [];
  switch (d.type) {
    case 'object':
      return objects(d.shape as Record<string, z.ZodType>, ctx, depth);
    case 'string':
      // A live id where the document takes it as text ("userId": "42").
      return [...live, ...live.filter((v) => typeof v === 'number').map(String), ...strings(d, key, ctx)];
    case 'number':
    case 'int':
      return [...live, ...numbers(d)];
    case 'boolean':
      // True first: a flag set on a shared item (a user's `active`) keeps it usable by other rows.
      return [true, false];
    case 'enum':
      return Object.values(d.entries as Record<string, unknown>);
    case 'literal':
      return [...(d.values as unknown[])];
    case 'null':
      return [null];
    case 'array': {
      const element = d.element as z.ZodType;
      const min = minLength(d);
      if (min === 0 && !ctx.fullest) return [[]];
      const first = candidates(element, singular(key), ctx, depth + 1).find((v) => accepts(element, v));
      if (min === 0) return first === undefined ? [[]] : [[first], []];
      return first === undefined ? [] : [Array.from({ length: min }, () => first)];
    }
    case 'tuple': {
      const items = (d.items as z.ZodType[]).map((s) =>
        candidates(s, key, ctx, depth + 1).find((v) => accepts(s, v)),
      );
      return items.includes(undefined) ? [] : [items];
    }
    case 'record':
      return [{}];
    case 'optional':
    case 'nullable':
    case 'default':
    case 'prefault':
    case 'catch':
    case 'readonly':
    case 'nonoptional':
      return [
        ...candidates(d.innerType as z.ZodType, key, ctx, depth + 1),
        ...(d.type === 'nullable' ? [null] : []),
      ];
    case 'pipe':
      return candidates(d.in as z.ZodType, key, ctx, depth + 1);
    case 'lazy':
      return candidates((d.getter as () => z.ZodType)(), key, ctx, depth + 1);
    case 'union':
      return (d.options as z.ZodType[]).flatMap((o) => candidates(o, key, ctx, depth + 1));
    case 'intersection': {
      const left = candidates(d.left as z.ZodType, key, ctx, depth + 1);
      const right = candidates(d.right as z.ZodType, key, ctx, depth + 1);
      return left.flatMap((l) => right.map((r) => merge(l, r)));
    }
    default:
      // `custom`, `unknown`, `any` and the rest: the live value, then plain values of each kind.
      return [...live, 1, `matrix-${ctx.fresh()}`, true, {}, []];
  }
}

/**
 * The required fields, then with one optional field, then two, then all (an object refined to need
 * one of several fields, or exactly one of two, takes the first of these its checks accept); the
 * other way round for the fullest input.
 */
function objects(shape: Record<string, z.ZodType>, ctx: SynthContext, depth: number): unknown[] {
  const keys = Object.keys(shape);
  const optional = keys.filter((k) => accepts(shape[k]!, undefined));
  const value = (k: string) =>
    candidates(shape[k]!, k, ctx, depth + 1).find((c) => c !== undefined && accepts(shape[k]!, c));
  const required: Record<string, unknown> = {};
  // A field the live values name is given even where optional (a recipient's userId: a real user).
  for (const k of keys.filter((k) => !optional.includes(k) || k in ctx.live)) {
    const v = value(k);
    if (v === undefined) {
      if (optional.includes(k)) continue;
      return [];
    }
    required[k] = v;
  }
  const sets: string[][] = [[], ...optional.map((k) => [k])];
  if (depth === 0) optional.forEach((a, i) => optional.slice(i + 1).forEach((b) => sets.push([a, b])));
  sets.push(optional);
  // The fullest input tries every optional field first, then fewer (a refinement may refuse all).
  if (ctx.fullest) sets.reverse();
  const out: Record<string, unknown>[] = [];
  for (const set of sets) {
    const o = { ...required };
    for (const k of set) {
      const v = value(k);
      if (v !== undefined) o[k] = v;
    }
    out.push(o);
  }
  return out;
}

function strings(d: Def, key: string, ctx: SynthContext): string[] {
  const n = ctx.fresh();
  const formats: Record<string, string> = {
    email: `matrix${n}@example.com`,
    url: `https://example.com/matrix-${n}`,
    uuid: randomUUID(),
    guid: randomUUID(),
    datetime: new Date().toISOString(),
    date: '2026-01-05',
    time: '09:00:00',
  };
  const format = typeof d.format === 'string' ? d.format : undefined;
  const byFormat = format && formats[format] ? [formats[format]] : [];
  const byCheck = checksOf(d)
    .map((c) => (typeof c.format === 'string' ? formats[c.format] : undefined))
    .filter((v): v is string => v !== undefined);
  const byKey = /email/i.test(key)
    ? [formats.email!]
    : /url$/i.test(key)
      ? [formats.url!]
      : /sql/i.test(key)
        ? ['SELECT 1']
        : /member$/i.test(key)
          ? ['orders.status']
          : [];
  const min = minLength(d);
  // Underscored capitals first: a name of an env variable, folder or branch alike; then forms
  // patterns often ask for: a hex id (an embed session's), a UUID, a word, a digit.
  const hex = randomUUID().replace(/-/g, '');
  const words = [
    `MATRIX_${n}`,
    `matrix-${n}`,
    `matrix${n}`,
    `Matrix ${n}`,
    hex,
    randomUUID(),
    'main',
    'a',
    '1',
  ];
  const plain = words.map((s) => (s.length >= min ? s : s.padEnd(min, 'x')));
  return [...byFormat, ...byCheck, ...byKey, ...plain];
}

function numbers(d: Def): number[] {
  let min: number | undefined;
  let int = d.type === 'int';
  for (const c of checksOf(d)) {
    if (c.check === 'greater_than') min = Number(c.value) + (c.inclusive ? 0 : int ? 1 : 0.5);
    if (c.check === 'number_format' && /int/.test(String(c.format))) int = true;
  }
  return [...(min !== undefined ? [int ? Math.ceil(min) : min] : []), 1, 0, 60, 3600];
}

function minLength(d: Def): number {
  let min = 0;
  for (const c of checksOf(d))
    if (c.check === 'min_length' || c.check === 'length_equals')
      min = Math.max(min, Number(c.minimum ?? c.length));
  return min;
}

const singular = (key: string) => key.replace(/s$/, '');

function merge(a: unknown, b: unknown): unknown {
  return a && b && typeof a === 'object' && typeof b === 'object' ? { ...a, ...b } : b;
}
