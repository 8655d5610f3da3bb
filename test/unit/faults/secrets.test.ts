// The secrets test: a server that echoes the credential it is sent (an opaque token no pattern
// recognises) into every error path it has: the x-request-id header, error bodies, a malformed
// NDJSON line, error lines of a 200 stream, a chat error line, a cut-off chat. The token must appear
// in no sink: log lines, error messages and fields, webview messages of the chat, saved notebook text.
// Then the class of leaks that cutting makes: a token cut at any offset by an excerpt, a table cell
// or a shortened line leaves no fragment; a credential stays redacted however many come after it;
// a secret typed in an admin flow is redacted in every sink, chat transcripts and notebooks too.
import * as assert from 'node:assert/strict';
import type { ServerResponse } from 'node:http';
import type * as vscode from 'vscode';
import { z } from 'zod';
import {
  AiClient,
  ApiError,
  DataClient,
  DispatcherRegistry,
  forgetSecrets,
  HttpClient,
  PlatformClient,
  redact,
  rememberSecret,
} from '../../../src/api';
import { parseErrorBody, safeRequestId } from '../../../src/api/errors';
import { parseLine } from '../../../src/api/ndjson';
import type { ClientSource } from '../../../src/agents/gateway';
import { PlatformGateway } from '../../../src/agents/gateway';
import { forwardTurn } from '../../../src/agents/participantStream';
import { runTool, type AgentTool, type ToolContext } from '../../../src/agents/tools';
import { KnownSecrets, createRedactingLog, errorMessage } from '../../../src/log';
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

/** Every fragment of `token` of 8 or more characters found in `text` (a cut token that survived). */
function fragments(text: string, token: string, min = 8): string[] {
  const out: string[] = [];
  for (let i = 0; i + min <= token.length; i++) {
    const piece = token.slice(i, i + min);
    if (text.includes(piece)) out.push(piece);
  }
  return out;
}

/** A fake LogOutputChannel collecting lines. */
function fakeChannel(lines: string[]): vscode.LogOutputChannel {
  const push = (m: string | Error) => lines.push(String(m));
  return {
    name: 'test',
    logLevel: 1,
    onDidChangeLogLevel: () => ({ dispose() {} }),
    trace: push,
    debug: push,
    info: push,
    warn: push,
    error: push,
    append: push,
    appendLine: push,
    replace: push,
    clear: () => undefined,
    show: () => undefined,
    hide: () => undefined,
    dispose: () => undefined,
  } as unknown as vscode.LogOutputChannel;
}

/** A tool returning `text` as its summary and `cell` in a one-cell table (as run_query would). */
function echoTool(text: string, cell: string): AgentTool {
  return {
    name: 'echo_value',
    title: 'Echo',
    description: 'test',
    input: z.object({ note: z.string().optional() }),
    effect: 'read',
    summary: () => 'echo',
    execute: async () => ({ text, table: { columns: ['value'], rows: [[cell]] } }),
  };
}

const noGateway = new PlatformGateway({} as ClientSource, () => ({
  name: 'P',
  production: false,
  sandbox: false,
}));

describe('faults: no part of a cut secret survives', () => {
  // 40 characters: longer than 8 at every cut, opaque (no pattern recognises it).
  const CUT = 'cutQ7x9Zk2mVw4pLr8sTnB3yH6jD1fG5aE0cK2uX';

  beforeEach(() => {
    forgetSecrets();
    // The transport registers every credential it sends (src/api/http.ts).
    rememberSecret(CUT);
  });
  afterEach(() => forgetSecrets());

  it('a malformed NDJSON line excerpt (80 characters), at every offset of the token', () => {
    const leaks: string[] = [];
    for (let k = 0; k <= CUT.length; k++) {
      // The excerpt ends inside the token after k of its characters.
      const line = `{"data": "${'x'.repeat(80 - 10 - k)}${CUT} and more text after the token"`;
      try {
        parseLine(new TextEncoder().encode(line), 3);
        leaks.push(`offset ${k}: parsed?`);
      } catch (e) {
        const text = JSON.stringify({ ...(e as object), message: (e as Error).message });
        const found = fragments(text, CUT);
        if (found.length) leaks.push(`offset ${k}: ${found[0]} in ${(e as Error).message}`);
      }
    }
    assert.deepEqual(leaks, []);
  });

  it('an HTML error page cut to 300 characters and a request id cut to 128, at every offset', () => {
    const leaks: string[] = [];
    for (let k = 0; k <= CUT.length; k++) {
      const page = `<html><body>${'y'.repeat(300 - k)}${CUT} tail</body></html>`;
      const info = parseErrorBody(page);
      const e = new ApiError('server', 'The service failed.', { serverMessage: info.serverMessage });
      for (const [where, text] of [
        ['serverMessage', info.serverMessage ?? ''],
        ['ApiError', JSON.stringify({ ...e, message: e.message })],
        ['request id', safeRequestId(`${'r'.repeat(128 - k)}${CUT}`)],
      ] as const) {
        const found = fragments(text, CUT);
        if (found.length) leaks.push(`${where} offset ${k}: ${found[0]}`);
      }
    }
    assert.deepEqual(leaks, []);
  });

  it('MCP table cells (200 characters) and the tool call log (300), with the MCP server’s own list of secrets', async () => {
    // The MCP server redacts with the secrets its process holds, which the registry may not know yet.
    forgetSecrets();
    const ctx: ToolContext = { gateway: noGateway, redact: (t) => redact(t, [CUT]) };
    const leaks: string[] = [];
    for (let k = 0; k <= CUT.length; k++) {
      const cell = `${'c'.repeat(200 - 1 - k)}${CUT} rest`;
      const logged: string[] = [];
      const log = { info: (l: string) => logged.push(l), warn: (l: string) => logged.push(l) };
      const note = `${'n'.repeat(300 - 1 - 10 - k)}${CUT}`;
      const run = await runTool(echoTool('ok', cell), ctx, { note }, { log, surface: 'mcp' });
      assert.ok(run.ok, run.text);
      for (const [where, text] of [
        ['table', run.text],
        ['structured', JSON.stringify(run.structured)],
        ['call log', logged.join('\n')],
      ] as const) {
        const found = fragments(text, CUT);
        if (found.length) leaks.push(`${where} offset ${k}: ${found[0]}`);
      }
    }
    assert.deepEqual(leaks, []);
  });

  it('a progress line of the @dashboard participant (100 characters), at every offset', async () => {
    const leaks: string[] = [];
    for (let k = 0; k <= CUT.length; k++) {
      const content = `${'p'.repeat(100 - 1 - k)}${CUT} then more`;
      const client = {
        async *streamChat() {
          yield {
            type: 'message' as const,
            message: { id: 'm1', role: 'assistant' as const, content, isDelta: false },
          };
        },
      } as unknown as Pick<AiClient, 'streamChat'>;
      const shown: string[] = [];
      await forwardTurn(
        client,
        { input: 'q', sessionSettings: { externalId: 'x' } },
        { markdown: (t) => shown.push(t), progress: (t) => shown.push(t) },
        { allowRemoteImages: false, redact: (t) => redact(t) },
      );
      const found = fragments(shown.join('\n'), CUT);
      if (found.length) leaks.push(`offset ${k}: ${found[0]}`);
    }
    assert.deepEqual(leaks, []);
  });
});

describe('faults: the secret registry forgets no live credential', function () {
  this.timeout(30_000);
  afterEach(() => forgetSecrets());

  it('the first of 101 credentials sent is still redacted when a server echoes it', async () => {
    forgetSecrets();
    const first = 'firstCredQ7x9Zk2mVw4pLr8';
    const s = await startServer((_req, res) => {
      res.writeHead(500, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ error: `bad token ${first}` }));
    });
    const dispatchers = new DispatcherRegistry({});
    const retry = { retries: 0, baseDelayMs: 1, maxDelayMs: 2 };
    let n = 0;
    // Each call sends another credential, as minted Data API tokens and profile switches do.
    const auth = async () => (n++ === 0 ? first : `laterCred-${n}-w4pLr8sTnB3yH6`);
    const http = new HttpClient({ baseUrl: s.url, family: 'platform', auth, retry, dispatchers });
    const messages: string[] = [];
    try {
      for (let i = 0; i < 101; i++) {
        try {
          await http.json({ method: 'GET', path: `/call-${i}` }, z.unknown());
        } catch (e) {
          messages.push(JSON.stringify({ ...(e as object), message: (e as Error).message }));
        }
      }
    } finally {
      await http.close();
      await s.close();
    }
    assert.equal(messages.length, 101);
    assert.equal(
      messages.filter((m) => m.includes(first)).length,
      0,
      'the first credential is redacted in every echo',
    );
    assert.ok(!redact(`later echo of ${first}`).includes(first), 'and in any text after 100 others');
  });

  it('a secret typed in an admin flow stays redacted after 100 credentials', () => {
    forgetSecrets();
    const secrets = new KnownSecrets();
    secrets.add('adminTypedClientSecret-91f3');
    for (let i = 0; i < 100; i++) rememberSecret(`credential-number-${i}-abcdef`);
    assert.equal(redact('x adminTypedClientSecret-91f3 y'), 'x [REDACTED] y');
  });
});

describe('faults: a secret typed in an admin flow reaches no sink', function () {
  this.timeout(30_000);
  // An OAuth client secret, an env-variable value, an embed session id, an environment token.
  const TYPED = [
    'oauthClientSecret-7Hq2Lm9Xv4',
    'envValueP4ssw0rdQ8z3Kc',
    'embedSession-5d2b9f1e77aa',
    'envToken_Zk3mQ9x7Lr2p',
  ];
  const lines: string[] = [];
  let log: ReturnType<typeof createRedactingLog>;

  before(() => {
    forgetSecrets();
    lines.length = 0;
    log = createRedactingLog(fakeChannel(lines), new KnownSecrets());
    // What the admin flows do with what the user typed (src/admin/**: log.addSecret / profiles.rememberSecret).
    for (const t of TYPED) log.addSecret(t);
  });
  after(() => forgetSecrets());

  const echo = TYPED.join(' | ');

  it('the log, error messages and the toasts made from them', () => {
    log.info(`created with ${echo}`);
    log.error(new Error(`failed for ${echo}`));
    const e = new ApiError('server', `The service said: ${echo}`);
    const shown = [errorMessage(new Error(`boom ${echo}`)), errorMessage(e), log.redact(`toast ${echo}`)];
    const text = [...lines, e.message, ...shown].join('\n');
    for (const t of TYPED) assert.ok(!text.includes(t), `${t} leaked:\n${text}`);
  });

  it('chat transcripts (every render operation posted to the chat panel)', async () => {
    const server = await startServer((_req, res) => {
      res.writeHead(200, { 'content-type': 'application/x-ndjson' });
      const l = (v: unknown) => res.write(`${JSON.stringify(v)}\n`);
      l({
        id: 'c1',
        role: 'assistant',
        content: `thinking about ${echo}`,
        isDelta: false,
        isInProcess: true,
      });
      l({
        id: 'c2',
        role: 'assistant',
        toolCall: {
          name: 'cubeSqlApi',
          input: JSON.stringify({ sql: `SELECT '${TYPED[1]}'` }),
          result: JSON.stringify({ schema: [{ name: 'v' }], data: [[TYPED[2]]], totalRows: 1 }),
        },
        isInProcess: false,
      });
      l({ id: 'c3', role: 'assistant', content: `Answer: ${echo}`, graphPath: ['final'], isDelta: false });
      l({ error: `and an error with ${TYPED[3]}` });
      res.end();
    });
    const ops: HostToWebview[] = [];
    try {
      const ai = new AiClient({ baseUrl: server.url, apiKey: async () => 'chat-key-123456' });
      const chat = new ChatSession({
        client: ai,
        sessionSettings: { externalId: 'x' },
        post: (op) => ops.push(op),
      });
      await chat.send('hello');
      await ai.close();
    } finally {
      await server.close();
    }
    const text = JSON.stringify(ops);
    assert.match(text, /\[REDACTED\]/, 'the echoes reached the transcript, redacted');
    for (const t of TYPED) assert.ok(!text.includes(t), `${t} leaked in the transcript: ${text}`);
  });

  it('saved notebook outputs', () => {
    const saved = stringifyNotebook({
      version: 1,
      metadata: {},
      cells: [{ kind: 'sql', source: 'SELECT 1', outputs: [[{ mime: 'text/plain', data: echo }]] }],
    });
    for (const t of TYPED) assert.ok(!saved.includes(t), `${t} leaked in the saved notebook`);
  });

  it('MCP and language model tool results (text, table, structured content)', async () => {
    const leaks: string[] = [];
    for (const [surface, scrub] of [
      // The MCP server (src/mcp/server.ts) and the LM tools (src/agents/lmTools.ts) redact so.
      ['mcp', (t: string) => redact(t, [])],
      ['lm-tool', (t: string) => log.redact(t)],
    ] as const) {
      const run = await runTool(
        echoTool(`summary ${echo}`, echo),
        { gateway: noGateway, redact: scrub },
        {},
        { log: { info: () => undefined, warn: () => undefined }, surface },
      );
      const text = `${run.text}\n${JSON.stringify(run.structured)}`;
      for (const t of TYPED) if (text.includes(t)) leaks.push(`${surface}: ${t}`);
    }
    assert.deepEqual(leaks, []);
  });
});
