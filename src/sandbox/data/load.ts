// Compiles a normalised /v1/load query (normalize.ts) to parameterised SQL over the sample tables
// (or over a rollup's table, rollups.ts) and shapes each result like the engine: member keys,
// numbers as strings and unrounded, time values without "Z", the engine's annotation, the
// normalised query echoed, and its default order.
import type { SqlValue } from 'sql.js';
import { truncate } from './dates';
import type { DataEngine } from './engine';
import { aggregate, compileFilter, lookup } from './filters';
import {
  defaultModel,
  GRANULARITIES,
  isVisible,
  type Granularity,
  type MemberDef,
  type Model,
} from './model';
import { normalizeQuery, type NormalizedQuery } from './normalize';
import { EngineError, UserError } from './userError';

export interface Column {
  key: string;
  member: MemberDef;
  kind: 'measure' | 'dimension' | 'time';
  granularity?: Granularity;
}

export interface Compiled {
  sql: string;
  params: SqlValue[];
  countSql?: string;
  columns: Column[];
  slow: boolean;
}

/** What a rollup that answers a query adds to its result (rollups.ts). */
export interface RollupUse {
  /** The rollup's table, as the engine names it in `usedPreAggregations`. */
  table: string;
  preAggregationId: string;
  /** Build time, ms since the epoch. */
  lastUpdatedAt: number;
}

const HIDDEN_DOCS = 'https://cube.dev/docs/schema/reference/joins#setting-a-primary-key';

/** A query as sent (benchmarks and tools compile these; routes normalise first). */
export interface LoadQuery {
  measures?: string[];
  dimensions?: string[];
  segments?: string[];
  timeDimensions?: { dimension: string; granularity?: string; dateRange?: string | string[] }[];
  filters?: unknown[];
  order?: Record<string, 'asc' | 'desc'> | [string, 'asc' | 'desc'][];
  limit?: number;
  offset?: number;
  total?: boolean;
  ungrouped?: boolean;
  timezone?: string;
  responseFormat?: 'default' | 'compact' | 'columnar';
}

const isNormalized = (q: LoadQuery | NormalizedQuery): q is NormalizedQuery => 'rowLimit' in q;

export function compileLoad(
  query: LoadQuery | NormalizedQuery,
  engine: DataEngine,
  model: Model = defaultModel(),
  opts: { unlimited?: boolean } = {},
): Compiled {
  const q = isNormalized(query) ? query : normalizeQuery(query, { now: new Date() });
  const params: SqlValue[] = [];
  const select: string[] = [];
  const groupBy: string[] = [];
  const where: string[] = [];
  const having: string[] = [];
  const columns: Column[] = [];
  const cubes = new Set<string>();
  let slow = false;
  const ungrouped = q.ungrouped === true;

  for (const name of q.dimensions) {
    const { member: x } = lookup(name, 'dimensions', model);
    cubes.add(x.cube);
    select.push(`${x.sql} AS "${name}"`);
    groupBy.push(`"${name}"`);
    columns.push({ key: name, member: x, kind: 'dimension' });
  }
  for (const td of q.timeDimensions) {
    const { member: x } = lookup(td.dimension, 'dimensions', model);
    cubes.add(x.cube);
    if (td.granularity !== undefined) {
      if (!(GRANULARITIES as readonly string[]).includes(td.granularity))
        throw new UserError(`Granularity "${td.granularity}" not found in time dimension "${td.dimension}"`);
      if (x.type !== 'time')
        throw new UserError(
          `'${td.dimension}' is not a time dimension: it cannot be grouped by ${td.granularity}`,
        );
      const g = td.granularity as Granularity;
      const key = `${td.dimension}.${g}`;
      select.push(`${truncate(x.sql, g)} AS "${key}"`);
      groupBy.push(`"${key}"`);
      columns.push({ key, member: x, kind: 'time', granularity: g });
    }
    if (td.dateRange !== undefined) {
      where.push(`${x.sql} >= ? AND ${x.sql} <= ?`);
      params.push(td.dateRange[0], td.dateRange[1]);
    }
  }
  for (const name of q.measures ?? []) {
    const { member: x } = lookup(name, 'measures', model);
    cubes.add(x.cube);
    slow ||= x.slow === true;
    select.push(`${ungrouped ? (x.sql === '*' ? '1' : x.sql) : aggregate(x)} AS "${name}"`);
    columns.push({ key: name, member: x, kind: 'measure' });
  }
  for (const s of q.segments ?? []) {
    const [cube, name] = s.split('.');
    if (!model.cubes.some((c) => c.name === cube))
      throw new UserError(`Cube '${cube}' not found for path '${s}'`);
    const seg = model.findSegment(s);
    if (!seg) throw new UserError(`'${name}' not found for path '${s}'`);
    cubes.add(seg.cube);
    where.push(seg.sql);
  }
  const filterParams: SqlValue[] = [];
  const havingParams: SqlValue[] = [];
  for (const f of q.filters) {
    const compiled = compileFilter(f, engine, cubes, model);
    if (compiled.measure) {
      having.push(compiled.sql);
      havingParams.push(...compiled.params);
    } else {
      where.push(compiled.sql);
      filterParams.push(...compiled.params);
    }
  }
  // A member the model hides cannot be in a result: the engine fails the query with a 500.
  const hidden = columns.find((c) => !isVisible(c.member));
  if (hidden)
    throw new EngineError(
      `You requested hidden member: '${hidden.member.cube}__${hidden.member.name}'. Please make it visible using \`shown: true\`. Please note primaryKey fields are \`shown: false\` by default: ${HIDDEN_DOCS}.`,
    );

  if (!model.source) {
    const joinProblem = model.joinProblem(cubes);
    if (joinProblem) throw new UserError(joinProblem);
  }
  const from = model.source ?? fromClause(new Set([...cubes].map((c) => model.tableOf(c))));

  let sql = `SELECT ${select.join(', ')} FROM ${from}`;
  if (where.length) sql += ` WHERE ${where.map((w) => `(${w})`).join(' AND ')}`;
  if (!ungrouped && groupBy.length) sql += ` GROUP BY ${groupBy.join(', ')}`;
  if (having.length) sql += ` HAVING ${having.map((h) => `(${h})`).join(' AND ')}`;
  const allParams = [...params, ...filterParams, ...havingParams];
  const inner = sql;
  if (opts.unlimited) return { sql, params: allParams, columns, slow };

  const orderBy = orderClause(q, columns);
  if (orderBy.length) sql += ` ORDER BY ${orderBy.join(', ')}`;
  sql += ` LIMIT ${q.limit} OFFSET ${q.offset ?? 0}`;
  return {
    sql,
    params: allParams,
    countSql: q.total ? `SELECT COUNT(*) FROM (${inner})` : undefined,
    columns,
    slow,
  };
}

/**
 * The engine's ORDER BY: the query's order (members not in the query are left out; a time
 * dimension orders by its granularity), or by default the first time dimension with a
 * granularity ascending, else the first measure descending, else the first dimension ascending.
 * An empty `order` means no order.
 */
function orderClause(q: NormalizedQuery, columns: Column[]): string[] {
  if (q.order) {
    return q.order.flatMap(({ id, desc }) => {
      const c =
        columns.find((x) => x.key === id) ??
        columns.find((x) => x.kind === 'time' && x.key.startsWith(`${id}.`));
      return c ? [`"${c.key}" ${desc ? 'DESC' : 'ASC'}`] : [];
    });
  }
  const time = columns.find((c) => c.kind === 'time');
  if (time) return [`"${time.key}" ASC`];
  const measure = columns.find((c) => c.kind === 'measure');
  if (measure) return [`"${measure.key}" DESC`];
  const dimension = columns.find((c) => c.kind === 'dimension');
  return dimension ? [`"${dimension.key}" ASC`] : [];
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

/** A value as the engine sends it: numbers as their full text (never rounded), times without "Z". */
function wireValue(v: SqlValue | undefined): string | null {
  if (v === null || v === undefined) return null;
  if (v instanceof Uint8Array) return Buffer.from(v).toString('base64');
  return String(v);
}

/** The engine's annotation of a member (its /v1/meta entry, as far as a result needs it). */
function annotationOf(x: MemberDef, kind: 'measure' | 'dimension', model: Model): Record<string, unknown> {
  return {
    title: x.title,
    shortTitle: x.shortTitle,
    ...(x.description !== undefined ? { description: x.description } : {}),
    type: x.type,
    ...(x.format ? { format: x.format } : {}),
    ...(x.meta ? { meta: x.meta } : {}),
    ...(kind === 'measure'
      ? {
          drillMembers: x.drillMembers ?? [],
          drillMembersGrouped: model.drillGrouped(x.drillMembers ?? []),
        }
      : {}),
  };
}

/** The annotation of a normalised query: every member it selects, segments and time dimensions. */
export function annotate(q: NormalizedQuery, model: Model): Record<string, Record<string, unknown>> {
  const measures: Record<string, unknown> = {};
  const dimensions: Record<string, unknown> = {};
  const segments: Record<string, unknown> = {};
  const timeDimensions: Record<string, unknown> = {};
  for (const m of q.measures ?? []) {
    const x = model.findMember(m)?.member;
    if (x) measures[m] = annotationOf(x, 'measure', model);
  }
  for (const d of q.dimensions) {
    const x = model.findMember(d)?.member;
    if (x) dimensions[d] = annotationOf(x, 'dimension', model);
  }
  for (const s of q.segments ?? []) {
    const [cube, name] = s.split('.');
    const c = model.cubes.find((x) => x.name === cube);
    const seg = c?.segments.find((x) => x.name === name);
    if (c && seg)
      segments[s] = {
        title: `${c.title} ${seg.title}`,
        shortTitle: seg.title,
        ...(seg.description !== undefined ? { description: seg.description } : {}),
      };
  }
  for (const td of q.timeDimensions) {
    if (!td.granularity) continue;
    const x = model.findMember(td.dimension)?.member;
    if (!x) continue;
    const g = td.granularity;
    timeDimensions[`${td.dimension}.${g}`] = {
      ...annotationOf(x, 'dimension', model),
      granularity: { name: g, title: g, interval: `1 ${g}` },
    };
    // The member without granularity too (an older form the engine still sends).
    if (!q.dimensions.includes(td.dimension))
      timeDimensions[td.dimension] = annotationOf(x, 'dimension', model);
  }
  return { measures, dimensions, segments, timeDimensions };
}

/** Runs a compiled query and shapes one result the way the engine does. */
export function runLoad(
  q: NormalizedQuery,
  compiled: Compiled,
  engine: DataEngine,
  model: Model,
  rollup?: RollupUse,
): Record<string, unknown> {
  const { rows } = engine.all(compiled.sql, compiled.params);
  // A time dimension is also sent under its name without granularity (the engine still does),
  // unless the query asks for that name as a dimension.
  const bare = (c: Column) =>
    c.kind === 'time' && !q.dimensions.includes(`${c.member.cube}.${c.member.name}`);
  const keys: string[] = [];
  for (const c of compiled.columns) {
    keys.push(c.key);
    if (bare(c)) keys.push(`${c.member.cube}.${c.member.name}`);
  }
  const cells = rows.map((row) => {
    const out: (string | null)[] = [];
    compiled.columns.forEach((c, i) => {
      const v = wireValue(row[i]);
      out.push(v);
      if (bare(c)) out.push(v);
    });
    return out;
  });
  const data =
    q.responseFormat === 'compact'
      ? { members: keys, dataset: cells }
      : q.responseFormat === 'columnar'
        ? { members: keys, columns: keys.map((_, i) => cells.map((r) => r[i])) }
        : cells.map((r) => Object.fromEntries(keys.map((k, i) => [k, r[i]])));
  const total = compiled.countSql
    ? Number(engine.all(compiled.countSql, compiled.params).rows[0]?.[0] ?? 0)
    : null;
  return {
    query: q,
    data,
    lastRefreshTime: new Date(rollup?.lastUpdatedAt ?? Date.now()).toISOString(),
    ...(rollup
      ? {
          usedPreAggregations: {
            [rollup.table]: {
              preAggregationId: rollup.preAggregationId,
              lastUpdatedAt: rollup.lastUpdatedAt,
              type: 'rollup',
            },
          },
        }
      : {}),
    annotation: annotate(q, model),
    dataSource: 'default',
    dbType: 'sqlite',
    external: false,
    slowQuery: compiled.slow,
    total,
  };
}
