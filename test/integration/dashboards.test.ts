// Dashboards as code inside a real VS Code against the sandbox: pull a workbook's dashboard into a
// *.dashboard.json, edit it as a document, publish and see the new version in the sandbox; invalid
// content blocks the publish with the field named; a rejected publish leaves the file as it was.
import assert from 'node:assert/strict';
import * as vscode from 'vscode';
import type { PublishedDashboard } from '../../src/api/schemas/platform';
import type { PublishHistoryEntry } from '../../src/dashboards';
import type { ExtensionApi } from '../../src/extension';
import {
  getApi,
  screenshot,
  waitFor,
  webviewClick,
  webviewDrag,
  webviewKeys,
  revertAndCloseAll,
} from './harness';

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
    await revertAndCloseAll();
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
    const saved = await doc.save();
    if (!saved) await screenshot('dash-save-failed', 300);
    assert.ok(saved);

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
    assert.ok((result.versionNumber ?? 0) > (before[before.length - 1]?.versionNumber ?? 0));
    assert.equal((result.config as { title?: unknown } | null | undefined)?.title, newTitle);

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

  type Box = { x: number; y: number; w: number; h: number };
  type FileJson = {
    title?: string;
    description?: string;
    allowEmbed?: boolean;
    config: {
      title?: string;
      layout?: { rowHeight?: number; margin?: number[]; cols?: Record<string, number> };
      theme?: { primaryColor?: string };
      widgets: {
        id: string;
        type?: string;
        config?: Record<string, unknown>;
        position: Box;
        responsiveLayouts?: Record<string, Box>;
      }[];
    };
  };
  /** Reverts the file's unsaved edits, from whichever editor is active. */
  const restore = async (doc: vscode.TextDocument) => {
    await vscode.commands.executeCommand('workbench.action.files.revert');
    if (doc.isDirty) {
      await vscode.window.showTextDocument(doc);
      await vscode.commands.executeCommand('workbench.action.files.revert');
    }
  };
  const openEditor = async () => {
    // A failed test may leave the file dirty: revert it so closing never waits on a save prompt.
    const open = vscode.workspace.textDocuments.find((d) => d.uri.toString() === file.toString());
    if (open?.isDirty) {
      await vscode.window.showTextDocument(open);
      await vscode.commands.executeCommand('workbench.action.files.revert');
    }
    await revertAndCloseAll();
    await vscode.commands.executeCommand('dashboardPlatform.dashboards.openEditor', file);
    await waitFor('the dashboard editor page loads', () => api.dashboards.editor.isReady(file), 30_000);
    return vscode.workspace.openTextDocument(file);
  };
  const json = (doc: vscode.TextDocument) => JSON.parse(doc.getText()) as FileJson;

  it('edits everything through the custom editor as text edits, undoes, saves and publishes', async () => {
    const doc = await openEditor();
    const editor = api.dashboards.editor;
    const before = json(doc);
    const [first, second] = before.config.widgets;
    assert.ok(first && second, 'the pulled dashboard has widgets');
    const linesBefore = doc.getText().split('\n');
    const newTitle = `From the editor ${Date.now()}`;
    const send = (m: Parameters<typeof editor.receive>[1]) => editor.receive(file, m);
    await send({ type: 'setTitle', title: newTitle });
    await send({ type: 'setDescription', description: 'Edited in the dashboard editor' });
    await send({ type: 'moveWidget', id: first.id, x: 0, y: first.position.y + 3, breakpoint: null });
    await send({ type: 'resizeWidget', id: second.id, w: 3, h: 2, breakpoint: 'sm' });
    await send({ type: 'addWidget', widgetType: 'TEXT' });
    await send({ type: 'setWidgetConfig', id: 'text', config: { text: '## Added in the editor' } });
    await send({ type: 'duplicateWidget', id: 'text' });
    await send({ type: 'setWidgetType', id: 'text-copy', widgetType: 'AI' });
    await send({ type: 'deleteWidget', id: 'text-copy' });
    await send({ type: 'setTheme', path: ['primaryColor'], value: '#ff6600' });
    await send({ type: 'setRowHeight', value: 48 });
    await send({ type: 'setBreakpointValue', field: 'cols', breakpoint: 'xs', value: 3 });
    // Flip it: the pulled file carries the published dashboard's allowEmbed, which may already be true.
    const embed = before.allowEmbed !== true;
    await send({ type: 'setAllowEmbed', allowEmbed: embed });
    assert.ok(doc.isDirty, 'the edits are document edits');
    let after = json(doc);
    assert.equal(after.title, newTitle);
    assert.equal(after.config.title, newTitle);
    assert.equal(after.description, 'Edited in the dashboard editor');
    assert.deepEqual(after.config.widgets[0]!.position, { ...first.position, x: 0, y: first.position.y + 3 });
    assert.deepEqual(
      {
        w: after.config.widgets[1]!.responsiveLayouts?.sm?.w,
        h: after.config.widgets[1]!.responsiveLayouts?.sm?.h,
      },
      { w: 3, h: 2 },
    );
    const added = after.config.widgets.find((w) => w.id === 'text');
    assert.deepEqual([added?.type, added?.config], ['TEXT', { text: '## Added in the editor' }]);
    assert.equal(
      after.config.widgets.some((w) => w.id === 'text-copy'),
      false,
      'the duplicate was deleted',
    );
    assert.equal(after.config.widgets.length, before.config.widgets.length + 1);
    assert.equal(after.config.theme?.primaryColor, '#ff6600');
    assert.equal(after.config.layout?.rowHeight, 48);
    assert.equal(after.config.layout?.cols?.xs, 3);
    assert.equal(after.allowEmbed, embed);
    const kept = new Set(doc.getText().split('\n'));
    const changed = linesBefore.filter((l) => !kept.has(l));
    assert.ok(changed.length <= 12, `only the edited values' lines changed: ${changed.join(' | ')}`);
    assert.equal(editor.stateOf(doc).problems.length, 0);

    // Undo is VS Code's, on the document: it takes back the last edit only.
    await vscode.commands.executeCommand('undo');
    after = json(doc);
    assert.equal(after.allowEmbed, before.allowEmbed, 'undo took back allowEmbed');
    assert.equal(after.config.layout?.cols?.xs, 3, 'and nothing before it');
    await vscode.commands.executeCommand('redo');
    assert.equal(json(doc).allowEmbed, embed, 'redo puts it back');
    assert.ok(await doc.save());

    const publishes = await publishesOf();
    const result = (await vscode.commands.executeCommand('dashboardPlatform.dashboards.publish', {
      uri: file,
      confirm: true,
      showDiff: false,
    })) as PublishedDashboard;
    assert.ok(result);
    const last = (await publishesOf()).slice(publishes.length);
    assert.equal(last.length, 1);
    assert.equal(last[0]!.title, newTitle);
    assert.equal(last[0]!.versionNumber, result.versionNumber);
    const published = result.config as FileJson['config'];
    assert.equal(published.theme?.primaryColor, '#ff6600');
    assert.ok(published.widgets.some((w) => w.id === 'text'));
    // The editor's history tab shows the new version.
    const history = editor.stateOf(doc).history;
    assert.equal(history[history.length - 1]!.versionNumber, result.versionNumber);
  });

  it('moves and resizes a widget with a real drag and the keyboard in the page', async function () {
    const doc = await openEditor();
    try {
      const before = json(doc);
      const w = before.config.widgets[1]!;
      const lg = w.responsiveLayouts?.lg ?? w.position;
      const rowHeight = before.config.layout?.rowHeight ?? 150;
      const marginY = before.config.layout?.margin?.[1] ?? 10;
      // The widgets' report previews arrive after the page opens and re-render it: wait for them so
      // the drag and the keys act on the final widgets.
      await api.dashboards.editor.reportsLoaded.get(doc.uri.toString());
      await api.dashboards.editor.showBreakpoint(doc, 'lg');
      const dragged = await webviewDrag(`.widget[data-id="${w.id}"]`, 0, 2 * (rowHeight + marginY));
      if (!dragged) this.skip(); // no Playwright in this route
      const key = w.responsiveLayouts?.lg ? 'lg' : undefined;
      const boxOf = () => {
        const now = json(doc).config.widgets.find((x) => x.id === w.id)!;
        return key ? now.responsiveLayouts![key]! : now.position;
      };
      await waitFor('the drag moved the widget two rows down', () => boxOf().y === lg.y + 2, 10_000);
      assert.equal(boxOf().x, lg.x);
      await webviewKeys(`.widget[data-id="${w.id}"]`, ['Shift+ArrowDown', 'ArrowUp']);
      await waitFor(
        'the keys resized and moved it',
        () => boxOf().h === lg.h + 1 && boxOf().y === lg.y + 1,
        10_000,
      );
      assert.ok(doc.isDirty);
    } finally {
      // Even when it fails: a moved widget left in the file would cover others in later tests.
      await restore(doc);
    }
  });

  it('applies edits the page sends together, each on the one before, none refused', async () => {
    const doc = await openEditor();
    try {
      const w = json(doc).config.widgets[0]!;
      // Sent at once, as quick keys are: the second arrives while VS Code applies the first.
      const edits = [
        { type: 'resizeWidget', w: w.position.w, h: w.position.h + 1 },
        { type: 'moveWidget', x: w.position.x, y: w.position.y + 1 },
      ] as const;
      await Promise.all(
        edits.map((e) => api.dashboards.editor.receive(file, { ...e, id: w.id, breakpoint: null })),
      );
      const now = json(doc).config.widgets.find((x) => x.id === w.id)!;
      assert.deepEqual(now.position, { ...w.position, y: w.position.y + 1, h: w.position.h + 1 });
    } finally {
      await restore(doc);
    }
  });

  it('lists the problems of invalid text in the Problems panel and keeps the last valid preview', async () => {
    const doc = await openEditor();
    const editor = api.dashboards.editor;
    const original = doc.getText();
    const title = json(doc).title;
    const bad = new vscode.WorkspaceEdit();
    bad.replace(
      file,
      new vscode.Range(doc.positionAt(0), doc.positionAt(original.length)),
      original.replace(`"workbookId": ${workbookId}`, '"workbookId": "seven"'),
    );
    assert.ok(await vscode.workspace.applyEdit(bad));
    const diags = await waitFor("the Problems panel lists the file's problem", () => {
      const d = vscode.languages.getDiagnostics(file).filter((x) => x.source === 'Dashboard Platform');
      return d.length > 0 ? d : undefined;
    });
    assert.ok(diags[0]!.message.startsWith('workbookId:'), diags[0]!.message);
    assert.equal(diags[0]!.range.start.line, 1);
    const state = editor.stateOf(doc);
    assert.ok(state.problems[0]!.message.startsWith('workbookId:'));
    assert.equal(state.input?.title, title, 'the last valid preview stays');
    await assert.rejects(editor.receive(file, { type: 'setTitle', title: 'x' }), /Fix the problems/);
    const fix = new vscode.WorkspaceEdit();
    fix.replace(file, new vscode.Range(doc.positionAt(0), doc.positionAt(doc.getText().length)), original);
    assert.ok(await vscode.workspace.applyEdit(fix));
    await waitFor('the problem goes away once fixed', () =>
      vscode.languages.getDiagnostics(file).every((x) => x.source !== 'Dashboard Platform')
        ? true
        : undefined,
    );
    assert.ok(await doc.save());
  });

  it('publishes from the editor through its review, and its history shows the version', async () => {
    const doc = await openEditor();
    const editor = api.dashboards.editor;
    const before = await publishesOf();
    const historyBefore = editor.stateOf(doc).history.length;
    await editor.receive(file, { type: 'setTitle', title: `Reviewed ${Date.now()}` });
    assert.ok(await doc.save());
    // The page's Publish button opens the review; nothing is sent until it is confirmed.
    await editor.receive(file, { type: 'publish' });
    assert.equal((await publishesOf()).length, before.length, 'the review alone publishes nothing');
    assert.match(
      editor.stateOf(doc).review?.summary ?? '',
      /title changed/,
      'the page shows the open review',
    );
    // The page's own "Publish These Changes" confirms that review.
    await editor.receive(file, { type: 'publishReviewed' });
    const after = await publishesOf();
    assert.equal(after.length, before.length + 1, 'one publish went out');
    const history = editor.stateOf(doc).history;
    assert.equal(history.length, historyBefore + 1);
    assert.equal(history[history.length - 1]!.versionNumber, after[after.length - 1]!.versionNumber);
    assert.equal(editor.stateOf(doc).review, undefined, 'the review ended');
  });

  it('shows the editor at two breakpoints (screenshots)', async () => {
    const doc = await openEditor();
    await vscode.commands.executeCommand('workbench.action.closeSidebar');
    await vscode.commands.executeCommand('workbench.action.closeAuxiliaryBar');
    await vscode.commands.executeCommand('notifications.clearAll');
    const editor = api.dashboards.editor;
    await editor.showBreakpoint(doc, 'lg');
    const id = json(doc).config.widgets[1]!.id;
    await editor.receive(file, { type: 'setTitle', title: 'Revenue Dashboard' });
    if (await webviewClick(`.widget[data-id="${id}"]`)) {
      await screenshot('dashboard-editor', 1200);
      await editor.showBreakpoint(doc, 'sm');
      await webviewClick('[data-tab="theme"]');
      await screenshot('dashboard-editor-sm', 1200);
      await webviewClick('[data-tab="widget"]');
    }
    await vscode.commands.executeCommand('workbench.action.files.revert');
    assert.ok(!doc.isDirty);
    await vscode.commands.executeCommand('workbench.action.toggleSidebarVisibility');
    assert.ok(editor.isReady(file));
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
