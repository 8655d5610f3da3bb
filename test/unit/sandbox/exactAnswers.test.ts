// The sandbox's answers that no other suite pinned exactly (from the survivors of the seed-1 mutation
// sample, docs/mutation-triage.md "sandbox"): a user attribute's partial update keeps the fields it
// does not name, a deployment's generated domain, the creation step a GitHub connect moves.
/* eslint-disable @typescript-eslint/no-explicit-any -- JSON answers walked by path in assertions */
import * as assert from 'node:assert/strict';
import { startSandbox, type SandboxHandle } from '../../../src/sandbox';
import { deploymentBody } from '../contract/caseChecks';

type Json = Record<string, any>;

describe('sandbox: exact answers', function () {
  this.timeout(60_000);
  let sb: SandboxHandle;
  before(async () => {
    sb = await startSandbox({ rows: 200 });
  });
  after(() => sb.close());

  const call = async (method: string, path: string, body?: unknown) => {
    const res = await fetch(`http://127.0.0.1:${sb.port}${path}`, {
      method,
      headers: { authorization: `Bearer ${sb.tokens.admin}`, 'content-type': 'application/json' },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    return { status: res.status, body: (await res.json()) as Json };
  };

  it('a user attribute update changes the fields it names and keeps the others', async () => {
    const made = await call('POST', '/api/v1/user-attributes', {
      name: 'exact_region',
      type: 'string',
      displayName: 'Region',
      description: 'Where the user sells',
      defaultValue: 'eu',
    });
    assert.equal(made.status, 200);
    const id = made.body.id as number;
    const cases: [Json, Json][] = [
      [
        { description: 'Sales area' },
        { displayName: 'Region', description: 'Sales area', defaultValue: 'eu' },
      ],
      [{ displayName: 'Area' }, { displayName: 'Area', description: 'Sales area', defaultValue: 'eu' }],
      [{ defaultValue: 'us' }, { displayName: 'Area', description: 'Sales area', defaultValue: 'us' }],
      [{ description: null }, { displayName: 'Area', description: null, defaultValue: 'us' }],
    ];
    for (const [body, want] of cases) {
      const put = await call('PUT', `/api/v1/user-attributes/${id}`, body);
      assert.equal(put.status, 200, JSON.stringify(body));
      assert.deepEqual(
        {
          displayName: put.body.displayName,
          description: put.body.description,
          defaultValue: put.body.defaultValue,
        },
        want,
        JSON.stringify(body),
      );
      assert.equal(put.body.name, 'exact_region');
    }
  });

  it("a deployment's generated domain is its name as a slug, without dashes at its ends", async () => {
    const cases: [string, RegExp][] = [
      ['  (Sales) & Ops!  ', /^sales-ops-(\d+)\.sandbox\.cubecloud\.dev$/],
      ['Revenue 2027', /^revenue-2027-(\d+)\.sandbox\.cubecloud\.dev$/],
      ['***', /^deployment-(\d+)\.sandbox\.cubecloud\.dev$/],
    ];
    for (const [name, want] of cases) {
      const made = await call('POST', '/build/api/v1/deployments', deploymentBody(name));
      assert.equal(made.status, 200, name);
      const settings = await call('GET', `/api/v1/deployments/${made.body.id}/settings`);
      assert.equal(settings.status, 200);
      const m = want.exec(String(settings.body.autoDomain));
      assert.ok(m, `${name}: ${settings.body.autoDomain}`);
      assert.equal(Number(m[1]), made.body.id);
    }
  });

  it('connecting GitHub moves a deployment at "github" or "project" on to "databases", and no other', async () => {
    const cases: [string, string][] = [
      ['github', 'databases'],
      ['project', 'databases'],
      ['databases', 'databases'],
      ['ready', 'ready'],
    ];
    for (const [step, want] of cases) {
      const made = await call('POST', '/build/api/v1/deployments', {
        ...deploymentBody(`Step ${step}`),
        creationStep: step,
      });
      assert.equal(made.status, 200, step);
      assert.equal(made.body.creationStep, step);
      const connected = await call('POST', `/build/api/v1/deployments/${made.body.id}/github/connect`, {
        installationId: 41001,
        name: 'cube-models',
        deployBranchName: 'main',
      });
      assert.equal(connected.status, 200, step);
      assert.equal(connected.body.creationStep, want, step);
    }
  });
  const load = async (query: Json) => {
    const res = await fetch(`${sb.urls.dataApi}/v1/load`, {
      method: 'POST',
      headers: { authorization: sb.tokens.dataApi, 'content-type': 'application/json' },
      body: JSON.stringify({ query }),
    });
    const body = (await res.json()) as Json;
    assert.equal(res.status, 200, JSON.stringify(body));
    return body;
  };
  const byMonth = {
    measures: ['orders.count'],
    timeDimensions: [{ dimension: 'orders.created_at', granularity: 'month' }],
  };

  it('a compact answer lists a time dimension under its bare name too, each row as long as its members', async () => {
    const r = await load({ ...byMonth, responseFormat: 'compact' });
    assert.deepEqual(r.data.members, ['orders.created_at.month', 'orders.created_at', 'orders.count']);
    const rows = r.data.dataset as unknown[][];
    assert.ok(rows.length > 1, `${rows.length} rows`);
    for (const row of rows) {
      assert.equal(row.length, 3, JSON.stringify(row));
      assert.equal(row[1], row[0], 'the bare name has the same value');
      assert.match(String(row[2]), /^\d+$/);
    }
  });

  it('ordering by a time dimension named without its granularity orders by that granularity', async () => {
    const months = (r: Json) => (r.data as Json[]).map((row) => String(row['orders.created_at.month']));
    const asc = months(await load({ ...byMonth, order: { 'orders.created_at': 'asc' } }));
    const desc = months(await load({ ...byMonth, order: { 'orders.created_at': 'desc' } }));
    assert.ok(asc.length > 1, `${asc.length} months`);
    assert.deepEqual(asc, [...asc].sort());
    assert.deepEqual(desc, [...asc].reverse());
  });
});
