// The deployment build-status route reports the build side's real compile of the branch: the
// seeded "Marketing Sandbox" fails on its campaigns cube (file, line and the engine's error), its
// health follows (crashing pod, the error in the logs), and a fix on the deploy branch turns it
// into a successful build with healthy pods.
import * as assert from 'node:assert/strict';
import { startSandbox, type SandboxHandle } from '../../../src/sandbox';
import { seedFilesFor } from '../../../src/sandbox/build/seedModel';
import { jsonCaller } from '../api/helpers';

describe('sandbox build-status route: the compiled builds', function () {
  this.timeout(60_000);
  let sb: SandboxHandle;
  before(async () => {
    sb = await startSandbox({ rows: 500 });
  });
  after(() => sb.close());

  const call = jsonCaller(
    () => `http://127.0.0.1:${sb.port}`,
    () => sb.tokens.admin,
  );
  const status = (dep: number, branch?: string) =>
    call(
      'GET',
      `/api/v1/deployments/${dep}/build-status${branch ? `?branchName=${encodeURIComponent(branch)}` : ''}`,
    );

  it('names the real file, line and error of a failed compile, and a fix makes it a success', async () => {
    const failed = await status(3);
    assert.equal(failed.status, 200);
    assert.equal(failed.body.status, 'error');
    assert.equal(failed.body.mode, 'production');
    assert.equal(failed.body.deploymentStatus, 'degraded');
    assert.match(String(failed.body.errorText), /model\/cubes\/campaigns\.yml:14:\d+: .*spend_usd/);
    const pods = (await call('GET', '/api/v1/deployments/3/pods')).body.items as { status: string }[];
    assert.ok(pods.some((p) => p.status === 'CrashLoopBackOff'));
    const logs = (await call('GET', '/api/v1/deployments/3/logs?first=20')).body.items as {
      message: string;
    }[];
    assert.ok(logs.some((l) => /campaigns\.yml:14.*spend_usd/.test(l.message)));

    // A healthy deployment, and a branch by name.
    assert.equal((await status(1)).body.status, 'success');
    assert.equal((await status(1, 'staging')).body.mode, 'dev_mode');
    assert.equal((await status(1, 'no-such-branch')).status, 404);

    // Fix the cube on the deploy branch (its files route; deployment 3 accepts direct writes).
    const campaigns = seedFilesFor(3).find(([p]) => p === 'model/cubes/campaigns.yml');
    assert.ok(campaigns, 'the seeded campaigns cube');
    const put = await call('PUT', '/build/api/v1/deployments/3/data-model/files', {
      branchName: 'main',
      files: [{ path: campaigns[0], content: campaigns[1].replace('spend_usd', 'amount') }],
    });
    assert.equal(put.status, 200, JSON.stringify(put.body));
    const fixed = await status(3);
    assert.equal(fixed.body.status, 'success');
    assert.equal(fixed.body.errorText, null);
    assert.equal(fixed.body.deploymentStatus, 'running');
    assert.notEqual(fixed.body.filesHash, failed.body.filesHash);
    const after = (await call('GET', '/api/v1/deployments/3/pods')).body.items as { status: string }[];
    assert.ok(after.length > 0);
    assert.equal(
      after.filter((p) => p.status !== 'Running').length,
      0,
      `pods after the fix: ${JSON.stringify(after)}`,
    );
  });
});
