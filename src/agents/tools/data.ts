// Data tools: search the data model (/v1/meta) and run a query (SQL through /v1/cubesql, or a JSON
// query through /v1/load), one page of at most MAX_ROWS rows at a time.
import { z } from 'zod';
import type { LoadQuery } from '../../api/schemas/data';
import { LoadQuerySchema } from '../../api/schemas/data';
import { MAX_ROWS, deploymentIdField, named, quote, resolveDeployment } from './format';
import type { PlatformGateway as Gateway } from '../gateway';
import { defineTool, type ToolOutput } from './types';

const KINDS = ['cube', 'measure', 'dimension', 'segment'] as const;

/** The paging fields both tools take. */
const pageFields = {
  offset: z.number().int().min(0).optional().describe('Rows to skip (the nextOffset of the previous call).'),
  limit: z
    .number()
    .int()
    .min(1)
    .max(MAX_ROWS)
    .optional()
    .describe(`Rows to return (1-${MAX_ROWS}, default ${MAX_ROWS}).`),
};

export const searchDataModel = defineTool({
  name: 'search_data_model',
  title: 'Search the data model',
  description:
    "Searches the semantic data model of a deployment (cubes/views and their measures, dimensions and segments, from /v1/meta) by text in the name, title or description. Returns each member's full name (cube.member, as used in queries), kind, type, title and description. Use it before writing a query to find the right members.",
  input: z.object({
    deploymentId: deploymentIdField,
    search: z.string().optional().describe('Text to look for (case-insensitive); omit to list everything.'),
    cube: z.string().optional().describe('Only members of this cube or view (its name).'),
    kinds: z
      .array(z.enum(KINDS))
      .optional()
      .describe('Only these kinds (cube, measure, dimension, segment).'),
    ...pageFields,
  }),
  effect: 'read',
  summary: (i) => (i.search ? `Search the data model for ${quote(i.search)}` : 'List the data model'),
  async execute(ctx, input, signal) {
    const dep = await resolveDeployment(ctx.gateway, input.deploymentId, signal);
    const cubes = await ctx.gateway.cubes(dep.id, signal);
    const needle = input.search?.toLowerCase();
    const kinds = new Set(input.kinds ?? KINDS);
    const rows: unknown[][] = [];
    const match = (...texts: unknown[]) =>
      !needle || texts.some((t) => typeof t === 'string' && t.toLowerCase().includes(needle));
    for (const c of cubes) {
      if (input.cube && c.name !== input.cube) continue;
      if (kinds.has('cube') && match(c.name, c.title, c.description))
        rows.push([c.name, c.type === 'view' ? 'view' : 'cube', '', c.title, c.description]);
      const members: [
        (typeof KINDS)[number],
        { name: string; type?: string; title?: string; description?: string }[],
      ][] = [
        ['measure', c.measures],
        ['dimension', c.dimensions],
        ['segment', c.segments ?? []],
      ];
      for (const [kind, list] of members) {
        if (!kinds.has(kind)) continue;
        for (const m of list) {
          if (match(m.name, m.title, m.description))
            rows.push([m.name, kind, m.type ?? '', m.title, m.description]);
        }
      }
    }
    const offset = input.offset ?? 0;
    const limit = input.limit ?? MAX_ROWS;
    const slice = rows.slice(offset, offset + limit);
    const hasMore = offset + slice.length < rows.length;
    return {
      text: `Data model of deployment ${named(dep.name, dep.id)}: ${rows.length} match${rows.length === 1 ? '' : 'es'} in ${cubes.length} cubes and views.`,
      table: { columns: ['name', 'kind', 'type', 'title', 'description'], rows: slice },
      page: {
        returned: slice.length,
        hasMore,
        total: rows.length,
        ...(hasMore ? { nextOffset: offset + slice.length } : {}),
      },
    };
  },
});

/** SQL results are counted up to this many rows to report the total; beyond it the total is "more than". */
export const SQL_COUNT_LIMIT = 10_000;

export const runQuery = defineTool({
  name: 'run_query',
  title: 'Run a query',
  description: `Runs a read-only query on a deployment's data and returns one page of at most ${MAX_ROWS} rows, with hasMore, nextOffset and the total row count where known. Give either "sql" (Postgres-flavoured SQL over cubes and views; measures as MEASURE(name), e.g. SELECT status, MEASURE(count) FROM orders GROUP BY 1) or "query" (a JSON /v1/load query with measures, dimensions, timeDimensions, filters, order, limit). The query runs on the warehouse, so it may take time and cost; the user confirms it first. Use search_data_model to find member names.`,
  input: z.object({
    deploymentId: deploymentIdField,
    sql: z.string().min(1).optional().describe('A SQL query (one of sql or query).'),
    query: z
      .record(z.string(), z.unknown())
      .optional()
      .describe(
        'A JSON load query, e.g. {"measures":["orders.count"],"dimensions":["orders.status"]} (one of sql or query).',
      ),
    ...pageFields,
  }),
  effect: 'query',
  summary: (i) =>
    i.sql !== undefined ? `Run SQL: ${i.sql}` : `Run the JSON query ${JSON.stringify(i.query)}`,
  async execute(ctx, input, signal) {
    if ((input.sql === undefined) === (input.query === undefined)) {
      throw new Error('Give exactly one of "sql" or "query".');
    }
    const dep = await resolveDeployment(ctx.gateway, input.deploymentId, signal);
    const offset = input.offset ?? 0;
    const limit = input.limit ?? MAX_ROWS;
    return input.sql !== undefined
      ? runSql(ctx.gateway, dep, input.sql, offset, limit, signal)
      : runLoad(ctx.gateway, dep, input.query!, offset, limit, signal);
  },
});

async function runSql(
  gateway: Gateway,
  dep: { id: number; name: string },
  sql: string,
  offset: number,
  limit: number,
  signal?: AbortSignal,
): Promise<ToolOutput> {
  const controller = new AbortController();
  const onAbort = () => controller.abort();
  signal?.addEventListener('abort', onAbort, { once: true });
  let columns: string[] = [];
  const rows: unknown[][] = [];
  let seen = 0;
  let complete = true;
  try {
    for await (const chunk of gateway.cubesql(dep.id, sql, {
      signal: controller.signal,
      timeoutMs: 120_000,
    })) {
      if (chunk.type === 'schema') {
        columns = chunk.schema.map((c) => c.name);
        continue;
      }
      for (const row of chunk.rows) {
        if (seen >= offset && rows.length < limit) rows.push(row);
        seen++;
      }
      if (seen > SQL_COUNT_LIMIT) {
        complete = false;
        break; // leaving the loop closes the stream
      }
    }
  } finally {
    signal?.removeEventListener('abort', onAbort);
  }
  const hasMore = offset + rows.length < seen;
  const totalText = complete ? `${seen} row${seen === 1 ? '' : 's'}` : `more than ${SQL_COUNT_LIMIT} rows`;
  return {
    text: `SQL on deployment ${named(dep.name, dep.id)}: ${totalText}; rows ${rows.length ? `${offset + 1}-${offset + rows.length}` : 'none'} shown.`,
    table: { columns, rows },
    page: {
      returned: rows.length,
      hasMore,
      ...(complete ? { total: seen } : {}),
      ...(hasMore ? { nextOffset: offset + rows.length } : {}),
    },
  };
}

async function runLoad(
  gateway: Gateway,
  dep: { id: number; name: string },
  raw: Record<string, unknown>,
  offset: number,
  limit: number,
  signal?: AbortSignal,
): Promise<ToolOutput> {
  const parsed = LoadQuerySchema.safeParse(raw);
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!;
    throw new Error(`The JSON query is not valid: ${issue.path.join('.') || 'query'}: ${issue.message}`);
  }
  const q: LoadQuery = parsed.data;
  const own = q.limit;
  const start = (q.offset ?? 0) + offset;
  const remaining = own !== undefined ? Math.max(0, own - offset) : Infinity;
  const take = Math.min(limit, remaining);
  // One extra row tells whether there is another page. (`total` is not a field of the published
  // load query, so it is not asked for; a total the server sends anyway is reported.)
  const page: LoadQuery = {
    ...q,
    responseFormat: 'default',
    offset: start,
    limit: Math.max(1, take + 1),
  };
  const res = await gateway.load(dep.id, page, signal);
  const result = res.results[0];
  const data = Array.isArray(result?.data) ? (result.data as Record<string, unknown>[]) : [];
  const a = result?.annotation;
  const annotated = a
    ? [...Object.keys(a.dimensions), ...Object.keys(a.timeDimensions), ...Object.keys(a.measures)]
    : [];
  const columns = annotated.length ? annotated : Object.keys(data[0] ?? {});
  for (const row of data) for (const k of Object.keys(row)) if (!columns.includes(k)) columns.push(k);
  const shown = take === 0 ? [] : data.slice(0, take);
  let total = typeof result?.total === 'number' ? result.total - (q.offset ?? 0) : undefined;
  if (total !== undefined && own !== undefined) total = Math.min(total, own);
  const hasMore = total !== undefined ? offset + shown.length < total : data.length > take;
  return {
    text: `JSON query on deployment ${named(dep.name, dep.id)}${total !== undefined ? `: ${total} row${total === 1 ? '' : 's'}` : ''}; rows ${shown.length ? `${offset + 1}-${offset + shown.length}` : 'none'} shown.`,
    table: { columns, rows: shown.map((r) => columns.map((c) => r[c])) },
    page: {
      returned: shown.length,
      hasMore,
      ...(total !== undefined ? { total } : {}),
      ...(hasMore ? { nextOffset: offset + shown.length } : {}),
    },
  };
}
