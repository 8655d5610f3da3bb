// The data model in the editor, inside a real VS Code against the sandbox's build API: open the
// model, create a branch (dev mode), add a measure to a YAML cube file, see the compile error in
// the Problems panel at its line, fix it, query the new measure from a notebook on the dev
// branch, commit, merge to default, and find the measure in the default branch's meta.
import assert from 'node:assert/strict';
import * as vscode from 'vscode';
import { getApi, screenshot, waitFor } from './harness';
import { ERROR_MIME, RESULT_MIME, type ResultPayload } from '../../src/shared/notebookOutput';

const NOTEBOOK_TYPE = 'dashboard-platform-notebook';
const CONTROLLER = {
  id: 'dashboard-platform-notebook-controller',
  extension: 'dashboard-platform.dashboard-platform',
};
const ORDERS = 'model/cubes/orders.yml';
const BRANCH = `it-orders-${Date.now().toString(36)}`;

interface MountLike {
  root: vscode.Uri;
  branch: string;
  uri(path: string): vscode.Uri;
}

function outputOf(cell: vscode.NotebookCell, mime: string): unknown {
  for (const o of cell.outputs)
    for (const i of o.items) if (i.mime === mime) return JSON.parse(new TextDecoder().decode(i.data));
  return undefined;
}

/** Replaces the whole text of a document and saves it (the save goes to the server). */
async function saveText(doc: vscode.TextDocument, text: string): Promise<void> {
  const edit = new vscode.WorkspaceEdit();
  edit.replace(doc.uri, new vscode.Range(0, 0, doc.lineCount, 0), text);
  assert.ok(await vscode.workspace.applyEdit(edit), 'the edit applied');
  assert.ok(await doc.save(), 'the save succeeded');
}

describe('data model in the editor', function () {
  this.timeout(240_000);

  before(async () => {
    const api = await getApi();
    await api.services.profiles.switchTo('Sandbox');
    await api.sandbox();
  });

  let mounted: MountLike | undefined;

  after(async () => {
    // Later suites' chats and notebooks start with no dev-branch target.
    if (mounted)
      await vscode.commands.executeCommand('dashboardPlatform.model.switchBranch', mounted.root, 'main');
    // Untitled notebooks are dirty: revert them so closing asks nothing.
    for (let i = 0; i < 20 && vscode.window.visibleNotebookEditors.length > 0; i++) {
      await vscode.window.showNotebookDocument(vscode.window.visibleNotebookEditors[0]!.notebook);
      await vscode.commands.executeCommand('workbench.action.revertAndCloseActiveEditor');
    }
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
  });

  it('walks the loop: branch, edit, error, fix, dev-branch query, commit, merge, default meta', async () => {
    const api = await getApi();
    // Open the model on the default branch: read-only.
    const main = (await vscode.commands.executeCommand('dashboardPlatform.model.open', {
      deploymentId: 1,
      branch: 'main',
      addFolder: false,
    })) as MountLike;
    assert.ok(main, 'the model opened');
    const entries = await vscode.workspace.fs.readDirectory(main.uri('model/cubes'));
    assert.ok(
      entries.some(([n]) => n === 'orders.yml'),
      `cube files: ${JSON.stringify(entries)}`,
    );
    const mainStat = await vscode.workspace.fs.stat(main.uri(ORDERS));
    assert.equal(mainStat.permissions, vscode.FilePermission.Readonly, 'the default branch is read-only');
    assert.match(api.model.status.text, /lock.*main/);

    // Create a branch from it: dev mode on the new branch, mounted in its place.
    const branch = (await vscode.commands.executeCommand(
      'dashboardPlatform.model.createBranch',
      main.root,
      BRANCH,
    )) as MountLike;
    assert.equal(branch.branch, BRANCH);
    mounted = branch;
    assert.equal(api.services.modelBranch.current?.branch, BRANCH, 'the new branch is the dev target');
    assert.match(api.model.status.text, new RegExp(`${BRANCH} · dev mode`));

    // Add a measure with a wrong type: the save validates and the error lands on its line.
    const uri = branch.uri(ORDERS);
    const doc = await vscode.workspace.openTextDocument(uri);
    await vscode.window.showTextDocument(doc);
    const original = doc.getText();
    const withMeasure = (type: string) =>
      original.replace(
        /(\n([ \t]*)measures:\n)/,
        (_m, head: string, ind: string) =>
          `${head}${ind}  - name: big_amount\n${ind}    sql: amount\n${ind}    type: ${type}\n`,
      );
    assert.notEqual(withMeasure('sum'), original, 'the measures list was found');
    await saveText(doc, withMeasure('summ'));
    const errors = await waitFor(
      'the compile error in the Problems panel',
      () => {
        const d = vscode.languages.getDiagnostics(uri);
        return d.length > 0 ? d : undefined;
      },
      60_000,
    );
    const typeLine = doc
      .getText()
      .split('\n')
      .findIndex((l) => /type: summ/.test(l));
    assert.ok(
      errors.some((e) => Math.abs(e.range.start.line - typeLine) <= 2),
      `an error near line ${typeLine + 1}: ${errors.map((e) => `${e.range.start.line + 1}: ${e.message}`).join('; ')}`,
    );
    await screenshot('model-editor', 1200);

    // Fix it: the diagnostics clear.
    await saveText(doc, withMeasure('sum'));
    await waitFor(
      'the diagnostics to clear',
      () => vscode.languages.getDiagnostics(uri).length === 0,
      60_000,
    );

    // A notebook on the dev branch queries the new measure.
    const nb = await vscode.workspace.openNotebookDocument(
      NOTEBOOK_TYPE,
      new vscode.NotebookData([
        new vscode.NotebookCellData(
          vscode.NotebookCellKind.Code,
          JSON.stringify({ measures: ['orders.big_amount'] }),
          'json',
        ),
      ]),
    );
    const editor = await vscode.window.showNotebookDocument(nb);
    await vscode.commands.executeCommand('notebook.selectKernel', { notebookEditor: editor, ...CONTROLLER });
    await vscode.commands.executeCommand('dashboardPlatform.notebook.selectDeployment', { deploymentId: 1 });
    await vscode.commands.executeCommand('dashboardPlatform.model.notebookBranch', {
      branch: BRANCH,
      notebook: nb,
    });
    await waitFor(
      'the notebook metadata to name the deployment and branch',
      () => nb.metadata.devBranch === BRANCH && nb.metadata.deploymentId === 1,
    );
    await vscode.commands.executeCommand('notebook.cell.execute', {
      ranges: [{ start: 0, end: 1 }],
      document: nb.uri,
    });
    const summary = await waitFor(
      'the cell to finish',
      () => nb.cellAt(0).executionSummary?.timing?.endTime,
      60_000,
    );
    assert.ok(summary);
    const cell = nb.cellAt(0);
    assert.equal(cell.executionSummary?.success, true, JSON.stringify(outputOf(cell, ERROR_MIME)));
    const result = outputOf(cell, RESULT_MIME) as ResultPayload;
    assert.ok(result.columns.some((c) => c.name === 'orders.big_amount'));
    assert.equal(result.rows.length, 1);
    await vscode.commands.executeCommand('workbench.action.revertAndCloseActiveEditor');

    // Commit and merge to default (the modal confirmation is skipped explicitly).
    assert.equal(
      await vscode.commands.executeCommand('dashboardPlatform.model.commit', branch.root, {
        message: 'Add orders.big_amount',
      }),
      true,
    );
    assert.equal(
      await vscode.commands.executeCommand('dashboardPlatform.model.mergeToDefault', branch.root, {
        message: 'Ship big_amount',
        confirm: true,
      }),
      true,
    );

    // The default branch's meta (the deployment's own Data API) has the measure.
    const data = await api.services.clients.data(1);
    const meta = await data.meta({ refresh: true });
    const orders = meta.cubes.find((c) => c.name === 'orders');
    assert.ok(
      orders?.measures.some((m) => m.name === 'orders.big_amount'),
      'the merged measure is in the default branch meta',
    );
  });
});
