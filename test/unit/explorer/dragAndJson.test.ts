// Two small pieces of the explorer users rely on, on a real tree of the sandbox in plain Node:
// drag and drop in the workspace (only items of the deployment's own workspace move, only onto a
// folder or the workspace root of the same deployment, nothing moves onto itself or where it
// already is) and the read-only JSON documents of server objects (pretty-printed, updated in
// place only while open, a forgotten one says so).
import assert from 'node:assert/strict';
import { PlatformClient } from '../../../src/api';
import { startSandbox, type SandboxHandle } from '../../../src/sandbox';
import type * as ProviderModule from '../../../src/explorer/explorerProvider';
import type * as DndModule from '../../../src/explorer/dragAndDrop';
import type * as JsonModule from '../../../src/explorer/jsonDocumentProvider';
import type { ExplorerNode } from '../../../src/explorer/nodes/types';
import { useTreeStandIn, type TreeStub } from './treeStandIn';

describe('explorer: drag and drop in the workspace, read-only JSON documents', function () {
  this.timeout(60_000);
  let sb: SandboxHandle;
  let stub: TreeStub;
  let standIn: { uninstall(): void };
  let P: typeof ProviderModule;
  let Dnd: typeof DndModule;
  let J: typeof JsonModule;
  let p: ProviderModule.ExplorerProvider;

  before(async () => {
    stub = { settings: {} };
    standIn = useTreeStandIn(() => stub);
    /* eslint-disable @typescript-eslint/no-require-imports */
    P = require('../../../src/explorer/explorerProvider') as typeof ProviderModule;
    Dnd = require('../../../src/explorer/dragAndDrop') as typeof DndModule;
    J = require('../../../src/explorer/jsonDocumentProvider') as typeof JsonModule;
    /* eslint-enable @typescript-eslint/no-require-imports */
    sb = await startSandbox({});
    const client = new PlatformClient({ baseUrl: sb.urls.platform, token: async () => sb.tokens.admin });
    p = new P.ExplorerProvider(async () => client as never);
  });
  after(async () => {
    p?.dispose();
    await sb?.close();
    standIn.uninstall();
  });
  beforeEach(() => {
    stub.warnings = [];
    stub.commands = [];
  });

  async function kids(n: ExplorerNode | undefined): Promise<ExplorerNode[]> {
    return p.getChildren(n);
  }
  async function find(
    n: ExplorerNode | undefined,
    pred: (k: ExplorerNode) => boolean,
  ): Promise<ExplorerNode> {
    const hit = (await kids(n)).find(pred);
    assert.ok(hit, `a child of ${n?.id ?? 'the root'}`);
    return hit;
  }
  const named = (kind: string, name: string) => (k: ExplorerNode) =>
    k.kind === kind && (k.data as { name?: string } | undefined)?.name === name;
  async function deployment(id: number): Promise<ExplorerNode> {
    const deployments = await find(undefined, (k) => k.id === 'deployments');
    return find(deployments, (k) => k.id === `deployments/deployment:${id}`);
  }
  async function list(dep: ExplorerNode, id: string): Promise<ExplorerNode> {
    return find(dep, (k) => k.id === `${dep.id}/${id}`);
  }

  async function drag(nodes: ExplorerNode[], onto: ExplorerNode | undefined): Promise<void> {
    const dnd = new Dnd.WorkspaceDragAndDrop();
    const vscode = require('vscode') as { DataTransfer: new () => unknown }; // eslint-disable-line @typescript-eslint/no-require-imports
    const data = new vscode.DataTransfer() as { get(m: string): { value: ExplorerNode[] } | undefined };
    dnd.handleDrag(nodes, data as never);
    await dnd.handleDrop(onto, data as never);
  }

  it('workspace items move onto a folder of the same deployment: one move command with exactly them', async () => {
    const dep = await deployment(1);
    const ws = await list(dep, 'workspace');
    const finance = await find(ws, named('folder', 'Finance'));
    const sales = await find(ws, named('folder', 'Sales'));
    const reports = (await kids(sales)).filter((k) => k.kind === 'report').slice(0, 2);
    const workbook = (await kids(sales)).find((k) => k.kind === 'workbook')!;
    assert.equal(reports.length, 2);
    assert.ok(workbook);
    await drag([...reports, workbook], finance);
    assert.deepEqual(
      stub.commands!.map((c) => c.command),
      ['dashboardPlatform.explorer.moveItems'],
    );
    const arg = stub.commands![0]!.args[0] as { nodes: ExplorerNode[]; target: ExplorerNode };
    assert.deepEqual(arg.nodes, [...reports, workbook]);
    assert.equal(arg.target, finance);
    // Onto a report: it lands in the report's folder; onto the root list: the root.
    stub.commands = [];
    const financeReport = (await kids(finance)).find((k) => k.kind === 'report')!;
    await drag([reports[0]!], financeReport);
    assert.equal((stub.commands![0]!.args[0] as { target: ExplorerNode }).target, finance);
    stub.commands = [];
    await drag([reports[0]!], ws);
    assert.equal((stub.commands![0]!.args[0] as { target: ExplorerNode }).target, ws);
    assert.deepEqual(stub.warnings, []);
  });

  it('nothing moves onto itself, where it already is, outside a workspace, or from a flat list', async () => {
    const dep = await deployment(1);
    const ws = await list(dep, 'workspace');
    const sales = await find(ws, named('folder', 'Sales'));
    const report = (await kids(sales)).find((k) => k.kind === 'report')!;
    await drag([sales], sales);
    await drag([report], sales);
    await drag([report], await list(dep, 'reports'));
    await drag([report], dep);
    await drag([report], undefined);
    const flat = (await kids(await list(dep, 'reports'))).find((k) => k.kind === 'report')!;
    assert.equal(Dnd.isMovable(flat), false, 'a flat list is no place');
    await drag([flat], sales);
    const shared = await list(dep, 'sharedWorkspace');
    const sharedFolder = (await kids(shared)).find((k) => k.kind === 'folder')!;
    assert.equal(Dnd.isMovable(sharedFolder), false, 'the shared workspace is not the user’s');
    assert.equal(Dnd.dropPlace(sharedFolder), undefined);
    assert.deepEqual(stub.commands, []);
    assert.deepEqual(stub.warnings, []);
    assert.equal(Dnd.isMovable(report), true);
    assert.equal(Dnd.dropPlace(ws), ws);
  });

  it('items of one deployment do not move into another’s workspace: a warning, no command', async () => {
    const one = await list(await deployment(1), 'workspace');
    const two = await list(await deployment(2), 'workspace');
    const report = (await kids(await find(one, named('folder', 'Sales')))).find((k) => k.kind === 'report')!;
    await drag([report], two);
    assert.deepEqual(stub.warnings, ['Items move only within the workspace of their own deployment.']);
    assert.deepEqual(stub.commands, []);
  });

  it('a server object opens read-only as pretty JSON, titled safely; an open one updates in place, a closed one does not', async () => {
    const json = new J.JsonDocumentProvider();
    const changed: string[] = [];
    json.onDidChange((u) => changed.push(u.toString()));
    stub.opened = [];
    stub.shown = [];
    const doc = await json.show('report:1:10', 'Revenue / Q1 <draft>', { id: 10, name: 'Revenue' });
    assert.equal(doc.languageId, 'json');
    const uri = doc.uri.toString();
    assert.equal(uri, `${J.JSON_SCHEME}:/Revenue-Q1-draft.json?report:1:10`);
    assert.deepEqual(stub.opened, [uri]);
    assert.deepEqual(
      stub.shown!.map((s) => s.options),
      [{ preview: true }],
    );
    assert.equal(
      json.provideTextDocumentContent(doc.uri as never),
      '{\n  "id": 10,\n  "name": "Revenue"\n}\n',
    );
    assert.deepEqual(changed, [], 'first shown: no change event');
    // Not open in the editor: an update is not applied.
    stub.documents = [];
    assert.equal(json.isOpen('report:1:10'), false);
    assert.equal(json.update('report:1:10', { id: 10, name: 'Renamed' }), false);
    assert.match(json.provideTextDocumentContent(doc.uri as never), /"Revenue"/);
    // Open: updated in place, with a change event.
    stub.documents = [{ uri: doc.uri }];
    assert.equal(json.isOpen('report:1:10'), true);
    assert.equal(json.update('report:1:10', { id: 10, name: 'Renamed' }), true);
    assert.match(json.provideTextDocumentContent(doc.uri as never), /"Renamed"/);
    assert.deepEqual(changed, [uri]);
    assert.equal(json.update('report:1:99', {}), false, 'never shown');
    const odd = await json.show('x', '***', 1);
    assert.equal(odd.uri.toString(), `${J.JSON_SCHEME}:/object.json?x`);
    json.dispose();
    assert.equal(
      json.provideTextDocumentContent(doc.uri as never),
      '// This object is no longer loaded. Open it again from the explorer.\n',
    );
  });

  it('“Load more” asks for the page after the last row shown: no row twice, none skipped', async () => {
    stub.settings['dashboardPlatform.explorer.pageSize'] = 20;
    p.refresh();
    const reports = await list(await deployment(1), 'reports');
    const first = await kids(reports);
    assert.equal(first.filter((k) => k.kind === 'report').length, 20);
    assert.equal(first.at(-1)!.kind, 'loadMore');
    await (reports as unknown as { loadMore(): Promise<void> }).loadMore();
    const second = (await kids(reports)).filter((k) => k.kind === 'report');
    assert.equal(second.length, 40);
    assert.deepEqual(
      second.slice(0, 20).map((k) => k.id),
      first.filter((k) => k.kind === 'report').map((k) => k.id),
    );
    assert.equal(new Set(second.map((k) => k.id)).size, 40, 'no report twice');
    delete stub.settings['dashboardPlatform.explorer.pageSize'];
  });

  it('the view’s description names the searches and filters in force, by deployment (the sandbox lists three)', async () => {
    p.refresh();
    const one = (await deployment(1)) as unknown as {
      list(k: string): { setSpec(s: object): void; listSpec: object };
    };
    // A deployment's list is there before the deployment is expanded.
    const reports = one.list('reports');
    assert.equal((reports.listSpec as { kind: string }).kind, 'reports');
    assert.equal(p.description(), undefined);
    reports.setSpec({ ...reports.listSpec, reportQuery: { search: 'revenue' } });
    assert.equal(p.description(), 'Analytics: reports search "revenue"');
    const notifications = one.list('notifications');
    notifications.setSpec({
      ...notifications.listSpec,
      notificationFilter: { dashboardId: 1001 },
      notificationFilterText: 'Revenue Dashboard',
    });
    assert.equal(
      p.description(),
      'Analytics: reports search "revenue" · Analytics: notifications Revenue Dashboard',
    );
    p.refresh();
  });

  it('a workspace item of a type this version does not know is shown as sent, marked', async () => {
    const dep = await deployment(1);
    const ws = (await list(dep, 'workspace')) as unknown as {
      makeItem: (l: unknown, item: object) => ExplorerNode;
    };
    const odd = ws.makeItem(ws, { id: 5, type: 'CANVAS', name: 'Board' });
    const t = odd.toTreeItem() as unknown as {
      label: string;
      description: string;
      contextValue: string;
      tooltip: { value: string };
    };
    assert.equal(odd.kind, 'info');
    assert.equal(t.label, 'Board');
    assert.equal(t.description, 'CANVAS');
    assert.equal(t.contextValue, 'dp.wsUnknown');
    assert.match(t.tooltip.value, /type: CANVAS/);
  });

  it('refreshing the whole tree starts over: new lists, one change event for all, the view description', async () => {
    const before = p.roots.deployments;
    await kids(before);
    assert.equal(before.paging.snapshot().status, 'ready', 'the deployments were listed');
    const events: unknown[] = [];
    const descriptions: unknown[] = [];
    p.onDidChangeTreeData((n) => events.push(n));
    p.onDidChangeDescription((d) => descriptions.push(d));
    p.refresh();
    assert.notEqual(p.roots.deployments, before);
    assert.deepEqual(events, [undefined]);
    assert.deepEqual(descriptions, [undefined]);
    assert.equal(before.paging.snapshot().status, 'idle', 'the old lists were reset');
  });
});
