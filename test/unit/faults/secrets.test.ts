// The secrets test: a server that echoes the credential it is sent (an opaque token no pattern
// recognises) into every error path it has: the x-request-id header, error bodies, a malformed
// NDJSON line, error lines of a 200 stream, a chat error line, a cut-off chat. The token must appear
// in no sink: log lines, error messages and fields, webview messages of the chat, saved notebook text.
import * as assert from 'node:assert/strict';
import type { ServerResponse } from 'node:http';
import { z } from 'zod';
import {
  AiClient,
  DataClient,
  DispatcherRegistry,
  forgetSecrets,
  HttpClient,
  PlatformClient,
} from '../../../src/api';
import { ChatSession } from '../../../src/chat/chatSession';
import { stringifyNotebook } from '../../../src/notebook/notebookFormat';
import type { HostToWebview } from '../../../src/shared/chatProtocol';
import { startServer, type TestServer } from '../api/helpers';

// Opaque: no Bearer/Api-Key prefix, not a JWT, no token= key: only remembering it can redact it.
const TOKEN = 'opaqueQ7x9Zk2mVw4pLr8sTn';

function reply(res: ServerResponse, status: number, body: string, type = 'application/json'): void {
  res.writeHead(status, { 'content-type': type, 'x-request-id': `rid-${TOKEN}` });
  res.end(body);
}

describe('faults: no credential reaches any sink', function () {
  this.timeout(30_000);
  let s: TestServer;
  const logs: string[] = [];
  const logger = {
    debug: (m: string) => logs.push(m),
    info: (m: string) => logs.push(m),
    warn: (m: string) => logs.push(m),
    error: (m: string) => logs.push(m),
  };

  before(async () => {
    forgetSecrets();
    s = await startServer((req, res) => {
      const url = req.url ?? '';
      if (url.includes('/platform-500'))
        return reply(res, 500, JSON.stringify({ error: `token ${TOKEN} is bad` }));
      if (url.includes('/platform-401'))
        return reply(res, 401, `<html>Unauthorized ${TOKEN}</html>`, 'text/html');
      if (url.includes('/publish')) return reply(res, 503, JSON.stringify({ message: `busy for ${TOKEN}` }));
      if (url.includes('/v1/cubesql') && url.includes('malformed')) {
        return reply(
          res,
          200,
          `{"schema":[{"name":"a","column_type":"Int64"}]}\n{"data": ${TOKEN}\n`,
          'application/x-ndjson',
        );
      }
      if (url.includes('/v1/cubesql')) {
        return reply(
          res,
          200,
          `{"schema":[{"name":"a","column_type":"Int64"}]}\n{"error":"query failed for ${TOKEN}"}\n`,
          'application/x-ndjson',
        );
      }
      if (url.includes('/v1/load'))
        return reply(res, 400, JSON.stringify({ error: `bad query from ${TOKEN}` }));
      return reply(res, 404, JSON.stringify({ error: `no route for ${TOKEN}` }));
    });
  });

  after(async () => {
    await s.close();
    forgetSecrets();
  });

  it('redacts the token everywhere it is echoed', async () => {
    const dispatchers = new DispatcherRegistry({});
    const retry = { retries: 1, baseDelayMs: 1, maxDelayMs: 2 };
    const auth = async () => TOKEN;
    const http = new HttpClient({ baseUrl: s.url, family: 'platform', auth, logger, retry, dispatchers });
    const platform = new PlatformClient({ baseUrl: s.url, token: auth, logger, retry, dispatchers });
    const data = new DataClient({ baseUrl: s.url, token: auth, logger, retry, dispatchers });
    const errors: unknown[] = [];
    const capture = async (p: Promise<unknown>) => {
      try {
        await p;
      } catch (e) {
        errors.push(e);
      }
    };
    const drain = async (it: AsyncIterable<unknown>) => {
      for await (const _x of it) {
        // read it all
      }
    };

    await capture(http.json({ method: 'GET', path: '/platform-500' }, z.unknown()));
    await capture(http.json({ method: 'GET', path: '/platform-401' }, z.unknown()));
    await capture(platform.publishDashboard(1, 2, { workbookId: 2 }));
    await capture(drain(data.cubesql('SELECT malformed')));
    await capture(drain(data.cubesql('SELECT a')));
    await capture(data.load({ measures: ['x.count'] }));
    await capture(http.json({ method: 'GET', path: '/nowhere' }, z.unknown()));
    assert.equal(errors.length, 7, 'every path failed');

    // The chat: an error line in a 200 stream, then a cut-off answer echoing the key.
    const chatServer = await startServer((_req, res, _body, n) => {
      res.writeHead(200, { 'content-type': 'application/x-ndjson', 'x-request-id': `rid-${TOKEN}` });
      if (n === 1) res.end(`{"error":"the key ${TOKEN} is not allowed here"}\n`);
      else
        res.end(
          `{"id":"m1","role":"assistant","content":"half","graphPath":["final"],"isDelta":true,"isInProcess":true}\n{"x": ${TOKEN}\n`,
        );
    });
    const ops: HostToWebview[] = [];
    const warnings: string[] = [];
    try {
      const ai = new AiClient({ baseUrl: chatServer.url, apiKey: auth, logger, retry, dispatchers });
      const chat = new ChatSession({
        client: ai,
        sessionSettings: { externalId: 'x' },
        post: (op) => ops.push(op),
        log: { warn: (m) => warnings.push(m) },
      });
      await chat.send('hello');
      await chat.send('again');
      await ai.close();
    } finally {
      await chatServer.close();
    }
    const chatErrors = ops.filter((o) => o.type === 'error');
    assert.equal(chatErrors.length, 2, JSON.stringify(ops));

    // Saved notebook outputs holding the error messages.
    const saved = stringifyNotebook({
      version: 1,
      metadata: {},
      cells: errors.map((e) => ({
        kind: 'sql' as const,
        source: 'SELECT 1',
        outputs: [[{ mime: 'text/plain', data: `${String((e as Error).message)} ${TOKEN}` }]],
      })),
    });

    const sinks: [string, string][] = [
      ...logs.map((l): [string, string] => ['log', l]),
      ...warnings.map((l): [string, string] => ['chat log', l]),
      ...errors.map((e): [string, string] => [
        'error',
        JSON.stringify({
          ...(e as object),
          message: (e as Error).message,
          cause: String((e as Error).cause),
        }),
      ]),
      ...ops.map((o): [string, string] => ['webview', JSON.stringify(o)]),
      ['saved .dpnb', saved],
    ];
    assert.ok(logs.length >= 7, `the log saw the calls (${logs.length} lines)`);
    const leaks = sinks
      .filter(([, text]) => text.includes(TOKEN))
      .map(([where, text]) => `${where}: ${text}`);
    assert.deepEqual(leaks, []);
    // And the echoes are still there, redacted (the sinks were not just empty).
    const redacted = sinks.filter(([, text]) => text.includes('[REDACTED]')).map(([where]) => where);
    for (const where of ['error', 'webview', 'saved .dpnb']) assert.ok(redacted.includes(where), where);
    await Promise.all([http.close(), platform.close(), data.close()]);
  });
});
