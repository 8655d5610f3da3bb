// Compiles a /v1/load JSON query to parameterised SQL over the sample tables and shapes the answer
// like the live service (member keys, numbers as strings, time values without "Z", annotation).
import type { SqlValue } from 'sql.js';
import type { DataEngine } from './engine';
import { findMember, findSegment, GRANULARITIES, type Granularity, type MemberDef } from './model';

export class UserError extends Error {}

interface TimeDimension {
  dimension: string;
  granularity?: string;
  dateRange?: string | [string, string];
}

export interface LoadQuery {
  measures?: string[];
  dimensions?: string[];
  segments?: string[];
  timeDimensions?: TimeDimension[];
  filters?: unknown[];
  order?: Record<string, 'asc' | 'desc'> | [string, 'asc' | 'desc'][];
  limit?: number;
  offset?: number;
  total?: boolean;
  ungrouped?: boolean;
  timezone?: string;
  responseFormat?: string;
}

const OPERATORS = new Set([
  'equals',
  'notEquals',
  'contains',
  'notContains',
  'startsWith',
  'notStartsWith',
  'endsWith',
  'notEndsWith',
  'gt',
  'gte',
  'lt',
  'lte',
  'set',
  'notSet',
  'inDateRange',
  'notInDateRange',
  'beforeDate',
  'beforeOrOnDate',
  'afterDate',
  'afterOrOnDate',
  'measureFilter',
]);

const QUERY_KEYS = new Set([
  'measures',
  'dimensions',
  'segments',
  'timeDimensions',
  'filters',
  'order',
  'limit',
  'offset',
  'total',
  'ungrouped',
  'timezone',
  'responseFormat',
  'renewQuery',
]);

function member(name: unknown, where: string): { member: MemberDef; kind: 'measure' | 'dimension' } {
  if (typeof name !== 'string')
    throw new UserError(`${where}: member names are strings like "orders.count".`);
  const found = findMember(name);
  if (!found)
    throw new UserError(`${where}: '${name}' not found. Members look like "orders.count"; see /v1/meta.`);
  return found;
}

function aggregate(x: MemberDef): string {
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

const pad = (n: number) => String(n).padStart(2, '0');
const day = (d: Date) => `${d.getUTCFullYear()}-${pad(d.getUTCMonth() + 1)}-${pad(d.getUTCDate())}`;
const addDays = (d: Date, n: number) => new Date(d.getTime() + n * 86_400_000);

/** A dateRange (pair or relative string) as [from, to] inclusive timestamps. */
export function dateRange(range: string | [string, string], today: Date): [string, string] {
  if (Array.isArray(range)) {
    if (range.length !== 2 || range.some((x) => typeof x !== 'string' || Number.isNaN(Date.parse(x)))) {
      throw new UserError(
        'dateRange must be two dates like ["2025-01-01", "2025-03-31"] or a relative string like "last quarter".',
      );
    }
    const [a, b] = range;
    return [
      a.length === 10 ? `${a}T00:00:00.000` : a.replace('Z', ''),
      b.length === 10 ? `${b}T23:59:59.999` : b.replace('Z', ''),
    ];
  }
  const s = range.trim().toLowerCase();
  const y = today.getUTCFullYear();
  const mo = today.getUTCMonth();
  const span = (from: Date, toExclusive: Date): [string, string] => [
    `${day(from)}T00:00:00.000`,
    `${day(addDays(toExclusive, -1))}T23:59:59.999`,
  ];
  const monthStart = (yy: number, mm: number) => new Date(Date.UTC(yy, mm, 1));
  const qStart = Math.floor(mo / 3) * 3;
  const weekStart = addDays(today, -((today.getUTCDay() + 6) % 7));
  const relative = /^(last|next) (\d+) (day|week|month|year)s?$/.exec(s);
  if (relative) {
    const n = Number(relative[2]);
    const unit = relative[3];
    if (relative[1] === 'last') {
      const from =
        unit === 'day'
          ? addDays(today, -n)
          : unit === 'week'
            ? addDays(today, -7 * n)
            : unit === 'month'
              ? monthStart(y, mo - n)
              : new Date(Date.UTC(y - n, mo, today.getUTCDate()));
      return span(from, today);
    }
  }
  switch (s) {
    case 'today':
      return span(today, addDays(today, 1));
    case 'yesterday':
      return span(addDays(today, -1), today);
    case 'this week':
      return span(weekStart, addDays(weekStart, 7));
    case 'last week':
      return span(addDays(weekStart, -7), weekStart);
    case 'this month':
      return span(monthStart(y, mo), monthStart(y, mo + 1));
    case 'last month':
      return span(monthStart(y, mo - 1), monthStart(y, mo));
    case 'this quarter':
      return span(monthStart(y, qStart), monthStart(y, qStart + 3));
    case 'last quarter':
      return span(monthStart(y, qStart - 3), monthStart(y, qStart));
    case 'this year':
      return span(monthStart(y, 0), monthStart(y + 1, 0));
    case 'last year':
      return span(monthStart(y - 1, 0), monthStart(y, 0));
    default:
      throw new UserError(
        `Can't parse date range '${range}'. Use a pair of dates, or e.g. "last quarter", "this year", "last 30 days".`,
      );
  }
}

/** SQLite expression truncating an ISO timestamp column to a granularity, formatted like the live service. */
export function truncate(sql: string, g: Granularity): string {
  switch (g) {
    case 'second':
      return `strftime('%Y-%m-%dT%H:%M:%S.000', ${sql})`;
    case 'minute':
      return `strftime('%Y-%m-%dT%H:%M:00.000', ${sql})`;
    case 'hour':
      return `strftime('%Y-%m-%dT%H:00:00.000', ${sql})`;
    case 'day':
      return `strftime('%Y-%m-%dT00:00:00.000', ${sql})`;
    case 'week':
      return `strftime('%Y-%m-%dT00:00:00.000', ${sql}, '-' || ((CAST(strftime('%w', ${sql}) AS INTEGER) + 6) % 7) || ' days')`;
    case 'month':
      return `strftime('%Y-%m-01T00:00:00.000', ${sql})`;
    case 'quarter':
      return `printf('%s-%02d-01T00:00:00.000', strftime('%Y', ${sql}), ((CAST(strftime('%m', ${sql}) AS INTEGER) - 1) / 3) * 3 + 1)`;
    case 'year':
      return `strftime('%Y-01-01T00:00:00.000', ${sql})`;
  }
}

interface Compiled {
  sql: string;
  params: SqlValue[];
  countSql?: string;
  columns: {
    key: string;
    member: MemberDef;
    kind: 'measure' | 'dimension' | 'time';
    granularity?: Granularity;
  }[];
  slow: boolean;
}

export function compileLoad(q: LoadQuery, engine: DataEngine): Compiled {
  if (!q || typeof q !== 'object') throw new UserError('query must be an object.');
  for (const k of Object.keys(q)) if (!QUERY_KEYS.has(k)) throw new UserError(`Unknown query field '${k}'.`);
  const params: SqlValue[] = [];
  const select: string[] = [];
  const groupBy: string[] = [];
  const where: string[] = [];
  const having: string[] = [];
  const columns: Compiled['columns'] = [];
  const cubes = new Set<string>();
  let slow = false;
  const ungrouped = q.ungrouped === true;

  for (const name of q.dimensions ?? []) {
    const { member: x, kind } = member(name, 'dimensions');
    if (kind !== 'dimension') throw new UserError(`dimensions: '${name}' is a measure; put it in measures.`);
    cubes.add(x.cube);
    select.push(`${x.sql} AS "${name}"`);
    groupBy.push(`"${name}"`);
    columns.push({ key: name, member: x, kind: 'dimension' });
  }
  for (const td of q.timeDimensions ?? []) {
    const { member: x } = member(td?.dimension, 'timeDimensions');
    if (x.type !== 'time') throw new UserError(`timeDimensions: '${td.dimension}' is not a time dimension.`);
    cubes.add(x.cube);
    if (td.granularity !== undefined) {
      if (!(GRANULARITIES as readonly string[]).includes(td.granularity)) {
        throw new UserError(
          `timeDimensions: granularity '${td.granularity}' is not one of ${GRANULARITIES.join(', ')}.`,
        );
      }
      const g = td.granularity as Granularity;
      const key = `${td.dimension}.${g}`;
      select.push(`${truncate(x.sql, g)} AS "${key}"`);
      groupBy.push(`"${key}"`);
      columns.push({ key, member: x, kind: 'time', granularity: g });
    }
    if (td.dateRange !== undefined) {
      const [from, to] = dateRange(td.dateRange, engine.today);
      where.push(`${x.sql} >= ? AND ${x.sql} <= ?`);
      params.push(from, to);
    }
  }
  for (const name of q.measures ?? []) {
    const { member: x, kind } = member(name, 'measures');
    if (kind !== 'measure') throw new UserError(`measures: '${name}' is a dimension; put it in dimensions.`);
    cubes.add(x.cube);
    slow ||= x.slow === true;
    select.push(`${ungrouped ? (x.sql === '*' ? '1' : x.sql) : aggregate(x)} AS "${name}"`);
    columns.push({ key: name, member: x, kind: 'measure' });
  }
  if (select.length === 0)
    throw new UserError(
      'Query should contain either measures, dimensions or timeDimensions with granularities.',
    );
  for (const s of q.segments ?? []) {
    const seg = typeof s === 'string' ? findSegment(s) : undefined;
    if (!seg) throw new UserError(`segments: '${String(s)}' not found.`);
    cubes.add(seg.cube);
    where.push(seg.sql);
  }
  const filterParams: SqlValue[] = [];
  const havingParams: SqlValue[] = [];
  for (const f of q.filters ?? []) {
    const compiled = compileFilter(f, engine, cubes);
    if (compiled.measure) {
      having.push(compiled.sql);
      havingParams.push(...compiled.params);
    } else {
      where.push(compiled.sql);
      filterParams.push(...compiled.params);
    }
  }

  const onlyOne = cubes.size === 1 ? [...cubes][0] : undefined;
  const from =
    onlyOne === 'customers'
      ? 't_customers c'
      : onlyOne === 'products'
        ? 't_products p'
        : 't_orders o LEFT JOIN t_customers c ON c.id = o.customer_id LEFT JOIN t_products p ON p.id = o.product_id';

  let sql = `SELECT ${select.join(', ')} FROM ${from}`;
  if (where.length) sql += ` WHERE ${where.map((w) => `(${w})`).join(' AND ')}`;
  if (!ungrouped && groupBy.length && columns.some((c) => c.kind === 'measure'))
    sql += ` GROUP BY ${groupBy.join(', ')}`;
  else if (!ungrouped && groupBy.length) sql += ` GROUP BY ${groupBy.join(', ')}`;
  if (having.length) sql += ` HAVING ${having.map((h) => `(${h})`).join(' AND ')}`;
  const allParams = [...params, ...filterParams, ...havingParams];
  const inner = sql;

  const order = normalizeOrder(q.order);
  const keys = new Set(columns.map((c) => c.key));
  const orderBy = order.map(([k, dir]) => {
    const key = keys.has(k) ? k : columns.find((c) => c.kind === 'time' && c.key.startsWith(`${k}.`))?.key;
    if (!key) throw new UserError(`order: '${k}' is not in the query; order by a member you select.`);
    if (dir !== 'asc' && dir !== 'desc')
      throw new UserError(`order: direction for '${k}' must be "asc" or "desc".`);
    return `"${key}" ${dir.toUpperCase()}`;
  });
  if (orderBy.length === 0) {
    const time = columns.find((c) => c.kind === 'time');
    const firstMeasure = columns.find((c) => c.kind === 'measure');
    if (time) orderBy.push(`"${time.key}" ASC`);
    else if (firstMeasure) orderBy.push(`"${firstMeasure.key}" DESC`);
  }
  if (orderBy.length) sql += ` ORDER BY ${orderBy.join(', ')}`;
  const limit = q.limit ?? 10_000;
  if (!Number.isInteger(limit) || limit < 0 || limit > 50_000)
    throw new UserError('limit must be an integer from 0 to 50000.');
  const offset = q.offset ?? 0;
  if (!Number.isInteger(offset) || offset < 0) throw new UserError('offset must be a non-negative integer.');
  sql += ` LIMIT ${limit} OFFSET ${offset}`;
  return {
    sql,
    params: allParams,
    countSql: q.total ? `SELECT COUNT(*) FROM (${inner})` : undefined,
    columns,
    slow,
  };
}

function normalizeOrder(order: LoadQuery['order']): [string, string][] {
  if (!order) return [];
  if (Array.isArray(order)) {
    return order.map((p) => {
      if (!Array.isArray(p) || p.length !== 2)
        throw new UserError('order: use pairs like ["orders.count", "desc"].');
      return [String(p[0]), String(p[1])];
    });
  }
  if (typeof order === 'object') return Object.entries(order).map(([k, v]) => [k, String(v)]);
  throw new UserError('order must be an object or an array of pairs.');
}

function compileFilter(
  f: unknown,
  engine: DataEngine,
  cubes: Set<string>,
): { sql: string; params: SqlValue[]; measure: boolean } {
  if (!f || typeof f !== 'object') throw new UserError('filters: each filter is an object.');
  const obj = f as Record<string, unknown>;
  for (const logical of ['or', 'and'] as const) {
    if (Array.isArray(obj[logical])) {
      const parts = (obj[logical] as unknown[]).map((x) => compileFilter(x, engine, cubes));
      if (parts.length === 0) throw new UserError(`filters: "${logical}" needs at least one filter.`);
      const measure = parts.some((p) => p.measure);
      if (measure && !parts.every((p) => p.measure))
        throw new UserError('filters: do not mix measure and dimension filters in one "or"/"and".');
      return {
        sql: parts.map((p) => `(${p.sql})`).join(logical === 'or' ? ' OR ' : ' AND '),
        params: parts.flatMap((p) => p.params),
        measure,
      };
    }
  }
  const name = obj.member ?? obj.dimension;
  const { member: x, kind } = member(name, 'filters');
  cubes.add(x.cube);
  const op = obj.operator;
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
      const range: [string, string] =
        vals.length === 1
          ? dateRange(vals[0]!, engine.today)
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

/** Runs a compiled query and shapes the live service's `results[0]`. */
export function runLoad(q: LoadQuery, compiled: Compiled, engine: DataEngine): Record<string, unknown> {
  const { rows } = engine.all(compiled.sql, compiled.params);
  const data = rows.map((row) => {
    const out: Record<string, unknown> = {};
    compiled.columns.forEach((c, i) => {
      const v = row[i];
      const value =
        v === null || v === undefined
          ? null
          : typeof v === 'number'
            ? String(Number.isInteger(v) ? v : Math.round(v * 100) / 100)
            : String(v);
      out[c.key] = value;
      if (c.kind === 'time') out[c.member.cube + '.' + c.member.name] = value;
    });
    return out;
  });
  const annotation = {
    measures: {} as Record<string, unknown>,
    dimensions: {} as Record<string, unknown>,
    segments: {},
    timeDimensions: {} as Record<string, unknown>,
  };
  for (const c of compiled.columns) {
    const a = {
      title: c.member.title,
      shortTitle: c.member.shortTitle,
      type: c.member.type,
      ...(c.member.format ? { format: c.member.format } : {}),
    };
    if (c.kind === 'measure') annotation.measures[c.key] = a;
    else if (c.kind === 'dimension') annotation.dimensions[c.key] = a;
    else {
      annotation.timeDimensions[c.key] = {
        ...a,
        title: `${c.member.title} ${c.granularity}`,
        granularity: { name: c.granularity, title: c.granularity },
      };
      annotation.timeDimensions[`${c.member.cube}.${c.member.name}`] = a;
    }
  }
  const total = compiled.countSql
    ? Number(engine.all(compiled.countSql, compiled.params).rows[0]?.[0] ?? 0)
    : null;
  return {
    query: { ...q, timezone: q.timezone ?? 'UTC' },
    data,
    annotation,
    lastRefreshTime: new Date().toISOString(),
    dataSource: 'default',
    dbType: 'sqlite',
    external: false,
    slowQuery: compiled.slow,
    total,
  };
}
