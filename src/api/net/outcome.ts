// Writes whose outcome is unknown, and calls that undici will not end by itself. A non-idempotent
// request that was (or may have been) sent and then failed without a clear rejection (a reset, a
// timeout, a 5xx, an unreadable 2xx body) may have taken effect: saying "try again" would make
// duplicates, so the error says the outcome is unknown and how to check.
import { ApiError, exchangeOf, type WriteCheck } from '../errors';

export const DEFAULT_CHECK: WriteCheck = {
  hint: 'Check whether it took effect before doing it again.',
};

// Failures that prove nothing reached the server.
const NOT_SENT = new Set([
  'ECONNREFUSED',
  'ENOTFOUND',
  'EAI_AGAIN',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'UND_ERR_CONNECT_TIMEOUT',
  'INSECURE_URL',
  'BAD_URL',
  // The proxy closed the connection before the tunnel opened: no byte reached the server.
  'PROXY_TUNNEL_FAILED',
]);
const TLS = /^(CERT_|UNABLE_TO_|SELF_SIGNED|DEPTH_ZERO|ERR_TLS_CERT|ERR_SSL|HOSTNAME_MISMATCH)/;

/** True when `e` (a failed write) leaves its outcome unknown. */
export function outcomeUnknown(e: ApiError): boolean {
  if (e.kind === 'unknownOutcome') return false; // already said
  // A non-2xx status: only a 5xx or 408 leaves it open; a 2xx whose body failed did reach the server.
  if (e.status !== undefined && (e.status < 200 || e.status >= 300))
    return e.status >= 500 || e.status === 408;
  if (e.code && (NOT_SENT.has(e.code) || TLS.test(e.code))) return false;
  return e.kind === 'network' || e.kind === 'timeout' || e.kind === 'protocol' || e.kind === 'cancelled';
}

const ADVICE = /^(check|try|refresh|use|add|fix|wait|narrow|open|look)\b/i;

/**
 * A failure's message split into what happened and the advice worth keeping for a write whose
 * outcome is unknown: whole sentences, never cut mid-sentence; "try again" advice is dropped (it is
 * exactly what must not be followed) and "Check X and try again" keeps its "Check X".
 */
export function splitAdvice(message: string): { facts: string; advice: string } {
  const facts: string[] = [];
  const advice: string[] = [];
  // A sentence ends with . ! or ? before a space (dots inside hosts and numbers do not end one).
  for (const raw of message.trim().split(/(?<=[.!?])\s+/)) {
    const s = raw.trim();
    if (!s) continue;
    const kept = s.replace(/,?\s+and try again\b/i, '').replace(/;\s*try again\b[^.!?]*/i, '');
    if (/\b(try again|retry)\b/i.test(kept)) continue;
    (ADVICE.test(kept) ? advice : facts).push(kept);
  }
  const end = (t: string) => t.replace(/[\s.;:,]+$/, '');
  // Advice keeps its own "!" or "?" (never "page!.").
  const full = (a: string) => end(a).replace(/([^.!?])$/, '$1.');
  return { facts: facts.map(end).join('. '), advice: advice.map(full).join(' ') };
}

/** The 'unknownOutcome' error for a failed write: what happened, that it may have taken effect, how to check. */
export function unknownOutcomeError(
  cause: ApiError,
  what: string,
  check: WriteCheck = DEFAULT_CHECK,
): ApiError {
  const { facts, advice } = splitAdvice(cause.message.replace(`${what} failed: `, ''));
  const hint = check.hint.trim().replace(/([^.!?])$/, '$1.');
  return new ApiError(
    'unknownOutcome',
    `${what}: the outcome is unknown, it may have taken effect${facts ? ` (${facts})` : ''}. ${advice ? `${advice} ` : ''}${hint}`,
    {
      status: cause.status,
      serverMessage: cause.serverMessage,
      requestId: cause.requestId,
      code: cause.code,
      method: cause.method,
      url: cause.url,
      cause,
      check,
    },
  );
}

/**
 * Settles with `work`, or rejects with `abortError()` as soon as `signal` aborts. If `work` has
 * still not settled shortly after the abort, `teardown` runs (undici ignored the signal).
 */
export function raceAbort<T>(
  work: Promise<T>,
  signal: AbortSignal,
  abortError: () => unknown,
  teardown: () => void,
  graceMs = 250,
): Promise<T> {
  let settled = false;
  work.then(
    () => (settled = true),
    () => (settled = true),
  );
  if (signal.aborted) return Promise.reject(abortError());
  return new Promise<T>((resolve, reject) => {
    const onAbort = (): void => {
      reject(abortError());
      setTimeout(() => {
        if (!settled) teardown();
      }, graceMs).unref();
    };
    signal.addEventListener('abort', onAbort, { once: true });
    work.then(
      (v) => {
        signal.removeEventListener('abort', onAbort);
        resolve(v);
      },
      (e: unknown) => {
        signal.removeEventListener('abort', onAbort);
        reject(e);
      },
    );
  });
}

/** What a call rejects with when its signal aborts first (mapped by errorFromTransport). */
export function abortError(): Error {
  return Object.assign(new Error('The request was aborted.'), {
    name: 'AbortError',
    code: 'UND_ERR_ABORTED',
  });
}

/** `e` with a command that checks its unknown outcome (the UI's "Check" button); other errors as they are. */
export function withCheckCommand(e: unknown, command: string, args: unknown[] = []): unknown {
  if (!(e instanceof ApiError) || e.kind !== 'unknownOutcome') return e;
  return new ApiError('unknownOutcome', e.message, {
    ...exchangeOf(e),
    cause: e.cause,
    check: { ...(e.check ?? DEFAULT_CHECK), command, args },
  });
}
