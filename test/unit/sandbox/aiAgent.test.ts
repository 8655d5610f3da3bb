// The sandbox's AI agent over real HTTP: the event sequence of a turn (wire format), SQL picked by
// keywords and run on the engine, abort, "in progress" and reattach, suspended turn and resume,
// thread state, validation. No timing assertions: the waits are for events, not for the clock.
import * as assert from 'node:assert/strict';
import { startSandbox, type SandboxHandle } from '../../../src/sandbox';

type Line = Record<string, unknown> & {
  id?: string;
  type?: string;
  role?: string;
  content?: string;
  thinking?: string;
  isDelta?: boolean;
  graphPath?: string[];
  state?: { chatId?: string; isStreaming?: boolean; suspended?: { messageId: string } };
  toolCall?: { name: string; input: string; result?: string };
  usage?: Record<string, unknown>;
  error?: string;
};

const ROWS = 2000;
let clock = 1_800_000_000_000;
const newMessageId = () => `${clock++}-message`;

describe('sandbox AI agent', function () {
  this.timeout(60_000);
  let sb: SandboxHandle;
  const settings = { externalId: 'ada@example.com' };
  before(async () => {
    sb = await startSandbox({ rows: ROWS, aiEventDelayMs: 10 });
  });
  after(() => sb.close());

  const call = (path: string, body: unknown) =>
    fetch(`${sb.urls.ai[0]!.url}${path}`, {
      method: 'POST',
      headers: { authorization: `Api-Key ${sb.tokens.aiApiKey}`, 'content-type': 'application/json' },
      body: JSON.stringify(body),
    });

  /** The response's NDJSON lines as they arrive. */
  async function* stream(res: Response): AsyncGenerator<Line> {
    assert.equal(res.status, 200);
    const decoder = new TextDecoder();
    let buf = '';
    for await (const chunk of res.body as unknown as AsyncIterable<Uint8Array>) {
      buf += decoder.decode(chunk, { stream: true });
      let nl: number;
      while ((nl = buf.indexOf('\n')) >= 0) {
        const line = buf.slice(0, nl);
        buf = buf.slice(nl + 1);
        if (line.trim()) yield JSON.parse(line) as Line;
      }
    }
  }
  async function all(res: Response | Promise<Response>): Promise<Line[]> {
    const out: Line[] = [];
    for await (const l of stream(await res)) out.push(l);
    return out;
  }
  const chat = (body: Record<string, unknown>) =>
    call('/chat/stream-chat-state', { sessionSettings: settings, ...body });
  const toolCall = (lines: Line[], name: string) => lines.find((l) => l.toolCall?.name === name)?.toolCall;
  const sqlResult = (lines: Line[]) =>
    JSON.parse(toolCall(lines, 'cubeSqlApi')!.result!) as {
      schema: { name: string }[];
      data: string[][];
      totalRows: number;
      vegaSpec: string;
    };

  it('streams a turn in the wire format: cutoff, echo, thinking, tools, final, usage last', async () => {
    const messageId = newMessageId();
    const lines = await all(chat({ input: 'How many orders per status?', messageId }));
    const cutoff = lines[0]!;
    assert.equal(cutoff.id, '__cutoff__');
    assert.equal(cutoff.sort, 0);
    assert.equal(cutoff.state!.isStreaming, true);
    assert.ok(cutoff.state!.chatId);
    assert.deepEqual(lines[1], {
      id: messageId,
      role: 'user',
      content: 'How many orders per status?',
      isDelta: false,
      sort: 1,
    });

    const thinking = lines.filter((l) => l.thinking !== undefined);
    const deltas = thinking.filter((l) => l.isDelta);
    const whole = thinking.filter((l) => !l.isDelta);
    assert.ok(deltas.length >= 3);
    assert.equal(whole.length, 1);
    assert.ok(deltas.every((d) => d.id === whole[0]!.id));
    assert.equal(deltas.map((d) => d.thinking).join(''), whole[0]!.thinking);

    assert.ok(toolCall(lines, 'cubeMetaApi'));
    const sql = toolCall(lines, 'cubeSqlApi')!;
    assert.match((JSON.parse(sql.input) as { sql: string }).sql, /^SELECT /);
    const result = sqlResult(lines);
    assert.deepEqual(
      result.schema.map((c) => c.name),
      ['status', 'orders'],
    );
    assert.equal(
      result.data.reduce((s, r) => s + Number(r[1]), 0),
      ROWS,
    );
    assert.equal(result.totalRows, result.data.length);
    const spec = JSON.parse(result.vegaSpec) as Record<string, unknown>;
    assert.equal(spec.mark, 'bar');
    assert.equal(spec.data, undefined);

    const finals = lines.filter((l) => l.graphPath?.[0] === 'final');
    assert.equal(finals.length, 1);
    assert.equal(finals[0]!.isDelta, false);
    assert.match(finals[0]!.content!, /\| Status \| Orders \|/);
    const answerDeltas = lines.filter((l) => l.id === finals[0]!.id && l.isDelta);
    assert.ok(answerDeltas.length > 1);
    assert.equal(answerDeltas.map((d) => d.content).join(''), finals[0]!.content);

    const usage = lines.at(-1)!;
    assert.equal(usage.id, '__usage__');
    assert.equal(usage.type, 'usage');
    const u = usage.usage as Record<string, number>;
    assert.equal(u.totalTokens, u.inputTokens! + u.outputTokens! + u.cacheWriteTokens! + u.cacheReadTokens!);
    assert.ok(u.llmCalls! > 0);
    assert.ok(lines.filter((l) => l.id === '__usage__').length === 1);
    const sorts = lines.filter((l) => typeof l.sort === 'number').map((l) => l.sort as number);
    assert.deepEqual(
      sorts,
      [...sorts].sort((a, b) => a - b),
    );
  });

  it('picks the SQL from the question and charts its columns', async () => {
    const revenue = sqlResult(await all(chat({ input: 'Revenue by month please' })));
    assert.deepEqual(
      revenue.schema.map((c) => c.name),
      ['month', 'revenue'],
    );
    assert.equal((JSON.parse(revenue.vegaSpec) as { mark: { type: string } }).mark.type, 'line');
    const products = sqlResult(await all(chat({ input: 'Top product categories?' })));
    assert.deepEqual(
      products.schema.map((c) => c.name),
      ['category', 'orders'],
    );
    const customers = sqlResult(await all(chat({ input: 'Customers by country' })));
    assert.equal(customers.schema[0]!.name, 'country');
  });

  it('aborts a running turn: 204, recorded, the stream ends with __aborted__ then __usage__', async () => {
    const res = await chat({ input: 'Revenue by month, slowly', messageId: newMessageId() });
    const lines: Line[] = [];
    let chatId: string | undefined;
    for await (const l of stream(res)) {
      lines.push(l);
      if (l.id === '__cutoff__') chatId = l.state!.chatId;
      if (l.isDelta && lines.filter((x) => x.isDelta).length === 1) {
        const stop = await call('/chat/abort', { chatId, sessionSettings: settings });
        assert.equal(stop.status, 204);
      }
    }
    const aborted = lines.at(-2)!;
    assert.equal(aborted.id, '__aborted__');
    assert.equal(aborted.type, 'abort');
    assert.equal(lines.at(-1)!.id, '__usage__');
    assert.ok(!lines.some((l) => l.graphPath?.[0] === 'final'));
    assert.ok(sb.state.aiAborts.some((a) => a.chatId === chatId));
    assert.equal((await call('/chat/abort', { chatId: 'nope', sessionSettings: settings })).status, 404);
    assert.equal(
      (await call('/chat/abort', { chatId, sessionSettings: { externalId: 'someone@else' } })).status,
      403,
    );
    // The thread takes a new message after the abort.
    const next = await all(chat({ input: 'Orders by status', chatId, messageId: newMessageId() }));
    assert.ok(next.some((l) => l.graphPath?.[0] === 'final'));
  });

  it('refuses another message while a turn streams, and reattaches the same messageId', async () => {
    const messageId = newMessageId();
    const first = stream(await chat({ input: 'Orders by status', messageId }));
    const head = (await first.next()).value as Line;
    const chatId = head.state!.chatId!;
    const busy = await chat({ input: 'Another question', chatId, messageId: newMessageId() });
    assert.equal(busy.status, 409);
    assert.match(((await busy.json()) as { error: string }).error, /Streaming for thread is in progress/);
    const again = await all(chat({ input: 'Orders by status', chatId, messageId }));
    const rest: Line[] = [head];
    for await (const l of first) rest.push(l);
    assert.deepEqual(again, rest);
    assert.equal(again.at(-1)!.id, '__usage__');
    assert.equal(again.filter((l) => l.id === messageId).length, 1);
  });

  it('suspends a turn asking for approval, and resumes it with chatId + messageId', async () => {
    const messageId = newMessageId();
    const first = await all(chat({ input: 'Delete old orders? This needs approval', messageId }));
    const chatId = first[0]!.state!.chatId!;
    const suspended = first.at(-2)!;
    assert.equal(suspended.id, '__suspended__');
    assert.equal(suspended.type, 'suspend');
    assert.equal(suspended.retryable, true);
    assert.equal(suspended.messageId, messageId);
    assert.equal(first.at(-1)!.id, '__usage__');
    assert.ok(!first.some((l) => l.graphPath?.[0] === 'final'));

    const read = await all(chat({ chatId }));
    assert.deepEqual(read[0]!.state, { chatId, isStreaming: false, suspended: { messageId } });

    // Resume without input: the thread so far is replayed, then the rest of the turn.
    const resumed = await all(chat({ chatId, messageId }));
    assert.equal(resumed[0]!.id, '__cutoff__');
    assert.equal(resumed[1]!.id, messageId);
    assert.ok(toolCall(resumed, 'cubeSqlApi'));
    assert.ok(resumed.some((l) => l.graphPath?.[0] === 'final'));
    assert.equal(resumed.at(-1)!.id, '__usage__');
    const after = await all(chat({ chatId }));
    assert.equal(after[0]!.state!.suspended, undefined);
  });

  it('answers the thread state when input is omitted', async () => {
    const messageId = newMessageId();
    const turn = await all(chat({ input: 'Customers by country', messageId }));
    const chatId = turn[0]!.state!.chatId!;
    const state = await all(chat({ chatId }));
    assert.deepEqual(state[0], {
      id: '__cutoff__',
      role: 'assistant',
      sort: 0,
      state: { chatId, isStreaming: false },
    });
    assert.ok(state.slice(1, -1).every((l) => l.isDelta !== true));
    assert.deepEqual(
      state.slice(1, -1).map((l) => l.id),
      turn.filter((l) => l.id && !l.id.startsWith('__') && l.isDelta !== true).map((l) => l.id),
    );
    assert.ok(state.some((l) => l.graphPath?.[0] === 'final'));
    assert.equal(state.at(-1)!.id, '__usage__');
  });

  it('sends a mid-stream error line, then __usage__', async () => {
    const lines = await all(chat({ input: 'please error out' }));
    const error = lines.at(-2)!;
    assert.match(error.error!, /overloaded/);
    assert.equal(error.id, undefined);
    assert.equal(lines.at(-1)!.id, '__usage__');
  });

  it('validates sessionSettings, messageId, input and the chat', async () => {
    const bad = async (body: unknown, status: number, message: RegExp) => {
      const res = await call('/chat/stream-chat-state', body);
      assert.equal(res.status, status, JSON.stringify(body));
      assert.match(((await res.json()) as { error: string }).error, message);
    };
    await bad({ input: 'x' }, 400, /externalId/);
    await bad({ input: 'x', sessionSettings: {} }, 400, /externalId/);
    await bad({ input: 'x', messageId: '123-message', sessionSettings: settings }, 400, /messageId/);
    await bad({ input: '', sessionSettings: settings }, 400, /input/);
    await bad({ chatId: 'nope', sessionSettings: settings }, 404, /nope/);
    const turn = await all(chat({ input: 'Orders by status' }));
    const chatId = turn[0]!.state!.chatId!;
    await bad({ chatId, sessionSettings: { externalId: 'someone@else' } }, 403, /another user/);
  });
});
