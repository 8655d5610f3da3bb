// Small loopback servers and iterator helpers for the API client tests.
import * as http from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import * as assert from 'node:assert/strict';
import { DataClient, type DataClientOptions } from '../../../src/api/dataClient';
import { PlatformClient } from '../../../src/api/platformClient';
import { isApiError, type ApiError } from '../../../src/api/errors';
import { HttpClient, type HttpClientOptions } from '../../../src/api/http';
import { DispatcherRegistry } from '../../../src/api/net/agents';

export interface Recorded {
  method: string;
  url: string;
  headers: http.IncomingHttpHeaders;
  body: string;
  remotePort: number | undefined;
}

export interface TestServer {
  url: string;
  port: number;
  requests: Recorded[];
  /** Errors thrown by the handler (an assertion in a handler must fail the test). */
  errors: unknown[];
  /** Closes the server; rejects with the first handler error, if any. */
  close(): Promise<void>;
}

export type Handler = (
  req: http.IncomingMessage,
  res: http.ServerResponse,
  body: string,
  n: number,
) => unknown;

/** A node:http server on 127.0.0.1:0 that records each request (with its body) before handling it. */
export async function startServer(handler: Handler): Promise<TestServer> {
  const requests: Recorded[] = [];
  const errors: unknown[] = [];
  const sockets = new Set<Socket>();
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const body = Buffer.concat(chunks).toString('utf8');
      requests.push({
        method: req.method ?? '',
        url: req.url ?? '',
        headers: req.headers,
        body,
        remotePort: req.socket.remotePort,
      });
      Promise.resolve()
        .then(() => handler(req, res, body, requests.length))
        .catch((e: unknown) => {
          errors.push(e);
          res.destroy();
        });
    });
  });
  server.on('connection', (s) => {
    sockets.add(s);
    s.on('close', () => sockets.delete(s));
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const port = (server.address() as AddressInfo).port;
  return {
    url: `http://127.0.0.1:${port}`,
    port,
    requests,
    errors,
    close: () =>
      new Promise<void>((resolve, reject) => {
        for (const s of sockets) s.destroy();
        server.close(() => (errors.length > 0 ? reject(errors[0] as Error) : resolve()));
      }),
  };
}

export function sendJson(
  res: http.ServerResponse,
  status: number,
  body: unknown,
  headers: Record<string, string> = {},
): void {
  const text = JSON.stringify(body);
  res.writeHead(status, {
    'content-type': 'application/json',
    'content-length': Buffer.byteLength(text),
    ...headers,
  });
  res.end(text);
}

export async function collect<T>(it: AsyncIterable<T>): Promise<T[]> {
  const out: T[] = [];
  for await (const x of it) out.push(x);
  return out;
}

/**
 * For the suite it is called in: a loopback server answering every request with what `reply` last
 * set (200 {} at first), and a PlatformClient on it (`/api`, token `tok-p`); both ready from `before`.
 */
export function answeringPlatform(retry = { retries: 3, baseDelayMs: 1, maxDelayMs: 2 }) {
  let answer: [number, unknown] = [200, {}];
  const on = {
    s: undefined as unknown as TestServer,
    client: undefined as unknown as PlatformClient,
    reply: (status: number, body: unknown) => void (answer = [status, body]),
    /** The one request sent since `from` (there must be exactly one). */
    onlyRequestSince(from: number): Recorded {
      const sent = on.s.requests.slice(from);
      assert.equal(sent.length, 1, 'one request');
      return sent[0]!;
    },
  };
  before(async () => {
    on.s = await startServer((_req, res) => sendJson(res, answer[0], answer[1]));
    on.client = new PlatformClient({
      baseUrl: `${on.s.url}/api`,
      token: () => Promise.resolve('tok-p'),
      retry,
    });
  });
  after(async () => {
    await on.client.close();
    await on.s.close();
  });
  return on;
}

/** Runs `fn` and returns what it threw (fails when it does not throw). */
export async function rejection(fn: () => Promise<unknown>): Promise<unknown> {
  try {
    await fn();
  } catch (e) {
    return e;
  }
  throw new Error('expected a rejection');
}

/** The ApiError that `call` (a promise, or a function making one) failed with; fails the test otherwise. */
export async function apiFailure(call: Promise<unknown> | (() => Promise<unknown>)): Promise<ApiError> {
  const e = await rejection(typeof call === 'function' ? call : () => call);
  assert.ok(isApiError(e), `expected an ApiError, got ${String(e)}`);
  return e;
}

/** Fails (instead of hanging the suite) when `p` has not settled within `ms`; never a measure. */
export async function within<T>(ms: number, p: Promise<T>): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  try {
    return await Promise.race([
      p,
      new Promise<never>((_r, reject) => {
        timer = setTimeout(() => reject(new Error(`hung: still running after ${ms} ms`)), ms);
      }),
    ]);
  } finally {
    clearTimeout(timer);
  }
}

/** A platform-family HttpClient to `baseUrl` with the bearer `token` and its own dispatchers. */
export function platformHttp(
  baseUrl: string,
  token: string,
  extra: Partial<HttpClientOptions> = {},
): HttpClient {
  return new HttpClient({
    baseUrl,
    family: 'platform',
    auth: async () => token,
    dispatchers: new DispatcherRegistry({}),
    ...extra,
  });
}

export function deferred<T = void>(): { promise: Promise<T>; resolve(v: T): void } {
  let resolve!: (v: T) => void;
  const promise = new Promise<T>((r) => (resolve = r));
  return { promise, resolve };
}

export const FAST_RETRY = { retries: 3, baseDelayMs: 1, maxDelayMs: 5, maxRetryAfterMs: 5_000 };

/** `bytes` cut at `cuts` (clamped, sorted, repeats dropped), each piece a copy as a socket gives it. */
export async function* chunked(bytes: Uint8Array, cuts: number[]): AsyncGenerator<Uint8Array> {
  const points = [...new Set(cuts.map((c) => Math.min(Math.max(c, 0), bytes.length)))].sort((a, b) => a - b);
  let prev = 0;
  for (const p of [...points, bytes.length]) {
    if (p > prev) yield bytes.slice(prev, p); // a copy, like a socket would give
    prev = p;
  }
}

/** A JSON call with a bearer token to `base` + path: its status and parsed body. */
export function jsonCaller(base: () => string, token: () => string) {
  return async (method: string, path: string, body?: unknown) => {
    const res = await fetch(`${base()}${path}`, {
      method,
      headers: {
        authorization: `Bearer ${token()}`,
        ...(body !== undefined ? { 'content-type': 'application/json' } : {}),
      },
      body: body !== undefined ? JSON.stringify(body) : undefined,
    });
    // eslint-disable-next-line @typescript-eslint/no-explicit-any -- JSON answers walked by path in assertions
    return { status: res.status, body: (await res.json()) as Record<string, any> };
  };
}

/** Runs `fn` against a server answering with `handler`, and closes the server whatever happens. */
export async function withServer<T>(handler: Handler, fn: (s: TestServer) => Promise<T>): Promise<T> {
  const s = await startServer(handler);
  try {
    return await fn(s);
  } finally {
    await s.close();
  }
}

/** A deployment JWT as the Data API takes it (raw, no scheme). */
export const DATA_JWT = 'eyJhbGciOiJIUzI1NiJ9.eyJkZXBsb3ltZW50SWQiOjF9.c2lnbmF0dXJlLXNpZ25hdHVyZQ';

/** A DataClient against a test server's /cubejs-api, retrying fast; `extra` overrides any option. */
export function dataClientFor(s: TestServer, extra: Partial<DataClientOptions> = {}): DataClient {
  return new DataClient({
    baseUrl: s.url + '/cubejs-api',
    token: async () => DATA_JWT,
    retry: FAST_RETRY,
    dispatchers: new DispatcherRegistry({}),
    ...extra,
  });
}

/** The head of a streamed (chunked) NDJSON answer, as /v1/cubesql sends it. */
export function ndjsonHead(res: http.ServerResponse): void {
  res.writeHead(200, { 'content-type': 'application/json', 'transfer-encoding': 'chunked' });
}

/**
 * An answer that streams rows until the client goes away: the schema line, then a data line every
 * 2 ms; `onClose` runs when the connection closes (what cancel and early-stop tests wait for).
 */
export function endlessRows(res: http.ServerResponse, onClose: () => void): void {
  ndjsonHead(res);
  res.write('{"schema":[{"name":"a","column_type":"Int64"}]}\n');
  const timer = setInterval(() => res.write('{"data":[["1"],["2"]]}\n'), 2);
  res.on('close', () => {
    clearInterval(timer);
    onClose();
  });
}

/**
 * A platform client against a local server answering with `handler`, closed (with the server)
 * after `fn`; `warnings` collects what the client's logger warned.
 */
export async function withPlatformClient(
  handler: Handler,
  fn: (c: PlatformClient, s: TestServer, warnings: string[]) => Promise<void>,
  token = 'tok-test',
): Promise<void> {
  const s = await startServer(handler);
  const warnings: string[] = [];
  const logger = { debug() {}, info() {}, warn: (m: string) => void warnings.push(m), error() {} };
  const c = new PlatformClient({
    baseUrl: `${s.url}/api`,
    token: async () => token,
    retry: FAST_RETRY,
    logger,
  });
  try {
    await fn(c, s, warnings);
  } finally {
    await c.close();
    await s.close();
  }
}
