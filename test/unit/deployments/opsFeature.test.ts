// The deployment operations as the extension wires them, in plain Node (the stand-in of
// opsStandIn.ts): every command id reaches its flow with its argument; what the flows share
// (the deployment's name from the tree or the server, output channels written redacted, the pause
// and abort that follow a cancellation); and the flows started from a clicked tree row.
import assert from 'node:assert/strict';
import type * as DbtModule from '../../../src/deployments/dbtFlows';
import type * as FeatureModule from '../../../src/deployments/deploymentsFeature';
import type * as EnvModule from '../../../src/deployments/envFlows';
import type * as ExportModule from '../../../src/deployments/exportFlow';
import type * as HealthModule from '../../../src/deployments/healthFlows';
import type * as OpsModule from '../../../src/deployments/opsContext';
import type * as ListNodeModule from '../../../src/explorer/nodes/listNode';
import { loadOps, opsWorld, recorder, reset, standIn, treeNode } from './opsStandIn';

/* eslint-disable @typescript-eslint/no-require-imports */
const load = () => ({
  ...loadOps(),
  ...(require('../../../src/deployments/opsContext') as typeof OpsModule),
  ...(require('../../../src/deployments/deploymentsFeature') as typeof FeatureModule),
  ListNode: (require('../../../src/explorer/nodes/listNode') as typeof ListNodeModule).ListNode,
  ...(require('../../../src/deployments/envFlows') as typeof EnvModule),
  ...(require('../../../src/deployments/healthFlows') as typeof HealthModule),
  ...(require('../../../src/deployments/exportFlow') as typeof ExportModule),
  ...(require('../../../src/deployments/dbtFlows') as typeof DbtModule),
});
/* eslint-enable @typescript-eslint/no-require-imports */

describe('deployments: the feature, its shared context and tree rows', () => {
  let m: ReturnType<typeof load>;
  let restore: () => void;
  before(() => ({ modules: m, restore } = standIn(load)));
  after(() => restore());

  it('registers every command on its flow, passing the argument through', async () => {
    const shown = reset();
    const host = {
      services: {
        log: { redact: (l: string) => l, error: () => undefined, debug: () => undefined },
        clients: {},
      },
      view: { selection: [] },
      json: {},
      provider: () => ({}),
      prompterOverride: () => undefined,
    };
    const { feature, disposables } = m.createDeploymentsFeature(host as never);
    const calls: string[] = [];
    const spy = (flow: Record<string, unknown>, name: string, method: string) =>
      (flow[method] = async (a: unknown) => void calls.push(`${name}.${method} ${JSON.stringify(a)}`));
    const table: [string, Record<string, unknown>, string, string][] = [
      ['explorer.dbtSync', feature.dbt as never, 'dbt', 'start'],
      ['explorer.dbtShowLogs', feature.dbt as never, 'dbt', 'showLogs'],
      ['explorer.dbtCancel', feature.dbt as never, 'dbt', 'cancel'],
      ['explorer.dbtOpenResult', feature.dbt as never, 'dbt', 'openResult'],
      ['explorer.dbtOpenGeneratedFiles', feature.dbt as never, 'dbt', 'openGeneratedFiles'],
      ['explorer.exportDashboard', feature.exports as never, 'exports', 'exportDashboard'],
      ['explorer.setEnvVar', feature.env as never, 'env', 'setEnvVar'],
      ['explorer.changeEnvVar', feature.env as never, 'env', 'changeEnvVar'],
      ['explorer.revealEnvVar', feature.env as never, 'env', 'revealEnvVar'],
      ['explorer.createEnvironmentToken', feature.env as never, 'env', 'createToken'],
      ['explorer.showBuildStatus', feature.health as never, 'health', 'showBuildStatus'],
      ['explorer.showDeploymentLogs', feature.health as never, 'health', 'showLogs'],
      ['explorer.followDeploymentLogs', feature.health as never, 'health', 'follow'],
      ['explorer.stopFollowingLogs', feature.health as never, 'health', 'stopFollowing'],
      ['explorer.createDeployment', feature.manage as never, 'manage', 'createDeployment'],
      ['explorer.connectGithub', feature.manage as never, 'manage', 'connectRepository'],
      ['explorer.editDeployment', feature.manage as never, 'manage', 'editDeployment'],
      ['explorer.deleteDeployment', feature.manage as never, 'manage', 'deleteDeployment'],
      ['explorer.showDeploymentSettings', feature.manage as never, 'manage', 'showSettings'],
      ['explorer.continueSetup', feature.manage as never, 'manage', 'continueSetup'],
    ];
    for (const [, flow, name, method] of table) spy(flow, name, method);
    const ids = [...shown.registered.keys()];
    assert.equal(ids.length, table.length, ids.join('\n'));
    assert.equal(
      disposables.length,
      table.length + 3,
      'the context, the health follows and the file provider too',
    );
    for (const [id, , name, method] of table) {
      const before = calls.length;
      await shown.registered.get(`dashboardPlatform.${id}`)?.({ deploymentId: 3 });
      const arg = method === 'stopFollowing' ? 'undefined' : '{"deploymentId":3}';
      assert.deepEqual(calls.slice(before), [`${name}.${method} ${arg}`], id);
    }
    assert.deepEqual(feature.transcript('none'), []);
  });

  it('names a deployment as the tree shows it, else as the server does, else "the deployment"', async () => {
    reset();
    let fails = false;
    const client = {
      getDeployment: async () => {
        if (fails) throw new Error('offline');
        return { name: 'Server\nname' };
      },
    };
    const x = opsWorld(m, client, { shown: [{ deploymentId: 1, name: 'Tree name' }] });
    assert.equal(await x.ops.deploymentName(1), '"Tree name"');
    assert.equal(await x.ops.deploymentName(2), '"Server name"');
    fails = true;
    assert.equal(await x.ops.deploymentName(2), 'the deployment');
  });

  it('writes lines redacted to one channel per name, keeps them for tests, disposes the channels', () => {
    const shown = reset();
    const x = opsWorld(m, {});
    x.ops.log.addSecret('tok123');
    x.ops.append('A', ['one tok123', 'two']);
    x.ops.append('A', ['three']);
    x.ops.channel('A').show(true);
    assert.deepEqual(shown.channels, ['A']);
    assert.deepEqual(x.ops.transcripts.get('A'), ['one ***', 'two', 'three']);
    x.ops.dispose();
    assert.deepEqual(shown.channelLog, [
      'A: one ***',
      'A: two',
      'A: three',
      'A shown (focus kept)',
      'A disposed',
    ]);
    x.ops.append('A', ['again']);
    assert.deepEqual(shown.channels, ['A', 'A'], 'a disposed channel is made anew');
  });

  it('a pause ends early, false, on cancellation; an abort signal follows its token', async () => {
    const listeners: (() => void)[] = [];
    const disposed: string[] = [];
    const token = {
      isCancellationRequested: false,
      onCancellationRequested: (l: () => void) => (
        listeners.push(l),
        { dispose: () => void disposed.push('sub') }
      ),
    };
    const waiting = m.pause(60_000, token as never);
    const abort = m.abortOn(token as never);
    assert.equal(abort.signal.aborted, false);
    token.isCancellationRequested = true;
    for (const l of listeners) l();
    assert.equal(await waiting, false);
    assert.equal(abort.signal.aborted, true);
    abort.dispose();
    assert.deepEqual(disposed, ['sub']);
    assert.equal(await m.pause(60_000, token as never), false, 'already cancelled: at once');
    assert.equal(m.abortOn(token as never).signal.aborted, true, 'already cancelled: aborted at once');
    assert.equal(await m.pause(1), true);
    const live = {
      isCancellationRequested: false,
      onCancellationRequested: () => ({ dispose: () => void disposed.push('done') }),
    };
    assert.equal(await m.pause(1, live as never), true);
    assert.deepEqual(disposed, ['sub', 'done'], 'a pause that ran out lets go of its token');
  });

  it('tree rows: an env variable, an environment (its list refreshed), a pod, a workbook, a dbt run', async () => {
    const shown = reset();
    const calls: string[] = [];
    const client = {
      getDeployment: async () => ({ name: 'Revenue' }),
      ops: recorder(calls, {
        createEnvironmentToken: () => ({ token: 't' }),
        getLogs: () => ({ items: [] }),
        startDashboardExport: () => ({ jobId: 'j' }),
        waitForDashboardExport: () => ({}),
        downloadDashboardExport: () => ({ bytes: new Uint8Array(1) }),
        getDbtSyncResult: () => ({ ok: true }),
      }),
    };
    const x = opsWorld(m, client, { confirm: false, answers: ['{}', '60', 'png'] });
    const dep = treeNode('deployment', { id: 4 }, 4);
    // An env variable row: its value shown, nothing listed.
    const env = new m.EnvFlows(x.ops);
    assert.equal(
      await env.revealEnvVar(treeNode('envVar', { name: 'API_URL', value: 'x' }, 4, dep)),
      'shown',
    );
    assert.deepEqual(x.confirmations, ['API_URL on "Revenue" | x | Copy to Clipboard']);
    // An environment row (a list in the tree): the token is for it, and its list is refreshed.
    const envRow = treeNode('environment', { id: 'e1', type: 'production' }, 4, dep, m.ListNode.prototype);
    await env.createToken(envRow);
    assert.deepEqual(calls.splice(0), [
      'createEnvironmentToken(4, "e1", {"security_context":{},"expires_in":60})',
    ]);
    assert.deepEqual(x.refreshed, [envRow]);
    // A pod row: its logs only.
    await new m.HealthFlows(x.ops).showLogs(treeNode('pod', { name: 'api-1' }, 4, dep));
    assert.deepEqual(calls.splice(0), ['getLogs(4, {"first":200,"pod":"api-1"})']);
    // A workbook row: its published dashboard, or why there is none.
    const exports = new m.ExportFlow(x.ops);
    shown.saveAs = '/tmp/sales.png';
    await exports.exportDashboard(
      treeNode(
        'workbook',
        { id: 1, name: 'Sales wb', publishedDashboard: { id: 11, title: 'Sales' } },
        4,
        dep,
      ),
    );
    assert.equal(calls[0], 'startDashboardExport(4, {"dashboardId":11,"format":"png"})');
    await assert.rejects(
      exports.exportDashboard(treeNode('workbook', { id: 2, name: 'Draft' }, 4, dep)),
      /^Error: Workbook Draft has no published dashboard: publish it first\.$/,
    );
    // A dbt run row: its result, without listing the runs.
    calls.splice(0);
    await new m.DbtFlows(x.ops, new m.GeneratedFiles()).openResult(
      treeNode('dbtSync', { syncJobId: 'r1' }, 4, dep),
    );
    assert.deepEqual(calls, ['getDbtSyncResult(4, "r1")']);
    assert.deepEqual(x.jsonShown.at(-1), {
      key: 'dbt-result:4:r1',
      name: 'dbt-sync-r1-result',
      value: { ok: true },
    });
  });
});
