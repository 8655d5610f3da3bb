// Safe retries for the transport: the policy, which statuses are retried, Retry-After parsing,
// exponential backoff with full jitter, and an abortable wait.
import { ApiError } from '../errors';

export interface RetryPolicy {
  retries: number;
  baseDelayMs: number;
  maxDelayMs: number;
  /** A Retry-After longer than this is not waited for: the 429 is returned to the caller. */
  maxRetryAfterMs?: number;
}
export const DEFAULT_RETRY: RetryPolicy = {
  retries: 3,
  baseDelayMs: 300,
  maxDelayMs: 10_000,
  maxRetryAfterMs: 60_000,
};

export const RETRY_STATUSES = new Set([429, 502, 503, 504]);

/** The shortest wait a Retry-After gives: "0" or a date in the past must not make a burst. */
export const MIN_RETRY_AFTER_MS = 1000;

/** Retry-After in milliseconds (delta seconds or an HTTP date, at least MIN_RETRY_AFTER_MS), or undefined. */
export function parseRetryAfter(value: string | null | undefined, now = Date.now()): number | undefined {
  if (!value) return undefined;
  const v = value.trim();
  if (/^\d+(\.\d+)?$/.test(v)) return Math.max(MIN_RETRY_AFTER_MS, Math.round(Number(v) * 1000));
  const t = Date.parse(v);
  return Number.isNaN(t) ? undefined : Math.max(MIN_RETRY_AFTER_MS, t - now);
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
