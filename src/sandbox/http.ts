// The sandbox's tiny router and the request context its three API families share. Faults, auth
// and NDJSON writing live behind `RequestContext` so that every route gets them the same way.
import type { IncomingMessage, ServerResponse } from 'node:http';

export type Family = 'platform' | 'data' | 'ai' | 'control';
export type Method = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';

/** Faults a route acts out (the others are applied to the response by the context). */
export interface RouteFault {
  /** After a build API file write, another user's write of these files to the same branch. */
  concurrentWrite?: readonly { path: string; content: string }[];
}

export interface RequestContext {
  readonly req: IncomingMessage;
  readonly res: ServerResponse;
  readonly family: Family;
  readonly method: Method;
  /** Path relative to the family's base (e.g. `/v1/deployments/1/reports`). */
  readonly path: string;
  readonly query: URLSearchParams;
  /** Path parameters from `:name` segments of the route pattern. */
  readonly params: Record<string, string>;
  /** Parsed JSON body (undefined for an empty body). An unparsable body is answered 400 before routing. */
  readonly body: unknown;
  /** The raw credential from the Authorization header, scheme stripped by family rules. */
  readonly credential: string | undefined;
  /** Request id from `x-request-id` (or a generated one). */
  readonly requestId: string;
  /** Data API: the deployment whose data answers (its own host, or the token's claim on the shared host). */
  readonly deploymentId?: number;
  /** Data API under `/dev-mode/{branch}/cubejs-api`: the branch whose model answers. */
  readonly devBranch?: string;
  /** The parts of this request's fault rule (faults.ts) that a route acts out itself. */
  readonly fault?: RouteFault;
  /** A JSON response (applies the active faults: latency, status override, reset). */
  json(status: number, body: unknown, headers?: Record<string, string>): Promise<void>;
  /** A 204 response. */
  noContent(): Promise<void>;
  /** An error response in the family's shape (`{"error": message}` plus extra fields). */
  error(status: number, message: string, extra?: Record<string, unknown>): Promise<void>;
  /**
   * Streams NDJSON lines (one JSON value each) with chunked encoding and `application/json`, applying
   * the stream faults (drip, truncated or malformed line, reset mid body). Stops early when the client
   * goes away; `signal` is aborted then.
   */
  ndjson(lines: AsyncIterable<unknown> | Iterable<unknown>): Promise<void>;
  /** Aborted when the client disconnects. */
  readonly signal: AbortSignal;
}

export type Handler = (ctx: RequestContext) => Promise<void>;

interface Route {
  family: Family;
  method: Method;
  segments: string[];
  handler: Handler;
}

export class Router {
  private readonly routes: Route[] = [];

  add(family: Family, method: Method, pattern: string, handler: Handler): this {
    this.routes.push({ family, method, segments: split(pattern), handler });
    return this;
  }

  /** Every route as `family METHOD /pattern` (contract tests check each is published and exercised). */
  list(): { family: Family; method: Method; pattern: string }[] {
    return this.routes.map((r) => ({
      family: r.family,
      method: r.method,
      pattern: `/${r.segments.join('/')}`,
    }));
  }

  /** Finds the handler for a family-relative path; `undefined` when no route matches. */
  match(
    family: Family,
    method: string,
    path: string,
  ): { handler: Handler; params: Record<string, string> } | 'methodNotAllowed' | undefined {
    const parts = split(path);
    let pathMatched = false;
    for (const route of this.routes) {
      if (route.family !== family || route.segments.length !== parts.length) continue;
      const params: Record<string, string> = {};
      const ok = route.segments.every((seg, i) => {
        if (seg.startsWith(':')) {
          params[seg.slice(1)] = decodeURIComponent(parts[i]!);
          return true;
        }
        return seg === parts[i];
      });
      if (!ok) continue;
      pathMatched = true;
      if (route.method === method) return { handler: route.handler, params };
    }
    return pathMatched ? 'methodNotAllowed' : undefined;
  }
}

function split(path: string): string[] {
  return path.split('/').filter((s) => s.length > 0);
}
