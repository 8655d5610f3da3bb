// The sandbox's Data API: /v1/meta, /v1/load and /v1/cubesql, answering as the engine does (see
// ./README.md): the single result without queryType and the multi envelope with it (with the
// pivot query the engine's native result builder adds), the
// normalised query echoed, rollups really built and used, hidden members refused, errors in the
// engine's words, and "Continue wait" rounds held like the engine holds them. /v1/cubesql streams
// NDJSON in batches straight from a SQLite statement, so memory stays bounded by one batch.
import { createHash } from 'node:crypto';
import type { SqlValue, Statement } from 'sql.js';
import type { RequestContext, Router } from '../http';
import type { SandboxState } from '../state';
import type { DataEngine } from './engine';
import { compileLoad, runLoad, type Compiled, type RollupUse } from './load';
import { normalizeQuery } from './normalize';
import { matchRollup, rollupsFor } from './rollups';
import { engineAnswer, RequestError, UserError } from './userError';
import { defaultModel, Model } from './model';

export { createDataEngine, type DataEngine } from './engine';

export interface DataDeps {
  /** The engine of a deployment (each deployment has its own data). */
  engineFor: (deploymentId: number) => Promise<DataEngine>;
  /** How long a slow query runs (it answers "Continue wait" meanwhile). */
  continueWaitMs: number;
  /**
   * How long each long-poll round is held before "Continue wait" is answered (the engine's
   * continueWaitTimeout, 10 s by default).
   */
  continueWaitTimeoutMs?: number;
  /** The clock relative date ranges are resolved against (the real clock when absent). */
  now?: () => Date;
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

/** The engine's default continueWaitTimeout. */
export const CONTINUE_WAIT_TIMEOUT_MS = 10_000;

// The fields the engine's schema of POST /v1/cubesql allows: the published ones plus
// throwContinueWait (the official client sends it with every cubeSql call). Anything else is refused.
const CUBESQL_KEYS = new Set(['query', 'timezone', 'cache', 'throwContinueWait']);

/** Slow queries remember when they started, keyed by the request-id prefix (or the query). */
class SlowQueries {
  private readonly started = new Map<string, number>();
  /** Milliseconds until the slow query is done (it starts when first seen). */
  remaining(key: string, runMs: number): number {
    const now = Date.now();
    let t = this.started.get(key);
    if (t === undefined) this.started.set(key, (t = now));
    return t + runMs - now;
  }
  done(key: string): void {
    this.started.delete(key);
  }
}

/** Waits `ms`, or until the client goes away. */
function hold(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    if (signal.aborted || ms <= 0) return resolve();
    const timer = setTimeout(done, ms);
    signal.addEventListener('abort', done, { once: true });
    function done() {
      clearTimeout(timer);
      signal.removeEventListener('abort', done);
      resolve();
    }
  });
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
  const holdMs = deps.continueWaitTimeoutMs ?? CONTINUE_WAIT_TIMEOUT_MS;
  const now = deps.now ?? (() => new Date());

  /**
   * One long-poll round of a slow query: held until the query is done or the round's time is up.
   * True when the query is done (answer it), false when "Continue wait" was answered.
   */
  const slowRound = async (
    ctx: RequestContext,
    key: string,
    answer: () => Promise<void>,
  ): Promise<boolean> => {
    const left = slow.remaining(key, deps.continueWaitMs);
    if (left > 0) {
      await hold(Math.min(left, holdMs), ctx.signal);
      if (ctx.signal.aborted) return false;
      if (left > holdMs) {
        await answer();
        return false;
      }
    }
    slow.done(key);
    return true;
  };

  const record = (ctx: RequestContext) =>
    deps.state.dataQueries.push({
      deploymentId: ctx.deploymentId ?? 1,
      host: ctx.req.headers.host ?? '',
      method: ctx.method,
      path: ctx.path,
      at: new Date().toISOString(),
      ...(ctx.devBranch !== undefined ? { devBranch: ctx.devBranch } : {}),
    });
  const engineOf = (ctx: RequestContext) => deps.engineFor(ctx.deploymentId ?? 1);
  /** The model that answers, or undefined once an error has been answered. */
  const modelOf = async (ctx: RequestContext): Promise<Model | undefined> => {
    const m = deps.modelFor ? await deps.modelFor(ctx.deploymentId ?? 1, ctx.devBranch) : defaultModel();
    if (m instanceof Model) return m;
    await ctx.json(m.status, { type: 'UserError', error: m.error });
    return undefined;
  };

  router.add('data', 'GET', '/v1/meta', async (ctx) => {
    record(ctx);
    const model = await modelOf(ctx);
    if (model) await ctx.json(200, model.meta(ctx.query.has('extended')));
  });

  // POST with the query in the body, or GET with it JSON-encoded in ?query= (the official client's
  // default for short queries). With queryType "multi" the answer is the published V1LoadResponse
  // envelope; without it, the engine answers the single result object.
  const load = async (
    ctx: RequestContext,
    body: { query?: unknown; queryType?: unknown; cache?: unknown },
  ) => {
    record(ctx);
    try {
      const raw = body.query;
      if (raw === undefined || raw === null || raw === 'undefined')
        throw new RequestError('Query param is required');
      const model = await modelOf(ctx);
      if (!model) return;
      const engine = await engineOf(ctx);
      const at = now();
      const queries = (Array.isArray(raw) ? raw : [raw]).map((q) =>
        normalizeQuery(q, { now: at, cacheMode: body.cache }),
      );
      const queryType = Array.isArray(raw) ? 'blendingQuery' : 'regularQuery';
      if (queryType !== 'regularQuery') {
        if (body.queryType === undefined || body.queryType === null)
          throw new RequestError(
            `'${queryType}' query type is not supported by the client.Please update the client.`,
          );
        const grains = new Set(queries.map((q) => q.timeDimensions[0]?.granularity).filter(Boolean));
        if (grains.size > 1) throw new RequestError('Data blending query granularities must match');
        if (grains.size === 0)
          throw new RequestError('Data blending query without granularity is not supported');
      }
      const rollups = rollupsFor(engine, model);
      const plans: { compiled: Compiled; rollup?: RollupUse }[] = queries.map((q) => {
        const r = matchRollup(q, model, rollups);
        // A rollup serves the query from its own table; checks and errors come from the model.
        const compiled = compileLoad(q, engine, model);
        return r ? { compiled: compileLoad(q, engine, r.model), rollup: r.use } : { compiled };
      });
      if (plans.some((p) => p.compiled.slow)) {
        const go = await slowRound(ctx, slowKey(ctx, body), () => ctx.json(200, { error: 'Continue wait' }));
        if (!go) return;
      }
      const results = plans.map((p, i) => runLoad(queries[i]!, p.compiled, engine, model, p.rollup));
      if (body.queryType === 'multi') {
        // The engine's native result builder adds the pivot query (the first normalised query
        // with its query type); the official client's ResultSet pivots multi answers by it.
        const pivotQuery = { ...queries[0]!, queryType };
        await ctx.json(200, {
          queryType,
          results,
          pivotQuery,
          slowQuery: results.some((r) => r.slowQuery === true),
        });
      } else await ctx.json(200, results[0]);
    } catch (e) {
      const answer = engineAnswer(e);
      if (answer) return ctx.json(answer.status, answer.body);
      throw e;
    }
  };
  router.add('data', 'POST', '/v1/load', (ctx) =>
    load(ctx, (ctx.body ?? {}) as { query?: unknown; queryType?: unknown; cache?: unknown }),
  );
  router.add('data', 'GET', '/v1/load', async (ctx) => {
    const text = ctx.query.get('query');
    let query: unknown;
    if (text !== null && text !== 'undefined') {
      try {
        query = JSON.parse(text);
      } catch (e) {
        record(ctx);
        return ctx.json(400, {
          error: `Unable to decode query param as JSON, error: ${e instanceof Error ? e.message : String(e)}`,
        });
      }
    }
    await load(ctx, {
      query,
      queryType: ctx.query.get('queryType') ?? undefined,
      cache: ctx.query.get('cache') ?? undefined,
    });
  });

  router.add('data', 'POST', '/v1/cubesql', async (ctx) => {
    const body = (ctx.body ?? {}) as Record<string, unknown>;
    // Refused like the engine's schema refuses them (no type, no requestId).
    const unknown = Object.keys(body).filter((k) => !CUBESQL_KEYS.has(k));
    if (unknown.length)
      return ctx.json(400, { error: `Invalid query format: "${unknown[0]}" is not allowed` });
    if (body.query === undefined)
      return ctx.json(400, { error: 'Invalid query format: "query" is required' });
    if (typeof body.query !== 'string')
      return ctx.json(400, { error: 'Invalid query format: "query" must be a string' });
    if (!body.query.trim())
      return ctx.json(400, { error: 'Invalid query format: "query" is not allowed to be empty' });
    record(ctx);
    const model = await modelOf(ctx);
    if (!model) return;
    const engine = await engineOf(ctx);
    const sql = body.query;
    const isSlow =
      /MEASURE\s*\(\s*(?:orders\.)?slow_count\s*\)/i.test(sql) || /\/\*\s*slow\s*\*\//i.test(sql);
    if (isSlow) {
      const key = slowKey(ctx, body);
      if (body.throwContinueWait === true) {
        const go = await slowRound(ctx, key, () => ctx.ndjson([{ error: 'Continue wait' }]));
        if (!go) return;
      } else {
        // Without throwContinueWait the request is held until the query is done.
        await hold(slow.remaining(key, deps.continueWaitMs), ctx.signal);
        slow.done(key);
        if (ctx.signal.aborted) return;
      }
    }
    let stmt: Statement;
    try {
      stmt = engine.prepare(rewriteMeasures(sql, model));
    } catch (e) {
      const message = e instanceof Error ? e.message : String(e);
      return ctx.json(400, { error: `Error during planning: ${message}` });
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
