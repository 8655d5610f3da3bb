// More of the sandbox's answers pinned exactly, from the survivors of the seed-2 mutation sample
// (docs/mutation-triage.md, "sandbox"): the fault rules' control endpoint (replace, add, what is
// left of `times`, the refusal of a bad rule), a created user's fields, the notification routes'
// refusals, the embed session exchange of an unknown session, a workbook's embed access keeping
// `allowEmbed` unless it is named, measure filters, a filter without its value, bounds of a date
// range with an offset, a pre-aggregation naming a measure among its dimensions, a measure value
// the agent cannot read as a number, and a state file whose folder is a file.
/* eslint-disable @typescript-eslint/no-explicit-any -- JSON answers walked by path in assertions */
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { startSandbox, type SandboxHandle } from '../../../src/sandbox';
import { formatValue } from '../../../src/sandbox/ai/answer';
import { resolveDateRange } from '../../../src/sandbox/data/dates';
import { StateFile } from '../../../src/sandbox/stateFile';

type Json = Record<string, any>;

describe('sandbox: more exact answers', function () {
  this.timeout(60_000);
  let sb: SandboxHandle;
  before(async () => {
    sb = await startSandbox({ rows: 200 });
  });
  after(() => sb.close());

  const call = async (method: string, p: string, body?: unknown, token = sb.tokens.admin) => {
    const res = await fetch(`http://127.0.0.1:${sb.port}${p}`, {
      method,
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    return { status: res.status, body: (await res.json().catch(() => ({}))) as Json };
  };
  const faults = async (method: string, body?: unknown) => {
    const res = await fetch(`${sb.urls.control}/faults`, {
      method,
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    return { status: res.status, body: (await res.json()) as Json };
  };

  it('fault rules: PUT replaces, POST adds, GET lists what is left of `times`; a bad rule says where', async () => {
    const a = { family: 'platform', route: '/v1/never-called-a', status: 503, times: 2 };
    const b = { family: 'platform', route: '/v1/never-called-b', status: 500 };
    const c = { family: 'data', route: '/v1/never-called-c', latencyMs: 5, times: 1 };
    assert.deepEqual((await faults('PUT', [a])).body, { rules: [a] });
    assert.deepEqual((await faults('POST', b)).body, { rules: [a, b] });
    assert.deepEqual((await faults('GET')).body, { rules: [a, b] }, 'a rule without times lists none');
    assert.deepEqual((await faults('PUT', { rules: [c] })).body, { rules: [c] });
    const bad = await faults('PUT', [{ status: 42 }]);
    assert.equal(bad.status, 400);
    assert.match(bad.body.error, /^Fault rule: 0\.status: \S/);
    assert.deepEqual((await faults('GET')).body, { rules: [c] }, 'a refused PUT changes nothing');
    const other = await faults('PATCH', [a]);
    assert.equal(other.status, 405);
    assert.equal(other.body.error, 'Use GET, PUT, POST or DELETE.');
    assert.deepEqual((await faults('DELETE')).body, { rules: [] });
    // A hit takes one off `times`.
    await faults('PUT', [{ family: 'platform', route: '/v1/app-config', status: 503, times: 3 }]);
    assert.equal((await call('GET', '/api/v1/app-config')).status, 503);
    assert.equal((await faults('GET')).body.rules[0].times, 2);
    await faults('DELETE');
  });

  it('a created user: first name as given (else null), admin as asked', async () => {
    const plain = await call('POST', '/api/v1/users', {
      email: 'pinned.one@example.com',
      username: 'pinned1',
    });
    assert.equal(plain.status, 200, JSON.stringify(plain.body));
    assert.equal(plain.body.firstName, null);
    assert.equal(plain.body.isAdmin, false);
    const named = await call('POST', '/api/v1/users', {
      email: 'pinned.two@example.com',
      username: 'pinned2',
      firstName: 'Ana',
      isAdmin: true,
    });
    assert.equal(named.status, 200, JSON.stringify(named.body));
    assert.equal(named.body.firstName, 'Ana');
    assert.equal(named.body.isAdmin, true);
    assert.equal(named.body.id, plain.body.id + 1);
  });

  it("a notification's routes: 403 for a member, 404 naming the notification and the deployment", async () => {
    const member = await call('DELETE', '/api/v1/deployments/1/notifications/1', undefined, sb.tokens.member);
    assert.equal(member.status, 403);
    assert.match(JSON.stringify(member.body), /Forbidden: deleting notifications needs the admin role\./);
    const missing = await call('GET', '/api/v1/deployments/1/notifications/987654');
    assert.equal(missing.status, 404);
    assert.match(JSON.stringify(missing.body), /Notification 987654 is not part of deployment 1\./);
    // A deployment without any notification answers the same.
    const none = await call('GET', '/api/v1/deployments/3/notifications/1');
    assert.equal(none.status, 404, JSON.stringify(none.body));
    assert.match(JSON.stringify(none.body), /Notification 1 is not part of deployment 3\./);
  });

  it('an embed session the sandbox never issued is refused with 401 and what to do', async () => {
    const res = await call('POST', '/api/v1/embed/session/token', { sessionId: 'never-issued' });
    assert.equal(res.status, 401);
    assert.match(
      JSON.stringify(res.body),
      /The embed session is unknown, revoked or already redeemed: generate a new one\./,
    );
  });

  it("a workbook's embed access: allowEmbed changes only when it is named", async () => {
    const list = await call('GET', '/api/v1/deployments/1/workbooks?first=100');
    const published = (list.body.items as Json[]).find((w) => w.publishedDashboard);
    assert.ok(published, 'a published workbook in the seed');
    const p = `/api/v1/deployments/1/workbooks/${published.id}/embed-access`;
    const on = await call('PUT', p, { allowEmbed: true });
    assert.equal(on.status, 200, JSON.stringify(on.body));
    assert.equal(on.body.allowEmbed, true);
    const other = await call('PUT', p, { allEmbedUsers: true, action: 'read' });
    assert.equal(other.status, 200, JSON.stringify(other.body));
    assert.equal(other.body.allowEmbed, true, 'kept when not named');
    assert.equal(other.body.allEmbedUsers.enabled, true);
    const off = await call('PUT', p, { allowEmbed: false });
    assert.equal(off.body.allowEmbed, false);
    assert.equal((await call('GET', p)).body.allowEmbed, false);
  });

  const load = async (query: Json) => {
    const res = await fetch(`${sb.urls.deployments[0]!.dataApi}/v1/load`, {
      method: 'POST',
      headers: { authorization: sb.tokens.dataApi, 'content-type': 'application/json' },
      body: JSON.stringify({ query }),
    });
    return { status: res.status, body: (await res.json()) as Json };
  };

  it('a measure filter keeps the groups whose aggregate passes; a number compares as a number', async () => {
    const all = await load({ measures: ['orders.count'], dimensions: ['orders.status'] });
    assert.equal(all.status, 200, JSON.stringify(all.body));
    const counts = (all.body.data as Json[]).map((r) => Number(r['orders.count'])).sort((x, y) => x - y);
    assert.ok(counts.length >= 3, JSON.stringify(counts));
    const cut = counts[Math.floor(counts.length / 2)]!;
    const above = await load({
      measures: ['orders.count'],
      dimensions: ['orders.status'],
      filters: [{ member: 'orders.count', operator: 'gt', values: [String(cut)] }],
    });
    assert.equal(above.status, 200, JSON.stringify(above.body));
    const got = (above.body.data as Json[]).map((r) => Number(r['orders.count'])).sort((x, y) => x - y);
    assert.deepEqual(
      got,
      counts.filter((n) => n > cut),
    );
    assert.ok(got.length > 0);
  });

  it("the agent filters by a value a question names, read from the data's own values", async () => {
    const res = await fetch(`${sb.urls.ai[0]!.url}/chat/stream-chat-state`, {
      method: 'POST',
      headers: { authorization: `Api-Key ${sb.tokens.aiApiKey}`, 'content-type': 'application/json' },
      body: JSON.stringify({
        input: 'How many completed orders?',
        sessionSettings: { externalId: 'a@example.com' },
      }),
    });
    assert.equal(res.status, 200);
    const lines = (await res.text())
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l) as Json);
    const sql = lines.find((l) => l.toolCall?.name === 'cubeSqlApi')?.toolCall.input as string;
    assert.equal(
      JSON.parse(sql).sql,
      "SELECT MEASURE(orders.count) AS count\nFROM orders\nWHERE orders.status = 'completed'",
    );
    const want = await load({
      measures: ['orders.count'],
      filters: [{ member: 'orders.status', operator: 'equals', values: ['completed'] }],
    });
    const n = Number(want.body.data[0]['orders.count']);
    assert.ok(n > 0);
    const final = lines.find((l) => l.graphPath?.[0] === 'final')?.content as string;
    assert.equal(final, `The orders count for **completed** (status) is **${n}**.`);
  });

  it('order by a time dimension named without granularity sorts by its time column, whatever comes first', async () => {
    const q = {
      measures: ['orders.count'],
      dimensions: ['orders.status'],
      timeDimensions: [{ dimension: 'orders.created_at', granularity: 'quarter' }],
      limit: 5000,
    };
    const keys = async (dir: 'asc' | 'desc') => {
      const r = await load({ ...q, order: { 'orders.created_at': dir } });
      assert.equal(r.status, 200, JSON.stringify(r.body));
      return (r.body.data as Json[]).map((row) => String(row['orders.created_at.quarter']));
    };
    const asc = await keys('asc');
    const desc = await keys('desc');
    assert.ok(new Set(asc).size > 2, JSON.stringify(asc));
    assert.deepEqual(asc, [...asc].sort());
    assert.deepEqual(desc, [...desc].sort().reverse());
  });

  // As the engine does, the query's normalisation refuses it first (the filter builder's own
  // "needs a value" is never reached through /v1/load).
  it('an operator without its value is refused, naming the filter', async () => {
    const res = await load({
      measures: ['orders.count'],
      filters: [{ member: 'orders.status', operator: 'equals', values: [] }],
    });
    assert.equal(res.status, 400);
    assert.equal(
      res.body.error,
      'Values required for filter: {"member":"orders.status","operator":"equals","values":[]}',
    );
  });
});

describe('sandbox: engine rules without a server', () => {
  it('a date range bound with an offset (with or without its colon) is read in UTC; without one, as UTC', () => {
    const now = new Date('2026-11-28T12:00:00Z');
    assert.deepEqual(
      resolveDateRange(['2024-01-01T10:00:00+02:00', '2024-01-02T10:00:00-0130'], 'UTC', now),
      ['2024-01-01T08:00:00.000', '2024-01-02T11:30:00.000'],
    );
    assert.deepEqual(resolveDateRange(['2024-01-01 10:00:00', '2024-01-02T10:00:00Z'], 'UTC', now), [
      '2024-01-01T10:00:00.000',
      '2024-01-02T10:00:00.000',
    ]);
    assert.throws(
      () => resolveDateRange(['2024-01-01T10:00:00+2', '2024-01-02'], 'UTC', now),
      /Can't parse date/,
    );
  });

  it('a value the agent cannot read as a number is shown as it is, a missing one as "no value"', () => {
    const m = { format: 'currency' } as never;
    assert.equal(formatValue(null, m), 'no value');
    assert.equal(formatValue(undefined, m), 'no value');
    assert.equal(formatValue('', m), '');
    assert.equal(formatValue('n/a', m), 'n/a');
  });

  it('a state file in a "folder" that is a file is unreadable (kept aside), not a missing file', () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'dp-statefile-'));
    try {
      const notDir = path.join(dir, 'plain-file');
      fs.writeFileSync(notDir, 'x');
      const missing = new StateFile({ file: path.join(dir, 'state.json') }, () => ({ a: { n: 1 } })).open();
      assert.equal(missing.restored, false);
      assert.equal(missing.keptAside, undefined, 'no file: nothing to keep aside');
      const s = new StateFile({ file: path.join(notDir, 'state.json') }, () => ({ a: { n: 1 } })).open();
      assert.equal(s.restored, false);
      assert.notEqual(s.keptAside, undefined, JSON.stringify(s));
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});
