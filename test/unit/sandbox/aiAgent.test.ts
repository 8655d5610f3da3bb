// The sandbox's AI agent over real HTTP: the event sequence of a turn (wire format), the question
// planned from /v1/meta (every starter the chat offers, a table of questions, every measure by every
// dimension it can join), the SQL it shows giving the rows it answers with, refusals that say what
// it can answer, the rollup that served a query, abort, "in progress" and reattach, suspended turn
// and resume, thread state, validation. No timing assertions: the waits are for events.
import * as assert from 'node:assert/strict';
import { MetaSchema, type Meta } from '../../../src/api/schemas/data';
import { starterPrompts } from '../../../src/chat/starterPrompts';
import { startSandbox, type SandboxHandle } from '../../../src/sandbox';
import { httpAgentData, type AgentData, type LoadAnswer } from '../../../src/sandbox/ai/dataApi';
import { catalogOf, type Catalog } from '../../../src/sandbox/ai/catalog';
import { planQuestion, type Plan, type Refusal } from '../../../src/sandbox/ai/planner';
import { turnSteps } from '../../../src/sandbox/ai/turn';
import { emptyUsage, type Chat, type Line as TurnLine } from '../../../src/sandbox/ai/types';

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
    assert.match(
      (JSON.parse(sql.input) as { sql: string }).sql,
      /^SELECT orders\.status AS status, MEASURE\(orders\.count\)/,
    );
    const result = sqlResult(lines);
    assert.deepEqual(
      result.schema.map((c) => c.name),
      ['status', 'count'],
    );
    assert.equal(
      result.data.reduce((s, r) => s + Number(r[1]), 0),
      ROWS,
    );
    assert.equal(result.totalRows, result.data.length);
    const spec = JSON.parse(result.vegaSpec) as { mark: { type: string }; data?: unknown };
    assert.equal(spec.mark.type, 'bar');
    assert.equal(spec.data, undefined);

    const finals = lines.filter((l) => l.graphPath?.[0] === 'final');
    assert.equal(finals.length, 1);
    assert.equal(finals[0]!.isDelta, false);
    assert.match(finals[0]!.content!, /\| Status \| Count \|/);
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

  /** The model as the agent reads it, and the values of its small dimensions. */
  let meta: Meta;
  let catalog: Catalog;
  let values: Map<string, string[]>;
  const TODAY = new Date(Date.UTC(2026, 10, 27));
  before(async () => {
    const data = httpAgentData(() => ({ origin: `http://127.0.0.1:${sb.port}`, token: sb.tokens.dataApi }));
    meta = await data.meta(undefined, new AbortController().signal);
    catalog = catalogOf(meta);
    values = new Map();
    for (const c of catalog.cubes)
      for (const d of c.dimensions.filter((x) => x.type === 'string' && x.short !== 'id')) {
        const r = await data.load(
          { dimensions: [d.name], limit: 51 },
          undefined,
          new AbortController().signal,
        );
        if (r.data.length <= 50)
          values.set(
            d.name,
            r.data.map((row) => String(row[d.name])),
          );
      }
  });
  const plan = (q: string): Plan => {
    const p = planQuestion(q, catalog, { today: TODAY, values });
    assert.equal(p.kind, 'plan', `${q}: ${(p as Refusal).reason}`);
    return p as Plan;
  };
  /** What a plan asks for, in member names: measures | dimensions | time | filters. */
  const members = (p: Plan) =>
    [
      p.measures.map((m) => m.name).join(','),
      p.dimensions.map((d) => d.name).join(','),
      p.time
        ? `${p.time.dimension.name}${p.time.granularity ? `.${p.time.granularity}` : ''}${p.time.dateRange ? ` ${p.time.dateRange.join('..')}` : ''}`
        : '',
      p.filters.map((f) => `${f.member.name} ${f.operator} ${f.values.join('/')}`).join(','),
    ].join(' | ');

  it('plans each question from /v1/meta: measures, dimensions, time grain and range, filters, order, limit', () => {
    const table: [string, string, Partial<Pick<Plan, 'intent' | 'limit'>>?][] = [
      [
        'Which customer segment brings the most revenue?',
        'orders.total_amount | customers.segment |  | ',
        { intent: 'top' },
      ],
      [
        'Which status has the highest total amount?',
        'orders.total_amount | orders.status |  | ',
        { intent: 'top' },
      ],
      ['How many orders per status?', 'orders.count | orders.status |  | ', { intent: 'breakdown' }],
      ['Customers by country', 'customers.count | customers.country |  | '],
      ['How many customers per country?', 'customers.count | customers.country |  | '],
      [
        'Top 3 product categories by revenue',
        'orders.total_amount | products.category |  | ',
        { limit: 3, intent: 'top' },
      ],
      ['Which category has the highest average price?', 'products.avg_price | products.category |  | '],
      ["What's the average order value by country?", 'orders.avg_amount | customers.country |  | '],
      ['Revenue by month please', 'orders.total_amount |  | orders.created_at.month | ', { intent: 'trend' }],
      [
        'What was the total amount by month over the last year?',
        'orders.total_amount |  | orders.created_at.month 2025-11-01..2026-10-31 | ',
      ],
      [
        'How many orders were there each week in the last 3 months?',
        // Whole weeks, Monday to Sunday.
        'orders.count |  | orders.created_at.week 2026-07-27..2026-11-01 | ',
      ],
      [
        'How many new orders last month?',
        'orders.count |  | orders.created_at 2026-10-01..2026-10-31 | orders.status equals new',
        { intent: 'total' },
      ],
      [
        'Which city has the fewest shipped orders?',
        'orders.count | customers.city |  | orders.status equals shipped',
        { intent: 'bottom' },
      ],
      [
        'Revenue from Germany by customer segment, excluding canceled orders',
        'orders.total_amount | customers.segment |  | customers.country equals Germany,orders.status notEquals canceled',
      ],
      ['Orders from New York by status', 'orders.count | orders.status |  | customers.city equals New York'],
      [
        'revenue and order count by month in 2025',
        'orders.total_amount,orders.count |  | orders.created_at.month 2025-01-01..2025-12-31 | ',
      ],
      ['sales by customer', 'orders.total_amount | customers.name |  | '],
      [
        'How many distinct customers ordered each month this year?',
        'orders.customer_count |  | orders.created_at.month 2026-01-01..2026-11-26 | ',
      ],
      ['What is the total revenue?', 'orders.total_amount |  |  | ', { intent: 'total', limit: 1 }],
      ['Which product has the most orders?', 'orders.count | products.name |  | '],
    ];
    for (const [q, expected, extra] of table) {
      const p = plan(q);
      assert.equal(members(p), expected, q);
      for (const [k, v] of Object.entries(extra ?? {})) assert.equal(p[k as keyof Plan], v, `${q}: ${k}`);
    }
    // Rankings order by the measure (desc, or asc for "fewest"); trends by time.
    assert.deepEqual(plan('Which status has the highest total amount?').order, {
      member: 'orders.total_amount',
      desc: true,
    });
    assert.deepEqual(plan('Which city has the fewest shipped orders?').order, {
      member: 'orders.count',
      desc: false,
    });
    assert.deepEqual(plan('Revenue by month please').order, {
      member: 'orders.created_at.month',
      desc: false,
    });
  });

  it('plans every measure by every dimension it can be joined to, by title and by short title', () => {
    let pairs = 0;
    for (const mc of catalog.cubes)
      for (const m of mc.measures)
        for (const dc of catalog.cubes)
          for (const d of dc.dimensions) {
            if (d.type === 'time' || d.short === 'id') continue;
            const cubes = new Set([m.cube, d.cube]);
            const joins = catalog.cubes.some(
              (c) => cubes.has(c.name) && [...cubes].every((n) => n === c.name || c.joins?.includes(n)),
            );
            if (!joins) continue;
            for (const q of [`What is the ${m.title} by ${d.title}?`, `${m.title} per ${d.title}`]) {
              const p = plan(q);
              assert.deepEqual(
                [p.measures.map((x) => x.name), p.dimensions.map((x) => x.name)],
                [[m.name], [d.name]],
                q,
              );
            }
            pairs++;
          }
    assert.ok(pairs >= 30, `${pairs} pairs`);
  });

  it("answers each starter prompt the chat offers with that question's members, rows and a sentence from them", async () => {
    const starters = starterPrompts(MetaSchema.parse(meta));
    const expected: Record<string, RegExp> = {
      'What was the total amount by month over the last year?':
        /orders\.created_at[\s\S]*MEASURE\(orders\.total_amount\)[\s\S]*orders\.created_at >= /,
      'Which status has the highest total amount?':
        /orders\.status AS status, MEASURE\(orders\.total_amount\)[\s\S]*ORDER BY total_amount DESC/,
      'How many orders were there each week in the last 3 months?':
        /MEASURE\(orders\.count\)[\s\S]*orders\.created_at >= /,
      'How many customers are there by city?': /customers\.city AS city, MEASURE\(customers\.count\)/,
    };
    assert.deepEqual(starters, Object.keys(expected), 'the starters of the sample model');
    for (const q of starters) {
      const lines = await all(chat({ input: q, messageId: newMessageId() }));
      const sql = (JSON.parse(toolCall(lines, 'cubeSqlApi')!.input) as { sql: string }).sql;
      assert.match(sql, expected[q]!, q);
      const result = sqlResult(lines);
      assert.ok(result.data.length > 0, `${q}: rows`);
      const final = lines.find((l) => l.graphPath?.[0] === 'final')!.content!;
      // The sentence names the result's own top (or first) row.
      const measure = result.schema.length - 1;
      const top =
        q.startsWith('Which') || q.includes('by city')
          ? result.data.reduce((a, b) => (Number(b[measure]) > Number(a[measure]) ? b : a))
          : result.data[0]!;
      const label = /^\d{4}-/.test(String(top[0])) ? undefined : String(top[0]);
      if (label) assert.match(final, new RegExp(`\\*\\*${label}\\*\\*`), `${q}: ${final}`);
      else assert.match(final, /from \*\*/, `${q}: ${final}`);
    }
  });

  it('shows SQL that gives the rows it answers with (run on /v1/cubesql)', async () => {
    for (const q of [
      'Which customer segment brings the most revenue?',
      'What was the total amount by month over the last year?',
      'How many orders were there each week in the last 3 months?',
      'Which city has the fewest shipped orders?',
      'Revenue from Germany by customer segment, excluding canceled orders',
      'Top 3 product categories by revenue',
    ]) {
      const lines = await all(chat({ input: q, messageId: newMessageId() }));
      const sql = (JSON.parse(toolCall(lines, 'cubeSqlApi')!.input) as { sql: string }).sql;
      const res = await fetch(`${sb.urls.dataApi}/v1/cubesql`, {
        method: 'POST',
        headers: { authorization: sb.tokens.dataApi, 'content-type': 'application/json' },
        body: JSON.stringify({ query: sql }),
      });
      assert.equal(res.status, 200, `${q}: ${sql}`);
      const ndjson = (await res.text())
        .trim()
        .split('\n')
        .map((l) => JSON.parse(l) as { data?: unknown[][]; error?: string });
      assert.ok(!ndjson.some((l) => l.error), `${q}: ${JSON.stringify(ndjson.find((l) => l.error))}`);
      const viaSql = ndjson.flatMap((l) => l.data ?? []);
      const shown = sqlResult(lines).data;
      const same = (a: unknown, b: unknown) =>
        Number.isFinite(Number(a)) && a !== ''
          ? Math.abs(Number(a) - Number(b)) < 0.01
          : String(a) === String(b);
      assert.equal(viaSql.length, shown.length, q);
      viaSql.forEach((row, i) =>
        row.forEach((v, j) =>
          assert.ok(same(v, shown[i]![j]), `${q} row ${i}: ${String(v)} vs ${String(shown[i]![j])}`),
        ),
      );
    }
  });

  it('charts two measures on two axes, each titled and formatted by its measure', async () => {
    const lines = await all(
      chat({ input: 'revenue and order count by month in 2025', messageId: newMessageId() }),
    );
    const spec = JSON.parse(sqlResult(lines).vegaSpec) as {
      layer: { encoding: { y: { title: string; axis: { format: string; orient: string } } } }[];
      resolve: unknown;
    };
    assert.deepEqual(spec.resolve, { scale: { y: 'independent' } });
    assert.deepEqual(
      spec.layer.map((l) => [l.encoding.y.title, l.encoding.y.axis.format, l.encoding.y.axis.orient]),
      [
        ['Orders Total Amount ($)', '$~s', 'left'],
        ['Orders Count', '~s', 'right'],
      ],
    );
    const bars = JSON.parse(
      sqlResult(await all(chat({ input: 'Which status has the highest total amount?' }))).vegaSpec,
    ) as {
      mark: { type: string };
      encoding: { x: { field: string; sort: string }; y: { title: string } };
    };
    assert.equal(bars.mark.type, 'bar');
    assert.deepEqual(
      [bars.encoding.x.field, bars.encoding.x.sort, bars.encoding.y.title],
      ['status', '-y', 'Orders Total Amount ($)'],
    );
  });

  it('says when it cannot answer, and what it can answer instead (no SQL)', async () => {
    for (const [q, why] of [
      ["What's the weather like today?", /nothing in the data model matches "weather/],
      ['Revenue by planet', /no dimension matching "planet"/],
    ] as const) {
      const lines = await all(chat({ input: q, messageId: newMessageId() }));
      assert.equal(toolCall(lines, 'cubeSqlApi'), undefined, q);
      const final = lines.find((l) => l.graphPath?.[0] === 'final')!.content!;
      assert.match(final, /^I can't answer that from this data model/, q);
      assert.match(final, why, q);
      assert.match(final, /Orders Total Amount/);
      assert.match(final, /For example:\n- /);
    }
  });

  it('passes on the rollup that served the query, and answers an empty result in words', async () => {
    const rollup = {
      'dev_pre_aggregations.orders_orders_by_status': {
        preAggregationId: 'orders.orders_by_status',
        lastUpdatedAt: 1_790_000_000_000,
        type: 'rollup',
      },
    };
    let answer: LoadAnswer = {
      data: [{ 'orders.status': 'completed', 'orders.total_amount': '10.5' }],
      annotation: {},
      total: 1,
      usedPreAggregations: rollup,
    };
    const data: AgentData = { meta: async () => meta, load: async () => answer };
    const run = async (q: string) => {
      const chat: Chat = { id: 'c1', owner: 'o', messages: [], sort: 0 };
      const out: TurnLine[] = [];
      const deps = { data, delay: 0, now: () => TODAY, values: async () => values };
      for await (const l of turnSteps(
        deps,
        chat,
        q,
        '1800000000000-message',
        false,
        new AbortController().signal,
        emptyUsage(),
      ))
        out.push(l);
      return out;
    };
    const lines = (await run('Which status has the highest total amount?')) as Line[];
    assert.deepEqual(
      (sqlResult(lines) as unknown as { usedPreAggregations: unknown }).usedPreAggregations,
      rollup,
    );
    answer = { data: [], annotation: {}, total: 0 };
    const empty = (await run('How many new orders last month?')) as Line[];
    assert.match(
      empty.find((l) => l.graphPath?.[0] === 'final')!.content!,
      /There is no data for orders count for \*\*new\*\*/,
    );
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
