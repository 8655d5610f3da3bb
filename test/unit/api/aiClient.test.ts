import * as assert from 'node:assert/strict';
import type { ServerResponse } from 'node:http';
import {
  AiClient,
  ChatStreamState,
  isValidMessageId,
  newMessageId,
  parseToolCall,
} from '../../../src/api/aiClient';
import { DispatcherRegistry } from '../../../src/api/net/agents';
import type { ApiError } from '../../../src/api/errors';
import type { ChatEvent } from '../../../src/api/schemas/ai';
import { FAST_RETRY, apiFailure, collect, startServer, type TestServer } from './helpers';

const KEY = 'ak_live_0123456789abcdef';
const SESSION = { externalId: 'user@example.com', email: 'user@example.com' };

function ai(s: TestServer): AiClient {
  return new AiClient({
    baseUrl: `${s.url}/api/v1/public/acme/agents/7`,
    apiKey: async () => KEY,
    retry: FAST_RETRY,
    dispatchers: new DispatcherRegistry({}),
  });
}

function stream(res: ServerResponse, lines: unknown[]): void {
  res.writeHead(200, { 'content-type': 'application/json' });
  res.end(lines.map((l) => (typeof l === 'string' ? l : JSON.stringify(l))).join('\n') + '\n');
}

/** A line of assistant message `id`: a piece while it is in process (a delta), then the whole text. */
const said = (
  id: string,
  sort: number,
  content: string,
  delta: boolean,
  more: Record<string, unknown> = {},
) => ({
  id,
  role: 'assistant',
  content,
  ...more,
  isDelta: delta,
  isInProcess: delta,
  sort,
});

const TURN = (messageId: string): unknown[] => [
  { id: '__cutoff__', role: 'assistant', sort: 0, state: { chatId: 'chat-1', isStreaming: false } },
  { id: messageId, role: 'user', content: 'Revenue last month?', isDelta: false, sort: 1 },
  said('m2', 2, 'Let me', true, { thinking: 'plan' }),
  said('m2', 2, ' check.', true, { thinking: ' more' }),
  said('m2', 2, 'Let me check the data.', false),
  {
    id: 'm3',
    role: 'assistant',
    toolCall: { name: 'cubeMeta', input: '{"searchQuery":"revenue"}' },
    isInProcess: true,
    sort: 3,
  },
  {
    id: 'm3',
    role: 'assistant',
    toolCall: { name: 'cubeMeta', input: '{"searchQuery":"revenue"}', result: '{"cubes":["orders"]}' },
    isInProcess: false,
    sort: 3,
  },
  {
    id: 'm4',
    role: 'assistant',
    toolCall: { name: 'cubeSqlApi', input: '{"sql":"SELECT 1"}', result: '{"error":"column not found"}' },
    sort: 4,
  },
  said('m5', 9, 'Revenue was', true, { graphPath: ['final'] }),
  said('m5', 9, ' $1.2M.', true, { graphPath: ['final'] }),
  { ...said('m5', 9, 'Revenue was $1.2M.', false, { graphPath: ['final'] }), extra: 1 },
  {
    id: '__usage__',
    type: 'usage',
    usage: { llmCalls: 7, inputTokens: 18412, outputTokens: 2280, totalTokens: 20692, models: ['m'] },
  },
];

describe('api/aiClient', () => {
  it('streams a turn as typed events: cutoff, merged deltas, tool calls, final, usage', async () => {
    const s = await startServer((_req, res, body) => stream(res, TURN(JSON.parse(body).messageId)));
    try {
      const events = await collect(
        ai(s).streamChat({ input: 'Revenue last month?', sessionSettings: SESSION }),
      );
      const req = s.requests[0];
      assert.equal(req.url, '/api/v1/public/acme/agents/7/chat/stream-chat-state');
      assert.equal(req.headers.authorization, `Api-Key ${KEY}`);
      const sent = JSON.parse(req.body);
      assert.equal(sent.input, 'Revenue last month?');
      assert.deepEqual(sent.sessionSettings, SESSION);
      assert.ok(isValidMessageId(sent.messageId), sent.messageId);
      assert.equal(sent.chatId, undefined);

      assert.deepEqual(events[0], { type: 'cutoff', chatId: 'chat-1', isStreaming: false });
      const m2 = events.filter(
        (e): e is Extract<ChatEvent, { type: 'message' }> => e.type === 'message' && e.message.id === 'm2',
      );
      assert.deepEqual(
        m2.map((e) => [e.message.content, e.delta]),
        [
          ['Let me', 'Let me'],
          ['Let me check.', ' check.'],
          ['Let me check the data.', undefined],
        ],
      );
      assert.equal(m2[1].message.thinking, 'plan more');
      const tools = events.filter(
        (e): e is Extract<ChatEvent, { type: 'toolCall' }> => e.type === 'toolCall',
      );
      assert.equal(tools.length, 3);
      assert.deepEqual(tools[0].toolCall, {
        name: 'cubeMeta',
        input: { searchQuery: 'revenue' },
        rawInput: '{"searchQuery":"revenue"}',
      });
      assert.deepEqual(tools[1].toolCall.result, { cubes: ['orders'] });
      assert.equal(tools[1].toolCall.rawResult, '{"cubes":["orders"]}');
      assert.equal(tools[2].toolCall.error, 'column not found');
      const finals = events.filter((e): e is Extract<ChatEvent, { type: 'final' }> => e.type === 'final');
      assert.equal(finals.length, 1);
      assert.equal(finals[0].message.content, 'Revenue was $1.2M.');
      assert.equal(finals[0].message.extra, 1, 'unknown fields are kept');
      assert.deepEqual(events.at(-1), {
        type: 'usage',
        usage: { llmCalls: 7, inputTokens: 18412, outputTokens: 2280, totalTokens: 20692, models: ['m'] },
      });
    } finally {
      await s.close();
    }
  });

  it('reports a suspended turn and resumes it with the same chatId + messageId', async () => {
    const s = await startServer((_req, res, body, n) => {
      const mid = JSON.parse(body).messageId;
      if (n === 1) {
        return stream(res, [
          { id: '__cutoff__', state: { chatId: 'chat-9', isStreaming: false } },
          { id: 'a1', role: 'assistant', content: 'Work', isDelta: true },
          {
            id: '__suspended__',
            type: 'suspend',
            code: 'chat_suspended',
            retryable: true,
            messageId: mid,
            error: 'restarting',
          },
          { id: '__usage__', type: 'usage', usage: {} },
        ]);
      }
      stream(res, [
        { id: '__cutoff__', state: { chatId: 'chat-9', isStreaming: true } },
        { id: 'a1', role: 'assistant', content: 'Working done', graphPath: ['final'], isDelta: false },
        { id: '__usage__', type: 'usage', usage: { llmCalls: 1 } },
      ]);
    });
    try {
      const c = ai(s);
      const first = await collect(c.streamChat({ input: 'Go', sessionSettings: SESSION }));
      const susp = first.find((e) => e.type === 'suspended');
      assert.ok(susp && susp.type === 'suspended');
      assert.equal(susp.retryable, true);
      assert.equal(susp.chatId, 'chat-9');
      assert.equal(susp.reason, 'restarting');
      const firstMid = JSON.parse(s.requests[0].body).messageId;
      assert.equal(susp.messageId, firstMid);
      const second = await collect(
        c.streamChat({
          input: 'Go',
          chatId: susp.chatId,
          messageId: susp.messageId,
          sessionSettings: SESSION,
        }),
      );
      const resent = JSON.parse(s.requests[1].body);
      assert.equal(resent.chatId, 'chat-9');
      assert.equal(resent.messageId, firstMid);
      assert.ok(second.some((e) => e.type === 'final' && e.message.content === 'Working done'));
    } finally {
      await s.close();
    }
  });

  it('yields aborted, mid-stream error lines, and a final sent only as deltas', async () => {
    const s = await startServer((_req, res) =>
      stream(res, [
        { id: '__cutoff__', state: { chatId: 'c', isStreaming: false } },
        { error: 'BadRequestError: Bad branch' },
        {
          id: 'f',
          role: 'assistant',
          content: 'Partial',
          graphPath: ['final'],
          isDelta: true,
          isInProcess: true,
        },
        {
          id: 'f',
          role: 'assistant',
          content: ' answer',
          graphPath: ['final'],
          isDelta: true,
          isInProcess: true,
        },
        { id: '__aborted__', type: 'abort', code: 'chat_aborted', error: 'stopped' },
        { id: '__usage__', type: 'usage', usage: { llmCalls: 0 } },
      ]),
    );
    try {
      const events = await collect(ai(s).streamChat({ input: 'x', sessionSettings: SESSION }));
      const types = events.map((e) => e.type);
      assert.deepEqual(types, ['cutoff', 'error', 'message', 'message', 'aborted', 'usage', 'final']);
      assert.deepEqual(events[1], { type: 'error', message: 'BadRequestError: Bad branch' });
      const f = events.at(-1);
      assert.ok(f && f.type === 'final');
      assert.equal(f.message.content, 'Partial answer');
    } finally {
      await s.close();
    }
  });

  it('reads thread state without input, and refuses a bad messageId before any request', async () => {
    const s = await startServer((_req, res) =>
      stream(res, [
        {
          id: '__cutoff__',
          state: { chatId: 'c7', isStreaming: true, suspended: { messageId: '1717500000000-message' } },
        },
      ]),
    );
    try {
      const events = await collect(ai(s).getChatState('c7', SESSION));
      assert.deepEqual(events, [
        { type: 'cutoff', chatId: 'c7', isStreaming: true, suspendedMessageId: '1717500000000-message' },
      ]);
      const sent = JSON.parse(s.requests[0].body);
      assert.deepEqual(sent, { chatId: 'c7', sessionSettings: SESSION });
      const e = await apiFailure(() =>
        collect(ai(s).streamChat({ input: 'x', messageId: '123-message', sessionSettings: SESSION })),
      );
      assert.equal(e.kind, 'validation');
      assert.equal(s.requests.length, 1);
    } finally {
      await s.close();
    }
  });

  it('a malformed line is a protocol error; a write is never retried', async () => {
    const s = await startServer((_req, res, _b, n) => {
      if (n === 1) return stream(res, ['{"id":"__cutoff__","state":{}}', '{"id":"m","content":"oops']);
      res.writeHead(503, { 'content-type': 'application/json' });
      res.end('{"error":"overloaded"}');
    });
    try {
      const e = await apiFailure(() => collect(ai(s).streamChat({ input: 'x', sessionSettings: SESSION })));
      assert.equal(e.kind, 'protocol');
      assert.equal(e.line, 2);
      const e2 = await apiFailure(() => collect(ai(s).streamChat({ input: 'x', sessionSettings: SESSION })));
      // A chat turn is a write: a 503 after sending leaves its outcome unknown.
      assert.equal(e2.kind, 'unknownOutcome');
      assert.equal((e2.cause as ApiError).kind, 'server');
      assert.equal(s.requests.length, 2, 'the 503 was not retried');
    } finally {
      await s.close();
    }
  });

  it('abort posts chatId + sessionSettings and maps 403/404', async () => {
    const s = await startServer((_req, res, body) => {
      const { chatId } = JSON.parse(body);
      if (chatId === 'mine') {
        res.writeHead(204);
        return res.end();
      }
      res.writeHead(chatId === 'theirs' ? 403 : 404, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ error: 'nope' }));
    });
    try {
      const c = ai(s);
      await c.abort('mine', SESSION);
      assert.equal(s.requests[0].url, '/api/v1/public/acme/agents/7/chat/abort');
      assert.deepEqual(JSON.parse(s.requests[0].body), { chatId: 'mine', sessionSettings: SESSION });
      const f = await apiFailure(() => c.abort('theirs', SESSION));
      assert.equal(f.kind, 'forbidden');
      assert.match(f.message, /Only the user who started this chat/);
      assert.equal((await apiFailure(() => c.abort('gone', SESSION))).kind, 'notFound');
      assert.equal(s.requests.length, 3);
    } finally {
      await s.close();
    }
  });

  it('newMessageId is well-formed and strictly increasing; tool payloads keep raw strings', () => {
    const a = newMessageId(1717500000000);
    const b = newMessageId(1717500000000);
    assert.ok(isValidMessageId(a) && isValidMessageId(b));
    assert.ok(Number(b.split('-')[0]) > Number(a.split('-')[0]));
    assert.ok(isValidMessageId(newMessageId()));
    assert.ok(!isValidMessageId('17175-message') && !isValidMessageId('1717500000000-msg'));
    const t = parseToolCall({ name: 'x', input: 'not json', result: '{"rows":[1]}' });
    assert.deepEqual(t, {
      name: 'x',
      input: 'not json',
      rawInput: 'not json',
      result: { rows: [1] },
      rawResult: '{"rows":[1]}',
    });
  });

  it('replaces a delta message with a later full message of the same id', () => {
    const st = new ChatStreamState();
    const out = [
      ...st.accept({ id: 'x', role: 'assistant', content: 'ab', isDelta: true }, 1),
      ...st.accept({ id: 'x', role: 'assistant', content: 'c', isDelta: true }, 2),
      ...st.accept({ id: 'x', role: 'assistant', content: 'FULL', isDelta: false }, 3),
    ];
    assert.deepEqual(
      out.map((e) => (e.type === 'message' ? e.message.content : e.type)),
      ['ab', 'abc', 'FULL'],
    );
    assert.throws(() => [...st.accept([1, 2], 4)], /Line 4/);
  });
});
