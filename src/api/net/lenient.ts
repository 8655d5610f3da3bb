// A fallback for responses undici refuses to parse (some older servers send error bodies with both
// Content-Length and Transfer-Encoding). Node's parser in lenient mode reads them, so the user still
// sees the server's message. Used only for idempotent requests without a proxy.
import * as http from 'node:http';
import * as https from 'node:https';
import { buildCa, type NetworkSettings } from './network';

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
