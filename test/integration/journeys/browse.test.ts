// Journey "browse and open" (issue 25 item 3): a user opens the Dashboard Platform view, expands a
// deployment's Reports by clicking rows, and clicks report after report. Each click shows the
// report's SQL read-only in a tab named "<report>.sql" (one preview tab, replaced by the next
// click), never an Untitled buffer: after many clicks nothing is dirty or asks to be saved. The
// editor title offers Edit (a document whose save is "Save SQL to Report") and Open in Notebook;
// the saved SQL reaches the server and the open preview follows it (a second editor on the same
// object). Light and dark screenshots.
import assert from 'node:assert/strict';
import * as vscode from 'vscode';
import {
  click,
  getApi,
  pressKeys,
  screenshot,
  typeText,
  waitFor,
  revertAndCloseAll,
  setTheme,
} from '../harness';
import { useSandbox } from '../sandboxSuite';
import { expand, openExplorerFresh, row } from './explorerView';

/* eslint-disable @typescript-eslint/no-explicit-any -- the nodes are the extension's own objects */
type Node = any;

const DEP = 1;

let api: any;
let base: string;
let admin: string;

async function server(path: string): Promise<any> {
  const res = await fetch(`${base}/api${path}`, {
    headers: { authorization: `Bearer ${admin}`, 'content-type': 'application/json' },
  });
  const text = await res.text();
  return text ? JSON.parse(text) : undefined;
}

function activeUri(): vscode.Uri | undefined {
  const input = vscode.window.tabGroups.activeTabGroup.activeTab?.input;
  return input instanceof vscode.TabInputText ? input.uri : undefined;
}

function dirtyOrUntitled(): string[] {
  return vscode.workspace.textDocuments.filter((d) => d.isDirty || d.isUntitled).map((d) => d.uri.toString());
}

describe('journey: browse and open', function () {
  this.timeout(300_000);

  before(async function () {
    api = await getApi();
    if (!(await pressKeys([]))) this.skip(); // the journey needs UI control (code-server route)
    await revertAndCloseAll();
    ({ base, admin } = await useSandbox(api));
  });

  after(async () => {
    await setTheme('Default Light Modern');
    for (let i = 0; i < 20 && vscode.window.tabGroups.all.some((g) => g.tabs.length > 0); i++)
      await vscode.commands.executeCommand('workbench.action.revertAndCloseActiveEditor');
  });

  it('clicks reports into one read-only, named preview; edits through an explicit action', async () => {
    // The activity bar icon opens the view (on its roots, whatever ran before); rows are expanded
    // by clicking them.
    await openExplorerFresh();
    const deployments = await waitFor('the deployments', async () => {
      const d = (await api.explorer.provider.getChildren(api.explorer.provider.roots.deployments)).find(
        (n: Node) => n.kind === 'deployment' && n.deploymentId === DEP,
      );
      return d;
    });
    await screenshot('journeys/browse-start');
    await expand('Deployments');
    await expand(deployments.name ?? 'Analytics');
    await expand('Reports');
    // The reports the tree shows (other suites may have added or renamed some), each read back
    // from the server; a name shown twice is left out, since its row is ambiguous.
    const shown = (await api.explorer.provider.getChildren(deployments.list('reports'))).filter(
      (n: Node) =>
        !['loadMore', 'error', 'empty', 'info'].includes(n.kind) && typeof n.data?.name === 'string',
    );
    const names = shown.map((n: Node) => n.data.name as string);
    const reports: { id: number; name: string; sqlQuery: string }[] = [];
    for (const n of shown.slice(0, 12)) {
      if (names.indexOf(n.data.name) !== names.lastIndexOf(n.data.name)) continue;
      reports.push(await server(`/v1/deployments/${DEP}/reports/${n.data.id}`));
    }
    assert.ok(reports.length >= 5, 'the sandbox deployment has reports');
    await screenshot('journeys/browse-tree');

    const before = dirtyOrUntitled();
    // Ten clicks (one report twice): each shows that report's SQL, read-only, named after it.
    const clicks = [...reports.slice(0, 9), reports[0]!];
    for (const r of clicks) {
      await click({ selector: row(r.name) });
      const uri = await waitFor(`the preview of "${r.name}"`, () => {
        const u = activeUri();
        return u?.scheme === 'dashboard-platform-report' &&
          u.path === `/${r.name}.sql` &&
          u.query === `deployment=${DEP}&report=${r.id}`
          ? u
          : undefined;
      });
      const doc = vscode.workspace.textDocuments.find((d) => d.uri.toString() === uri.toString())!;
      assert.equal(doc.getText(), r.sqlQuery);
      assert.equal(doc.languageId, 'dashboard-platform-sql');
      assert.equal(doc.isDirty, false);
      // The tab reads the report's name, not "Untitled-N" or the SQL's first line.
      const tab = vscode.window.tabGroups.activeTabGroup.activeTab!;
      assert.equal(tab.label, `${r.name}.sql`);
    }
    assert.deepEqual(dirtyOrUntitled(), before, 'no unsaved or untitled buffers after ten clicks');
    const previews = vscode.window.tabGroups.all
      .flatMap((g) => g.tabs)
      .filter(
        (t) => t.input instanceof vscode.TabInputText && t.input.uri.scheme === 'dashboard-platform-report',
      );
    assert.equal(previews.length, 1, 'one preview tab, reused click after click');
    assert.equal(previews[0]!.isPreview, true);

    // Typing in the preview changes nothing: it is read-only.
    const first = reports[0]!;
    await click({ selector: '.part.editor .monaco-editor .view-lines' });
    await typeText('DROP TABLE x;');
    const previewDoc = vscode.window.activeTextEditor!.document;
    assert.equal(previewDoc.getText(), first.sqlQuery);
    assert.equal(previewDoc.isDirty, false);
    await pressKeys(['Escape']);
    await screenshot('journeys/browse-preview');
    await setTheme('Default Dark Modern');
    await screenshot('journeys/browse-preview-dark', 1200);
    await setTheme('Default Light Modern');

    // The editor title's Edit opens the SQL to edit; Ctrl+S is "Save SQL to Report".
    await click({ selector: '.part.editor .editor-actions a[aria-label^="Edit Report SQL"]' });
    const draft = await waitFor('the edit document', () =>
      vscode.window.activeTextEditor?.document.uri.scheme === 'dashboard-platform-report-draft'
        ? vscode.window.activeTextEditor.document
        : undefined,
    );
    assert.equal(draft.getText(), first.sqlQuery);
    await click({ selector: '.part.editor .monaco-editor .view-lines' });
    await pressKeys(['Control+End']);
    await typeText('\n-- checked by the browse journey');
    await waitFor('the edit', () => (draft.isDirty ? true : undefined));
    await pressKeys(['Control+s']);
    const edited = `${first.sqlQuery}\n-- checked by the browse journey`;
    await waitFor('the save confirmed by the server', () => (draft.isDirty ? undefined : true), 30_000);
    assert.equal((await server(`/v1/deployments/${DEP}/reports/${first.id}`)).sqlQuery, edited);
    // The preview of the same report follows the saved SQL.
    await click({ selector: row(first.name) });
    await waitFor('the preview with the saved SQL', () => {
      const d = vscode.window.activeTextEditor?.document;
      return d?.uri.scheme === 'dashboard-platform-report' && d.getText() === edited ? true : undefined;
    });
    await screenshot('journeys/browse-saved');

    // Open in Notebook from the preview's title: a notebook cell with the report's SQL.
    await click({ selector: '.part.editor .editor-actions a[aria-label^="Open in Notebook"]' });
    const nb = await waitFor('the notebook', () => vscode.window.activeNotebookEditor?.notebook, 30_000);
    const cell = nb.getCells().find((c) => c.kind === vscode.NotebookCellKind.Code);
    assert.equal(cell?.document.getText(), edited);
    const client = await api.services.clients.platform();
    await client.updateReport(DEP, first.id, { sqlQuery: first.sqlQuery });
  });
});
