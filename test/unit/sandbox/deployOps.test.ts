// The sandbox's deployment operations through the real client: a dbt sync's log grows while it runs
// and a cancel stops it; an export renders over time into a real file; env variable writes upsert
// and mask; health is consistent (the failed build, its crashing pod and its log lines); tokens.
import * as assert from 'node:assert/strict';
import { ApiError, PlatformClient, isFailedBuild } from '../../../src/api';
import { startSandbox, type SandboxHandle } from '../../../src/sandbox';

describe('sandbox: deployment operations', function () {
  this.timeout(60_000);
  let sb: SandboxHandle;
  let c: PlatformClient;

  before(async () => {
    sb = await startSandbox({ rows: 200, continueWaitMs: 50, aiEventDelayMs: 0, dbtStepMs: 40 });
    c = new PlatformClient({ baseUrl: sb.urls.platform, token: async () => sb.tokens.admin });
  });
  after(async () => {
    await c?.close();
    await sb?.close();
  });

  it('a dbt sync writes its log over time and ends with a result and generated files', async () => {
    const { syncJobId } = await c.startDbtSync(1, { branchName: 'review', output: 'files' });
    const early = await c.ops.getDbtSyncLogs(1, syncJobId);
    const job = await c.waitForDbtSync(1, syncJobId, { intervalMs: 20 });
    assert.equal(job.status, 'COMPLETED');
    const all = await c.ops.getDbtSyncLogs(1, syncJobId);
    assert.ok(early.length < all.length, `${early.length} lines at the start, ${all.length} at the end`);
    assert.deepEqual(
      all.slice(0, early.length).map((l) => l.message),
      early.map((l) => l.message),
      'lines are appended, never rewritten',
    );
    const result = await c.ops.getDbtSyncResult(1, syncJobId);
    const files = await c.ops.listDbtSyncGeneratedFiles(1, syncJobId, { first: 2 });
    assert.equal(result.generatedFiles.length, 5);
    assert.equal(files.items.length, 2);
    assert.equal(files.pageInfo?.hasNextPage, true);
    assert.match(files.items[0]!.content, /^cubes:/);
    const runs = await c.ops.listDbtSyncs(1, { first: 1 });
    assert.equal(runs.items[0]!.syncJobId, syncJobId, 'newest first');
  });

  it('cancels a running sync; a finished one cannot be cancelled', async () => {
    const { syncJobId } = await c.startDbtSync(1, { branchName: 'slow' });
    await c.ops.cancelDbtSync(1, syncJobId);
    const job = await c.getDbtSyncJob(1, syncJobId);
    assert.equal(job.status, 'FAILED');
    assert.match(job.error ?? '', /Cancelled/);
    const run = (await c.ops.listDbtSyncs(1, { status: 'CANCELLED' })).items.find(
      (r) => r.syncJobId === syncJobId,
    );
    assert.ok(run, 'listed as CANCELLED');
    await assert.rejects(
      c.ops.cancelDbtSync(1, syncJobId),
      (e: unknown) => e instanceof ApiError && e.status === 409,
    );
  });

  it('exports a dashboard: its status moves forward to completed, then a real PNG', async () => {
    const job = await c.ops.startDashboardExport(1, { dashboardId: 1001, format: 'png' });
    const seen: string[] = [];
    await c.ops.waitForDashboardExport(1, job.jobId, {
      intervalMs: 10,
      onStatus: (s) => seen.push(s.status),
    });
    // How many polls see pending or processing depends on the machine's speed; the order does not.
    const order = ['pending', 'processing', 'completed'];
    const ranks = seen.map((s) => order.indexOf(s));
    assert.ok(ranks.length > 0, 'the status was read');
    assert.ok(
      ranks.every((r, i) => r >= 0 && r >= (ranks[i - 1] ?? 0)),
      seen.join(' → '),
    );
    assert.equal(seen.at(-1), 'completed');
    const file = await c.ops.downloadDashboardExport(1, job.jobId);
    assert.equal(file.contentType, 'image/png');
    assert.deepEqual([...file.bytes.subarray(0, 8)], [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
    await assert.rejects(
      c.ops.startDashboardExport(1, { dashboardId: 2001, format: 'pdf' }),
      (e: unknown) => e instanceof ApiError && e.kind === 'notFound',
      'a dashboard of another deployment',
    );
  });

  it('exports a dashboard named by its public id; both ids or neither are refused before sending and by the sandbox', async () => {
    const job = await c.ops.startDashboardExport(1, { dashboardPublicId: 'pub1x0000001', format: 'pdf' });
    await c.ops.waitForDashboardExport(1, job.jobId, { intervalMs: 10 });
    const file = await c.ops.downloadDashboardExport(1, job.jobId, { format: 'pdf' });
    assert.equal(file.contentType, 'application/pdf');
    for (const ids of [{ dashboardId: 1001, dashboardPublicId: 'pub1x0000001' }, {}])
      await assert.rejects(
        c.ops.startDashboardExport(1, { ...ids, format: 'png' }),
        (e: unknown) => e instanceof ApiError && e.kind === 'validation' && /exactly one/.test(e.message),
      );
    const res = await fetch(`${sb.urls.platform}/v1/deployments/1/dashboard-exports`, {
      method: 'POST',
      headers: { authorization: `Bearer ${sb.tokens.admin}`, 'content-type': 'application/json' },
      body: JSON.stringify({ dashboardId: 1001, dashboardPublicId: 'pub1x0000001', format: 'png' }),
    });
    assert.equal(res.status, 400);
    assert.match(((await res.json()) as { error: string }).error, /exactly one/);
  });

  it('upserts env variables, masks secret-named values and refuses the placeholder before sending', async () => {
    const after = await c.ops.setEnvVariables(2, [
      { name: 'NEW_ONE', value: 'x1' },
      { name: 'API_SECRET', value: 'hidden' },
    ]);
    const byName = new Map(after.map((v) => [v.name, v as Record<string, unknown>]));
    assert.equal(byName.get('NEW_ONE')?.value, 'x1');
    assert.equal(byName.get('API_SECRET')?.value, '[ENCRYPTED]');
    await assert.rejects(
      c.ops.setEnvVariables(2, [{ name: 'NEW_ONE', value: '[ENCRYPTED]' }]),
      (e: unknown) => e instanceof ApiError && e.kind === 'validation' && !e.message.includes('x1'),
    );
  });

  it('health is consistent: the failed build, its crashing pod, its log lines', async () => {
    assert.equal(isFailedBuild(await c.ops.getBuildStatus(1)), false);
    const failed = await c.ops.getBuildStatus(3);
    assert.equal(isFailedBuild(failed), true);
    assert.match(failed.errorText ?? '', /spend_usd/);
    const pods = (await c.ops.listPods(3)).items;
    const crashing = pods.find((p) => p.status === 'CrashLoopBackOff');
    assert.ok(crashing);
    const logs = await c.ops.getLogs(3, { pod: crashing.name, first: 5 });
    assert.ok(logs.items.length > 0 && logs.items.every((l) => l.pod === crashing.name));
    assert.ok(logs.items.some((l) => l.message.includes('spend_usd')));
    const current = (await c.ops.listVersions(3)).items.filter((v) => v.isCurrent);
    assert.deepEqual(
      current.map((v) => [v.version, v.releaseChannelVersion, v.releaseChannel]),
      [['1.1.18', 'v1.1.18', 'release']],
      'the version a deployment runs, with its release tag and channel',
    );
    // Follow: the end cursor reads only what came after.
    const tail = await c.ops.getLogs(1, { first: 3 });
    await new Promise((r) => setTimeout(r, 1100));
    const next = await c.ops.getLogs(1, { after: tail.pageInfo!.endCursor!, first: 50 });
    assert.ok(next.items.length >= 1, 'a new line a second');
    assert.ok(!next.items.some((l) => tail.items.some((t) => t.date === l.date && t.pod === l.pod)));
  });

  it('creates an environment token and lists it; an environment without a numeric id is refused', async () => {
    const envs = (await c.listEnvironments(1)).items;
    const prod = envs.find((e) => e.type === 'production')!;
    const before = (await c.ops.listEnvironmentTokens(1, prod.id)).items.length;
    const t = await c.ops.createEnvironmentToken(1, prod.id, {
      security_context: { role: 'x' },
      expires_in: 60,
    });
    assert.equal(t.token.split('.').length, 3, 'a JWT');
    assert.deepEqual(t.security_context, { role: 'x' });
    assert.equal((await c.ops.listEnvironmentTokens(1, prod.id)).items.length, before + 1);
    // An expiry outside 1 to 3600 seconds is refused before anything is minted.
    await assert.rejects(
      c.ops.createEnvironmentToken(1, prod.id, { security_context: { role: 'x' }, expires_in: 7200 }),
      (e: unknown) => e instanceof ApiError && e.kind === 'validation' && /Token not created/.test(e.message),
    );
    assert.equal((await c.ops.listEnvironmentTokens(1, prod.id)).items.length, before + 1);
    await assert.rejects(
      c.ops.listEnvironmentTokens(1, 'env-abc'),
      (e: unknown) => e instanceof ApiError && e.kind === 'validation',
    );
  });
});
