// The engine's behaviour (engineCases.ts) held against the sandbox over HTTP, and against our
// DataClient reading the sandbox: the same list for both, so neither drifts from the engine.
import * as assert from 'node:assert/strict';
import { DataClient } from '../../../src/api/dataClient';
import { isApiError } from '../../../src/api/errors';
import { rollupsUsed, type LoadQuery } from '../../../src/api/schemas/data';
import { startSandbox, type SandboxHandle } from '../../../src/sandbox';
import { ENGINE_CASES, ENGINE_CLOCK, type EngineCase } from './engineCases';

/** The value at a path ("results/0/data/0/orders.count"). */
function at(value: unknown, path: string): unknown {
  let v = value;
  for (const key of path.split('/')) {
    if (v === null || typeof v !== 'object') return undefined;
    v = (v as Record<string, unknown>)[key];
  }
  return v;
}

/** `actual` contains `expected`: objects by key, arrays element by element, the rest equal. */
function assertSubset(actual: unknown, expected: unknown, where = '(answer)'): void {
  if (expected !== null && typeof expected === 'object') {
    assert.ok(
      actual !== null && typeof actual === 'object',
      `${where}: expected an object or array, got ${JSON.stringify(actual)}`,
    );
    if (Array.isArray(expected)) {
      assert.ok(Array.isArray(actual), `${where}: expected an array`);
      assert.ok(
        actual.length >= expected.length,
        `${where}: expected at least ${expected.length} items, got ${actual.length}`,
      );
    }
    for (const [k, v] of Object.entries(expected))
      assertSubset((actual as Record<string, unknown>)[k], v, `${where}/${k}`);
    return;
  }
  assert.deepEqual(actual, expected, where);
}

describe('contract: the Data API engine behaviour (engineCases.ts) against the sandbox and DataClient', function () {
  this.timeout(120_000);
  let sb: SandboxHandle;
  let client: DataClient;
  before(async () => {
    // A slow query runs longer than one held round, so its first answer is "Continue wait".
    sb = await startSandbox({
      rows: 1200,
      continueWaitMs: 600,
      continueWaitTimeoutMs: 150,
      clock: ENGINE_CLOCK,
    });
    client = new DataClient({ baseUrl: sb.urls.dataApi, token: async () => sb.tokens.dataApi });
  });
  after(async () => {
    await client?.close();
    await sb?.close();
  });

  async function send(c: EngineCase): Promise<{ status: number; text: string; json: unknown }> {
    const r = c.request;
    const qs = new URLSearchParams();
    for (const [k, v] of Object.entries(r.query ?? {}))
      qs.set(k, typeof v === 'string' ? v : JSON.stringify(v));
    const headers: Record<string, string> = { 'content-type': 'application/json' };
    if ((r.auth ?? 'token') === 'token') headers.authorization = sb.tokens.dataApi;
    else if (r.auth === 'bad') headers.authorization = 'not-a-token';
    const url = `${sb.urls.dataApi}${r.path}${qs.size ? `?${qs}` : ''}`;
    const res = await fetch(url, {
      method: r.method,
      headers,
      ...(r.body !== undefined ? { body: JSON.stringify(r.body) } : {}),
    });
    const text = await res.text();
    return { status: res.status, text, json: JSON.parse(text) as unknown };
  }

  for (const c of ENGINE_CASES) {
    it(`point ${c.point}: ${c.name}`, async () => {
      const { status, text, json } = await send(c);
      assert.equal(status, c.status, text.slice(0, 500));
      if (c.subset !== undefined) assertSubset(json, c.subset);
      for (const p of c.absent ?? [])
        assert.equal(at(json, p), undefined, `${p} must be absent: ${text.slice(0, 300)}`);
      for (const [p, re] of Object.entries(c.matches ?? {})) {
        const v = at(json, p);
        assert.ok(typeof v === 'string' && re.test(v), `${p}: ${JSON.stringify(v)} does not match ${re}`);
      }
      for (const t of c.excludesText ?? []) assert.ok(!text.includes(t), `the answer must not contain ${t}`);
      if (c.rollup !== undefined) {
        const first = (at(json, 'results/0') ?? json) as Record<string, unknown>;
        const used = rollupsUsed(first);
        assert.deepEqual(
          used.map((u) => u.id),
          c.rollup === null ? [] : [c.rollup],
        );
        if (c.rollup !== null) {
          // lastRefreshTime is the rollup's build time.
          assert.equal(first.lastRefreshTime, new Date(used[0]!.lastUpdatedAt!).toISOString());
        }
      }
      const expect = c.client;
      if (!expect) return;
      const query = (expect.load ?? (c.request.body as { query?: unknown } | undefined)?.query) as LoadQuery;
      if (expect.kind === undefined) {
        const res = await client.load(query);
        if (expect.rollups)
          assert.deepEqual(
            rollupsUsed(res.results[0]).map((r) => r.id),
            expect.rollups,
          );
        return;
      }
      await assert.rejects(client.load(query), (e: unknown) => {
        assert.ok(isApiError(e), String(e));
        assert.equal(e.kind, expect.kind, e.message);
        if (expect.code) assert.equal(e.code, expect.code, e.message);
        if (expect.message) assert.match(e.message, expect.message);
        if (expect.notMessage) assert.doesNotMatch(e.message, expect.notMessage);
        return true;
      });
    });
  }

  it('covers every numbered point of the engine behaviour', () => {
    assert.deepEqual(
      [...new Set(ENGINE_CASES.map((c) => c.point))].sort((a, b) => a - b),
      [1, 2, 3, 4, 5, 6, 7, 8, 9, 10],
    );
  });
});
