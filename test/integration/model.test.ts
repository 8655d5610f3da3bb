// The data model in the editor, inside a real VS Code against the sandbox's build API: open the
// model, create a branch (dev mode), add a measure to a YAML cube file, see the compile error in
// the Problems panel at its line, fix it, query the new measure from a notebook on the dev
// branch, commit, merge to default, and find the measure in the default branch's meta.
import assert from 'node:assert/strict';
import * as vscode from 'vscode';
import {
  click,
  getApi,
  pageText,
  pressKeys,
  revertAndCloseAll,
  screenshot,
  typeText,
  waitFor,
} from './harness';
import { createBranch, shipMeasure, type MountLike } from './modelBranches';
import { errorOf, NOTEBOOK_TYPE, openOnBranch, resultOf } from './notebooks';

const ORDERS = 'model/cubes/orders.yml';
const BRANCH = `it-orders-${Date.now().toString(36)}`;

/** Replaces the whole text of a document and saves it (the save goes to the server). */
async function saveText(doc: vscode.TextDocument, text: string): Promise<void> {
  const edit = new vscode.WorkspaceEdit();
  edit.replace(doc.uri, new vscode.Range(0, 0, doc.lineCount, 0), text);
  assert.ok(await vscode.workspace.applyEdit(edit), 'the edit applied');
  // A failed save says why in a notification (the assertion carries it; a screenshot keeps it).
  if (!(await doc.save())) {
    await screenshot('model-save-failed', 1500);
    assert.fail(`the save failed (dirty: ${doc.isDirty}): ${await pageText('.notifications-toasts')}`);
  }
}

describe('data model in the editor', function () {
  this.timeout(240_000);

  before(async () => {
    // Auto-save (VS Code for the Web's default) racing a suite's own save makes save() answer
    // false while the auto-save writes; the integration runner turns it off (run-integration.mjs).
    assert.equal(
      vscode.workspace.getConfiguration('files').get('autoSave'),
      'off',
      'files.autoSave is off in integration runs',
    );
    const api = await getApi();
    await api.services.profiles.switchTo('Sandbox');
    await api.sandbox();
  });

  let mounted: MountLike | undefined;

  after(async () => {
    // Later suites' chats and notebooks start with no dev-branch target.
    if (mounted)
      await vscode.commands.executeCommand('dashboardPlatform.model.switchBranch', mounted.root, 'main');
    // Untitled notebooks are dirty: reverted, so closing asks nothing.
    await revertAndCloseAll();
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
    const branch = await createBranch(main.root, BRANCH);
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
    const nb = await openOnBranch({ measures: ['orders.big_amount'] }, BRANCH);
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
    assert.equal(cell.executionSummary?.success, true, JSON.stringify(errorOf(cell)));
    const result = resultOf(cell)!;
    assert.ok(result.columns.some((c) => c.name === 'orders.big_amount'));
    assert.equal(result.rows.length, 1);
    await vscode.commands.executeCommand('workbench.action.revertAndCloseActiveEditor');

    // Commit and merge to default: the default branch's meta has the measure.
    await shipMeasure(api, branch.root, 'orders.big_amount', {
      commit: 'Add orders.big_amount',
      merge: 'Ship big_amount',
    });
  });
});

// The seams of the model's day: where a folder goes before a window would reload, the status bar
// following the branch in view and a notebook's branch at once, the notebook's branch picker
// offered whatever the notebook lacks, a branch gone from the server, and a save the server
// refuses (the editor stays dirty).
describe('data model: window, status bar, notebook branch, lost branch, refused save', function () {
  this.timeout(240_000);
  const LOST = `it-lost-${Date.now().toString(36)}`;
  const OTHER = `it-other-${Date.now().toString(36)}`;
  let api: Awaited<ReturnType<typeof getApi>>;
  let port: number;
  let main: MountLike;
  const mounted: MountLike[] = [];

  const faults = async (method: 'POST' | 'DELETE', rule?: unknown) => {
    const res = await fetch(`http://127.0.0.1:${port}/__sandbox/faults`, {
      method,
      headers: { 'content-type': 'application/json' },
      body: rule === undefined ? undefined : JSON.stringify(rule),
    });
    assert.equal(res.status, 200, await res.text());
  };
  const dialogText = () => pageText('.monaco-dialog-box');

  before(async () => {
    api = await getApi();
    await api.services.profiles.switchTo('Sandbox');
    port = ((await api.sandbox()) as unknown as { port: number }).port;
    main = (await vscode.commands.executeCommand('dashboardPlatform.model.open', {
      deploymentId: 1,
      branch: 'main',
      addFolder: false,
    })) as MountLike;
  });

  afterEach(async () => {
    // A dialog a failed test left open would take the next keystrokes (Enter would pick its
    // first button): dismiss it.
    if ((await dialogText())?.trim())
      await click({ selector: '.monaco-dialog-box .monaco-button:has-text("Cancel")' });
    await vscode.commands.executeCommand('workbench.action.closeQuickOpen');
  });

  after(async () => {
    await faults('DELETE').catch(() => undefined);
    for (const m of mounted)
      await vscode.commands.executeCommand('dashboardPlatform.model.switchBranch', m.root, 'main').then(
        () => undefined,
        () => undefined,
      );
    // The untitled notebook of the picker test is behind the later tests' text editors (not
    // visible, still dirty): reverted, so closing asks nothing.
    await revertAndCloseAll();
  });

  it('asks before adding a model folder would reload this single-folder window, offering a new window', async function () {
    if ((await pageText('body')) === undefined) this.skip(); // the dialog needs UI control (code-server route)
    assert.equal(vscode.workspace.workspaceFile, undefined, 'a single-folder window');
    const before = vscode.workspace.workspaceFolders?.map((f) => f.uri.toString());
    const opening = vscode.commands.executeCommand('dashboardPlatform.model.open', {
      deploymentId: 1,
      branch: 'staging',
    }) as Thenable<MountLike>;
    const text = await waitFor(
      'the reload warning',
      async () => {
        const t = (await dialogText()) ?? '';
        return t.includes('reloads') ? t : undefined;
      },
      60_000,
    );
    assert.match(text, /Adding "Analytics · staging" to this window reloads it/);
    assert.match(text, /Open in New Window/);
    assert.match(text, /Add to This Window \(Reloads\)/);
    await screenshot('model-new-window-offer', 600);
    // Cancel: nothing reloads, the branch is open without a folder.
    await click({ selector: '.monaco-dialog-box .monaco-button:has-text("Cancel")' });
    const staging = await opening;
    assert.equal(staging.branch, 'staging');
    assert.deepEqual(
      vscode.workspace.workspaceFolders?.map((f) => f.uri.toString()),
      before,
      'no folder was added (the window did not reload)',
    );
    assert.match(api.model.status.text, /staging · dev mode/, 'the status bar names it at once');
    mounted.push(staging);
  });

  it('names the branch just opened in the status bar at once, even with another branch’s file in the editor', async () => {
    const doc = await vscode.workspace.openTextDocument(main.uri(ORDERS));
    await vscode.window.showTextDocument(doc);
    await waitFor('the status bar to show main', () => /lock.*main/.test(api.model.status.text));
    await createBranch(main.root, OTHER);
    // The branch replaced main's mount; open it again beside it, as Open Data Model… does.
    main = (await vscode.commands.executeCommand('dashboardPlatform.model.open', {
      deploymentId: 1,
      branch: 'main',
      addFolder: false,
    })) as MountLike;
    await vscode.window.showTextDocument(await vscode.workspace.openTextDocument(main.uri(ORDERS)));
    await waitFor('main in the status bar', () => /lock.*main/.test(api.model.status.text));
    const other = (await vscode.commands.executeCommand('dashboardPlatform.model.open', {
      deploymentId: 1,
      branch: OTHER,
      addFolder: false,
    })) as MountLike;
    mounted.push(other);
    assert.equal(vscode.window.activeTextEditor?.document.uri.toString(), main.uri(ORDERS).toString());
    assert.match(api.model.status.text, new RegExp(`${OTHER} · dev mode`), 'no lag behind the mount');
    assert.equal(api.services.modelBranch.current?.branch, OTHER);
  });

  it('offers the deployment and branch pickers to a notebook with neither, and the status bar follows its branch', async function () {
    const nb = await vscode.workspace.openNotebookDocument(
      NOTEBOOK_TYPE,
      new vscode.NotebookData([
        new vscode.NotebookCellData(vscode.NotebookCellKind.Code, '{"measures":["orders.count"]}', 'json'),
      ]),
    );
    await vscode.window.showNotebookDocument(nb);
    assert.equal(nb.metadata.deploymentId, undefined, 'no deployment yet');
    // From the notebook toolbar, with what VS Code passes there.
    const picking = vscode.commands.executeCommand('dashboardPlatform.model.notebookBranch', {
      notebookEditor: { notebookUri: nb.uri },
      ui: true,
    }) as Thenable<string | undefined>;
    const title = await waitFor(
      'the deployment picker',
      async () => {
        const t = await pageText('.quick-input-widget .quick-input-title');
        return t === undefined ? 'no-ui' : /deployment/i.test(t) ? t : undefined;
      },
      30_000,
    );
    if (title === 'no-ui') {
      await vscode.commands.executeCommand('workbench.action.closeQuickOpen');
      await picking.then(
        () => undefined,
        () => undefined,
      );
      this.skip();
    }
    await typeText('Analytics');
    await pressKeys(['Enter']);
    await waitFor(
      'the branch picker',
      async () =>
        /Run this notebook on a branch of Analytics$/.test(
          (await pageText('.quick-input-widget .quick-input-title')) ?? '',
        ),
      30_000,
    );
    await screenshot('model-notebook-branch-picker', 300);
    await typeText(OTHER);
    await pressKeys(['Enter']);
    assert.equal(await picking, OTHER);
    assert.equal(nb.metadata.devBranch, OTHER);
    assert.equal(nb.metadata.deploymentId, 1);
    await waitFor('the status bar to name the notebook’s branch', () =>
      new RegExp(`notebook\\) ${OTHER} · dev mode`).test(api.model.status.text),
    );
    assert.match(api.model.status.tooltip, /This notebook runs on the branch .* of Analytics,/);
    // Back to the deployment itself: the status bar says main at once.
    await vscode.commands.executeCommand('dashboardPlatform.model.notebookBranch', {
      branch: null,
      notebook: nb,
    });
    await waitFor('the status bar to say main for the notebook', () =>
      /notebook\) main$/.test(api.model.status.text),
    );
  });

  it('a branch gone from the server says so, and Create Again brings the folder back', async function () {
    if ((await pageText('body')) === undefined) this.skip(); // the dialog needs UI control
    const root = vscode.Uri.parse(`dpmodel://1/${LOST}`);
    // As when a restored folder names a branch the server does not have (a reset sandbox).
    await assert.rejects(
      Promise.resolve(vscode.workspace.fs.readDirectory(root)),
      /not on the server any more/,
    );
    const text = await waitFor('the lost-branch question', async () => {
      const t = (await dialogText()) ?? '';
      return t.includes(LOST) ? t : undefined;
    });
    assert.match(text, /is not on the server any more/);
    assert.match(text, /Switch to main/);
    assert.match(text, /Create Again/);
    assert.match(api.model.status.text, /warning.*not on the server/);
    await screenshot('model-lost-branch', 600);
    await click({ selector: '.monaco-dialog-box .monaco-button:has-text("Create Again")' });
    const entries = await waitFor(
      'the branch to be back',
      async () => vscode.workspace.fs.readDirectory(vscode.Uri.joinPath(root, 'model', 'cubes')),
      60_000,
    );
    assert.ok(entries.some(([n]) => n === 'orders.yml'));
    assert.match(api.model.status.text, new RegExp(`${LOST} · dev mode`));
    const branches = await (await api.services.clients.build()).allBranches(1);
    assert.ok(branches.some((b) => b.name === LOST));
    mounted.push({ root, branch: LOST, uri: (p: string) => vscode.Uri.joinPath(root, p) });
  });

  it('creating a branch from one that is gone works (from main), without switching first', async () => {
    const gone = `it-gone-${Date.now().toString(36)}`;
    const fresh = `it-fresh-${Date.now().toString(36)}`;
    const m = await createBranch(main.root, gone);
    await (await api.services.clients.build()).removeBranch(1, { branchName: gone });
    const next = await createBranch(m.root, fresh);
    assert.equal(next.branch, fresh);
    const branches = await (await api.services.clients.build()).allBranches(1);
    assert.equal(branches.find((b) => b.name === fresh)?.parentBranch, 'main');
    mounted.push(next);
  });

  it('a save the server refuses (200 {"success": false}) fails in the editor, which stays dirty', async () => {
    const branch = mounted.find((m) => m.branch === OTHER)!;
    const doc = await vscode.workspace.openTextDocument(branch.uri(ORDERS));
    await vscode.window.showTextDocument(doc);
    const edit = new vscode.WorkspaceEdit();
    edit.insert(doc.uri, new vscode.Position(0, 0), '# refused edit\n');
    assert.ok(await vscode.workspace.applyEdit(edit));
    await faults('POST', {
      family: 'platform',
      route: '/data-model/files',
      method: 'PUT',
      status: 200,
      body: { success: false },
      times: 1,
    });
    assert.equal(await doc.save(), false, 'the save failed');
    assert.ok(doc.isDirty, 'the edit is still unsaved in the editor');
    await screenshot('model-save-refused', 800);
    const files = await (
      await api.services.clients.build()
    ).listFiles(1, { branchName: OTHER, withContent: true });
    assert.doesNotMatch(files.find((f) => f.path === ORDERS)?.content ?? '', /# refused edit/);
    // Saving again (the fault was for one write) goes through.
    assert.equal(await doc.save(), true);
    assert.ok(!doc.isDirty);
  });
});
