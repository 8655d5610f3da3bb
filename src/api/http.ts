// The transport shared by the three clients: URL and scheme checks, the family's auth header,
// shared keep-alive dispatchers, timeouts, cancellation, safe retries and error mapping. The
// pieces of a call live in net/request.ts and the retry policy in net/retry.ts.
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
  type WriteCheck,
  zodProtocolError,
} from './errors';
import { redact, redactingLogger, rememberSecret, silentLogger, type ApiLogger } from './log';
import { sharedDispatchers, type DispatcherLease, type DispatcherRegistry } from './net/agents';
import { isLenientCandidate, lenientSend } from './net/lenient';
import { type NetworkSettings } from './net/network';
import { abortError, outcomeUnknown, raceAbort, unknownOutcomeError } from './net/outcome';
import {
  assertAllowedUrl,
  authHeader,
  CallSignal,
  joinUrl,
  lowerKeys,
  readText,
  toHeaders,
  wrapBody,
  type QueryValue,
} from './net/request';
import {
  backoffDelay,
  cancelledError,
  DEFAULT_RETRY,
  parseRetryAfter,
  RETRY_STATUSES,
  sleep,
  type RetryPolicy,
} from './net/retry';

export type { NetworkSettings } from './net/network';
export { withCheckCommand } from './net/outcome';
export {
  assertAllowedUrl,
  authHeader,
  CallSignal,
  describeRequest,
  joinUrl,
  type QueryValue,
} from './net/request';
export {
  backoffDelay,
  cancelledError,
  DEFAULT_RETRY,
  parseRetryAfter,
  sleep,
  type RetryPolicy,
} from './net/retry';

const MAX_ERROR_BODY = 64 * 1024;

/**
 * The overall deadline of a call (body included) when the caller gives none: nothing may wait
 * forever. The Data API client sets its own per query.
 */
export const DEFAULT_DEADLINE_MS: Record<ApiFamily, number> = {
  platform: 120_000,
  data: 30 * 60_000,
  ai: 15 * 60_000,
};

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
  /** Overrides DEFAULT_DEADLINE_MS for this client. */
  deadlineMs?: number;
}

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
  /** For writes (non-idempotent calls): how the user can check an unknown outcome. */
  check?: WriteCheck;
}

/** A write: never retried; a failure that leaves its outcome unknown is an 'unknownOutcome' error. */
export type WriteOptions = Omit<RequestOptions, 'idempotent'>;

export interface HttpResponse {
  status: number;
  headers: Headers;
  body: AsyncIterable<Uint8Array>;
  requestId?: string;
  url: string;
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

  /** The one path for writes with a JSON answer (see WriteOptions). */
  write<T>(opts: WriteOptions, schema: ZodType<T>): Promise<T> {
    return this.json({ ...opts, idempotent: false }, schema);
  }

  /** The one path for writes whose answer has no body. */
  writeNoContent(opts: WriteOptions): Promise<number> {
    return this.noContent({ ...opts, idempotent: false });
  }

  /** The one path for writes whose answer is streamed (a chat turn). */
  writeStream(opts: WriteOptions): Promise<HttpResponse> {
    return this.request({ ...opts, idempotent: false });
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
    rememberSecret(credential);
    // Anything not idempotent is a write: sent once, and an unclear failure is an unknown outcome.
    const idempotent = opts.idempotent ?? (method === 'GET' || method === 'HEAD');
    const what = opts.action ?? `${method} ${opts.path}`;
    const unknown = (e: ApiError): ApiError =>
      !idempotent && outcomeUnknown(e) ? unknownOutcomeError(e, what, opts.check) : e;
    const deadline = opts.timeoutMs ?? this.opts.deadlineMs ?? DEFAULT_DEADLINE_MS[this.family];
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
      const call = new CallSignal(opts.signal, deadline);
      this.log.debug(`-> ${method} ${shownUrl} (${requestId}${attempt ? `, retry ${attempt}` : ''})`);
      const started = Date.now();
      let raw: Dispatcher.ResponseData;
      try {
        raw = await raceAbort(
          undiciRequest(url, {
            method: method as Dispatcher.HttpMethod,
            headers,
            body,
            signal: call.signal,
            dispatcher: lease.dispatcher,
          }),
          call.signal,
          abortError,
          () => {
            this.log.warn(`${shownUrl}: the connection did not end on abort; closing its pool.`);
            lease.reset();
          },
        );
      } catch (e) {
        call.done();
        if (isLenientCandidate(e) && idempotent && !lease.proxy) {
          this.log.warn(
            `${shownUrl}: malformed HTTP framing (${String((e as { code?: string }).code)}); re-reading leniently`,
          );
          return lenientSend(
            { family: this.family, network: this.opts.network, maxErrorBody: MAX_ERROR_BODY },
            { url, method, headers, body, opts, requestId },
            consume,
          );
        }
        this.log.debug(`<- no response ${method} ${shownUrl} ${Date.now() - started} ms (${requestId})`);
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
        throw unknown(err);
      }

      const resHeaders = toHeaders(raw.headers);
      const resRequestId = resHeaders.get('x-request-id') ?? requestId;
      const status = raw.statusCode;
      // One line a request at debug level (as mssql and Databricks log): method, path, status, duration,
      // request id. The URL is shown without credentials, and the logger redacts every line again.
      this.log.debug(
        `<- ${status} ${method} ${shownUrl} ${Date.now() - started} ms (request id ${resRequestId})`,
      );
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
            return lenientSend(
              { family: this.family, network: this.opts.network, maxErrorBody: MAX_ERROR_BODY },
              { url, method, headers, body, opts, requestId },
              consume,
            );
          }
          if (call.cancelled) throw cancelledError();
        }
        call.done();
        throw unknown(
          errorFromResponse({
            family: this.family,
            status,
            bodyText: bodyText === undefined ? undefined : redact(bodyText, [credential]),
            headerRequestId: resRequestId,
            retryAfterMs,
            method,
            url: shownUrl,
            hints: opts,
          }),
        );
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
        throw isApiError(e) ? unknown(e) : e;
      }
    }
  }
}
