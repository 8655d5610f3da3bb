// The rules of one HTTP call (src/api/http.ts), checked against loopback servers: the URL and
// credential checks before any I/O, the headers and body sent, an empty or invalid answer, the
// Retry-After wait against what is left of the deadline, and an error body that cannot be read.
import * as assert from 'node:assert/strict';
import * as net from 'node:net';
import type { AddressInfo } from 'node:net';
import { z } from 'zod';
import { HttpClient, JSON_TYPES } from '../../../src/api/http';
import { DispatcherRegistry } from '../../../src/api/net/agents';
import {
  apiFailure,
  collect,
  deferred,
  platformHttp,
  sendJson,
  startServer,
  type TestServer,
} from './helpers';

const TOKEN = 'tok-EXACT-0987654321';
const NO_RETRY = { retries: 0, baseDelayMs: 1, maxDelayMs: 1 };

/** A TCP server on 127.0.0.1 whose connections `onSocket` answers by hand (bytes as written). */
async function rawServer(
  onSocket: (s: net.Socket) => void,
): Promise<{ url: string; close(): Promise<void> }> {
  const sockets = new Set<net.Socket>();
  const server = net.createServer((s) => {
    sockets.add(s);
    s.on('close', () => sockets.delete(s));
    s.on('error', () => undefined);
    onSocket(s);
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const port = (server.address() as AddressInfo).port;
  return {
    url: `http://127.0.0.1:${port}`,
    close: () =>
      new Promise<void>((r) => {
        for (const s of sockets) s.destroy();
        server.close(() => r());
      }),
  };
}

/** A platform client at `baseUrl` that counts how often it was asked for its credential. */
function countingClient(baseUrl: string) {
  let asked = 0;
  const c = new HttpClient({
    baseUrl,
    family: 'platform',
    auth: async () => {
      asked++;
      return TOKEN;
    },
    dispatchers: new DispatcherRegistry({}),
  });
  return { c, asked: () => asked };
}

describe('api/http: checks before any I/O', () => {
  it('says a base URL that is not a URL is to be fixed in the profile', async () => {
    const { c, asked } = countingClient('dashboards example');
    const e = await apiFailure(() => c.json({ method: 'GET', path: '/v1/x' }, z.unknown()));
    assert.equal(e.kind, 'validation');
    assert.equal(e.code, 'BAD_URL');
    assert.equal(e.message, 'The URL "dashboards example" is not valid. Fix it in the profile.');
    assert.equal(asked(), 0);
  });

  it('refuses calls on a closed client without asking for the credential', async () => {
    const { c, asked } = countingClient('http://127.0.0.1:9/api');
    await c.close();
    const e = await apiFailure(() => c.json({ method: 'get', path: '/v1/x' }, z.unknown()));
    assert.equal(e.kind, 'cancelled');
    assert.equal(e.message, 'The client was closed.');
    assert.equal(e.method, 'GET');
    assert.equal(e.url, 'http://127.0.0.1:9/api/v1/x');
    assert.equal(asked(), 0);
  });

  it('fails a call whose signal is already aborted before asking for the credential', async () => {
    const { c, asked } = countingClient('http://127.0.0.1:9/api');
    const ac = new AbortController();
    ac.abort();
    const e = await apiFailure(() =>
      c.json({ method: 'GET', path: '/v1/x', signal: ac.signal }, z.unknown()),
    );
    assert.equal(e.kind, 'cancelled');
    assert.equal(asked(), 0);
  });

  it('names the missing credential of each family', async () => {
    const cases = [
      ['platform', 'No token is set. Add one to the profile.'],
      ['data', 'No Data API token is set. Add one to the profile.'],
      ['ai', 'No API key is set. Add one to the profile.'],
    ] as const;
    for (const [family, message] of cases) {
      const c = new HttpClient({
        baseUrl: 'http://127.0.0.1:9/api',
        family,
        auth: async () => '',
        dispatchers: new DispatcherRegistry({}),
      });
      const e = await apiFailure(() => c.json({ method: 'post', path: '/v1/x' }, z.unknown()));
      assert.equal(e.kind, 'auth', family);
      assert.equal(e.message, message);
      assert.equal(e.method, 'POST');
      assert.equal(e.url, 'http://127.0.0.1:9/api/v1/x');
    }
  });
});

describe('api/http: what is sent', () => {
  let s: TestServer;
  before(async () => {
    s = await startServer((req, res) => {
      if (req.url?.endsWith('/empty')) {
        res.writeHead(200, { 'content-type': 'application/json', 'content-length': '0' });
        res.end();
      } else if (req.url?.endsWith('/nocontent')) {
        res.writeHead(204);
        res.end();
      } else if (req.url?.endsWith('/broken')) {
        res.writeHead(200, { 'content-type': 'application/json', 'x-request-id': 'srv-1' });
        res.end('{"a":');
      } else sendJson(res, 200, { ok: true });
    });
  });
  after(() => s.close());

  it('sends the default headers, lower-cased extra headers, and its own authorization', async () => {
    const c = platformHttp(s.url + '/api', TOKEN, { retry: NO_RETRY });
    const from = s.requests.length;
    await c.json(
      {
        method: 'GET',
        path: '/v1/a',
        headers: { 'X-Extra': 'one', Authorization: 'Bearer stolen' },
        requestId: 'rid-7',
      },
      z.unknown(),
    );
    const sent = s.requests[from]!;
    assert.equal(sent.headers.accept, JSON_TYPES.join(', '));
    assert.equal(sent.headers['user-agent'], 'dashboard-platform-vscode');
    assert.equal(sent.headers['x-request-id'], 'rid-7');
    assert.equal(sent.headers['x-extra'], 'one');
    assert.equal(sent.headers.authorization, `Bearer ${TOKEN}`);
    await c.close();
  });

  it('sends the accepted media types, the user agent set, and a fresh request id each call', async () => {
    const c = platformHttp(s.url + '/api', TOKEN, { retry: NO_RETRY, userAgent: 'agent/2' });
    const from = s.requests.length;
    await c.noContent({ method: 'GET', path: '/v1/nocontent', accept: ['text/csv', 'application/json'] });
    await c.noContent({ method: 'GET', path: '/v1/nocontent', accept: ['text/csv', 'application/json'] });
    const [a, b] = s.requests.slice(from);
    assert.equal(a!.headers.accept, 'text/csv, application/json');
    assert.equal(a!.headers['user-agent'], 'agent/2');
    assert.match(
      String(a!.headers['x-request-id']),
      /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/,
    );
    assert.notEqual(a!.headers['x-request-id'], b!.headers['x-request-id']);
    await c.close();
  });

  it('sends a text or byte body as is, and anything else as JSON', async () => {
    const c = platformHttp(s.url + '/api', TOKEN, { retry: NO_RETRY });
    const from = s.requests.length;
    await c.json(
      { method: 'POST', path: '/v1/t', body: '{"raw": 1 }', headers: { 'content-type': 'text/plain' } },
      z.unknown(),
    );
    await c.json({ method: 'POST', path: '/v1/t', body: 'plain words' }, z.unknown());
    await c.json({ method: 'PUT', path: '/v1/b', body: new Uint8Array([104, 105, 0, 255]) }, z.unknown());
    await c.json({ method: 'POST', path: '/v1/j', body: { a: [1, 'x'] } }, z.unknown());
    await c.json(
      {
        method: 'PATCH',
        path: '/v1/m',
        body: { a: null },
        headers: { 'Content-Type': 'application/merge-patch+json' },
      },
      z.unknown(),
    );
    const [text, words, bytes, json, merge] = s.requests.slice(from);
    assert.equal(text!.body, '{"raw": 1 }');
    assert.equal(text!.headers['content-type'], 'text/plain');
    assert.equal(words!.body, 'plain words');
    assert.notEqual(words!.headers['content-type'], 'application/json');
    assert.deepEqual(Buffer.from(bytes!.body, 'latin1').length, 4);
    assert.equal(bytes!.body.slice(0, 2), 'hi');
    assert.notEqual(bytes!.headers['content-type'], 'application/json');
    assert.equal(json!.body, '{"a":[1,"x"]}');
    assert.equal(json!.headers['content-type'], 'application/json');
    assert.equal(merge!.body, '{"a":null}');
    assert.equal(merge!.headers['content-type'], 'application/merge-patch+json');
    await c.close();
  });

  it('reads an empty answer as absent only where the schema allows it', async () => {
    const c = platformHttp(s.url + '/api', TOKEN, { retry: NO_RETRY });
    assert.equal(
      await c.json({ method: 'GET', path: '/v1/empty' }, z.object({ a: z.string() }).optional()),
      undefined,
    );
    for (const schema of [z.unknown(), z.any(), z.object({ a: z.string() })]) {
      const e = await apiFailure(() =>
        c.json({ method: 'GET', path: '/v1/empty', action: 'Loading it' }, schema),
      );
      assert.equal(e.kind, 'protocol');
      assert.equal(e.code, 'EMPTY');
      assert.equal(
        e.message,
        "Loading it: the service answered 200 with nothing where an answer was expected. Try again later; if it keeps happening, check the profile's URL.",
      );
    }
    await c.close();
  });

  it('says the server sent invalid JSON, naming the call', async () => {
    const c = platformHttp(s.url + '/api', TOKEN, { retry: NO_RETRY });
    const e = await apiFailure(() => c.json({ method: 'GET', path: '/v1/broken' }, z.unknown()));
    assert.equal(e.kind, 'protocol');
    assert.equal(e.message, 'The server sent invalid JSON for GET /v1/broken.');
    assert.equal(e.status, 200);
    assert.equal(e.requestId, 'srv-1');
    assert.equal(e.url, s.url + '/api/v1/broken');
    await c.close();
  });

  it('gives a 204 stream as is, fails an empty 200 stream at its end, and returns a no-content status', async () => {
    const c = platformHttp(s.url + '/api', TOKEN, { retry: NO_RETRY });
    const none = await c.request({ method: 'GET', path: '/v1/nocontent' });
    assert.equal(none.status, 204);
    assert.deepEqual(await collect(none.body), []);
    const empty = await c.request({ method: 'GET', path: '/v1/empty' });
    assert.equal(empty.status, 200);
    const e = await apiFailure(() => collect(empty.body));
    assert.equal(e.code, 'EMPTY');
    assert.equal(await c.noContent({ method: 'DELETE', path: '/v1/nocontent' }), 204);
    await c.close();
  });
});

describe('api/http: Retry-After against the deadline', () => {
  let s: TestServer;
  before(async () => {
    s = await startServer((req, res, _body, n) => {
      if (req.url?.includes('/once') && n % 2 === 0) return sendJson(res, 200, { ok: n });
      sendJson(res, 503, { message: 'busy' }, { 'retry-after': '0' });
    });
  });
  after(() => s.close());

  it('does not wait for a Retry-After longer than what is left: the 503 is returned', async () => {
    const c = platformHttp(s.url + '/api', TOKEN, { retry: { retries: 3, baseDelayMs: 1, maxDelayMs: 1 } });
    const from = s.requests.length;
    // Retry-After 0 means one second (the shortest wait); only half a second is left.
    const e = await apiFailure(() => c.json({ method: 'GET', path: '/v1/x', timeoutMs: 500 }, z.unknown()));
    assert.equal(e.kind, 'server');
    assert.equal(e.status, 503);
    assert.equal(e.retryAfterMs, 1000);
    assert.equal(
      e.message,
      `The service failed (503). Try again later. The server said: busy. (request id ${String(s.requests[from]!.headers['x-request-id'])})`,
    );
    assert.equal(s.requests.length - from, 1);
    await c.close();
  });

  it('waits for a Retry-After that fits, then retries', async () => {
    const c = platformHttp(s.url + '/api', TOKEN, { retry: { retries: 3, baseDelayMs: 1, maxDelayMs: 1 } });
    // Odd request numbers get the 503: make this call start on one.
    if (s.requests.length % 2 === 1)
      await c.noContent({ method: 'GET', path: '/v1/once' }).catch(() => undefined);
    const from = s.requests.length;
    const got = await c.json({ method: 'GET', path: '/v1/once' }, z.object({ ok: z.number() }));
    assert.equal(s.requests.length - from, 2);
    assert.equal(got.ok, from + 2);
    await c.close();
  });

  it('does not wait for a Retry-After past the policy limit', async () => {
    const c = platformHttp(s.url + '/api', TOKEN, {
      retry: { retries: 3, baseDelayMs: 1, maxDelayMs: 1, maxRetryAfterMs: 999 },
    });
    const from = s.requests.length;
    const e = await apiFailure(() => c.json({ method: 'GET', path: '/v1/x' }, z.unknown()));
    assert.equal(e.status, 503);
    assert.equal(s.requests.length - from, 1);
    await c.close();
  });
});

describe('api/http: an error body that cannot be read', () => {
  it('reports the status without a server sentence when the body is cut', async () => {
    const srv = await rawServer((sock) => {
      sock.once('data', () => {
        sock.write(
          'HTTP/1.1 500 Internal Server Error\r\ncontent-type: application/json\r\ncontent-length: 200\r\n\r\n{"message":"par',
        );
        setImmediate(() => sock.destroy());
      });
    });
    const c = platformHttp(srv.url + '/api', TOKEN, { retry: NO_RETRY });
    const e = await apiFailure(() =>
      c.json({ method: 'GET', path: '/v1/x', requestId: 'rid-cut' }, z.unknown()),
    );
    assert.equal(e.kind, 'server');
    assert.equal(e.status, 500);
    assert.equal(e.serverMessage, undefined);
    assert.equal(e.message, 'The service failed (500). Try again later. (request id rid-cut)');
    await c.close();
    await srv.close();
  });

  it('says cancelled when the call is cancelled while the error body is read', async () => {
    const headersSent = deferred();
    const srv = await rawServer((sock) => {
      sock.once('data', () => {
        sock.write(
          'HTTP/1.1 500 Internal Server Error\r\ncontent-type: application/json\r\ncontent-length: 200\r\n\r\n{"message":"par',
        );
        headersSent.resolve();
      });
    });
    const c = platformHttp(srv.url + '/api', TOKEN, { retry: NO_RETRY });
    const ac = new AbortController();
    const call = c.json({ method: 'GET', path: '/v1/x', signal: ac.signal }, z.unknown());
    await headersSent.promise;
    // Give the client the status line before the abort (a loopback round trip).
    await new Promise((r) => setTimeout(r, 50));
    ac.abort();
    const e = await apiFailure(call);
    assert.equal(e.kind, 'cancelled');
    await c.close();
    await srv.close();
  });
});

describe('api/http: an error body with broken framing', () => {
  const BAD =
    'HTTP/1.1 500 Internal Server Error\r\ncontent-type: application/json\r\ntransfer-encoding: chunked\r\n\r\n';
  const GOOD = (body: string) =>
    `HTTP/1.1 500 Internal Server Error\r\ncontent-type: application/json\r\ncontent-length: ${body.length}\r\nconnection: close\r\n\r\n${body}`;
  /**
   * First connection: a 500 whose chunked body is malformed; later ones: a well-formed 500 (what a
   * lenient re-read would get, were one sent).
   */
  async function framingServer() {
    let connections = 0;
    const srv = await rawServer((sock) => {
      const n = ++connections;
      sock.once('data', () => {
        if (n > 1) return void sock.end(GOOD('{"message":"read leniently"}'));
        sock.write(BAD);
        // The bad chunk after the headers, so that it breaks the body, not the status line.
        setTimeout(() => sock.write('ZZ\r\nxx\r\n'), 30);
      });
    });
    return { ...srv, connections: () => connections };
  }

  it('never sends a write twice to re-read its error', async () => {
    const srv = await framingServer();
    const c = platformHttp(srv.url + '/api', TOKEN, { retry: NO_RETRY });
    try {
      const e = await apiFailure(() => c.json({ method: 'POST', path: '/v1/x', body: {} }, z.unknown()));
      assert.equal(e.status, 500);
      assert.equal(e.serverMessage, undefined);
      assert.equal(srv.connections(), 1);
    } finally {
      await c.close();
      await srv.close();
    }
  });
});
