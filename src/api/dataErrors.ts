// What the Data API engine says when a query can never succeed, read into a sentence that says what
// to change. The engine words these errors itself ("'nope' not found for path 'orders.nope'", "You
// requested hidden member: 'orders__id'…", "Invalid query format: …"); a hidden member even comes
// back as a 500, which the generic mapping would call a service failure worth retrying. Each is
// re-labelled 'validation' (nothing to retry), keeps the server's words, the status and the request
// id (the body's, the response header's, or else the one the client sent), and gets a `code`.
import { ApiError, exchangeOf, isApiError } from './errors';

/** Codes of the refined errors (ApiError.code). */
export type DataErrorCode =
  | 'HIDDEN_MEMBER'
  | 'UNKNOWN_MEMBER'
  | 'UNKNOWN_CUBE'
  | 'UNKNOWN_GRANULARITY'
  | 'QUERY_FORMAT'
  | 'EMPTY_QUERY'
  | 'BAD_DATE'
  | 'FILTER_VALUES'
  | 'LIMIT'
  | 'JOIN_PATH'
  | 'QUERY_TYPE';

interface Rule {
  code: DataErrorCode;
  match: RegExp;
  /** The sentence to show; `members` are the query's members (to name a hidden one by its name). */
  advice: (m: RegExpExecArray, members: readonly string[]) => string;
}

/** The member a result column alias (`orders__created_at`) stands for, among the query's members. */
function memberOfAlias(alias: string, members: readonly string[]): string {
  const found = members.find((n) => {
    const [cube, member, grain] = n.split('.');
    const base = `${cube}__${member}`;
    return alias === base || (grain !== undefined && alias === `${base}_${grain}`);
  });
  if (found) return found;
  const i = alias.indexOf('__');
  return i > 0 ? `${alias.slice(0, i)}.${alias.slice(i + 2)}` : alias;
}

const RULES: Rule[] = [
  {
    code: 'HIDDEN_MEMBER',
    match: /You requested hidden member: '([^']+)'/,
    advice: (m, members) =>
      `The query asks for "${memberOfAlias(m[1]!, members)}", which the data model hides (primary keys are hidden unless the model shows them). Remove it from the query, or make it visible in the model with "public: true".`,
  },
  {
    code: 'UNKNOWN_CUBE',
    match: /Cube '([^']+)' not found for path '([^']+)'/,
    advice: (m) =>
      `There is no cube "${m[1]}" in this deployment's data model (asked for "${m[2]}"). Check the cube name; completion in a query cell lists the members.`,
  },
  {
    code: 'UNKNOWN_MEMBER',
    match: /'([^']+)' not found for path '([^']+)'/,
    advice: (m) =>
      `"${m[2]}" is not in the data model where the query uses it (measures go in "measures", dimensions in "dimensions"). Check the name; completion in a query cell lists the members.`,
  },
  {
    code: 'UNKNOWN_GRANULARITY',
    match: /Granularity "([^"]+)" not found in time dimension "([^"]+)"/,
    advice: (m) =>
      `"${m[1]}" is not a granularity of ${m[2]}. Use second, minute, hour, day, week, month, quarter or year (or a granularity the model defines).`,
  },
  {
    code: 'QUERY_FORMAT',
    match: /^Invalid query format: (.*)$/s,
    advice: (m) => `The query is not in the Data API's format (${m[1]}). Fix that part of the query.`,
  },
  {
    code: 'EMPTY_QUERY',
    match: /^Query should contain either measures, dimensions or timeDimensions with granularities/,
    advice: () =>
      'The query selects nothing: add a measure, a dimension, or a time dimension with a granularity.',
  },
  {
    code: 'EMPTY_QUERY',
    match: /^Query param is required/,
    advice: () => 'The request carried no query: send a query object.',
  },
  {
    code: 'QUERY_FORMAT',
    match: /^Unable to decode query param as JSON/,
    advice: () => 'The query is not valid JSON. Fix the JSON of the query.',
  },
  {
    code: 'BAD_DATE',
    match: /^Can't parse date: '([^']*)'/,
    advice: (m) =>
      `The date "${m[1]}" cannot be read. Use YYYY-MM-DD dates, or a relative range such as "last 30 days" or "this quarter".`,
  },
  {
    code: 'FILTER_VALUES',
    match: /^Values required for filter: (.*)$/s,
    advice: (m) => `A filter needs "values" for its operator: ${m[1]}. Add the values, or use set/notSet.`,
  },
  {
    code: 'LIMIT',
    match: /The query limit has been exceeded/,
    advice: () =>
      'The query asks for more rows than the Data API returns at once (a limit of at most 50,000). Lower "limit", and page with "offset".',
  },
  {
    code: 'JOIN_PATH',
    match: /Can't find join path to join (.*)$/,
    advice: (m) =>
      `These cubes are not joined in the data model: ${m[1]}. Query members of joined cubes, or add a join to the model.`,
  },
  {
    code: 'QUERY_TYPE',
    match: /query type is not supported by the client/,
    advice: () => 'A list of queries (data blending) needs queryType "multi" in the request.',
  },
];

/** The query's members, for naming a hidden member by its name rather than its column alias. */
export function queryMembers(query: unknown): string[] {
  if (!query || typeof query !== 'object') return [];
  const q = query as Record<string, unknown>;
  const list = (v: unknown) => (Array.isArray(v) ? v.filter((x): x is string => typeof x === 'string') : []);
  const tds = Array.isArray(q.timeDimensions) ? q.timeDimensions : [];
  return [
    ...list(q.measures),
    ...list(q.dimensions),
    ...tds.flatMap((t) => {
      const td = t as { dimension?: unknown; granularity?: unknown };
      if (typeof td?.dimension !== 'string') return [];
      return typeof td.granularity === 'string'
        ? [td.dimension, `${td.dimension}.${td.granularity}`]
        : [td.dimension];
    }),
  ];
}

/**
 * The error for a request that cannot succeed as sent, when the engine's words say so; otherwise
 * `e` as it was (with the sent request id added when it had none).
 */
export function interpretDataError(e: unknown, ctx: { requestId?: string; query?: unknown } = {}): unknown {
  if (!isApiError(e) || e.kind === 'cancelled' || e.kind === 'timeout' || e.kind === 'network') return e;
  const server = e.serverMessage;
  const requestId = e.requestId ?? ctx.requestId;
  const rule =
    server === undefined ? undefined : RULES.map((r) => ({ r, m: r.match.exec(server) })).find((x) => x.m);
  if (!rule) {
    if (e.requestId || !requestId) return e;
    return new ApiError(e.kind, `${e.message} (request id ${requestId})`, { ...init(e), requestId });
  }
  const advice = rule.r.advice(rule.m!, queryMembers(ctx.query));
  const said = server!.replace(/^Error: /, '').trim();
  return new ApiError('validation', `${advice} The Data API said: ${said.replace(/[.]?$/, '.')}`, {
    ...init(e),
    requestId,
    code: rule.r.code,
  });
}

function init(e: ApiError) {
  return { ...exchangeOf(e), line: e.line, cause: e };
}

/** True for an error whose query can never succeed as sent (a refined one). */
export function isQueryProblem(e: unknown): boolean {
  return isApiError(e) && RULES.some((r) => r.code === e.code);
}
