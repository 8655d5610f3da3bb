// The sandbox's build API faults for the model folder's save rules, armed over HTTP through the
// control endpoint (/__sandbox/faults) as the integration suites and the demo do: a 200
// `{"success": false}` that writes nothing, and another user's write landing right after the
// caller's, before its answer.
import * as assert from 'node:assert/strict';
import { startSandbox, type SandboxHandle } from '../../../src/sandbox';
import { jsonCaller } from '../api/helpers';

const FILE = 'model/cubes/orders.yml';

describe('sandbox build API: write faults through /__sandbox/faults', function () {
  this.timeout(60_000);
  let sb: SandboxHandle;
  let base: string;
  before(async () => {
    sb = await startSandbox({ rows: 300 });
    base = `http://127.0.0.1:${sb.port}`;
  });
  after(() => sb.close());

  const call = jsonCaller(
    () => `${base}/build/api/v1/deployments/1`,
    () => sb.tokens.admin,
  );
  const arm = async (rule: unknown) => {
    const res = await fetch(`${base}/__sandbox/faults`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(rule),
    });
    return { status: res.status, body: (await res.json()) as Record<string, unknown> };
  };
  const text = async (branch: string) => {
    const tree = await call('GET', `/data-model/files?withContent=true&branchName=${branch}`);
    const flat: { path: string; content?: string }[] = [];
    const walk = (nodes: unknown[]) =>
      nodes.forEach((n) => {
        const x = n as { path: string; content?: string; children?: unknown[] };
        if (x.children) walk(x.children);
        else flat.push(x);
      });
    walk(tree.body.items as unknown[]);
    return flat.find((f) => f.path === FILE)?.content;
  };

  it('answers 200 {"success": false} to a write and leaves the file as it was', async () => {
    await call('POST', '/branches', { name: 'refuse', from: 'main' });
    const before = await text('refuse');
    assert.equal(
      (
        await arm({
          route: '/data-model/files',
          method: 'PUT',
          status: 200,
          body: { success: false },
          times: 1,
        })
      ).status,
      200,
    );
    const put = await call('PUT', '/data-model/files', {
      branchName: 'refuse',
      files: [{ path: FILE, content: 'cubes: []\n' }],
    });
    assert.deepEqual(put, { status: 200, body: { success: false } });
    assert.equal(await text('refuse'), before);
  });

  it("applies another user's write right after the caller's, before answering", async () => {
    await call('POST', '/branches', { name: 'race', from: 'main' });
    const armed = await arm({
      route: '/data-model/files',
      method: 'PUT',
      concurrentWrite: [{ path: FILE, content: 'cubes: [] # theirs\n' }],
      times: 1,
    });
    assert.equal(armed.status, 200);
    const put = await call('PUT', '/data-model/files', {
      branchName: 'race',
      files: [{ path: FILE, content: 'cubes: [] # mine\n' }],
    });
    assert.deepEqual(put.body, { success: true });
    assert.equal(await text('race'), 'cubes: [] # theirs\n', 'their write came last');
    // One time only: the next write is the caller's alone.
    await call('PUT', '/data-model/files', {
      branchName: 'race',
      files: [{ path: FILE, content: 'cubes: [] # mine again\n' }],
    });
    assert.equal(await text('race'), 'cubes: [] # mine again\n');
  });

  it('refuses a concurrent write rule that is not a list of files', async () => {
    const bad = await arm({ route: '/data-model/files', concurrentWrite: [{ content: 'x' }] });
    assert.equal(bad.status, 400);
    assert.match(String(bad.body.error), /concurrentWrite/);
  });
});
