// A proxy that accepts CONNECT and then drops the tunnel made undici 7 re-dial it in a busy loop,
// ignoring the request's signal, until the family's deadline (minutes); one that never answers held
// the call. Every call must end by itself (a dropped tunnel fails the attempt; reads back off and
// retry a bounded number of times), on abort, or on its deadline, and no dial follows its end.
// Real misbehaving proxies on loopback; the dials they count are the measure (not CPU time).
import * as assert from 'node:assert/strict';
import * as net from 'node:net';
import { z } from 'zod';
import { DEFAULT_RETRY, HttpClient, type RetryPolicy } from '../../../src/api/http';
import { DispatcherRegistry } from '../../../src/api/net/agents';
import { apiFailure, within } from '../api/helpers';

interface BadProxy {
  url: string;
  /** TCP connections the proxy accepted (undici's dial attempts). */
  connections(): number;
  close(): Promise<void>;
}

async function badProxy(mode: 'drop' | 'silent'): Promise<BadProxy> {
  let connections = 0;
  const sockets = new Set<net.Socket>();
  const server = net.createServer((s) => {
    connections++;
    sockets.add(s);
    s.on('error', () => undefined);
    s.on('close', () => sockets.delete(s));
    // Reads the CONNECT request, then closes without an answer ('drop') or says nothing ('silent').
    s.once('data', () => {
      if (mode === 'drop') s.destroy();
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  return {
    url: `http://127.0.0.1:${(server.address() as net.AddressInfo).port}`,
    connections: () => connections,
    close: () =>
      new Promise<void>((r) => {
        for (const s of sockets) s.destroy();
        server.close(() => r());
      }),
  };
}

const wait = (ms: number) => new Promise((r) => setTimeout(r, ms));

describe('faults: a proxy that drops or ignores the CONNECT tunnel', function () {
  this.timeout(15_000);
  const clients: HttpClient[] = [];
  after(async () => {
    await Promise.all(clients.map((c) => c.close()));
  });

  function client(proxy: string, deadlineMs?: number, retry?: Partial<RetryPolicy>): HttpClient {
    const c = new HttpClient({
      baseUrl: 'https://127.0.0.1:9/api',
      family: 'platform',
      auth: async () => 'proxy-drop-token-123456',
      network: { proxy, proxyLoopback: true },
      dispatchers: new DispatcherRegistry({}),
      ...(deadlineMs !== undefined ? { deadlineMs } : {}),
      ...(retry ? { retry: { ...DEFAULT_RETRY, ...retry } } : {}),
    });
    clients.push(c);
    return c;
  }

  it('a read through a proxy that drops the tunnel ends by itself, long before its deadline, after a bounded number of dials', async () => {
    const proxy = await badProxy('drop');
    try {
      // No caller signal and a one-minute deadline: before the fix it re-dialled in a busy loop
      // until that deadline; now each dial fails the attempt, and the retries back off and stop.
      const retries = 3;
      const e = await within(
        10_000,
        apiFailure(
          client(proxy.url, 60_000, { retries, baseDelayMs: 20, maxDelayMs: 100 }).json(
            { method: 'GET', path: '/x' },
            z.unknown(),
          ),
        ),
      );
      assert.equal(e.kind, 'network');
      assert.equal(e.code, 'PROXY_TUNNEL_FAILED');
      assert.match(e.message, /proxy .*closed the connection.*nothing was sent.*Check the proxy settings/);
      assert.ok(
        proxy.connections() <= retries + 1,
        `${proxy.connections()} dials for ${retries + 1} attempts: bounded, not a loop`,
      );
      const settled = proxy.connections();
      await wait(500);
      assert.equal(proxy.connections(), settled, 'no dial after the call ended');
    } finally {
      await proxy.close();
    }
  });

  it('ends on abort during its backoff and stops dialling (drop)', async () => {
    const proxy = await badProxy('drop');
    try {
      const ac = new AbortController();
      // Many slow retries: the call is surely still running when the abort comes.
      const call = client(proxy.url, 60_000, { retries: 50, baseDelayMs: 2_000, maxDelayMs: 2_000 }).json(
        { method: 'GET', path: '/x', signal: ac.signal },
        z.unknown(),
      );
      while (proxy.connections() === 0) await wait(10);
      ac.abort();
      const e = await within(2_000, apiFailure(call));
      assert.equal(e.kind, 'cancelled');
      const settled = proxy.connections();
      await wait(500);
      assert.equal(proxy.connections(), settled, 'no dial after the abort');
    } finally {
      await proxy.close();
    }
  });

  it('ends on abort and stops re-dialling (silent)', async () => {
    const proxy = await badProxy('silent');
    try {
      const ac = new AbortController();
      const call = client(proxy.url).json({ method: 'GET', path: '/x', signal: ac.signal }, z.unknown());
      await wait(300);
      ac.abort();
      const e = await within(2_000, apiFailure(call));
      assert.equal(e.kind, 'cancelled');
      // After the teardown (a short grace after the abort) the proxy sees no new connections.
      await wait(600);
      const settled = proxy.connections();
      await wait(500);
      assert.equal(proxy.connections(), settled, 'the pool was torn down: no more dials');
    } finally {
      await proxy.close();
    }
  });

  it('ends on its deadline with a timeout that says what to do (silent)', async () => {
    const proxy = await badProxy('silent');
    try {
      const e = await within(
        3_000,
        apiFailure(client(proxy.url, 400).json({ method: 'GET', path: '/x' }, z.unknown())),
      );
      assert.equal(e.kind, 'timeout');
      assert.match(e.message, /Check your network and proxy/);
    } finally {
      await proxy.close();
    }
  });

  it('a write through a dropping proxy is sent once and says nothing reached the service', async () => {
    const proxy = await badProxy('drop');
    try {
      const e = await within(
        3_000,
        apiFailure(
          client(proxy.url, 60_000).write(
            { method: 'POST', path: '/publish', body: {}, check: { hint: 'Check the publish history.' } },
            z.unknown(),
          ),
        ),
      );
      assert.equal(e.kind, 'network');
      assert.match(e.message, /nothing was sent/);
      assert.equal(proxy.connections(), 1, 'one dial: a write is never retried');
    } finally {
      await proxy.close();
    }
  });

  it('a write through a silent proxy ends on its deadline, its outcome said to be unknown, never "try again"', async () => {
    const proxy = await badProxy('silent');
    try {
      const e = await within(
        3_000,
        apiFailure(
          client(proxy.url, 400).write(
            { method: 'POST', path: '/publish', body: {}, check: { hint: 'Check the publish history.' } },
            z.unknown(),
          ),
        ),
      );
      assert.equal(e.kind, 'unknownOutcome');
      assert.match(e.message, /outcome is unknown.*Check the publish history\./);
      assert.doesNotMatch(e.message, /try again|\band\)/i);
    } finally {
      await proxy.close();
    }
  });
});
