// The sandbox's tiny router and the request context its three API families share. Faults, auth
// and NDJSON writing live behind `RequestContext` so that every route gets them the same way.
import type { IncomingMessage, ServerResponse } from 'node:http';
import { operationOf, type OperationRow } from './operationCheck';

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
  /** Bytes of a given type (a rendered file), with the active faults applied like `json`'s. */
  bytes(status: number, body: Buffer, headers: Record<string, string>): Promise<void>;
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

/** Writes a chunk; when the socket's buffer is full, waits until it drains or the client goes away. */
export async function writeChunk(res: ServerResponse, chunk: string | Buffer): Promise<void> {
  if (res.write(chunk)) return;
  await new Promise<void>((resolve) => {
    const done = () => {
      res.off('drain', done);
      res.off('close', done);
      resolve();
    };
    res.on('drain', done);
    res.on('close', done);
  });
}

interface Route {
  family: Family;
  method: Method;
  segments: string[];
  handler: Handler;
  produces: readonly string[];
  /** The operation-table row of a platform route, whose input is checked before the handler runs. */
  operation?: OperationRow;
}

const JSON_ONLY: readonly string[] = ['application/json'];

/**
 * The media types of a route's success answer where the published documents list more than JSON
 * (or none: an answer without a body). A contract test holds every route to its document.
 */
export const SERVES: Readonly<Record<string, readonly string[]>> = {
  'platform GET /v1/deployments/:deploymentId/dashboard-exports/:jobId/download': [
    'application/pdf',
    'image/png',
  ],
  // The document lists text/html beside JSON for the stream; its lines are JSON either way.
  'ai POST /chat/stream-chat-state': ['application/json', 'text/html'],
};

export class Router {
  private readonly routes: Route[] = [];

  /** `produces`: the media types the route serves (SERVES, else JSON). */
  add(family: Family, method: Method, pattern: string, handler: Handler, produces?: readonly string[]): this {
    const segments = split(pattern);
    const key = `${family} ${method} /${segments.join('/')}`;
    const operation = family === 'platform' ? operationOf(method, segments) : undefined;
    this.routes.push({
      family,
      method,
      segments,
      handler,
      produces: produces ?? SERVES[key] ?? JSON_ONLY,
      ...(operation ? { operation } : {}),
    });
    return this;
  }

  /** Every route as `family METHOD /pattern` and what it serves (contract tests check each is published). */
  list(): {
    family: Family;
    method: Method;
    pattern: string;
    produces: readonly string[];
    operation?: OperationRow;
  }[] {
    return this.routes.map((r) => ({
      family: r.family,
      method: r.method,
      pattern: `/${r.segments.join('/')}`,
      produces: r.produces,
      ...(r.operation ? { operation: r.operation } : {}),
    }));
  }

  /** Finds the handler for a family-relative path; `undefined` when no route matches. */
  match(
    family: Family,
    method: string,
    path: string,
  ):
    | {
        handler: Handler;
        params: Record<string, string>;
        produces: readonly string[];
        operation?: OperationRow;
      }
    | 'methodNotAllowed'
    | undefined {
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
      if (route.method === method)
        return { handler: route.handler, params, produces: route.produces, operation: route.operation };
    }
    return pathMatched ? 'methodNotAllowed' : undefined;
  }
}

interface MediaRange {
  type: string;
  subtype: string;
  q: number;
}

function parseAccept(header: string): MediaRange[] {
  const out: MediaRange[] = [];
  for (const part of header.split(',')) {
    const [range, ...params] = part.split(';').map((p) => p.trim());
    const m = /^([\w.+*-]+)\/([\w.+*-]+)$/.exec(range ?? '');
    if (!m) continue;
    let q = 1;
    for (const p of params) {
      const qm = /^q\s*=\s*([\d.]+)$/i.exec(p);
      if (qm) q = Math.min(1, Number(qm[1]) || 0);
    }
    out.push({ type: m[1]!.toLowerCase(), subtype: m[2]!.toLowerCase(), q });
  }
  return out;
}

/**
 * HTTP content negotiation (RFC 9110 12.5.1) of an `Accept` header against what a route serves: the
 * served type the client prefers, `null` when it accepts none of them (406), or the first served
 * type when the client states no preference. The most specific range decides a type's weight, so
 * `*\/*, application/json;q=0` refuses JSON.
 */
export function negotiate(accept: string | undefined, produces: readonly string[]): string | null {
  if (produces.length === 0) return null;
  if (!accept?.trim()) return produces[0]!;
  const ranges = parseAccept(accept);
  if (ranges.length === 0) return produces[0]!;
  let best: { type: string; q: number } | undefined;
  for (const type of produces) {
    const [t, sub] = type.toLowerCase().split('/') as [string, string];
    const match = ranges
      .filter((r) => (r.type === '*' || r.type === t) && (r.subtype === '*' || r.subtype === sub))
      .sort((a, b) => specificity(b) - specificity(a))[0];
    if (match && match.q > 0 && (!best || match.q > best.q)) best = { type, q: match.q };
  }
  return best?.type ?? null;
}

const specificity = (r: MediaRange) => (r.type === '*' ? 0 : r.subtype === '*' ? 1 : 2);

function split(path: string): string[] {
  return path.split('/').filter((s) => s.length > 0);
}
