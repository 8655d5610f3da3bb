// The transport shared by the three clients: URL and scheme checks, the family's auth header,
// shared keep-alive dispatchers, timeouts, cancellation, safe retries and error mapping.
import { randomUUID } from 'node:crypto';
import { request as undiciRequest, type Dispatcher } from 'undici';
import type { ZodType } from 'zod';
import {
  ApiError,
  errorFromResponse,
  errorFromTransport,
  isApiError,
  isConnectionReset,
  safeUrl,
  type ApiFamily,
  type ErrorHints,
  zodProtocolError,
} from './errors';
import { redact, redactingLogger, silentLogger, type ApiLogger } from './log';
import { sharedDispatchers, type DispatcherLease, type DispatcherRegistry } from './net/agents';
import { lenientRequest } from './net/lenient';
import { isLoopbackHost, type NetworkSettings } from './net/network';

export type { NetworkSettings } from './net/network';

export interface RetryPolicy {
  retries: number;
  baseDelayMs: number;
  maxDelayMs: number;
  /** A Retry-After longer than this is not waited for: the 429 is returned to the caller. */
  maxRetryAfterMs?: number;
}

export interface HttpClientOptions {
  baseUrl: string;
  family: ApiFamily;
  /** The credential, without scheme. */
  auth: () => Promise<string | undefined>;
  network?: NetworkSettings;
  logger?: ApiLogger;
  userAgent?: string;
  retry?: RetryPolicy;
  /** Where dispatchers are shared; defaults to one registry for the whole process. */
  dispatchers?: DispatcherRegistry;
}

export type QueryValue =
  string | number | boolean | null | undefined | readonly (string | number | boolean)[];

export interface RequestOptions extends ErrorHints {
  method: string;
  /** Relative to the base URL (`/v1/deployments`). */
  path: string;
  query?: Record<string, QueryValue>;
  /** JSON-serialised unless a string or bytes. */
  body?: unknown;
  signal?: AbortSignal;
  /** Safe to retry; GET and HEAD are by default. */
  idempotent?: boolean;
  headers?: Record<string, string>;
  /** Limit for the whole call, body included. */
  timeoutMs?: number;
  /** The `x-request-id` to send (one is generated otherwise). */
  requestId?: string;
}

export interface HttpResponse {
  status: number;
  headers: Headers;
  body: AsyncIterable<Uint8Array>;
  requestId?: string;
  url: string;
}

export const DEFAULT_RETRY: RetryPolicy = {
  retries: 3,
  baseDelayMs: 300,
  maxDelayMs: 10_000,
  maxRetryAfterMs: 60_000,
};

const RETRY_STATUSES = new Set([429, 502, 503, 504]);
const MAX_ERROR_BODY = 64 * 1024;

export function authHeader(family: ApiFamily, credential: string): string {
  switch (family) {
    case 'platform':
      return `Bearer ${credential}`;
    case 'ai':
      return `Api-Key ${credential}`;
    case 'data':
      return credential;
  }
}

/** Retry-After in milliseconds (delta seconds or an HTTP date), or undefined. */
export function parseRetryAfter(value: string | null | undefined, now = Date.now()): number | undefined {
  if (!value) return undefined;
  const v = value.trim();
  if (/^\d+(\.\d+)?$/.test(v)) return Math.round(Number(v) * 1000);
  const t = Date.parse(v);
  return Number.isNaN(t) ? undefined : Math.max(0, t - now);
}

/** Exponential backoff with full jitter: a random delay in [0, min(max, base * 2^attempt)). */
export function backoffDelay(attempt: number, policy: RetryPolicy, random = Math.random): number {
  const cap = Math.min(policy.maxDelayMs, policy.baseDelayMs * 2 ** attempt);
  return Math.floor(random() * cap);
}

/** Resolves after `ms`, or rejects with a 'cancelled' ApiError when `signal` aborts. */
export function sleep(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) return reject(cancelledError());
    const timer = setTimeout(() => {
      signal?.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    const onAbort = (): void => {
      clearTimeout(timer);
      reject(cancelledError());
    };
    signal?.addEventListener('abort', onAbort, { once: true });
  });
}

export function cancelledError(): ApiError {
  return new ApiError('cancelled', 'The request was cancelled.', { code: 'ABORTED' });
}

/** Builds `base + path + query`; `base` may carry a path (`https://h/api`). */
export function joinUrl(baseUrl: string, path: string, query?: Record<string, QueryValue>): URL {
  const base = baseUrl.replace(/\/+$/, '');
  const url = new URL(base + (path ? '/' + path.replace(/^\/+/, '') : ''));
  for (const [k, v] of Object.entries(query ?? {})) {
    if (v === undefined || v === null) continue;
    if (Array.isArray(v)) for (const item of v) url.searchParams.append(k, String(item));
    else url.searchParams.set(k, String(v));
  }
  return url;
}

/** Throws a 'validation' ApiError unless `url` is HTTPS, or HTTP to a loopback host. */
export function assertAllowedUrl(url: URL): void {
  if (url.protocol === 'https:') return;
  if (url.protocol === 'http:' && isLoopbackHost(url.hostname)) return;
  if (url.protocol === 'http:') {
    throw new ApiError(
      'validation',
      `Refusing to send credentials over plain HTTP to ${url.host}. Use an https:// URL in the profile (http:// is only allowed for localhost).`,
      { url: url.toString(), code: 'INSECURE_URL' },
    );
  }
  throw new ApiError('validation', `Unsupported URL scheme "${url.protocol}". Use an https:// URL.`, {
    url: url.toString(),
    code: 'BAD_URL',
  });
}

type Consume<T> = (res: HttpResponse) => Promise<T>;

export class HttpClient {
  readonly family: ApiFamily;
  readonly baseUrl: string;
  private readonly opts: HttpClientOptions;
  private readonly retry: RetryPolicy;
  private readonly log: ApiLogger;
  private lease: DispatcherLease | undefined;
  private lastCredential: string | undefined;
  private closed = false;

  constructor(opts: HttpClientOptions) {
    this.opts = opts;
    this.family = opts.family;
    this.baseUrl = opts.baseUrl;
    this.retry = { ...DEFAULT_RETRY, ...opts.retry };
    this.log = redactingLogger(opts.logger ?? silentLogger, () => [this.lastCredential]);
  }

  /** A streaming request: resolves on a 2xx response with its body still to be read. */
  request(opts: RequestOptions): Promise<HttpResponse> {
    return this.send(opts, async (res) => res);
  }

  /** A JSON request parsed with `schema`. Non-2xx -> ApiError; a schema failure -> 'protocol'. */
  json<T>(opts: RequestOptions, schema: ZodType<T>): Promise<T> {
    return this.send(opts, async (res) => {
      const text = await readText(res.body);
      let value: unknown = undefined;
      if (text.trim()) {
        try {
          value = JSON.parse(text);
        } catch {
          throw new ApiError('protocol', `The server sent invalid JSON for ${opts.method} ${opts.path}.`, {
            status: res.status,
            requestId: res.requestId,
            method: opts.method,
            url: res.url,
          });
        }
      }
      const parsed = schema.safeParse(value);
      if (!parsed.success) throw zodProtocolError(parsed.error, `${opts.method} ${opts.path}`, res.requestId);
      return parsed.data;
    });
  }

  /** A request whose body is ignored (204 and friends). */
  async noContent(opts: RequestOptions): Promise<number> {
    return this.send(opts, async (res) => {
      for await (const _chunk of res.body) {
        // drain
      }
      return res.status;
    });
  }

  async close(): Promise<void> {
    this.closed = true;
    const lease = this.lease;
    this.lease = undefined;
    await lease?.release();
  }

  private dispatcher(url: URL): DispatcherLease {
    if (!this.lease) {
      this.lease = (this.opts.dispatchers ?? sharedDispatchers).acquire(
        new URL(url.origin),
        this.opts.network,
      );
      for (const w of this.lease.warnings) this.log.warn(w);
    }
    return this.lease;
  }

  private async send<T>(opts: RequestOptions, consume: Consume<T>): Promise<T> {
    const method = opts.method.toUpperCase();
    let url: URL;
    try {
      url = joinUrl(this.baseUrl, opts.path, opts.query);
    } catch {
      throw new ApiError(
        'validation',
        `The URL "${safeUrl(this.baseUrl)}" is not valid. Fix it in the profile.`,
        {
          code: 'BAD_URL',
        },
      );
    }
    assertAllowedUrl(url);
    if (this.closed)
      throw new ApiError('cancelled', 'The client was closed.', { method, url: url.toString() });
    if (opts.signal?.aborted) throw cancelledError();
    const credential = await this.opts.auth();
    if (!credential) {
      const what = this.family === 'ai' ? 'API key' : this.family === 'data' ? 'Data API token' : 'token';
      throw new ApiError('auth', `No ${what} is set. Add one to the profile.`, {
        method,
        url: url.toString(),
      });
    }
    this.lastCredential = credential;
    const idempotent = opts.idempotent ?? (method === 'GET' || method === 'HEAD');
    const requestId = opts.requestId ?? randomUUID();
    const headers: Record<string, string> = {
      accept: 'application/json',
      'user-agent': this.opts.userAgent ?? 'dashboard-platform-vscode',
      'x-request-id': requestId,
      ...lowerKeys(opts.headers),
      authorization: authHeader(this.family, credential),
    };
    let body: string | Uint8Array | undefined;
    if (opts.body !== undefined) {
      if (typeof opts.body === 'string' || opts.body instanceof Uint8Array) body = opts.body;
      else {
        body = JSON.stringify(opts.body);
        headers['content-type'] ??= 'application/json';
      }
    }
    const lease = this.dispatcher(url);
    const shownUrl = safeUrl(url.toString());
    const transportCtx = {
      method,
      url: shownUrl,
      origin: url.origin,
      viaProxy: lease.proxy ? safeUrl(lease.proxy) : undefined,
    };

    for (let attempt = 0; ; attempt++) {
      if (opts.signal?.aborted) throw cancelledError();
      const left = idempotent ? this.retry.retries - attempt : 0;
      const call = new CallSignal(opts.signal, opts.timeoutMs);
      this.log.debug(`-> ${method} ${shownUrl} (${requestId}${attempt ? `, retry ${attempt}` : ''})`);
      let raw: Dispatcher.ResponseData;
      try {
        raw = await undiciRequest(url, {
          method: method as Dispatcher.HttpMethod,
          headers,
          body,
          signal: call.signal,
          dispatcher: lease.dispatcher,
        });
      } catch (e) {
        call.done();
        if (isLenientCandidate(e) && idempotent && !lease.proxy) {
          this.log.warn(
            `${shownUrl}: malformed HTTP framing (${String((e as { code?: string }).code)}); re-reading leniently`,
          );
          return this.lenient(url, method, headers, body, opts, consume, requestId);
        }
        const err = errorFromTransport(e, {
          ...transportCtx,
          cancelled: call.cancelled,
          timedOut: call.timedOut,
        });
        if (left > 0 && !call.cancelled && !call.timedOut && isConnectionReset(e)) {
          const delay = backoffDelay(attempt, this.retry);
          this.log.debug(`${shownUrl}: ${err.message} Retrying in ${delay} ms.`);
          await sleep(delay, opts.signal);
          continue;
        }
        throw err;
      }

      const resHeaders = toHeaders(raw.headers);
      const resRequestId = resHeaders.get('x-request-id') ?? requestId;
      const status = raw.statusCode;
      this.log.debug(`<- ${status} ${method} ${shownUrl}`);
      if (status < 200 || status >= 300) {
        const retryAfterMs = parseRetryAfter(resHeaders.get('retry-after'));
        if (left > 0 && RETRY_STATUSES.has(status)) {
          const tooLong =
            retryAfterMs !== undefined && retryAfterMs > (this.retry.maxRetryAfterMs ?? Infinity);
          if (!tooLong) {
            await raw.body.dump().catch(() => undefined);
            call.done();
            const delay = retryAfterMs ?? backoffDelay(attempt, this.retry);
            this.log.debug(`${shownUrl}: ${status}; retrying in ${delay} ms.`);
            await sleep(delay, opts.signal);
            continue;
          }
        }
        let bodyText: string | undefined;
        try {
          bodyText = await readText(raw.body, MAX_ERROR_BODY);
        } catch (e) {
          call.done();
          if (isLenientCandidate(e) && idempotent && !lease.proxy) {
            return this.lenient(url, method, headers, body, opts, consume, requestId);
          }
          if (call.cancelled) throw cancelledError();
        }
        call.done();
        throw errorFromResponse({
          family: this.family,
          status,
          bodyText: bodyText === undefined ? undefined : redact(bodyText, [credential]),
          headerRequestId: resRequestId,
          retryAfterMs,
          method,
          url: shownUrl,
          hints: opts,
        });
      }

      const res: HttpResponse = {
        status,
        headers: resHeaders,
        body: wrapBody(raw.body, call, transportCtx),
        requestId: resRequestId,
        url: shownUrl,
      };
      try {
        return await consume(res);
      } catch (e) {
        call.done();
        if (left > 0 && isApiError(e) && e.kind === 'network' && isConnectionReset(e.cause ?? e)) {
          const delay = backoffDelay(attempt, this.retry);
          this.log.debug(`${shownUrl}: reset while reading the body; retrying in ${delay} ms.`);
          await sleep(delay, opts.signal);
          continue;
        }
        throw e;
      }
    }
  }

  /** Re-sends with Node's lenient parser for servers that send Content-Length with Transfer-Encoding. */
  private async lenient<T>(
    url: URL,
    method: string,
    headers: Record<string, string>,
    body: string | Uint8Array | undefined,
    opts: RequestOptions,
    consume: Consume<T>,
    requestId: string,
  ): Promise<T> {
    const call = new CallSignal(opts.signal, opts.timeoutMs);
    const shownUrl = safeUrl(url.toString());
    const ctx = { method, url: shownUrl, origin: url.origin };
    let res;
    try {
      res = await lenientRequest(url, {
        method,
        headers,
        body,
        signal: call.signal,
        network: this.opts.network,
      });
    } catch (e) {
      call.done();
      throw errorFromTransport(e, { ...ctx, cancelled: call.cancelled, timedOut: call.timedOut });
    }
    const resRequestId = res.headers.get('x-request-id') ?? requestId;
    if (res.status < 200 || res.status >= 300) {
      const bodyText = await readText(res.body, MAX_ERROR_BODY).catch(() => undefined);
      call.done();
      const credential = headers.authorization?.replace(/^(Bearer|Api-Key) /, '');
      throw errorFromResponse({
        family: this.family,
        status: res.status,
        bodyText: bodyText === undefined ? undefined : redact(bodyText, [credential]),
        headerRequestId: resRequestId,
        retryAfterMs: parseRetryAfter(res.headers.get('retry-after')),
        method,
        url: shownUrl,
        hints: opts,
      });
    }
    return consume({
      status: res.status,
      headers: res.headers,
      body: wrapBody(res.body, call, ctx),
      requestId: resRequestId,
      url: shownUrl,
    });
  }
}

function isLenientCandidate(e: unknown): boolean {
  const code = (e as { code?: unknown } | null)?.code;
  return (
    typeof code === 'string' && (code === 'UND_ERR_RES_CONTENT_LENGTH_MISMATCH' || code.startsWith('HPE_'))
  );
}

/** The caller's signal plus an optional timeout, with a record of which one fired. */
export class CallSignal {
  private readonly ctl = new AbortController();
  private timer: NodeJS.Timeout | undefined;
  cancelled = false;
  timedOut = false;
  private readonly onAbort = (): void => {
    this.cancelled = true;
    this.ctl.abort();
  };

  constructor(
    private readonly outer: AbortSignal | undefined,
    readonly timeoutMs: number | undefined,
  ) {
    if (outer?.aborted) this.onAbort();
    else outer?.addEventListener('abort', this.onAbort, { once: true });
    if (timeoutMs !== undefined && timeoutMs > 0) {
      this.timer = setTimeout(() => {
        this.timedOut = true;
        this.ctl.abort();
      }, timeoutMs);
    }
  }

  get signal(): AbortSignal {
    return this.ctl.signal;
  }

  done(): void {
    if (this.timer) clearTimeout(this.timer);
    this.timer = undefined;
    this.outer?.removeEventListener('abort', this.onAbort);
  }
}

async function* wrapBody(
  body: AsyncIterable<Uint8Array>,
  call: CallSignal,
  ctx: { method: string; url: string; origin: string; viaProxy?: string },
): AsyncGenerator<Uint8Array> {
  try {
    for await (const chunk of body) yield chunk;
  } catch (e) {
    throw errorFromTransport(e, { ...ctx, cancelled: call.cancelled, timedOut: call.timedOut });
  } finally {
    call.done();
  }
}

async function readText(body: AsyncIterable<Uint8Array>, limit = Infinity): Promise<string> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of body) {
    if (size < limit) {
      chunks.push(Buffer.from(chunk));
      size += chunk.byteLength;
    }
  }
  const buf = Buffer.concat(chunks);
  return (size > limit ? buf.subarray(0, limit) : buf).toString('utf8');
}

function lowerKeys(h: Record<string, string> | undefined): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [k, v] of Object.entries(h ?? {})) out[k.toLowerCase()] = v;
  return out;
}

function toHeaders(raw: Record<string, string | string[] | undefined>): Headers {
  const h = new Headers();
  for (const [k, v] of Object.entries(raw)) {
    if (v === undefined) continue;
    try {
      if (Array.isArray(v)) for (const item of v) h.append(k, item);
      else h.set(k, v);
    } catch {
      // A header Headers refuses (invalid characters): skip it.
    }
  }
  return h;
}

/** For log lines built outside this file. */
export function describeRequest(method: string, url: string): string {
  return `${method} ${redact(safeUrl(url))}`;
}
