// The MCP server survives bad messages: one over the size limit, one that is not JSON, one that is
// not JSON-RPC; each is answered with a JSON-RPC error and the next request is answered as usual.
// In process (the transport over pipes, any chunking) and as a client meets it: raw lines written to
// the stdin of the server (bundled from today's sources), plain and with --sandbox.
import * as assert from 'node:assert/strict';
import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { PassThrough, Writable } from 'node:stream';
import type { JSONRPCMessage } from '@modelcontextprotocol/sdk/types.js';
import {
  INVALID_REQUEST,
  MAX_MESSAGE_BYTES,
  PARSE_ERROR,
  RobustStdioTransport,
  idOfOversize,
} from '../../../src/mcp/stdioTransport';
import { startSandbox, type SandboxHandle } from '../../../src/sandbox';
import { freshMcpBundle, serverEnv } from './mcpBundle';

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

    it('reads ids of every shape JSON-RPC allows, with any spacing, and refuses what is not one', () => {
      // At the head: with and without "jsonrpc" first, no spaces or many, negative and long numbers.
      assert.equal(idOfOversize('{"id":5,"method":"x"', ''), 5);
      assert.equal(idOfOversize(' \n{  "jsonrpc"  :  "2.0"  ,  "id"  :  -123,"method"', ''), -123);
      assert.equal(idOfOversize('{"jsonrpc":"2.0","id":"a\\"b-1","method"', ''), 'a"b-1');
      assert.equal(idOfOversize('{"id":"","method"', ''), '');
      assert.equal(idOfOversize(`{"id":"${'k'.repeat(256)}",`, ''), 'k'.repeat(256));
      // Not an id: a string over 256 characters, a bad escape, a version other than 2.0, an object.
      assert.equal(idOfOversize(`{"id":"${'k'.repeat(257)}",`, ''), undefined);
      assert.equal(idOfOversize('{"id":"a\\qb","method"', ''), undefined);
      assert.equal(idOfOversize('{"jsonrpc":"2x0","id":5,"method"', ''), undefined);
      assert.equal(idOfOversize('{"id":{"x":1},"method"', ''), undefined);
      assert.equal(idOfOversize('[{"id":5}', ''), undefined);
      // At the tail: closing the message, after a comma or alone in its object.
      assert.equal(idOfOversize('{"method":"x"', 'x"} , "id" : 77 }  '), 77);
      assert.equal(idOfOversize('{"method":"x"', 'x"},"id":-4}'), -4);
      assert.equal(idOfOversize('{"method":"x"', 'x"}  {"id":"t"}'), 't');
      assert.equal(idOfOversize('{"method":"x"', 'x","id":7}x'), undefined);
      assert.equal(idOfOversize('{"method":"x"', 'x"x"id":7}'), undefined);
      // The head wins over the tail.
      assert.equal(idOfOversize('{"id":1,', ',"id":2}'), 1);
    });

    /** A transport over pipes without a log, and what it sends, raw. */
    function bare(max?: number) {
      const stdin = new PassThrough();
      const stdout = new PassThrough();
      const t = new RobustStdioTransport(stdin, stdout, max === undefined ? {} : { maxMessageBytes: max });
      const errors: Error[] = [];
      t.onerror = (e) => errors.push(e);
      return { stdin, stdout, t, errors, out: lineReader(stdout) };
    }

    it('says exactly what it refused, in its answers and its log', async () => {
      const s = setup(1024 * 1024);
      await s.t.start();
      const errors: Error[] = [];
      s.t.onerror = (e) => errors.push(e);
      // 2.5 MiB with the id first: the size and the limit in MiB, the exact byte count logged.
      const big = `{"id":"big-1","method":"x","params":{"s":"${'z'.repeat(2.5 * 1024 * 1024 - 45)}"}}`;
      assert.equal(Buffer.byteLength(big), 2.5 * 1024 * 1024);
      s.stdin.write(`${big}\n`);
      assert.deepEqual(await s.out.next(), {
        jsonrpc: '2.0',
        id: 'big-1',
        error: {
          code: INVALID_REQUEST,
          message: 'Message too large (2.5 MiB; the limit is 1.0 MiB); it was not read.',
        },
      });
      s.stdin.write('{"jsonrpc":"2.0","id":1,\r"method":x}\r\n');
      assert.deepEqual(await s.out.next(), {
        jsonrpc: '2.0',
        error: { code: PARSE_ERROR, message: 'Parse error: the message is not valid JSON.' },
      });
      s.stdin.write('{"jsonrpc":"1.0","id":"q","method":"ping"}\n');
      assert.deepEqual(await s.out.next(), {
        jsonrpc: '2.0',
        id: 'q',
        error: {
          code: INVALID_REQUEST,
          message: 'Invalid request: the message is not a JSON-RPC 2.0 message.',
        },
      });
      // No id to answer to: the error has no id key (null would fail the SDK's schema).
      // Neither is an object: null, a number, a string, an array.
      s.stdin.write('null\n{"jsonrpc":"1.0","id":{"n":1},"method":"ping"}\n5\n"str"\n[{"id":3}]\n');
      for (let i = 0; i < 5; i++)
        assert.deepEqual(await s.out.next(), {
          jsonrpc: '2.0',
          error: {
            code: INVALID_REQUEST,
            message: 'Invalid request: the message is not a JSON-RPC 2.0 message.',
          },
        });
      let parseMessage = '';
      try {
        JSON.parse('{"jsonrpc":"2.0","id":1,\r"method":x}');
      } catch (e) {
        parseMessage = (e as Error).message;
      }
      assert.deepEqual(s.logged, [
        `[mcp] refused a message of ${2.5 * 1024 * 1024} bytes (id "big-1"): over the 1048576-byte limit`,
        // The line's length without its carriage return.
        `[mcp] refused a line that is not JSON (36 characters): ${parseMessage}`,
        '[mcp] refused a message that is not JSON-RPC (id "q")',
        ...Array.from({ length: 5 }, () => '[mcp] refused a message that is not JSON-RPC'),
      ]);
      assert.deepEqual(errors, []);
    });

    it('takes a message of exactly the limit, refuses one byte more, and the limit defaults to 10 MiB', async () => {
      const exact = `${JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'ping', params: { s: 'x'.repeat(200) } })}`;
      const s = setup(Buffer.byteLength(exact));
      await s.t.start();
      s.stdin.write(`${exact}\n`);
      s.stdin.write(`${exact.replace('"id":1', '"id":12')}\n`);
      const err = await s.out.next();
      assert.deepEqual([err.id, err.error?.code], [12, INVALID_REQUEST]);
      assert.deepEqual(
        s.got.map((m) => ('id' in m ? m.id : undefined)),
        [1],
      );

      // Under 1 KiB over a small limit, its id only at the end, in one chunk; then one with no id.
      const small = setup(100);
      await small.t.start();
      const withId = `{"method":"x","params":{"s":"${'y'.repeat(300)}"},"id":"end"}`;
      const noId = `{"method":"x","params":{"s":"${'y'.repeat(300)}"}}`;
      small.stdin.write(`${withId}\n${noId}\n`);
      assert.equal((await small.out.next()).id, 'end');
      assert.deepEqual(await small.out.next(), {
        jsonrpc: '2.0',
        error: {
          code: INVALID_REQUEST,
          message: 'Message too large (0.0 MiB; the limit is 0.0 MiB); it was not read.',
        },
      });
      assert.deepEqual(small.logged, [
        `[mcp] refused a message of ${withId.length} bytes (id "end"): over the 100-byte limit`,
        `[mcp] refused a message of ${noId.length} bytes: over the 100-byte limit`,
      ]);

      const d = bare();
      await d.t.start();
      const huge = `{"id":3,"method":"x","params":{"s":"${'z'.repeat(MAX_MESSAGE_BYTES)}"}}`;
      d.stdin.write(`${huge}\n`);
      const tooBig = await d.out.next();
      assert.equal(tooBig.id, 3);
      assert.equal(
        tooBig.error?.message,
        'Message too large (10.0 MiB; the limit is 10.0 MiB); it was not read.',
      );
      assert.deepEqual(d.errors, []);
    });

    it('a line of spaces or a bare line end is skipped without an answer; a CRLF message is read', async () => {
      const s = setup(MAX_MESSAGE_BYTES);
      await s.t.start();
      s.stdin.write('\n \t \r\n\r\n');
      s.stdin.write('{"jsonrpc":"1.0","id":9,"method":"ping"}\n');
      assert.equal((await s.out.next()).id, 9, 'the first answer is to the message after the blank lines');
      s.stdin.write(`${req(4, 'ping').trim()}\r\n`);
      await new Promise((r) => setImmediate(r));
      assert.deepEqual(
        s.got.map((m) => ('id' in m ? m.id : undefined)),
        [4],
      );
    });

    it('a malformed answer to a request of ours is logged, never answered back', async () => {
      const s = setup(MAX_MESSAGE_BYTES);
      await s.t.start();
      // Neither a request nor an answer (no method, no result, no error): answered as invalid.
      s.stdin.write('{"jsonrpc":"2.0","id":4}\n');
      assert.equal((await s.out.next()).id, 4);
      s.logged.length = 0;
      s.stdin.write('{"jsonrpc":"1.0","id":5,"result":{}}\n');
      s.stdin.write('{"jsonrpc":"2.0","id":6,"error":"not an object"}\n');
      // A request that also carries a result is still a request: it is answered.
      s.stdin.write('{"jsonrpc":"1.0","id":7,"method":"x","result":1}\n');
      const first = await s.out.next();
      assert.equal(first.id, 7, 'the two malformed answers got no reply');
      assert.deepEqual(s.logged, [
        '[mcp] refused a message that is not JSON-RPC (id 5)',
        '[mcp] refused a message that is not JSON-RPC (id 6)',
        '[mcp] refused a message that is not JSON-RPC (id 7)',
      ]);
    });

    it('without a log it still answers; a handler that throws is reported and the rest of its chunk read', async () => {
      const d = bare(MAX_MESSAGE_BYTES);
      await d.t.start();
      // No message handler yet: a message is dropped without an error.
      d.stdin.write(req(0, 'ping'));
      d.stdin.write('not json\n');
      assert.equal((await d.out.next()).error?.code, PARSE_ERROR);
      const got: unknown[] = [];
      let n = 0;
      d.t.onmessage = (m) => {
        n++;
        if (n === 1) throw new Error('handler broke');
        if (n === 2) throw 'a string thrown';
        got.push(m);
      };
      // The first two in one chunk: the message after a throwing handler is still read.
      d.stdin.write(`${req(1, 'ping')}${req(2, 'ping')}${req(3, 'ping')}`);
      await new Promise((r) => setImmediate(r));
      assert.deepEqual(
        d.errors.map((e) => [e instanceof Error, e.message]),
        [
          [true, 'handler broke'],
          [true, 'a string thrown'],
        ],
      );
      assert.deepEqual(got, [JSON.parse(req(3, 'ping'))]);
      assert.equal(d.errors.length, 2, 'the message before a handler was set raised nothing');
      // A stream error is reported too.
      d.stdin.emit('error', new Error('pipe broke'));
      assert.equal(d.errors[2]?.message, 'pipe broke');
    });

    it('without an error handler, a stream error or a throwing message handler is dropped and reading goes on', async () => {
      const stdin = new PassThrough();
      const t = new RobustStdioTransport(stdin, new PassThrough());
      const got: JSONRPCMessage[] = [];
      t.onmessage = (m) => {
        got.push(m);
        if (got.length === 1) throw new Error('handler broke');
      };
      await t.start();
      assert.doesNotThrow(() => stdin.emit('error', new Error('pipe broke')));
      stdin.write(`${req(1, 'ping')}${req(2, 'ping')}`);
      await new Promise((r) => setImmediate(r));
      assert.deepEqual(
        got.map((m) => ('id' in m ? m.id : undefined)),
        [1, 2],
      );
    });

    it('refuses a second start; send writes one line and waits for the pipe to drain', async () => {
      const d = bare();
      await d.t.start();
      await assert.rejects(
        d.t.start(),
        (e: Error) => e.message === 'The stdio transport is already started.',
      );
      const msg: JSONRPCMessage = { jsonrpc: '2.0', id: 1, result: { ok: 'é' } };
      await d.t.send(msg);
      assert.deepEqual(await d.out.next(), msg);

      // A pipe that is full until the reader takes its bytes: send resolves only on 'drain'.
      let release: (() => void) | undefined;
      const slow = new Writable({
        highWaterMark: 1,
        write(_chunk, _enc, cb) {
          release = () => cb();
        },
      });
      const t = new RobustStdioTransport(new PassThrough(), slow);
      let sent = false;
      const p = t.send(msg).then(() => (sent = true));
      await new Promise((r) => setImmediate(r));
      assert.equal(sent, false, 'not resolved while the pipe is full');
      assert.ok(release, 'the write reached the pipe');
      release();
      await p;
      assert.equal(sent, true);
    });

    it('close() stops reading, pauses stdin unless another reader is on it, and says it closed', async () => {
      const d = bare();
      const got: JSONRPCMessage[] = [];
      d.t.onmessage = (m) => got.push(m);
      let closed = 0;
      d.t.onclose = () => closed++;
      await d.t.start();
      d.stdin.write(req(1, 'ping').slice(0, 10));
      await d.t.close();
      assert.equal(closed, 1);
      assert.equal(d.stdin.isPaused(), true);
      assert.equal(d.stdin.listenerCount('data'), 0);
      assert.equal(d.stdin.listenerCount('error'), 0);
      // A stream error after close is no longer the transport's (this listener keeps it from throwing).
      d.stdin.on('error', () => {});
      d.stdin.emit('error', new Error('late'));
      assert.deepEqual(d.errors, []);

      const shared = bare();
      const other: Buffer[] = [];
      shared.stdin.on('data', (b: Buffer) => other.push(b));
      await shared.t.start();
      await shared.t.close();
      assert.equal(shared.stdin.isPaused(), false, 'another reader still reads');
      shared.stdin.write('after\n');
      await new Promise((r) => setImmediate(r));
      assert.equal(Buffer.concat(other).toString(), 'after\n');
      assert.deepEqual(got, []);
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
        const env = serverEnv(mode === 'plain' ? sb : undefined);
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
