// A data-model branch as a workspace folder in a real VS Code: the workspace file the harness opens
// holds `dpmodel://1/staging` (the sandbox's first deployment, its "staging" branch), which VS Code
// resolves at start through the extension's file system. Listing, reading, saving (to the server)
// and searching go through the folder as the user's editor sees it.
import assert from 'node:assert/strict';
import * as vscode from 'vscode';
import { getApi, screenshot, waitFor } from '../integration/harness';

const FOLDER_NAME = 'Sandbox Analytics · staging';

interface MatchLike {
  uri: vscode.Uri;
  path: string;
  line: number;
  text: string;
}

describe('Data model: a branch mounted as a workspace folder', function () {
  this.timeout(180_000);
  let folder: vscode.WorkspaceFolder;

  before(async () => {
    const api = await getApi();
    await api.services.profiles.switchTo('Sandbox');
    await api.sandbox();
    folder = await waitFor('the model folder in the workspace', () =>
      vscode.workspace.workspaceFolders?.find((f) => f.uri.scheme === 'dpmodel'),
    );
  });

  after(async () => {
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
  });

  it('is a workspace folder named for the deployment and branch, beside the local folder', () => {
    assert.equal(folder.name, FOLDER_NAME);
    assert.equal(folder.uri.toString(), 'dpmodel://1/staging');
    assert.ok(
      vscode.workspace.workspaceFolders?.some((f) => f.uri.scheme === 'file'),
      'the local fixture folder is still there',
    );
  });

  it('lists and reads the files through the folder', async () => {
    const top = await vscode.workspace.fs.readDirectory(folder.uri);
    assert.ok(
      top.some(([n, t]) => n === 'model' && t === vscode.FileType.Directory),
      JSON.stringify(top),
    );
    const cubes = await vscode.workspace.fs.readDirectory(vscode.Uri.joinPath(folder.uri, 'model', 'cubes'));
    assert.deepEqual(cubes.map(([n]) => n).sort(), ['customers.yml', 'orders.yml', 'products.yml']);
    const uri = vscode.Uri.joinPath(folder.uri, 'model', 'cubes', 'orders.yml');
    assert.equal(vscode.workspace.getWorkspaceFolder(uri)?.name, FOLDER_NAME);
    assert.equal(vscode.workspace.asRelativePath(uri, true), `${FOLDER_NAME}/model/cubes/orders.yml`);
    const doc = await vscode.workspace.openTextDocument(uri);
    assert.match(doc.getText(), /- name: orders\n/);
    await vscode.window.showTextDocument(doc);
    // The explorer shows the folder; the screenshot is kept with the run's output.
    await vscode.commands.executeCommand('workbench.view.explorer');
    await screenshot('model-workspace-folder');
  });

  it('saves an edit to the server, where the branch has it', async () => {
    const uri = vscode.Uri.joinPath(folder.uri, 'model', 'cubes', 'products.yml');
    const doc = await vscode.workspace.openTextDocument(uri);
    const marker = `Edited in the workspace folder ${Date.now().toString(36)}`;
    const text = doc.getText().replace('description: The catalogue.', `description: ${marker}`);
    assert.notEqual(text, doc.getText(), 'the description line was found');
    const edit = new vscode.WorkspaceEdit();
    edit.replace(uri, new vscode.Range(0, 0, doc.lineCount, 0), text);
    assert.ok(await vscode.workspace.applyEdit(edit));
    assert.ok(await doc.save(), 'the save succeeded');
    const api = await getApi();
    const build = await api.services.clients.build();
    const files = await build.listFiles(1, { branchName: 'staging', withContent: true });
    const served = files.find((f) => f.path === 'model/cubes/products.yml');
    assert.ok(served?.content?.includes(marker), 'the server has the edit');
    // Another read through the folder (a fresh stat and read) sees the saved content.
    const again = new TextDecoder().decode(await vscode.workspace.fs.readFile(uri));
    assert.ok(again.includes(marker));
    // The branch still compiles: no problems for the folder's files.
    await waitFor(
      'validate to run without errors',
      () => vscode.languages.getDiagnostics(uri).length === 0,
      30_000,
    );
  });

  it('finds text across the folder with Search in Data Model…', async () => {
    const matches = (await vscode.commands.executeCommand('dashboardPlatform.model.search', folder.uri, {
      query: 'TOTAL_AMOUNT',
      noPicker: true,
    })) as MatchLike[];
    assert.ok(matches.length > 0, 'matches');
    const inOrders = matches.filter((m) => m.path === 'model/cubes/orders.yml');
    assert.ok(inOrders.length > 0, JSON.stringify(matches.map((m) => m.path)));
    const doc = await vscode.workspace.openTextDocument(inOrders[0]!.uri);
    assert.match(doc.lineAt(inOrders[0]!.line).text, /total_amount/i);
    assert.equal(vscode.workspace.getWorkspaceFolder(inOrders[0]!.uri)?.name, FOLDER_NAME);
    // Unsaved text of an open editor counts too.
    const products = vscode.Uri.joinPath(folder.uri, 'model', 'cubes', 'products.yml');
    const pdoc = await vscode.workspace.openTextDocument(products);
    const edit = new vscode.WorkspaceEdit();
    edit.insert(products, new vscode.Position(0, 0), '# unsaved-needle\n');
    assert.ok(await vscode.workspace.applyEdit(edit));
    const unsaved = (await vscode.commands.executeCommand('dashboardPlatform.model.search', folder.uri, {
      query: 'unsaved-needle',
      noPicker: true,
    })) as MatchLike[];
    assert.deepEqual(
      unsaved.map((m) => [m.path, m.line]),
      [['model/cubes/products.yml', 0]],
    );
    await vscode.window.showTextDocument(pdoc);
    await vscode.commands.executeCommand('workbench.action.revertAndCloseActiveEditor');
  });
});
