// The proxy path end to end: a real CONNECT proxy on loopback in front of a local HTTPS server whose
// self-signed certificate is generated here with openssl and trusted through extraCaCerts.
import * as assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import * as http from 'node:http';
import * as https from 'node:https';
import * as net from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { z } from 'zod';
import { isApiError, type ApiError } from '../../../src/api/errors';
import { HttpClient } from '../../../src/api/http';
import { DispatcherRegistry } from '../../../src/api/net/agents';
import {
  buildCa,
  matchesNoProxy,
  networkKey,
  resolveProxy,
  type NetworkSettings,
} from '../../../src/api/net/network';
import { rejection } from './helpers';

const TOKEN = 'proxy-test-token-123456';

interface Proxy {
  url: string;
  connects: string[];
  close(): Promise<void>;
}

async function startConnectProxy(opts: { refuse?: number } = {}): Promise<Proxy> {
  const connects: string[] = [];
  const sockets = new Set<net.Socket>();
  const server = http.createServer((_req, res) => {
    res.writeHead(405);
    res.end('CONNECT only');
  });
  server.on('connect', (req: http.IncomingMessage, client: net.Socket, head: Buffer) => {
    connects.push(req.url ?? '');
    sockets.add(client);
    if (opts.refuse) {
      client.end(`HTTP/1.1 ${opts.refuse} Proxy Authentication Required\r\n\r\n`);
      return;
    }
    const [host, port] = (req.url ?? '').split(':');
    const upstream = net.connect(Number(port), host, () => {
      client.write('HTTP/1.1 200 Connection Established\r\n\r\n');
      if (head.length) upstream.write(head);
      upstream.pipe(client);
      client.pipe(upstream);
    });
    sockets.add(upstream);
    upstream.on('error', () => client.destroy());
    client.on('error', () => upstream.destroy());
  });
  server.on('connection', (s: net.Socket) => sockets.add(s));
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const port = (server.address() as net.AddressInfo).port;
  return {
    url: `http://127.0.0.1:${port}`,
    connects,
    close: () =>
      new Promise<void>((r) => {
        for (const s of sockets) s.destroy();
        server.close(() => r());
      }),
  };
}

describe('api/net: proxy and CA certificates', function () {
  let dir: string;
  let certPem: string;
  let httpsServer: https.Server;
  let origin: string;
  let seen: { auth?: string; path?: string }[];

  before(async function () {
    dir = mkdtempSync(join(tmpdir(), 'dp-proxy-'));
    execFileSync(
      'openssl',
      [
        'req',
        '-x509',
        '-newkey',
        'rsa:2048',
        '-nodes',
        '-days',
        '2',
        '-keyout',
        join(dir, 'key.pem'),
        '-out',
        join(dir, 'cert.pem'),
        '-subj',
        '/CN=localhost',
        '-addext',
        'subjectAltName=IP:127.0.0.1,DNS:localhost',
        '-addext',
        'basicConstraints=critical,CA:TRUE',
      ],
      { stdio: 'ignore' },
    );
    certPem = readFileSync(join(dir, 'cert.pem'), 'utf8');
    seen = [];
    httpsServer = https.createServer(
      { key: readFileSync(join(dir, 'key.pem')), cert: certPem },
      (req, res) => {
        seen.push({ auth: req.headers.authorization, path: req.url });
        res.writeHead(200, { 'content-type': 'application/json' });
        res.end(JSON.stringify({ ok: true, path: req.url }));
      },
    );
    await new Promise<void>((r) => httpsServer.listen(0, '127.0.0.1', r));
    origin = `https://127.0.0.1:${(httpsServer.address() as net.AddressInfo).port}`;
  });

  after(async () => {
    httpsServer.closeAllConnections();
    await new Promise<void>((r) => httpsServer.close(() => r()));
    rmSync(dir, { recursive: true, force: true });
  });

  function client(network: NetworkSettings, env: Record<string, string> = {}): HttpClient {
    return new HttpClient({
      baseUrl: origin + '/api',
      family: 'platform',
      auth: async () => TOKEN,
      network,
      retry: { retries: 0, baseDelayMs: 1, maxDelayMs: 1 },
      dispatchers: new DispatcherRegistry(env),
    });
  }

  async function get(c: HttpClient): Promise<unknown> {
    try {
      return await c.json({ method: 'GET', path: '/v1/ping' }, z.looseObject({ ok: z.boolean() }));
    } finally {
      await c.close();
    }
  }

  async function apiErr(c: HttpClient): Promise<ApiError> {
    const e = await rejection(() => get(c));
    assert.ok(isApiError(e), String(e));
    return e;
  }

  it('tunnels through a CONNECT proxy and trusts the server through extraCaCerts', async () => {
    const proxy = await startConnectProxy();
    try {
      const out = await get(client({ proxy: proxy.url, proxyLoopback: true, extraCaCerts: [certPem] }));
      assert.deepEqual(out, { ok: true, path: '/api/v1/ping' });
      assert.deepEqual(proxy.connects, [origin.replace('https://', '')]);
      assert.equal(
        seen.at(-1)?.auth,
        `Bearer ${TOKEN}`,
        'the auth header reaches the server inside the tunnel',
      );
    } finally {
      await proxy.close();
    }
  });

  it('fails with a certificate message when strict SSL is on and the CA is unknown', async () => {
    const proxy = await startConnectProxy();
    try {
      const e = await apiErr(client({ proxy: proxy.url, proxyLoopback: true }));
      assert.equal(e.kind, 'network');
      assert.match(e.message, /certificate/i);
      assert.match(e.message, /proxyStrictSSL|CA certificate/);
      assert.equal(proxy.connects.length, 1, 'it did go through the proxy');
    } finally {
      await proxy.close();
    }
  });

  it('works without the CA when proxyStrictSSL is false', async () => {
    const proxy = await startConnectProxy();
    try {
      const out = await get(client({ proxy: proxy.url, proxyLoopback: true, proxyStrictSSL: false }));
      assert.deepEqual(out, { ok: true, path: '/api/v1/ping' });
      assert.equal(proxy.connects.length, 1);
    } finally {
      await proxy.close();
    }
  });

  it('uses HTTPS_PROXY from the environment, and NODE_EXTRA_CA_CERTS', async () => {
    const proxy = await startConnectProxy();
    try {
      const file = join(dir, 'cert.pem');
      const out = await get(
        client({ proxyLoopback: true }, { HTTPS_PROXY: proxy.url, NODE_EXTRA_CA_CERTS: file }),
      );
      assert.deepEqual(out, { ok: true, path: '/api/v1/ping' });
      assert.equal(proxy.connects.length, 1);
      // NO_PROXY skips the proxy (so strict TLS with the CA still works directly).
      await get(
        client(
          { proxyLoopback: true, extraCaCerts: [certPem] },
          { https_proxy: proxy.url, NO_PROXY: '127.0.0.1' },
        ),
      );
      assert.equal(proxy.connects.length, 1);
    } finally {
      await proxy.close();
    }
  });

  it('loopback bypasses the proxy by default', async () => {
    const proxy = await startConnectProxy();
    try {
      await get(client({ proxy: proxy.url, extraCaCerts: [certPem] }));
      assert.equal(proxy.connects.length, 0);
    } finally {
      await proxy.close();
    }
  });

  it('reports a proxy that refuses the tunnel', async () => {
    const proxy = await startConnectProxy({ refuse: 407 });
    try {
      const e = await apiErr(client({ proxy: proxy.url, proxyLoopback: true, extraCaCerts: [certPem] }));
      assert.equal(e.kind, 'network');
      assert.match(e.message, /proxy/i);
      assert.ok(!e.message.includes(TOKEN));
    } finally {
      await proxy.close();
    }
  });

  it('resolves proxies and no-proxy rules like curl', () => {
    const u = (s: string): URL => new URL(s);
    const env = {
      HTTPS_PROXY: 'http://corp:3128',
      HTTP_PROXY: 'http://plain:3128',
      NO_PROXY: '.internal.example, 10.0.0.0/8',
    };
    assert.equal(resolveProxy(u('https://api.example.com'), {}, env), 'http://corp:3128');
    assert.equal(
      resolveProxy(u('https://api.example.com'), { proxy: 'proxy.local:8080' }, env),
      'http://proxy.local:8080',
    );
    assert.equal(resolveProxy(u('https://db.internal.example'), {}, env), undefined);
    assert.equal(resolveProxy(u('https://10.1.2.3'), {}, env), undefined);
    assert.equal(resolveProxy(u('https://api.example.com'), { noProxy: ['example.com'] }, env), undefined);
    assert.equal(resolveProxy(u('https://localhost:9'), { proxy: 'http://p:1' }, env), undefined);
    assert.equal(resolveProxy(u('https://api.example.com'), {}, {}), undefined);
    assert.ok(matchesNoProxy(u('https://a.b.c:8443'), ['b.c:8443']));
    assert.ok(!matchesNoProxy(u('https://a.b.c:443'), ['b.c:8443']));
    assert.ok(matchesNoProxy(u('https://x.y'), ['*']));
    assert.ok(!matchesNoProxy(u('https://notexample.com'), ['example.com']));
  });

  it('adds extra CAs to the default roots and warns about unreadable files', () => {
    const none = buildCa({}, {});
    assert.equal(none.ca, undefined);
    const some = buildCa({ extraCaCerts: [certPem], extraCaCertFiles: ['/nonexistent/ca.pem'] }, {});
    assert.ok(some.ca && some.ca.length > 1 && some.ca.includes(certPem));
    assert.match(some.warnings.join(), /nonexistent/);
  });

  it('reads a CA file again once it changes (the file is kept between clients, not forever)', () => {
    const dir = mkdtempSync(join(tmpdir(), 'dp-ca-'));
    try {
      const file = join(dir, 'extra.pem');
      writeFileSync(file, certPem);
      const first = buildCa({ extraCaCertFiles: [file] }, {});
      assert.ok(first.ca?.includes(certPem));
      // Another certificate in the same file: a second client must trust it, not the old one.
      const other = certPem.replace('-----END CERTIFICATE-----', '-----END CERTIFICATE-----\n# rotated');
      writeFileSync(file, other);
      const second = buildCa({ extraCaCertFiles: [file] }, {});
      assert.ok(second.ca?.includes(other), 'the changed file is read again');
      assert.notEqual(networkKey({}, undefined, first.ca), networkKey({}, undefined, second.ca));
      assert.equal(networkKey({}, undefined, second.ca), networkKey({}, undefined, [...second.ca!]));
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
