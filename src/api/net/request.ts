// The pieces of one HTTP call: the family's auth header, the URL (base + path + query) and its
// scheme check, the call's abort signal with its timeout, and body and header helpers.
import { ApiError, errorFromTransport, safeUrl, type ApiFamily } from '../errors';
import { redact } from '../log';
import { isLoopbackHost } from './network';

export type QueryValue =
  string | number | boolean | null | undefined | readonly (string | number | boolean)[];

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

export async function* wrapBody(
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

/** The body as text, at most `limit` bytes: reading stops there and the rest is never fetched. */
export async function readText(body: AsyncIterable<Uint8Array>, limit = Infinity): Promise<string> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of body) {
    chunks.push(Buffer.from(chunk));
    size += chunk.byteLength;
    // Leaving the loop ends the iterator, which destroys the stream (an error page can be huge).
    if (size >= limit) break;
  }
  const buf = Buffer.concat(chunks);
  return (size > limit ? buf.subarray(0, limit) : buf).toString('utf8');
}

/** The body as bytes (already capped by the transport). */
export async function readBytes(body: AsyncIterable<Uint8Array>): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of body) chunks.push(Buffer.from(chunk));
  return Buffer.concat(chunks);
}

export function lowerKeys(h: Record<string, string> | undefined): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [k, v] of Object.entries(h ?? {})) out[k.toLowerCase()] = v;
  return out;
}

export function toHeaders(raw: Record<string, string | string[] | undefined>): Headers {
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
