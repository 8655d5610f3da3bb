import * as assert from 'node:assert/strict';
import * as net from 'node:net';
import { z } from 'zod';
import type { ApiError } from '../../../src/api/errors';
import {
  HttpClient,
  assertAllowedUrl,
  authHeader,
  backoffDelay,
  joinUrl,
  parseRetryAfter,
  type HttpClientOptions,
} from '../../../src/api/http';
import { DispatcherRegistry } from '../../../src/api/net/agents';
import { isLoopbackHost } from '../../../src/api/net/network';
import {
  FAST_RETRY,
  apiFailure,
  platformHttp,
  rejection,
  sendJson,
  startServer,
  type TestServer,
} from './helpers';

const TOKEN = 'tok-SECRET-1234567890';

const client = (server: TestServer, extra: Partial<HttpClientOptions> = {}): HttpClient =>
  platformHttp(server.url + '/api', TOKEN, { retry: FAST_RETRY, ...extra });

const Any = z.unknown();

describe('api/http: URLs and auth', () => {
  it('builds the auth header of each family', () => {
    assert.equal(authHeader('platform', 'x'), 'Bearer x');
    assert.equal(authHeader('data', 'x'), 'x');
    assert.equal(authHeader('ai', 'x'), 'Api-Key x');
  });

  it('recognises loopback hosts only', () => {
    for (const h of ['localhost', '127.0.0.1', '127.5.6.7', '[::1]', '::1']) assert.ok(isLoopbackHost(h), h);
    // *.localhost may resolve anywhere (hosts file, resolver): not loopback for plain HTTP.
    for (const h of ['example.com', '10.0.0.1', '128.0.0.1', 'localhost.example.com', '::2', 'a.localhost'])
      assert.ok(!isLoopbackHost(h), h);
  });

  it('refuses http:// to non-loopback hosts before any I/O', async () => {
    let asked = 0;
    const c = new HttpClient({
      baseUrl: 'http://dashboards.example.com/api',
      family: 'platform',
      auth: async () => {
        asked++;
        return TOKEN;
      },
      dispatchers: new DispatcherRegistry({}),
    });
    const e = await apiFailure(() => c.json({ method: 'GET', path: '/v1/deployments' }, Any));
    assert.equal(e.kind, 'validation');
    assert.match(e.message, /https:\/\//);
    assert.equal(asked, 0, 'the credential is not even read');
    assert.doesNotThrow(() => assertAllowedUrl(new URL('http://localhost:1/x')));
    assert.doesNotThrow(() => assertAllowedUrl(new URL('http://[::1]:1/x')));
    assert.doesNotThrow(() => assertAllowedUrl(new URL('https://example.com/x')));
    assert.throws(() => assertAllowedUrl(new URL('ftp://example.com/x')), /scheme/);
  });

  it('joins base paths and query parameters', () => {
    const u = joinUrl('https://h/api/', '/v1/x', {
      first: 5,
      after: 'c/1',
      skip: undefined,
      ids: ['1', '2'],
    });
    assert.equal(u.toString(), 'https://h/api/v1/x?first=5&after=c%2F1&ids=1&ids=2');
  });

  it('sends the family header, a request id, JSON body; keeps unknown fields', async () => {
    const s = await startServer((_req, res) => sendJson(res, 200, { id: 1, extra: 'kept' }));
    try {
      for (const [family, expected] of [
        ['platform', `Bearer ${TOKEN}`],
        ['data', TOKEN],
        ['ai', `Api-Key ${TOKEN}`],
      ] as const) {
        const c = client(s, { family });
        const out = await c.json(
          { method: 'POST', path: '/v1/x', body: { a: 1 } },
          z.looseObject({ id: z.number() }),
        );
        assert.deepEqual(out, { id: 1, extra: 'kept' });
        const r = s.requests.at(-1)!;
        assert.equal(r.headers.authorization, expected);
        assert.equal(r.headers['content-type'], 'application/json');
        assert.equal(r.body, '{"a":1}');
        assert.match(String(r.headers['x-request-id']), /^[0-9a-f-]{36}$/);
        await c.close();
      }
    } finally {
      await s.close();
    }
  });

  it('logs every request at debug level: method, path, status, duration, request id, never the token', async () => {
    const s = await startServer((_req, res) => {
      res.setHeader('x-request-id', 'srv-req-7');
      sendJson(res, 404, { message: `no such thing for Bearer ${TOKEN}` });
    });
    const lines: string[] = [];
    const sink = (m: string) => lines.push(m);
    const c = client(s, { logger: { debug: sink, info: sink, warn: sink, error: sink } });
    try {
      await rejection(() => c.json({ method: 'GET', path: '/v1/things/3', query: { token: TOKEN } }, Any));
      const done = lines.find((l) => l.startsWith('<- '));
      assert.ok(done, lines.join('\n'));
      assert.match(done, /^<- 404 GET \S*\/api\/v1\/things\/3\S* \d+ ms \(request id srv-req-7\)$/);
      assert.ok(!lines.join('\n').includes(TOKEN), lines.join('\n'));
    } finally {
      await c.close();
      await s.close();
    }
  });

  it('fails with an auth error when no credential is set', async () => {
    const s = await startServer((_req, res) => sendJson(res, 200, {}));
    try {
      const e = await apiFailure(() =>
        client(s, { auth: async () => undefined }).json({ method: 'GET', path: '/x' }, Any),
      );
      assert.equal(e.kind, 'auth');
      assert.equal(s.requests.length, 0);
    } finally {
      await s.close();
    }
  });

  it('names the missing field path when a response does not match', async () => {
    const s = await startServer((_req, res) => sendJson(res, 200, { items: [{ id: 1 }, { name: 'x' }] }));
    try {
      const schema = z.looseObject({ items: z.array(z.looseObject({ id: z.number() })) });
      const e = await apiFailure(() => client(s).json({ method: 'GET', path: '/x' }, schema));
      assert.equal(e.kind, 'protocol');
      assert.match(e.message, /items\[1\]\.id/);
    } finally {
      await s.close();
    }
  });
});

describe('api/http: error mapping', () => {
  let s: TestServer;
  before(async () => {
    s = await startServer((req, res) => {
      const status = Number(new URL(req.url!, 'http://x').searchParams.get('status'));
      if (status === 401) return sendJson(res, 401, { error: 'jwt expired' });
      if (status === 403) return sendJson(res, 403, { error: 'Admin role required', requestId: 'body-rid' });
      if (status === 404)
        return sendJson(res, 404, { error: 'No such report' }, { 'x-request-id': 'hdr-rid' });
      if (status === 409) return sendJson(res, 409, { error: 'Version changed', code: 'VERSION_CONFLICT' });
      if (status === 400)
        return sendJson(res, 400, {
          schemas: ['urn:ietf:params:scim:api:messages:2.0:Error'],
          status: '400',
          detail: 'userName is required',
        });
      if (status === 500)
        return sendJson(res, 500, { error: `boom, got header ${req.headers.authorization}` });
      res.writeHead(status, { 'content-type': 'text/html' });
      res.end('<html><body><h1>Bad gateway</h1></body></html>');
    });
  });
  after(() => s.close());

  it('401 -> auth, telling the user to refresh the token', async () => {
    const e = await apiFailure(() =>
      client(s).json({ method: 'GET', path: '/x', query: { status: 401 } }, Any),
    );
    assert.equal(e.kind, 'auth');
    assert.equal(e.status, 401);
    assert.equal(e.serverMessage, 'jwt expired');
    assert.match(e.message, /Check or refresh the token in the profile/);
  });

  it('403 -> forbidden, generic or with a per-call hint; requestId from the body', async () => {
    const generic = await apiFailure(() =>
      client(s).json({ method: 'GET', path: '/x', query: { status: 403 } }, Any),
    );
    assert.equal(generic.kind, 'forbidden');
    assert.match(generic.message, /not allowed/);
    assert.equal(generic.requestId, 'body-rid');
    const hinted = await apiFailure(() =>
      client(s).json(
        {
          method: 'GET',
          path: '/x',
          query: { status: 403 },
          forbiddenHint: 'Listing notifications needs the admin role. Use a token of an admin user.',
        },
        Any,
      ),
    );
    assert.equal(hinted.message, 'Listing notifications needs the admin role. Use a token of an admin user.');
  });

  it('404 / 409 / SCIM 400 / HTML 502 map to their kinds with the server message', async () => {
    const nf = await apiFailure(() =>
      client(s).json({ method: 'GET', path: '/x', query: { status: 404 } }, Any),
    );
    assert.equal(nf.kind, 'notFound');
    assert.equal(nf.requestId, 'hdr-rid');
    assert.match(nf.message, /No such report/);
    const c = await apiFailure(() =>
      client(s).json({ method: 'POST', path: '/x', query: { status: 409 } }, Any),
    );
    assert.equal(c.kind, 'conflict');
    assert.equal(c.code, 'VERSION_CONFLICT');
    const v = await apiFailure(() =>
      client(s).json({ method: 'POST', path: '/x', query: { status: 400 } }, Any),
    );
    assert.equal(v.kind, 'validation');
    assert.equal(v.serverMessage, 'userName is required');
    const g = await apiFailure(() =>
      client(s, { retry: { ...FAST_RETRY, retries: 0 } }).json(
        { method: 'GET', path: '/x', query: { status: 502 } },
        Any,
      ),
    );
    assert.equal(g.kind, 'server');
    assert.equal(g.serverMessage, 'Bad gateway');
  });

  it('never puts the token in messages, even when the server echoes it', async () => {
    const e = await apiFailure(() =>
      client(s).json({ method: 'POST', path: '/x', query: { status: 500 } }, Any),
    );
    assert.equal(e.kind, 'unknownOutcome');
    assert.equal((e.cause as ApiError).kind, 'server');
    assert.ok(!e.message.includes(TOKEN), e.message);
    assert.ok(!(e.serverMessage ?? '').includes(TOKEN));
    assert.ok(!JSON.stringify({ ...e, m: e.message }).includes(TOKEN));
  });

  it('lets a call override the message of any kind', async () => {
    const e = await apiFailure(() =>
      client(s).json(
        { method: 'GET', path: '/x', query: { status: 404 }, messages: { notFound: 'That report is gone' } },
        Any,
      ),
    );
    assert.match(e.message, /^That report is gone\./);
  });
});

describe('api/http: retries', () => {
  it('retries idempotent GETs on 503 and 502, then succeeds', async () => {
    const s = await startServer((_req, res, _b, n) =>
      n === 1 ? sendJson(res, 503, {}) : n === 2 ? sendJson(res, 502, {}) : sendJson(res, 200, { ok: true }),
    );
    try {
      assert.deepEqual(await client(s).json({ method: 'GET', path: '/x' }, Any), { ok: true });
      assert.equal(s.requests.length, 3);
    } finally {
      await s.close();
    }
  });

  it('honours Retry-After (seconds and HTTP date) on 429', async () => {
    const s = await startServer((_req, res, _b, n) => {
      if (n === 1) return sendJson(res, 429, { error: 'slow down' }, { 'retry-after': '0' });
      if (n === 2)
        return sendJson(
          res,
          429,
          { error: 'slow down' },
          { 'retry-after': new Date(Date.now() - 1000).toUTCString() },
        );
      sendJson(res, 200, { ok: 1 });
    });
    try {
      assert.deepEqual(await client(s).json({ method: 'GET', path: '/x' }, Any), { ok: 1 });
      assert.equal(s.requests.length, 3);
    } finally {
      await s.close();
    }
  });

  it('gives up with rateLimited and retryAfterMs when Retry-After is too long or retries run out', async () => {
    const s = await startServer((_req, res) =>
      sendJson(res, 429, { error: 'quota' }, { 'retry-after': '3600' }),
    );
    try {
      const e = await apiFailure(() => client(s).json({ method: 'GET', path: '/x' }, Any));
      assert.equal(e.kind, 'rateLimited');
      assert.equal(e.retryAfterMs, 3_600_000);
      assert.match(e.message, /Try again in 3600 s/);
      assert.equal(s.requests.length, 1);
    } finally {
      await s.close();
    }
    const s2 = await startServer((_req, res) => sendJson(res, 503, { error: 'down' }));
    try {
      const e = await apiFailure(() => client(s2).json({ method: 'GET', path: '/x' }, Any));
      assert.equal(e.kind, 'server');
      assert.equal(s2.requests.length, 1 + FAST_RETRY.retries);
    } finally {
      await s2.close();
    }
  });

  it('never retries writes, but does retry writes marked idempotent', async () => {
    const s = await startServer((_req, res) => sendJson(res, 503, { error: 'down' }));
    try {
      for (const method of ['POST', 'PUT', 'PATCH', 'DELETE']) {
        const before = s.requests.length;
        const e = await apiFailure(() => client(s).json({ method, path: '/publish', body: {} }, Any));
        assert.equal(e.kind, 'unknownOutcome');
        assert.doesNotMatch(e.message, /try again/i);
        assert.equal(s.requests.length - before, 1, method);
      }
      const before = s.requests.length;
      await apiFailure(() =>
        client(s).json({ method: 'POST', path: '/v1/load', body: {}, idempotent: true }, Any),
      );
      assert.equal(s.requests.length - before, 1 + FAST_RETRY.retries);
    } finally {
      await s.close();
    }
  });

  it('retries a GET after a connection reset, not a POST', async () => {
    const s = await startServer((req, res, _b, n) => {
      if (n === 1 || req.method === 'POST') {
        req.socket.destroy();
        return;
      }
      sendJson(res, 200, { ok: 2 });
    });
    try {
      assert.deepEqual(await client(s).json({ method: 'GET', path: '/x' }, Any), { ok: 2 });
      assert.equal(s.requests.length, 2);
      const e = await apiFailure(() => client(s).json({ method: 'POST', path: '/x', body: {} }, Any));
      assert.equal(e.kind, 'unknownOutcome');
      assert.equal((e.cause as ApiError).kind, 'network');
      assert.equal(s.requests.length, 3);
    } finally {
      await s.close();
    }
  });

  it('retries a GET whose body is cut by a reset', async () => {
    const s = await startServer((_req, res, _b, n) => {
      if (n === 1) {
        res.writeHead(200, { 'content-type': 'application/json', 'content-length': '100' });
        res.write('{"ok":');
        setTimeout(() => res.socket?.destroy(), 5);
        return;
      }
      sendJson(res, 200, { ok: 3 });
    });
    try {
      assert.deepEqual(await client(s).json({ method: 'GET', path: '/x' }, Any), { ok: 3 });
      assert.equal(s.requests.length, 2);
    } finally {
      await s.close();
    }
  });

  it('computes full-jitter backoff within bounds and parses Retry-After', () => {
    const p = { retries: 5, baseDelayMs: 100, maxDelayMs: 1000 };
    assert.equal(
      backoffDelay(0, p, () => 0),
      0,
    );
    assert.equal(
      backoffDelay(0, p, () => 0.999999),
      99,
    );
    assert.equal(
      backoffDelay(3, p, () => 0.5),
      400,
    );
    assert.equal(
      backoffDelay(10, p, () => 0.999999),
      999,
    );
    assert.equal(parseRetryAfter('2'), 2000);
    assert.equal(
      parseRetryAfter('Wed, 21 Oct 2015 07:28:00 GMT', Date.parse('Wed, 21 Oct 2015 07:27:00 GMT')),
      60_000,
    );
    assert.equal(parseRetryAfter('soon'), undefined);
    assert.equal(parseRetryAfter(undefined), undefined);
  });
});

describe('api/http: cancellation, timeouts, pooling, odd framing', () => {
  it('aborts a pending request with kind cancelled', async () => {
    const s = await startServer(() => undefined /* never answers */);
    try {
      const ctl = new AbortController();
      const p = client(s).json({ method: 'GET', path: '/x', signal: ctl.signal }, Any);
      setTimeout(() => ctl.abort(), 20);
      assert.equal((await apiFailure(() => p)).kind, 'cancelled');
      const already = new AbortController();
      already.abort();
      assert.equal(
        (await apiFailure(() => client(s).json({ method: 'GET', path: '/x', signal: already.signal }, Any)))
          .kind,
        'cancelled',
      );
    } finally {
      await s.close();
    }
  });

  it('aborts during a retry wait', async () => {
    const s = await startServer((_req, res) => sendJson(res, 429, {}, { 'retry-after': '3' }));
    try {
      const ctl = new AbortController();
      const p = client(s).json({ method: 'GET', path: '/x', signal: ctl.signal }, Any);
      while (s.requests.length === 0) await new Promise((r) => setTimeout(r, 5));
      ctl.abort();
      assert.equal((await apiFailure(() => p)).kind, 'cancelled');
      assert.equal(s.requests.length, 1);
    } finally {
      await s.close();
    }
  });

  it('maps a per-call timeout and a headers timeout to kind timeout', async () => {
    const s = await startServer(() => undefined);
    try {
      const e = await apiFailure(() => client(s).json({ method: 'GET', path: '/x', timeoutMs: 30 }, Any));
      assert.equal(e.kind, 'timeout');
      const e2 = await apiFailure(() =>
        client(s, { network: { headersTimeoutMs: 30 } }).json({ method: 'GET', path: '/x' }, Any),
      );
      assert.equal(e2.kind, 'timeout');
    } finally {
      await s.close();
    }
  });

  it('shares one keep-alive pool per origin between clients', async () => {
    const s = await startServer((_req, res) => sendJson(res, 200, {}));
    try {
      const registry = new DispatcherRegistry({});
      const a = client(s, { dispatchers: registry });
      const b = client(s, { dispatchers: registry, family: 'data' });
      await a.json({ method: 'GET', path: '/1' }, Any);
      await b.json({ method: 'GET', path: '/2' }, Any);
      for (let i = 3; i < 8; i++) await a.json({ method: 'GET', path: `/${i}` }, Any);
      assert.equal(registry.size, 1);
      const ports = new Set(s.requests.map((r) => r.remotePort));
      assert.ok(ports.size < s.requests.length, `kept-alive sockets were reused (${ports.size} sockets)`);
      await a.close();
      assert.equal(registry.size, 1);
      await b.close();
      assert.equal(registry.size, 0);
    } finally {
      await s.close();
    }
  });

  it('surfaces the server message of an error body sent with Content-Length and Transfer-Encoding', async () => {
    const body = '{"type":"UserError","error":"Unknown member: orders.nope","requestId":"rid-7"}';
    const server = net.createServer((sock) => {
      sock.once('data', () =>
        sock.end(
          'HTTP/1.1 400 Bad Request\r\nContent-Type: application/json\r\n' +
            `Content-Length: ${body.length}\r\nTransfer-Encoding: chunked\r\n\r\n` +
            `${body.length.toString(16)}\r\n${body}\r\n0\r\n\r\n`,
        ),
      );
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    try {
      const port = (server.address() as net.AddressInfo).port;
      const c = new HttpClient({
        baseUrl: `http://127.0.0.1:${port}`,
        family: 'data',
        auth: async () => TOKEN,
        dispatchers: new DispatcherRegistry({}),
      });
      const e = await apiFailure(() =>
        c.request({ method: 'POST', path: '/v1/cubesql', body: {}, idempotent: true }),
      );
      assert.equal(e.kind, 'validation');
      assert.equal(e.serverMessage, 'Unknown member: orders.nope');
      assert.equal(e.requestId, 'rid-7');
    } finally {
      server.close();
    }
  });
});
