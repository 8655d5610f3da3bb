// The sandbox's /v1/load over real HTTP: every filter operator, every granularity, date ranges,
// order/limit/offset/total, ungrouped, segments and UserErrors. Expected values are computed in
// JavaScript from the raw sample rows of an identically seeded engine, not by the load compiler.
import * as assert from 'node:assert/strict';
import { startSandbox, type SandboxHandle } from '../../../src/sandbox';
import { createDataEngine } from '../../../src/sandbox/data';

interface Raw {
  id: number;
  status: string;
  created_at: string;
  amount: number;
  customer_id: number;
  city: string;
  country: string;
  segment: string;
  category: string;
}

type LoadBody = {
  error?: string;
  type?: string;
  results?: {
    data: Record<string, string | null>[];
    total: number | null;
    annotation: Record<string, Record<string, { title: string; type: string }>>;
  }[];
};

const ROWS = 3000;
/** The clock relative date ranges are resolved against in this suite (and where the data ends). */
const CLOCK = '2026-11-01T12:00:00.000Z';

describe('sandbox /v1/load', function () {
  this.timeout(60_000);
  let sb: SandboxHandle;
  let raw: Raw[];

  before(async () => {
    sb = await startSandbox({ rows: ROWS, continueWaitMs: 150, aiEventDelayMs: 1, clock: CLOCK });
    const oracle = await createDataEngine({ rows: ROWS, seed: 42, now: new Date(CLOCK) });
    const { columns, rows } = oracle.all(
      `SELECT o.id, o.status, o.created_at, o.amount, o.customer_id, c.city, c.country, c.segment, p.category
       FROM t_orders o JOIN t_customers c ON c.id = o.customer_id JOIN t_products p ON p.id = o.product_id`,
    );
    raw = rows.map((r) => Object.fromEntries(columns.map((c, i) => [c, r[i]])) as unknown as Raw);
    oracle.db.close();
  });
  after(() => sb.close());

  async function post(query: unknown, headers: Record<string, string> = {}): Promise<[number, LoadBody]> {
    const res = await fetch(`${sb.urls.dataApi}/v1/load`, {
      method: 'POST',
      headers: { authorization: sb.tokens.dataApi, 'content-type': 'application/json', ...headers },
      body: JSON.stringify({ queryType: 'multi', query }),
    });
    return [res.status, (await res.json()) as LoadBody];
  }
  async function load(query: unknown) {
    const [status, body] = await post(query);
    assert.equal(status, 200, JSON.stringify(body));
    return body.results![0]!;
  }
  async function count(filters: unknown[], extra: Record<string, unknown> = {}): Promise<number> {
    const r = await load({ measures: ['orders.count'], filters, ...extra });
    return Number(r.data[0]?.['orders.count'] ?? 0);
  }
  const where = (p: (r: Raw) => boolean) => raw.filter(p).length;

  it('answers the multi shape with member keys, numbers as strings and annotation', async () => {
    const [status, body] = await post({ measures: ['orders.count'], dimensions: ['orders.status'] });
    assert.equal(status, 200);
    const b = body as Record<string, unknown>;
    assert.equal(b.queryType, 'regularQuery');
    const r = body.results![0]!;
    assert.equal(typeof r.data[0]!['orders.count'], 'string');
    assert.equal(r.annotation.measures['orders.count'].type, 'number');
    assert.equal(r.annotation.dimensions['orders.status'].title, 'Orders Status');
    const total = r.data.reduce((s, row) => s + Number(row['orders.count']), 0);
    assert.equal(total, ROWS);
    for (const row of r.data)
      assert.equal(
        Number(row['orders.count']),
        where((x) => x.status === row['orders.status']),
      );
    // A plain {"query"} body gets the engine's single result object (no envelope).
    const plain = await fetch(`${sb.urls.dataApi}/v1/load`, {
      method: 'POST',
      headers: { authorization: sb.tokens.dataApi },
      body: JSON.stringify({ query: { measures: ['orders.count'] } }),
    });
    const single = (await plain.json()) as { data: unknown; results?: unknown };
    assert.deepEqual(single.data, [{ 'orders.count': String(ROWS) }]);
    assert.equal(single.results, undefined);
    // GET with the JSON query in ?query= (the official client's default) answers the same.
    const q = encodeURIComponent(JSON.stringify({ measures: ['orders.count'] }));
    const viaGet = await fetch(`${sb.urls.dataApi}/v1/load?query=${q}&queryType=multi`, {
      headers: { authorization: sb.tokens.dataApi },
    });
    assert.equal(viaGet.status, 200);
    const got = (await viaGet.json()) as { results: { data: unknown }[] };
    assert.deepEqual(got.results[0]!.data, [{ 'orders.count': String(ROWS) }]);
    const bad = await fetch(`${sb.urls.dataApi}/v1/load?query=%7Bnope`, {
      headers: { authorization: sb.tokens.dataApi },
    });
    assert.equal(bad.status, 400);
  });

  it('computes sums, averages and distinct counts like the raw rows', async () => {
    const r = await load({
      measures: ['orders.total_amount', 'orders.avg_amount', 'orders.customer_count'],
      dimensions: ['customers.country'],
    });
    // One row per country of the raw data (so the checks below ran on every group, not on none).
    assert.equal(r.data.length, new Set(raw.map((x) => x.country)).size);
    assert.ok(r.data.length > 0);
    for (const row of r.data) {
      const rows = raw.filter((x) => x.country === row['customers.country']);
      const sum = rows.reduce((s, x) => s + x.amount, 0);
      assert.ok(Math.abs(Number(row['orders.total_amount']) - sum) < 0.01);
      assert.ok(Math.abs(Number(row['orders.avg_amount']) - sum / rows.length) < 0.01);
      assert.equal(Number(row['orders.customer_count']), new Set(rows.map((x) => x.customer_id)).size);
    }
  });

  describe('filter operators', () => {
    const cases: [string, unknown, (r: Raw) => boolean][] = [
      ['equals', ['shipped', 'new'], (r) => r.status === 'shipped' || r.status === 'new'],
      ['notEquals', ['shipped'], (r) => r.status !== 'shipped'],
      ['contains', ['ped'], (r) => r.status.includes('ped')],
      ['notContains', ['ped'], (r) => !r.status.includes('ped')],
      ['startsWith', ['c'], (r) => r.status.startsWith('c')],
      ['notStartsWith', ['c'], (r) => !r.status.startsWith('c')],
      ['endsWith', ['ed'], (r) => r.status.endsWith('ed')],
      ['notEndsWith', ['ed'], (r) => !r.status.endsWith('ed')],
    ];
    for (const [operator, values, pred] of cases) {
      it(operator, async () => {
        assert.equal(
          await count([{ member: 'orders.status', operator, values }]),
          where(pred),
          `${operator} ${JSON.stringify(values)}`,
        );
      });
    }

    const numeric: [string, (a: number) => boolean][] = [
      ['gt', (a) => a > 250],
      ['gte', (a) => a >= 250],
      ['lt', (a) => a < 250],
      ['lte', (a) => a <= 250],
    ];
    for (const [operator, pred] of numeric) {
      it(operator, async () => {
        assert.equal(
          await count([{ member: 'orders.amount', operator, values: ['250'] }]),
          where((r) => pred(r.amount)),
        );
      });
    }

    it('set and notSet', async () => {
      assert.equal(await count([{ member: 'orders.status', operator: 'set' }]), ROWS);
      assert.equal(await count([{ member: 'orders.status', operator: 'notSet' }]), 0);
    });

    const day = (r: Raw) => r.created_at.slice(0, 10);
    const dates: [string, string[], (r: Raw) => boolean][] = [
      ['inDateRange', ['2025-03-01', '2025-03-31'], (r) => day(r) >= '2025-03-01' && day(r) <= '2025-03-31'],
      [
        'notInDateRange',
        ['2025-03-01', '2025-03-31'],
        (r) => !(day(r) >= '2025-03-01' && day(r) <= '2025-03-31'),
      ],
      ['beforeDate', ['2025-03-01'], (r) => day(r) < '2025-03-01'],
      ['beforeOrOnDate', ['2025-03-01'], (r) => day(r) <= '2025-03-01'],
      ['afterDate', ['2025-03-01'], (r) => day(r) > '2025-03-01'],
      ['afterOrOnDate', ['2025-03-01'], (r) => day(r) >= '2025-03-01'],
    ];
    for (const [operator, values, pred] of dates) {
      it(operator, async () => {
        assert.equal(await count([{ member: 'orders.created_at', operator, values }]), where(pred));
      });
    }

    it('measureFilter and a measure compared with gt (HAVING)', async () => {
      const byCity = new Map<string, number>();
      for (const r of raw) byCity.set(r.city, (byCity.get(r.city) ?? 0) + 1);
      const threshold = [...byCity.values()].sort((a, b) => a - b)[Math.floor(byCity.size / 2)]!;
      const r = await load({
        measures: ['orders.count'],
        dimensions: ['customers.city'],
        filters: [{ member: 'orders.count', operator: 'gt', values: [String(threshold)] }],
      });
      assert.deepEqual(
        r.data.map((x) => x['customers.city']).sort(),
        [...byCity]
          .filter(([, n]) => n > threshold)
          .map(([c]) => c)
          .sort(),
      );
      const all = await load({
        measures: ['orders.count'],
        dimensions: ['customers.city'],
        filters: [{ member: 'orders.count', operator: 'measureFilter' }],
      });
      assert.equal(all.data.length, byCity.size);
    });

    it('nested or/and', async () => {
      const n = await count([
        {
          or: [
            { member: 'orders.status', operator: 'equals', values: ['canceled'] },
            {
              and: [
                { member: 'customers.country', operator: 'equals', values: ['Germany'] },
                { member: 'orders.amount', operator: 'gte', values: ['400'] },
              ],
            },
          ],
        },
        { member: 'products.category', operator: 'notEquals', values: ['Books'] },
      ]);
      assert.equal(
        n,
        where(
          (r) =>
            (r.status === 'canceled' || (r.country === 'Germany' && r.amount >= 400)) &&
            r.category !== 'Books',
        ),
      );
    });

    it('treats LIKE wildcards in values literally and binds values as parameters', async () => {
      assert.equal(await count([{ member: 'orders.status', operator: 'contains', values: ['%'] }]), 0);
      assert.equal(
        await count([{ member: 'orders.status', operator: 'equals', values: ["x' OR 1=1 --"] }]),
        0,
      );
    });
  });

  describe('time dimensions', () => {
    const pad = (n: number) => String(n).padStart(2, '0');
    const bucket = (iso: string, g: string): string => {
      const d = new Date(`${iso}Z`);
      const y = d.getUTCFullYear();
      const m = d.getUTCMonth();
      const ymd = (x: Date) => `${x.getUTCFullYear()}-${pad(x.getUTCMonth() + 1)}-${pad(x.getUTCDate())}`;
      switch (g) {
        case 'day':
          return `${iso.slice(0, 10)}T00:00:00.000`;
        case 'week': {
          const monday = new Date(Date.UTC(y, m, d.getUTCDate() - ((d.getUTCDay() + 6) % 7)));
          return `${ymd(monday)}T00:00:00.000`;
        }
        case 'month':
          return `${y}-${pad(m + 1)}-01T00:00:00.000`;
        case 'quarter':
          return `${y}-${pad(Math.floor(m / 3) * 3 + 1)}-01T00:00:00.000`;
        default:
          return `${y}-01-01T00:00:00.000`;
      }
    };
    for (const g of ['day', 'week', 'month', 'quarter', 'year']) {
      it(`granularity ${g}`, async () => {
        const r = await load({
          measures: ['orders.count'],
          timeDimensions: [{ dimension: 'orders.created_at', granularity: g }],
          limit: 5000,
        });
        const expected = new Map<string, number>();
        for (const x of raw) {
          const k = bucket(x.created_at, g);
          expected.set(k, (expected.get(k) ?? 0) + 1);
        }
        assert.deepEqual(
          r.data.map((row) => [row[`orders.created_at.${g}`], Number(row['orders.count'])]),
          [...expected].sort(([a], [b]) => a.localeCompare(b)),
        );
        assert.match(r.data[0]![`orders.created_at.${g}`]!, /^\d{4}-\d{2}-\d{2}T00:00:00\.000$/);
        assert.equal(r.data[0]!['orders.created_at'], r.data[0]![`orders.created_at.${g}`]);
        assert.equal(r.annotation.timeDimensions[`orders.created_at.${g}`].type, 'time');
      });
    }

    it("dateRange pairs and relative strings (against the suite's fixed clock, 2026-11-01)", async () => {
      const day = (r: Raw) => r.created_at.slice(0, 10);
      const cases: [unknown, (r: Raw) => boolean][] = [
        [['2025-01-01', '2025-06-30'], (r) => day(r) >= '2025-01-01' && day(r) <= '2025-06-30'],
        ['this year', (r) => day(r) >= '2026-01-01' && day(r) <= '2026-12-31'],
        ['last year', (r) => day(r) >= '2025-01-01' && day(r) <= '2025-12-31'],
        ['last quarter', (r) => day(r) >= '2026-07-01' && day(r) <= '2026-09-30'],
        ['this quarter', (r) => day(r) >= '2026-10-01' && day(r) <= '2026-12-31'],
        ['last month', (r) => day(r) >= '2026-10-01' && day(r) <= '2026-10-31'],
        ['last 7 days', (r) => day(r) >= '2026-10-25' && day(r) <= '2026-10-31'],
      ];
      for (const [dateRange, pred] of cases) {
        const r = await load({
          measures: ['orders.count'],
          timeDimensions: [{ dimension: 'orders.created_at', dateRange }],
        });
        assert.equal(Number(r.data[0]?.['orders.count'] ?? 0), where(pred), JSON.stringify(dateRange));
      }
    });
  });

  it('orders (object and pairs), limits, offsets and counts the total', async () => {
    const q = { measures: ['orders.count'], dimensions: ['customers.city'] };
    const byCount = await load({ ...q, order: { 'orders.count': 'desc' } });
    const counts = byCount.data.map((r) => Number(r['orders.count']));
    assert.deepEqual(
      counts,
      [...counts].sort((a, b) => b - a),
    );
    const byCity = await load({ ...q, order: [['customers.city', 'asc']] });
    const cities = byCity.data.map((r) => r['customers.city']!);
    assert.deepEqual(cities, [...cities].sort());
    const page = await load({ ...q, order: [['customers.city', 'asc']], limit: 3, offset: 2, total: true });
    assert.deepEqual(
      page.data.map((r) => r['customers.city']),
      cities.slice(2, 5),
    );
    assert.equal(page.total, cities.length);
    assert.equal(byCity.total, null);
  });

  it('ungrouped queries answer one row per order; segments filter', async () => {
    const r = await load({
      dimensions: ['orders.amount', 'orders.status'],
      measures: ['orders.total_amount'],
      segments: ['orders.completed'],
      ungrouped: true,
      order: { 'orders.amount': 'asc' },
      limit: 10_000,
    });
    const completed = raw.filter((x) => x.status === 'completed').sort((a, b) => a.amount - b.amount);
    assert.equal(r.data.length, completed.length);
    assert.equal(r.data[0]!['orders.amount'], String(completed[0]!.amount));
    assert.ok(r.data.every((x) => x['orders.status'] === 'completed'));
    assert.equal(
      await count([], { segments: ['customers.enterprise'] }),
      where((x) => x.segment === 'Enterprise'),
    );
  });

  it("answers 400 in the engine's words: type UserError only for model-level errors", async () => {
    // [query, message, typed]
    const cases: [unknown, RegExp, boolean][] = [
      [{ measures: ['orders.nope'] }, /^'nope' not found for path 'orders\.nope'$/, true],
      [{ dimensions: ['nope.status'] }, /^Cube 'nope' not found for path 'nope\.status'$/, true],
      [
        { measures: ['orders.count'], filters: [{ member: 'orders.status', operator: 'like' }] },
        /^Invalid query format: "filters\[0\]" does not match any of the allowed types$/,
        false,
      ],
      [
        {
          measures: ['orders.count'],
          timeDimensions: [{ dimension: 'orders.created_at', granularity: 'fortnight' }],
        },
        /fortnight/,
        true,
      ],
      [
        {
          measures: ['orders.count'],
          timeDimensions: [{ dimension: 'orders.created_at', dateRange: 'someday' }],
        },
        /^Can't parse date: 'someday'$/,
        false,
      ],
      [
        { measures: ['orders.count'], segments: ['orders.nope'] },
        /^'nope' not found for path 'orders\.nope'$/,
        true,
      ],
      [{}, /^Query should contain either measures, dimensions or timeDimensions/, false],
      [{ measures: ['orders.count'], nope: 1 }, /^Invalid query format: "nope" is not allowed$/, false],
    ];
    for (const [query, message, typed] of cases) {
      const [status, body] = await post(query);
      assert.equal(status, 400, JSON.stringify(query));
      assert.equal(body.type, typed ? 'UserError' : undefined, JSON.stringify(body));
      assert.match(body.error!, message);
      assert.equal((body as { requestId?: string }).requestId, undefined, 'no requestId in error bodies');
    }
    // A member the model hides (a primary key): 500 with the engine's message.
    const [status, body] = await post({ dimensions: ['orders.id'] });
    assert.equal(status, 500);
    assert.match(
      body.error!,
      /^Error: You requested hidden member: 'orders__id'\. Please make it visible using `shown: true`/,
    );
  });

  describe('rollups', () => {
    type Result = {
      data: Record<string, string | null>[];
      lastRefreshTime: string;
      usedPreAggregations?: Record<string, { preAggregationId: string; lastUpdatedAt: number }>;
    };
    const single = async (query: unknown): Promise<Result> => {
      const res = await fetch(`${sb.urls.dataApi}/v1/load`, {
        method: 'POST',
        headers: { authorization: sb.tokens.dataApi, 'content-type': 'application/json' },
        body: JSON.stringify({ query }),
      });
      assert.equal(res.status, 200);
      return (await res.json()) as Result;
    };

    it('answers from the rollup with the numbers of the raw rows', async () => {
      const r = await single({
        measures: ['orders.count', 'orders.total_amount'],
        dimensions: ['orders.status'],
      });
      assert.ok(r.usedPreAggregations, 'served by the rollup');
      assert.equal(r.data.length, new Set(raw.map((x) => x.status)).size);
      for (const row of r.data) {
        const rows = raw.filter((x) => x.status === row['orders.status']);
        assert.equal(Number(row['orders.count']), rows.length);
        assert.ok(
          Math.abs(Number(row['orders.total_amount']) - rows.reduce((n, x) => n + x.amount, 0)) < 0.01,
        );
      }
      // By month over a range: the rollup's days rolled up to months.
      const m = await single({
        measures: ['orders.count'],
        timeDimensions: [
          { dimension: 'orders.created_at', granularity: 'month', dateRange: ['2026-01-01', '2026-06-30'] },
        ],
      });
      assert.ok(m.usedPreAggregations);
      const expected = new Map<string, number>();
      for (const x of raw) {
        const day = x.created_at.slice(0, 10);
        if (day < '2026-01-01' || day > '2026-06-30') continue;
        const k = `${x.created_at.slice(0, 7)}-01T00:00:00.000`;
        expected.set(k, (expected.get(k) ?? 0) + 1);
      }
      assert.deepEqual(
        m.data.map((row) => [row['orders.created_at.month'], Number(row['orders.count'])]),
        [...expected].sort(([a], [b]) => a.localeCompare(b)),
      );
    });

    it('dates every rollup result by the build, the same on each query', async () => {
      const a = await single({ measures: ['orders.count'], dimensions: ['orders.status'] });
      const b = await single({ measures: ['orders.total_amount'] });
      const [used] = Object.values(a.usedPreAggregations!);
      assert.equal(a.lastRefreshTime, new Date(used!.lastUpdatedAt).toISOString());
      assert.equal(b.lastRefreshTime, a.lastRefreshTime);
      // A query the rollup cannot answer is dated by its own run.
      const raw1 = await single({ measures: ['orders.avg_amount'] });
      assert.equal(raw1.usedPreAggregations, undefined);
    });
  });

  it('keeps a slow query answering "Continue wait" under one request-id prefix until it is done', async () => {
    const query = { measures: ['orders.slow_count'], dimensions: ['orders.status'] };
    const [s1, first] = await post(query, { 'x-request-id': 'load-slow-1-span-1' });
    assert.equal(s1, 200);
    assert.deepEqual(first, { error: 'Continue wait' });
    let body: LoadBody = first;
    for (let span = 2; body.error === 'Continue wait' && span < 200; span++) {
      await new Promise((r) => setTimeout(r, 20));
      [, body] = await post(query, { 'x-request-id': `load-slow-1-span-${span}` });
    }
    const total = body.results![0]!.data.reduce((s, r) => s + Number(r['orders.slow_count']), 0);
    assert.equal(total, ROWS);
    // Another prefix is another query: it waits again.
    assert.deepEqual((await post(query, { 'x-request-id': 'load-slow-2-span-1' }))[1], {
      error: 'Continue wait',
    });
  });

  it('holds a round until the slow query is done when that comes within continueWaitTimeout', async () => {
    // The engine holds each long-poll round; a query done within the round is answered at once.
    const held = await startSandbox({ rows: 200, continueWaitMs: 300, continueWaitTimeoutMs: 60_000 });
    try {
      const res = await fetch(`${held.urls.dataApi}/v1/load`, {
        method: 'POST',
        headers: {
          authorization: held.tokens.dataApi,
          'content-type': 'application/json',
          'x-request-id': 'h-span-1',
        },
        body: JSON.stringify({ queryType: 'multi', query: { measures: ['orders.slow_count'] } }),
      });
      const body = (await res.json()) as LoadBody;
      assert.equal(body.error, undefined, 'no Continue wait: the round was held until the query was done');
      assert.equal(body.results![0]!.data[0]!['orders.slow_count'], '200');
    } finally {
      await held.close();
    }
  });

  it('resolves relative ranges against the real clock by default', async () => {
    const real = await startSandbox({ rows: 200 });
    try {
      const day = (d: Date) => d.toISOString().slice(0, 10);
      const before = day(new Date(Date.now() - 86_400_000));
      const res = await fetch(`${real.urls.dataApi}/v1/load`, {
        method: 'POST',
        headers: { authorization: real.tokens.dataApi, 'content-type': 'application/json' },
        body: JSON.stringify({
          query: {
            measures: ['orders.count'],
            timeDimensions: [{ dimension: 'orders.created_at', dateRange: 'yesterday' }],
          },
        }),
      });
      const after = day(new Date(Date.now() - 86_400_000));
      const echo = ((await res.json()) as { query: { timeDimensions: { dateRange: string[] }[] } }).query;
      const from = echo.timeDimensions[0]!.dateRange[0]!.slice(0, 10);
      assert.ok(from === before || from === after, `yesterday is ${before}, got ${from}`);
    } finally {
      await real.close();
    }
  });
});
