// The pieces of one HTTP call: the family's auth header, the URL (base + path + query) and its
// scheme check, the call's abort signal with its timeout, and body and header helpers.
import { finished, type Readable } from 'node:stream';
import { ApiError, errorFromTransport, type ApiFamily } from '../errors';
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

/** Chunks a reader may fall behind by before the stream is paused (the socket then waits). */
const QUEUED_CHUNKS = 16;

const isReadable = (body: AsyncIterable<Uint8Array>): body is AsyncIterable<Uint8Array> & Readable =>
  typeof (body as Partial<Readable>).on === 'function' &&
  typeof (body as Partial<Readable>).pause === 'function';

/**
 * A readable stream's chunks, each handed over as it arrived. A Readable's own iterator calls
 * read(), which joins every chunk buffered while the reader was busy into one new buffer: a copy of
 * most of a large body and an allocation of that size each time (the cubesql profile showed it).
 * Here the stream flows and is paused while QUEUED_CHUNKS wait, so memory stays bounded. Chunks
 * that arrived before an error are handed over first; leaving the loop early destroys the stream,
 * as the Readable's iterator does.
 */
export async function* chunksOf(stream: Readable): AsyncGenerator<Uint8Array> {
  const queue: Uint8Array[] = [];
  let ended = false;
  let error: unknown;
  let wake: (() => void) | undefined;
  const onData = (chunk: Uint8Array): void => {
    queue.push(chunk);
    if (queue.length >= QUEUED_CHUNKS) stream.pause();
    wake?.();
  };
  const stop = finished(stream, (e) => {
    if (e) error = e;
    ended = true;
    wake?.();
  });
  stream.on('data', onData);
  try {
    for (;;) {
      const chunk = queue.shift();
      if (chunk) {
        yield chunk;
        continue;
      }
      if (error !== undefined) throw error;
      if (ended) return;
      stream.resume();
      await new Promise<void>((resolve) => (wake = resolve));
      wake = undefined;
    }
  } finally {
    stream.off('data', onData);
    stop();
    if (!ended) stream.destroy();
  }
}

export async function* wrapBody(
  body: AsyncIterable<Uint8Array>,
  call: CallSignal,
  ctx: { method: string; url: string; origin: string; viaProxy?: string },
): AsyncGenerator<Uint8Array> {
  try {
    for await (const chunk of isReadable(body) ? chunksOf(body) : body) yield chunk;
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
