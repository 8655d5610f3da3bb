// One error type for every API family. `message` is a sentence a user can act on; the other fields
// are for logs and for code that branches on `kind`. Nothing here ever carries a credential.
import type { ZodError } from 'zod';
import { excerpt, redact } from './log';

export type ApiErrorKind =
  | 'auth'
  | 'forbidden'
  | 'notFound'
  | 'validation'
  | 'conflict'
  | 'rateLimited'
  | 'server'
  | 'network'
  | 'timeout'
  | 'protocol'
  | 'cancelled'
  /** A write was sent but its outcome is unknown (reset, timeout, 5xx): it may have taken effect. */
  | 'unknownOutcome';

export type ApiFamily = 'platform' | 'data' | 'ai';

/** How a user can find out whether a write whose outcome is unknown took effect. */
export interface WriteCheck {
  /** A sentence: "Refresh the notifications list to see whether it was created." */
  hint: string;
  /** A VS Code command id that checks (the UI offers it as "Check"); src/api never runs it. */
  command?: string;
  args?: unknown[];
}

export interface ApiErrorInit {
  status?: number;
  serverMessage?: string;
  requestId?: string;
  code?: string;
  retryAfterMs?: number;
  method?: string;
  url?: string;
  /** For stream errors: the 1-based line of the NDJSON body. */
  line?: number;
  cause?: unknown;
  check?: WriteCheck;
}

export class ApiError extends Error {
  override readonly name = 'ApiError';
  readonly kind: ApiErrorKind;
  readonly status?: number;
  readonly serverMessage?: string;
  readonly requestId?: string;
  readonly code?: string;
  readonly retryAfterMs?: number;
  readonly method?: string;
  readonly url?: string;
  readonly line?: number;
  /** For 'unknownOutcome': how to check whether the write took effect. */
  readonly check?: WriteCheck;

  constructor(kind: ApiErrorKind, message: string, init: ApiErrorInit = {}) {
    super(redact(message), init.cause !== undefined ? { cause: init.cause } : undefined);
    this.kind = kind;
    this.status = init.status;
    this.serverMessage = init.serverMessage !== undefined ? redact(init.serverMessage) : undefined;
    this.requestId = init.requestId !== undefined ? safeRequestId(init.requestId) : undefined;
    this.code = init.code;
    this.retryAfterMs = init.retryAfterMs;
    this.method = init.method;
    this.url = init.url !== undefined ? safeUrl(init.url) : undefined;
    this.line = init.line;
    this.check = init.check;
  }
}

/** What an error carried from the exchange that failed, for a new error about the same exchange. */
export function exchangeOf(e: ApiError): ApiErrorInit {
  return {
    status: e.status,
    serverMessage: e.serverMessage,
    requestId: e.requestId,
    code: e.code,
    method: e.method,
    url: e.url,
  };
}

/** A request id as shown: redacted (servers echo what they are sent) and at most 128 characters. */
export function safeRequestId(id: string): string {
  return excerpt(id, 129);
}

export function isApiError(e: unknown): e is ApiError {
  return e instanceof ApiError;
}

/** Per-call wording: `forbiddenHint` replaces the generic 403 sentence; `messages` any kind's sentence. */
export interface ErrorHints {
  forbiddenHint?: string;
  messages?: Partial<Record<ApiErrorKind, string>>;
  /** What was being done, e.g. "Loading deployments" (prefixes generic messages). */
  action?: string;
}

/** A URL without user-info and without query values that look secret. */
export function safeUrl(url: string): string {
  try {
    const u = new URL(url);
    u.username = '';
    u.password = '';
    return redact(u.toString());
  } catch {
    return redact(url);
  }
}

export interface ErrorBodyInfo {
  serverMessage?: string;
  requestId?: string;
  code?: string;
  type?: string;
}

/** Pulls the server's message out of the error shapes the three families use. */
export function parseErrorBody(text: string | undefined): ErrorBodyInfo {
  if (!text) return {};
  const trimmed = text.trim();
  let value: unknown;
  try {
    value = JSON.parse(trimmed);
  } catch {
    // Plain text or HTML error pages: keep a short, single-line excerpt.
    const plain = trimmed
      .replace(/<[^>]*>/g, ' ')
      .replace(/\s+/g, ' ')
      .trim();
    return plain ? { serverMessage: excerpt(plain, 300) } : {};
  }
  if (typeof value !== 'object' || value === null) return {};
  const o = value as Record<string, unknown>;
  const str = (v: unknown): string | undefined => (typeof v === 'string' && v ? v : undefined);
  let serverMessage =
    str(o.error) ?? str(o.detail) ?? str(o.message) ?? str(o.error_description) ?? str(o.title);
  if (!serverMessage && typeof o.error === 'object' && o.error !== null) {
    const inner = o.error as Record<string, unknown>;
    serverMessage = str(inner.message) ?? str(inner.detail);
  }
  if (!serverMessage && Array.isArray(o.errors) && o.errors.length > 0) {
    const first = o.errors[0] as unknown;
    serverMessage =
      typeof first === 'string' ? first : str((first as Record<string, unknown> | null)?.message);
  }
  return {
    serverMessage,
    requestId: str(o.requestId) ?? str(o.request_id),
    code: str(o.code) ?? str(o.scimType),
    type: str(o.type),
  };
}

export interface HttpErrorContext {
  family: ApiFamily;
  status: number;
  bodyText?: string;
  headerRequestId?: string;
  retryAfterMs?: number;
  method: string;
  url: string;
  hints?: ErrorHints;
}

const sentence = (s: string | undefined): string => {
  if (!s) return '';
  const t = s.trim();
  return /[.!?]$/.test(t) ? t : t + '.';
};

/** The kind of each status that has one of its own (403 depends on the family; ranges below). */
const STATUS_KINDS: Readonly<Record<number, ApiErrorKind>> = {
  401: 'auth',
  404: 'notFound',
  408: 'timeout',
  409: 'conflict',
  429: 'rateLimited',
  504: 'server',
};

/** Maps a non-2xx response to an ApiError with a message that says what to do. */
export function errorFromResponse(ctx: HttpErrorContext): ApiError {
  const info = parseErrorBody(ctx.bodyText);
  const { status, family } = ctx;
  const server = info.serverMessage;
  const rawRequestId = info.requestId ?? ctx.headerRequestId;
  const requestId = rawRequestId === undefined ? undefined : safeRequestId(rawRequestId);
  const kind: ApiErrorKind =
    status === 403
      ? // The Data API answers 403 for a bad or missing token.
        family === 'data' && server && /token|authorization header/i.test(server)
        ? 'auth'
        : 'forbidden'
      : (STATUS_KINDS[status] ?? (status >= 500 ? 'server' : status >= 400 ? 'validation' : 'protocol'));

  const tokenWord = family === 'ai' ? 'API key' : family === 'data' ? 'Data API token' : 'token';
  const detail = server ? ` The server said: ${sentence(server)}` : '';
  const override =
    ctx.hints?.messages?.[kind] ?? (kind === 'forbidden' ? ctx.hints?.forbiddenHint : undefined);
  const action = ctx.hints?.action ? `${ctx.hints.action} failed: ` : '';
  const wait = ctx.retryAfterMs !== undefined ? ` in ${Math.ceil(ctx.retryAfterMs / 1000)} s` : ' later';
  // What each kind tells the user to do when the call gives no sentence of its own.
  const generic: Partial<Record<ApiErrorKind, string>> = {
    auth: `The ${tokenWord} was rejected (${status}). Check or refresh the ${tokenWord} in the profile.${detail}`,
    forbidden: `You are not allowed to do this (403). Use a ${tokenWord} of a user with the needed permissions.${detail}`,
    notFound: `Not found (404): the item may have been deleted or the URL in the profile is wrong.${detail}`,
    conflict: `The request conflicts with the current state (409). Refresh and try again.${detail}`,
    rateLimited: `The service is rate limiting requests (429). Try again${wait}.${detail}`,
    // A refusal the service explains is about the input; only an unexplained one may be a wrong URL.
    validation: `The server rejected the request (${status}).${detail} ${server ? 'Check the input.' : "Check the input and the profile's URL."}`,
    timeout: `The server timed out (${status}). Try again.${detail}`,
    server: `The service failed (${status}). Try again later.${detail}`,
  };
  let message = override
    ? sentence(override) + (kind === 'forbidden' || kind === 'auth' ? '' : detail)
    : action + (generic[kind] ?? `Unexpected response status ${status}.${detail}`);
  if (requestId && kind !== 'auth' && kind !== 'forbidden') message += ` (request id ${requestId})`;
  return new ApiError(kind, message, {
    status,
    serverMessage: server,
    requestId,
    code: info.code ?? info.type,
    retryAfterMs: ctx.retryAfterMs,
    method: ctx.method,
    url: ctx.url,
  });
}

const NETWORK_CODES = new Set([
  'ECONNRESET',
  'ECONNREFUSED',
  'ENOTFOUND',
  'EAI_AGAIN',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'EPIPE',
  'ETIMEDOUT',
  'UND_ERR_SOCKET',
  'UND_ERR_CLOSED',
  'UND_ERR_DESTROYED',
]);

const TIMEOUT_CODES = new Set([
  'UND_ERR_CONNECT_TIMEOUT',
  'UND_ERR_HEADERS_TIMEOUT',
  'UND_ERR_BODY_TIMEOUT',
  'ETIMEDOUT',
]);

const TLS_CODES = /^(CERT_|UNABLE_TO_|SELF_SIGNED|DEPTH_ZERO|ERR_TLS_CERT|ERR_SSL|HOSTNAME_MISMATCH)/;

function errCode(e: unknown): string | undefined {
  let cur: unknown = e;
  for (let i = 0; i < 5 && cur && typeof cur === 'object'; i++) {
    const c = (cur as { code?: unknown }).code;
    if (typeof c === 'string' && c !== 'UND_ERR_SOCKET' && c !== 'UND_ERR_ABORTED') return c;
    cur = (cur as { cause?: unknown }).cause;
  }
  const top = (e as { code?: unknown } | null)?.code;
  return typeof top === 'string' ? top : undefined;
}

function errMessage(e: unknown): string {
  const parts: string[] = [];
  let cur: unknown = e;
  for (let i = 0; i < 4 && cur && typeof cur === 'object'; i++) {
    const m = (cur as { message?: unknown }).message;
    if (typeof m === 'string' && m && !parts.includes(m)) parts.push(m);
    cur = (cur as { cause?: unknown }).cause;
  }
  return parts.join(': ');
}

/** True for connection resets worth retrying on idempotent requests. */
export function isConnectionReset(e: unknown): boolean {
  const code = errCode(e);
  const top = (e as { code?: unknown } | null)?.code;
  if (code === 'ECONNRESET' || code === 'EPIPE' || top === 'UND_ERR_SOCKET' || code === 'UND_ERR_SOCKET')
    return true;
  return /other side closed|socket hang up|ECONNRESET/i.test(errMessage(e));
}

/** The code of a proxy that closed the connection instead of opening the tunnel (net/agents.ts). */
export const PROXY_TUNNEL_FAILED = 'PROXY_TUNNEL_FAILED';

/**
 * True for transport failures an idempotent call may retry (after a backoff): a reset, or a proxy
 * that dropped the tunnel (nothing reached the server then).
 */
export function isRetriableTransport(e: unknown): boolean {
  return isConnectionReset(e) || errCode(e) === PROXY_TUNNEL_FAILED;
}

export interface TransportErrorContext {
  method: string;
  url: string;
  origin: string;
  timedOut?: boolean;
  cancelled?: boolean;
  viaProxy?: string;
}

/** Maps a thrown transport error (undici/node) to an ApiError. */
export function errorFromTransport(e: unknown, ctx: TransportErrorContext): ApiError {
  if (isApiError(e)) return e;
  const code = errCode(e);
  const fail = (kind: ApiErrorKind, message: string, as = code) =>
    new ApiError(kind, message, { method: ctx.method, url: ctx.url, cause: e, code: as });
  if (ctx.cancelled) return fail('cancelled', 'The request was cancelled.', 'ABORTED');
  if (ctx.timedOut || (code && TIMEOUT_CODES.has(code))) {
    const what =
      code === 'UND_ERR_CONNECT_TIMEOUT'
        ? 'Connecting to'
        : code === 'UND_ERR_BODY_TIMEOUT'
          ? 'Receiving data from'
          : 'Waiting for';
    return fail(
      'timeout',
      `${what} ${ctx.origin} timed out. Check your network${ctx.viaProxy ? ' and proxy' : ''} and try again.`,
    );
  }
  const msg = errMessage(e);
  if (code === PROXY_TUNNEL_FAILED)
    return fail(
      'network',
      `The proxy${ctx.viaProxy ? ` ${ctx.viaProxy}` : ''} closed the connection instead of opening a tunnel to ${ctx.origin}, so nothing was sent. ` +
        `Check the proxy settings (http.proxy, HTTPS_PROXY) and that the proxy allows this host.`,
    );
  if (code && TLS_CODES.test(code))
    return fail(
      'network',
      `The TLS certificate of ${ctx.origin} is not trusted (${code}). If you are behind a corporate proxy, ` +
        `add its CA certificate to the extra CA certificates setting (or NODE_EXTRA_CA_CERTS), or turn off http.proxyStrictSSL.`,
    );
  if (code === 'ENOTFOUND' || code === 'EAI_AGAIN')
    return fail('network', `Could not resolve ${ctx.origin}. Check the URL in the profile and your network.`);
  if (code === 'ECONNREFUSED')
    return fail(
      'network',
      `${ctx.viaProxy ? `The proxy ${ctx.viaProxy}` : ctx.origin} refused the connection. Check the URL${ctx.viaProxy ? ' and proxy settings' : ''} and that the service is running.`,
    );
  if (isConnectionReset(e) || (code && NETWORK_CODES.has(code)))
    return fail(
      'network',
      `The connection to ${ctx.origin} was interrupted (${code ?? 'reset'}). Try again.`,
      code ?? 'ECONNRESET',
    );
  if (ctx.viaProxy && (code === 'UND_ERR_ABORTED' || /proxy|tunnel/i.test(msg)))
    return fail('network', `The proxy ${ctx.viaProxy ?? ''} failed: ${msg}. Check the proxy settings.`);
  if (code && /^(HPE_|UND_ERR_RES_|UND_ERR_INFO)/.test(code))
    return fail('protocol', `${ctx.origin} sent a malformed HTTP response (${code}).`);
  return fail('network', `Request to ${ctx.origin} failed: ${msg || String(e)}`);
}

/** "items[2].id" style path for a zod issue. */
export function issuePath(path: readonly PropertyKey[]): string {
  let out = '';
  for (const p of path) {
    if (typeof p === 'number') out += `[${p}]`;
    else out += (out ? '.' : '') + String(p);
  }
  return out || '(root)';
}

/** A 'protocol' ApiError naming the fields of the response that did not match. */
export function zodProtocolError(error: ZodError, what: string, requestId?: string): ApiError {
  const parts = error.issues.slice(0, 5).map((i) => {
    const path = issuePath(i.path);
    if (i.code === 'invalid_type' && /received undefined/.test(i.message))
      return `missing required field "${path}"`;
    return `"${path}": ${i.message}`;
  });
  const more = error.issues.length > 5 ? ` (and ${error.issues.length - 5} more)` : '';
  return new ApiError(
    'protocol',
    `Unexpected response from ${what}: ${parts.join('; ')}${more}. The service may be newer than this extension.`,
    { requestId, code: 'SCHEMA', cause: error },
  );
}

// zod's own messages ("Too big: expected string to have <=255 characters") are for developers; a
// person told why an input was refused reads plain words naming the field. A message a schema
// gives itself ("use HH:MM") is already plain and is kept.
const ZOD_DEFAULT =
  /^(Too (big|small): |Invalid (input|option|string|email address|URL|key|element|union|value)\b|Invalid [A-Za-z0-9 ]+$|Unrecognized keys?:)/;

type Issue = ZodError['issues'][number];

const TYPE_WORDS: Record<string, string> = {
  string: 'text',
  number: 'a number',
  int: 'a whole number',
  boolean: 'true or false',
  array: 'a list',
  object: 'an object',
};

/** What is wrong with one value, in words (after the field's name). */
function plainProblem(i: Issue): string {
  if (!ZOD_DEFAULT.test(i.message)) return i.message;
  const n = (v: unknown) => Number(v);
  switch (i.code) {
    case 'too_big':
      return i.origin === 'string'
        ? `use at most ${n(i.maximum)} characters`
        : i.origin === 'array' || i.origin === 'set'
          ? `use at most ${n(i.maximum)} items`
          : `must be at most ${String(i.maximum)}`;
    case 'too_small':
      if (i.origin === 'string')
        return n(i.minimum) <= 1 ? 'must not be empty' : `use at least ${n(i.minimum)} characters`;
      if (i.origin === 'array' || i.origin === 'set')
        return n(i.minimum) <= 1 ? 'needs at least one item' : `needs at least ${n(i.minimum)} items`;
      return `must be at least ${String(i.minimum)}`;
    case 'invalid_type':
      return /received undefined$/.test(i.message)
        ? 'is required'
        : `must be ${TYPE_WORDS[i.expected] ?? i.expected}`;
    case 'invalid_value':
      return `must be one of ${i.values.map(String).join(', ')}`;
    case 'invalid_format':
      return i.format === 'email'
        ? 'not an e-mail address'
        : i.format === 'url'
          ? 'not a URL'
          : i.format === 'regex'
            ? 'not in the accepted form'
            : `not a valid ${i.format}`;
    case 'unrecognized_keys':
      return `${i.keys.join(', ')} ${i.keys.length > 1 ? 'are not accepted fields' : 'is not an accepted field'}`;
    default:
      return 'not valid';
  }
}

/**
 * One refused value: the field as published, then what is wrong in plain words
 * ("displayName: use at most 255 characters"), never the schema library's own wording.
 */
export function plainIssue(i: Issue): string {
  const field = i.path.map(String).join('.');
  const problem = plainProblem(i);
  return field ? `${field}: ${problem}` : problem;
}
