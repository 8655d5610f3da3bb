// The pieces of the transport each call goes through: response headers copied, bodies read under a
// limit, which framing errors get a lenient re-read and what that re-read answers, the shared pools'
// sharing, release and reset, and the NDJSON line splitter (src/api/net/*, src/api/ndjson.ts).
import * as assert from 'node:assert/strict';
import * as http from 'node:http';
import * as net from 'node:net';
import type { AddressInfo } from 'node:net';
import { z } from 'zod';
import { DispatcherRegistry } from '../../../src/api/net/agents';
import { isLenientCandidate, lenientRequest, lenientSend } from '../../../src/api/net/lenient';
import { lowerKeys, readBytes, readText, toHeaders } from '../../../src/api/net/request';
import { linePieces } from '../../../src/api/ndjson';
import { apiFailure, collect, platformHttp, startServer, type TestServer } from './helpers';

const bytes = (s: string): Uint8Array => new TextEncoder().encode(s);
const text = (b: Uint8Array): string => Buffer.from(b).toString('utf8');

/** An iterable of `parts` that records how many were taken. */
function counted(parts: string[]): { body: AsyncIterable<Uint8Array>; taken: () => number } {
  let taken = 0;
  return {
    body: (async function* () {
      for (const p of parts) {
        taken++;
        yield bytes(p);
      }
    })(),
    taken: () => taken,
  };
}

describe('api/net/request: headers and bodies', () => {
  it('copies response headers: arrays appended, absent skipped, refused names dropped', () => {
    const h = toHeaders({ 'x-one': 'a', 'x-many': ['b', 'c'], 'x-none': undefined, 'bad name': 'z' });
    assert.equal(h.get('x-one'), 'a');
    assert.equal(h.get('x-many'), 'b, c');
    assert.equal(h.has('x-none'), false);
    assert.deepEqual([...h.keys()].sort(), ['x-many', 'x-one']);
  });

  it('lower-cases the keys of request headers', () => {
    assert.deepEqual(lowerKeys({ 'X-A': '1', accept: 'x' }), { 'x-a': '1', accept: 'x' });
    assert.deepEqual(lowerKeys(undefined), {});
  });

  it('reads text up to the limit and stops fetching there', async () => {
    const cut = counted(['abc', 'def', 'ghi']);
    assert.equal(await readText(cut.body, 4), 'abcd');
    assert.equal(cut.taken(), 2);
    const exact = counted(['abc', 'def', 'ghi']);
    assert.equal(await readText(exact.body, 6), 'abcdef');
    assert.equal(exact.taken(), 2);
    assert.equal(await readText(counted(['ab', 'cd']).body), 'abcd');
    assert.deepEqual(await readBytes(counted(['ab', 'cd']).body), Buffer.from('abcd'));
  });
});

describe('api/ndjson: line pieces', () => {
  it('splits lines without an empty piece after a final newline', async () => {
    const pieces = await collect(linePieces(counted(['a\nbb\n', 'c', 'd\n\n']).body));
    assert.deepEqual(
      pieces.map((p) => [text(p.bytes), p.eol]),
      [
        ['a', true],
        ['bb', true],
        ['c', false],
        ['d', true],
        ['', true],
      ],
    );
  });
});

describe('api/net/lenient: which failures are re-read leniently', () => {
  it('takes a content-length mismatch and parser errors only', () => {
    assert.ok(isLenientCandidate({ code: 'UND_ERR_RES_CONTENT_LENGTH_MISMATCH' }));
    assert.ok(isLenientCandidate({ code: 'HPE_UNEXPECTED_CONTENT_LENGTH' }));
    assert.ok(isLenientCandidate({ code: 'HPE_' }));
    for (const e of [
      { code: 'UND_ERR_SOCKET' },
      { code: 'XHPE_X' },
      { code: 'UND_ERR_RES_CONTENT_LENGTH' },
      { code: 7 },
      {},
      null,
      undefined,
    ])
      assert.ok(!isLenientCandidate(e), JSON.stringify(e));
  });
});

describe('api/net/lenient: the lenient re-read', () => {
  let s: TestServer;
  before(async () => {
    s = await startServer((req, res) => {
      if (req.url === '/cookies') {
        res.setHeader('set-cookie', ['a=1', 'b=2']);
        res.writeHead(200, { 'content-type': 'application/json', 'x-request-id': 'srv-9' });
        res.end('{"ok":true}');
      } else if (req.url === '/busy') {
        res.writeHead(503, { 'content-type': 'application/json', 'retry-after': '2' });
        res.end(JSON.stringify({ message: 'busy for tok-LENIENT-123456' }));
      } else {
        res.writeHead(200, { 'content-type': 'application/json' });
        res.end('{"ok":1}');
      }
    });
  });
  after(() => s.close());

  it('keeps every value of a repeated header', async () => {
    const res = await lenientRequest(new URL(s.url + '/cookies'), {
      method: 'GET',
      headers: {},
      signal: new AbortController().signal,
    });
    assert.equal(res.status, 200);
    assert.deepEqual(res.headers.getSetCookie(), ['a=1', 'b=2']);
    assert.equal(res.headers.get('x-request-id'), 'srv-9');
    assert.equal(await readText(res.body), '{"ok":true}');
  });

  it('fails with ETIMEDOUT when the server sends nothing within the connect timeout', async () => {
    const silent = net.createServer(() => undefined);
    const held: net.Socket[] = [];
    silent.on('connection', (c) => held.push(c));
    await new Promise<void>((r) => silent.listen(0, '127.0.0.1', r));
    const port = (silent.address() as AddressInfo).port;
    try {
      const e = (await lenientRequest(new URL(`http://127.0.0.1:${port}/x`), {
        method: 'GET',
        headers: {},
        signal: new AbortController().signal,
        network: { connectTimeoutMs: 50 },
      }).then(
        () => undefined,
        (err: unknown) => err,
      )) as { code?: string; message?: string } | undefined;
      assert.equal(e?.code, 'ETIMEDOUT');
      assert.equal(e?.message, 'connect timeout');
    } finally {
      for (const c of held) c.destroy();
      await new Promise<void>((r) => silent.close(() => r()));
    }
  });

  const call = (path: string, method = 'GET') => ({
    url: new URL(s.url + path),
    method,
    headers: { authorization: 'Bearer tok-LENIENT-123456' },
    body: undefined,
    opts: {},
    requestId: 'rid-l',
  });
  const client = { family: 'platform' as const, maxErrorBody: 1024 };

  it('maps an error answer like the main path: status, Retry-After, request id, no credential', async () => {
    const e = await apiFailure(() => lenientSend(client, call('/busy'), () => Promise.resolve('read')));
    assert.equal(e.kind, 'server');
    assert.equal(e.status, 503);
    assert.equal(e.retryAfterMs, 2000);
    assert.equal(e.requestId, 'rid-l');
    assert.equal(e.method, 'GET');
    assert.equal(e.url, s.url + '/busy');
    assert.doesNotMatch(e.message, /tok-LENIENT/);
    assert.match(e.message, /^The service failed \(503\)\. Try again later\. The server said: busy for /);
  });

  it('hands a success to the reader with the request id it had', async () => {
    const got = await lenientSend(client, call('/cookies'), async (res) => ({
      status: res.status,
      id: res.requestId,
      url: res.url,
      body: await readText(res.body),
    }));
    assert.deepEqual(got, { status: 200, id: 'srv-9', url: s.url + '/cookies', body: '{"ok":true}' });
    const fallback = await lenientSend(client, call('/plain'), async (res) => res.requestId);
    assert.equal(fallback, 'rid-l');
  });

  it('maps a refused connection to the transport sentence', async () => {
    const closed = net.createServer();
    await new Promise<void>((r) => closed.listen(0, '127.0.0.1', r));
    const port = (closed.address() as AddressInfo).port;
    await new Promise<void>((r) => closed.close(() => r()));
    const e = await apiFailure(() =>
      lenientSend(client, { ...call('/x'), url: new URL(`http://127.0.0.1:${port}/x`) }, () =>
        Promise.resolve(1),
      ),
    );
    assert.equal(e.kind, 'network');
    assert.equal(e.code, 'ECONNREFUSED');
    assert.equal(
      e.message,
      `http://127.0.0.1:${port} refused the connection. Check the URL and that the service is running.`,
    );
  });
});

describe('api/net/agents: shared pools', () => {
  const origin = new URL('http://127.0.0.1:9');

  it('shares one pool per origin and settings, and closes it when the last holder releases', async () => {
    const reg = new DispatcherRegistry({});
    const a = reg.acquire(origin);
    const b = reg.acquire(origin);
    assert.equal(a.dispatcher, b.dispatcher);
    assert.deepEqual(a.warnings, []);
    assert.equal(a.proxy, undefined);
    assert.equal(reg.size, 1);
    const other = reg.acquire(origin, { headersTimeoutMs: 5 });
    assert.notEqual(other.dispatcher, a.dispatcher);
    assert.equal(reg.size, 2);
    const pool = a.dispatcher as unknown as { closed: boolean };
    await a.release();
    await a.release(); // a second release of one lease counts once
    assert.equal(reg.size, 2);
    assert.equal(pool.closed, false);
    await b.release();
    assert.equal(reg.size, 1);
    assert.equal(pool.closed, true);
    await other.release();
    assert.equal(reg.size, 0);
  });

  it('replaces a reset pool for every holder and destroys the old one', async () => {
    const reg = new DispatcherRegistry({});
    const a = reg.acquire(origin);
    const b = reg.acquire(origin);
    const old = a.dispatcher as unknown as { destroyed: boolean };
    a.reset();
    assert.notEqual(a.dispatcher, old);
    assert.equal(b.dispatcher, a.dispatcher);
    assert.equal(old.destroyed, true);
    await a.release();
    await b.release();
    assert.equal(reg.size, 0);
  });

  it('uses the body timeout set: a stalled body fails as a timeout receiving data', async () => {
    const srv = http.createServer((_req, res) => {
      res.writeHead(200, { 'content-type': 'application/json', 'content-length': '100' });
      res.write('{"a":');
    });
    const sockets: net.Socket[] = [];
    srv.on('connection', (c) => sockets.push(c));
    await new Promise<void>((r) => srv.listen(0, '127.0.0.1', r));
    const port = (srv.address() as AddressInfo).port;
    const c = platformHttp(`http://127.0.0.1:${port}/api`, 'tok-agents-1234567', {
      retry: { retries: 0, baseDelayMs: 1, maxDelayMs: 1 },
      network: { bodyTimeoutMs: 100 },
    });
    try {
      const e = await apiFailure(() => c.json({ method: 'GET', path: '/v1/x' }, z.unknown()));
      assert.equal(e.kind, 'timeout');
      assert.equal(e.code, 'UND_ERR_BODY_TIMEOUT');
      assert.equal(
        e.message,
        `Receiving data from http://127.0.0.1:${port} timed out. Check your network and try again.`,
      );
    } finally {
      await c.close();
      for (const s2 of sockets) s2.destroy();
      await new Promise<void>((r) => srv.close(() => r()));
    }
  });
});
