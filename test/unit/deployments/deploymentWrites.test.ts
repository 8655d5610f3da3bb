// Managing deployments as wholes: the exact requests of create, connect, update, delete and the
// setup step (one each, never retried), what a user is told when a write's outcome is unknown or
// refused, the decisions of the flows (create body, delete outcome, setup steps, first-build
// watch), and the sandbox serving them (settings read back, GitHub linked or not, a created
// deployment's starter project built, surviving a restart, deleted).
import * as assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ApiError, BuildClient, PlatformClient } from '../../../src/api';
import {
  buildRunning,
  createBody,
  deleteOutcome,
  domainRefusal,
  nameRefusal,
  savedEditMessage,
  SETTING_EDITS,
  stepChoices,
  unchangedEdit,
  watchFirstBuild,
} from '../../../src/deployments/deploymentPlans';
import { startSandbox } from '../../../src/sandbox';
import { rejection, sendJson, startServer, type TestServer } from '../api/helpers';

const DEP = { id: 9, name: 'Revenue', deploymentUrl: 'https://revenue.example', creationStep: 'databases' };
const REGION = { name: 'aws-us-east-1', provider: 'aws' };

describe('deployment writes: the exact request, and what the user is told', () => {
  let s: TestServer;
  let platform: PlatformClient;
  let build: BuildClient;
  let answer: [number, unknown] = [200, DEP];

  before(async () => {
    s = await startServer((_req, res) => sendJson(res, answer[0], answer[1]));
    const retry = { retries: 3, baseDelayMs: 1, maxDelayMs: 2 };
    platform = new PlatformClient({ baseUrl: `${s.url}/api`, token: () => Promise.resolve('tok'), retry });
    build = new BuildClient({ platformUrl: `${s.url}/api`, token: () => Promise.resolve('tok'), retry });
  });
  after(async () => {
    await platform.close();
    await build.close();
    await s.close();
  });

  async function sent(run: () => Promise<unknown>, reply: [number, unknown] = [200, DEP]) {
    answer = reply;
    const from = s.requests.length;
    const result = await run();
    const reqs = s.requests.slice(from);
    assert.equal(reqs.length, 1, 'exactly one request');
    const r = reqs[0]!;
    return {
      result,
      method: r.method,
      url: r.url,
      body: r.body === '' ? undefined : (JSON.parse(r.body) as unknown),
      r,
    };
  }

  it('Create Deployment posts the published body built from the answers, to the build API', async () => {
    const x = await sent(() => build.createDeployment(createBody('  Revenue ', REGION, false)));
    assert.equal(x.method, 'POST');
    assert.equal(x.url, '/build/api/v1/deployments');
    assert.deepEqual(x.body, {
      name: 'Revenue',
      cloudProvider: 'aws',
      creationMethod: 'cubecloud',
      creationStep: 'databases',
      deployMode: 'git',
      isManaged: true,
      region: 'aws-us-east-1',
      targetPlatform: 'aws',
    });
    assert.equal(x.r.headers['content-type'], 'application/json');
    assert.equal(x.r.headers.authorization, 'Bearer tok');
    assert.equal((x.result as { id: number }).id, 9);
  });

  it('a deployment from GitHub waits at the github step; a region of another cloud is Cube Cloud', () => {
    const b = createBody('Revenue', { name: 'azure-westeurope', provider: 'azure' }, true);
    assert.equal(b.creationMethod, 'github');
    assert.equal(b.creationStep, 'github');
    assert.equal(b.cloudProvider, 'cubecloud');
    assert.equal(b.targetPlatform, 'azure');
  });

  it('Connect GitHub sends the installation as a number, the repository and the deploy branch', async () => {
    const x = await sent(() =>
      build.connectGithub(9, { installationId: 41001, name: 'cube-models', deployBranchName: 'develop' }),
    );
    assert.equal(x.method, 'POST');
    assert.equal(x.url, '/build/api/v1/deployments/9/github/connect');
    assert.deepEqual(x.body, { installationId: 41001, name: 'cube-models', deployBranchName: 'develop' });
  });

  it('Edit Deployment sends only the setting changed and returns the settings as saved', async () => {
    const saved = { id: 9, name: 'Revenue 2', customDomain: null, extra: { kept: true } };
    const x = await sent(() => platform.updateDeployment(9, { name: 'Revenue 2' }), [200, saved]);
    assert.equal(x.method, 'PUT');
    assert.equal(x.url, '/api/v1/deployments/9');
    assert.deepEqual(x.body, { name: 'Revenue 2' });
    // Read tolerantly: fields the extension does not know are kept.
    assert.deepEqual(x.result, saved);
  });

  it('a setting outside the published document is refused before anything is sent', async () => {
    const from = s.requests.length;
    const e = await rejection(() => platform.updateDeployment(9, { releaseChannel: 'nightly' as never }));
    assert.ok(e instanceof ApiError && e.kind === 'validation', String(e));
    assert.match(e.message, /^Deployment not changed/);
    assert.equal(s.requests.length, from, 'nothing sent');
  });

  it('Delete Deployment sends a DELETE without a body; only success: true is "deleted"', async () => {
    const x = await sent(() => platform.deleteDeployment(9), [200, { success: true }]);
    assert.equal(x.method, 'DELETE');
    assert.equal(x.url, '/api/v1/deployments/9');
    assert.equal(x.body, undefined);
    assert.equal(deleteOutcome(x.result as { success?: boolean }), 'deleted');
    assert.equal(deleteOutcome({ success: false }), 'refused');
    assert.equal(deleteOutcome({}), 'unknown');
  });

  it('Continue Setup advances with the step chosen, or resets without a body', async () => {
    const a = await sent(
      () => platform.advanceCreationStep(9, { creationStep: 'ready' }),
      [200, { ...DEP, creationStep: 'ready' }],
    );
    assert.equal(a.url, '/api/v1/deployments/9/creation-step/advance');
    assert.deepEqual(a.body, { creationStep: 'ready' });
    const r = await sent(() => platform.resetCreationStep(9), [200, { ...DEP, creationStep: 'project' }]);
    assert.equal(r.method, 'POST');
    assert.equal(r.url, '/api/v1/deployments/9/creation-step/reset');
    assert.equal(r.body, undefined);
  });

  it('a create that fails with a 500 is an unknown outcome, sent once, saying how to check', async () => {
    answer = [500, { error: 'boom' }];
    const from = s.requests.length;
    const e = await rejection(() => build.createDeployment(createBody('Revenue', REGION, false)));
    assert.ok(e instanceof ApiError, String(e));
    assert.equal(e.kind, 'unknownOutcome');
    assert.match(e.message, /Refresh the Deployments list to see whether "Revenue" was created/);
    assert.doesNotMatch(e.message, /try again/i);
    assert.equal(s.requests.length - from, 1, 'never retried');
  });

  it('a delete refused with a 403 says so (not unknown), sent once', async () => {
    answer = [403, { error: 'Forbidden: deleting a deployment needs the admin role.' }];
    const from = s.requests.length;
    const e = await rejection(() => platform.deleteDeployment(9));
    assert.ok(e instanceof ApiError, String(e));
    assert.equal(e.kind, 'forbidden');
    assert.equal(s.requests.length - from, 1);
  });
});

describe('deployment flows: their decisions', () => {
  it('a name must not be empty; a custom domain is a host name or empty', () => {
    assert.equal(nameRefusal('   '), 'Type a name for the deployment.');
    assert.equal(nameRefusal('Revenue'), undefined);
    assert.equal(domainRefusal(''), undefined);
    assert.equal(domainRefusal('cube.example.com'), undefined);
    assert.match(domainRefusal('https://cube.example.com/x') ?? '', /host name like cube\.example\.com/);
  });

  it('Edit Deployment sends nothing when the value accepted is the one the deployment has', () => {
    const settings = {
      name: 'Revenue',
      customDomain: null,
      releaseChannel: 'release',
      deployBranchReadOnly: false,
    };
    const edit = (key: string) => SETTING_EDITS.find((e) => e.key === key)!;
    const body = (key: string, v: string | boolean) => edit(key).body(v as never);
    assert.equal(unchangedEdit(settings as never, body('name', ' Revenue ')), true);
    assert.equal(unchangedEdit(settings as never, body('name', 'Revenue 2')), false);
    assert.equal(unchangedEdit(settings as never, body('customDomain', '')), true);
    assert.equal(unchangedEdit(settings as never, body('customDomain', 'cube.example.com')), false);
    assert.equal(unchangedEdit(settings as never, body('releaseChannel', 'release')), true);
    assert.equal(unchangedEdit(settings as never, body('releaseChannel', 'latest')), false);
    assert.equal(unchangedEdit(settings as never, body('deployBranchReadOnly', false)), true);
    assert.equal(unchangedEdit(settings as never, body('deployBranchReadOnly', true)), false);
    // A setting the answer does not hold is not "unchanged" when a value is sent.
    assert.equal(unchangedEdit(settings as never, body('deployBranchMergeAllowed', true)), false);
  });

  it('after a save the user is told what the server saved: a rename names the old and the new name', () => {
    const edit = (key: string) => SETTING_EDITS.find((e) => e.key === key)!;
    const saved = { name: 'Revenue\nEU', releaseChannel: 'latest', customDomain: null };
    assert.equal(
      savedEditMessage('Revenue', saved as never, edit('name')),
      'Renamed the deployment "Revenue" to "Revenue EU".',
    );
    assert.equal(
      savedEditMessage('Revenue EU', saved as never, edit('releaseChannel')),
      'Saved: release channel of "Revenue EU" is latest.',
    );
    assert.equal(
      savedEditMessage('Revenue EU', saved as never, edit('customDomain')),
      'Saved: custom domain of "Revenue EU" is none.',
    );
  });

  it('Continue Setup offers ready first and never the step the deployment is at', () => {
    const steps = stepChoices('databases').map((c) => c.step);
    assert.equal(steps[0], 'ready');
    assert.ok(!steps.includes('databases'));
    assert.ok(!stepChoices('ready').some((c) => c.step === 'ready'));
  });

  it('the first build is read until it ends; a cancel stops the watch; a long one is left to watch', async () => {
    const reads = ['building', 'building', 'success'];
    let paused = 0;
    const ok = await watchFirstBuild(
      async () => ({ status: reads.shift()! }),
      async () => (paused++, true),
    );
    assert.equal(ok.outcome, 'succeeded');
    assert.equal(paused, 2);
    const failed = await watchFirstBuild(
      async () => ({ status: 'error', errorText: 'Compile errors' }),
      async () => true,
    );
    assert.equal(failed.outcome, 'failed');
    const cancelled = await watchFirstBuild(
      async () => ({ status: 'building' }),
      async () => false,
    );
    assert.equal(cancelled.outcome, 'cancelled');
    const running = await watchFirstBuild(
      async () => ({ status: 'in_progress' }),
      async () => true,
      3,
    );
    assert.equal(running.outcome, 'running');
    assert.ok(buildRunning({ status: 'pending' }) && !buildRunning({ status: 'success' }));
  });
});

describe('sandbox: deployments as wholes', function () {
  this.timeout(60_000);
  const dir = mkdtempSync(join(tmpdir(), 'dp-deploy-'));
  const file = join(dir, 'state.json');
  after(() => rmSync(dir, { recursive: true, force: true }));

  const clients = (sb: Awaited<ReturnType<typeof startSandbox>>, token = sb.tokens.admin) => ({
    platform: new PlatformClient({ baseUrl: sb.urls.platform, token: () => Promise.resolve(token) }),
    build: new BuildClient({ platformUrl: sb.urls.platform, token: () => Promise.resolve(token) }),
  });

  it('creates a starter project that builds, keeps it and its settings across a restart, then deletes it', async () => {
    let sb = await startSandbox({ rows: 200, aiEventDelayMs: 0, stateFile: file });
    let c = clients(sb);
    const created = await c.build.createDeployment(createBody('Revenue', REGION, false));
    assert.equal(created.name, 'Revenue');
    assert.equal(created.creationStep, 'databases');
    assert.match(created.deploymentUrl ?? '', /^http:\/\/127\.0\.0\.1:\d+$/, 'its Data API host listens');
    const status = await c.platform.ops.getBuildStatus(created.id);
    assert.equal(status.status, 'success');
    const files = (await c.build.listFiles(created.id, { withContent: false })).map((f) => f.path).sort();
    assert.deepEqual(files, ['cube.py', 'model/cubes/example.yml']);
    const saved = await c.platform.updateDeployment(created.id, { customDomain: 'revenue.example.com' });
    assert.equal(saved.customDomain, 'revenue.example.com');
    await c.platform.advanceCreationStep(created.id, { creationStep: 'ready' });
    sb.saveState();
    await Promise.all([c.platform.close(), c.build.close()]);
    await sb.close();

    sb = await startSandbox({ rows: 200, aiEventDelayMs: 0, stateFile: file });
    c = clients(sb);
    try {
      const again = await c.platform.getDeploymentSettings(created.id);
      assert.equal(again.name, 'Revenue');
      assert.equal(again.customDomain, 'revenue.example.com');
      assert.equal(again.creationStep, 'ready');
      const after = (await c.build.listFiles(created.id, { withContent: false })).map((f) => f.path).sort();
      assert.deepEqual(
        after,
        ['cube.py', 'model/cubes/example.yml'],
        'its starter project, not the sample model',
      );
      const member = clients(sb, sb.tokens.member);
      const refused = await rejection(() => member.platform.deleteDeployment(created.id));
      assert.ok(refused instanceof ApiError && refused.kind === 'forbidden', String(refused));
      await Promise.all([member.platform.close(), member.build.close()]);
      assert.deepEqual(await c.platform.deleteDeployment(created.id), { success: true });
      const gone = await rejection(() => c.platform.getDeploymentSettings(created.id));
      assert.ok(gone instanceof ApiError && gone.status === 404, String(gone));
      const listed = (await c.platform.listDeployments({ first: 50 })).items.map((d) => d.id);
      assert.ok(!listed.includes(created.id));
    } finally {
      await Promise.all([c.platform.close(), c.build.close()]);
      await sb.close();
    }
  });

  it('GitHub is linked for the admin only; connecting a repository serves its branch and model', async () => {
    const sb = await startSandbox({ rows: 200, aiEventDelayMs: 0 });
    const c = clients(sb);
    const member = clients(sb, sb.tokens.member);
    try {
      const off = await member.platform.getGithubStatus();
      assert.equal(off.connected, false);
      assert.match(off.linkUrl ?? '', /^https:\/\//);
      assert.equal((await c.platform.getGithubStatus()).connected, true);
      const inst = (await c.platform.listGithubInstallations()).items[0]!;
      const repos = (await c.platform.listGithubRepositories(Number(inst.installationId))).items;
      assert.ok(repos.some((r) => r.name === 'cube-models'));
      const branches = (
        await c.platform.listGithubBranches(inst.login, 'cube-models', {
          installationId: Number(inst.installationId),
        })
      ).items;
      assert.equal(branches.find((b) => b.isDefault)?.name, 'main');
      const created = await c.build.createDeployment(createBody('From GitHub', REGION, true));
      assert.equal(created.creationStep, 'github');
      const connected = await c.build.connectGithub(created.id, {
        installationId: Number(inst.installationId),
        name: 'cube-models',
        deployBranchName: 'develop',
      });
      assert.equal(connected.creationStep, 'databases');
      const settings = await c.platform.getDeploymentSettings(created.id);
      assert.equal(settings.deployBranchName, 'develop');
      const status = await c.platform.ops.getBuildStatus(created.id);
      assert.equal(status.branchName, 'develop');
      assert.equal(status.status, 'success');
    } finally {
      await Promise.all([c.platform.close(), c.build.close(), member.platform.close(), member.build.close()]);
      await sb.close();
    }
  });
});
