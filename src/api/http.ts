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
  isRetriableTransport,
  safeUrl,
  type ApiFamily,
  type ErrorHints,
  type WriteCheck,
  zodProtocolError,
} from './errors';
import { redact, redactingLogger, rememberSecret, silentLogger, type ApiLogger } from './log';
import { sharedDispatchers, type DispatcherLease, type DispatcherRegistry } from './net/agents';
import {
  capBody,
  DEFAULT_MAX_BODY_BYTES,
  emptyAnswer,
  headerProblem,
  JSON_TYPES,
  operationName,
  type AnswerContext,
} from './net/answer';
import { isLenientCandidate, lenientSend } from './net/lenient';
import { type NetworkSettings } from './net/network';
import { abortError, outcomeUnknown, raceAbort, unknownOutcomeError } from './net/outcome';
import {
  assertAllowedUrl,
  authHeader,
  CallSignal,
  joinUrl,
  lowerKeys,
  readBytes,
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

export { DEFAULT_MAX_BODY_BYTES, JSON_TYPES } from './net/answer';
export type { NetworkSettings } from './net/network';
export { withCheckCommand } from './net/outcome';
export { assertAllowedUrl, authHeader, CallSignal, joinUrl, type QueryValue } from './net/request';
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

/** Where a client sends and how: what every client (platform, data, AI, build) is made with. */
export interface ClientOptions {
  baseUrl: string;
  network?: NetworkSettings;
  logger?: ApiLogger;
  userAgent?: string;
  retry?: RetryPolicy;
  /** Where dispatchers are shared; defaults to one registry for the whole process. */
  dispatchers?: DispatcherRegistry;
}

export interface HttpClientOptions extends ClientOptions {
  family: ApiFamily;
  /** The credential, without scheme. */
  auth: () => Promise<string | undefined>;
  /** Overrides DEFAULT_DEADLINE_MS for this client. */
  deadlineMs?: number;
  /** Overrides DEFAULT_MAX_BODY_BYTES (the cap of an answer read whole) for this client. */
  maxBodyBytes?: number;
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
  /** Limit for the whole call: every retry, its waits and the body included. */
  timeoutMs?: number;
  /** The media types the operation serves (sent as Accept, checked against the answer); JSON by default. */
  accept?: readonly string[];
  /** Cap of this answer when read whole (the client's cap otherwise); streams are capped only when set. */
  maxBodyBytes?: number;
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

/** True when `schema` says the answer may be absent (an optional), not merely "anything" (unknown/any). */
function expectsNoBody(schema: ZodType<unknown>): boolean {
  const type = (schema as unknown as { _zod?: { def?: { type?: string } } })._zod?.def?.type;
  return type !== 'unknown' && type !== 'any' && schema.safeParse(undefined).success;
}

/** `body`, failing with `empty()` at its end when it held no byte. */
async function* nonEmpty(body: AsyncIterable<Uint8Array>, empty: () => ApiError): AsyncGenerator<Uint8Array> {
  let size = 0;
  for await (const chunk of body) {
    size += chunk.byteLength;
    yield chunk;
  }
  if (size === 0) throw empty();
}

/** A file answer read whole: its bytes, its media type and the length the server declared. */
export interface FileAnswer {
  bytes: Buffer;
  contentType: string;
  declaredLength?: number;
  requestId?: string;
}

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

  /**
   * A streaming request: resolves on a 2xx response with its body still to be read. A body that
   * ends empty (other than a 204) fails at its end: a stream was expected.
   */
  request(opts: RequestOptions): Promise<HttpResponse> {
    return this.send(opts, async (res) =>
      res.status === 204 || res.status === 205
        ? res
        : { ...res, body: nonEmpty(res.body, () => emptyAnswer(this.answerContext(opts, res))) },
    );
  }

  /** A JSON request parsed with `schema`. Non-2xx -> ApiError; a schema failure -> 'protocol'. */
  json<T>(opts: RequestOptions, schema: ZodType<T>): Promise<T> {
    return this.send(
      opts,
      async (res) => {
        const text = await readText(res.body);
        if (!text.trim()) {
          // Empty is an answer only where the operation says so (an optional answer), never
          // for "any answer" (z.unknown()), where the caller reads what comes.
          const none = expectsNoBody(schema) ? schema.safeParse(undefined) : undefined;
          if (none?.success) return none.data;
          throw emptyAnswer(this.answerContext(opts, res));
        }
        let value: unknown;
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
        const parsed = schema.safeParse(value);
        if (!parsed.success)
          throw zodProtocolError(parsed.error, `${opts.method} ${opts.path}`, res.requestId);
        return parsed.data;
      },
      true,
    );
  }

  /**
   * A file (`accept` names its media types): read whole under the cap, its Content-Type checked,
   * and its length checked against the declared Content-Length (a cut body is an error, never a file).
   */
  file(opts: RequestOptions & { accept: readonly string[] }): Promise<FileAnswer> {
    return this.send(
      opts,
      async (res) => {
        const bytes = await readBytes(res.body);
        const length = res.headers.get('content-length');
        const declaredLength = length !== null && /^\d+$/.test(length.trim()) ? Number(length) : undefined;
        const ctx = this.answerContext(opts, res);
        if (declaredLength !== undefined && bytes.length !== declaredLength)
          throw new ApiError(
            'protocol',
            `${ctx.what}: the file was cut off (${bytes.length} of ${declaredLength} bytes arrived), so it was not saved. Try again.`,
            {
              status: ctx.status,
              requestId: ctx.requestId,
              method: ctx.method,
              url: ctx.url,
              code: 'TRUNCATED',
            },
          );
        if (bytes.length === 0) throw emptyAnswer(ctx);
        return {
          bytes,
          contentType: res.headers.get('content-type') ?? '',
          ...(declaredLength !== undefined ? { declaredLength } : {}),
          ...(res.requestId ? { requestId: res.requestId } : {}),
        };
      },
      true,
    );
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

  /** A request whose body is ignored (204 and friends); an answer of the wrong type still fails. */
  async noContent(opts: RequestOptions): Promise<number> {
    return this.send(
      opts,
      async (res) => {
        for await (const _chunk of res.body) {
          // drain
        }
        return res.status;
      },
      true,
    );
  }

  async close(): Promise<void> {
    this.closed = true;
    const lease = this.lease;
    this.lease = undefined;
    await lease?.release();
  }

  private answerContext(opts: RequestOptions, res: HttpResponse): AnswerContext {
    const method = opts.method.toUpperCase();
    return {
      what: opts.action ?? operationName(method, opts.path),
      status: res.status,
      method,
      url: res.url,
      ...(res.requestId ? { requestId: res.requestId } : {}),
    };
  }

  /**
   * The success answer as callers may read it: its type checked against what the operation serves
   * and its size capped (answers read whole always, streams when the call sets a cap). On a problem
   * the body is discarded unread.
   */
  private accepted(
    res: HttpResponse,
    opts: RequestOptions,
    whole: boolean,
    discard: () => void,
  ): HttpResponse {
    const max = opts.maxBodyBytes ?? (whole ? this.maxBodyBytes : Infinity);
    const ctx = this.answerContext(opts, res);
    const problem = headerProblem(res.headers, opts.accept ?? JSON_TYPES, max, ctx);
    if (problem) {
      discard();
      throw problem;
    }
    return Number.isFinite(max) ? { ...res, body: capBody(res.body, max, ctx) } : res;
  }

  private get maxBodyBytes(): number {
    return this.opts.maxBodyBytes ?? DEFAULT_MAX_BODY_BYTES[this.family];
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

  /**
   * One call: the request and its safe retries under one overall deadline (retries, their waits,
   * a lenient re-read and the body all share it), the answer checked by `accepted`, then `consume`.
   * `whole` says the answer is read whole (so it is capped).
   */
  private async send<T>(opts: RequestOptions, consume: Consume<T>, whole = false): Promise<T> {
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
    // The overall deadline is fixed here, once: each attempt gets what is left of it.
    const deadlineAt =
      Date.now() + (opts.timeoutMs ?? this.opts.deadlineMs ?? DEFAULT_DEADLINE_MS[this.family]);
    const remaining = (): number => deadlineAt - Date.now();
    const requestId = opts.requestId ?? randomUUID();
    const headers: Record<string, string> = {
      accept: (opts.accept ?? JSON_TYPES).join(', '),
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
    const timedOut = (): ApiError => errorFromTransport(abortError(), { ...transportCtx, timedOut: true });
    /** Waits `delay` before a retry, or returns false when the wait would pass the deadline. */
    const pause = async (delay: number): Promise<boolean> => {
      if (delay >= remaining()) return false;
      await sleep(delay, opts.signal);
      return true;
    };
    const lenient = (): Promise<T> =>
      lenientSend(
        { family: this.family, network: this.opts.network, maxErrorBody: MAX_ERROR_BODY },
        {
          url,
          method,
          headers,
          body,
          // The re-read gets what is left of the deadline, never a fresh one.
          opts: { ...opts, timeoutMs: Math.max(1, remaining()) },
          requestId,
        },
        (res, discard) => consume(this.accepted(res, opts, whole, discard)),
      );

    for (let attempt = 0; ; attempt++) {
      if (opts.signal?.aborted) throw cancelledError();
      if (remaining() <= 0) throw unknown(timedOut());
      const left = idempotent ? this.retry.retries - attempt : 0;
      const call = new CallSignal(opts.signal, remaining());
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
          return lenient();
        }
        this.log.debug(`<- no response ${method} ${shownUrl} ${Date.now() - started} ms (${requestId})`);
        const err = errorFromTransport(e, {
          ...transportCtx,
          cancelled: call.cancelled,
          timedOut: call.timedOut,
        });
        if (left > 0 && !call.cancelled && !call.timedOut && isRetriableTransport(e)) {
          const delay = backoffDelay(attempt, this.retry);
          this.log.debug(`${shownUrl}: ${err.message} Retrying in ${delay} ms.`);
          if (await pause(delay)) continue;
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
          const delay = retryAfterMs ?? backoffDelay(attempt, this.retry);
          // A wait past the deadline is not taken: the answer is returned instead.
          if (!tooLong && delay < remaining()) {
            await raw.body.dump().catch(() => undefined);
            call.done();
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
          if (isLenientCandidate(e) && idempotent && !lease.proxy) return lenient();
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

      try {
        const res = this.accepted(
          {
            status,
            headers: resHeaders,
            body: wrapBody(raw.body, call, transportCtx),
            requestId: resRequestId,
            url: shownUrl,
          },
          opts,
          whole,
          () => {
            // Dropped unread; the stream's abort error has no reader to reach.
            raw.body.on('error', () => undefined).destroy();
            call.done();
          },
        );
        return await consume(res);
      } catch (e) {
        call.done();
        if (left > 0 && isApiError(e) && e.kind === 'network' && isConnectionReset(e.cause ?? e)) {
          const delay = backoffDelay(attempt, this.retry);
          this.log.debug(`${shownUrl}: reset while reading the body; retrying in ${delay} ms.`);
          if (await pause(delay)) continue;
        }
        throw isApiError(e) ? unknown(e) : e;
      }
    }
  }
}
