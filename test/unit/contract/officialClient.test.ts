// A Data API client nobody here wrote: the official @cubejs-client/core, unchanged, against the
// sandbox through the validating proxy. load (its default GET, and the POST it switches to when the
// URL would pass 2,000 characters; and without queryType, the engine's single result), meta,
// cubeSql and cubeSqlStream must give real results, and every exchange must validate against the
// published Data API document.
import * as assert from 'node:assert/strict';
import cube, { HttpTransport, ResultSet } from '@cubejs-client/core';
import { startSandbox, type SandboxHandle } from '../../../src/sandbox';
import { startValidatingProxy, type RecordingServer } from '../../contract/contractServers';
import { requireReference } from '../../contract/openapiDocs';

const ROWS = 600;

describe('contract: the official Data API client (@cubejs-client/core) against the sandbox', function () {
  this.timeout(120_000);
  let sb: SandboxHandle;
  let proxy: RecordingServer;
  let client: ReturnType<typeof cube>;
  before(async function () {
    const ref = requireReference(this);
    sb = await startSandbox({ rows: ROWS });
    proxy = await startValidatingProxy(ref, `http://127.0.0.1:${sb.port}`);
    client = cube(sb.tokens.dataApi, { apiUrl: `${proxy.url}/cubejs-api/v1` });
  });
  after(async () => {
    await proxy?.close();
    await sb?.close();
  });

  const exchange = (path: string) => [...proxy.exchanges].reverse().find((e) => e.url.startsWith(path));
  const cases: string[] = [];
  let statuses: string[] = [];

  it('load: a short query goes out as GET ?query= and answers real numbers', async () => {
    const rs = await client.load({ measures: ['orders.count'], dimensions: ['orders.status'] });
    const rows = rs.tablePivot();
    assert.ok(rows.length >= 2);
    statuses = rows.map((r) => String(r['orders.status']));
    assert.equal(
      rows.reduce((s, r) => s + Number(r['orders.count']), 0),
      ROWS,
    );
    const ex = exchange('/cubejs-api/v1/load');
    assert.equal(ex?.method, 'GET');
    assert.equal(ex?.status, 200);
    assert.ok(ex?.alias, 'judged as the GET alias of POST /v1/load');
    cases.push('load GET');
  });

  it('load: a query whose URL would pass 2,000 characters goes out as POST', async () => {
    const values = Array.from({ length: 120 }, (_, i) =>
      i < statuses.length ? statuses[i]! : `no-such-status-${i}`,
    );
    const rs = await client.load({
      measures: ['orders.count'],
      filters: [{ member: 'orders.status', operator: 'equals', values }],
    });
    assert.equal(Number(rs.tablePivot()[0]!['orders.count']), ROWS);
    const ex = exchange('/cubejs-api/v1/load');
    assert.equal(ex?.method, 'POST');
    assert.equal(ex?.status, 200);
    cases.push('load POST');
  });

  it('load without queryType gets the single result object, and the official ResultSet reads it', async () => {
    // The official transport's load request without queryType (load() itself always asks for the
    // multi envelope): the engine answers the single result, which ResultSet takes as it is.
    const http = new HttpTransport({
      authorization: sb.tokens.dataApi,
      apiUrl: `${proxy.url}/cubejs-api/v1`,
    });
    const res = await http
      .request('load', { query: { measures: ['orders.count'], dimensions: ['orders.status'] } })
      .subscribe(async (r) => r as Response);
    assert.equal(res.status, 200);
    const wire = (await res.json()) as Record<string, unknown>;
    const ex = exchange('/cubejs-api/v1/load')!;
    assert.equal(ex.method, 'GET');
    assert.doesNotMatch(ex.url, /queryType/);
    assert.equal(wire.results, undefined, 'no envelope');
    assert.equal(wire.pivotQuery, undefined);
    assert.ok(Array.isArray(wire.data) && wire.query && wire.annotation, 'the single result object');
    const rs = new ResultSet(wire as unknown as ConstructorParameters<typeof ResultSet>[0]);
    assert.equal(rs.pivotQuery()?.queryType, 'regularQuery');
    assert.equal(
      rs.tablePivot().reduce((n, r) => n + Number(r['orders.count']), 0),
      ROWS,
    );
    // The rollup that served it is named in the result.
    const used = (wire.usedPreAggregations ?? {}) as Record<string, { preAggregationId?: string }>;
    assert.deepEqual(
      Object.values(used).map((u) => u.preAggregationId),
      ['orders.orders_by_status'],
    );
    cases.push('load without queryType');
  });

  it('meta: the cubes with their members', async () => {
    const meta = await client.meta();
    const names = meta.cubes.map((c) => c.name);
    assert.ok(names.includes('orders') && names.includes('customers'), names.join());
    assert.equal(meta.resolveMember('orders.count', 'measures').title !== undefined, true);
    cases.push('meta');
  });

  it('cubeSql: schema and every row', async () => {
    const result = await client.cubeSql(
      'SELECT status, MEASURE(count) AS n FROM orders GROUP BY 1 ORDER BY 1',
    );
    assert.deepEqual(
      result.schema.map((c) => c.name),
      ['status', 'n'],
    );
    assert.equal(
      result.data.reduce((s, r) => s + Number((r as unknown[])[1]), 0),
      ROWS,
    );
    cases.push('cubeSql');
  });

  it('cubeSqlStream: a schema chunk, then data chunks with every row', async () => {
    const kinds: string[] = [];
    let rows = 0;
    for await (const chunk of client.cubeSqlStream('SELECT id, status FROM orders')) {
      kinds.push(chunk.type);
      if (chunk.type === 'data') rows += chunk.data.length;
    }
    assert.equal(kinds[0], 'schema');
    assert.ok(kinds.includes('data'));
    assert.equal(rows, ROWS);
    cases.push('cubeSqlStream');
  });

  it("load on deployment 2's own host with a token minted for it answers deployment 2's data", async () => {
    const res = await fetch(`${sb.urls.platform}/v1/deployments/2/token`, {
      method: 'POST',
      headers: { authorization: `Bearer ${sb.tokens.admin}`, 'content-type': 'application/json' },
      body: '{}',
    });
    const { cubeApiToken } = (await res.json()) as { cubeApiToken: string };
    const d2 = sb.urls.deployments.find((d) => d.id === 2)!;
    const other = cube(cubeApiToken, { apiUrl: `${d2.dataApi}/v1` });
    const rs = await other.load({ measures: ['orders.count'] });
    assert.equal(Number(rs.tablePivot()[0]!['orders.count']), ROWS / 4);
    assert.equal(sb.state.dataQueries.at(-1)?.deploymentId, 2);
    cases.push('load on a deployment host');
  });

  it('every exchange validates against the published Data API document', () => {
    assert.ok(proxy.exchanges.length >= 5);
    // The official client sends `throwContinueWait` in every cubeSql body; the document does not
    // declare it. And a load without queryType gets the engine's single result object, which the
    // document (it publishes only the V1LoadResponse envelope) does not describe. Those are the
    // only deviations allowed here.
    const other = proxy.violations.filter(
      (v) =>
        !(
          v.kind === 'request' &&
          v.errors.every((e) => /throwContinueWait: not declared|body\W.*throwContinueWait/.test(e))
        ) &&
        !(
          v.kind === 'response' &&
          /\/v1\/load$/.test(v.operation ?? '') &&
          !/queryType=multi/.test(v.url) &&
          v.errors.every((e) => /required property 'results'/.test(e))
        ),
    );
    assert.deepEqual(other, []);
    const ops = new Set(proxy.exchanges.map((e) => `${e.method} ${e.operation}`));
    console.log(
      `      official client: ${ops.size} operations × ${cases.length} cases (${cases.join(', ')}), ` +
        `${proxy.exchanges.length} exchanges validated; undeclared body fields sent by the official client: ` +
        `${[...new Set(proxy.violations.flatMap((v) => v.errors.map((e) => /\((\w+): not declared\)/.exec(e)?.[1] ?? e)))].join(', ') || 'none'}`,
    );
  });
});
