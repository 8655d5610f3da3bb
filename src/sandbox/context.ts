// RequestContext for the sandbox's routes: JSON and NDJSON responses with the active faults
// applied in one place.
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { FaultRule } from './faults';
import type { Family, Method, RequestContext } from './http';

export interface ContextInit {
  req: IncomingMessage;
  res: ServerResponse;
  family: Family;
  method: Method;
  path: string;
  query: URLSearchParams;
  body: unknown;
  credential: string | undefined;
  requestId: string;
  fault: FaultRule | undefined;
  deploymentId?: number;
  devBranch?: string;
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

export class SandboxContext implements RequestContext {
  readonly req: IncomingMessage;
  readonly res: ServerResponse;
  readonly family: Family;
  readonly method: Method;
  readonly path: string;
  readonly query: URLSearchParams;
  params: Record<string, string> = {};
  readonly body: unknown;
  readonly credential: string | undefined;
  readonly requestId: string;
  readonly deploymentId?: number;
  readonly devBranch?: string;
  readonly fault: FaultRule | undefined;
  private readonly abort = new AbortController();

  constructor(init: ContextInit) {
    this.req = init.req;
    this.res = init.res;
    this.family = init.family;
    this.method = init.method;
    this.path = init.path;
    this.query = init.query;
    this.body = init.body;
    this.credential = init.credential;
    this.requestId = init.requestId;
    this.fault = init.fault;
    this.deploymentId = init.deploymentId;
    this.devBranch = init.devBranch;
    init.res.on('close', () => {
      if (!init.res.writableFinished) this.abort.abort();
    });
  }

  get signal(): AbortSignal {
    return this.abort.signal;
  }

  /** Latency and an overriding status from the fault rule; true when the fault answered. */
  async preflight(): Promise<boolean> {
    const f = this.fault;
    if (!f) return false;
    if (f.latencyMs) await sleep(f.latencyMs, this.signal);
    if (f.status !== undefined) {
      const headers: Record<string, string> = {};
      if (f.retryAfterSeconds !== undefined) headers['retry-after'] = String(f.retryAfterSeconds);
      const body = f.body ?? { error: `Injected fault: HTTP ${f.status}` };
      this.write(f.status, JSON.stringify(body), headers);
      return true;
    }
    return false;
  }

  async json(status: number, body: unknown, headers: Record<string, string> = {}): Promise<void> {
    this.write(status, JSON.stringify(body), headers);
  }

  async bytes(status: number, body: Buffer, headers: Record<string, string>): Promise<void> {
    this.write(status, body, { 'content-length': String(body.length), ...headers });
  }

  async noContent(): Promise<void> {
    this.res.writeHead(204, { 'x-request-id': this.requestId }).end();
  }

  async error(status: number, message: string, extra: Record<string, unknown> = {}): Promise<void> {
    await this.json(status, { error: message, requestId: this.requestId, ...extra });
  }

  async ndjson(lines: AsyncIterable<unknown> | Iterable<unknown>): Promise<void> {
    const res = this.res;
    const f = this.fault;
    res.writeHead(200, {
      'content-type': 'application/json',
      'x-request-id': this.requestId,
      'cache-control': 'no-cache',
    });
    res.flushHeaders();
    let n = 0;
    for await (const value of lines as AsyncIterable<unknown>) {
      if (this.signal.aborted || res.destroyed) return;
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
      if (!res.write(text)) {
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
      if (f?.dripMs) await sleep(f.dripMs, this.signal);
    }
    if (!res.destroyed) res.end();
  }

  private write(status: number, text: string | Buffer, headers: Record<string, string>): void {
    const res = this.res;
    if (res.headersSent || res.destroyed) return;
    if (this.fault?.resetMidBody) {
      res.writeHead(status, {
        'content-type': 'application/json',
        'x-request-id': this.requestId,
        'content-length': String(Buffer.byteLength(text)),
        ...headers,
      });
      const half = Math.floor(text.length / 2);
      res.write(typeof text === 'string' ? text.slice(0, half) : text.subarray(0, half));
      res.socket?.destroy();
      return;
    }
    res.writeHead(status, { 'content-type': 'application/json', 'x-request-id': this.requestId, ...headers });
    res.end(text);
  }
}
