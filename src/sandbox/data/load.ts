// Compiles a /v1/load JSON query to parameterised SQL over the sample tables and shapes the answer
// like the live service (member keys, numbers as strings, time values without "Z", annotation).
import type { SqlValue } from 'sql.js';
import { dateRange, truncate } from './dates';
import type { DataEngine } from './engine';
import { aggregate, compileFilter, member } from './filters';
import { defaultModel, GRANULARITIES, type Granularity, type MemberDef, type Model } from './model';
import { UserError } from './userError';

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

export function compileLoad(q: LoadQuery, engine: DataEngine, model: Model = defaultModel()): Compiled {
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
    const { member: x, kind } = member(name, 'dimensions', model);
    if (kind !== 'dimension') throw new UserError(`dimensions: '${name}' is a measure; put it in measures.`);
    cubes.add(x.cube);
    select.push(`${x.sql} AS "${name}"`);
    groupBy.push(`"${name}"`);
    columns.push({ key: name, member: x, kind: 'dimension' });
  }
  for (const td of q.timeDimensions ?? []) {
    const { member: x } = member(td?.dimension, 'timeDimensions', model);
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
    const { member: x, kind } = member(name, 'measures', model);
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
    const seg = typeof s === 'string' ? model.findSegment(s) : undefined;
    if (!seg) throw new UserError(`segments: '${String(s)}' not found.`);
    cubes.add(seg.cube);
    where.push(seg.sql);
  }
  const filterParams: SqlValue[] = [];
  const havingParams: SqlValue[] = [];
  for (const f of q.filters ?? []) {
    const compiled = compileFilter(f, engine, cubes, model);
    if (compiled.measure) {
      having.push(compiled.sql);
      havingParams.push(...compiled.params);
    } else {
      where.push(compiled.sql);
      filterParams.push(...compiled.params);
    }
  }

  const joinProblem = model.joinProblem(cubes);
  if (joinProblem) throw new UserError(joinProblem);
  const from = fromClause(new Set([...cubes].map((c) => model.tableOf(c))));

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

/**
 * Only the (sample) tables the query uses. Customers and products relate through orders, and each joins on
 * its primary key, so leaving out a table nobody selects or filters on changes no result.
 */
export function fromClause(cubes: ReadonlySet<string>): string {
  const only = cubes.size === 1 ? [...cubes][0] : undefined;
  if (only === 'customers') return 't_customers c';
  if (only === 'products') return 't_products p';
  let from = 't_orders o';
  if (cubes.has('customers')) from += ' LEFT JOIN t_customers c ON c.id = o.customer_id';
  if (cubes.has('products')) from += ' LEFT JOIN t_products p ON p.id = o.product_id';
  return from;
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
