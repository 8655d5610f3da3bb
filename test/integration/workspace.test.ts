// The workspace inside a real VS Code against the sandbox, driven as a user would: the tree as
// the platform shows it (folders first, paged, a click opens, in the flat Workbooks list too), folders created, renamed, moved by
// drag and drop and deleted several at once with one confirmation, reveal from the flat Reports
// list, reports (SQL open and saved back, create, refresh, Open in Notebook) and workbooks (create,
// slug, upsert by slug, embed access), each effect read back from the sandbox.
import assert from 'node:assert/strict';
import * as vscode from 'vscode';
import { screenshot, waitFor } from './harness';
import { deploymentNode } from './explorerTree';
import { explorerSuite, platformCall } from './sandboxSuite';

/* eslint-disable @typescript-eslint/no-explicit-any -- the nodes are the extension's own objects */
type Node = any;

const C = 'dashboardPlatform.explorer.';
const DEP = 1;

let ex: any;
let base: string;
let admin: string;

const platform = (path: string, init?: RequestInit) => platformCall(base, admin, path, init);

async function children(node?: Node): Promise<Node[]> {
  return ex.provider.getChildren(node);
}

const deployment = (id = DEP): Promise<Node> => deploymentNode(ex, id);

/** Every child of a list, following "Load more". */
async function all(node: Node): Promise<Node[]> {
  let kids = await children(node);
  for (;;) {
    const more = kids.find((n) => n.kind === 'loadMore');
    if (!more) return kids;
    await vscode.commands.executeCommand(`${C}loadMore`, more);
    kids = await children(node);
  }
}

/** Closes every editor without saving (a report's SQL opens as an untitled, unsaved document). */
async function closeEditors(): Promise<void> {
  for (let i = 0; i < 20 && vscode.window.tabGroups.all.some((g) => g.tabs.length > 0); i++)
    await vscode.commands.executeCommand('workbench.action.revertAndCloseActiveEditor');
}

async function workspace(): Promise<Node> {
  return (await deployment()).list('workspace');
}

async function child(list: Node, kind: string, name: string): Promise<Node> {
  const hit = (await all(list)).find((n) => n.kind === kind && n.data?.name === name);
  assert.ok(hit, `${kind} "${name}" under ${list.id}`);
  return hit;
}

describe('workspace', function () {
  this.timeout(180_000);

  explorerSuite((s) => ({ ex, base, admin } = s));

  it('shows the workspace as the platform does: folders first, each folder its items, rows with names and dates, a click opens', async () => {
    const root = (await all(await workspace())).filter((n) => n.kind !== 'empty');
    const served = (await platform(`/v1/deployments/${DEP}/workspace?first=200`)).body.items;
    assert.deepEqual(
      root.map((n) => n.data.name),
      served.map((i: any) => i.name),
      'the root as served, in order',
    );
    // Folders first; items other suites made at the root (a report pushed by its publicId) come after.
    const rootKinds = root.map((n) => n.kind);
    assert.equal(rootKinds[0], 'folder', 'the seeded root holds folders');
    const folders = rootKinds.filter((k) => k === 'folder').length;
    assert.equal(rootKinds.lastIndexOf('folder') + 1, folders, 'folders first');
    const finance = await child(await workspace(), 'folder', 'Finance');
    const inside = await all(finance);
    const kinds = inside.map((n) => n.kind);
    assert.ok(
      kinds.includes('folder') && kinds.includes('report') && kinds.includes('workbook'),
      kinds.join(),
    );
    assert.ok(kinds.lastIndexOf('folder') < kinds.indexOf('workbook'), 'folders come first');
    const report = inside.find((n) => n.kind === 'report');
    const row = report.toTreeItem();
    // The folder by name and a relative date, never `folder: 101` or an ISO date.
    const full = (await platform(`/v1/deployments/${DEP}/reports/${report.data.id}`)).body;
    // Under its folder the row says when it changed; its folder's path is in the tooltip.
    assert.match(String(row.description), / ago$/);
    assert.match(row.tooltip.value, /folder: Finance/);
    assert.doesNotMatch(row.tooltip.value, /folder: 1\d\d/);
    assert.match(row.tooltip.value, /UTC/);
    // A click opens the report's SQL in a SQL editor.
    assert.equal(row.command.command, `${C}openItem`);
    const doc: vscode.TextDocument = await vscode.commands.executeCommand(
      row.command.command,
      ...row.command.arguments,
    );
    assert.equal(doc.languageId, 'dashboard-platform-sql');
    assert.equal(doc.getText(), full.sqlQuery);
    // A workbook's click opens its dashboard.
    const wb = inside.find((n) => n.kind === 'workbook');
    const t = wb.toTreeItem();
    const dash: vscode.TextDocument = await vscode.commands.executeCommand(
      t.command.command,
      ...t.command.arguments,
    );
    assert.equal(JSON.parse(dash.getText()).workbook, wb.data.name);
    // So does a workbook of the deployment's flat Workbooks list (it once did nothing).
    await closeEditors();
    const flat = await child((await deployment()).list('workbooks'), 'workbook', wb.data.name);
    const ft = flat.toTreeItem();
    assert.equal(ft.command?.command, `${C}openItem`);
    const flatDash: vscode.TextDocument = await vscode.commands.executeCommand(
      ft.command.command,
      ...ft.command.arguments,
    );
    assert.equal(JSON.parse(flatDash.getText()).workbook, wb.data.name);
    await closeEditors();
  });

  it('creates and renames a folder, moves several items into it by drag and drop, and deletes them with one confirmation', async () => {
    ex.script(['Quarter close']);
    const folder: any = await vscode.commands.executeCommand(`${C}createFolder`, await workspace());
    assert.equal(folder.name, 'Quarter close');
    let node = await child(await workspace(), 'folder', 'Quarter close');
    ex.script(['Quarter close 2026']);
    await vscode.commands.executeCommand(`${C}renameItem`, node, [node]);
    assert.equal(
      (await platform(`/v1/deployments/${DEP}/folders/${folder.id}/ancestors`)).body[0].name,
      'Quarter close 2026',
    );
    node = await child(await workspace(), 'folder', 'Quarter close 2026');

    // Drag two reports of "Sales" onto the new folder.
    const sales = await child(await workspace(), 'folder', 'Sales');
    const reports = (await all(sales)).filter((n) => n.kind === 'report').slice(0, 2);
    assert.equal(reports.length, 2);
    const transfer = new vscode.DataTransfer();
    ex.dragAndDrop.handleDrag(reports, transfer);
    await ex.dragAndDrop.handleDrop(node, transfer);
    for (const r of reports) {
      const now = (await platform(`/v1/deployments/${DEP}/reports/${r.data.id}`)).body;
      assert.equal(now.folderId, folder.id, `${r.data.name} moved`);
    }
    node = await child(await workspace(), 'folder', 'Quarter close 2026');
    const moved = (await all(node)).filter((n) => n.kind === 'report');
    assert.deepEqual(moved.map((n) => n.data.id).sort(), reports.map((r) => r.data.id).sort());

    // Move one back with the command and its folder picker.
    ex.script(['Sales']);
    await vscode.commands.executeCommand(`${C}moveItems`, moved[0], [moved[0]]);
    assert.equal(
      (await platform(`/v1/deployments/${DEP}/reports/${moved[0].data.id}`)).body.folderId,
      sales.data.id,
    );

    // Delete the folder and the report left in it, selected together: one modal listing both.
    node = await child(await workspace(), 'folder', 'Quarter close 2026');
    const left = (await all(node)).find((n) => n.kind === 'report');
    const p = ex.script([]);
    await vscode.commands.executeCommand(`${C}deleteItems`, left, [left, node]);
    assert.equal(p.asked.length, 1, 'one confirmation');
    assert.match(p.asked[0], /Delete 2 items\?/);
    assert.equal((await platform(`/v1/deployments/${DEP}/reports/${left.data.id}`)).status, 404);
    assert.equal((await platform(`/v1/deployments/${DEP}/folders/${folder.id}/ancestors`)).status, 404);
    const names = (await all(await workspace())).map((n) => n.data?.name);
    assert.ok(!names.includes('Quarter close 2026'), 'gone from the tree');
  });

  it('declined confirmation deletes nothing', async () => {
    const sales = await child(await workspace(), 'folder', 'Sales');
    const r = (await all(sales)).find((n) => n.kind === 'report');
    ex.script([], false);
    await vscode.commands.executeCommand(`${C}deleteItems`, r, [r]);
    assert.equal((await platform(`/v1/deployments/${DEP}/reports/${r.data.id}`)).status, 200);
  });

  it('reveals a report of the flat Reports list in the workspace tree, expanding its folders; Rename Item… from the palette renames it', async () => {
    // A report in a subfolder (its folder's parent is a root folder).
    const sub = (await platform(`/v1/deployments/${DEP}/folders?first=200`)).body.items.find(
      (f: any) => f.parentId !== null,
    );
    const target = (await platform(`/v1/deployments/${DEP}/reports?folderId=${sub.id}&first=1`)).body
      .items[0];
    const flat = (await all((await deployment()).list('reports'))).find((n) => n.data?.id === target.id);
    assert.ok(flat, 'the report is in the flat list');
    const shown: Node = await vscode.commands.executeCommand(`${C}revealInExplorer`, flat);
    assert.equal(shown.kind, 'report');
    assert.equal(shown.data.id, target.id);
    assert.equal(shown.parent.data.id, sub.id, 'under its folder');
    assert.equal(shown.parent.parent.data.id, sub.parentId, 'under its folder’s parent');
    assert.ok(String(shown.id).includes('/workspace/'), 'in the workspace tree');
    // In the flat list the row names the report's folder (not `folder: <id>`).
    assert.match(String(flat.toTreeItem().description), new RegExp(sub.name));
    await waitFor('the revealed report selected', () =>
      ex.view.selection.some((n: Node) => n.id === shown.id) ? true : undefined,
    );
    // From the palette (no arguments) Rename Item… acts on the selected row, as from its menu.
    const reportName = (): Promise<string> =>
      platform(`/v1/deployments/${DEP}/reports/${target.id}`).then((r) => r.body.name);
    ex.script([`${target.name} (renamed)`]);
    await vscode.commands.executeCommand(`${C}renameItem`);
    assert.equal(await reportName(), `${target.name} (renamed)`);
    const again: Node = await vscode.commands.executeCommand(`${C}revealInExplorer`, flat);
    await waitFor('the renamed report selected', () =>
      ex.view.selection.some((n: Node) => n.id === again.id) ? true : undefined,
    );
    ex.script([target.name]);
    await vscode.commands.executeCommand(`${C}renameItem`);
    assert.equal(await reportName(), target.name);
  });

  it('report: create, open its SQL, save edited SQL back, refresh, Open in Notebook', async () => {
    const finance = await child(await workspace(), 'folder', 'Finance');
    ex.script(['Margin by status', 'SELECT status, MEASURE(count) FROM orders GROUP BY 1']);
    const created: any = await vscode.commands.executeCommand(`${C}createReport`, finance);
    assert.equal(created.folderId, finance.data.id);
    // The write refreshed the tree: the folder's node is new.
    const node = await child(
      await child(await workspace(), 'folder', 'Finance'),
      'report',
      'Margin by status',
    );
    const doc: vscode.TextDocument = await vscode.commands.executeCommand(`${C}openReportSql`, node);
    const editor = await vscode.window.showTextDocument(doc);
    const edited = 'SELECT status FROM orders GROUP BY 1';
    await editor.edit((e) => e.replace(new vscode.Range(0, 0, doc.lineCount, 0), edited));
    await vscode.commands.executeCommand(`${C}saveReportSql`);
    assert.equal((await platform(`/v1/deployments/${DEP}/reports/${created.id}`)).body.sqlQuery, edited);
    const refreshed: any = await vscode.commands.executeCommand(`${C}refreshReport`, node);
    assert.equal(refreshed.id, created.id);
    await closeEditors();
    await vscode.commands.executeCommand(`${C}openReportInNotebook`, node);
    const nb = await waitFor(
      'the notebook with the report',
      () => vscode.window.activeNotebookEditor?.notebook,
    );
    assert.equal(nb.metadata.deploymentId, DEP, 'on the report’s deployment');
    const sqlCell = nb.getCells().find((c) => c.kind === vscode.NotebookCellKind.Code);
    assert.equal(sqlCell?.document.getText(), edited);
    await closeEditors();
  });

  it('workbook: create, change slug, upsert by slug, embed access viewed and changed, shared workspace follows', async () => {
    ex.script(['Ops review']);
    const wb: any = await vscode.commands.executeCommand(`${C}createWorkbook`, await workspace());
    const node = await child(await workspace(), 'workbook', 'Ops review');
    ex.script(['ops-review']);
    await vscode.commands.executeCommand(`${C}changeWorkbookSlug`, node);
    assert.equal((await platform(`/v1/deployments/${DEP}/workbooks/${wb.id}`)).body.slug, 'ops-review');
    ex.script(['ops-review', 'Ops review (weekly)']);
    const upserted: any = await vscode.commands.executeCommand(`${C}upsertWorkbookBySlug`, {
      deploymentId: DEP,
    });
    assert.equal(upserted.id, wb.id, 'the same workbook, updated');
    assert.equal(
      (await platform(`/v1/deployments/${DEP}/workbooks/${wb.id}`)).body.name,
      'Ops review (weekly)',
    );

    // A published workbook not yet shared: share it with all embed users.
    const list = (await platform(`/v1/deployments/${DEP}/workbooks?first=200`)).body.items;
    const shared0 = (await platform(`/v1/deployments/${DEP}/shared-workspace?search=&first=200`)).body.items;
    let pick: any;
    for (const w of list) {
      if (!w.publishedDashboard) continue;
      const a = (await platform(`/v1/deployments/${DEP}/workbooks/${w.id}/embed-access`)).body;
      if (!a.allEmbedUsers.enabled && a.tenants.length === 0) {
        pick = w;
        break;
      }
    }
    assert.ok(pick, 'a published workbook that is not shared');
    const access: any = await vscode.commands.executeCommand(`${C}showEmbedAccess`, {
      deploymentId: DEP,
      workbookId: pick.id,
    });
    assert.equal(access.allEmbedUsers.enabled, false);
    ex.script(['Share with all embed users']);
    const changed: any = await vscode.commands.executeCommand(`${C}changeEmbedAccess`, {
      deploymentId: DEP,
      workbookId: pick.id,
    });
    assert.equal(changed.allEmbedUsers.enabled, true);
    const shared = (
      await platform(`/v1/deployments/${DEP}/shared-workspace?search=${encodeURIComponent(pick.name)}`)
    ).body.items;
    assert.ok(
      shared.some((i: any) => i.id === pick.id),
      'now in the shared workspace',
    );
    assert.ok(!shared0.some((i: any) => i.id === pick.id), 'it was not before');
    // The tree's shared workspace shows its folder.
    const sharedTree = (await all((await deployment()).list('sharedWorkspace'))).map((n) => n.data?.id);
    assert.ok(sharedTree.includes(pick.folderId ?? pick.id));
    // Deleted through the tree.
    ex.script([]);
    await vscode.commands.executeCommand(`${C}deleteItems`, node, [node]);
    assert.equal((await platform(`/v1/deployments/${DEP}/workbooks/${wb.id}`)).status, 404);
    await closeEditors();
  });

  it('screenshot: the workspace tree', async () => {
    const dep = await deployment();
    await ex.view.reveal(dep, { expand: true, focus: false, select: false });
    const ws = await workspace();
    await ex.view.reveal(ws, { expand: true, focus: false, select: false });
    const finance = await child(ws, 'folder', 'Finance');
    await ex.view.reveal(finance, { expand: true, focus: false, select: false });
    const report = (await all(finance)).find((n) => n.kind === 'report');
    await vscode.commands.executeCommand('notifications.clearAll');
    await ex.view.reveal(report, { select: true, focus: true });
    await new Promise((r) => setTimeout(r, 1000));
    await screenshot('workspace');
  });
});
