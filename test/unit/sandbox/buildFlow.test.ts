// The sandbox's build API source control over HTTP: commit, merge into the parent, merge to the
// default branch (whose /v1/meta then shows the change), pull, conflicts, and the upload
// transaction with hashes.
import * as assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
/* eslint-disable @typescript-eslint/no-explicit-any -- JSON answers walked by path in assertions */
import { startSandbox, type SandboxHandle } from '../../../src/sandbox';
import { BuildService } from '../../../src/sandbox/build';
import { createDataEngine } from '../../../src/sandbox/data';
import { seedPlatform } from '../../../src/sandbox/platform/seed';

const sha1 = (s: string) => createHash('sha1').update(s).digest('hex');
const cube = (name: string, measure = 'count') =>
  `cubes:\n  - name: ${name}\n    sql_table: orders\n    measures:\n      - name: ${measure}\n        type: count\n`;

describe('sandbox build API: commit, pull, merge, upload', function () {
  this.timeout(60_000);
  let sb: SandboxHandle;
  before(async () => {
    sb = await startSandbox({ rows: 500 });
  });
  after(() => sb.close());

  const call = async (method: string, path: string, body?: unknown, token = sb.tokens.admin, dep = 1) => {
    const res = await fetch(`http://127.0.0.1:${sb.port}/build/api/v1/deployments/${dep}${path}`, {
      method,
      headers: {
        authorization: `Bearer ${token}`,
        ...(body !== undefined ? { 'content-type': 'application/json' } : {}),
      },
      body: body !== undefined ? JSON.stringify(body) : undefined,
    });
    return { status: res.status, body: (await res.json()) as Record<string, any> };
  };
  const defaultCubes = async (dep = 1): Promise<string[]> => {
    const res = await fetch(`${sb.urls.deployments[dep - 1]!.dataApi}/v1/meta`, {
      headers: { authorization: dep === 1 ? sb.tokens.dataApi : await token(dep) },
    });
    return ((await res.json()) as { cubes: { name: string }[] }).cubes.map((c) => c.name);
  };
  const token = async (dep: number) => {
    const res = await fetch(`${sb.urls.platform}/v1/deployments/${dep}/token`, {
      method: 'POST',
      headers: { authorization: `Bearer ${sb.tokens.admin}`, 'content-type': 'application/json' },
      body: JSON.stringify({ expiresIn: 600 }),
    });
    return ((await res.json()) as { cubeApiToken: string }).cubeApiToken;
  };
  const write = (branchName: string, path: string, content: string) =>
    call('PUT', '/data-model/files', { branchName, files: [{ path, content }] });

  it('commits, refuses to merge uncommitted work, and merges to the default branch, which then serves it', async () => {
    await call('POST', '/branches', { name: 'feature/a', activate: true });
    await write('feature/a', 'model/cubes/alpha.yml', cube('alpha'));
    const early = await call('POST', '/merge-to-default', { branchName: 'feature/a', message: 'Alpha' });
    assert.equal(early.status, 409);
    assert.equal(early.body.code, 'uncommitted_changes');
    const before = (await call('GET', '/branches')).body.items.find(
      (b: any) => b.name === 'feature/a',
    ).lastHash;
    assert.deepEqual(await call('POST', '/commit', { message: 'Add alpha' }), {
      status: 200,
      body: { success: true },
    });
    const after = (await call('GET', '/branches')).body.items.find(
      (b: any) => b.name === 'feature/a',
    ).lastHash;
    assert.notEqual(after, before);
    assert.equal((await call('POST', '/commit', { message: 'again' })).body.code, 'nothing_to_commit');
    assert.ok(!(await defaultCubes()).includes('alpha'));
    const merged = await call('POST', '/merge-to-default', {
      branchName: 'feature/a',
      message: 'Alpha',
      removeBranchAfterMerge: true,
    });
    assert.deepEqual(merged, { status: 200, body: { merged: true, branchDeleted: true } });
    assert.ok((await defaultCubes()).includes('alpha'));
    assert.equal((await call('GET', '/data-model/validate')).body.cubesCount, 4);
    // The branch is gone, and with it the caller's dev mode.
    assert.equal((await call('GET', '/data-model/validate?devMode=true')).status, 400);
  });

  it('merges into the parent, pulls the parent into a sibling, and reports conflicts with their files', async () => {
    await call('POST', '/branches', { name: 'team', from: 'main' });
    await call('POST', '/branches', { name: 'team/one', from: 'team' });
    await call('POST', '/branches', { name: 'team/two', from: 'team' });
    await write('team/one', 'model/cubes/shared.yml', cube('shared', 'one'));
    await write('team/two', 'model/cubes/shared.yml', cube('shared', 'two'));
    await write('team/two', 'model/cubes/two_only.yml', cube('two_only'));
    await call('POST', '/dev-mode', { branchName: 'team/one' });
    await call('POST', '/commit', { message: 'one' });
    const m1 = await call('POST', '/merge', { switchToParentBranch: true });
    assert.deepEqual(m1.body, { merged: true, branchDeleted: false });
    assert.equal((await call('POST', '/merge', { branchName: 'team/one' })).body.merged, false);
    // The caller moved to the parent in dev mode.
    assert.equal((await call('GET', '/data-model/validate?devMode=true')).body.branchName, 'team');
    const hashes = (await call('GET', '/data-model/file-hashes?branchName=team')).body;
    assert.equal(hashes['model/cubes/shared.yml'].hash, sha1(cube('shared', 'one')));

    await call('POST', '/dev-mode', { branchName: 'team/two' });
    await call('POST', '/commit', { message: 'two' });
    const conflict = await call('POST', '/merge', { branchName: 'team/two' });
    assert.equal(conflict.status, 409);
    assert.equal(conflict.body.code, 'merge_conflict');
    assert.deepEqual(conflict.body.files, ['model/cubes/shared.yml']);
    const pullConflict = await call('POST', '/pull', { branchName: 'team/two' });
    assert.equal(pullConflict.status, 409);
    // Resolved by taking the parent's version: the pull then brings nothing new, the merge goes through.
    await write('team/two', 'model/cubes/shared.yml', cube('shared', 'one'));
    await call('POST', '/commit', { message: 'take one' });
    assert.deepEqual((await call('POST', '/pull', { branchName: 'team/two' })).body, {
      buildTriggered: false,
    });
    assert.equal((await call('POST', '/merge', { branchName: 'team/two' })).body.merged, true);
    const team = (await call('GET', '/data-model/file-hashes?branchName=team')).body;
    assert.ok('model/cubes/two_only.yml' in team);

    // A sibling made before those merges pulls them in.
    await call('POST', '/branches', { name: 'late', from: 'team' });
    await call('POST', '/branches', { name: 'team/three', from: 'team' });
    await write('team/three', 'model/cubes/three.yml', cube('three'));
    await call('POST', '/dev-mode', { branchName: 'team/three' });
    await call('POST', '/commit', { message: 'three' });
    await call('POST', '/merge', { branchName: 'team/three' });
    assert.ok(
      !('model/cubes/three.yml' in (await call('GET', '/data-model/file-hashes?branchName=late')).body),
    );
    assert.deepEqual((await call('POST', '/pull', { branchName: 'late' })).body, { buildTriggered: true });
    assert.ok('model/cubes/three.yml' in (await call('GET', '/data-model/file-hashes?branchName=late')).body);
    assert.deepEqual((await call('POST', '/pull', { branchName: 'main' })).body, { buildTriggered: false });
  });

  it('keeps dev mode per caller', async () => {
    await call('POST', '/branches', { name: 'mine', activate: true });
    const member = await call('GET', '/data-model/validate?devMode=true', undefined, sb.tokens.member);
    assert.equal(member.status, 400);
    assert.equal(member.body.code, 'not_in_dev_mode');
    const personal = await call('POST', '/dev-mode', {}, sb.tokens.member);
    assert.match(personal.body.branchName, /^dev-[0-9a-f]{8}$/);
    assert.equal(personal.body.parentBranch, 'main');
    assert.equal((await call('GET', '/data-model/validate?devMode=true')).body.branchName, 'mine');
    assert.equal((await call('POST', '/dev-mode', { branchName: 'main' })).status, 400);
  });

  it('uploads only changed files in one transaction, prunes the rest, and builds', async () => {
    const dep = 3;
    const hashes = (await call('GET', '/data-model/file-hashes', undefined, sb.tokens.admin, dep)).body;
    const start = await call('POST', '/data-model/upload/start', undefined, sb.tokens.admin, dep);
    assert.equal(start.status, 200);
    assert.equal(start.body.deploymentName, 'Marketing Sandbox');
    const id = start.body.transaction.id as string;
    const form = new FormData();
    form.set('transaction', JSON.stringify({ id }));
    form.set('fileName', 'model/cubes/uploaded.yml');
    form.set('file', new Blob([cube('uploaded')]), 'uploaded.yml');
    const up = await fetch(
      `http://127.0.0.1:${sb.port}/build/api/v1/deployments/${dep}/data-model/upload/file`,
      {
        method: 'POST',
        headers: { authorization: `Bearer ${sb.tokens.admin}` },
        body: form,
      },
    );
    assert.equal(up.status, 200, await up.clone().text());
    // Keep the cube files (not sent again), add uploaded, and so drop cube.py.
    const files = {
      'model/cubes/orders.yml': hashes['model/cubes/orders.yml'],
      'model/cubes/customers.yml': hashes['model/cubes/customers.yml'],
      'model/cubes/products.yml': hashes['model/cubes/products.yml'],
      'model/cubes/uploaded.yml': { hash: sha1(cube('uploaded')) },
    };
    const bad = await call(
      'POST',
      '/data-model/upload/finish',
      {
        transaction: { id },
        files: { ...files, 'model/cubes/never-sent.yml': { hash: sha1('x') } },
      },
      sb.tokens.admin,
      dep,
    );
    assert.equal(bad.status, 400);
    assert.match(bad.body.error, /never-sent.yml: the server has no content with hash/);
    const done = await call(
      'POST',
      '/data-model/upload/finish',
      { transaction: { id }, files },
      sb.tokens.admin,
      dep,
    );
    assert.equal(done.status, 200);
    assert.match(done.body.lastHash, /^[0-9a-f]{40}$/);
    const now = (await call('GET', '/data-model/file-hashes', undefined, sb.tokens.admin, dep)).body;
    assert.deepEqual(Object.keys(now).sort(), Object.keys(files).sort());
    assert.deepEqual(await defaultCubes(dep), ['orders', 'customers', 'products', 'uploaded']);
    // The transaction is closed.
    const again = await call(
      'POST',
      '/data-model/upload/finish',
      { transaction: { id }, files },
      sb.tokens.admin,
      dep,
    );
    assert.equal(again.status, 404);
    // The production deployment's deploy branch refuses uploads.
    assert.equal((await call('POST', '/data-model/upload/start', undefined, sb.tokens.admin, 2)).status, 403);
  });

  it('keeps the files a finish does not list when autoRemoveFiles is false', async () => {
    const dep = 3;
    const before = (await call('GET', '/data-model/file-hashes', undefined, sb.tokens.admin, dep)).body;
    assert.ok(Object.keys(before).length >= 2, 'the branch has files to keep');
    const start = await call('POST', '/data-model/upload/start', undefined, sb.tokens.admin, dep);
    const listed = 'model/cubes/orders.yml';
    const done = await call(
      'POST',
      '/data-model/upload/finish',
      {
        transaction: { id: start.body.transaction.id },
        files: { [listed]: before[listed] },
        autoRemoveFiles: false,
        awaitGitOperations: true,
      },
      sb.tokens.admin,
      dep,
    );
    assert.equal(done.status, 200, JSON.stringify(done.body));
    const after = (await call('GET', '/data-model/file-hashes', undefined, sb.tokens.admin, dep)).body;
    assert.deepEqual(after, before);
  });

  it("reports a branch's build in the published build-status shape, errors with their lines", async () => {
    const engine = await createDataEngine({ rows: 100 });
    try {
      const svc = new BuildService({
        deployments: seedPlatform().deployments,
        engineFor: async () => engine,
      });
      const ok = await svc.buildStatus(1);
      assert.equal(ok?.status, 'success');
      assert.equal(ok?.mode, 'production');
      assert.equal(ok?.errorText, null);
      const repo = svc.repo(1)!;
      const b = repo.createBranch('me', 'broken', undefined, true);
      repo.write(
        b,
        (f) =>
          f.set(
            'model/cubes/x.yml',
            'cubes:\n  - name: x\n    sql_table: orders\n    measures:\n      - name: n\n        type: no\n',
          ),
        'x',
      );
      const bad = await svc.buildStatus(1, 'broken');
      assert.equal(bad?.status, 'error');
      assert.equal(bad?.mode, 'dev_mode');
      assert.match(
        String(bad?.errorText),
        /^Compile errors:\nmodel\/cubes\/x.yml:6:15: x.n: type must be one of/,
      );
      assert.notEqual(bad?.buildJobId, (await svc.buildStatus(1, 'staging'))?.buildJobId);
      assert.equal(await svc.buildStatus(1, 'nope'), undefined);
      assert.equal(await svc.buildStatus(99), undefined);
    } finally {
      engine.db.close();
    }
  });
});
