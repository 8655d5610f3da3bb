// A fallback for responses undici refuses to parse (some older servers send error bodies with both
// Content-Length and Transfer-Encoding). Node's parser in lenient mode reads them, so the user still
// sees the server's message. Used only for idempotent requests without a proxy.
import * as http from 'node:http';
import * as https from 'node:https';
import { errorFromResponse, errorFromTransport, safeUrl, type ApiFamily, type ErrorHints } from '../errors';
import { redact } from '../log';
import { buildCa, type NetworkSettings } from './network';
import { CallSignal, readText, wrapBody } from './request';
import { parseRetryAfter } from './retry';

export interface LenientResponse {
  status: number;
  headers: Headers;
  body: AsyncIterable<Uint8Array>;
}

export function lenientRequest(
  url: URL,
  opts: {
    method: string;
    headers: Record<string, string>;
    body?: string | Uint8Array;
    signal: AbortSignal;
    network?: NetworkSettings;
  },
): Promise<LenientResponse> {
  return new Promise((resolve, reject) => {
    const { ca } = buildCa(opts.network);
    const common = {
      method: opts.method,
      headers: opts.headers,
      signal: opts.signal,
      insecureHTTPParser: true,
      timeout: opts.network?.connectTimeoutMs ?? 15_000,
    };
    const onResponse = (res: http.IncomingMessage): void => {
      const headers = new Headers();
      for (const [k, v] of Object.entries(res.headers)) {
        if (v === undefined) continue;
        if (Array.isArray(v)) for (const item of v) headers.append(k, item);
        else headers.set(k, v);
      }
      resolve({ status: res.statusCode ?? 0, headers, body: res });
    };
    const req =
      url.protocol === 'https:'
        ? https.request(
            url,
            { ...common, ...(ca ? { ca } : {}), rejectUnauthorized: opts.network?.proxyStrictSSL !== false },
            onResponse,
          )
        : http.request(url, common, onResponse);
    req.on('error', reject);
    req.on('timeout', () => req.destroy(Object.assign(new Error('connect timeout'), { code: 'ETIMEDOUT' })));
    req.end(opts.body);
  });
}

/** True for the framing errors the lenient parser reads past. */
export function isLenientCandidate(e: unknown): boolean {
  const code = (e as { code?: unknown } | null)?.code;
  return (
    typeof code === 'string' && (code === 'UND_ERR_RES_CONTENT_LENGTH_MISMATCH' || code.startsWith('HPE_'))
  );
}

export interface LenientCall {
  url: URL;
  method: string;
  headers: Record<string, string>;
  body: string | Uint8Array | undefined;
  opts: ErrorHints & { signal?: AbortSignal; timeoutMs?: number };
  requestId: string;
}

/** Re-sends with Node's lenient parser for servers that send Content-Length with Transfer-Encoding. */
export async function lenientSend<T>(
  client: { family: ApiFamily; network?: NetworkSettings; maxErrorBody: number },
  { url, method, headers, body, opts, requestId }: LenientCall,
  /** Reads the answer; `discard` drops it unread (an answer of the wrong type). */
  consume: (
    res: {
      status: number;
      headers: Headers;
      body: AsyncIterable<Uint8Array>;
      requestId?: string;
      url: string;
    },
    discard: () => void,
  ) => Promise<T>,
): Promise<T> {
  const call = new CallSignal(opts.signal, opts.timeoutMs);
  const shownUrl = safeUrl(url.toString());
  const ctx = { method, url: shownUrl, origin: url.origin };
  let res;
  try {
    res = await lenientRequest(url, { method, headers, body, signal: call.signal, network: client.network });
  } catch (e) {
    call.done();
    throw errorFromTransport(e, { ...ctx, cancelled: call.cancelled, timedOut: call.timedOut });
  }
  const resRequestId = res.headers.get('x-request-id') ?? requestId;
  if (res.status < 200 || res.status >= 300) {
    const bodyText = await readText(res.body, client.maxErrorBody).catch(() => undefined);
    call.done();
    const credential = headers.authorization?.replace(/^(Bearer|Api-Key) /, '');
    throw errorFromResponse({
      family: client.family,
      status: res.status,
      bodyText: bodyText === undefined ? undefined : redact(bodyText, [credential]),
      headerRequestId: resRequestId,
      retryAfterMs: parseRetryAfter(res.headers.get('retry-after')),
      method,
      url: shownUrl,
      hints: opts,
    });
  }
  const raw = res.body as AsyncIterable<Uint8Array> & {
    destroy?: () => void;
    on?: (event: string, f: () => void) => unknown;
  };
  return consume(
    {
      status: res.status,
      headers: res.headers,
      body: wrapBody(raw, call, ctx),
      requestId: resRequestId,
      url: shownUrl,
    },
    () => {
      raw.on?.('error', () => undefined);
      raw.destroy?.();
      call.done();
    },
  );
}
