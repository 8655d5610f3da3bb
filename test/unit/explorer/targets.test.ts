// Where an explorer command's subject comes from (src/explorer/targets.ts): the clicked node, an
// arguments object, the view's selection, and only when all are missing a pick over the server's
// first page, with names and ids as the user reads them; a deployment with nothing to pick says so
// by name. Plain Node with the tree's stand-in for `vscode` and a recording client.
import assert from 'node:assert/strict';
import type * as TargetsModule from '../../../src/explorer/targets';
import type * as TypesModule from '../../../src/explorer/nodes/types';
import { ScriptedPrompter } from '../../../src/ui/prompter';
import { useTreeStandIn, type TreeStub } from './treeStandIn';

type Item = Record<string, unknown>;

describe('explorer: the subject of a command (node, arguments, selection, pick)', () => {
  let standIn: { uninstall(): void };
  const stub: TreeStub = { settings: {} };
  let T: typeof TargetsModule;
  let Types: typeof TypesModule;

  before(() => {
    standIn = useTreeStandIn(() => stub);
    /* eslint-disable @typescript-eslint/no-require-imports */
    T = require('../../../src/explorer/targets') as typeof TargetsModule;
    Types = require('../../../src/explorer/nodes/types') as typeof TypesModule;
    /* eslint-enable @typescript-eslint/no-require-imports */
  });
  after(() => standIn.uninstall());

  /** A node of `kind` showing `data`, under `parent` (deploymentId from the nearest deployment). */
  function node(
    kind: TypesModule.NodeKind,
    data: Item | undefined,
    parent?: TypesModule.ExplorerNode,
    dep?: number,
  ) {
    class N extends Types.ExplorerNode {
      readonly kind = kind;
      override get data() {
        return data;
      }
      override get deploymentId() {
        return dep ?? super.deploymentId;
      }
      toTreeItem(): never {
        throw new Error('not rendered here');
      }
    }
    return new N(`${kind}:${String(data?.['id'])}`, parent);
  }

  interface Calls {
    calls: string[];
  }
  function client(o: {
    deployments?: Item[];
    reports?: Item[];
    notifications?: Item[];
    workbooks?: Item[];
    deploymentName?: string | Error;
  }): Calls & Record<string, unknown> {
    const calls: string[] = [];
    return {
      calls,
      listDeployments: async (p: unknown) => (
        calls.push(`listDeployments ${JSON.stringify(p)}`),
        { items: o.deployments ?? [] }
      ),
      getDeployment: async (id: number) => {
        calls.push(`getDeployment ${id}`);
        if (o.deploymentName instanceof Error) throw o.deploymentName;
        return { id, name: o.deploymentName ?? 'Analytics' };
      },
      listReports: async (d: number, p: unknown) => (
        calls.push(`listReports ${d} ${JSON.stringify(p)}`),
        { items: o.reports ?? [] }
      ),
      listWorkbooks: async (d: number, p: unknown) => (
        calls.push(`listWorkbooks ${d} ${JSON.stringify(p)}`),
        { items: o.workbooks ?? [] }
      ),
      listNotifications: async (d: number, p: unknown) => (
        calls.push(`listNotifications ${d} ${JSON.stringify(p)}`),
        { items: o.notifications ?? [] }
      ),
    };
  }
  function ctx(c: Record<string, unknown>, answers: string[] = [], selection?: TypesModule.ExplorerNode) {
    const prompter = new ScriptedPrompter(answers);
    return {
      prompter,
      ctx: { client: async () => c as never, prompter: () => prompter, selection: () => selection },
    };
  }

  it('asArgs reads an arguments object, never a node; ancestor finds the nearest node of a kind', () => {
    const dep = node('deployment', { id: 4 }, undefined, 4);
    const folder = node('folder', { id: 9 }, dep);
    const report = node('report', { id: 12 }, folder);
    assert.deepEqual(T.asArgs(report), {});
    assert.deepEqual(T.asArgs(undefined), {});
    assert.deepEqual(T.asArgs({ reportId: 3 }), { reportId: 3 });
    assert.equal(T.asNode(report), report);
    assert.equal(T.asNode({ reportId: 3 }), undefined);
    assert.equal(T.ancestor(report, 'deployment'), dep);
    assert.equal(T.ancestor(report, 'report'), report);
    assert.equal(T.ancestor(report, 'workbook'), undefined);
    assert.equal(report.deploymentId, 4, 'a node’s deployment is its parents’');
  });

  it('the deployment: the node’s, the argument’s, the selection’s, the only one, else picked by name', async () => {
    const dep = node('deployment', { id: 4 }, undefined, 4);
    const one = client({ deployments: [{ id: 7, name: 'Only' }] });
    assert.equal(await T.resolveDeploymentId(ctx(one).ctx, node('report', { id: 1 }, dep)), 4);
    assert.equal(await T.resolveDeploymentId(ctx(one, [], dep).ctx, { deploymentId: '5' }), 5);
    assert.equal(await T.resolveDeploymentId(ctx(one, [], dep).ctx, {}), 4, 'the selection');
    assert.equal(await T.resolveDeploymentId(ctx(one).ctx, undefined), 7, 'the only deployment, not asked');
    assert.deepEqual(one.calls, ['listDeployments {"first":200}']);
    const many = client({
      deployments: [
        { id: 1, name: 'Analytics' },
        { id: 2, name: 'Analytics (Production)' },
      ],
    });
    const { ctx: c, prompter } = ctx(many, ['Analytics (Production)']);
    assert.equal(await T.resolveDeploymentId(c, undefined), 2);
    assert.deepEqual(prompter.asked, ['Deployment']);
    assert.deepEqual(prompter.rows.get('Deployment'), [
      { label: 'Analytics', description: '#1', detail: undefined },
      { label: 'Analytics (Production)', description: '#2', detail: undefined },
    ]);
  });

  it('an item: the clicked node (or the node it is under), the id given, the selection, else picked', async () => {
    const dep = node('deployment', { id: 4 }, undefined, 4);
    const report = node('report', { id: 12, name: 'Revenue' }, dep);
    const c = client({});
    const r1 = await T.resolveItem(ctx(c).ctx, report, 'report', 'reportId', T.listFirst.reports);
    assert.deepEqual(r1, { deploymentId: 4, item: { id: 12, name: 'Revenue' }, node: report });
    const child = node('recipient', { id: 99 }, node('notification', { id: 5 }, dep));
    const r2 = await T.resolveItem(
      ctx(c).ctx,
      child,
      'notification',
      'notificationId',
      T.listFirst.notifications,
    );
    assert.deepEqual(r2.item, { id: 5 });
    const r3 = await T.resolveItem(
      ctx(c).ctx,
      { deploymentId: 3, reportId: '44' },
      'report',
      'reportId',
      T.listFirst.reports,
    );
    assert.deepEqual(r3, { deploymentId: 3, item: { id: 44 } });
    const r4 = await T.resolveItem(
      ctx(c, [], report).ctx,
      undefined,
      'report',
      'reportId',
      T.listFirst.reports,
    );
    assert.equal(r4.node, report, 'the selection');
    assert.deepEqual(c.calls, [], 'nothing fetched');
  });

  it('picked from the first page: names, ids, a notification’s dashboard; the list asked with 200 a page', async () => {
    const c = client({
      deployments: [{ id: 1, name: 'Analytics' }],
      reports: [
        { id: 10, name: 'Revenue' },
        { id: 11, title: 'Untitled <b>', name: '' },
      ],
      notifications: [
        { id: 100, humanReadableSchedule: 'Every day at 09:00', dashboardId: 1005 },
        { id: 101, humanReadableSchedule: 'Every hour at minute 5', dashboardId: 1006 },
      ],
      // Dashboard 1005 is the workbook 7's published dashboard; 1006 is on no workbook listed.
      workbooks: [{ id: 7, name: 'Sales <i>', publishedDashboard: { id: 1005, title: 'Sales board' } }],
    });
    const a = ctx(c, ['Revenue']);
    const r = await T.resolveItem(a.ctx, undefined, 'report', 'reportId', T.listFirst.reports);
    assert.deepEqual(r, { deploymentId: 1, item: { id: 10, name: 'Revenue' } });
    assert.deepEqual(a.prompter.asked, ['Report']);
    assert.deepEqual(
      a.prompter.rows.get('Report')!.map((x) => [x.label, x.description]),
      [
        ['Revenue', '#10'],
        ['Untitled <b>', '#11'],
      ],
    );
    const b = ctx(c, ['Every day at 09:00']);
    const n = await T.resolveItem(
      b.ctx,
      undefined,
      'notification',
      'notificationId',
      T.listFirst.notifications,
    );
    assert.equal(n.item['id'], 100);
    assert.deepEqual(
      b.prompter.rows.get('Notification')!.map((x) => x.description),
      ['#100 · Sales board', '#101 · dashboard #1006'],
    );
    assert.deepEqual(c.calls, [
      'listDeployments {"first":200}',
      'listReports 1 {"first":200}',
      'listDeployments {"first":200}',
      'listNotifications 1 {"first":200}',
      'listWorkbooks 1 {"first":100}',
    ]);
  });

  it('nothing to pick: says which deployment has none, by name (or “This deployment”)', async () => {
    const c = client({ deployments: [{ id: 1, name: 'Analytics' }] });
    await assert.rejects(
      T.resolveItem(ctx(c).ctx, undefined, 'workbook', 'workbookId', T.listFirst.workbooks),
      {
        message: '"Analytics" has no workbooks.',
      },
    );
    const broken = client({ deployments: [{ id: 1 }], deploymentName: new Error('gone') });
    await assert.rejects(
      T.resolveItem(ctx(broken).ctx, undefined, 'report', 'reportId', T.listFirst.reports),
      {
        message: 'This deployment has no reports.',
      },
    );
    assert.equal(
      await T.deploymentLabel(ctx(client({ deploymentName: 'A\u202Eb' })).ctx, 1),
      '"Ab"',
      'plain text',
    );
  });

  it('the list node of a kind under a deployment shown in the tree', () => {
    assert.equal(T.listNodeOf([], 1, 'reports'), undefined);
    assert.equal(T.deploymentNodeOf(undefined), undefined);
    assert.equal(
      T.deploymentNodeOf(node('report', { id: 1 }, node('deployment', { id: 2 }, undefined, 2))),
      undefined,
      'not a DeploymentNode',
    );
  });
});
