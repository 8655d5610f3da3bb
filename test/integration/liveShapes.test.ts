// The live service's shapes inside a real VS Code against the sandbox (which speaks the published
// documents): a publish answered with nulls is a success in the Publish command and in the
// dashboard editor; a notification list holding an `is_empty` filter shows every item; a notebook
// bound to a second deployment queries that deployment's own Data API host.
import assert from 'node:assert/strict';
import * as vscode from 'vscode';
import type { PublishedDashboard } from '../../src/api/schemas/platform';
import type { PublishHistoryEntry } from '../../src/dashboards';
import { getApi, waitFor, revertAndCloseAll } from './harness';
import { useSandbox } from './sandboxSuite';

/* eslint-disable @typescript-eslint/no-explicit-any -- the extension's own objects and sandbox JSON */
type Node = any;

const C = 'dashboardPlatform.explorer.';

describe('live service shapes', function () {
  this.timeout(120_000);
  let api: any;
  let base: string;
  let admin: string;

  const control = async (path: string): Promise<any> => (await fetch(`${base}${path}`)).json();
  const platform = async (path: string): Promise<any> => {
    const res = await fetch(`${base}/api${path}`, { headers: { authorization: `Bearer ${admin}` } });
    assert.equal(res.status, 200, `GET ${path} -> ${res.status}`);
    return res.json();
  };

  before(async () => {
    api = await getApi();
    ({ base, admin } = await useSandbox(api));
  });

  after(async () => {
    await revertAndCloseAll();
  });

  describe('a publish answered with nulls', () => {
    let file: vscode.Uri;
    let deploymentId: number;
    let workbookId: number;

    before(async () => {
      const client = await api.services.clients.platform();
      deploymentId = (await client.listDeployments()).items[0]!.id;
      workbookId = (await client.listWorkbooks(deploymentId)).items[1]!.id;
      const folder = vscode.workspace.workspaceFolders?.[0]?.uri;
      assert.ok(folder, 'the test workspace has a folder');
      file = vscode.Uri.joinPath(folder, `nulls-${Date.now()}.dashboard.json`);
      await vscode.commands.executeCommand('dashboardPlatform.dashboards.edit', {
        deploymentId,
        workbookId,
        target: file,
      });
    });

    after(async () => {
      await revertAndCloseAll();
      await vscode.workspace.fs.delete(file).then(undefined, () => undefined);
    });

    it('is reported as success by the Publish command', async () => {
      const history = async () =>
        (await vscode.commands.executeCommand('dashboardPlatform.dashboards.showHistory', {
          uri: file,
        })) as PublishHistoryEntry[];
      const before = (await history()).length;
      const result = (await vscode.commands.executeCommand('dashboardPlatform.dashboards.publish', {
        uri: file,
        deploymentId,
        confirm: true,
        showDiff: false,
      })) as PublishedDashboard & Record<string, unknown>;
      assert.ok(result, 'the publish returned the published dashboard');
      // The answer really carried nulls where the documents allow them.
      const nulls = ['restrictDataDownload', 'fromSharedWorkspace', 'useBoardDashboards', 'createdBy'].filter(
        (k) => result[k] === null,
      );
      assert.ok(nulls.length > 0, 'the sandbox answered with nulls');
      const after = await history();
      assert.equal(after.length, before + 1, 'recorded as a successful publish');
      assert.equal(after.at(-1)!.versionNumber, result.versionNumber);
      assert.equal(after.at(-1)!.status, result.status);
    });

    it('is reported as success by the dashboard editor', async function () {
      await revertAndCloseAll();
      await vscode.commands.executeCommand('dashboardPlatform.dashboards.openEditor', file);
      const editor = api.dashboards.editor;
      await waitFor('the dashboard editor page loads', () => editor.isReady(file), 30_000);
      const doc = await vscode.workspace.openTextDocument(file);
      const before = editor.stateOf(doc).history.length;
      // A change to publish (the file matches what was just published), made in the editor.
      await editor.receive(file, { type: 'setTitle', title: `Nulls ${Date.now()}` });
      assert.ok(await doc.save());
      // The page's Publish button opens the review; its title bar's Publish These Changes confirms.
      let failed: unknown;
      await Promise.resolve(editor.receive(file, { type: 'publish' })).catch((e: unknown) => {
        failed = e;
      });
      await vscode.commands.executeCommand('dashboardPlatform.dashboards.publishReviewed');
      assert.equal(failed, undefined, 'the editor reported no error');
      const history = editor.stateOf(doc).history;
      assert.equal(history.length, before + 1, 'the editor shows the new version');
      const state = await control('/__sandbox/state');
      const last = state.publishes.filter((p: any) => p.workbookId === workbookId).at(-1);
      assert.equal(history.at(-1).versionNumber, last.versionNumber);
    });
  });

  describe('explorer and notebook', () => {
    it('shows every notification of a list holding an is_empty filter', async () => {
      const ex = api.explorer;
      const deployments = await ex.provider.getChildren(ex.provider.roots.deployments);
      const dep = deployments.find((n: Node) => n.kind === 'deployment' && n.deploymentId === 1);
      const node = dep.list('notifications');
      const expected: any[] = [];
      for (let after: string | undefined; ;) {
        const page = await platform(
          `/v1/deployments/1/notifications?first=200${after ? `&after=${encodeURIComponent(after)}` : ''}`,
        );
        expected.push(...page.items);
        if (!page.pageInfo?.hasNextPage) break;
        after = page.pageInfo.endCursor;
      }
      const withEmpty = expected.filter((n) => (n.filters ?? []).some((f: any) => f.operator === 'is_empty'));
      assert.ok(withEmpty.length > 0, 'the sandbox lists a notification filtered with is_empty');
      let kids = await ex.provider.getChildren(node);
      for (let more = kids.find((n: Node) => n.kind === 'loadMore'); more;) {
        await vscode.commands.executeCommand(`${C}loadMore`, more);
        kids = await ex.provider.getChildren(node);
        more = kids.find((n: Node) => n.kind === 'loadMore');
      }
      assert.deepEqual(
        kids.filter((n: Node) => n.kind === 'invalid' || n.kind === 'error').map((n: Node) => n.message),
        [],
      );
      assert.deepEqual(
        kids.filter((n: Node) => n.kind === 'notification').map((n: Node) => n.data.id),
        expected.map((n) => n.id),
        'every notification is shown',
      );
      const shown = kids.find((n: Node) => n.kind === 'notification' && n.data.id === withEmpty[0].id);
      assert.match(String(shown.toTreeItem().tooltip.value), /is\\?_empty/, 'the operator is shown as sent');
    });

    it('queries the Data API host of the deployment a notebook is bound to, with a token minted for it', async () => {
      const info = await control('/__sandbox/info');
      const second = info.urls.deployments.find((d: any) => d.id === 2);
      assert.ok(second, 'the sandbox has a second deployment with its own host');
      assert.notEqual(new URL(second.dataApi).host, new URL(info.urls.dataApi).host);
      const doc = await vscode.workspace.openNotebookDocument(
        'dashboard-platform-notebook',
        new vscode.NotebookData([
          new vscode.NotebookCellData(
            vscode.NotebookCellKind.Code,
            'SELECT status FROM orders LIMIT 5',
            'sql',
          ),
        ]),
      );
      const editor = await vscode.window.showNotebookDocument(doc);
      await vscode.commands.executeCommand('notebook.selectKernel', {
        notebookEditor: editor,
        id: 'dashboard-platform-notebook-controller',
        extension: 'dashboard-platform.dashboard-platform',
      });
      assert.equal(
        await vscode.commands.executeCommand('dashboardPlatform.notebook.selectDeployment', {
          deploymentId: 2,
        }),
        2,
      );
      const before = (await control('/__sandbox/state')).dataQueries.length;
      await vscode.commands.executeCommand('notebook.cell.execute', {
        ranges: [{ start: 0, end: 1 }],
        document: doc.uri,
      });
      const cell = doc.cellAt(0);
      const summary = await waitFor('the cell to finish', () =>
        cell.executionSummary?.success !== undefined ? cell.executionSummary : undefined,
      );
      assert.equal(summary.success, true, 'the query ran');
      const queries = (await control('/__sandbox/state')).dataQueries.slice(before);
      // The untitled notebook is dirty once run: revert and close it so nothing asks to save it.
      await vscode.commands.executeCommand('workbench.action.revertAndCloseActiveEditor');
      assert.ok(queries.length > 0, 'the sandbox recorded the query');
      for (const q of queries) {
        assert.equal(q.deploymentId, 2, 'answered from deployment 2');
        assert.equal(q.host, new URL(second.dataApi).host, "on deployment 2's own host");
      }
    });
  });
});
