// Defect 1: a proxy that accepts CONNECT and then drops the tunnel (or never answers) made undici 7
// re-dial it forever, ignoring the request's signal. Every call must end on abort or on its
// deadline, and the pool is torn down so the re-dialling stops. Real misbehaving proxies on loopback.
import * as assert from 'node:assert/strict';
import * as net from 'node:net';
import { z } from 'zod';
import { isApiError, type ApiError } from '../../../src/api/errors';
import { HttpClient } from '../../../src/api/http';
import { DispatcherRegistry } from '../../../src/api/net/agents';

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

/** Fails (instead of hanging the suite) when `p` has not settled within `ms`. */
async function within<T>(ms: number, p: Promise<T>): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const guard = new Promise<never>((_r, reject) => {
    timer = setTimeout(() => reject(new Error(`still running after ${ms} ms`)), ms);
  });
  try {
    return await Promise.race([p, guard]);
  } finally {
    clearTimeout(timer);
  }
}

async function failure(p: Promise<unknown>): Promise<ApiError> {
  try {
    await p;
  } catch (e) {
    assert.ok(isApiError(e), String(e));
    return e;
  }
  assert.fail('expected the call to fail');
}

describe('faults: a proxy that drops or ignores the CONNECT tunnel', function () {
  this.timeout(15_000);
  const clients: HttpClient[] = [];
  after(async () => {
    await Promise.all(clients.map((c) => c.close()));
  });

  function client(proxy: string, deadlineMs?: number): HttpClient {
    const c = new HttpClient({
      baseUrl: 'https://127.0.0.1:9/api',
      family: 'platform',
      auth: async () => 'proxy-drop-token-123456',
      network: { proxy, proxyLoopback: true },
      dispatchers: new DispatcherRegistry({}),
      ...(deadlineMs !== undefined ? { deadlineMs } : {}),
    });
    clients.push(c);
    return c;
  }

  for (const mode of ['drop', 'silent'] as const) {
    it(`ends on abort and stops re-dialling (${mode})`, async () => {
      const proxy = await badProxy(mode);
      try {
        const ac = new AbortController();
        const call = client(proxy.url).json({ method: 'GET', path: '/x', signal: ac.signal }, z.unknown());
        await wait(300);
        ac.abort();
        const e = await within(2_000, failure(call));
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

    it(`ends on its deadline with a timeout that says what to do (${mode})`, async () => {
      const proxy = await badProxy(mode);
      try {
        const e = await within(
          3_000,
          failure(client(proxy.url, 400).json({ method: 'GET', path: '/x' }, z.unknown())),
        );
        assert.equal(e.kind, 'timeout');
        assert.match(e.message, /Check your network and proxy/);
      } finally {
        await proxy.close();
      }
    });
  }

  it('a write through it ends too, and says its outcome is unknown instead of "try again"', async () => {
    const proxy = await badProxy('drop');
    try {
      const e = await within(
        3_000,
        failure(
          client(proxy.url, 400).write(
            { method: 'POST', path: '/publish', body: {}, check: { hint: 'Check the publish history.' } },
            z.unknown(),
          ),
        ),
      );
      assert.equal(e.kind, 'unknownOutcome');
      assert.match(e.message, /outcome is unknown.*Check the publish history\./);
      assert.doesNotMatch(e.message, /try again/i);
    } finally {
      await proxy.close();
    }
  });
});
