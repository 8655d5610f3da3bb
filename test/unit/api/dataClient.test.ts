import * as assert from 'node:assert/strict';
import * as net from 'node:net';
import { DataClient, MetaCache } from '../../../src/api/dataClient';
import { DispatcherRegistry } from '../../../src/api/net/agents';
import { numberFormatOf, rollupsUsed, type CubeSqlChunk } from '../../../src/api/schemas/data';
import {
  DATA_JWT as JWT,
  apiFailure,
  collect,
  dataClientFor as dc,
  deferred,
  endlessRows,
  ndjsonHead,
  sendJson,
  withServer,
} from './helpers';

const LOAD_OK = {
  queryType: 'regularQuery',
  slowQuery: false,
  results: [
    {
      query: {},
      data: [{ 'orders.status': 'shipped', 'orders.count': '700' }],
      annotation: {
        measures: { 'orders.count': { title: 'Orders Count', shortTitle: 'Count', type: 'number' } },
        dimensions: {},
        segments: {},
        timeDimensions: {},
      },
      lastRefreshTime: '2025-01-13T12:00:00.000Z',
      dataSource: 'default',
      total: null,
      newField: 'kept',
    },
  ],
};

describe('api/dataClient: load', () => {
  it('re-sends on Continue wait with the same request-id prefix and reports progress', async () => {
    await withServer(
      (_req, res, _b, n) =>
        n < 3 ? sendJson(res, 200, { error: 'Continue wait' }) : sendJson(res, 200, LOAD_OK),
      async (s) => {
        const progress: number[] = [];
        const out = await dc(s).load(
          { measures: ['orders.count'], dimensions: ['orders.status'] },
          { onProgress: (p) => progress.push(p.attempt) },
        );
        assert.equal(out.results[0].data.length, 1);
        assert.equal((out.results[0] as Record<string, unknown>).newField, 'kept');
        assert.deepEqual(progress, [1, 2]);
        assert.equal(s.requests.length, 3);
        const ids = s.requests.map((r) => String(r.headers['x-request-id']));
        const prefix = ids[0].replace(/-span-1$/, '');
        assert.match(prefix, /^[0-9a-f-]{36}$/);
        assert.deepEqual(ids, [`${prefix}-span-1`, `${prefix}-span-2`, `${prefix}-span-3`]);
        assert.ok(s.requests.every((r) => r.body === s.requests[0].body && r.url === '/cubejs-api/v1/load'));
        assert.deepEqual(JSON.parse(s.requests[0].body), {
          queryType: 'multi',
          query: { measures: ['orders.count'], dimensions: ['orders.status'] },
        });
        assert.equal(s.requests[0].headers.authorization, JWT, 'raw JWT, no scheme');
      },
    );
  });

  it('stops re-polling as soon as it is cancelled', async () => {
    await withServer(
      (_req, res) => sendJson(res, 200, { error: 'Continue wait' }),
      async (s) => {
        const ctl = new AbortController();
        const e = await apiFailure(() =>
          dc(s).load(
            { measures: ['orders.count'] },
            { signal: ctl.signal, onProgress: (p) => p.attempt === 3 && ctl.abort() },
          ),
        );
        assert.equal(e.kind, 'cancelled');
        assert.equal(s.requests.length, 3);
      },
    );
  });

  it('fails with kind timeout when the overall limit passes', async () => {
    await withServer(
      (_req, res) => setTimeout(() => sendJson(res, 200, { error: 'Continue wait' }), 10),
      async (s) => {
        const e = await apiFailure(() => dc(s).load({ measures: ['orders.count'] }, { timeoutMs: 60 }));
        assert.equal(e.kind, 'timeout');
        assert.match(e.message, /did not finish/);
      },
    );
  });

  it('maps UserError, 403 Invalid token and 200 {"error"} bodies', async () => {
    await withServer(
      (req, res) => {
        if (req.url!.includes('bad'))
          return sendJson(res, 400, { type: 'UserError', error: "'orders.nope' not found", requestId: 'r1' });
        if (req.url!.includes('tok')) return sendJson(res, 403, { error: 'Invalid token' });
        sendJson(res, 200, { error: 'Query execution failed', requestId: 'r2' });
      },
      async (s) => {
        const bad = await apiFailure(() =>
          dc(s, { baseUrl: s.url + '/bad' }).load({ measures: ['orders.nope'] }),
        );
        assert.equal(bad.kind, 'validation');
        assert.equal(bad.serverMessage, "'orders.nope' not found");
        const tok = await apiFailure(() => dc(s, { baseUrl: s.url + '/tok' }).load({}));
        assert.equal(tok.kind, 'auth');
        assert.match(tok.message, /Data API token/);
        const failed = await apiFailure(() => dc(s).load({}));
        assert.equal(failed.kind, 'server');
        assert.equal(failed.requestId, 'r2');
        assert.match(failed.message, /Query execution failed/);
      },
    );
  });

  it('names the missing field of a malformed response', async () => {
    await withServer(
      (_req, res) => sendJson(res, 200, { results: [{ data: [] }] }),
      async (s) => {
        const e = await apiFailure(() => dc(s).load({}));
        assert.equal(e.kind, 'protocol');
        assert.match(e.message, /results\[0\]\.annotation/);
      },
    );
  });

  it('retries a 503 of the idempotent query', async () => {
    await withServer(
      (_req, res, _b, n) => (n === 1 ? sendJson(res, 503, {}) : sendJson(res, 200, LOAD_OK)),
      async (s) => {
        await dc(s).load({});
        assert.equal(s.requests.length, 2);
      },
    );
  });
});

describe('api/dataClient: cubesql', () => {
  it('yields the schema and each batch as it arrives', async () => {
    const gate = deferred();
    await withServer(
      async (_req, res) => {
        ndjsonHead(res);
        res.write(
          JSON.stringify({
            schema: [
              { name: 'status', column_type: 'String' },
              { name: 'count', column_type: 'Int64' },
            ],
            lastRefreshTime: 't',
          }) + '\n',
        );
        res.write('{"data":[["shipped","10"],["new","4"]]}\n');
        await gate.promise; // the rest is only sent once the client has seen the first batch
        res.write('{"data":[["canceled","1"]]}\n');
        res.end();
      },
      async (s) => {
        const got: CubeSqlChunk[] = [];
        for await (const chunk of dc(s).cubesql('SELECT status, MEASURE(count) FROM orders GROUP BY 1', {
          timezone: 'UTC',
        })) {
          got.push(chunk);
          if (chunk.type === 'rows' && got.length === 2) gate.resolve();
        }
        assert.deepEqual(got, [
          {
            type: 'schema',
            schema: [
              { name: 'status', column_type: 'String' },
              { name: 'count', column_type: 'Int64' },
            ],
            lastRefreshTime: 't',
          },
          {
            type: 'rows',
            rows: [
              ['shipped', '10'],
              ['new', '4'],
            ],
          },
          { type: 'rows', rows: [['canceled', '1']] },
        ]);
        const body = JSON.parse(s.requests[0].body);
        // Only the fields the published cubesql operation declares.
        assert.deepEqual(body, {
          query: 'SELECT status, MEASURE(count) FROM orders GROUP BY 1',
          timezone: 'UTC',
        });
        assert.equal(s.requests[0].url, '/cubejs-api/v1/cubesql');
      },
    );
  });

  it('throws the trailing error line after the rows before it (UserError -> validation)', async () => {
    await withServer(
      (req, res) => {
        ndjsonHead(res);
        res.write('{"schema":[{"name":"a","column_type":"Int64"}]}\n{"data":[["1"]]}\n');
        const user = req.url!.startsWith('/user') ? { type: 'UserError' } : {};
        res.end(JSON.stringify({ error: 'Division by zero', requestId: 'rid-9', ...user }) + '\n');
      },
      async (s) => {
        const seen: CubeSqlChunk[] = [];
        const e = await apiFailure(async () => {
          for await (const c of dc(s).cubesql('SELECT 1/0')) seen.push(c);
        });
        assert.equal(seen.length, 2);
        assert.equal(e.kind, 'server');
        assert.equal(e.requestId, 'rid-9');
        assert.match(e.message, /Division by zero/);
        const u = await apiFailure(() => collect(dc(s, { baseUrl: s.url + '/user' }).cubesql('SELECT 1/0')));
        assert.equal(u.kind, 'validation');
        assert.equal(u.serverMessage, 'Division by zero');
      },
    );
  });

  it('re-posts on a Continue-wait line, with progress and the same prefix', async () => {
    await withServer(
      (_req, res, _b, n) => {
        ndjsonHead(res);
        if (n < 3) return res.end('{"error":"Continue wait"}\n');
        res.end('{"schema":[{"name":"a","column_type":"Int64"}]}\n{"data":[["1"]]}\n');
      },
      async (s) => {
        const progress: number[] = [];
        const got = await collect(dc(s).cubesql('SELECT 1', { onProgress: (p) => progress.push(p.attempt) }));
        assert.equal(got.length, 2);
        assert.deepEqual(progress, [1, 2]);
        const ids = s.requests.map((r) => String(r.headers['x-request-id']));
        const prefix = ids[0].slice(0, 36);
        assert.deepEqual(
          ids,
          [1, 2, 3].map((n) => `${prefix}-span-${n}`),
        );
      },
    );
  });

  it('surfaces errors sent before streaming, including bodies with Content-Length and Transfer-Encoding', async () => {
    await withServer(
      (_req, res) => sendJson(res, 400, { type: 'UserError', error: 'Unknown column foo' }),
      async (s) => {
        const e = await apiFailure(() => collect(dc(s).cubesql('SELECT foo')));
        assert.equal(e.kind, 'validation');
        assert.equal(e.serverMessage, 'Unknown column foo');
      },
    );
    const body = '{"type":"UserError","error":"Unknown column bar"}';
    const raw = net.createServer((sock) =>
      sock.once('data', () =>
        sock.end(
          `HTTP/1.1 400 Bad Request\r\nContent-Type: application/json\r\nContent-Length: ${body.length}\r\n` +
            `Transfer-Encoding: chunked\r\n\r\n${body.length.toString(16)}\r\n${body}\r\n0\r\n\r\n`,
        ),
      ),
    );
    await new Promise<void>((r) => raw.listen(0, '127.0.0.1', r));
    try {
      const port = (raw.address() as net.AddressInfo).port;
      const c = new DataClient({
        baseUrl: `http://127.0.0.1:${port}`,
        token: async () => JWT,
        dispatchers: new DispatcherRegistry({}),
      });
      const e = await apiFailure(() => collect(c.cubesql('SELECT bar')));
      assert.equal(e.kind, 'validation');
      assert.equal(e.serverMessage, 'Unknown column bar');
    } finally {
      raw.close();
    }
  });

  it('closes the connection when the consumer stops early', async () => {
    const closed = deferred();
    await withServer(
      (_req, res) => endlessRows(res, () => closed.resolve()),
      async (s) => {
        let n = 0;
        for await (const c of dc(s).cubesql('SELECT a FROM big')) {
          if (c.type === 'rows' && ++n === 3) break;
        }
        assert.equal(n, 3, 'three row chunks were read before stopping');
        // The server sees its response closed soon after the consumer stops (not at the test timeout).
        const outcome = await Promise.race([
          closed.promise.then(() => 'closed'),
          new Promise((r) => setTimeout(() => r('still open after 5 s'), 5000)),
        ]);
        assert.equal(outcome, 'closed');
      },
    );
  });

  it('a truncated or malformed line is a protocol error with its line number; a reset is a network error', async () => {
    await withServer(
      (req, res) => {
        ndjsonHead(res);
        res.write('{"schema":[{"name":"a","column_type":"Int64"}]}\n{"data":[["1"]]}\n');
        if (req.url!.includes('reset')) {
          res.write('{"data":[["2"');
          setTimeout(() => res.socket?.destroy(), 5);
          return;
        }
        res.end('{"data":[["2"],\n');
      },
      async (s) => {
        const e = await apiFailure(() => collect(dc(s).cubesql('SELECT a')));
        assert.equal(e.kind, 'protocol');
        assert.equal(e.line, 3);
        const r = await apiFailure(() => collect(dc(s, { baseUrl: s.url + '/reset' }).cubesql('SELECT a')));
        assert.equal(r.kind, 'network');
      },
    );
  });

  it('re-posts when the connection is cut before the first line', async () => {
    await withServer(
      (_req, res, _b, n) => {
        ndjsonHead(res);
        if (n === 1) {
          res.write('{"sch');
          setTimeout(() => res.socket?.destroy(), 5);
          return;
        }
        res.end('{"schema":[{"name":"a","column_type":"Int64"}]}\n{"data":[["1"]]}\n');
      },
      async (s) => {
        const got = await collect(dc(s).cubesql('SELECT a'));
        assert.deepEqual(got[1], { type: 'rows', rows: [['1']] });
        assert.equal(s.requests.length, 2);
      },
    );
  });

  it('cancels a stream in progress', async () => {
    await withServer(
      (_req, res) => {
        ndjsonHead(res);
        res.write('{"schema":[{"name":"a","column_type":"Int64"}]}\n');
      },
      async (s) => {
        const ctl = new AbortController();
        const e = await apiFailure(async () => {
          for await (const c of dc(s).cubesql('SELECT a', { signal: ctl.signal }))
            if (c.type === 'schema') ctl.abort();
        });
        assert.equal(e.kind, 'cancelled');
      },
    );
  });
});

describe('api/dataClient: meta', () => {
  const META = {
    cubes: [
      {
        name: 'orders',
        title: 'Orders',
        type: 'cube',
        measures: [
          { name: 'orders.count', title: 'Count', shortTitle: 'Count', type: 'number', aggType: 'count' },
        ],
        dimensions: [{ name: 'orders.status', type: 'string' }],
        segments: [],
      },
    ],
    compilerId: 'c1',
  };

  it('caches per cache key until refreshed', async () => {
    await withServer(
      (_req, res) => sendJson(res, 200, META),
      async (s) => {
        const cache = new MetaCache();
        const a = dc(s, { cacheKey: '1', metaCache: cache });
        const m = await a.meta();
        assert.equal(m.cubes[0].measures[0].name, 'orders.count');
        await a.meta();
        await dc(s, { cacheKey: '1', metaCache: cache }).meta();
        assert.equal(s.requests.length, 1, 'one request for three calls on the same key');
        await dc(s, { cacheKey: '2', metaCache: cache }).meta();
        assert.equal(s.requests.length, 2);
        await a.meta({ refresh: true });
        assert.equal(s.requests.length, 3);
        assert.equal(s.requests[0].method, 'GET');
        assert.equal(s.requests[0].url, '/cubejs-api/v1/meta');
      },
    );
  });

  it('reports a cube without measures as a protocol error naming the field', async () => {
    await withServer(
      (_req, res) => sendJson(res, 200, { cubes: [{ name: 'x', dimensions: [] }] }),
      async (s) => {
        const e = await apiFailure(() => dc(s).meta());
        assert.equal(e.kind, 'protocol');
        assert.match(e.message, /cubes\[0\]\.measures/);
      },
    );
  });
});

describe('api/dataClient: what the engine says', () => {
  // Answers of the engine (1.7) to queries that can never succeed, and what the client must say.
  const cases: {
    name: string;
    status: number;
    body: Record<string, unknown>;
    query: Record<string, unknown>;
    code: string;
    says: RegExp;
  }[] = [
    {
      name: 'a hidden primary key (500)',
      status: 500,
      body: {
        error:
          "Error: You requested hidden member: 'orders__id'. Please make it visible using `shown: true`. Please note primaryKey fields are `shown: false` by default: https://cube.dev/docs/schema/reference/joins#setting-a-primary-key.",
      },
      query: { measures: ['orders.count'], dimensions: ['orders.id'] },
      code: 'HIDDEN_MEMBER',
      says: /"orders\.id", which the data model hides.*Remove it from the query, or make it visible in the model/,
    },
    {
      name: 'a hidden member with a granularity, named by its member name',
      status: 500,
      body: {
        error: "Error: You requested hidden member: 'orders__placed_at_month'. Please make it visible",
      },
      query: {
        measures: ['orders.count'],
        timeDimensions: [{ dimension: 'orders.placed_at', granularity: 'month' }],
      },
      code: 'HIDDEN_MEMBER',
      says: /"orders\.placed_at\.month"/,
    },
    {
      name: 'an unknown member (UserError)',
      status: 400,
      body: { type: 'UserError', error: "'statuss' not found for path 'orders.statuss'" },
      query: { dimensions: ['orders.statuss'] },
      code: 'UNKNOWN_MEMBER',
      says: /"orders\.statuss" is not in the data model/,
    },
    {
      name: 'an unknown cube',
      status: 400,
      body: { type: 'UserError', error: "Cube 'order' not found for path 'order.count'" },
      query: { measures: ['order.count'] },
      code: 'UNKNOWN_CUBE',
      says: /no cube "order"/,
    },
    {
      name: 'a format error (no type)',
      status: 400,
      body: { error: 'Invalid query format: "filters[0]" does not match any of the allowed types' },
      query: { measures: ['orders.count'] },
      code: 'QUERY_FORMAT',
      says: /"filters\[0\]" does not match/,
    },
    {
      name: 'a date the engine cannot read',
      status: 400,
      body: { error: "Can't parse date: 'someday'" },
      query: { measures: ['orders.count'] },
      code: 'BAD_DATE',
      says: /"someday" cannot be read.*last 30 days/,
    },
    {
      name: 'a limit above the maximum (500)',
      status: 500,
      body: { error: 'Error: The query limit has been exceeded.' },
      query: { measures: ['orders.count'], limit: 60000 },
      code: 'LIMIT',
      says: /Lower "limit"/,
    },
    {
      name: 'cubes without a join',
      status: 400,
      body: { type: 'UserError', error: "Can't find join path to join 'customers', 'products'" },
      query: { measures: ['customers.count', 'products.count'] },
      code: 'JOIN_PATH',
      says: /not joined in the data model: 'customers', 'products'/,
    },
  ];
  for (const c of cases) {
    it(`says what to change for ${c.name}, never to try again`, async () => {
      await withServer(
        (_req, res) => sendJson(res, c.status, c.body),
        async (s) => {
          const e = await apiFailure(() => dc(s).load(c.query));
          assert.equal(e.kind, 'validation', e.message);
          assert.equal(e.code, c.code);
          assert.equal(e.status, c.status);
          assert.match(e.message, c.says);
          assert.doesNotMatch(e.message, /try again/i);
          assert.match(e.message, /The Data API said: /, "the engine's words are kept");
          assert.equal(s.requests.length, 1, 'a query that cannot succeed is not retried');
          // The engine sends no requestId: the one the client sent names the request.
          assert.equal(e.requestId, String(s.requests[0]!.headers['x-request-id']));
        },
      );
    });
  }

  it('keeps a 500 it does not recognise as a server failure with the request id it sent', async () => {
    await withServer(
      (_req, res) => sendJson(res, 500, { error: 'Error: connection refused by the warehouse' }),
      async (s) => {
        const e = await apiFailure(() => dc(s).load({ measures: ['orders.count'] }));
        assert.equal(e.kind, 'server');
        assert.equal(e.requestId, String(s.requests[0]!.headers['x-request-id']));
      },
    );
  });

  it('reads the single result object a server answers without the envelope', async () => {
    const single = {
      ...LOAD_OK.results[0],
      usedPreAggregations: {
        t1: { preAggregationId: 'orders.main', lastUpdatedAt: 1795751686895, type: 'rollup' },
      },
    };
    await withServer(
      (_req, res) => sendJson(res, 200, single),
      async (s) => {
        const out = await dc(s).load({ measures: ['orders.count'] });
        assert.equal(out.results.length, 1);
        assert.deepEqual(out.results[0]!.data, single.data);
        assert.deepEqual(rollupsUsed(out.results[0]), [
          { id: 'orders.main', table: 't1', lastUpdatedAt: 1795751686895, type: 'rollup' },
        ]);
      },
    );
  });

  it('reads rollups tolerantly: an ISO build time, an entry without id, a non-object', () => {
    assert.deepEqual(
      rollupsUsed({
        usedPreAggregations: {
          a: { preAggregationId: 'x.r', lastUpdatedAt: '2026-11-27T10:00:00.000Z' },
          b: {},
          c: 'odd',
        },
      }),
      [
        { id: 'x.r', table: 'a', lastUpdatedAt: Date.parse('2026-11-27T10:00:00.000Z') },
        { id: 'b', table: 'b' },
        { id: 'c', table: 'c' },
      ],
    );
    assert.deepEqual(rollupsUsed({}), []);
    assert.deepEqual(rollupsUsed({ usedPreAggregations: [] }), []);
  });

  it('reads a member number format from formatDescription, a custom numeric format, or the name', () => {
    assert.deepEqual(
      numberFormatOf({ format: 'currency', formatDescription: { name: 'currency', specifier: '$,.2~f' } }),
      {
        specifier: '$,.2~f',
        name: 'currency',
      },
    );
    assert.deepEqual(numberFormatOf({ format: { type: 'custom-numeric', value: '.1%' } }), {
      specifier: '.1%',
    });
    assert.deepEqual(numberFormatOf({ format: 'percent' }), { name: 'percent' });
    assert.equal(numberFormatOf({}), undefined);
  });
});
