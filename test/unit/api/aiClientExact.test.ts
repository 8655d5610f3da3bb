// The AI API client's exact requests and what the user is told: the stream-chat-state body for a
// turn, a resume, a branch and a state read; refusals before sending; a cut-off answer and an
// answer of lines this client does not know; the stream parser on hostile and unknown lines.
import * as assert from 'node:assert/strict';
import type { ServerResponse } from 'node:http';
import { AiClient, CUT_OFF, ChatStreamState, newMessageId, parseToolCall } from '../../../src/api/aiClient';
import { DispatcherRegistry } from '../../../src/api/net/agents';
import type { ChatEvent } from '../../../src/api/schemas/ai';
import { FAST_RETRY, apiFailure, collect, startServer, withServer, type TestServer } from './helpers';

const KEY = 'ak_live_0123456789abcdef';
const SESSION = { externalId: 'user@example.com' };
const MID = '1717500000000-message';
const USAGE = { id: '__usage__', type: 'usage', usage: {} };

function ai(s: TestServer): AiClient {
  return new AiClient({
    baseUrl: `${s.url}/agents/7`,
    apiKey: async () => KEY,
    retry: FAST_RETRY,
    dispatchers: new DispatcherRegistry({}),
  });
}

function stream(res: ServerResponse, lines: unknown[]): void {
  res.writeHead(200, { 'content-type': 'application/json' });
  res.end(lines.map((l) => (typeof l === 'string' ? l : JSON.stringify(l))).join('\n') + '\n');
}

/** Every event of `lines` fed to a fresh state, then its finish. */
function events(lines: unknown[], turn = true, messageId?: string): ChatEvent[] {
  const st = new ChatStreamState('c0');
  const out: ChatEvent[] = [];
  lines.forEach((l, i) => out.push(...st.accept(l, i + 1, messageId)));
  out.push(...st.finish(turn));
  return out;
}

describe('api/aiClient: exact requests and sentences', () => {
  describe('streamChat requests', () => {
    it('a turn POSTs input, session, generated message id, and is sent once', async () => {
      await withServer(
        (_req, res) => stream(res, [USAGE]),
        async (s) => {
          await collect(ai(s).streamChat({ input: 'Hi', sessionSettings: SESSION }));
          const r = s.requests[0]!;
          assert.equal(r.method, 'POST');
          assert.equal(r.url, '/agents/7/chat/stream-chat-state');
          const body = JSON.parse(r.body);
          assert.deepEqual(Object.keys(body).sort(), ['input', 'messageId', 'sessionSettings']);
          assert.match(body.messageId, /^\d{13,}-message$/);
          assert.equal(r.headers.authorization, `Api-Key ${KEY}`);
        },
      );
    });

    it('a branch is sent with isDefaultBranch (false unless told), an empty input too', async () => {
      await withServer(
        (_req, res) => stream(res, [USAGE]),
        async (s) => {
          await collect(
            ai(s).streamChat({
              input: '',
              chatId: 'c1',
              messageId: MID,
              activeBranchName: 'dev',
              sessionSettings: SESSION,
            }),
          );
          await collect(
            ai(s).streamChat({
              input: 'x',
              chatId: 'c1',
              messageId: MID,
              activeBranchName: 'main',
              isDefaultBranch: true,
              sessionSettings: SESSION,
            }),
          );
          assert.deepEqual(JSON.parse(s.requests[0]!.body), {
            sessionSettings: SESSION,
            input: '',
            chatId: 'c1',
            messageId: MID,
            activeBranchName: 'dev',
            isDefaultBranch: false,
          });
          assert.equal(JSON.parse(s.requests[1]!.body).isDefaultBranch, true);
        },
      );
    });

    it('a state read sends no input and no message id, and is retried on a 503', async () => {
      await withServer(
        (_req, res, _b, n) => {
          if (n === 1) {
            res.writeHead(503, { 'content-type': 'application/json' });
            return res.end('{"error":"busy"}');
          }
          stream(res, [{ id: 'm1', role: 'assistant', content: 'Hello', isDelta: true, isInProcess: true }]);
        },
        async (s) => {
          const got = await collect(ai(s).getChatState('c9', SESSION));
          assert.equal(s.requests.length, 2);
          assert.deepEqual(JSON.parse(s.requests[1]!.body), { sessionSettings: SESSION, chatId: 'c9' });
          // A snapshot is complete as it is: a message still in process is not a cut-off answer.
          assert.deepEqual(
            got.map((e) => e.type),
            ['message'],
          );
        },
      );
    });

    it('refuses a bad message id and a read without a chat id before sending, with what to do', async () => {
      await withServer(
        (_req, res) => stream(res, [USAGE]),
        async (s) => {
          const bad = await apiFailure(() =>
            collect(ai(s).streamChat({ input: 'x', messageId: 'm-1', sessionSettings: SESSION })),
          );
          assert.equal(bad.kind, 'validation');
          assert.equal(bad.code, 'BAD_MESSAGE_ID');
          assert.equal(
            bad.message,
            'The message id "m-1" is not valid: it must look like <13+ digit ms timestamp>-message.',
          );
          const none = await apiFailure(() =>
            collect(ai(s).streamChat({ chatId: '', sessionSettings: SESSION })),
          );
          assert.equal(none.kind, 'validation');
          assert.equal(none.code, 'NO_CHAT_ID');
          assert.equal(none.message, 'Reading a chat needs a chat id (or send an input to start one).');
          assert.equal(s.requests.length, 0);
        },
      );
    });

    it('a turn answered 503 is an unknown outcome that says to reload the chat; an empty chat id is not sent', async () => {
      await withServer(
        (_req, res) => {
          res.writeHead(503, { 'content-type': 'application/json' });
          res.end('{"error":"busy"}');
        },
        async (s) => {
          const e = await apiFailure(() =>
            collect(ai(s).streamChat({ input: 'x', chatId: '', sessionSettings: SESSION })),
          );
          assert.equal(e.kind, 'unknownOutcome');
          assert.match(e.message, /^The chat request/);
          assert.match(
            e.message,
            /Reload the chat to see whether the agent received the message before sending it again\./,
          );
          assert.equal(s.requests.length, 1);
          assert.equal('chatId' in JSON.parse(s.requests[0]!.body), false);
        },
      );
    });

    it('a stream reset mid-answer is a cut-off answer', async () => {
      await withServer(
        (_req, res) => {
          res.writeHead(200, { 'content-type': 'application/json' });
          res.write('{"id":"a","role":"assistant","content":"Par","isDelta":true}\n{"id":');
          setTimeout(() => res.socket?.destroy(), 5);
        },
        async (s) => {
          const e = await apiFailure(() =>
            collect(ai(s).streamChat({ input: 'x', sessionSettings: SESSION })),
          );
          assert.equal(e.code, CUT_OFF);
          assert.equal((e.cause as { kind?: string }).kind, 'network');
          assert.match(
            e.message,
            /^The answer was cut off \(.+\)\. Resume to load the rest of it, or retry\.$/,
          );
          assert.doesNotMatch(e.message, /try again/i);
        },
      );
    });

    it('a 409 says the chat is still answering; a read failure names loading the chat', async () => {
      await withServer(
        (req, res, body) => {
          const status = JSON.parse(body).input === undefined ? 404 : 409;
          res.writeHead(status, { 'content-type': 'application/json' });
          res.end('{"error":"no"}');
          void req;
        },
        async (s) => {
          const busy = await apiFailure(() =>
            collect(ai(s).streamChat({ input: 'x', sessionSettings: SESSION })),
          );
          assert.equal(busy.kind, 'conflict');
          assert.match(
            busy.message,
            /This chat is still answering a previous message\. Wait for it or stop it first\./,
          );
          const read = await apiFailure(() => collect(ai(s).getChatState('c1', SESSION)));
          assert.equal(read.kind, 'notFound');
          assert.match(read.message, /Loading the chat/);
        },
      );
    });
  });

  describe('a broken stream', () => {
    it('mid-turn: a cut-off answer naming the cause, with its line, never "try again"', async () => {
      await withServer(
        (_req, res) =>
          stream(res, [{ id: 'a', role: 'assistant', content: 'Par', isDelta: true }, '{"id":"a.b']),
        async (s) => {
          const e = await apiFailure(() =>
            collect(ai(s).streamChat({ input: 'x', sessionSettings: SESSION })),
          );
          assert.equal(e.kind, 'protocol');
          assert.equal(e.code, CUT_OFF);
          assert.equal(
            e.message,
            'The answer was cut off (The server sent a malformed line 2 in the stream (not JSON: "{\\"id\\":\\"a.b")). Resume to load the rest of it, or retry.',
          );
          assert.equal(e.line, 2);
          assert.equal((e.cause as { code?: string }).code, 'NDJSON_MALFORMED');
        },
      );
    });

    it('a state read or a turn already ended keeps the error as it is', async () => {
      await withServer(
        (req, res) =>
          stream(res, req.url!.includes('ended') ? [USAGE, '{"id":'] : [{ id: 'a', content: 'x' }, '{"id":']),
        async (s) => {
          const read = await apiFailure(() => collect(ai(s).getChatState('c1', SESSION)));
          assert.equal(read.code, 'NDJSON_MALFORMED');
          const ended = new AiClient({ baseUrl: `${s.url}/ended`, apiKey: async () => KEY });
          const e = await apiFailure(() =>
            collect(ended.streamChat({ input: 'x', sessionSettings: SESSION })),
          );
          assert.equal(e.code, 'NDJSON_MALFORMED');
          assert.match(e.message, /try again/);
        },
      );
    });

    it('a stream that just stops is a cut-off answer; lines none of which it knows say to update', async () => {
      await withServer(
        (req, res) =>
          stream(
            res,
            req.url!.includes('unknown')
              ? [{ kind: 'progress' }, { kind: 'progress' }]
              : [{ id: 'a', role: 'assistant', content: 'Half', isDelta: true, isInProcess: true }],
          ),
        async (s) => {
          const cut = await apiFailure(() =>
            collect(ai(s).streamChat({ input: 'x', sessionSettings: SESSION })),
          );
          assert.equal(cut.code, CUT_OFF);
          assert.equal(cut.kind, 'protocol');
          assert.equal(
            cut.message,
            'The answer was cut off before it was complete. Resume to load the rest of it, or retry.',
          );
          const other = new AiClient({ baseUrl: `${s.url}/unknown`, apiKey: async () => KEY });
          const u = await apiFailure(() =>
            collect(other.streamChat({ input: 'x', sessionSettings: SESSION })),
          );
          assert.equal(u.code, 'CHAT_UNRECOGNISED');
          assert.equal(u.kind, 'protocol');
          assert.equal(
            u.message,
            "None of the 2 lines of the agent's answer was a chat message this extension knows. The service may be newer than this extension; update it.",
          );
        },
      );
    });

    it('an empty stream, or one of blank lines only, is cut off (not unrecognised)', async () => {
      await withServer(
        (req, res) => {
          res.writeHead(200, { 'content-type': 'application/json' });
          res.end(req.url!.includes('blank') ? '\n\n' : undefined);
        },
        async (s) => {
          const e = await apiFailure(() =>
            collect(ai(s).streamChat({ input: 'x', sessionSettings: SESSION })),
          );
          assert.equal(e.code, CUT_OFF);
          const blank = new AiClient({ baseUrl: `${s.url}/blank`, apiKey: async () => KEY });
          const b = await apiFailure(() =>
            collect(blank.streamChat({ input: 'x', sessionSettings: SESSION })),
          );
          assert.equal(b.code, CUT_OFF);
          assert.equal(
            b.message,
            'The answer was cut off before it was complete. Resume to load the rest of it, or retry.',
          );
        },
      );
    });

    it('stopping a turn mid-answer is a cancellation, not a cut-off answer', async () => {
      await withServer(
        (_req, res) => {
          res.writeHead(200, { 'content-type': 'application/json' });
          res.write('{"id":"a","role":"assistant","content":"Par","isDelta":true}\n');
        },
        async (s) => {
          const ctl = new AbortController();
          const e = await apiFailure(async () => {
            for await (const ev of ai(s).streamChat({ input: 'x', sessionSettings: SESSION }, ctl.signal))
              if (ev.type === 'message') ctl.abort();
          });
          assert.equal(e.kind, 'cancelled');
          assert.notEqual(e.code, CUT_OFF);
        },
      );
    });
  });

  describe('ChatStreamState', () => {
    it('an id-less error line ends the turn, redacted; an id-less unknown line is only counted', () => {
      const st = new ChatStreamState();
      const out = [...st.accept({ note: 'x' }, 1), ...st.accept({ error: `bad key ${KEY}` }, 2)];
      assert.equal(out.length, 1);
      assert.equal(out[0]!.type, 'error');
      assert.doesNotMatch((out[0] as { message: string }).message, new RegExp(KEY));
      assert.equal(st.terminal, true);
      assert.equal(st.lines, 2);
      assert.equal(st.recognised, 1);
      assert.deepEqual([...st.finish()], []);
    });

    it('every sentinel ends the turn by its id or by its type', () => {
      const sentinels: [Record<string, unknown>, string][] = [
        [{ id: '__usage__' }, 'usage'],
        [{ id: 'u', type: 'usage' }, 'usage'],
        [{ id: '__aborted__' }, 'aborted'],
        [{ id: 'x', type: 'abort' }, 'aborted'],
        [{ id: '__suspended__' }, 'suspended'],
        [{ id: 'y', type: 'suspend' }, 'suspended'],
      ];
      assert.equal(sentinels.length, 6);
      for (const [line, type] of sentinels) {
        const st = new ChatStreamState();
        const out = [...st.accept(line, 1)];
        assert.deepEqual(
          out.map((e) => e.type),
          [type],
          JSON.stringify(line),
        );
        assert.equal(st.terminal, true, JSON.stringify(line));
        assert.deepEqual([...st.finish()], [], JSON.stringify(line));
      }
      const st = new ChatStreamState();
      assert.deepEqual([...st.accept({ id: '__state__', role: 'assistant' }, 1)], []);
      assert.equal(st.terminal, false);
      assert.equal(st.messages.size, 0);
    });

    it('usage keeps known counts and drops a malformed usage; suspended defaults', () => {
      assert.deepEqual(events([{ id: '__usage__', usage: { llmCalls: 'many' } }]), [
        { type: 'usage', usage: {} },
      ]);
      assert.deepEqual(events([{ id: '__usage__' }]), [{ type: 'usage', usage: {} }]);
      assert.deepEqual(events([{ id: '__suspended__' }], true, MID), [
        { type: 'suspended', retryable: true, chatId: 'c0', messageId: MID },
      ]);
      assert.deepEqual(
        events([
          { id: '__suspended__', retryable: false, messageId: '1817500000000-message', error: `k ${KEY}` },
        ]),
        [
          {
            type: 'suspended',
            retryable: false,
            chatId: 'c0',
            messageId: '1817500000000-message',
            reason: 'k [REDACTED]',
          },
        ],
      );
    });

    it('a cutoff line updates the chat id only from a string; a non-boolean isStreaming is dropped', () => {
      const st = new ChatStreamState('c0');
      const a = [
        ...st.accept(
          { id: '__cutoff__', state: { chatId: 5, isStreaming: 'yes', suspended: { messageId: 3 } } },
          1,
        ),
      ];
      assert.deepEqual(a, [{ type: 'cutoff', chatId: 'c0', isStreaming: undefined }]);
      const b = [...st.accept({ id: '__cutoff__' }, 2)];
      assert.deepEqual(b, [{ type: 'cutoff', chatId: 'c0', isStreaming: undefined }]);
      Array.from(st.accept({ id: '__cutoff__', state: { chatId: 'c1' } }, 3));
      assert.equal(st.chatId, 'c1');
      assert.equal(st.terminal, false, 'a cutoff line does not end the turn');
    });

    it('an error line with content is a message; without content or tool call it ends the turn', () => {
      const withContent = events([{ id: 'm', role: 'assistant', content: 'ok', error: 'warn' }, USAGE]);
      assert.deepEqual(
        withContent.map((e) => e.type),
        ['message', 'usage'],
      );
      const withTool = events([{ id: 'm', toolCall: { name: 't' }, error: 'warn' }, USAGE]);
      assert.deepEqual(
        withTool.map((e) => e.type),
        ['toolCall', 'usage'],
      );
      assert.deepEqual(events([{ id: 'm', error: `failed ${KEY}` }]), [
        { type: 'error', message: 'failed [REDACTED]' },
      ]);
    });

    it('merges deltas: content and thinking appended, the tool call kept, fields of the later line win', () => {
      const st = new ChatStreamState();
      const out = [
        ...st.accept({ id: 'a', role: 'assistant', content: 'A', isDelta: true, sort: 1 }, 1),
        ...st.accept({ id: 'a', role: 'assistant', thinking: 't', isDelta: true, sort: 2 }, 2),
        ...st.accept({ id: 'a', role: 'assistant', content: 'B', isDelta: true }, 3),
      ];
      const last = out.at(-1) as Extract<ChatEvent, { type: 'message' }>;
      assert.equal(last.message.content, 'AB');
      assert.equal(last.message.thinking, 't');
      assert.equal(last.message.sort, 2);
      assert.equal(last.delta, 'B');
      assert.equal((out[1] as Extract<ChatEvent, { type: 'message' }>).delta, '');
      assert.equal((out[0] as Extract<ChatEvent, { type: 'message' }>).message.thinking, undefined);
      assert.equal('thinking' in (out[0] as Extract<ChatEvent, { type: 'message' }>).message, false);

      const t = new ChatStreamState();
      const tools = [
        ...t.accept({ id: 'x', toolCall: { name: 'q', input: '{"a":1}' }, isDelta: true }, 1),
        ...t.accept({ id: 'x', content: 'more', isDelta: true }, 2),
      ];
      assert.equal(tools[1]!.type, 'toolCall');
      assert.deepEqual((tools[1] as Extract<ChatEvent, { type: 'toolCall' }>).toolCall.input, { a: 1 });
      const merged = (tools[1] as Extract<ChatEvent, { type: 'toolCall' }>).message;
      assert.equal(merged.content, 'more');
      assert.equal('thinking' in merged, false, 'no thinking when neither piece had any');
      // A first delta with no content is an empty piece, not a message without delta.
      const first = [...new ChatStreamState().accept({ id: 'z', isDelta: true }, 1)];
      assert.deepEqual(first, [{ type: 'message', message: { id: 'z', isDelta: true }, delta: '' }]);
    });

    it('a message not sent as a delta carries no delta; a line that is not an object is a protocol error', () => {
      const out = [...new ChatStreamState().accept({ id: 'm', role: 'assistant', content: 'Hi' }, 1)];
      assert.deepEqual(out, [{ type: 'message', message: { id: 'm', role: 'assistant', content: 'Hi' } }]);
      assert.equal('delta' in out[0]!, false);
      assert.throws(
        () => [...new ChatStreamState().accept('text', 7)],
        (e: { kind?: string; line?: number; message?: string }) =>
          e.kind === 'protocol' &&
          e.line === 7 &&
          e.message === 'Line 7 of the chat stream is not a chat message object.',
      );
    });

    it('a nameless tool call is shown as a generic tool', () => {
      const out = [...new ChatStreamState().accept({ id: 'x', toolCall: { input: '1' } }, 1)];
      assert.equal(out[0]!.type, 'toolCall');
      assert.equal((out[0] as Extract<ChatEvent, { type: 'toolCall' }>).toolCall.name, 'tool');
    });

    it('final: only an assistant message on the final path (one or two levels), when complete', () => {
      const fin = (m: Record<string, unknown>) =>
        events([{ id: 'f', content: 'Answer', ...m }, USAGE]).filter((e) => e.type === 'final').length;
      assert.equal(fin({ role: 'assistant', graphPath: ['final'] }), 1);
      assert.equal(fin({ role: 'assistant', graphPath: ['final', 'x'] }), 1);
      assert.equal(fin({ role: 'assistant', graphPath: ['final', 'x', 'y'] }), 0);
      assert.equal(fin({ role: 'assistant', graphPath: ['tools', 'final'] }), 0);
      assert.equal(fin({ role: 'assistant', graphPath: [] }), 0);
      assert.equal(fin({ role: 'assistant' }), 0);
      assert.equal(fin({ role: 'user', graphPath: ['final'] }), 0);
      // Still in process: not final while streaming, and the end of the stream sends it once.
      const st = new ChatStreamState();
      const during = [
        ...st.accept(
          { id: 'f', role: 'assistant', content: 'A', graphPath: ['final'], isInProcess: true },
          1,
        ),
      ];
      assert.deepEqual(
        during.map((e) => e.type),
        ['message'],
      );
      assert.equal(st.finalComplete, false);
      assert.throws(
        () => [...st.finish()],
        (e: { code?: string }) => e.code === CUT_OFF,
      );
    });

    it('a complete final is sent once, again only when its content changed; a delta ending in process: false completes it', () => {
      const out = events([
        { id: 'f', role: 'assistant', content: 'A', graphPath: ['final'] },
        { id: 'f', role: 'assistant', content: 'A', graphPath: ['final'] },
        { id: 'f', role: 'assistant', content: 'B', graphPath: ['final'] },
      ]);
      assert.deepEqual(
        out
          .filter((e) => e.type === 'final')
          .map((e) => (e as Extract<ChatEvent, { type: 'final' }>).message.content),
        ['A', 'B'],
      );
      const deltas = events([
        { id: 'f', role: 'assistant', content: 'A', graphPath: ['final'], isDelta: true, isInProcess: true },
        { id: 'f', role: 'assistant', content: 'B', graphPath: ['final'], isDelta: true, isInProcess: false },
      ]);
      assert.deepEqual(
        deltas.map((e) => e.type),
        ['message', 'message', 'final'],
      );
      // A delta without isInProcess is not complete: the stream must end with a terminal line.
      const st = new ChatStreamState();
      Array.from(
        st.accept({ id: 'f', role: 'assistant', content: 'A', graphPath: ['final'], isDelta: true }, 1),
      );
      assert.equal(st.finalComplete, false);
    });

    it('a final only sent as deltas is sent at the end, once; a turn read as a snapshot needs no terminal line', () => {
      const lines = [
        { id: 'f', role: 'assistant', content: 'A', graphPath: ['final'], isDelta: true, isInProcess: true },
      ];
      const read = events(lines, false);
      assert.deepEqual(
        read.map((e) => e.type),
        ['message', 'final'],
      );
      const st = new ChatStreamState();
      Array.from(st.accept(lines[0], 1));
      Array.from(st.accept(USAGE, 2));
      assert.equal([...st.finish()].length, 1);
      assert.equal([...st.finish()].length, 0, 'not twice');
    });
  });

  describe('parseToolCall and newMessageId', () => {
    it('keeps an empty input as no input, a non-JSON result as text, and reads only a string error', () => {
      assert.deepEqual(parseToolCall({ name: 't' }), { name: 't', input: undefined, rawInput: '' });
      assert.deepEqual(parseToolCall({ name: 't', input: '', result: 'plain' }), {
        name: 't',
        input: undefined,
        rawInput: '',
        result: 'plain',
        rawResult: 'plain',
      });
      assert.equal(parseToolCall({ name: 't', result: '{"error":5}' }).error, undefined);
      assert.equal(parseToolCall({ name: 't', result: 'null' }).error, undefined);
      assert.equal(parseToolCall({ name: 't', result: '"error"' }).error, undefined);
      assert.equal(parseToolCall({ name: 't', result: '{"error":"boom"}' }).error, 'boom');
      assert.equal(parseToolCall({ name: 't', result: '' }).rawResult, '');
    });

    it('a message id follows the clock when it is ahead', () => {
      const base = Date.now() + 60_000_000;
      assert.equal(newMessageId(base), `${base}-message`);
      assert.equal(newMessageId(base + 5), `${base + 5}-message`);
      // Behind the last one (a clock set back): one past the last, never a repeat.
      assert.equal(newMessageId(1), `${base + 6}-message`);
    });
  });

  describe('abort', () => {
    it('a 404 says the chat is unknown to the agent', async () => {
      const s = await startServer((_req, res) => {
        res.writeHead(404, { 'content-type': 'application/json' });
        res.end('{"error":"nope"}');
      });
      try {
        const e = await apiFailure(() => ai(s).abort('c1', SESSION));
        assert.equal(e.kind, 'notFound');
        assert.match(e.message, /This chat is unknown to the agent; it may have expired\./);
        assert.equal(s.requests[0]!.method, 'POST');
      } finally {
        await s.close();
      }
    });
  });
});
