// The sandbox's build API over HTTP: files and hashes per branch, branch isolation, validate with
// lines, and the dev-mode Data API answering from the branch's own files.
import * as assert from 'node:assert/strict';
/* eslint-disable @typescript-eslint/no-explicit-any -- JSON answers walked by path in assertions */
import { startSandbox, type SandboxHandle } from '../../../src/sandbox';
import { jsonCaller } from '../api/helpers';

const NEW_MEASURE = `      - name: big_order_count
        sql: amount
        type: count
        filters:
          - sql: "{CUBE}.amount > 400"
`;

describe('sandbox build API: files, branches, dev mode', function () {
  this.timeout(60_000);
  let sb: SandboxHandle;
  let build: string;
  before(async () => {
    sb = await startSandbox({ rows: 1000 });
    build = `http://127.0.0.1:${sb.port}/build/api/v1/deployments/1`;
  });
  after(() => sb.close());

  const call = jsonCaller(
    () => build,
    () => sb.tokens.admin,
  );
  const dev = (branch: string) =>
    `${sb.urls.deployments[0]!.deploymentUrl}/dev-mode/${encodeURIComponent(branch)}/cubejs-api/v1`;
  const data = async (base: string, path: string, body?: unknown) => {
    const res = await fetch(`${base}${path}`, {
      method: body === undefined ? 'GET' : 'POST',
      headers: { authorization: sb.tokens.dataApi, 'content-type': 'application/json' },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    return { status: res.status, body: (await res.json()) as Record<string, any> };
  };
  const measures = (meta: Record<string, any>, cube: string): string[] =>
    (meta.cubes as { name: string; measures: { name: string }[] }[])
      .find((c) => c.name === cube)!
      .measures.map((m) => m.name);

  it('lists the model as a tree with hashes, and the hashes as a map', async () => {
    const tree = await call('GET', '/data-model/files?withContent=true');
    assert.equal(tree.status, 200);
    const model = tree.body.items.find((n: { name: string }) => n.name === 'model');
    assert.equal(model.type, 'directory');
    const cubes = model.children[0];
    assert.deepEqual(
      cubes.children.map((n: { path: string }) => n.path),
      ['model/cubes/customers.yml', 'model/cubes/orders.yml', 'model/cubes/products.yml'],
    );
    const orders = cubes.children[1];
    assert.match(orders.content, /name: orders/);
    const hashes = await call('GET', '/data-model/file-hashes');
    assert.equal(hashes.body['model/cubes/orders.yml'].hash, orders.hash);
    assert.match(orders.hash, /^[0-9a-f]{40}$/);
    // Without withContent, no content; paging bounds the top-level nodes.
    const paged = await call('GET', '/data-model/files?first=1');
    assert.equal(paged.body.items.length, 1);
    assert.equal(paged.body.items[0].children[0].children[0].content, undefined);
    assert.equal(paged.body.pageInfo.hasNextPage, true);
  });

  it('keeps each branch its own copy: a change on a branch changes its hashes, meta and dev-mode queries only', async () => {
    const created = await call('POST', '/branches', { name: 'feature/big-orders', activate: true });
    assert.deepEqual(created.body, { active: true, branchName: 'feature/big-orders', parentBranch: 'main' });
    const before = (await call('GET', '/data-model/file-hashes?branchName=feature/big-orders')).body;
    const file = (await call('GET', '/data-model/files?withContent=true&branchName=feature/big-orders')).body
      .items[0].children[0].children[1].content as string;
    const edited = file.replace('    dimensions:\n', `${NEW_MEASURE}\n    dimensions:\n`);
    assert.notEqual(edited, file);
    const put = await call('PUT', '/data-model/files', {
      branchName: 'feature/big-orders',
      files: [{ path: 'model/cubes/orders.yml', content: edited }],
    });
    assert.deepEqual(put, { status: 200, body: { success: true } });
    const after = (await call('GET', '/data-model/file-hashes?branchName=feature/big-orders')).body;
    assert.notEqual(after['model/cubes/orders.yml'].hash, before['model/cubes/orders.yml'].hash);
    assert.equal(after['model/cubes/customers.yml'].hash, before['model/cubes/customers.yml'].hash);
    const main = (await call('GET', '/data-model/file-hashes?branchName=main')).body;
    assert.equal(main['model/cubes/orders.yml'].hash, before['model/cubes/orders.yml'].hash);

    // The branch's Data API sees the measure; the default one does not.
    const devMeta = await data(dev('feature/big-orders'), '/meta');
    assert.ok(measures(devMeta.body, 'orders').includes('orders.big_order_count'));
    const mainMeta = await data(sb.urls.deployments[0]!.dataApi, '/v1/meta');
    assert.ok(!measures(mainMeta.body, 'orders').includes('orders.big_order_count'));
    const q = { query: { measures: ['orders.count', 'orders.big_order_count'] } };
    const onBranch = await data(dev('feature/big-orders'), '/load', q);
    assert.equal(onBranch.status, 200, JSON.stringify(onBranch.body));
    // Without queryType the engine answers the single result object.
    const row = onBranch.body.data[0];
    assert.ok(Number(row['orders.big_order_count']) > 0);
    assert.ok(Number(row['orders.big_order_count']) < Number(row['orders.count']));
    const onMain = await data(sb.urls.deployments[0]!.dataApi, '/v1/load', q);
    assert.equal(onMain.status, 400);
    assert.match(onMain.body.error, /big_order_count' not found/);
    // The state tells which branch answered.
    const recorded = sb.state.dataQueries.filter((r) => r.devBranch === 'feature/big-orders');
    assert.deepEqual(
      recorded.map((r) => [r.deploymentId, r.path]),
      [
        [1, '/v1/meta'],
        [1, '/v1/load'],
      ],
    );
    const sql = await fetch(`${dev('feature/big-orders')}/cubesql`, {
      method: 'POST',
      headers: { authorization: sb.tokens.dataApi, 'content-type': 'application/json' },
      body: JSON.stringify({ query: 'SELECT MEASURE(big_order_count) AS n FROM orders' }),
    });
    assert.equal(sql.status, 200);
    assert.match(await sql.text(), /"data":\[\["\d+"\]\]/);
  });

  it('validates a branch with errors at their file and line, and the dev-mode Data API says it does not compile', async () => {
    await call('POST', '/branches', { name: 'broken', activate: true });
    const text =
      'cubes:\n  - name: broken\n    sql_table: orders\n    measures:\n      - name: n\n        type: cnt\n';
    await call('PUT', '/data-model/files', { files: [{ path: 'model/cubes/broken.yml', content: text }] });
    const v = await call('GET', '/data-model/validate?devMode=true');
    assert.equal(v.status, 200);
    assert.equal(v.body.valid, false);
    assert.equal(v.body.mode, 'dev_mode');
    assert.equal(v.body.branchName, 'broken');
    assert.deepEqual(v.body.errors, [
      {
        fileName: 'model/cubes/broken.yml',
        message:
          'model/cubes/broken.yml:6:15: broken.n: type must be one of count, count_distinct, count_distinct_approx, sum, avg, min, max, number, string, time, boolean.',
      },
    ]);
    const meta = await data(dev('broken'), '/meta');
    assert.equal(meta.status, 400);
    assert.match(meta.body.error, /Compile errors in branch "broken":\nmodel\/cubes\/broken.yml:6:15/);
    // Fixed, it validates and answers.
    await call('PUT', '/data-model/files', {
      files: [{ path: 'model/cubes/broken.yml', content: text.replace('cnt', 'count') }],
    });
    const fixed = await call('GET', '/data-model/validate?devMode=true');
    assert.equal(fixed.body.valid, true);
    assert.equal(fixed.body.cubesCount, 4);
    assert.equal((await data(dev('broken'), '/meta')).status, 200);
    // The default branch was never touched.
    const prod = await call('GET', '/data-model/validate');
    assert.deepEqual(
      [prod.body.mode, prod.body.branchName, prod.body.valid, prod.body.cubesCount],
      ['production', 'main', true, 3],
    );
    // A branch and devMode together are refused before anything compiles.
    const both = await call('GET', '/data-model/validate?branchName=main&devMode=true');
    assert.equal(both.status, 400);
    assert.match(String(both.body.error), /not both/);
  });

  it('serves a dev-mode Data API only while the branch is open or its staging environment is on', async () => {
    await call('POST', '/branches', { name: 'idle', from: 'main' });
    assert.equal((await data(dev('idle'), '/meta')).status, 404);
    await call('PUT', '/branches/staging-environment', { branchName: 'idle', enabled: true });
    assert.equal((await data(dev('idle'), '/meta')).status, 200);
    await call('PUT', '/branches/staging-environment', { branchName: 'idle', enabled: false });
    await call('POST', '/dev-mode', { branchName: 'idle' });
    assert.equal((await data(dev('idle'), '/meta')).status, 200);
    await call('DELETE', '/dev-mode');
    const closed = await data(dev('idle'), '/meta');
    assert.equal(closed.status, 404);
    assert.match(closed.body.error, /enter dev mode on it or enable its staging environment/);
    assert.equal((await data(dev('no-such-branch'), '/meta')).status, 404);
  });

  it('renames and deletes files, refuses escapes, and keeps the read-only deploy branch of deployment 2', async () => {
    await call('POST', '/branches', { name: 'files', activate: true });
    const moved = await call('POST', '/data-model/files/rename', {
      files: [{ path: 'model/cubes/products.yml', newPath: 'model/catalog/products.yml' }],
    });
    assert.equal(moved.status, 200);
    const hashes = (await call('GET', '/data-model/file-hashes')).body;
    assert.ok('model/catalog/products.yml' in hashes && !('model/cubes/products.yml' in hashes));
    assert.equal((await call('DELETE', '/data-model/files', { files: [{ path: 'cube.py' }] })).status, 200);
    assert.equal((await call('DELETE', '/data-model/files', { files: [{ path: 'cube.py' }] })).status, 404);
    assert.equal(
      (await call('PUT', '/data-model/files', { files: [{ path: '/etc/x', content: '' }] })).status,
      400,
    );
    const ro = await fetch(`http://127.0.0.1:${sb.port}/build/api/v1/deployments/2/data-model/files`, {
      method: 'PUT',
      headers: { authorization: `Bearer ${sb.tokens.admin}`, 'content-type': 'application/json' },
      body: JSON.stringify({ files: [{ path: 'model/x.yml', content: '' }] }),
    });
    assert.equal(ro.status, 403);
    assert.match(
      ((await ro.json()) as { error: string }).error,
      /read-only: change the model on a branch and merge it/,
    );
  });

  it('serves the build API at the tenant root only, never under /api (which the documents do not publish)', async () => {
    const at = (prefix: string) =>
      fetch(`http://127.0.0.1:${sb.port}${prefix}/build/api/v1/deployments/1/data-model/files`, {
        headers: { authorization: `Bearer ${sb.tokens.admin}` },
      });
    assert.equal((await at('')).status, 200);
    const under = await at('/api');
    assert.equal(under.status, 404);
    assert.match(((await under.json()) as { error: string }).error, /^No API at \/api\/build\//);
  });

  it('lists, re-parents on delete and refuses to delete the deploy branch', async () => {
    await call('POST', '/branches', { name: 'parent-x', from: 'main' });
    await call('POST', '/branches', { name: 'child-x', from: 'parent-x' });
    assert.equal((await call('DELETE', '/branches?branchName=parent-x')).status, 200);
    const list = (await call('GET', '/branches')).body;
    const child = list.items.find((b: { name: string }) => b.name === 'child-x');
    assert.equal(child.parentBranch, 'main');
    assert.deepEqual(list.items, list.data);
    assert.equal((await call('DELETE', '/branches?branchName=main')).status, 400);
    assert.equal((await call('POST', '/branches', { name: 'bad..name' })).status, 400);
  });

  it('applies faults to build routes like any platform route', async () => {
    sb.faults.add({ family: 'platform', route: '/data-model/validate', status: 503, times: 1 });
    assert.equal((await call('GET', '/data-model/validate')).status, 503);
    assert.equal((await call('GET', '/data-model/validate')).status, 200);
  });
});
