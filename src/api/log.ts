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

// Every credential the clients have sent in this process (bounded, most recent kept): a server can
// echo an opaque token anywhere (a header, an error line, a stream), where no pattern finds it.
const MAX_KNOWN = 64;
const known: string[] = [];

/** Makes `redact` remove `secret` everywhere from now on (the transport registers what it sends). */
export function rememberSecret(secret: string | undefined): void {
  if (!secret || secret.length < 4 || known.includes(secret)) return;
  known.push(secret);
  if (known.length > MAX_KNOWN) known.shift();
}

/** For tests: forgets the registered secrets. */
export function forgetSecrets(): void {
  known.length = 0;
}

/**
 * Removes Authorization values, JWTs, Api-Key/Bearer credentials, URL user-info and every string in
 * `secrets` (and every remembered secret) from `text`. Cheap enough to run on every log line.
 */
export function redact(text: string, secrets: readonly (string | undefined)[] = []): string {
  let out = text;
  for (const s of [...secrets, ...known]) {
    if (s && s.length >= 4) out = out.split(s).join(REDACTED);
  }
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
