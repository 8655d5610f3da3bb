// The edges of the deployment flows that the first mutation run left open (docs/mutation-triage.md,
// "deployments"): arguments sent trimmed, production confirmations naming the write, a failure
// never taken for a cancel, Cancel in a notification stopping a follow, rows refreshed only where
// the tree shows the deployment, and a run this window asked to cancel that completed anyway.
import assert from 'node:assert/strict';
import { ApiError } from '../../../src/api';
import { dbtEnd } from '../../../src/deployments/dbtOutcome';
import type * as DbtModule from '../../../src/deployments/dbtFlows';
import type * as EnvModule from '../../../src/deployments/envFlows';
import type * as ExportModule from '../../../src/deployments/exportFlow';
import type * as HealthModule from '../../../src/deployments/healthFlows';
import type * as ManageModule from '../../../src/deployments/manageFlows';
import { loadOps, opsWorld, recorder, reset, standIn, treeNode, type World } from './opsStandIn';

/* eslint-disable @typescript-eslint/no-require-imports */
const load = () => ({
  ...loadOps(),
  ...(require('../../../src/deployments/dbtFlows') as typeof DbtModule),
  ...(require('../../../src/deployments/envFlows') as typeof EnvModule),
  ...(require('../../../src/deployments/exportFlow') as typeof ExportModule),
  ...(require('../../../src/deployments/healthFlows') as typeof HealthModule),
  ...(require('../../../src/deployments/manageFlows') as typeof ManageModule),
});
/* eslint-enable @typescript-eslint/no-require-imports */

describe('deployments: edges of the flows', () => {
  let m: ReturnType<typeof load>;
  let restore: () => void;
  before(() => ({ modules: m, restore } = standIn(load)));
  after(() => restore());

  function world(
    ops: Record<string, (...a: never[]) => unknown>,
    extra: Record<string, unknown> = {},
    w: World = {},
  ) {
    const shown = reset();
    const calls: string[] = [];
    const client = { ops: recorder(calls, ops), getDeployment: async () => ({ name: 'Revenue' }), ...extra };
    const x = opsWorld(m, client, w);
    return { ...x, shown, calls };
  }

  it('dbt: a branch given as an argument is sent trimmed; the production question names the cancel', async () => {
    const x = world(
      {},
      {
        startDbtSync: async (_d: number, b: unknown) => (x.calls.push(JSON.stringify(b)), { syncJobId: 'r' }),
        getDbtSyncJob: async () => ({ status: 'COMPLETED' }),
      },
    );
    ((await x.ops.client()) as unknown as { ops: Record<string, unknown> }).ops['getDbtSyncLogs'] =
      async () => [];
    await new m.DbtFlows(x.ops, new m.GeneratedFiles()).start({ deploymentId: 2, branchName: ' dev ' });
    assert.deepEqual(x.calls, ['{"branchName":"dev"}']);
    // Deployment 2 is not in the tree: nothing to refresh, nothing thrown.
    assert.deepEqual(x.refreshed, []);
    const c = world(
      { listDbtSyncs: () => ({ items: [] }), cancelDbtSync: () => ({}) },
      {},
      { production: true },
    );
    // A run named but not listed (yet) is taken as running, by that id.
    await new m.DbtFlows(c.ops, new m.GeneratedFiles()).cancel({ deploymentId: 1, syncJobId: 'zz' });
    assert.deepEqual(c.confirmed, ['Cancel the dbt sync of branch ? on "Revenue"']);
    assert.deepEqual(c.calls, ['listDbtSyncs(1, {"first":50})', 'cancelDbtSync(1, "zz")']);
    const other = world({
      listDbtSyncs: () => ({
        items: [
          { syncJobId: 'a', status: 'RUNNING', branchName: 'x' },
          { syncJobId: 'b', status: 'RUNNING', branchName: 'y' },
        ],
      }),
      cancelDbtSync: () => ({}),
    });
    await new m.DbtFlows(other.ops, new m.GeneratedFiles()).cancel({ deploymentId: 1, syncJobId: 'b' });
    assert.deepEqual(
      other.confirmations[0]?.split(' | ')[0],
      'Cancel the dbt sync of branch y on "Revenue"?',
    );
  });

  it('dbt: a read that fails after the user stopped following ends quietly; before, it is the error', async () => {
    const shownRef: { s?: ReturnType<typeof reset> } = {};
    const x = world(
      { getDbtSyncLogs: () => [] },
      {
        getDbtSyncJob: async () => {
          shownRef.s?.progressSource?.cancel();
          throw new Error('aborted');
        },
      },
    );
    shownRef.s = x.shown;
    const flows = new m.DbtFlows(x.ops, new m.GeneratedFiles());
    assert.equal((await flows.follow(1, 'r', 'dev')).status, 'RUNNING');
    assert.equal(
      x.ops.transcripts.get('Dashboard Platform: dbt sync')?.at(-1),
      '── stopped following (the sync goes on) ──',
    );
    const y = world(
      { getDbtSyncLogs: () => [] },
      { getDbtSyncJob: async () => Promise.reject(new Error('Server error.')) },
    );
    await assert.rejects(new m.DbtFlows(y.ops, new m.GeneratedFiles()).follow(1, 'r', 'dev'), /Server error/);
  });

  it('dbt: a run this window asked to cancel that completed anyway is said completed', () => {
    const end = dbtEnd({ status: 'COMPLETED' }, '"R"', true, 'ch');
    assert.deepEqual(end, { job: { status: 'COMPLETED' }, line: '── COMPLETED ──' });
  });

  it('logs: Cancel in the notification stops the follow; a read failing after it is not an error', async () => {
    const shownRef: { s?: ReturnType<typeof reset> } = {};
    let reads = 0;
    const x = world({
      getLogs: () => {
        reads++;
        shownRef.s?.progressSource?.cancel();
        if (reads > 1) throw new Error('aborted');
        return { items: [{ message: 'one' }] };
      },
    });
    shownRef.s = x.shown;
    const health = new m.HealthFlows(x.ops);
    assert.equal(await health.follow({ deploymentId: 1 }), 1);
    assert.equal(reads, 1, 'the cancel is seen before another read');
    assert.equal(health.stopFollowing(), 0);
    // A read the cancel aborts fails as it ends: that is the stop, not an error.
    const aborted = world({
      getLogs: () => {
        aborted.shown.progressSource?.cancel();
        throw new Error('aborted');
      },
    });
    assert.equal(await new m.HealthFlows(aborted.ops).follow({ deploymentId: 1 }), 0);
    const failing = world({ getLogs: () => Promise.reject(new Error('Server error.')) });
    await assert.rejects(new m.HealthFlows(failing.ops).follow({ deploymentId: 1 }), /Server error/);
  });

  it('logs: closing the feature stops every follow', async () => {
    const x = world({ getLogs: () => ({ items: [] }) });
    const health = new m.HealthFlows(x.ops);
    const following = health.follow({ deploymentId: 1 });
    await new Promise((r) => setImmediate(r));
    health.dispose();
    assert.equal(await following, 0);
    assert.equal(
      x.ops.transcripts.get('Dashboard Platform: Deployment Logs')?.at(-1),
      '── stopped following logs of "Revenue" ──',
    );
  });

  it('export: a render that fails is the failure, not a cancel; a dashboard id names its own title', async () => {
    const x = world(
      { startDashboardExport: () => Promise.reject(new Error('Render failed.')) },
      {
        listWorkbooks: async () => ({
          items: [
            { id: 1, name: 'S', publishedDashboard: { id: 11, title: 'Sales' } },
            { id: 2, name: 'O', publishedDashboard: { id: 13, name: 'Ops KPIs' } },
            { id: 3, name: 'N', publishedDashboard: { id: 'x', title: 'Bad id' } },
          ],
        }),
      },
    );
    await assert.rejects(
      new m.ExportFlow(x.ops).exportDashboard({
        deploymentId: 1,
        dashboardId: 13,
        format: 'pdf',
        target: '/tmp/o.pdf',
      }),
      /^Error: Render failed\.$/,
    );
    assert.deepEqual(x.shown.progressTitles, ['Exporting "Ops KPIs" of "Revenue" as PDF']);
    assert.deepEqual(x.shown.written, []);
  });

  it('env: a variable on a deployment the tree does not show refreshes nothing; the selected row is used', async () => {
    const x = world(
      {
        setEnvVariables: () => ({}),
        createEnvironmentToken: () => Promise.reject(new ApiError('unknownOutcome', 'No answer.')),
      },
      {},
      {
        selection: treeNode('envVar', { name: 'SEL', value: 'v' }, 5),
        confirm: false,
        // Another deployment is in the tree: its lists are not the ones written to.
        shown: [{ deploymentId: 1, name: 'Other' }],
      },
    );
    const env = new m.EnvFlows(x.ops);
    await env.setEnvVar({ deploymentId: 2, name: 'A', value: 'v' });
    assert.deepEqual(x.refreshed, []);
    assert.equal(await env.revealEnvVar(), 'shown');
    assert.deepEqual(x.confirmations, ['SEL on "Revenue" | v | Copy to Clipboard']);
    const e = await env
      .createToken({ deploymentId: 2, environmentId: 'e', securityContext: {}, expiresIn: 5 })
      .then(
        () => undefined,
        (err: unknown) => err,
      );
    assert.ok(e instanceof ApiError && e.check?.command === 'dashboardPlatform.explorer.refresh', String(e));
    assert.deepEqual(x.refreshed, []);
  });

  it('manage: production names the deployment created; a region given is the one used; no GitHub app creates nothing', async () => {
    const calls: string[] = [];
    const build = recorder(calls, { createDeployment: () => ({ id: 9, name: 'R' }) });
    const regions = [
      { name: 'aws-1', provider: 'aws' },
      { name: 'gcp-1', provider: 'gcp' },
    ];
    const client = {
      admin: { listRegions: async () => ({ items: regions }) },
      getGithubStatus: async () => ({ connected: true, linkUrl: 'https://link' }),
      listGithubInstallations: async () => ({ items: [] }),
      ops: { getBuildStatus: async () => ({ status: 'SUCCESS' }) },
    };
    reset();
    const x = opsWorld(m, client, { production: true });
    const flows = new m.ManageFlows(x.ops, async () => build as never);
    await flows.createDeployment({ name: ' R ', region: 'gcp-1', source: 'starter' });
    assert.deepEqual(x.confirmed, ['Create the deployment "R"']);
    assert.match(calls[0]!, /"region":"gcp-1"/);
    // The Cube GitHub App installed nowhere: the link is offered (dismissed here), nothing created.
    assert.equal(await flows.createDeployment({ name: 'G', region: 'aws-1', source: 'github' }), undefined);
    assert.equal(calls.length, 1);
    const s = reset();
    assert.equal(await flows.connectRepository({ deploymentId: 9 }), false);
    assert.deepEqual(s.external, [], 'dismissed: nothing opened');
    const noLink = { ...client, getGithubStatus: async () => ({ connected: false }) };
    const y = opsWorld(m, noLink, {});
    const shown = reset();
    await new m.ManageFlows(y.ops, async () => build as never).connectRepository({ deploymentId: 9 });
    assert.deepEqual(
      shown.messages,
      ['warning (modal): GitHub is not linked to your account'],
      'no page to offer: no button',
    );
  });

  it('manage: deleting on production asks for the name typed, under a progress naming it', async () => {
    const shown = reset();
    const calls: string[] = [];
    const client = recorder(calls, {
      getDeployment: () => ({ name: 'Revenue' }),
      deleteDeployment: () => ({ success: true }),
    });
    const x = opsWorld(m, client, { production: true, answers: ['Revenue'] });
    await new m.ManageFlows(x.ops, async () => undefined as never).deleteDeployment({ deploymentId: 9 });
    assert.deepEqual(x.questions, [
      'input Production: confirm by typing the deployment name | Type "Revenue" to delete it | value=',
    ]);
    assert.deepEqual(shown.progressTitles, ['Deleting the deployment "Revenue"…']);
    assert.deepEqual(calls, ['getDeployment(9)', 'deleteDeployment(9)']);
  });
});
