// The sandbox agent's view of the semantic layer: it reads /v1/meta and runs /v1/load on the
// sandbox's own Data API over HTTP, as the hosted agent talks to a deployment's Data API. So the
// agent sees what any client sees (the model a branch serves, rollups, the engine's annotation)
// and never reaches into the data engine's internals.
import { MetaSchema, type LoadQuery, type Meta } from '../../api/schemas/data';

/** One /v1/load result as the agent reads it (the single result, or the first of `results`). */
export interface LoadAnswer {
  data: Record<string, unknown>[];
  annotation: Record<string, Record<string, unknown>>;
  total?: number | null;
  /** The engine's `usedPreAggregations` (table -> {preAggregationId, lastUpdatedAt, type}), if any. */
  usedPreAggregations?: Record<string, unknown>;
  lastRefreshTime?: string;
  /** The query as the engine echoed it (normalised by newer engines). */
  query?: Record<string, unknown>;
}

/** A refusal of the Data API (status and the engine's own message). */
export class DataApiError extends Error {
  constructor(
    readonly status: number,
    message: string,
  ) {
    super(message);
  }
}

export interface AgentData {
  /** The model the agent answers from: `branch` in dev mode, else the deployment's. */
  meta(branch: string | undefined, signal: AbortSignal): Promise<Meta>;
  load(query: LoadQuery, branch: string | undefined, signal: AbortSignal): Promise<LoadAnswer>;
}

/** Where the agent's deployment serves its Data API: the origin and a Data API token. */
export interface DataEndpoint {
  origin: string;
  token: string;
  /** Marks the request as the sandbox's own (see ServerDeps.agentKey). */
  agentKey?: string;
}

export function httpAgentData(endpoint: () => DataEndpoint): AgentData {
  const base = (branch: string | undefined) => {
    const { origin } = endpoint();
    return branch === undefined
      ? `${origin}/cubejs-api`
      : `${origin}/dev-mode/${encodeURIComponent(branch)}/cubejs-api`;
  };
  async function call(
    branch: string | undefined,
    path: string,
    init: RequestInit,
    signal: AbortSignal,
  ): Promise<Record<string, unknown>> {
    // "Continue wait" asks to send the same request again until the query is done.
    for (;;) {
      const res = await fetch(`${base(branch)}${path}`, {
        ...init,
        signal,
        headers: {
          authorization: endpoint().token,
          'content-type': 'application/json',
          ...(endpoint().agentKey ? { 'x-sandbox-agent': endpoint().agentKey! } : {}),
        },
      });
      const text = await res.text();
      let body: unknown;
      try {
        body = JSON.parse(text);
      } catch {
        throw new DataApiError(res.status, `The Data API answered ${res.status} with no JSON body.`);
      }
      const obj = (body && typeof body === 'object' ? body : {}) as Record<string, unknown>;
      if (res.status === 200 && obj.error === 'Continue wait') continue;
      if (res.status !== 200 || typeof obj.error === 'string')
        throw new DataApiError(res.status, typeof obj.error === 'string' ? obj.error : `HTTP ${res.status}`);
      return obj;
    }
  }
  return {
    async meta(branch, signal) {
      const body = await call(branch, '/v1/meta?extended', { method: 'GET' }, signal);
      return MetaSchema.parse(body);
    },
    async load(query, branch, signal) {
      const body = await call(
        branch,
        '/v1/load',
        { method: 'POST', body: JSON.stringify({ query }) },
        signal,
      );
      // Older engines answer the multi envelope; newer ones the single result.
      const results = body.results;
      const one = (Array.isArray(results) ? results[0] : body) as Record<string, unknown> | undefined;
      if (!one || !Array.isArray(one.data))
        throw new DataApiError(200, 'The Data API answered /v1/load without data.');
      return {
        data: one.data as Record<string, unknown>[],
        annotation: (one.annotation ?? {}) as LoadAnswer['annotation'],
        total: typeof one.total === 'number' ? one.total : null,
        ...(one.usedPreAggregations && typeof one.usedPreAggregations === 'object'
          ? { usedPreAggregations: one.usedPreAggregations as Record<string, unknown> }
          : {}),
        ...(typeof one.lastRefreshTime === 'string' ? { lastRefreshTime: one.lastRefreshTime } : {}),
        ...(one.query && typeof one.query === 'object'
          ? { query: one.query as Record<string, unknown> }
          : {}),
      };
    },
  };
}
