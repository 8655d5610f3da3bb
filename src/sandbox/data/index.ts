// The sandbox's Data API: /v1/meta, /v1/load (with "Continue wait" long polling for slow queries)
// and /v1/cubesql (NDJSON streamed in batches straight from a SQLite statement, so memory stays
// bounded by one batch whatever the row count).
import { createHash } from 'node:crypto';
import type { SqlValue, Statement } from 'sql.js';
import type { RequestContext, Router } from '../http';
import type { SandboxState } from '../state';
import type { DataEngine } from './engine';
import { compileLoad, runLoad, type LoadQuery } from './load';
import { UserError } from './userError';
import { defaultModel, Model } from './model';

export { createDataEngine, type DataEngine } from './engine';

export interface DataDeps {
  /** The engine of a deployment (each deployment has its own data). */
  engineFor: (deploymentId: number) => Promise<DataEngine>;
  /** How long a slow query keeps answering "Continue wait". */
  continueWaitMs: number;
  state: SandboxState;
  /** Rows per NDJSON data line of /v1/cubesql. */
  batchRows?: number;
  /**
   * The compiled model of a deployment (its deploy branch, or `devBranch` for the dev-mode Data
   * API); an error to answer when the branch is not served or its model does not compile. The
   * sample model when absent.
   */
  modelFor?: (
    deploymentId: number,
    devBranch: string | undefined,
  ) => Promise<Model | { status: number; error: string }>;
}

// The fields the published document declares for POST /v1/cubesql, plus throwContinueWait: the
// document does not declare it, but the official client (@cubejs-client/core) sends it with every
// cubeSql call, so the service accepts it. Anything else is refused.
const CUBESQL_KEYS = new Set(['query', 'timezone', 'cache', 'throwContinueWait']);

/** Slow queries remember when they started, keyed by the request-id prefix (or the query). */
class SlowQueries {
  private readonly started = new Map<string, number>();
  /** True while the query should still answer "Continue wait". */
  pending(key: string, ms: number): boolean {
    const now = Date.now();
    const t = this.started.get(key);
    if (t === undefined) {
      this.started.set(key, now);
      return true;
    }
    if (now - t < ms) return true;
    this.started.delete(key);
    return false;
  }
}

function slowKey(ctx: RequestContext, body: unknown): string {
  const prefix = /^(.*)-span-\d+$/.exec(ctx.requestId)?.[1];
  return prefix ?? createHash('sha1').update(JSON.stringify(body)).digest('hex');
}

/** Rewrites MEASURE(name) / MEASURE(cube.name) into the measure's aggregate over the cube view. */
export function rewriteMeasures(sql: string, model: Model = defaultModel()): string {
  const fromCubes = [...sql.matchAll(/\b(?:from|join)\s+"?(\w+)"?/gi)].map((m) => m[1]!.toLowerCase());
  return sql.replace(
    /MEASURE\s*\(\s*"?(?:(\w+)"?\.)?"?(\w+)"?\s*\)/gi,
    (_whole, cube: string | undefined, name: string) => {
      const candidates = cube
        ? model.cubes.filter((c) => c.name === cube.toLowerCase())
        : [...model.cubes].sort(
            (a, b) => Number(fromCubes.includes(b.name)) - Number(fromCubes.includes(a.name)),
          );
      for (const c of candidates) {
        const m = c.measures.find((x) => x.name === name.toLowerCase());
        if (m?.viewAgg) return m.viewAgg;
      }
      throw new UserError(
        `MEASURE(${cube ? `${cube}.` : ''}${name}): no such measure. See /v1/meta for the members.`,
      );
    },
  );
}

function columnType(v: SqlValue | undefined, name: string): string {
  if (typeof v === 'number') return Number.isInteger(v) ? 'Int64' : 'Float64';
  if (typeof v === 'string' && /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}/.test(v)) return 'Timestamp';
  if (/(^|_)(count|id)$/.test(name)) return 'Int64';
  return 'String';
}

const cell = (v: SqlValue): string | null =>
  v === null ? null : v instanceof Uint8Array ? Buffer.from(v).toString('base64') : String(v);

export function registerDataRoutes(router: Router, deps: DataDeps): void {
  const slow = new SlowQueries();
  const batchRows = deps.batchRows ?? 1000;

  const record = (ctx: RequestContext) =>
    deps.state.dataQueries.push({
      deploymentId: ctx.deploymentId ?? 1,
      host: ctx.req.headers.host ?? '',
      method: ctx.method,
      path: ctx.path,
      at: new Date().toISOString(),
    });
  const engineOf = (ctx: RequestContext) => deps.engineFor(ctx.deploymentId ?? 1);
  /** The model that answers, or undefined once an error has been answered. */
  const modelOf = async (ctx: RequestContext): Promise<Model | undefined> => {
    const m = deps.modelFor ? await deps.modelFor(ctx.deploymentId ?? 1, ctx.devBranch) : defaultModel();
    if (m instanceof Model) return m;
    await ctx.json(m.status, { type: 'UserError', error: m.error, requestId: ctx.requestId });
    return undefined;
  };

  router.add('data', 'GET', '/v1/meta', async (ctx) => {
    record(ctx);
    const model = await modelOf(ctx);
    if (model) await ctx.json(200, model.meta(ctx.query.has('extended')));
  });

  // POST with the query in the body, or GET with it JSON-encoded in ?query= (the official client's
  // default for short queries). Always answered in the published V1LoadResponse shape.
  const load = async (ctx: RequestContext, body: { query?: unknown; queryType?: unknown }) => {
    record(ctx);
    const model = await modelOf(ctx);
    if (!model) return;
    const engine = await engineOf(ctx);
    const queries = Array.isArray(body.query) ? body.query : [body.query];
    try {
      const compiled = queries.map((q) => compileLoad(q as LoadQuery, engine, model));
      if (compiled.some((c) => c.slow) && slow.pending(slowKey(ctx, body), deps.continueWaitMs)) {
        return ctx.json(200, { error: 'Continue wait' });
      }
      const results = compiled.map((c, i) => runLoad(queries[i] as LoadQuery, c, engine));
      await ctx.json(200, {
        queryType: 'regularQuery',
        results,
        pivotQuery: queries[0],
        slowQuery: results.some((r) => r.slowQuery),
      });
    } catch (e) {
      if (e instanceof UserError)
        return ctx.json(400, { type: 'UserError', error: e.message, requestId: ctx.requestId });
      throw e;
    }
  };
  router.add('data', 'POST', '/v1/load', (ctx) => load(ctx, (ctx.body ?? {}) as { query?: unknown }));
  router.add('data', 'GET', '/v1/load', async (ctx) => {
    const text = ctx.query.get('query');
    let query: unknown;
    try {
      query = text === null ? undefined : JSON.parse(text);
    } catch {
      return ctx.json(400, {
        type: 'UserError',
        error: 'query is not valid JSON.',
        requestId: ctx.requestId,
      });
    }
    if (query === undefined)
      return ctx.json(400, { type: 'UserError', error: 'Query param is required', requestId: ctx.requestId });
    await load(ctx, { query, queryType: ctx.query.get('queryType') ?? undefined });
  });

  router.add('data', 'POST', '/v1/cubesql', async (ctx) => {
    const body = (ctx.body ?? {}) as Record<string, unknown>;
    const unknown = Object.keys(body).filter((k) => !CUBESQL_KEYS.has(k));
    if (unknown.length)
      return ctx.json(400, {
        type: 'UserError',
        error: `Unknown field(s) in the request body: ${unknown.join(', ')}.`,
        requestId: ctx.requestId,
      });
    if (typeof body.query !== 'string' || !body.query.trim())
      return ctx.json(400, {
        type: 'UserError',
        error: 'query must be a SQL string.',
        requestId: ctx.requestId,
      });
    record(ctx);
    const model = await modelOf(ctx);
    if (!model) return;
    const engine = await engineOf(ctx);
    const sql = body.query;
    const isSlow =
      /MEASURE\s*\(\s*(?:orders\.)?slow_count\s*\)/i.test(sql) || /\/\*\s*slow\s*\*\//i.test(sql);
    if (isSlow && slow.pending(slowKey(ctx, body), deps.continueWaitMs)) {
      if (body.throwContinueWait === true) return ctx.ndjson([{ error: 'Continue wait' }]);
      await new Promise((r) => setTimeout(r, deps.continueWaitMs));
      slow.pending(slowKey(ctx, body), 0);
    }
    let stmt: Statement;
    try {
      stmt = engine.prepare(rewriteMeasures(sql, model));
    } catch (e) {
      const message = e instanceof Error ? e.message : String(e);
      return ctx.json(400, {
        type: 'UserError',
        error: `Error during planning: ${message}`,
        requestId: ctx.requestId,
      });
    }
    const requestId = ctx.requestId;
    const signal = ctx.signal;
    async function* lines(): AsyncGenerator<unknown> {
      try {
        const columns = stmt!.getColumnNames();
        let first: SqlValue[] | undefined;
        try {
          if (stmt!.step()) first = stmt!.get();
        } catch (e) {
          yield {
            schema: columns.map((name) => ({ name, column_type: 'String' })),
            lastRefreshTime: new Date().toISOString(),
          };
          yield { error: e instanceof Error ? e.message : String(e), requestId };
          return;
        }
        yield {
          schema: columns.map((name, i) => ({ name, column_type: columnType(first?.[i], name) })),
          lastRefreshTime: new Date().toISOString(),
        };
        let batch: (string | null)[][] = first ? [first.map(cell)] : [];
        for (;;) {
          if (signal.aborted) return;
          let more: boolean;
          try {
            more = stmt!.step();
          } catch (e) {
            if (batch.length) yield { data: batch };
            yield { error: e instanceof Error ? e.message : String(e), requestId };
            return;
          }
          if (more) batch.push(stmt!.get().map(cell));
          if (batch.length >= batchRows || (!more && batch.length)) {
            yield { data: batch };
            batch = [];
            // Let the event loop breathe (aborts, other requests) between batches.
            await new Promise((r) => setImmediate(r));
          }
          if (!more) return;
        }
      } finally {
        stmt!.free();
      }
    }
    await ctx.ndjson(lines());
  });
}
