// A /v1/load query checked and normalised the way the engine does before it plans anything: the
// request format first (answered "Invalid query format: ..." with no type), then the query's
// shape, then the normalised query the engine echoes in each result: `cacheMode`, the time zone,
// the default `limit` (10,000) and `rowLimit`, empty arrays for absent dimensions, filters and
// time dimensions, `order` as `[{id, desc}]`, `dimensions` of the form cube.member.granularity
// moved to time dimensions, filter values as strings, and date ranges resolved against the clock.
import { CACHE_MODES, LOAD_FILTER_OPERATORS } from '../../api/schemas/data';
import { resolveDateRange, validTimezone } from './dates';
import { EngineError, RequestError } from './userError';

/** The engine's default row limit and the largest it allows. */
export const DEFAULT_LIMIT = 10_000;
export const MAX_LIMIT = 50_000;

// The operators the engine's query schema accepts: the wire format's, plus the legacy ones it still
// takes.
const OPERATORS = new Set<string>([...LOAD_FILTER_OPERATORS, 'in', 'notIn', 'onTheDate']);

const ID = /^[a-zA-Z0-9_]+\.[a-zA-Z0-9_]+$/;
const DIMENSION = /^[a-zA-Z0-9_]+\.[a-zA-Z0-9_]+(\.[a-zA-Z0-9_]+)?$/;
const ORDER_ID =
  /^[a-zA-Z0-9_]+\.[a-zA-Z0-9_]+$|^[a-zA-Z0-9_]+$|^[a-zA-Z0-9_]+\.[a-zA-Z0-9_]+\.[a-zA-Z0-9_]+$/;

const QUERY_KEYS = new Set([
  'measures',
  'dimensions',
  'filters',
  'timeDimensions',
  'order',
  'segments',
  'timezone',
  'limit',
  'offset',
  'total',
  'cacheMode',
  'cache',
  'ungrouped',
  'responseFormat',
  'subqueryJoins',
  'joinHints',
]);

export interface NormalizedFilter {
  member?: string;
  operator?: string;
  values?: (string | null)[];
  and?: NormalizedFilter[];
  or?: NormalizedFilter[];
}

export interface NormalizedTimeDimension {
  dimension: string;
  granularity?: string;
  dateRange?: [string, string];
}

/** The query as the engine echoes it (its own keys kept in their order). */
export interface NormalizedQuery {
  measures?: string[];
  dimensions: string[];
  segments?: string[];
  timeDimensions: NormalizedTimeDimension[];
  filters: NormalizedFilter[];
  order?: { id: string; desc: boolean }[];
  limit: number;
  rowLimit: number;
  offset?: number;
  total?: boolean;
  ungrouped?: boolean;
  timezone: string;
  cacheMode: string;
  responseFormat?: 'default' | 'compact' | 'columnar';
  [k: string]: unknown;
}

const format = (why: string) => new RequestError(`Invalid query format: ${why}`);
const isObject = (v: unknown): v is Record<string, unknown> =>
  typeof v === 'object' && v !== null && !Array.isArray(v);

function stringList(q: Record<string, unknown>, key: string, pattern: RegExp): void {
  const v = q[key];
  if (v === undefined) return;
  if (!Array.isArray(v)) throw format(`"${key}" must be an array`);
  v.forEach((x, i) => {
    if (typeof x !== 'string' || !pattern.test(x))
      throw format(`"${key}[${i}]" does not match any of the allowed types`);
  });
}

function integer(q: Record<string, unknown>, key: string): void {
  const v = q[key];
  if (v === undefined) return;
  if (typeof v !== 'number' || Number.isNaN(v)) throw format(`"${key}" must be a number`);
  if (!Number.isInteger(v)) throw format(`"${key}" must be an integer`);
  if (v < 0) throw format(`"${key}" must be greater than or equal to 0`);
}

function validFilter(f: unknown): boolean {
  if (!isObject(f)) return false;
  const keys = Object.keys(f);
  if (keys.some((k) => k === 'and' || k === 'or')) {
    if (keys.length !== 1) return false;
    const list = f[keys[0]!];
    return Array.isArray(list) && list.every(validFilter);
  }
  if (keys.some((k) => !['member', 'dimension', 'operator', 'values'].includes(k))) return false;
  if ((f.member === undefined) === (f.dimension === undefined)) return false;
  const name = f.member ?? f.dimension;
  if (typeof name !== 'string' || !ID.test(name)) return false;
  if (typeof f.operator !== 'string' || !OPERATORS.has(f.operator)) return false;
  if (f.values === undefined) return true;
  return (
    Array.isArray(f.values) &&
    f.values.every((v) => v === null || ['string', 'number', 'boolean'].includes(typeof v) || validFilter(v))
  );
}

/** Checks the request format like the engine's query schema (the first problem found). */
function checkFormat(q: Record<string, unknown>): void {
  for (const k of Object.keys(q)) if (!QUERY_KEYS.has(k)) throw format(`"${k}" is not allowed`);
  stringList(q, 'measures', ID);
  stringList(q, 'dimensions', DIMENSION);
  if (q.filters !== undefined) {
    if (!Array.isArray(q.filters)) throw format('"filters" must be an array');
    q.filters.forEach((f, i) => {
      if (!validFilter(f)) throw format(`"filters[${i}]" does not match any of the allowed types`);
    });
  }
  if (q.timeDimensions !== undefined) {
    if (!Array.isArray(q.timeDimensions)) throw format('"timeDimensions" must be an array');
    q.timeDimensions.forEach((td, i) => {
      const at = `timeDimensions[${i}]`;
      if (!isObject(td)) throw format(`"${at}" must be of type object`);
      for (const k of Object.keys(td))
        if (!['dimension', 'granularity', 'dateRange', 'compareDateRange'].includes(k))
          throw format(`"${at}.${k}" is not allowed`);
      if (td.dimension === undefined) throw format(`"${at}.dimension" is required`);
      if (typeof td.dimension !== 'string' || !ID.test(td.dimension))
        throw format(
          `"${at}.dimension" with value "${String(td.dimension)}" fails to match the required pattern`,
        );
      if (td.granularity !== undefined && td.granularity !== null && typeof td.granularity !== 'string')
        throw format(`"${at}.granularity" must be a string`);
      const dr = td.dateRange;
      if (
        dr !== undefined &&
        typeof dr !== 'string' &&
        !(Array.isArray(dr) && dr.length >= 1 && dr.length <= 2 && dr.every((x) => typeof x === 'string'))
      )
        throw format(`"${at}.dateRange" does not match any of the allowed types`);
      if (td.compareDateRange !== undefined)
        throw new RequestError('compareDateRange queries are not supported by the sandbox.');
    });
  }
  const order = q.order;
  if (order !== undefined) {
    const ok = Array.isArray(order)
      ? order.every(
          (p) =>
            Array.isArray(p) &&
            p.length >= 2 &&
            typeof p[0] === 'string' &&
            ORDER_ID.test(p[0]) &&
            (p[1] === 'asc' || p[1] === 'desc'),
        )
      : isObject(order) &&
        Object.entries(order).every(([k, v]) => ORDER_ID.test(k) && (v === 'asc' || v === 'desc'));
    if (!ok) throw format('"order" does not match any of the allowed types');
  }
  stringList(q, 'segments', ID);
  if (q.timezone !== undefined) {
    if (typeof q.timezone !== 'string') throw format('"timezone" must be a string');
    if (!validTimezone(q.timezone))
      throw format(`"timezone" must be a valid IANA time zone, got "${q.timezone}"`);
  }
  integer(q, 'limit');
  integer(q, 'offset');
  for (const k of ['total', 'ungrouped'])
    if (q[k] !== undefined && typeof q[k] !== 'boolean') throw format(`"${k}" must be a boolean`);
  for (const k of ['cacheMode', 'cache'])
    if (q[k] !== undefined && !(CACHE_MODES as readonly unknown[]).includes(q[k]))
      throw format(`"${k}" must be one of [${CACHE_MODES.join(', ')}]`);
  if (
    q.responseFormat !== undefined &&
    !['default', 'compact', 'columnar'].includes(q.responseFormat as string)
  )
    throw format('"responseFormat" must be one of [default, compact, columnar]');
  if (q.subqueryJoins !== undefined || q.joinHints !== undefined)
    throw new RequestError('subqueryJoins and joinHints are not supported by the sandbox.');
}

function normalizeFilters(filters: unknown[], timezone: string, now: Date): NormalizedFilter[] {
  return filters.map((raw) => {
    const f = raw as Record<string, unknown>;
    if (Array.isArray(f.or)) return { or: normalizeFilters(f.or, timezone, now) };
    if (Array.isArray(f.and)) return { and: normalizeFilters(f.and, timezone, now) };
    const op = f.operator as string;
    const values = f.values as unknown[] | undefined;
    if ((!values || values.length === 0) && !['set', 'notSet', 'measureFilter'].includes(op))
      throw new RequestError(`Values required for filter: ${JSON.stringify(raw)}`);
    const out: NormalizedFilter = { member: (f.member ?? f.dimension) as string, operator: op };
    if (values) out.values = values.map((v) => (v === null || v === undefined ? null : String(v)));
    // A single relative date ("last quarter") of a date filter is resolved like a dateRange.
    const one = out.values?.length === 1 ? out.values[0] : undefined;
    if (typeof one === 'string') {
      const absolute = /^\d{4}-\d{2}-\d{2}/.test(one);
      if (['inDateRange', 'notInDateRange', 'onTheDate'].includes(op))
        out.values = resolveDateRange(one, timezone, now);
      else if (absolute) return out;
      else if (['beforeDate', 'afterOrOnDate'].includes(op))
        out.values = [resolveDateRange(one, timezone, now)[0]];
      else if (['beforeOrOnDate', 'afterDate'].includes(op))
        out.values = [resolveDateRange(one, timezone, now)[1]];
    }
    return out;
  });
}

/**
 * The engine's normalised query, or the error it answers. `cacheMode` is the request's `cache`
 * (body or query string) when given.
 */
export function normalizeQuery(input: unknown, opts: { now: Date; cacheMode?: unknown }): NormalizedQuery {
  if (!isObject(input)) throw format('"value" must be of type object');
  if (opts.cacheMode !== undefined && !(CACHE_MODES as readonly unknown[]).includes(opts.cacheMode))
    throw format(`"cacheMode" must be one of [${CACHE_MODES.join(', ')}]`);
  checkFormat(input);
  const q = input as Record<string, unknown> & {
    measures?: string[];
    dimensions?: string[];
    timeDimensions?: { dimension: string; granularity?: string | null; dateRange?: string | string[] }[];
    filters?: unknown[];
    order?: Record<string, string> | [string, string][];
    limit?: number;
    timezone?: string;
    cache?: string;
  };
  const hasGranularity = (q.timeDimensions ?? []).some((td) => !!td.granularity);
  if (!q.measures?.length && !q.dimensions?.length && !hasGranularity)
    throw new RequestError(
      'Query should contain either measures, dimensions or timeDimensions with granularities in order to be valid',
    );
  if (typeof q.limit === 'number' && q.limit > MAX_LIMIT)
    throw new EngineError('The query limit has been exceeded.');
  const timezone = q.timezone ?? 'UTC';
  const limit = q.limit ?? DEFAULT_LIMIT;
  // `cache` becomes `cacheMode`; `order` is echoed normalised.
  const { cache: _cache, order: _order, ...rest } = q;
  const order = q.order
    ? (Array.isArray(q.order) ? q.order : Object.entries(q.order)).map(([id, dir]) => ({
        id,
        desc: dir === 'desc',
      }))
    : undefined;
  const threePart = (q.dimensions ?? []).filter((d) => d.split('.').length === 3);
  const out: NormalizedQuery = {
    ...rest,
    cacheMode: String(opts.cacheMode ?? q.cacheMode ?? q.cache ?? 'stale-if-slow'),
    timezone,
    ...(order ? { order } : {}),
    limit,
    filters: normalizeFilters(q.filters ?? [], timezone, opts.now),
    dimensions: (q.dimensions ?? []).filter((d) => d.split('.').length !== 3),
    timeDimensions: [
      ...(q.timeDimensions ?? []).map((td) => {
        const { dateRange, granularity, ...more } = td;
        return {
          ...more,
          ...(granularity !== undefined && granularity !== null ? { granularity } : {}),
          ...(dateRange !== undefined ? { dateRange: resolveDateRange(dateRange, timezone, opts.now) } : {}),
        };
      }),
      ...threePart.map((d) => {
        const [cube, member, granularity] = d.split('.');
        return { dimension: `${cube}.${member}`, granularity: granularity! };
      }),
    ],
    rowLimit: limit,
  };
  return out;
}
