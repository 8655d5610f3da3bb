// RequestContext for the sandbox's routes: JSON and NDJSON responses with the active faults
// applied in one place.
import type { FaultRule } from './faults';
import { writeChunk, type RequestContext } from './http';

/** What the server knows of a request before routing it (the context adds the responses). */
export type ContextInit = Pick<
  RequestContext,
  'req' | 'res' | 'family' | 'method' | 'path' | 'query' | 'body' | 'credential' | 'requestId'
> &
  Partial<Pick<RequestContext, 'deploymentId' | 'devBranch'>> & { fault: FaultRule | undefined };

/** A request's context before routing: its path parameters are set once a route matches. */
export interface SandboxContext extends Omit<RequestContext, 'params'> {
  params: Record<string, string>;
  readonly fault: FaultRule | undefined;
  /** Latency and an overriding status from the fault rule; true when the fault answered. */
  preflight(): Promise<boolean>;
}

// The listener goes when the wait ends: a dripped stream sleeps once a line on the same signal.
const sleep = (ms: number, signal?: AbortSignal) =>
  new Promise<void>((resolve) => {
    if (ms <= 0 || signal?.aborted) return resolve();
    const onAbort = () => {
      clearTimeout(t);
      resolve();
    };
    const t = setTimeout(() => {
      signal?.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    signal?.addEventListener('abort', onAbort, { once: true });
  });

export function createContext(init: ContextInit): SandboxContext {
  const { res, requestId, fault: f } = init;
  const abort = new AbortController();
  const signal = abort.signal;
  res.on('close', () => {
    if (!res.writableFinished) abort.abort();
  });

  const write = (status: number, text: string | Buffer, headers: Record<string, string>): void => {
    if (res.headersSent || res.destroyed) return;
    if (f?.resetMidBody) {
      res.writeHead(status, {
        'content-type': 'application/json',
        'x-request-id': requestId,
        'content-length': String(Buffer.byteLength(text)),
        ...headers,
      });
      const half = Math.floor(text.length / 2);
      res.write(typeof text === 'string' ? text.slice(0, half) : text.subarray(0, half));
      res.socket?.destroy();
      return;
    }
    res.writeHead(status, { 'content-type': 'application/json', 'x-request-id': requestId, ...headers });
    res.end(text);
  };
  const json = async (status: number, body: unknown, headers: Record<string, string> = {}) =>
    write(status, JSON.stringify(body), headers);

  return {
    ...init,
    params: {},
    signal,
    async preflight() {
      if (!f) return false;
      if (f.latencyMs) await sleep(f.latencyMs, signal);
      if (f.status === undefined) return false;
      const headers: Record<string, string> = {};
      if (f.retryAfterSeconds !== undefined) headers['retry-after'] = String(f.retryAfterSeconds);
      write(f.status, JSON.stringify(f.body ?? { error: `Injected fault: HTTP ${f.status}` }), headers);
      return true;
    },
    json,
    async bytes(status, body, headers) {
      write(status, body, { 'content-length': String(body.length), ...headers });
    },
    async noContent() {
      res.writeHead(204, { 'x-request-id': requestId }).end();
    },
    error: (status, message, extra = {}) => json(status, { error: message, requestId, ...extra }),
    async ndjson(lines) {
      res.writeHead(200, {
        'content-type': 'application/json',
        'x-request-id': requestId,
        'cache-control': 'no-cache',
      });
      res.flushHeaders();
      let n = 0;
      for await (const value of lines as AsyncIterable<unknown>) {
        if (signal.aborted || res.destroyed) return;
        n++;
        let text = `${JSON.stringify(value)}\n`;
        if (f?.malformedNdjson && n === 2) text = '{"data": [["broken",\n';
        if (f?.truncateNdjson && n === 2) {
          res.end(text.slice(0, Math.max(1, Math.floor(text.length / 2))));
          return;
        }
        if (f?.resetMidBody && n === 2) {
          res.write(text.slice(0, Math.floor(text.length / 2)));
          res.socket?.destroy();
          return;
        }
        await writeChunk(res, text);
        if (f?.dripMs) await sleep(f.dripMs, signal);
      }
      if (!res.destroyed) res.end();
    },
  };
}
