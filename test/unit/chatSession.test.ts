// ChatSession over the real AiClient and a real HTTP stream: which render operations a turn
// produces, how Stop, Resume and Retry behave, and that Stop reaches the abort endpoint.
import * as assert from 'node:assert/strict';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { AiClient } from '../../src/api';
import { ChatSession } from '../../src/chat/chatSession';
import type { HostToWebview } from '../../src/shared/chatProtocol';

type Script = (req: { body: Record<string, unknown> }, res: ServerResponse) => Promise<void> | void;

interface Fake {
  url: string;
  server: Server;
  requests: { path: string; body: Record<string, unknown> }[];
  script: Script;
  /** What a script threw: afterEach fails the test with it (a fake must not swallow assertions). */
  errors: unknown[];
}

async function fakeAgent(): Promise<Fake> {
  const fake = {
    requests: [] as Fake['requests'],
    script: (() => undefined) as Script,
    errors: [] as unknown[],
  } as Fake;
  fake.server = createServer((req: IncomingMessage, res: ServerResponse) => {
    let raw = '';
    req.on('data', (c: Buffer) => (raw += c.toString()));
    req.on('end', () => {
      const body = raw ? (JSON.parse(raw) as Record<string, unknown>) : {};
      const path = req.url ?? '';
      fake.requests.push({ path, body });
      if (path.endsWith('/chat/abort')) {
        res.writeHead(204).end();
        return;
      }
      res.setHeader('content-type', 'application/json');
      Promise.resolve()
        .then(() => fake.script({ body }, res))
        .catch((e: unknown) => {
          fake.errors.push(e);
          res.destroy();
        });
    });
  });
  await new Promise<void>((r) => fake.server.listen(0, '127.0.0.1', r));
  const port = (fake.server.address() as AddressInfo).port;
  fake.url = `http://127.0.0.1:${port}/api/v1/public/acme/agents/analyst`;
  return fake;
}

const line = (res: ServerResponse, value: unknown) => res.write(`${JSON.stringify(value)}\n`);
/** The first line of every turn: the chat it belongs to and whether the server is still streaming it. */
const cutoff = (res: ServerResponse, chatId: string, isStreaming = false) =>
  line(res, { id: '__cutoff__', role: 'assistant', sort: 0, state: { chatId, isStreaming } });

/** A script answering its nth call (from 1) with the chat's cutoff, `body`'s lines, then `usage`. */
function calls(chatId: string, body: (res: ServerResponse, call: number) => void, usage: unknown): Script {
  let call = 0;
  return (_req, res) => {
    call++;
    cutoff(res, chatId);
    body(res, call);
    line(res, { id: '__usage__', type: 'usage', usage });
    res.end();
  };
}

function session(fake: Fake): { s: ChatSession; ops: HostToWebview[] } {
  const ops: HostToWebview[] = [];
  const client = new AiClient({ baseUrl: fake.url, apiKey: () => Promise.resolve('key-123') });
  const s = new ChatSession({
    client,
    sessionSettings: { externalId: 'tester' },
    post: (op) => ops.push(op),
  });
  return { s, ops };
}

describe('ChatSession', () => {
  let fake: Fake;
  beforeEach(async () => {
    fake = await fakeAgent();
  });
  afterEach(async () => {
    fake.server.closeAllConnections();
    await new Promise((r) => fake.server.close(r));
    if (fake.errors.length > 0) throw fake.errors[0];
  });

  it('turns a streamed turn into render operations: deltas, tool card, final answer, usage', async () => {
    fake.script = (req, res) => {
      cutoff(res, 'c1');
      line(res, { id: req.body.messageId, role: 'user', content: req.body.input, isDelta: false, sort: 1 });
      line(res, {
        id: 'm2',
        role: 'assistant',
        content: 'Let ',
        thinking: 'plan',
        isDelta: true,
        isInProcess: true,
      });
      line(res, { id: 'm2', role: 'assistant', content: 'me look.', isDelta: true, isInProcess: true });
      line(res, {
        id: 'm3',
        role: 'assistant',
        toolCall: {
          name: 'cubeSqlApi',
          input: JSON.stringify({ sql: 'SELECT status, MEASURE(count) FROM orders GROUP BY 1' }),
          result: JSON.stringify({
            schema: [{ name: 'status' }, { name: 'count' }],
            data: [['shipped', '10']],
            totalRows: 1,
            vegaSpec: '{"mark":"bar"}',
            usedPreAggregations: {
              'dev_pre_aggregations.orders_orders_by_status': {
                preAggregationId: 'orders.orders_by_status',
                lastUpdatedAt: 1_790_000_000_000,
                type: 'rollup',
              },
            },
          }),
        },
        isInProcess: false,
      });
      line(res, {
        id: 'm4',
        role: 'assistant',
        content: 'Shipped: **10**',
        graphPath: ['final'],
        isDelta: false,
      });
      line(res, { id: '__usage__', type: 'usage', usage: { llmCalls: 2, totalTokens: 99 } });
      res.end();
    };
    const { s, ops } = session(fake);
    await s.send('Orders by status?');
    assert.equal(s.chatId, 'c1');
    const types = ops.map((o) => o.type);
    assert.deepEqual(types, [
      'turnStarted',
      'userMessage',
      'assistantText',
      'assistantText',
      'toolCall',
      'final',
      'usage',
      'turnEnded',
    ]);
    const deltas = ops.filter((o) => o.type === 'assistantText');
    assert.deepEqual(
      deltas.map((o) => (o.type === 'assistantText' ? o.delta : undefined)),
      ['Let ', 'me look.'],
    );
    const tool = ops.find((o) => o.type === 'toolCall');
    assert.ok(tool?.type === 'toolCall');
    assert.equal(tool.sql, 'SELECT status, MEASURE(count) FROM orders GROUP BY 1');
    assert.deepEqual(tool.result?.data, [['shipped', '10']]);
    assert.equal(tool.result?.totalRows, 1);
    assert.deepEqual(tool.result?.rollups, [
      { id: 'orders.orders_by_status', builtAt: new Date(1_790_000_000_000).toISOString() },
    ]);
    assert.deepEqual(ops.at(-1), { type: 'turnEnded', chatId: 'c1' });
    assert.equal(
      fake.requests[0]!.body.sessionSettings &&
        (fake.requests[0]!.body.sessionSettings as { externalId: string }).externalId,
      'tester',
    );
  });

  it('Stop ends the turn at once, calls the abort endpoint with the chat id, and shows it stopped', async () => {
    let release: () => void = () => undefined;
    fake.script = async (_req, res) => {
      cutoff(res, 'c9', true);
      line(res, { id: 'm2', role: 'assistant', content: 'Thinking', isDelta: true, isInProcess: true });
      await new Promise<void>((r) => (release = r));
      res.end();
    };
    const { s, ops } = session(fake);
    const turn = s.send('Long question');
    while (!ops.some((o) => o.type === 'assistantText')) await new Promise((r) => setTimeout(r, 10));
    assert.equal(s.streaming, true);
    await s.stop();
    await turn;
    release();
    assert.equal(s.streaming, false);
    const abort = fake.requests.find((r) => r.path.endsWith('/chat/abort'));
    assert.ok(abort, 'the abort endpoint was called');
    assert.equal(abort.body.chatId, 'c9');
    assert.deepEqual(
      ops.slice(-2).map((o) => o.type),
      ['aborted', 'turnEnded'],
    );
  });

  it('a stopped turn is reported stopped, and stays stopped when the chat is loaded again', async () => {
    let release: () => void = () => undefined;
    fake.script = async (_req, res) => {
      cutoff(res, 'c7', true);
      line(res, { id: 'm2', role: 'assistant', content: 'Looking', isDelta: true, isInProcess: true });
      await new Promise<void>((r) => (release = r));
      res.end();
    };
    const ops: HostToWebview[] = [];
    const ended: [string | undefined, string | undefined][] = [];
    const client = new AiClient({ baseUrl: fake.url, apiKey: () => Promise.resolve('key-123') });
    const s = new ChatSession({
      client,
      sessionSettings: { externalId: 'tester' },
      post: (op) => ops.push(op),
      onTurnEnded: (chatId, _first, stopped) => ended.push([chatId, stopped]),
    });
    const turn = s.send('Stop me');
    while (!ops.some((o) => o.type === 'assistantText')) await new Promise((r) => setTimeout(r, 10));
    await s.stop();
    await turn;
    release();
    const stoppedId = (fake.requests[0]!.body as { messageId: string }).messageId;
    assert.deepEqual(ended, [['c7', stoppedId]], 'the stopped turn is named to be kept');

    // The thread as the server keeps it: the question and the partial work, no marker, zero usage.
    fake.script = (_req, res) => {
      cutoff(res, 'c7');
      line(res, { id: stoppedId, role: 'user', content: 'Stop me', isDelta: false, sort: 1 });
      line(res, { id: 'm2', role: 'assistant', content: 'Looking', isDelta: false, sort: 2 });
      // The server finished the answer before the abort reached it.
      line(res, {
        id: 'm3',
        role: 'assistant',
        content: 'Late',
        graphPath: ['final'],
        isDelta: false,
        sort: 2,
      });
      line(res, { id: '1800000000001-message', role: 'user', content: 'Next', isDelta: false, sort: 3 });
      line(res, {
        id: 'm4',
        role: 'assistant',
        content: 'Done',
        graphPath: ['final'],
        isDelta: false,
        sort: 4,
      });
      line(res, { id: '__usage__', type: 'usage', usage: { llmCalls: 0, totalTokens: 0 } });
      res.end();
    };
    ops.length = 0;
    await s.load('c7', [stoppedId]);
    const shown = ops.map((o) => (o.type === 'userMessage' ? `user:${o.text}` : o.type));
    assert.deepEqual(
      shown.filter((t) => t !== 'turnStarted' && t !== 'reset'),
      ['user:Stop me', 'assistantText', 'aborted', 'user:Next', 'final', 'turnEnded'],
      'stopped after its own turn, the next turn answered, no zero usage line',
    );
    // Without the stopped list (another window's chat), nothing is marked.
    ops.length = 0;
    await s.load('c7');
    assert.ok(!ops.some((o) => o.type === 'aborted'));
    assert.equal(ops.filter((o) => o.type === 'final').length, 2);
  });

  it('resumes a suspended turn with the same chatId and messageId', async () => {
    fake.script = calls(
      'c2',
      (res, call) => {
        if (call === 1) {
          line(res, { id: '__suspended__', type: 'suspend', retryable: true });
        } else {
          line(res, { id: 'm9', role: 'assistant', content: 'Done.', graphPath: ['final'], isDelta: false });
        }
      },
      { llmCalls: 1 },
    );
    const { s, ops } = session(fake);
    await s.send('Needs approval');
    assert.ok(ops.some((o) => o.type === 'suspended'));
    await s.resume();
    const [first, second] = fake.requests.map((r) => r.body);
    assert.equal(second!.chatId, 'c2');
    assert.equal(second!.messageId, first!.messageId);
    assert.match(String(second!.messageId), /^\d{13,}-message$/);
    assert.ok(ops.some((o) => o.type === 'final' && o.markdown === 'Done.'));
  });

  it('shows a mid-stream error line inline, retryable, and Retry sends the question again', async () => {
    fake.script = calls(
      'c3',
      (res, call) => {
        if (call === 1) line(res, { error: 'Model overloaded' });
        else
          line(res, {
            id: 'm1',
            role: 'assistant',
            content: 'Fine now.',
            graphPath: ['final'],
            isDelta: false,
          });
      },
      {},
    );
    const { s, ops } = session(fake);
    await s.send('Revenue?');
    const error = ops.find((o) => o.type === 'error');
    assert.deepEqual(error, { type: 'error', message: 'Model overloaded', retryable: true });
    await s.retry();
    assert.equal(fake.requests.length, 2);
    assert.equal(fake.requests[1]!.body.input, 'Revenue?');
    assert.equal(fake.requests[1]!.body.chatId, 'c3');
    assert.ok(ops.some((o) => o.type === 'final'));
  });

  it('reports an HTTP failure as a retryable error, not a crash', async () => {
    fake.script = (_req, res) => {
      res.statusCode = 500;
      res.end(JSON.stringify({ error: 'boom' }));
    };
    const { s, ops } = session(fake);
    await s.send('Hi');
    const error = ops.find((o) => o.type === 'error');
    assert.ok(error?.type === 'error' && error.retryable);
    assert.equal(ops.at(-1)?.type, 'turnEnded');
  });
});
