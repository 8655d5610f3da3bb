// Deadlines that hold: a call's deadline is set once and covers every retry, every wait between
// them and the lenient re-read after a framing error. Before, each retry started a fresh deadline
// (2 s set, 9.4 s taken), a Retry-After longer than what was left was still waited for, and the
// re-read had no deadline at all (a 3 s deadline still pending at 40 s). The measures are request
// counts and kinds, never elapsed times; `within` only turns a hang into a failure.
import * as assert from 'node:assert/strict';
import * as net from 'node:net';
import { z } from 'zod';
import { type HttpClient, type HttpClientOptions } from '../../../src/api/http';
import { apiFailure, platformHttp, sendJson, startServer, type TestServer, within } from '../api/helpers';

const TOKEN = 'deadline-token-1234567890';

const client = (url: string, extra: Partial<HttpClientOptions> = {}): HttpClient =>
  platformHttp(url, TOKEN, extra);

describe('faults: one overall deadline per call, through retries and re-reads', function () {
  this.timeout(20_000);
  let s: TestServer | undefined;
  afterEach(async () => {
    await s?.close();
    s = undefined;
  });

  it('a retry does not restart the deadline: resets after 250 ms under a 600 ms deadline end by the deadline, not after six attempts', async () => {
    s = await startServer((req) => {
      setTimeout(() => req.socket.destroy(), 250);
    });
    const retries = 5;
    const c = client(s.url, { deadlineMs: 600, retry: { retries, baseDelayMs: 1, maxDelayMs: 2 } });
    const e = await within(10_000, apiFailure(c.json({ method: 'GET', path: '/x' }, z.unknown())));
    // A timeout, or (on a loaded machine, where the reset and the deadline's timer come late together)
    // the reset that spent the deadline: either way no retry was made past it.
    assert.ok(['timeout', 'network'].includes(e.kind), e.message);
    // 600 ms hold at most three 250 ms attempts; with a fresh deadline each, all six were made.
    assert.ok(s.requests.length < retries + 1, `${s.requests.length} attempts`);
    await c.close();
  });

  it('a Retry-After longer than what is left of the deadline is not waited for: the answer is returned', async () => {
    s = await startServer((_req, res) => sendJson(res, 503, { error: 'busy' }, { 'retry-after': '3' }));
    const c = client(s.url, {
      deadlineMs: 1_000,
      retry: { retries: 3, baseDelayMs: 1, maxDelayMs: 2, maxRetryAfterMs: 60_000 },
    });
    const e = await within(10_000, apiFailure(c.json({ method: 'GET', path: '/x' }, z.unknown())));
    assert.equal(e.kind, 'server');
    assert.equal(e.serverMessage, 'busy');
    assert.equal(s.requests.length, 1, 'no wait of 3 s inside a 1 s deadline, so no second request');
    await c.close();
  });

  it('the per-call timeout is overall too: retries on 503 stop when it is spent', async () => {
    let n = 0;
    s = await startServer((_req, res) => {
      n++;
      // Slow 503s: each takes 200 ms to come.
      setTimeout(() => sendJson(res, 503, { error: 'down' }), 200);
    });
    const retries = 8;
    const c = client(s.url, { retry: { retries, baseDelayMs: 1, maxDelayMs: 2 } });
    const e = await within(
      10_000,
      apiFailure(c.json({ method: 'GET', path: '/x', timeoutMs: 500 }, z.unknown())),
    );
    assert.ok(['timeout', 'server'].includes(e.kind), e.message);
    assert.ok(n < retries + 1, `${n} attempts within a 500 ms timeout`);
    await c.close();
  });

  it('the lenient re-read after a framing error gets what is left of the deadline, not none', async () => {
    // The first answer has both Content-Length and Transfer-Encoding (undici refuses it, the
    // transport re-reads with Node's lenient parser); the re-read is never answered.
    let connections = 0;
    const sockets = new Set<net.Socket>();
    const server = net.createServer((sock) => {
      connections++;
      sockets.add(sock);
      sock.on('error', () => undefined);
      sock.on('close', () => sockets.delete(sock));
      const first = connections === 1;
      sock.once('data', () => {
        if (!first) return; // silent
        const body = '{"ok":true}';
        sock.end(
          'HTTP/1.1 200 OK\r\nContent-Type: application/json\r\n' +
            `Content-Length: ${body.length}\r\nTransfer-Encoding: chunked\r\n\r\n` +
            `${body.length.toString(16)}\r\n${body}\r\n0\r\n\r\n`,
        );
      });
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    const port = (server.address() as net.AddressInfo).port;
    const c = client(`http://127.0.0.1:${port}`, { deadlineMs: 500 });
    try {
      const e = await within(8_000, apiFailure(c.json({ method: 'GET', path: '/x' }, z.unknown())));
      assert.equal(e.kind, 'timeout', e.message);
      assert.equal(connections, 2, 'the first read and one lenient re-read');
    } finally {
      await c.close();
      for (const so of sockets) so.destroy();
      await new Promise<void>((r) => server.close(() => r()));
    }
  });
});
