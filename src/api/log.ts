// Logging seam for src/api: a tiny logger interface (the extension passes its LogOutputChannel) and
// `redact`, which every log line and error message goes through so that credentials never leak.

export interface ApiLogger {
  trace?(m: string): void;
  debug(m: string): void;
  info(m: string): void;
  warn(m: string): void;
  error(m: string): void;
}

export const silentLogger: ApiLogger = {
  debug: () => undefined,
  info: () => undefined,
  warn: () => undefined,
  error: () => undefined,
};

const REDACTED = '[REDACTED]';

// Authorization / Proxy-Authorization header values (any scheme), in "Name: value" or JSON form.
const AUTH_HEADER =
  /((?:proxy-)?authorization["']?\s*[:=]\s*["']?)(?:(bearer|basic|api-key|token)\s+)?[^\s"',}]+/gi;
// Scheme-prefixed credentials appearing anywhere.
const SCHEME_VALUE = /\b(Bearer|Api-Key)\s+[A-Za-z0-9._~+/=-]{6,}/g;
// JWTs: three base64url segments, the first two starting with '{"' encoded ("eyJ").
const JWT = /\beyJ[A-Za-z0-9_-]{5,}\.eyJ[A-Za-z0-9_-]{5,}\.[A-Za-z0-9_-]*/g;
// user:password@ in URLs (proxy URLs).
const URL_USERINFO = /(\b[a-z][a-z0-9+.-]*:\/\/)[^/\s:@]+(?::[^/\s@]*)?@/gi;
// token=..., apiKey=..., access_token=... in query strings or key/value text.
const KEY_VALUE = /\b((?:access_|api_|api-)?(?:token|apikey|api_key|key|secret|password))=([^&\s"']+)/gi;

// THE registry of secrets (the only one): every credential the clients send, every token read from
// SecretStorage or the environment, every secret typed in an admin flow. A server can echo an
// opaque token anywhere (a header, an error line, a stream) where no pattern finds it. Nothing is
// evicted: a credential still in use must stay redacted however many others were met since.
const known = new Set<string>();
/** The registry sorted longest first (a secret inside a longer one must not split it), rebuilt lazily. */
let ordered: string[] | undefined;

/** Makes `redact` remove `secret` everywhere from now on (shorter than 4 characters: ignored). */
export function rememberSecret(secret: string | undefined): void {
  const s = secret?.trim();
  if (!s || s.length < 4 || known.has(s)) return;
  known.add(s);
  ordered = undefined;
}

/** Stops redacting one secret (a value the user deleted). */
export function forgetSecret(secret: string | undefined): void {
  const s = secret?.trim();
  if (s && known.delete(s)) ordered = undefined;
}

/** For tests: forgets every registered secret. */
export function forgetSecrets(): void {
  known.clear();
  ordered = undefined;
}

/** The registered secrets, longest first. */
export function registeredSecrets(): readonly string[] {
  ordered ??= [...known].sort((a, b) => b.length - a.length);
  return ordered;
}

/**
 * Removes Authorization values, JWTs, Api-Key/Bearer credentials, URL user-info, every string in
 * `secrets` and every registered secret from `text`. Cheap enough to run on every log line. Apply it
 * to the whole text BEFORE any cut (see `excerpt`): a cut token is no longer recognisable.
 */
export function redact(text: string, secrets: readonly (string | undefined)[] = []): string {
  let out = text;
  const extra = secrets.filter((s): s is string => !!s && s.length >= 4 && !known.has(s));
  const all = extra.length
    ? [...extra, ...registeredSecrets()].sort((a, b) => b.length - a.length)
    : registeredSecrets();
  for (const s of all) if (out.includes(s)) out = out.split(s).join(REDACTED);
  return out
    .replace(
      AUTH_HEADER,
      (_m, prefix: string, scheme?: string) => `${prefix}${scheme ? scheme + ' ' : ''}${REDACTED}`,
    )
    .replace(SCHEME_VALUE, (_m, scheme: string) => `${scheme} ${REDACTED}`)
    .replace(JWT, REDACTED)
    .replace(URL_USERINFO, (_m, scheme: string) => `${scheme}${REDACTED}@`)
    .replace(KEY_VALUE, (_m, key: string) => `${key}=${REDACTED}`);
}

/**
 * At most `max` characters of `text` (an ellipsis marks a cut), redacted first: every excerpt,
 * truncated cell or shortened message is made with this, so no part of a secret survives a cut.
 * `scrub` replaces the default redaction (a caller that knows more secrets passes its own).
 */
export function excerpt(text: string, max: number, scrub: (t: string) => string = (t) => redact(t)): string {
  const safe = scrub(text);
  return safe.length > max ? `${safe.slice(0, Math.max(0, max - 1))}…` : safe;
}

/** A copy of a JSON-like value with every string redacted (keys kept). */
export function redactDeep<T>(value: T, scrub: (t: string) => string = (t) => redact(t)): T {
  if (typeof value === 'string') return scrub(value) as T;
  if (Array.isArray(value)) return value.map((v: unknown) => redactDeep(v, scrub)) as T;
  if (value && typeof value === 'object' && Object.getPrototypeOf(value) === Object.prototype) {
    const out: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(value)) out[k] = redactDeep(v, scrub);
    return out as T;
  }
  return value;
}

/** A logger whose every line is redacted with the given secrets (looked up lazily). */
export function redactingLogger(inner: ApiLogger, secrets: () => readonly (string | undefined)[]): ApiLogger {
  const wrap =
    (fn: ((m: string) => void) | undefined) =>
    (m: string): void =>
      fn?.(redact(m, secrets()));
  return {
    trace: inner.trace ? wrap(inner.trace.bind(inner)) : undefined,
    debug: wrap(inner.debug.bind(inner)),
    info: wrap(inner.info.bind(inner)),
    warn: wrap(inner.warn.bind(inner)),
    error: wrap(inner.error.bind(inner)),
  };
}
