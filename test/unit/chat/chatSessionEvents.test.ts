// ChatSession event by event, against a scripted client (the exact operations the page is sent for
// each event the AI client yields, and the exact request of each turn): messages, deltas, tool cards
// and their results, usage, suspension and resume, server aborts and errors (retryable or not), a
// cut-off stream, credentials redacted, Stop, New Chat, the branch fields and the history callback.
import assert from 'node:assert/strict';
import { ApiError } from '../../../src/api/errors';
import { CUT_OFF } from '../../../src/api/aiClient';
import { forgetSecret, rememberSecret } from '../../../src/api/log';
import type { ChatEvent } from '../../../src/api/schemas/ai';
import { ChatSession } from '../../../src/chat/chatSession';
import type { HostToWebview } from '../../../src/shared/chatProtocol';

type Script = (req: Record<string, unknown>, signal: AbortSignal) => AsyncIterable<ChatEvent>;

function scripted(script: Script, opts: { branch?: string; abortFails?: boolean } = {}) {
  const ops: HostToWebview[] = [];
  const requests: Record<string, unknown>[] = [];
  const aborts: string[] = [];
  const loads: string[] = [];
  const warned: string[] = [];
  const ended: unknown[][] = [];
  let state: Script = script;
  const s = new ChatSession({
    client: {
      streamChat: (req: Record<string, unknown>, signal: AbortSignal) => (
        requests.push(req),
        state(req, signal)
      ),
      getChatState: (chatId: string, _settings: unknown, signal: AbortSignal) => (
        loads.push(chatId),
        state({ chatId }, signal)
      ),
      abort: async (chatId: string) => {
        aborts.push(chatId);
        if (opts.abortFails) throw new Error('abort refused');
      },
    } as unknown as ConstructorParameters<typeof ChatSession>[0]['client'],
    sessionSettings: { externalId: 'ada' },
    post: (op) => ops.push(op),
    log: { warn: (m) => warned.push(m) },
    branch: () => opts.branch,
    onTurnEnded: (...a) => ended.push(a),
  });
  return { s, ops, requests, aborts, loads, warned, ended, setScript: (x: Script) => (state = x) };
}

const events = (...list: ChatEvent[]): Script =>
  async function* () {
    for (const e of list) yield e;
  };
const msg = (m: Record<string, unknown>) => ({ id: 'm', role: 'assistant', ...m }) as never;
/** The operations between turnStarted and turnEnded. */
const body = (ops: HostToWebview[]) => ops.filter((o) => o.type !== 'turnStarted' && o.type !== 'turnEnded');

describe('ChatSession: each event as the page is told it', () => {
  it('messages: the question, streamed deltas, whole texts; the final answer only once', async () => {
    const t = scripted(
      events(
        { type: 'cutoff', chatId: 'c1' },
        { type: 'message', message: msg({ id: 'u1', role: 'user', content: 'Q?' }) },
        { type: 'message', message: msg({ id: 'm1', isDelta: true, thinking: 'hmm' }), delta: 'Hel' },
        { type: 'message', message: msg({ id: 'm1', isDelta: true }), delta: 'lo' },
        { type: 'message', message: msg({ id: 'm2', content: 'Whole', isInProcess: true }) },
        { type: 'message', message: msg({ id: 'm3', content: null, thinking: null }) },
        { type: 'message', message: msg({ id: 'm4', content: 'x', isDelta: true }) },
        { type: 'message', message: msg({ id: 'm5', content: 'Answer', graphPath: ['final'] }) },
        { type: 'final', message: msg({ id: 'm5', content: 'Answer' }) },
        { type: 'final', message: msg({ id: 'm6', content: null }) },
        { type: 'usage', usage: { llmCalls: 1 } as never },
      ),
    );
    await t.s.send('Q?');
    assert.equal(t.s.chatId, 'c1');
    assert.deepEqual(t.ops[0], { type: 'turnStarted', turnId: t.requests[0]!.messageId, userText: 'Q?' });
    assert.deepEqual(body(t.ops), [
      { type: 'userMessage', id: 'u1', text: 'Q?' },
      { type: 'assistantText', id: 'm1', delta: 'Hel', thinking: 'hmm', inProcess: true },
      { type: 'assistantText', id: 'm1', delta: 'lo', thinking: undefined, inProcess: true },
      { type: 'assistantText', id: 'm2', text: 'Whole', thinking: undefined, inProcess: true },
      { type: 'assistantText', id: 'm3', text: '', thinking: undefined, inProcess: false },
      { type: 'assistantText', id: 'm4', text: 'x', thinking: undefined, inProcess: false },
      { type: 'final', id: 'm5', markdown: 'Answer' },
      { type: 'final', id: 'm6', markdown: '' },
      { type: 'usage', usage: { llmCalls: 1 } },
    ]);
    assert.deepEqual(t.ops.at(-1), { type: 'turnEnded', chatId: 'c1' });
    assert.deepEqual(t.ended, [['c1', 'Q?', undefined]]);
  });

  it('the request: input, chat, message id, session, and the branch only when there is one', async () => {
    const t = scripted(events({ type: 'cutoff', chatId: 'c2' }), { branch: 'dev-b' });
    await t.s.send('one');
    await t.s.send('two');
    const [a, b] = t.requests;
    assert.deepEqual(Object.keys(a!).sort(), [
      'activeBranchName',
      'chatId',
      'input',
      'isDefaultBranch',
      'messageId',
      'sessionSettings',
    ]);
    assert.deepEqual(
      [a!.input, a!.chatId, a!.activeBranchName, a!.isDefaultBranch],
      ['one', undefined, 'dev-b', false],
    );
    assert.deepEqual([b!.input, b!.chatId], ['two', 'c2']);
    assert.notEqual(a!.messageId, b!.messageId);
    assert.deepEqual(a!.sessionSettings, { externalId: 'ada' });
    assert.deepEqual(
      t.ended.map((e) => e[1]),
      ['one', 'one'],
      'the first question names the chat',
    );
    const main = scripted(events());
    await main.s.send('x');
    assert.ok(!('activeBranchName' in main.requests[0]!) && !('isDefaultBranch' in main.requests[0]!));
  });

  describe('tool cards', () => {
    const table: {
      what: string;
      input: unknown;
      result?: unknown;
      raw?: string;
      sql?: string;
      out: unknown;
    }[] = [
      { what: 'SQL from the input', input: { sql: 'SELECT 1' }, sql: 'SELECT 1', out: undefined },
      { what: 'an input without SQL', input: { sql: 3 }, out: undefined },
      { what: 'a string input', input: 'SELECT 1', out: undefined },
      {
        what: 'a failed tool',
        input: null,
        result: { error: 'no such cube' },
        out: { error: 'no such cube' },
      },
      {
        what: 'a table: named columns, array rows, the total, the chart',
        input: {},
        result: {
          schema: [{ name: 'a' }, { nope: 1 }, null, 'x', { name: 'b' }],
          data: [[1, 2], 'row', [3]],
          totalRows: 2,
          vegaSpec: { mark: 'bar' },
          error: 5,
        },
        out: {
          schema: [{ name: 'a' }, { name: 'b' }],
          data: [[1, 2], [3]],
          totalRows: 2,
          vegaSpec: { mark: 'bar' },
        },
      },
      {
        what: 'the rollup that served it',
        input: {},
        result: {
          totalRows: '2',
          usedPreAggregations: {
            t1: { preAggregationId: 'orders.main', lastUpdatedAt: 1_790_000_000_000 },
            t2: { preAggregationId: 'orders.other' },
          },
        },
        out: {
          rollups: [
            { id: 'orders.main', builtAt: new Date(1_790_000_000_000).toISOString() },
            { id: 'orders.other' },
          ],
        },
      },
      { what: 'a result that is a list', input: {}, result: [1], out: undefined },
      { what: 'a result that is text', input: {}, result: 'done', raw: 'done', out: undefined },
      { what: 'an empty result', input: {}, result: {}, out: undefined },
    ];
    for (const row of table) {
      it(row.what, async () => {
        const t = scripted(
          events({
            type: 'toolCall',
            message: msg({ id: 't1' }),
            toolCall: {
              name: 'cubeSqlApi',
              input: row.input,
              result: row.result,
              rawInput: '',
              rawResult: row.raw,
            },
          }),
        );
        await t.s.send('q');
        assert.deepEqual(body(t.ops), [
          {
            type: 'toolCall',
            id: 't1',
            name: 'cubeSqlApi',
            input: row.input,
            sql: row.sql,
            result: row.out,
            resultText: row.raw,
          },
        ]);
      });
    }
  });

  it('a suspended turn: said, and Resume sends the same message again; nothing else to resume after', async () => {
    const t = scripted(
      events(
        { type: 'cutoff', chatId: 'c3' },
        { type: 'suspended', retryable: true },
        { type: 'usage', usage: {} as never },
      ),
    );
    await t.s.send('approve?');
    assert.deepEqual(body(t.ops), [{ type: 'suspended' }, { type: 'usage', usage: {} }]);
    t.setScript(events({ type: 'final', message: msg({ content: 'ok' }) }));
    await t.s.resume();
    assert.equal(t.requests.length, 2);
    assert.equal(t.requests[1]!.messageId, t.requests[0]!.messageId);
    assert.equal(t.requests[1]!.input, 'approve?');
    await t.s.resume();
    assert.equal(t.requests.length, 2, 'resumed once');
  });

  it('a server abort ends the turn shown as stopped, once', async () => {
    const t = scripted(events({ type: 'aborted' }));
    await t.s.send('q');
    assert.deepEqual(body(t.ops), [{ type: 'aborted' }]);
  });

  it('an error line: shown, retryable for a question, explained when about the identity, never a credential', async () => {
    const secret = 'sk-SECRET-0123456789';
    rememberSecret(secret);
    try {
      const t = scripted(
        events(
          { type: 'error', message: `bad key ${secret}` },
          { type: 'error', message: 'externalId is required' },
        ),
      );
      await t.s.send('q');
      const errors = body(t.ops);
      assert.deepEqual(errors[0], { type: 'error', message: 'bad key [REDACTED]', retryable: true });
      assert.equal(errors[1]?.type, 'error');
      assert.match(
        (errors[1] as { message: string }).message,
        /^externalId is required The AI API did not accept the session identity: set session\.externalId/,
      );
      // Retry sends the question again, as a new message.
      t.setScript(events());
      await t.s.retry();
      assert.equal(t.requests[1]!.input, 'q');
      assert.notEqual(t.requests[1]!.messageId, t.requests[0]!.messageId);
      // Content with a credential is redacted too.
      t.setScript(events({ type: 'final', message: msg({ content: `see ${secret}` }) }));
      await t.s.send('again');
      assert.deepEqual(body(t.ops).at(-1), { type: 'final', id: 'm', markdown: 'see [REDACTED]' });
    } finally {
      forgetSecret(secret);
    }
  });

  it('a stream cut off mid-turn: the error, then Resume offered for the same message', async () => {
    const t = scripted(async function* () {
      yield { type: 'cutoff', chatId: 'c4' } as ChatEvent;
      throw new ApiError('network', 'The answer stopped before its end.', { code: CUT_OFF });
    });
    await t.s.send('long');
    assert.deepEqual(body(t.ops), [
      { type: 'error', message: 'The answer stopped before its end.', retryable: true },
      { type: 'suspended', reason: 'Resume to load the rest of the answer.' },
    ]);
    t.setScript(events());
    await t.s.resume();
    assert.equal(t.requests[1]!.messageId, t.requests[0]!.messageId);
    // Any other failure offers no resume.
    const u = scripted(async function* () {
      yield* [];
      throw new ApiError('server', 'Boom.');
    });
    await u.s.send('x');
    assert.deepEqual(body(u.ops), [{ type: 'error', message: 'Boom.', retryable: true }]);
    await u.s.resume();
    assert.equal(u.requests.length, 1);
  });

  it('a loaded thread: no usage line, errors not retryable, its turn id named by the chat', async () => {
    const t = scripted(
      events(
        { type: 'message', message: msg({ id: 'u1', role: 'user', content: 'old' }) },
        { type: 'usage', usage: { llmCalls: 0 } as never },
        { type: 'error', message: 'gone' },
      ),
    );
    await t.s.load('c9');
    assert.deepEqual(t.loads, ['c9']);
    assert.deepEqual(t.ops, [
      { type: 'reset' },
      { type: 'turnStarted', turnId: 'load-c9', userText: undefined },
      { type: 'userMessage', id: 'u1', text: 'old' },
      { type: 'error', message: 'gone', retryable: false },
      { type: 'turnEnded', chatId: 'c9' },
    ]);
    assert.deepEqual(t.ended, [['c9', undefined, undefined]]);
    // Retry after a load has no question to send.
    await t.s.retry();
    assert.deepEqual(t.requests, []);
  });

  it('Stop: the server is told by chat id (a refusal only logged); before the chat has an id, only locally', async () => {
    const hold = () =>
      async function* (_req: unknown, signal: AbortSignal) {
        yield { type: 'cutoff', chatId: 'c5' } as ChatEvent;
        await new Promise<void>((r) => signal.addEventListener('abort', () => r()));
      };
    const t = scripted(hold(), { abortFails: true });
    const turn = t.s.send('q');
    while (!t.s.chatId) await new Promise((r) => setImmediate(r));
    assert.equal(t.s.streaming, true);
    await t.s.stop();
    await turn;
    assert.equal(t.s.streaming, false);
    assert.deepEqual(t.aborts, ['c5']);
    assert.deepEqual(t.warned, ['Aborting chat c5 failed: abort refused']);
    assert.deepEqual(body(t.ops), [{ type: 'aborted' }]);
    assert.deepEqual(t.ended, [['c5', 'q', t.requests[0]!.messageId]], 'the stopped turn is named');
    // Stop with nothing running does nothing.
    await t.s.stop();
    assert.deepEqual(t.aborts, ['c5']);
    const u = scripted(async function* (_req: unknown, signal: AbortSignal) {
      yield* [];
      await new Promise<void>((r) => signal.addEventListener('abort', () => r()));
    });
    const v = u.s.send('q');
    await new Promise((r) => setImmediate(r));
    await u.s.stop();
    await v;
    assert.deepEqual(u.aborts, [], 'no chat id yet: nothing to tell the server');
    assert.deepEqual(body(u.ops), [{ type: 'aborted' }]);
  });

  it('a stream that ends cancelled is shown stopped, not failed; after a server marker, nothing more', async () => {
    const t = scripted(async function* () {
      yield* [];
      throw new ApiError('cancelled', 'The request was cancelled.');
    });
    await t.s.send('q');
    assert.deepEqual(body(t.ops), [{ type: 'aborted' }]);
    const u = scripted(async function* () {
      yield { type: 'suspended', retryable: true } as ChatEvent;
      throw new ApiError('cancelled', 'The request was cancelled.');
    });
    await u.s.send('q');
    assert.deepEqual(body(u.ops), [{ type: 'suspended' }]);
  });

  const holdAfter = (...first: ChatEvent[]) =>
    async function* (_req: unknown, signal: AbortSignal) {
      yield { type: 'cutoff', chatId: 'c8' } as ChatEvent;
      for (const e of first) yield e;
      await new Promise<void>((r) => signal.addEventListener('abort', () => r()));
    };

  it('Stop after the final answer streamed still shows the turn stopped; after a suspension it does not', async () => {
    const t = scripted(
      holdAfter({ type: 'message', message: msg({ id: 'f', content: 'A', graphPath: ['final'] }) }),
    );
    const turn = t.s.send('q');
    while (!t.s.chatId) await new Promise((r) => setImmediate(r));
    await new Promise((r) => setImmediate(r));
    await t.s.stop();
    await turn;
    assert.deepEqual(body(t.ops), [{ type: 'aborted' }]);
    const u = scripted(holdAfter({ type: 'suspended', retryable: true }));
    const turn2 = u.s.send('q');
    while (!u.ops.some((o) => o.type === 'suspended')) await new Promise((r) => setImmediate(r));
    await u.s.stop();
    await turn2;
    assert.deepEqual(body(u.ops), [{ type: 'suspended' }], 'the server already ended it');
  });

  it('a loaded thread shows a stopped turn once, whatever the markers; a question without text reads empty', async () => {
    const t = scripted(
      events(
        { type: 'message', message: msg({ id: 'u1', role: 'user', content: null }) },
        { type: 'aborted' },
        { type: 'aborted' },
      ),
    );
    await t.s.load('c10');
    assert.deepEqual(body(t.ops).slice(1), [
      { type: 'userMessage', id: 'u1', text: '' },
      { type: 'aborted' },
    ]);
  });

  it('a question while a turn runs is not sent; New Chat stops the turn and forgets the chat', async () => {
    const t = scripted(async function* (_req: unknown, signal: AbortSignal) {
      yield { type: 'cutoff', chatId: 'c6' } as ChatEvent;
      await new Promise<void>((r) => signal.addEventListener('abort', () => r()));
    });
    const turn = t.s.send('first');
    while (!t.s.chatId) await new Promise((r) => setImmediate(r));
    await t.s.send('second');
    assert.equal(t.requests.length, 1);
    t.s.newChat();
    await turn;
    assert.equal(t.s.chatId, undefined);
    assert.ok(t.ops.some((o) => o.type === 'reset'));
    t.setScript(events({ type: 'cutoff', chatId: 'c7' }));
    await t.s.send('fresh');
    assert.equal(t.requests[1]!.chatId, undefined);
    assert.deepEqual(
      t.ended.at(-1),
      ['c7', 'fresh', undefined],
      'a new chat is named by its own first question',
    );
  });
});
