// Dashboards as code inside a real VS Code against the sandbox: pull a workbook's dashboard into a
// *.dashboard.json, edit it as a document, publish and see the new version in the sandbox; invalid
// content blocks the publish with the field named; a rejected publish leaves the file as it was.
import assert from 'node:assert/strict';
import * as vscode from 'vscode';
import type { PublishedDashboard } from '../../src/api/schemas/platform';
import type { PublishHistoryEntry } from '../../src/dashboards';
import type { ExtensionApi } from '../../src/extension';
import { getApi, screenshot, waitFor } from './harness';

interface SandboxState {
  publishes: { deploymentId: number; workbookId: number; versionNumber: number; title: string }[];
}

describe('dashboards as code', function () {
  this.timeout(120_000);
  let api: ExtensionApi;
  let port: number;
  let deploymentId: number;
  let workbookId: number;
  let file: vscode.Uri;

  const state = async (): Promise<SandboxState> =>
    (await (await fetch(`http://127.0.0.1:${port}/__sandbox/state`)).json()) as SandboxState;
  const publishesOf = async () => (await state()).publishes.filter((p) => p.workbookId === workbookId);
  const text = async () => new TextDecoder().decode(await vscode.workspace.fs.readFile(file));

  before(async () => {
    api = await getApi();
    await api.services.profiles.switchTo('Sandbox');
    port = ((await api.sandbox()) as unknown as { port: number }).port;
    const client = await api.services.clients.platform();
    deploymentId = (await client.listDeployments()).items[0]!.id;
    workbookId = (await client.listWorkbooks(deploymentId)).items[0]!.id;
    const folder = vscode.workspace.workspaceFolders?.[0]?.uri;
    assert.ok(folder, 'the test workspace has a folder');
    file = vscode.Uri.joinPath(folder, 'sales.dashboard.json');
  });

  after(async () => {
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
    await vscode.workspace.fs.delete(file).then(undefined, () => undefined);
  });

  it('pulls the dashboard, publishes an edited title and records a new version', async () => {
    const pulled = (await vscode.commands.executeCommand('dashboardPlatform.dashboards.edit', {
      deploymentId,
      workbookId,
      target: file,
    })) as vscode.Uri;
    assert.equal(pulled.toString(), file.toString());
    const content = JSON.parse(await text()) as {
      workbookId: number;
      config: { title?: string; widgets?: unknown[] };
    };
    assert.equal(content.workbookId, workbookId);
    assert.ok(
      content.config.widgets && content.config.widgets.length > 0,
      'the config came with its widgets',
    );
    const editor = await waitFor('the pulled file opens', () =>
      vscode.window.visibleTextEditors.find((e) => e.document.uri.toString() === file.toString()),
    );

    const doc = editor.document;
    const newTitle = `Edited ${Date.now()}`;
    const edited = { ...content, title: newTitle, config: { ...content.config, title: newTitle } };
    const edit = new vscode.WorkspaceEdit();
    edit.replace(
      file,
      new vscode.Range(doc.positionAt(0), doc.positionAt(doc.getText().length)),
      `${JSON.stringify(edited, null, 2)}\n`,
    );
    assert.ok(await vscode.workspace.applyEdit(edit));
    assert.ok(await doc.save());

    const before = await publishesOf();
    const result = (await vscode.commands.executeCommand('dashboardPlatform.dashboards.publish', {
      uri: file,
      confirm: true,
    })) as PublishedDashboard;
    assert.ok(result, 'the publish succeeded');
    const after = await publishesOf();
    assert.equal(after.length, before.length + 1);
    const last = after[after.length - 1]!;
    assert.equal(last.title, newTitle);
    assert.equal(last.versionNumber, result.versionNumber);
    assert.ok(result.versionNumber > (before[before.length - 1]?.versionNumber ?? 0));
    assert.equal(result.config?.title, newTitle);

    const history = (await vscode.commands.executeCommand('dashboardPlatform.dashboards.showHistory', {
      uri: file,
    })) as PublishHistoryEntry[];
    assert.equal(history[history.length - 1]!.versionNumber, result.versionNumber);
    assert.equal(history[history.length - 1]!.who, 'Sandbox');
    assert.equal(history[history.length - 1]!.publicId, result.publicId);
  });

  it('blocks the publish of an invalid file and names the field', async () => {
    const doc = await vscode.workspace.openTextDocument(file);
    const original = doc.getText();
    const bad = original.replace(`"workbookId": ${workbookId}`, '"workbookId": "seven"');
    assert.notEqual(bad, original);
    const edit = new vscode.WorkspaceEdit();
    edit.replace(file, new vscode.Range(doc.positionAt(0), doc.positionAt(original.length)), bad);
    assert.ok(await vscode.workspace.applyEdit(edit));
    const before = await publishesOf();
    const result = await vscode.commands.executeCommand('dashboardPlatform.dashboards.publish', {
      uri: file,
      confirm: true,
    });
    assert.equal(result, undefined);
    assert.equal((await publishesOf()).length, before.length, 'nothing was sent');
    const diags = vscode.languages.getDiagnostics(file).filter((d) => d.source === 'Dashboard Platform');
    assert.ok(
      diags.some((d) => d.message.startsWith('workbookId:')),
      JSON.stringify(diags.map((d) => d.message)),
    );
    const restore = new vscode.WorkspaceEdit();
    restore.replace(
      file,
      new vscode.Range(doc.positionAt(0), doc.positionAt(doc.getText().length)),
      original,
    );
    assert.ok(await vscode.workspace.applyEdit(restore));
    assert.ok(await doc.save());
  });

  it('leaves the file untouched when the server rejects the publish', async () => {
    const res = await fetch(`http://127.0.0.1:${port}/__sandbox/faults`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({
        family: 'platform',
        route: '/publish',
        status: 400,
        body: { error: 'Dashboard is locked by another editor' },
        times: 1,
      }),
    });
    assert.ok(res.ok, `faults: ${res.status}`);
    const original = await text();
    const historyBefore = (await vscode.commands.executeCommand('dashboardPlatform.dashboards.showHistory', {
      uri: file,
    })) as PublishHistoryEntry[];
    const before = await publishesOf();
    const result = await vscode.commands.executeCommand('dashboardPlatform.dashboards.publish', {
      uri: file,
      confirm: true,
      showDiff: false,
    });
    assert.equal(result, undefined, 'the publish was rejected');
    assert.equal(await text(), original, 'the file is unchanged');
    assert.equal((await publishesOf()).length, before.length);
    const historyAfter = (await vscode.commands.executeCommand('dashboardPlatform.dashboards.showHistory', {
      uri: file,
    })) as PublishHistoryEntry[];
    assert.equal(historyAfter.length, historyBefore.length, 'no history entry for a rejected publish');
    // The fault answered that publish (times: 1): the next one goes through.
    const retried = await vscode.commands.executeCommand('dashboardPlatform.dashboards.publish', {
      uri: file,
      confirm: true,
      showDiff: false,
    });
    assert.ok(retried, 'the next publish succeeds');
    assert.equal((await publishesOf()).length, before.length + 1);
  });

  it('edits the title and moves a widget through the custom editor, then publishes', async () => {
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
    await vscode.commands.executeCommand('vscode.openWith', file, 'dashboardPlatform.dashboardEditor');
    const doc = await vscode.workspace.openTextDocument(file);
    const editor = api.dashboards.editor;
    await waitFor('the dashboard editor page loads', () => editor.isReady(file), 30_000);
    const content = JSON.parse(doc.getText()) as {
      config: { widgets: { id: string; position: { x: number; y: number; w: number } }[] };
    };
    const widget = content.config.widgets[0]!;
    const newTitle = `From the editor ${Date.now()}`;
    await editor.receive(file, { type: 'setTitle', title: newTitle });
    await editor.receive(file, {
      type: 'moveWidget',
      id: widget.id,
      x: 0,
      y: widget.position.y + 3,
      breakpoint: null,
    });
    assert.ok(doc.isDirty, 'the edits are document edits');
    const after = JSON.parse(doc.getText()) as typeof content & { title: string };
    assert.equal(after.title, newTitle);
    assert.deepEqual(
      { x: after.config.widgets[0]!.position.x, y: after.config.widgets[0]!.position.y },
      { x: 0, y: widget.position.y + 3 },
    );
    assert.equal(editor.stateOf(doc).problems.length, 0);
    await vscode.commands.executeCommand('notifications.clearAll');
    await editor.showBreakpoint(doc, 'lg');
    await screenshot('dashboard-editor', 1500);
    await editor.showBreakpoint(doc, 'sm');
    await screenshot('dashboard-editor-sm', 1500);
    assert.ok(await doc.save());

    const before = await publishesOf();
    const result = (await vscode.commands.executeCommand('dashboardPlatform.dashboards.publish', {
      uri: file,
      confirm: true,
      showDiff: false,
    })) as PublishedDashboard;
    assert.ok(result);
    const last = (await publishesOf()).slice(before.length);
    assert.equal(last.length, 1);
    assert.equal(last[0]!.title, newTitle);
    assert.equal(last[0]!.versionNumber, result.versionNumber);
  });

  it('attaches an AI widget thread to the published dashboard', async () => {
    const result = (await vscode.commands.executeCommand(
      'dashboardPlatform.dashboards.attachAiWidgetThread',
      {
        deploymentId,
        workbookId,
        threadId: 'thread-1',
        widgetId: 'w-ai',
        checksum: 'abc',
      },
    )) as PublishedDashboard & { aiWidgetThreads?: Record<string, unknown> };
    assert.deepEqual(result.aiWidgetThreads?.['w-ai'], { threadId: 'thread-1', checksum: 'abc' });
  });
});
