// The Data API client's exact requests and the exact sentences a user sees: the bodies of
// /v1/load and /v1/cubesql (and what is refused before sending), the errors carried in bodies and
// streams, the deadline, the early-reset budget, the metadata cache and the token's claims.
import * as assert from 'node:assert/strict';
import { getEventListeners } from 'node:events';
import { DataClient, MetaCache, dataBodyError, loadBody } from '../../../src/api/dataClient';
import { ApiError } from '../../../src/api/errors';
import { DispatcherRegistry } from '../../../src/api/net/agents';
import type { LoadQuery } from '../../../src/api/schemas/data';
import {
  DATA_JWT,
  apiFailure,
  collect,
  dataClientFor as dc,
  ndjsonHead,
  sendJson,
  startServer,
  withServer,
  type TestServer,
} from './helpers';

const SCHEMA_LINE = '{"schema":[{"name":"a","column_type":"Int64"}]}\n';
const META = {
  cubes: [{ name: 'orders', measures: [{ name: 'orders.count', type: 'number' }], dimensions: [] }],
};

/** A synchronous failure of `fn`, as the ApiError it must be. */
function thrown(fn: () => unknown): ApiError {
  try {
    fn();
  } catch (e) {
    assert.ok(e instanceof ApiError, `expected an ApiError, got ${String(e)}`);
    return e;
  }
  assert.fail('expected a failure');
}

describe('api/dataClient: exact requests and sentences', () => {
  describe('dataBodyError', () => {
    it('a UserError is "not valid", without the request id in the sentence', () => {
      const e = dataBodyError({ error: 'bad member', type: 'UserError', requestId: 'r-1' });
      assert.equal(e.kind, 'validation');
      assert.equal(e.message, 'The query is not valid: bad member');
      assert.equal(e.serverMessage, 'bad member');
      assert.equal(e.requestId, 'r-1');
      assert.equal(e.code, 'UserError');
    });

    it('any other error "failed", naming the body\'s request id before the fallback', () => {
      const e = dataBodyError({ error: 'warehouse down', requestId: 'r-2' }, 'sent-1');
      assert.equal(e.kind, 'server');
      assert.equal(e.message, 'The query failed: warehouse down (request id r-2)');
      assert.equal(e.requestId, 'r-2');
      assert.equal(e.code, undefined);
      const f = dataBodyError({ error: 'warehouse down', type: 'InternalError' }, 'sent-1');
      assert.equal(f.message, 'The query failed: warehouse down (request id sent-1)');
      assert.equal(f.requestId, 'sent-1');
      assert.equal(f.code, 'InternalError');
    });

    it('hostile bodies: a non-string error, request id and type', () => {
      const e = dataBodyError({ error: { nested: true }, requestId: 7, type: 3 });
      assert.equal(e.message, 'The query failed: Unknown error');
      assert.equal(e.serverMessage, 'Unknown error');
      assert.equal(e.requestId, undefined);
      assert.equal(e.code, undefined);
    });
  });

  describe('loadBody', () => {
    it('sends an order map as the published pairs, in the map order, inside queryType multi', () => {
      assert.deepEqual(loadBody({ measures: ['o.c'], order: { 'o.c': 'desc', 'o.s': 'asc' } }), {
        queryType: 'multi',
        query: {
          measures: ['o.c'],
          order: [
            ['o.c', 'desc'],
            ['o.s', 'asc'],
          ],
        },
      });
      const pairs: LoadQuery = {
        order: [
          ['o.s', 'asc'],
          ['o.c', 'desc'],
        ],
      };
      assert.deepEqual(loadBody(pairs), { queryType: 'multi', query: pairs });
    });

    it('refuses an undeclared field by name (one or several), and a wrong type by its path', () => {
      const one = thrown(() => loadBody({ measures: ['o.c'], renewQuery: true } as LoadQuery));
      assert.equal(one.kind, 'validation');
      assert.equal(one.code, 'INPUT');
      assert.equal(
        one.message,
        'The query was not sent: query: renewQuery is not a field the Data API publishes.',
      );
      const two = thrown(() => loadBody({ a: 1, b: 2 } as unknown as LoadQuery));
      assert.equal(two.message, 'The query was not sent: query: a, b are not fields the Data API publishes.');
      const typed = thrown(() => loadBody({ limit: 'ten' } as unknown as LoadQuery));
      assert.match(typed.message, /^The query was not sent: query\.limit: .+\.$/);
      assert.doesNotMatch(typed.message, /: invalid\.$/);
      assert.doesNotMatch(typed.message, /publishes/);
    });

    it('a refused query sends nothing', async () => {
      await withServer(
        (_req, res) => sendJson(res, 200, {}),
        async (s) => {
          const e = await apiFailure(() => dc(s).load({ measures: ['o.c'], extra: 1 } as LoadQuery));
          assert.equal(e.code, 'INPUT');
          assert.equal(s.requests.length, 0);
        },
      );
    });
  });

  describe('load', () => {
    it('POSTs the query as an idempotent JSON request to /v1/load', async () => {
      await withServer(
        (_req, res) =>
          sendJson(res, 200, {
            results: [
              { data: [], annotation: { measures: {}, dimensions: {}, segments: {}, timeDimensions: {} } },
            ],
          }),
        async (s) => {
          const out = await dc(s).load({ measures: ['o.c'] });
          assert.equal(out.results.length, 1);
          const r = s.requests[0]!;
          assert.equal(r.method, 'POST');
          assert.equal(r.url, '/cubejs-api/v1/load');
          assert.match(String(r.headers['content-type']), /^application\/json/);
          assert.equal(r.headers.authorization, DATA_JWT);
        },
      );
    });

    it('an envelope-less answer is read only with data and annotation; otherwise a protocol error', async () => {
      await withServer(
        (req, res) =>
          sendJson(res, 200, req.url!.includes('no-annotation') ? { data: [] } : { annotation: {} }),
        async (s) => {
          const a = await apiFailure(() => dc(s, { baseUrl: `${s.url}/no-annotation` }).load({}));
          assert.equal(a.kind, 'protocol');
          assert.match(
            a.message,
            /^Unexpected response from POST \/v1\/load: missing required field "results"/,
          );
          const b = await apiFailure(() => dc(s).load({}));
          assert.equal(b.kind, 'protocol');
          assert.match(b.message, /missing required field "results"/);
        },
      );
    });

    it('an envelope-less answer is a regularQuery of one result; an envelope is read as it is', async () => {
      const result = {
        data: [{ a: 1 }],
        annotation: { measures: {}, dimensions: {}, segments: {}, timeDimensions: {} },
      };
      await withServer(
        (req, res) =>
          sendJson(
            res,
            200,
            req.url!.includes('both')
              ? { queryType: 'multi', results: [result], data: [], annotation: {} }
              : result,
          ),
        async (s) => {
          const single = await dc(s).load({});
          assert.equal(single.queryType, 'regularQuery');
          assert.deepEqual(single.results[0]!.data, [{ a: 1 }]);
          const both = await dc(s, { baseUrl: `${s.url}/both` }).load({});
          assert.equal(both.queryType, 'multi');
          assert.deepEqual(both.results[0]!.data, [{ a: 1 }]);
        },
      );
    });

    it('an answer that is null, a string or an array is a protocol error', async () => {
      const answers: Record<string, string> = {
        '/null': 'null',
        '/text': '"ok"',
        '/list': '[{"error":"x"}]',
      };
      await withServer(
        (req, res) => {
          res.writeHead(200, { 'content-type': 'application/json' });
          res.end(answers[req.url!.replace('/v1/load', '')]);
        },
        async (s) => {
          for (const p of Object.keys(answers)) {
            const e = await apiFailure(() => dc(s, { baseUrl: `${s.url}${p}` }).load({}));
            assert.equal(e.kind, 'protocol', p);
          }
          assert.equal(s.requests.length, 3);
        },
      );
    });

    it('a hidden member in a 200 error body is named from the query sent', async () => {
      await withServer(
        (_req, res) =>
          sendJson(res, 200, { error: "You requested hidden member: 'orders__placed_at_month'." }),
        async (s) => {
          const e = await apiFailure(() =>
            dc(s).load({
              measures: ['orders.count'],
              timeDimensions: [{ dimension: 'orders.placed_at', granularity: 'month' }],
            }),
          );
          assert.equal(e.code, 'HIDDEN_MEMBER');
          assert.match(e.message, /"orders\.placed_at\.month"/);
        },
      );
    });

    it('says which request failed: "The query", "The SQL query", "Loading the data model"', async () => {
      await withServer(
        (_req, res) => {
          res.writeHead(200, { 'content-type': 'application/json' });
          res.end();
        },
        async (s) => {
          assert.match((await apiFailure(() => dc(s).load({}))).message, /^The query: /);
          assert.match(
            (await apiFailure(() => collect(dc(s).cubesql('SELECT 1')))).message,
            /^The SQL query: /,
          );
          assert.match((await apiFailure(() => dc(s).meta())).message, /^Loading the data model: /);
        },
      );
    });

    it("reports elapsed time since the first request, and leaves no listener on the caller's signal", async () => {
      await withServer(
        (_req, res, _b, n) =>
          n === 1
            ? sendJson(res, 200, { error: 'Continue wait' })
            : sendJson(res, 200, {
                results: [
                  {
                    data: [],
                    annotation: { measures: {}, dimensions: {}, segments: {}, timeDimensions: {} },
                  },
                ],
              }),
        async (s) => {
          const ctl = new AbortController();
          const elapsed: number[] = [];
          await dc(s).load(
            {},
            { signal: ctl.signal, timeoutMs: 600_000, onProgress: (p) => elapsed.push(p.elapsedMs) },
          );
          assert.equal(elapsed.length, 1);
          assert.ok(elapsed[0]! >= 0 && elapsed[0]! < 600_000, String(elapsed[0]));
          assert.equal(getEventListeners(ctl.signal, 'abort').length, 0, 'load');
          const sql = new AbortController();
          await withServer(
            (_r, res2) => {
              ndjsonHead(res2);
              res2.end(SCHEMA_LINE);
            },
            async (s2) => {
              await collect(dc(s2).cubesql('SELECT 1', { signal: sql.signal, timeoutMs: 600_000 }));
            },
          );
          assert.equal(getEventListeners(sql.signal, 'abort').length, 0, 'cubesql');
        },
      );
    });

    it('a signal aborted before the call sends nothing', async () => {
      await withServer(
        (_req, res) => sendJson(res, 200, {}),
        async (s) => {
          const ctl = new AbortController();
          ctl.abort();
          assert.equal((await apiFailure(() => dc(s).load({}, { signal: ctl.signal }))).kind, 'cancelled');
          assert.equal(
            (await apiFailure(() => collect(dc(s).cubesql('SELECT 1', { signal: ctl.signal })))).kind,
            'cancelled',
          );
          assert.equal(s.requests.length, 0);
        },
      );
    });

    it('an error body other than Continue wait ends the query at once, with the sent request id', async () => {
      await withServer(
        (_req, res) => sendJson(res, 200, { error: 'Continue waiting' }),
        async (s) => {
          const progress: number[] = [];
          const e = await apiFailure(() => dc(s).load({}, { onProgress: (p) => progress.push(p.attempt) }));
          assert.equal(e.kind, 'server');
          assert.equal(s.requests.length, 1);
          assert.deepEqual(progress, []);
          assert.equal(e.requestId, String(s.requests[0]!.headers['x-request-id']));
          assert.equal(e.message, `The query failed: Continue waiting (request id ${e.requestId})`);
        },
      );
    });

    it('waits continueWaitDelayMs between Continue-wait rounds, cut short by the deadline', async () => {
      await withServer(
        (_req, res) => sendJson(res, 200, { error: 'Continue wait' }),
        async (s) => {
          const e = await apiFailure(() =>
            dc(s, { continueWaitDelayMs: 60_000 }).load({ measures: ['o.c'] }, { timeoutMs: 1500 }),
          );
          assert.equal(e.kind, 'timeout');
          assert.equal(e.code, 'DEADLINE');
          assert.equal(
            e.message,
            'The query did not finish within 2 s. Narrow the query or raise the time limit.',
          );
          assert.equal(s.requests.length, 1, 'the pause between rounds was waited, not skipped');
        },
      );
    });

    it('a caller cancellation is "cancelled", never the deadline sentence', async () => {
      await withServer(
        (_req, res) => sendJson(res, 200, { error: 'Continue wait' }),
        async (s) => {
          const ctl = new AbortController();
          const e = await apiFailure(() =>
            dc(s).load({}, { signal: ctl.signal, timeoutMs: 600_000, onProgress: () => ctl.abort() }),
          );
          assert.equal(e.kind, 'cancelled');
          assert.equal(s.requests.length, 1);
        },
      );
    });
  });

  describe('cubesql', () => {
    const rows = (res: Parameters<Parameters<typeof withServer>[0]>[1], text: string) => {
      ndjsonHead(res);
      res.end(text);
    };

    it('POSTs only the query, the timezone and the cache mode given', async () => {
      await withServer(
        (_req, res) => rows(res, SCHEMA_LINE),
        async (s) => {
          await collect(dc(s).cubesql('SELECT 1'));
          await collect(dc(s).cubesql('SELECT 2', { cache: 'must-revalidate' }));
          assert.deepEqual(
            s.requests.map((r) => [r.method, r.url, JSON.parse(r.body)]),
            [
              ['POST', '/cubejs-api/v1/cubesql', { query: 'SELECT 1' }],
              ['POST', '/cubejs-api/v1/cubesql', { query: 'SELECT 2', cache: 'must-revalidate' }],
            ],
          );
        },
      );
    });

    it('refuses an empty query, an unpublished cache mode and an empty timezone before sending', async () => {
      await withServer(
        (_req, res) => rows(res, SCHEMA_LINE),
        async (s) => {
          const empty = await apiFailure(() => collect(dc(s).cubesql('')));
          assert.equal(empty.code, 'INPUT');
          assert.match(empty.message, /^The SQL query was not sent: query: .+\.$/);
          const cache = await apiFailure(() =>
            collect(dc(s).cubesql('SELECT 1', { cache: 'sometimes' as 'no-cache' })),
          );
          assert.match(cache.message, /^The SQL query was not sent: cache: /);
          assert.equal(s.requests.length, 0);
          // An empty timezone is left out (the server's default), not refused.
          await collect(dc(s).cubesql('SELECT 1', { timezone: '' }));
          assert.deepEqual(JSON.parse(s.requests[0]!.body), { query: 'SELECT 1' });
        },
      );
    });

    it('an answer of blank lines only is an empty response, not re-sent', async () => {
      await withServer(
        (_req, res) => rows(res, '\n\r\n'),
        async (s) => {
          const e = await apiFailure(() => collect(dc(s).cubesql('SELECT 1')));
          assert.equal(e.kind, 'protocol');
          assert.equal(e.message, 'The SQL query returned an empty response. Try again.');
          assert.equal(e.requestId, String(s.requests[0]!.headers['x-request-id']));
          assert.equal(s.requests.length, 1, 'an empty answer is not a reset: not re-sent');
        },
      );
    });

    it('skips lines of unknown shape but an answer of only those is not empty', async () => {
      await withServer(
        (req, res) =>
          rows(
            res,
            req.url!.includes('only')
              ? '{"progress":1}\n'
              : `{"progress":1}\n${SCHEMA_LINE}{"data":[["1"]]}\n`,
          ),
        async (s) => {
          assert.deepEqual(await collect(dc(s, { baseUrl: `${s.url}/only` }).cubesql('SELECT 1')), []);
          const got = await collect(dc(s).cubesql('SELECT 1'));
          assert.deepEqual(
            got.map((c) => c.type),
            ['schema', 'rows'],
          );
        },
      );
    });

    it('names the line that is not an object, or whose data is not an array, or whose schema is bad', async () => {
      const answers: Record<string, string> = {
        '/array': `${SCHEMA_LINE}[1,2]\n`,
        '/data': `${SCHEMA_LINE}{"data":{"a":1}}\n`,
        '/schema': '{"schema":"a"}\n',
      };
      await withServer(
        (req, res) => rows(res, answers[req.url!.replace('/v1/cubesql', '')]!),
        async (s) => {
          const client = (p: string) => dc(s, { baseUrl: `${s.url}${p}` });
          const a = await apiFailure(() => collect(client('/array').cubesql('SELECT 1')));
          assert.equal(a.kind, 'protocol');
          assert.equal(a.message, 'Line 2 of the SQL result is not a JSON object.');
          assert.equal(a.line, 2);
          const d = await apiFailure(() => collect(client('/data').cubesql('SELECT 1')));
          assert.equal(d.message, 'Line 2 of the SQL result has a "data" field that is not an array.');
          assert.equal(d.kind, 'protocol');
          assert.equal(d.line, 2);
          const sc = await apiFailure(() => collect(client('/schema').cubesql('SELECT 1')));
          assert.equal(sc.kind, 'protocol');
          assert.match(sc.message, /line 1 of POST \/v1\/cubesql/);
          assert.equal(s.requests.length, 3, 'a malformed answer is not re-sent');
        },
      );
    });

    it('a Continue-wait line after rows is an error, not a re-send', async () => {
      await withServer(
        (_req, res) => rows(res, `${SCHEMA_LINE}{"error":"Continue wait"}\n`),
        async (s) => {
          const seen: string[] = [];
          const e = await apiFailure(async () => {
            for await (const c of dc(s).cubesql('SELECT 1')) seen.push(c.type);
          });
          assert.deepEqual(seen, ['schema']);
          assert.equal(e.kind, 'server');
          assert.match(e.message, /^The query failed: Continue wait \(request id .+\)$/);
          assert.equal(s.requests.length, 1);
        },
      );
    });

    it('an error line carrying rows is read as rows; an error field that is not a string is skipped', async () => {
      await withServer(
        (_req, res) => rows(res, `${SCHEMA_LINE}{"data":[["1"]],"error":"x"}\n{"error":5}\n`),
        async (s) => {
          const got = await collect(dc(s).cubesql('SELECT 1'));
          assert.deepEqual(got[1], { type: 'rows', rows: [['1']] });
          assert.equal(got.length, 2);
        },
      );
    });

    it('a failure before streaming names the request id it was sent with', async () => {
      await withServer(
        (_req, res) => sendJson(res, 500, { error: 'warehouse down' }),
        async (s) => {
          const e = await apiFailure(() =>
            collect(dc(s, { retry: { retries: 0, baseDelayMs: 1, maxDelayMs: 2 } }).cubesql('SELECT 1')),
          );
          assert.equal(e.kind, 'server');
          assert.equal(e.requestId, String(s.requests[0]!.headers['x-request-id']));
        },
      );
    });

    it('lines that are null or text are protocol errors; a schema line carrying an error is read as a schema', async () => {
      const answers: Record<string, string> = {
        '/null': `${SCHEMA_LINE}null\n`,
        '/text': `${SCHEMA_LINE}"rows"\n`,
        '/schema-error': '{"schema":[{"name":"a","column_type":"Int64"}],"error":"x"}\n',
      };
      await withServer(
        (req, res) => rows(res, answers[req.url!.replace('/v1/cubesql', '')]!),
        async (s) => {
          const client = (p: string) => dc(s, { baseUrl: `${s.url}${p}` });
          for (const p of ['/null', '/text']) {
            const e = await apiFailure(() => collect(client(p).cubesql('SELECT 1')));
            assert.equal(e.message, 'Line 2 of the SQL result is not a JSON object.', p);
          }
          const got = await collect(client('/schema-error').cubesql('SELECT 1'));
          assert.deepEqual(
            got.map((c) => c.type),
            ['schema'],
          );
        },
      );
    });

    it('a Continue-wait line after a schema and rows (parsed or counted) is an error, not a re-send', async () => {
      await withServer(
        (_req, res) => rows(res, `${SCHEMA_LINE}{"data":[["1"]]}\n{"error":"Continue wait"}\n`),
        async (s) => {
          const parsed = await apiFailure(() => collect(dc(s).cubesql('SELECT 1')));
          assert.equal(parsed.kind, 'server');
          const counted = await apiFailure(() => collect(dc(s).cubesql('SELECT 1', { parseRows: 0 })));
          assert.equal(counted.kind, 'server');
          assert.equal(s.requests.length, 2);
        },
      );
    });

    it('counted rows and unknown lines make a complete answer; counting starts once parseRows rows were read', async () => {
      await withServer(
        (_req, res) => rows(res, `${SCHEMA_LINE}{"data":[["1"]]}\n{"data":[["2"],["3"]]}\n{"progress":1}\n`),
        async (s) => {
          assert.deepEqual(await collect(dc(s).cubesql('SELECT 1', { parseRows: 0 })), [
            { type: 'schema', schema: [{ name: 'a', column_type: 'Int64' }], lastRefreshTime: undefined },
            { type: 'count', rows: 1 },
            { type: 'count', rows: 2 },
          ]);
          assert.deepEqual(await collect(dc(s).cubesql('SELECT 1', { parseRows: 1 })), [
            { type: 'schema', schema: [{ name: 'a', column_type: 'Int64' }], lastRefreshTime: undefined },
            { type: 'rows', rows: [['1']] },
            { type: 'count', rows: 2 },
          ]);
        },
      );
    });

    it('an error as the first line is thrown at once, not taken for Continue wait', async () => {
      await withServer(
        (_req, res) => rows(res, '{"error":"Continue later"}\n'),
        async (s) => {
          const e = await apiFailure(() => collect(dc(s).cubesql('SELECT 1')));
          assert.equal(e.kind, 'server');
          assert.match(e.message, /^The query failed: Continue later/);
          assert.equal(s.requests.length, 1);
        },
      );
    });

    it('reports the elapsed time of each Continue-wait round since the first request', async () => {
      await withServer(
        (_req, res, _b, n) => rows(res, n === 1 ? '{"error":"Continue wait"}\n' : SCHEMA_LINE),
        async (s) => {
          const elapsed: number[] = [];
          await collect(dc(s).cubesql('SELECT 1', { onProgress: (p) => elapsed.push(p.elapsedMs) }));
          assert.equal(elapsed.length, 1);
          assert.ok(elapsed[0]! >= 0 && elapsed[0]! < 600_000, String(elapsed[0]));
        },
      );
    });

    it('re-sends on Continue wait without a progress callback', async () => {
      await withServer(
        (_req, res, _b, n) => rows(res, n === 1 ? '{"error":"Continue wait"}\n' : SCHEMA_LINE),
        async (s) => {
          const got = await collect(dc(s).cubesql('SELECT 1'));
          assert.equal(got.length, 1);
          assert.equal(s.requests.length, 2);
        },
      );
    });

    it('re-sends a cut before the first line at most retry.retries times, then says network', async () => {
      const cut = (s: TestServer, retries: number) =>
        dc(s, { retry: { retries, baseDelayMs: 1, maxDelayMs: 2 } }).cubesql('SELECT 1');
      await withServer(
        (_req, res) => {
          ndjsonHead(res);
          res.write('{"sch');
          setTimeout(() => res.socket?.destroy(), 5);
        },
        async (s) => {
          const e = await apiFailure(() => collect(cut(s, 1)));
          assert.equal(e.kind, 'network');
          assert.equal(s.requests.length, 2, 'one re-send for retries: 1');
          const ids = s.requests.map((r) => String(r.headers['x-request-id']));
          assert.equal(ids[1], ids[0]!.replace(/-span-1$/, '-span-2'));
        },
      );
      await withServer(
        (_req, res) => {
          ndjsonHead(res);
          res.write('{"sch');
          setTimeout(() => res.socket?.destroy(), 5);
        },
        async (s) => {
          const plain = new DataClient({
            baseUrl: `${s.url}/cubejs-api`,
            token: async () => DATA_JWT,
            dispatchers: new DispatcherRegistry({}),
          });
          const e = await apiFailure(() => collect(plain.cubesql('SELECT 1')));
          assert.equal(e.kind, 'network');
          assert.equal(s.requests.length, 3, 'without retry options: two re-sends');
        },
      );
    });

    it('a cut after a line was yielded is not re-sent', async () => {
      await withServer(
        (_req, res) => {
          ndjsonHead(res);
          res.write(SCHEMA_LINE + '{"da');
          setTimeout(() => res.socket?.destroy(), 5);
        },
        async (s) => {
          const e = await apiFailure(() => collect(dc(s).cubesql('SELECT 1')));
          assert.equal(e.kind, 'network');
          assert.equal(s.requests.length, 1);
        },
      );
    });

    it('the deadline names the SQL query and its limit in seconds', async () => {
      await withServer(
        (_req, res) => {
          ndjsonHead(res);
          res.write(SCHEMA_LINE);
        },
        async (s) => {
          const e = await apiFailure(() => collect(dc(s).cubesql('SELECT 1', { timeoutMs: 300 })));
          assert.equal(e.kind, 'timeout');
          assert.equal(
            e.message,
            'The SQL query did not finish within 0 s. Narrow the query or raise the time limit.',
          );
        },
      );
    });

    it('waits continueWaitDelayMs between Continue-wait lines, and reports each round', async () => {
      await withServer(
        (_req, res) => rows(res, '{"error":"Continue wait"}\n'),
        async (s) => {
          const progress: number[] = [];
          const e = await apiFailure(() =>
            collect(
              dc(s, { continueWaitDelayMs: 60_000 }).cubesql('SELECT 1', {
                timeoutMs: 1000,
                onProgress: (p) => progress.push(p.attempt),
              }),
            ),
          );
          assert.equal(e.kind, 'timeout');
          assert.deepEqual(progress, [1]);
          assert.equal(s.requests.length, 1);
        },
      );
    });

    it('hands each body to a custom line reader with the line cap, and yields its counts', async () => {
      await withServer(
        (_req, res) => rows(res, SCHEMA_LINE),
        async (s) => {
          const caps: (number | undefined)[] = [];
          const got = await collect(
            dc(s, { maxLineBytes: 4096 }).cubesql('SELECT 1', {
              lines: async function* (body, o) {
                caps.push(o.maxLineBytes);
                for await (const chunk of body) void chunk;
                yield { value: { schema: [{ name: 'a', column_type: 'Int64' }] }, line: 1 };
                yield { counted: 5, line: 2 };
              },
            }),
          );
          assert.deepEqual(caps, [4096]);
          assert.deepEqual(got, [
            { type: 'schema', schema: [{ name: 'a', column_type: 'Int64' }], lastRefreshTime: undefined },
            { type: 'count', rows: 5 },
          ]);
        },
      );
    });

    it('enforces maxLineBytes on the streamed answer', async () => {
      await withServer(
        (_req, res) => rows(res, `${SCHEMA_LINE}{"data":[["${'x'.repeat(200)}"]]}\n`),
        async (s) => {
          const e = await apiFailure(() => collect(dc(s, { maxLineBytes: 100 }).cubesql('SELECT 1')));
          assert.equal(e.code, 'NDJSON_LINE_TOO_LONG');
          assert.equal(e.line, 2);
          // Past parseRows a data line is only counted, but any other line is still held: capped too.
          const long = `{"note":"${'x'.repeat(200)}"}\n`;
          const server = await startServer((_req, res) => rows(res, `${SCHEMA_LINE}${long}`));
          try {
            const p = await apiFailure(() =>
              collect(dc(server, { maxLineBytes: 100 }).cubesql('SELECT 1', { parseRows: 0 })),
            );
            assert.equal(p.code, 'NDJSON_LINE_TOO_LONG');
          } finally {
            await server.close();
          }
        },
      );
    });
  });

  describe('meta', () => {
    it('asks ?extended for the extended model and caches it apart from the plain one', async () => {
      await withServer(
        (_req, res) => sendJson(res, 200, META),
        async (s) => {
          const c = dc(s, { cacheKey: 'dep-1' });
          await c.meta({ extended: true });
          await c.meta();
          await c.meta({ extended: true });
          await c.meta();
          assert.deepEqual(
            s.requests.map((r) => `${r.method} ${r.url}`),
            ['GET /cubejs-api/v1/meta?extended=', 'GET /cubejs-api/v1/meta'],
          );
        },
      );
    });

    it('invalidateMeta forgets both entries of its key only', async () => {
      await withServer(
        (_req, res) => sendJson(res, 200, META),
        async (s) => {
          const cache = new MetaCache();
          const a = dc(s, { cacheKey: 'a', metaCache: cache });
          const b = dc(s, { cacheKey: 'b', metaCache: cache });
          await a.meta();
          await a.meta({ extended: true });
          await b.meta();
          assert.equal(s.requests.length, 3);
          a.invalidateMeta();
          await b.meta();
          assert.equal(s.requests.length, 3, "b's entry is kept");
          await a.meta();
          await a.meta({ extended: true });
          assert.equal(s.requests.length, 5, "both of a's entries were forgotten");
        },
      );
    });

    it('without a cache key, caches under the base URL', async () => {
      await withServer(
        (_req, res) => sendJson(res, 200, META),
        async (s) => {
          const cache = new MetaCache();
          await dc(s, { metaCache: cache }).meta();
          assert.ok(cache.get(`${s.url}/cubejs-api`));
          assert.equal(cache.get(`${s.url}/cubejs-api|extended`), undefined);
          await dc(s, { metaCache: cache }).meta();
          assert.equal(s.requests.length, 1);
          dc(s, { metaCache: cache }).invalidateMeta();
          assert.equal(cache.get(`${s.url}/cubejs-api`), undefined);
          cache.set('x', META as never);
          cache.clear();
          assert.equal(cache.get('x'), undefined);
        },
      );
    });
  });

  describe('tokenClaims and baseUrl', () => {
    const client = (token: string | undefined) =>
      new DataClient({ baseUrl: 'http://127.0.0.1:9/cubejs-api', token: async () => token });

    it('reads the payload of a JWT, and nothing from anything else', async () => {
      const payload = Buffer.from(JSON.stringify({ deploymentId: 42, sub: 'u' })).toString('base64url');
      assert.deepEqual(await client(`h.${payload}.s`).tokenClaims(), { deploymentId: 42, sub: 'u' });
      assert.deepEqual(await client(undefined).tokenClaims(), {});
      assert.deepEqual(await client('opaque-token').tokenClaims(), {});
      assert.deepEqual(await client('h.!!!.s').tokenClaims(), {});
      const arr = Buffer.from('[1,2]').toString('base64url');
      assert.deepEqual(await client(`h.${arr}.s`).tokenClaims(), {});
      const nul = Buffer.from('null').toString('base64url');
      assert.deepEqual(await client(`h.${nul}.s`).tokenClaims(), {});
      assert.equal(client('t').baseUrl, 'http://127.0.0.1:9/cubejs-api');
    });
  });
});
