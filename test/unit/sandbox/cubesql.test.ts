// The sandbox's /v1/cubesql and /v1/meta over real HTTP: NDJSON schema then batches, MEASURE()
// rewriting, a trailing error line after data, "Continue wait" lines, errors before streaming,
// client disconnects, and the meta shape.
import * as assert from 'node:assert/strict';
import { startSandbox, type SandboxHandle } from '../../../src/sandbox';

const ROWS = 3000;

interface MetaMember {
  name: string;
  title: string;
  shortTitle: string;
  type: string;
  aggType?: string;
  sql?: string;
  granularities?: { name: string }[];
}
interface MetaCube {
  name: string;
  title: string;
  description: string;
  type: string;
  public: boolean;
  folders: unknown[];
  measures: MetaMember[];
  dimensions: MetaMember[];
  segments: { name: string }[];
  joins?: { name: string }[];
  hierarchies?: unknown[];
  nestedFolders?: unknown[];
  fileName?: string;
  preAggregations?: { name: string; measureReferences?: string }[];
}

type Line = {
  schema?: { name: string; column_type: string }[];
  lastRefreshTime?: string;
  data?: (string | null)[][];
  error?: string;
  requestId?: string;
};

describe('sandbox /v1/cubesql and /v1/meta', function () {
  this.timeout(60_000);
  let sb: SandboxHandle;
  before(async () => {
    sb = await startSandbox({ rows: ROWS, continueWaitMs: 150, aiEventDelayMs: 1 });
  });
  after(() => sb.close());

  const post = (body: unknown, signal?: AbortSignal) =>
    fetch(`${sb.urls.dataApi}/v1/cubesql`, {
      method: 'POST',
      headers: { authorization: sb.tokens.dataApi, 'content-type': 'application/json' },
      body: JSON.stringify(body),
      signal,
    });
  async function lines(body: unknown): Promise<Line[]> {
    const res = await post(body);
    assert.equal(res.status, 200);
    assert.match(res.headers.get('content-type') ?? '', /application\/json/);
    const text = await res.text();
    assert.ok(text.endsWith('\n'));
    return text
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l) as Line);
  }
  const rowsOf = (ls: Line[]) => ls.filter((l) => l.data).flatMap((l) => l.data!);

  it('streams a schema line, then data lines of at most 1,000 rows, values as strings', async () => {
    const ls = await lines({ query: 'SELECT id, status, amount, created_at FROM orders ORDER BY id' });
    assert.deepEqual(ls[0]!.schema, [
      { name: 'id', column_type: 'Int64' },
      { name: 'status', column_type: 'String' },
      { name: 'amount', column_type: 'Float64' },
      { name: 'created_at', column_type: 'Timestamp' },
    ]);
    assert.ok(ls[0]!.lastRefreshTime);
    const batches = ls.slice(1);
    assert.deepEqual(
      batches.map((b) => b.data!.length),
      [1000, 1000, 1000],
    );
    const rows = rowsOf(ls);
    assert.equal(rows[0]![0], '1');
    assert.equal(rows.at(-1)![0], String(ROWS));
    assert.ok(rows.every((r) => r.every((v) => typeof v === 'string')));
    assert.doesNotMatch(rows[0]![3]!, /Z$/);
  });

  it('rewrites MEASURE(name) and MEASURE(cube.name) to the measure aggregates', async () => {
    const viaMeasure = rowsOf(
      await lines({
        query:
          'SELECT status, MEASURE(count) AS n, MEASURE(orders.total_amount) AS total, MEASURE(customer_count) AS customers FROM orders GROUP BY 1 ORDER BY 1',
      }),
    );
    const plain = rowsOf(
      await lines({
        query:
          'SELECT status, COUNT(*), SUM(amount), COUNT(DISTINCT customer_id) FROM orders GROUP BY 1 ORDER BY 1',
      }),
    );
    assert.deepEqual(viaMeasure, plain);
    assert.equal(
      viaMeasure.reduce((s, r) => s + Number(r[1]), 0),
      ROWS,
    );
    const byCountry = rowsOf(
      await lines({
        query:
          "SELECT country, MEASURE(customers.count) FROM customers WHERE country LIKE 'United%' GROUP BY 1 ORDER BY 1",
      }),
    );
    assert.deepEqual(
      byCountry.map((r) => r[0]),
      ['United Kingdom', 'United States'],
    );
  });

  it('joins cubes and applies WHERE, ORDER BY and LIMIT', async () => {
    const rows = rowsOf(
      await lines({
        query:
          "SELECT p.category, MEASURE(orders.count) AS n FROM orders o JOIN products p ON p.id = o.product_id WHERE o.status <> 'canceled' GROUP BY 1 ORDER BY n DESC LIMIT 3",
      }),
    );
    assert.equal(rows.length, 3);
    assert.ok(Number(rows[0]![1]) >= Number(rows[1]![1]) && Number(rows[1]![1]) >= Number(rows[2]![1]));
  });

  it('ends with a trailing error line (with requestId) when the query fails mid-stream', async () => {
    const ls = await lines({
      query:
        'SELECT CASE WHEN id > 1500 THEN abs(-9223372036854775807 - 1) ELSE id END AS x FROM orders ORDER BY id',
    });
    assert.ok(ls[0]!.schema);
    assert.equal(rowsOf(ls).length, 1500);
    const last = ls.at(-1)!;
    assert.match(last.error!, /overflow/);
    assert.ok(last.requestId);
  });

  it("answers errors before streaming as 400 JSON in the engine's words, without type or requestId", async () => {
    const cases: [unknown, RegExp][] = [
      [{ query: 'SELEC 1' }, /syntax/],
      [{ query: 'SELECT * FROM nope' }, /nope/],
      [{ query: 'SELECT MEASURE(orders.nope) FROM orders' }, /orders\.nope/],
      [{ query: 'SELECT 1', nope: true }, /^Invalid query format: "nope" is not allowed$/],
      [{ query: '' }, /^Invalid query format: "query"/],
      [{}, /^Invalid query format: "query" is required$/],
    ];
    for (const [body, message] of cases) {
      const res = await post(body);
      assert.equal(res.status, 400, JSON.stringify(body));
      const json = (await res.json()) as { type?: string; error: string; requestId?: string };
      assert.equal(json.type, undefined);
      assert.equal(json.requestId, undefined);
      assert.match(json.error, message);
    }
  });

  it('answers a slow query with one "Continue wait" line under throwContinueWait, data without it', async () => {
    const sql = 'SELECT status, MEASURE(slow_count) FROM orders GROUP BY 1';
    assert.deepEqual(await lines({ query: sql, throwContinueWait: true }), [{ error: 'Continue wait' }]);
    // A field neither published nor sent by the official client is refused.
    const refused = await post({ query: sql, bogus: true });
    assert.equal(refused.status, 400);
    assert.match(((await refused.json()) as { error: string }).error, /bogus/);
    // Without throwContinueWait the server holds the request until the query is done.
    const ls = await lines({ query: `/* slow */ ${sql}` });
    assert.equal(
      rowsOf(ls).reduce((s, r) => s + Number(r[1]), 0),
      ROWS,
    );
  });

  it('stops a big statement when the client goes away and keeps serving', async () => {
    const controller = new AbortController();
    const res = await post({ query: 'SELECT a.id, b.id FROM orders a, orders b' }, controller.signal);
    const reader = res.body!.getReader();
    const first = await reader.read();
    assert.ok(first.value && first.value.length > 0);
    controller.abort();
    await reader.cancel().catch(() => undefined);
    const ls = await lines({ query: 'SELECT MEASURE(orders.count) FROM orders' });
    assert.deepEqual(rowsOf(ls), [[String(ROWS)]]);
  });

  describe('/v1/meta', () => {
    const meta = async (q = '') => {
      const res = await fetch(`${sb.urls.dataApi}/v1/meta${q}`, {
        headers: { authorization: sb.tokens.dataApi },
      });
      assert.equal(res.status, 200);
      return (await res.json()) as { cubes: MetaCube[]; compilerId: string };
    };

    it('lists the cubes with typed measures, dimensions, segments and folders', async () => {
      const m = await meta();
      assert.equal(m.compilerId, undefined, 'the engine sends no compilerId');
      assert.deepEqual(
        m.cubes.map((c) => c.name),
        ['orders', 'customers', 'products'],
      );
      for (const cube of m.cubes) {
        assert.equal(cube.type, 'cube');
        assert.equal(cube.public, true);
        assert.ok(cube.title && typeof cube.description === 'string');
        assert.deepEqual(cube.hierarchies, []);
        assert.deepEqual(cube.nestedFolders, []);
        assert.deepEqual(cube.folders, []);
        for (const x of [...cube.measures, ...cube.dimensions]) {
          assert.ok(x.name.startsWith(`${cube.name}.`));
          assert.ok(x.title && x.shortTitle);
          assert.ok(['number', 'string', 'time', 'boolean'].includes(x.type));
          assert.equal(x.sql, undefined);
        }
        for (const x of cube.measures) assert.ok(x.aggType);
      }
      const orders = m.cubes[0]!;
      const created = orders.dimensions.find((d) => d.name === 'orders.created_at')!;
      assert.equal(created.type, 'time');
      assert.equal(created.title, 'Orders Created at');
      assert.equal(created.granularities, undefined, 'no granularities for the built-in grains');
      assert.equal(orders.measures.find((x) => x.name === 'orders.total_amount')!.aggType, 'sum');
      assert.deepEqual(
        orders.segments.map((s) => s.name),
        ['orders.completed'],
      );
    });

    it('adds SQL and joins with ?extended', async () => {
      const m = await meta('?extended');
      const orders = m.cubes[0]!;
      assert.ok(orders.measures.length > 0);
      // Each member's sql as written in the cube file; a count without sql has none.
      assert.equal(orders.measures.find((x) => x.name === 'orders.total_amount')!.sql, 'amount');
      assert.equal(orders.measures.find((x) => x.name === 'orders.count')!.sql, undefined);
      assert.equal(orders.fileName, 'model/cubes/orders.yml');
      assert.deepEqual(
        orders.preAggregations!.map((p) => [p.name, p.measureReferences]),
        [['orders_by_status', '[CUBE.count, CUBE.total_amount]']],
      );
      assert.deepEqual(
        orders.joins!.map((j) => j.name),
        ['customers', 'products'],
      );
    });
  });
});
