// Answers are never accepted blindly: one size cap for an answer read whole (a 100 MB answer is
// refused, and reading stops at the cap: the server is not drained), one content check (the
// operation's media type, so an HTML sign-in page is never data), an empty 200 said as such
// (without blaming "a newer service" or naming paths), SCIM lists without their list field refused,
// and the export download verified (type, signature, whole file) before anyone saves it.
import * as assert from 'node:assert/strict';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { z } from 'zod';
import { PlatformClient } from '../../../src/api';
import { DEFAULT_MAX_BODY_BYTES, type HttpClient, type HttpClientOptions } from '../../../src/api/http';
import { DispatcherRegistry } from '../../../src/api/net/agents';
import { renderPdf, renderPng } from '../../../src/sandbox/platform/exportFiles';
import { apiFailure, platformHttp, sendJson, startServer, type TestServer } from '../api/helpers';

const TOKEN = 'answers-token-1234567890';
const MB = 1024 * 1024;
const SIGN_IN =
  '<!doctype html><html><head><title>Sign in</title></head><body><form action="/sso">Sign in to continue</form></body></html>';

const client = (url: string, extra: Partial<HttpClientOptions> = {}): HttpClient =>
  platformHttp(url, TOKEN, { retry: { retries: 0, baseDelayMs: 1, maxDelayMs: 1 }, ...extra });

/** Streams `total` bytes of a JSON-looking body in 64 KiB writes, counting what got written. */
function streamHuge(total: number, declare: boolean, written: { bytes: number; ended: boolean }) {
  return async (_req: IncomingMessage, res: ServerResponse) => {
    res.writeHead(200, {
      'content-type': 'application/json',
      ...(declare ? { 'content-length': String(total) } : {}),
    });
    const chunk = Buffer.alloc(64 * 1024, 0x61);
    chunk.write('{"padding":"');
    while (written.bytes < total && !res.destroyed) {
      const n = Math.min(chunk.length, total - written.bytes);
      written.bytes += n;
      if (!res.write(n === chunk.length ? chunk : chunk.subarray(0, n)))
        await new Promise<void>((r) => {
          const done = () => {
            res.off('drain', done);
            res.off('close', done);
            r();
          };
          res.on('drain', done);
          res.on('close', done);
        });
    }
    written.ended = !res.destroyed;
    if (!res.destroyed) res.end();
  };
}

describe('faults: answers are checked before they are read', function () {
  this.timeout(60_000);
  let s: TestServer | undefined;
  const clients: HttpClient[] = [];
  afterEach(async () => {
    await Promise.all(clients.splice(0).map((c) => c.close()));
    await s?.close().catch(() => undefined);
    s = undefined;
  });
  const make = (extra: Partial<HttpClientOptions> = {}) => {
    const c = client(s!.url, extra);
    clients.push(c);
    return c;
  };

  describe('one size cap', () => {
    it('has a cap under 100 MB for every family', () => {
      for (const [family, cap] of Object.entries(DEFAULT_MAX_BODY_BYTES))
        assert.ok(cap > 0 && cap < 100 * MB, `${family}: ${cap}`);
    });

    it('refuses a 100 MB answer read whole, naming the operation, and stops reading at the cap', async () => {
      const written = { bytes: 0, ended: false };
      s = await startServer(streamHuge(100 * MB, false, written));
      const e = await apiFailure(
        make({ maxBodyBytes: 4 * MB }).json(
          { method: 'GET', path: '/v1/reports', action: 'Loading reports' },
          z.unknown(),
        ),
      );
      assert.equal(e.kind, 'protocol');
      assert.equal(e.code, 'TOO_LARGE');
      assert.match(e.message, /^Loading reports: the answer is larger than 4 MiB/);
      assert.match(e.message, /Narrow the request/);
      // The connection was dropped at the cap: the server could not write the 100 MB (what it did
      // write beyond the cap sat in socket buffers).
      await new Promise((r) => setTimeout(r, 50));
      assert.equal(written.ended, false, 'the server was cut off');
      assert.ok(written.bytes < 4 * MB + 24 * MB, `${(written.bytes / MB).toFixed(1)} MiB written of 100`);
    });

    it('refuses a declared 100 MB answer before reading any of it', async () => {
      const written = { bytes: 0, ended: false };
      s = await startServer(streamHuge(100 * MB, true, written));
      const e = await apiFailure(make().noContent({ method: 'DELETE', path: '/v1/x', idempotent: true }));
      assert.equal(e.code, 'TOO_LARGE');
      assert.match(e.message, /\(100 MiB\)/);
      await new Promise((r) => setTimeout(r, 50));
      assert.ok(written.bytes < 24 * MB, `${(written.bytes / MB).toFixed(1)} MiB written`);
    });

    it('caps a stream only when the call sets a cap, and then stops it early', async () => {
      const written = { bytes: 0, ended: false };
      s = await startServer(streamHuge(20 * MB, false, written));
      const res = await make().request({ method: 'GET', path: '/v1/stream', maxBodyBytes: MB });
      let read = 0;
      const e = await apiFailure(
        (async () => {
          for await (const c of res.body) read += c.byteLength;
        })(),
      );
      assert.equal(e.code, 'TOO_LARGE');
      assert.ok(read <= MB, `${read} bytes reached the reader`);
    });
  });

  describe('one content check', () => {
    it('an HTML sign-in page answered 200 to a JSON read is refused as such, not parsed', async () => {
      s = await startServer((_req, res) => {
        res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
        res.end(SIGN_IN);
      });
      const e = await apiFailure(
        make().json({ method: 'GET', path: '/v1/deployments', action: 'Loading deployments' }, z.unknown()),
      );
      assert.equal(e.kind, 'protocol');
      assert.equal(e.code, 'CONTENT_TYPE');
      assert.match(e.message, /^Loading deployments: the service answered with a web page \(text\/html\)/);
      assert.match(e.message, /sign-in page or a proxy/);
    });

    it('a write answered by a sign-in page is not reported done: its outcome is unknown', async () => {
      s = await startServer((_req, res) => {
        res.writeHead(200, { 'content-type': 'text/html' });
        res.end(SIGN_IN);
      });
      const e = await apiFailure(
        make().writeNoContent({ method: 'DELETE', path: '/v1/reports/5', action: 'Deleting the report' }),
      );
      assert.equal(e.kind, 'unknownOutcome');
      assert.equal(s.requests.length, 1);
      assert.doesNotMatch(e.message, /try again/i);
    });

    it('sends the media types the operation serves as Accept', async () => {
      s = await startServer((_req, res) => sendJson(res, 200, { ok: true }));
      await make().json({ method: 'GET', path: '/v1/x' }, z.unknown());
      assert.equal(s.requests[0]!.headers.accept, 'application/json');
    });
  });

  describe('an empty answer', () => {
    it('is said to be empty, naming the operation, without "newer service" or a path', async () => {
      s = await startServer((_req, res) => {
        res.writeHead(200, { 'content-type': 'application/json', 'content-length': '0' });
        res.end();
      });
      const e = await apiFailure(
        make().json(
          { method: 'GET', path: '/v1/deployments/1/reports', action: 'Loading reports' },
          z.object({ items: z.array(z.unknown()) }),
        ),
      );
      assert.equal(e.kind, 'protocol');
      assert.equal(e.code, 'EMPTY');
      assert.match(
        e.message,
        /^Loading reports: the service answered 200 with nothing where an answer was expected/,
      );
      assert.doesNotMatch(e.message, /newer|\/v1\/|\(root\)/);
      // Without an action, a name a person can read, still no path.
      const e2 = await apiFailure(
        make().json({ method: 'GET', path: '/v1/deployments/1/reports' }, z.object({})),
      );
      assert.match(e2.message, /^Reading reports: /);
      assert.doesNotMatch(e2.message, /\/v1\//);
    });

    it('is an answer where the operation expects none', async () => {
      s = await startServer((_req, res) => {
        res.writeHead(200, { 'content-length': '0' });
        res.end();
      });
      assert.equal(
        await make().json({ method: 'POST', path: '/v1/x', body: {} }, z.unknown().optional()),
        undefined,
      );
    });
  });

  describe('lists', () => {
    it('a platform list answered `{}` is an error naming the missing "items" list, not an empty page', async () => {
      s = await startServer((_req, res) => sendJson(res, 200, {}));
      const c = new PlatformClient({
        baseUrl: s.url,
        token: async () => TOKEN,
        dispatchers: new DispatcherRegistry({}),
      });
      try {
        const e = await apiFailure(c.listReports(1));
        assert.equal(e.kind, 'protocol');
        assert.match(e.message, /"items"/);
      } finally {
        await c.close();
      }
    });
  });

  describe('SCIM lists', () => {
    const scim = (answer: unknown) => async () => {
      s = await startServer((_req, res) => sendJson(res, 200, answer));
      const c = new PlatformClient({
        baseUrl: s.url,
        token: async () => TOKEN,
        dispatchers: new DispatcherRegistry({}),
      });
      try {
        return await c.admin.listScimUsers();
      } finally {
        await c.close();
      }
    };

    it('`{}` is an error naming the missing "Resources" list, not an empty list', async () => {
      const e = await apiFailure(scim({})());
      assert.equal(e.kind, 'protocol');
      assert.match(e.message, /^Listing users: the service's answer has no "Resources" list/);
    });

    it('a count without the list is an error too; an answer of zero is an empty list', async () => {
      const e = await apiFailure(scim({ totalResults: 4 })());
      assert.match(e.message, /no "Resources" list \(it counts 4\)/);
      await s!.close();
      s = undefined;
      assert.deepEqual((await scim({ totalResults: 0 })()).items, []);
    });
  });

  describe('the export download', () => {
    const PDF = renderPdf('Quarterly revenue');
    const PNG = renderPng(7);
    const download = async (
      handler: (req: IncomingMessage, res: ServerResponse) => void,
      format?: 'pdf' | 'png',
    ) => {
      s = await startServer((req, res) => handler(req, res));
      const c = new PlatformClient({
        baseUrl: s.url,
        token: async () => TOKEN,
        dispatchers: new DispatcherRegistry({}),
        retry: { retries: 0, baseDelayMs: 1, maxDelayMs: 1 },
      });
      try {
        return await c.ops.downloadDashboardExport(1, 'exp-1', format ? { format } : {});
      } finally {
        await c.close();
      }
    };
    const file =
      (type: string, body: Buffer, extra: Record<string, string> = {}) =>
      (_req: IncomingMessage, res: ServerResponse) => {
        res.writeHead(200, { 'content-type': type, 'content-length': String(body.length), ...extra });
        res.end(body);
      };

    it('asks for what the document serves there (PDF or PNG), never JSON', async () => {
      const got = await download(file('application/pdf', PDF));
      assert.equal(s!.requests[0]!.headers.accept, 'application/pdf, image/png');
      assert.deepEqual(Buffer.from(got.bytes), PDF);
      await s!.close();
      s = undefined;
      await download(file('image/png', PNG), 'png');
      assert.equal(s!.requests[0]!.headers.accept, 'image/png');
    });

    it('refuses a sign-in page, whether labelled HTML or PDF', async () => {
      const e = await apiFailure(download(file('text/html', Buffer.from(SIGN_IN))));
      assert.equal(e.code, 'CONTENT_TYPE');
      assert.match(e.message, /web page/);
      await s!.close();
      s = undefined;
      const e2 = await apiFailure(download(file('application/pdf', Buffer.from(SIGN_IN))));
      assert.equal(e2.code, 'BAD_FILE');
      assert.match(e2.message, /^Downloading the export: nothing was saved, the service sent a web page/);
    });

    it('refuses an empty file', async () => {
      const e = await apiFailure(download(file('application/pdf', Buffer.alloc(0))));
      assert.equal(e.code, 'EMPTY');
    });

    it('refuses a file cut short of its Content-Length', async () => {
      const e = await apiFailure(
        download((_req, res) => {
          res.writeHead(200, { 'content-type': 'application/pdf', 'content-length': String(PDF.length) });
          res.write(PDF.subarray(0, 100));
          setTimeout(() => res.socket?.destroy(), 20);
        }),
      );
      assert.ok(['network', 'protocol'].includes(e.kind), e.message);
    });

    it('refuses a file cut short without a Content-Length (no end marker)', async () => {
      const cut = (type: string, body: Buffer) => (_req: IncomingMessage, res: ServerResponse) => {
        res.writeHead(200, { 'content-type': type });
        res.end(body.subarray(0, body.length - 20));
      };
      const e = await apiFailure(download(cut('application/pdf', PDF)));
      assert.equal(e.code, 'BAD_FILE');
      assert.match(e.message, /PDF file is cut off/);
      await s!.close();
      s = undefined;
      const e2 = await apiFailure(download(cut('image/png', PNG)));
      assert.match(e2.message, /PNG file is cut off/);
    });

    it('refuses bytes that are not what the type says, and a format other than the one asked for', async () => {
      const e = await apiFailure(download(file('application/pdf', PNG)));
      assert.match(e.message, /not a PDF file/);
      await s!.close();
      s = undefined;
      const e2 = await apiFailure(download(file('application/pdf', PDF), 'png'));
      assert.equal(e2.code, 'CONTENT_TYPE', e2.message);
    });
  });
});
