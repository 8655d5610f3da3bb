// The MCP server survives bad messages: one over the size limit, one that is not JSON, one that is
// not JSON-RPC; each is answered with a JSON-RPC error and the next request is answered as usual.
// In process (the transport over pipes, any chunking) and as a client meets it: raw lines written to
// the stdin of the server (bundled from today's sources), plain and with --sandbox.
import * as assert from 'node:assert/strict';
import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { PassThrough } from 'node:stream';
import type { JSONRPCMessage } from '@modelcontextprotocol/sdk/types.js';
import {
  INVALID_REQUEST,
  MAX_MESSAGE_BYTES,
  PARSE_ERROR,
  RobustStdioTransport,
  idOfOversize,
} from '../../../src/mcp/stdioTransport';
import { startSandbox, type SandboxHandle } from '../../../src/sandbox';
import { freshMcpBundle, mutantEnv } from './mcpBundle';

type Answer = { id?: string | number; error?: { code: number; message: string }; result?: unknown };

/** Reads newline-delimited JSON from a stream; next() waits for the next message. */
function lineReader(stream: NodeJS.ReadableStream) {
  const queue: Answer[] = [];
  const waiting: ((a: Answer) => void)[] = [];
  let rest = '';
  stream.on('data', (b: Buffer) => {
    rest += b.toString('utf8');
    let nl;
    while ((nl = rest.indexOf('\n')) !== -1) {
      const msg = JSON.parse(rest.slice(0, nl)) as Answer;
      rest = rest.slice(nl + 1);
      const w = waiting.shift();
      if (w) w(msg);
      else queue.push(msg);
    }
  });
  // A stream that ends (the server exited) answers every wait with this, so the test fails at once.
  stream.on('end', () => {
    for (const w of waiting.splice(0))
      w({ error: { code: 0, message: 'the stream ended (the server exited)' } });
  });
  return {
    next: () =>
      new Promise<Answer>((resolve) => (queue.length ? resolve(queue.shift()!) : waiting.push(resolve))),
  };
}

const req = (id: number, method: string, params: Record<string, unknown> = {}) =>
  `${JSON.stringify({ jsonrpc: '2.0', id, method, params })}\n`;

describe('MCP stdio transport: bad messages answered, the session goes on', function () {
  this.timeout(120_000);

  describe('in process', () => {
    function setup(max: number) {
      const stdin = new PassThrough();
      const stdout = new PassThrough();
      const logged: string[] = [];
      const t = new RobustStdioTransport(stdin, stdout, { maxMessageBytes: max, log: (l) => logged.push(l) });
      const got: JSONRPCMessage[] = [];
      t.onmessage = (m) => got.push(m);
      let closed = false;
      t.onclose = () => (closed = true);
      return { stdin, t, got, logged, out: lineReader(stdout), closed: () => closed };
    }

    it('answers an oversize message with its id, skips it without buffering it, and reads the next', async () => {
      const s = setup(1024);
      await s.t.start();
      const big = JSON.stringify({
        jsonrpc: '2.0',
        method: 'tools/call',
        params: { x: 'y'.repeat(5000) },
        id: 42,
      });
      // In pieces, as a pipe delivers it, with the next message in the same chunk as the end.
      for (let i = 0; i < big.length; i += 700) s.stdin.write(big.slice(i, i + 700));
      s.stdin.write(`\n${req(2, 'ping').trim()}\n`);
      const err = await s.out.next();
      assert.equal(err.id, 42);
      assert.equal(err.error?.code, INVALID_REQUEST);
      assert.match(err.error!.message, /too large/);
      await new Promise((r) => setImmediate(r));
      assert.deepEqual(
        s.got.map((m) => ('id' in m ? m.id : undefined)),
        [2],
      );
      assert.equal(s.closed(), false);
      assert.match(s.logged.join('\n'), /refused a message of \d+ bytes \(id 42\)/);
    });

    it('answers malformed JSON with a parse error and a non-JSON-RPC message with invalid request', async () => {
      const s = setup(MAX_MESSAGE_BYTES);
      await s.t.start();
      s.stdin.write('{"jsonrpc":"2.0","id":1,"method":\n');
      assert.deepEqual((await s.out.next()).error?.code, PARSE_ERROR);
      s.stdin.write('{"jsonrpc":"1.0","id":7,"method":"ping"}\n');
      const invalid = await s.out.next();
      assert.deepEqual([invalid.id, invalid.error?.code], [7, INVALID_REQUEST]);
      s.stdin.write('\r\n   \n');
      s.stdin.write(req(3, 'ping'));
      await new Promise((r) => setImmediate(r));
      assert.deepEqual(
        s.got.map((m) => ('id' in m ? m.id : undefined)),
        [3],
      );
    });

    it('reads the same messages whatever the chunk boundaries (multi-byte characters split too)', async () => {
      const text = [
        req(1, 'ping', { s: 'é中😀' }),
        req(2, 'ping', { s: 'x'.repeat(300) }),
        req(3, 'ping'),
      ].join('');
      const bytes = Buffer.from(text, 'utf8');
      let seed = 7;
      const rand = () => (seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31;
      for (let round = 0; round < 20; round++) {
        const s = setup(1024);
        await s.t.start();
        for (let i = 0; i < bytes.length;) {
          const n = 1 + Math.floor(rand() * 40);
          s.stdin.write(bytes.subarray(i, i + n));
          i += n;
        }
        await new Promise((r) => setImmediate(r));
        assert.deepEqual(
          s.got,
          text
            .trim()
            .split('\n')
            .map((l) => JSON.parse(l) as unknown),
          `round ${round}`,
        );
      }
    });

    it('finds the id of an oversize message only at its top level', () => {
      assert.equal(idOfOversize('{"jsonrpc":"2.0","id":5,"method":"x","params":{', ''), 5);
      assert.equal(
        idOfOversize('{"method":"x","params":{"id":9,', 'zzz"}},"jsonrpc":"2.0","id":"a-1"}'),
        'a-1',
      );
      assert.equal(idOfOversize('{"method":"x","params":{"id":9,', 'zzz","id":3}}'), undefined);
    });
  });

  describe('the server process', () => {
    let sb: SandboxHandle;
    let bundle: string;
    const children: ChildProcessWithoutNullStreams[] = [];

    before(async () => {
      bundle = await freshMcpBundle();
      sb = await startSandbox({ rows: 100 });
    });
    after(async () => {
      for (const c of children) c.kill();
      await sb?.close();
    });

    for (const mode of ['plain', '--sandbox'] as const) {
      it(`${mode}: survives an 11 MB message, malformed JSON and a non-JSON-RPC line, then answers`, async () => {
        const env: Record<string, string> =
          mode === 'plain'
            ? {
                PATH: process.env.PATH ?? '',
                ...mutantEnv(),
                DASHBOARD_PLATFORM_URL: sb.urls.platform,
                DASHBOARD_PLATFORM_DATA_API_URL: sb.urls.dataApi,
                DASHBOARD_PLATFORM_TOKEN: sb.tokens.admin,
                DASHBOARD_PLATFORM_DATA_API_TOKEN: sb.tokens.dataApi,
              }
            : { PATH: process.env.PATH ?? '', ...mutantEnv() };
        const child = spawn(process.execPath, mode === 'plain' ? [bundle] : [bundle, '--sandbox'], { env });
        children.push(child);
        let stderr = '';
        child.stderr.on('data', (b: Buffer) => (stderr += b.toString('utf8')));
        const out = lineReader(child.stdout);
        child.stdin.write(
          req(1, 'initialize', {
            protocolVersion: '2025-06-18',
            capabilities: {},
            clientInfo: { name: 'raw', version: '1' },
          }),
        );
        assert.equal((await out.next()).id, 1);
        child.stdin.write('{"jsonrpc":"2.0","method":"notifications/initialized"}\n');

        const huge = JSON.stringify({
          jsonrpc: '2.0',
          method: 'tools/call',
          params: { name: 'run_query', arguments: { sql: `SELECT '${'x'.repeat(11 * 1024 * 1024)}'` } },
          id: 2,
        });
        child.stdin.write(`${huge}\n`);
        const tooBig = await out.next();
        assert.deepEqual([tooBig.id, tooBig.error?.code], [2, INVALID_REQUEST]);

        child.stdin.write('this is not json\n');
        assert.equal((await out.next()).error?.code, PARSE_ERROR);
        child.stdin.write('[1,2,3]\n');
        assert.equal((await out.next()).error?.code, INVALID_REQUEST);

        child.stdin.write(req(3, 'tools/list'));
        const list = await out.next();
        assert.equal(list.id, 3);
        assert.ok((list.result as { tools: unknown[] }).tools.length >= 10);
        child.stdin.write(req(4, 'tools/call', { name: 'list_deployments', arguments: {} }));
        const called = await out.next();
        assert.equal(called.id, 4);
        assert.match(JSON.stringify(called.result), /Deployments of profile/);
        assert.equal(child.exitCode, null, 'still running');
        assert.match(stderr, /refused a message of \d+ bytes \(id 2\)/);
        assert.match(stderr, /refused a line that is not JSON/);
      });
    }
  });
});
