// Members and filters of /v1/load queries: member lookup answered in the engine's words ("'nope'
// not found for path 'orders.nope'"), measure aggregates, and every filter operator of the wire
// format compiled to parameterised SQL. Filters arrive normalised (normalize.ts): `member`, string
// values, relative dates already resolved.
import type { SqlValue } from 'sql.js';
import { LOAD_FILTER_OPERATORS } from '../../api/schemas/data';
import type { DataEngine } from './engine';
import { defaultModel, type MemberDef, type Model } from './model';
import { UserError } from './userError';

export const OPERATORS = new Set<string>(LOAD_FILTER_OPERATORS);
/** The engine's legacy names of operators. */
const ALIASES: Record<string, string> = { in: 'equals', notIn: 'notEquals', onTheDate: 'inDateRange' };

/**
 * A member by path, as the engine's byPath finds it: the cube first, then the member among the
 * kind asked for (a measure named under dimensions is not found, and the error says so).
 */
export function lookup(
  path: string,
  kind: 'measures' | 'dimensions' | 'any',
  model: Model = defaultModel(),
): { member: MemberDef; kind: 'measure' | 'dimension' } {
  const [cube, name] = path.split('.');
  if (!model.cubes.some((c) => c.name === cube))
    throw new UserError(`Cube '${cube}' not found for path '${path}'`);
  const found = model.findMember(`${cube}.${name}`);
  if (
    !found ||
    (kind === 'measures' && found.kind !== 'measure') ||
    (kind === 'dimensions' && found.kind !== 'dimension')
  )
    throw new UserError(`'${name}' not found for path '${path}'`);
  return found;
}

export function aggregate(x: MemberDef): string {
  switch (x.agg) {
    case 'count':
      return x.sql === '*' ? 'COUNT(*)' : `COUNT(${x.sql})`;
    case 'countDistinct':
      return `COUNT(DISTINCT ${x.sql})`;
    case 'sum':
      return `SUM(${x.sql})`;
    case 'avg':
      return `AVG(${x.sql})`;
    case 'max':
      return `MAX(${x.sql})`;
    case 'min':
      return `MIN(${x.sql})`;
    default:
      return x.sql;
  }
}

export function compileFilter(
  f: unknown,
  engine: DataEngine,
  cubes: Set<string>,
  model: Model = defaultModel(),
): { sql: string; params: SqlValue[]; measure: boolean } {
  if (!f || typeof f !== 'object') throw new UserError('filters: each filter is an object.');
  const obj = f as Record<string, unknown>;
  for (const logical of ['or', 'and'] as const) {
    if (Array.isArray(obj[logical])) {
      const parts = (obj[logical] as unknown[]).map((x) => compileFilter(x, engine, cubes, model));
      if (parts.length === 0) return { sql: '1 = 1', params: [], measure: false };
      const measure = parts.some((p) => p.measure);
      if (measure && !parts.every((p) => p.measure))
        throw new UserError("You can not mix measures and dimensions in one 'or'/'and' filter group");
      return {
        sql: parts.map((p) => `(${p.sql})`).join(logical === 'or' ? ' OR ' : ' AND '),
        params: parts.flatMap((p) => p.params),
        measure,
      };
    }
  }
  const name = String(obj.member ?? obj.dimension);
  const { member: x, kind } = lookup(name, 'any', model);
  cubes.add(x.cube);
  const op = ALIASES[String(obj.operator)] ?? obj.operator;
  if (typeof op !== 'string' || !OPERATORS.has(op)) {
    throw new UserError(
      `filters: operator '${String(op)}' is not supported for '${String(name)}'. Use one of ${[...OPERATORS].join(', ')}.`,
    );
  }
  const values = obj.values;
  if (
    values !== undefined &&
    (!Array.isArray(values) ||
      values.some((v) => typeof v !== 'string' && typeof v !== 'number' && v !== null))
  ) {
    throw new UserError(`filters: values of '${String(name)}' must be an array of strings.`);
  }
  const vals = ((values as unknown[]) ?? []).map((v) => (v === null ? null : String(v)));
  const expr = kind === 'measure' ? aggregate(x) : x.sql;
  const measure = kind === 'measure';
  const num = (v: string | null) => (x.type === 'number' ? Number(v) : v);
  const need = (n: number) => {
    if (vals.length < n)
      throw new UserError(
        `filters: operator '${op}' on '${String(name)}' needs ${n === 1 ? 'a value' : `${n} values`}.`,
      );
  };
  const any = (tpl: (p: string) => string, transform: (v: string | null) => SqlValue = num) => {
    need(1);
    return { sql: vals.map(() => tpl('?')).join(' OR '), params: vals.map(transform), measure };
  };
  const like = (pattern: (v: string) => string, negate: boolean) => {
    need(1);
    const parts = vals.map(() => `${expr} ${negate ? 'NOT LIKE' : 'LIKE'} ? ESCAPE '\\'`);
    const esc = (v: string | null) => pattern(String(v).replace(/[\\%_]/g, (c) => `\\${c}`));
    return { sql: parts.join(negate ? ' AND ' : ' OR '), params: vals.map(esc), measure };
  };
  const date = (v: string | null, end: boolean) => {
    if (v === null || Number.isNaN(Date.parse(v)))
      throw new UserError(`filters: '${String(v)}' is not a date.`);
    return v.length === 10 ? `${v}T${end ? '23:59:59.999' : '00:00:00.000'}` : v.replace('Z', '');
  };
  switch (op) {
    case 'equals':
      return any((p) => `${expr} = ${p}`);
    case 'notEquals':
      need(1);
      return {
        sql: `(${expr} IS NULL OR ${expr} NOT IN (${vals.map(() => '?').join(', ')}))`,
        params: vals.map(num),
        measure,
      };
    case 'contains':
      return like((v) => `%${v}%`, false);
    case 'notContains':
      return like((v) => `%${v}%`, true);
    case 'startsWith':
      return like((v) => `${v}%`, false);
    case 'notStartsWith':
      return like((v) => `${v}%`, true);
    case 'endsWith':
      return like((v) => `%${v}`, false);
    case 'notEndsWith':
      return like((v) => `%${v}`, true);
    case 'gt':
      return any(
        (p) => `${expr} > ${p}`,
        (v) => Number(v),
      );
    case 'gte':
      return any(
        (p) => `${expr} >= ${p}`,
        (v) => Number(v),
      );
    case 'lt':
      return any(
        (p) => `${expr} < ${p}`,
        (v) => Number(v),
      );
    case 'lte':
      return any(
        (p) => `${expr} <= ${p}`,
        (v) => Number(v),
      );
    case 'measureFilter':
      if (!measure)
        throw new UserError(`filters: measureFilter needs a measure, '${String(name)}' is a dimension.`);
      return { sql: `${expr} IS NOT NULL`, params: [], measure };
    case 'set':
      return { sql: `${expr} IS NOT NULL`, params: [], measure };
    case 'notSet':
      return { sql: `${expr} IS NULL`, params: [], measure };
    case 'inDateRange':
    case 'notInDateRange': {
      if (x.type !== 'time')
        throw new UserError(`filters: ${op} needs a time dimension, '${String(name)}' is ${x.type}.`);
      // A single date is that day (relative values were resolved to a pair when normalised).
      const range: [string, string] =
        vals.length === 1
          ? [date(vals[0]!, false), date(vals[0]!, true)]
          : (need(2), [date(vals[0]!, false), date(vals[1]!, true)]);
      return {
        sql: `${op === 'notInDateRange' ? 'NOT ' : ''}(${expr} >= ? AND ${expr} <= ?)`,
        params: range,
        measure,
      };
    }
    case 'beforeDate':
      need(1);
      return { sql: `${expr} < ?`, params: [date(vals[0]!, false)], measure };
    case 'beforeOrOnDate':
      need(1);
      return { sql: `${expr} <= ?`, params: [date(vals[0]!, true)], measure };
    case 'afterDate':
      need(1);
      return { sql: `${expr} > ?`, params: [date(vals[0]!, true)], measure };
    case 'afterOrOnDate':
      need(1);
      return { sql: `${expr} >= ?`, params: [date(vals[0]!, false)], measure };
  }
  throw new UserError(`filters: operator '${op}' is not supported.`);
}
