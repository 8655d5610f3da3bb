// The README's pictures, one feature per image, each taken in a clean window: editors, panels and
// notifications from the previous shot are closed first. The workspace is a copy of demo/ and the
// window is 1280x800. `npm run screenshots` runs this walk and writes docs/images/<name>.png.
//
// To add a picture: add an `it` here (or a new *.test.ts file in this folder) that starts with
// `await clean()`, brings one feature on screen, and ends with `await shot('<name>')`; run
// `npm run screenshots`, look at docs/images/<name>.png, and reference it from the README.
import assert from 'node:assert/strict';
import * as path from 'node:path';
import * as vscode from 'vscode';
import type { ExtensionApi } from '../../src/extension';
import { getApi, screenshot, waitFor, webviewClick } from '../integration/harness';
import { clean } from './window';
import { runChart, showOnKernel } from '../integration/notebooks';

/* eslint-disable @typescript-eslint/no-explicit-any -- the explorer's nodes are the extension's own objects */
type Node = any;

const run = (command: string, ...args: unknown[]) => vscode.commands.executeCommand(command, ...args);
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** Lets the window settle, clears any notification that appeared meanwhile, and takes the picture. */
async function shot(name: string, settleMs = 1500): Promise<void> {
  await sleep(settleMs);
  await run('notifications.clearAll');
  await sleep(300);
  assert.ok(await screenshot(name, 0), 'screenshots need the code-server harness (npm run screenshots)');
}

function workspaceFile(name: string): vscode.Uri {
  const folder = vscode.workspace.workspaceFolders?.[0];
  assert.ok(folder, 'the walk runs on a copy of demo/');
  return vscode.Uri.file(path.join(folder.uri.fsPath, name));
}

async function finished(cell: vscode.NotebookCell): Promise<void> {
  const summary = await waitFor(
    'the cell to finish',
    () => cell.executionSummary?.timing && cell.executionSummary,
    60_000,
  );
  assert.equal(summary.success, true, `cell ${cell.index} failed`);
}

/** The tree read afresh in a clean window with the view shown, its first deployment expanded. */
async function firstDeploymentExpanded(ex: any): Promise<Node> {
  ex.provider.refresh();
  await clean({ sideBar: true });
  const deployments: Node[] = await ex.provider.getChildren(ex.provider.roots.deployments);
  const dep = deployments.find((n) => n.kind === 'deployment');
  assert.ok(dep, 'the sandbox lists deployments');
  await ex.view.reveal(dep, { expand: true, focus: false, select: false });
  return dep;
}

describe('README screenshots', function () {
  this.timeout(180_000);
  let api: ExtensionApi;

  before(async () => {
    api = await getApi();
    await run('dashboardPlatform.sandbox.use');
    await api.sandbox.start();
  });

  after(() => clean());

  it('explorer: deployments with folders, reports and notifications expanded', async () => {
    const ex = api.explorer as any;
    const cfg = vscode.workspace.getConfiguration('dashboardPlatform.explorer');
    await cfg.update('pageSize', 5, vscode.ConfigurationTarget.Global);
    await sleep(300);
    const dep = await firstDeploymentExpanded(ex);
    for (const kind of ['folders', 'reports', 'notifications']) {
      const list = dep.list(kind);
      await ex.provider.getChildren(list);
      await ex.view.reveal(list, { expand: true, focus: false, select: false });
    }
    const reports: Node[] = await ex.provider.getChildren(dep.list('reports'));
    const report = reports.find((n) => n.kind === 'report');
    assert.ok(report, 'the first deployment has reports');
    await run('dashboardPlatform.explorer.openJson', report);
    await ex.view.reveal(report, { select: true, focus: true });
    await shot('explorer');
    await cfg.update('pageSize', undefined, vscode.ConfigurationTarget.Global);
  });

  it('workspace: the folders of a deployment with their reports and workbooks, a report SQL open', async () => {
    const ex = api.explorer as any;
    const dep = await firstDeploymentExpanded(ex);
    const ws = dep.list('workspace');
    const folders: Node[] = await ex.provider.getChildren(ws);
    await ex.view.reveal(ws, { expand: true, focus: false, select: false });
    const finance = folders.find((n) => n.kind === 'folder' && n.data?.name === 'Finance');
    assert.ok(finance, 'the workspace has a Finance folder');
    const inside: Node[] = await ex.provider.getChildren(finance);
    await ex.view.reveal(finance, { expand: true, focus: false, select: false });
    const report = inside.find((n) => n.kind === 'report');
    assert.ok(report, 'Finance holds reports');
    await run('dashboardPlatform.explorer.openReportSql', report);
    await ex.view.reveal(report, { select: true, focus: true });
    await shot('workspace');
    // The SQL is an untitled document: close it unsaved so the next shot's clean() does not ask.
    await run('workbench.action.revertAndCloseActiveEditor');
  });

  it('notebook-table: the sample notebook with its SQL result', async () => {
    await clean();
    const doc = await vscode.workspace.openNotebookDocument(workspaceFile('sample.dpnb'));
    const editor = await showOnKernel(doc);
    await run('notebook.cell.execute', { ranges: [{ start: 1, end: 2 }], document: doc.uri });
    await finished(doc.cellAt(1));
    editor.revealRange(new vscode.NotebookRange(1, 2), vscode.NotebookEditorRevealType.AtTop);
    await shot('notebook-table');
    await run('workbench.action.files.revert');
  });

  it('notebook-chart: a measure by month as a chart', async () => {
    await clean();
    await runChart({
      measures: ['orders.total_amount'],
      timeDimensions: [{ dimension: 'orders.created_at', granularity: 'month', dateRange: 'last 12 months' }],
      order: { 'orders.created_at': 'asc' },
    });
    await shot('notebook-chart', 2500);
  });

  describe('the dashboard editor', () => {
    const file = () => workspaceFile('revenue.dashboard.json');
    let doc: vscode.TextDocument;

    before(async () => {
      await clean();
      await run('dashboardPlatform.dashboards.openEditor', file());
      await waitFor('the dashboard editor page loads', () => api.dashboards.editor.isReady(file()), 30_000);
      doc = await vscode.workspace.openTextDocument(file());
    });

    after(async () => {
      if (doc.isDirty) await run('workbench.action.files.revert');
    });

    it('dashboard-editor: the grid at the lg breakpoint with a widget selected', async () => {
      await api.dashboards.editor.showBreakpoint(doc, 'lg');
      const widgets = (JSON.parse(doc.getText()) as { config: { widgets: { id: string }[] } }).config.widgets;
      assert.ok(widgets.length > 1, 'the sample dashboard has widgets');
      assert.ok(await webviewClick(`.widget[data-id="${widgets[1]!.id}"]`));
      await shot('dashboard-editor');
    });

    it('dashboard-editor-sm: the sm breakpoint with the theme tab', async () => {
      await api.dashboards.editor.showBreakpoint(doc, 'sm');
      assert.ok(await webviewClick('[data-tab="theme"]'));
      await shot('dashboard-editor-sm');
      await webviewClick('[data-tab="widget"]');
    });
  });

  // deployops
  it('dbt-sync-logs: a dbt sync streaming its log, the deployment’s dbt syncs and Health expanded', async () => {
    const ex = api.explorer as any;
    await clean({ sideBar: true });
    ex.provider.refresh();
    const deployments: Node[] = await ex.provider.getChildren(ex.provider.roots.deployments);
    const dep = deployments.find((n) => n.kind === 'deployment');
    assert.ok(dep, 'the sandbox lists deployments');
    await ex.view.reveal(dep, { expand: true, focus: false, select: false });
    const syncs = dep.opsChild('dbtSyncs');
    await ex.provider.getChildren(syncs);
    await ex.view.reveal(syncs, { expand: true, focus: false, select: false });
    const transcript = () => api.deployments.transcript('Dashboard Platform: dbt sync') as string[];
    const before = transcript().length;
    const started = run('dashboardPlatform.explorer.dbtSync', {
      deploymentId: dep.deploymentId,
      // The sandbox runs this branch slowly enough to picture the log while it streams.
      branchName: 'steady',
      output: 'files',
    });
    await waitFor(
      'the compile stage in the streamed log',
      () =>
        transcript()
          .slice(before)
          .some((l) => l.includes('Running dbt compile')),
      30_000,
    );
    await shot('dbt-sync-logs', 300);
    await started;
  });

  it('chat: a streamed answer with its SQL tool call, rows and a chart', async () => {
    await clean();
    const sandbox = (await api.sandbox()) as unknown as { urls: { ai: { url: string }[] } };
    const panel = (await run('dashboardPlatform.chat.ask', {
      question: 'What was the revenue by month?',
      agentUrl: sandbox.urls.ai[0]!.url,
    })) as { inspect(): Promise<{ finalAnswers: string[]; toolCards: { hasChart: boolean }[] }> };
    await waitFor(
      'the answer with its chart',
      async () => {
        const v = await panel.inspect();
        return v.finalAnswers.length > 0 && v.toolCards.some((c) => c.hasChart) ? v : undefined;
      },
      60_000,
    );
    await shot('chat');
  });
  // admin
  it('administration: the Administration root expanded with roles, an embed tenant and account settings', async () => {
    const ex = api.explorer as any;
    await clean({ sideBar: true });
    await run('workbench.actions.treeView.dashboardPlatform.explorer.collapseAll');
    const a = ex.provider.roots.admin;
    await ex.view.reveal(a.root, { expand: true, focus: false, select: false });
    await ex.view.reveal(a.roles, { expand: true, focus: false, select: false });
    const tenants: Node[] = await ex.provider.getChildren(a.embedTenants);
    const tenant = tenants.find((n) => n.kind === 'embedTenant');
    assert.ok(tenant, 'the sandbox has embed tenants');
    await ex.view.reveal(tenant, { expand: true, focus: false, select: false });
    const [groups] = await ex.provider.getChildren(tenant);
    await ex.view.reveal(groups, { expand: true, focus: false, select: false });
    await ex.view.reveal(a.settings, { expand: true, focus: false, select: false });
    await ex.view.reveal(a.root, { select: true, focus: true });
    await shot('administration');
  });

  // model-editor
  it('model-editor: a cube file on a dev branch with a compile error in the Problems panel', async () => {
    await clean();
    const main = (await run('dashboardPlatform.model.open', {
      deploymentId: 1,
      branch: 'main',
      addFolder: false,
    })) as { root: vscode.Uri };
    const branch = (await run('dashboardPlatform.model.createBranch', main.root, 'readme-orders')) as {
      uri(path: string): vscode.Uri;
    };
    const uri = branch.uri('model/cubes/orders.yml');
    const doc = await vscode.workspace.openTextDocument(uri);
    const text = doc
      .getText()
      .replace(
        /(\n([ \t]*)measures:\n)/,
        (_m, head: string, ind: string) =>
          `${head}${ind}  - name: big_amount\n${ind}    sql: amount\n${ind}    type: summ\n`,
      );
    const edit = new vscode.WorkspaceEdit();
    edit.replace(uri, new vscode.Range(0, 0, doc.lineCount, 0), text);
    await vscode.workspace.applyEdit(edit);
    await doc.save();
    await waitFor('the compile error', () => vscode.languages.getDiagnostics(uri).length > 0, 60_000);
    const line = doc
      .getText()
      .split('\n')
      .findIndex((l) => l.includes('type: summ'));
    const editor = await vscode.window.showTextDocument(doc);
    editor.selection = new vscode.Selection(line, 10, line, 10);
    editor.revealRange(new vscode.Range(line, 0, line, 0), vscode.TextEditorRevealType.InCenter);
    await run('workbench.actions.view.problems');
    await shot('model-editor');
  });
});
