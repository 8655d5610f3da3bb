// Journey: edit, review, publish, history. A dashboard file from a teammate's repository (never
// published from this workspace) is opened in the Dashboard Editor; its widgets read their reports'
// names from the server; one widget gets another report through the picker; a bad theme value is
// marked at its field and fixed; the description is edited; the review opens with only those
// changes (no fields the server fills in), its decision stays in the review's title bar well past
// a notification's life, and publishing from there sends exactly that review: the history shows
// the version and the server holds the description. A review without changes cannot be published;
// a review whose file changed is refused and reviewed again; the review tab's own "Publish
// Dashboard…" confirms that review. Screenshots in light and dark themes (out/screenshots/journeys).
import assert from 'node:assert/strict';
import * as vscode from 'vscode';
import type { PublishHistoryEntry } from '../../../src/dashboards';
import type { ExtensionApi } from '../../../src/extension';
import {
  click,
  getApi,
  pageCount,
  pageText,
  pressKeys,
  screenshot,
  typeText,
  waitFor,
  webviewClick,
  webviewFill,
  webviewText,
  revertAndCloseAll,
  setTheme,
} from '../harness';

const DEPLOYMENT = 1;
const WORKBOOK = 1007; // "Sessions Dashboard": published in the seed, and no other suite publishes it
const PICKED = { id: 10014, name: 'Orders by Month' };
// The review's title-bar actions (worded, not icons), in the active editor group.
const PUBLISH_ACTION =
  '.editor-group-container.active .editor-actions .action-label:has-text("Publish These Changes")';
const CANCEL_ACTION =
  '.editor-group-container.active .editor-actions .action-label:has-text("Cancel Publish")';

interface SandboxState {
  publishes: { deploymentId: number; workbookId: number; versionNumber: number }[];
}
type FileJson = {
  description?: string;
  config: {
    description?: string;
    theme?: Record<string, unknown>;
    widgets: { id: string; type?: string; config?: Record<string, unknown> }[];
  } & Record<string, unknown>;
} & Record<string, unknown>;

const reviewTabs = () =>
  vscode.window.tabGroups.all
    .flatMap((g) => g.tabs)
    .filter(
      (t) =>
        t.input instanceof vscode.TabInputTextDiff &&
        t.input.modified.scheme === 'dashboard-platform-published',
    );

describe('journey: edit, review, publish, history', function () {
  this.timeout(240_000);
  let api: ExtensionApi;
  let port: number;
  let file: vscode.Uri;
  let doc: vscode.TextDocument;
  let ui = false;

  const publishes = async () =>
    (
      (await (await fetch(`http://127.0.0.1:${port}/__sandbox/state`)).json()) as SandboxState
    ).publishes.filter((p) => p.workbookId === WORKBOOK);
  const json = () => JSON.parse(doc.getText()) as FileJson;
  /** Saves the file (Ctrl+S), saying why when VS Code did not. */
  const save = async () => {
    doc = await vscode.workspace.openTextDocument(file);
    if (!doc.isDirty) return;
    const saved = await doc.save();
    if (!saved) await screenshot('journeys/save-failed', 300);
    assert.ok(saved, `saved (dirty ${doc.isDirty}, closed ${doc.isClosed}, version ${doc.version})`);
  };
  // The file's history as Show Publish History lists it (read directly: the command's quick pick
  // would take the keyboard from the steps that follow).
  const history = (): PublishHistoryEntry[] => api.dashboards.history(file);

  before(async () => {
    api = await getApi();
    await api.services.profiles.switchTo('Sandbox');
    port = ((await api.sandbox()) as unknown as { port: number }).port;
    ui = await pressKeys([]);
    await setTheme('Default Light Modern');
    await revertAndCloseAll();
    // A teammate's file: the published dashboard as the server has it, less the fields the server
    // fills in itself (kind, app), which people do not write.
    const client = await api.services.clients.platform();
    const workbook = (await client.getWorkbook(DEPLOYMENT, WORKBOOK)) as Record<string, unknown>;
    const published = workbook.publishedDashboard as Record<string, unknown>;
    const { kind: _kind, app: _app, ...config } = workbook.dashboardPublished as Record<string, unknown>;
    assert.equal(_kind, 'CLASSIC', 'the server holds a kind the file will not write');
    const folder = vscode.workspace.workspaceFolders?.[0]?.uri;
    assert.ok(folder, 'the test workspace has a folder');
    file = vscode.Uri.joinPath(folder, 'journey-sessions.dashboard.json');
    const text = `${JSON.stringify(
      {
        workbookId: WORKBOOK,
        dashboardId: published.id,
        title: published.title,
        description: published.description,
        config,
      },
      null,
      2,
    )}\n`;
    await vscode.workspace.fs.writeFile(file, new TextEncoder().encode(text));
  });

  after(async () => {
    for (const t of reviewTabs()) await vscode.window.tabGroups.close(t);
    const open = vscode.workspace.textDocuments.find((d) => d.uri.toString() === file.toString());
    if (open?.isDirty) {
      await vscode.window.showTextDocument(open);
      await vscode.commands.executeCommand('workbench.action.files.revert');
    }
    await revertAndCloseAll();
    await vscode.workspace.fs.delete(file).then(undefined, () => undefined);
    await setTheme('Default Light Modern');
  });

  it('opens the file in the Dashboard Editor with report names from the server and text widgets by their text', async () => {
    assert.deepEqual(history(), [], 'never published from this workspace');
    await vscode.commands.executeCommand('dashboardPlatform.dashboards.openEditor', file);
    const editor = api.dashboards.editor;
    await waitFor('the dashboard editor page loads', () => editor.isReady(file), 30_000);
    doc = await vscode.workspace.openTextDocument(file);
    await editor.reportsLoaded.get(file.toString());
    const state = editor.stateOf(doc);
    const charts = json().config.widgets.filter((w) => typeof w.config?.reportId === 'number');
    assert.ok(charts.length > 0, 'the dashboard places reports');
    for (const w of charts) {
      const report = await (
        await api.services.clients.platform()
      ).getReport(DEPLOYMENT, w.config!.reportId as number);
      assert.equal(state.reports[String(w.config!.reportId)]?.title, report.title ?? report.name, w.id);
    }
    const text = json().config.widgets.find((w) => w.type === 'TEXT');
    assert.ok(text, 'the dashboard has a TEXT widget');
    if (!ui) return;
    assert.equal(
      await webviewText(`.widget[data-id="${text.id}"] .wtitle`),
      String(text.config!.text).replace(/^#+\s*/, ''),
      'a TEXT widget is titled by its text, not its id',
    );
    await webviewClick(`.widget[data-id="${charts[0]!.id}"]`);
    assert.equal(
      await webviewText('.reportname'),
      state.reports[String(charts[0]!.config!.reportId)]!.title,
      'the inspector names the widget’s report',
    );
    await screenshot('journeys/publish-editor-light', 1200);
  });

  it('picks another report for a widget by name', async function () {
    if (!ui) this.skip(); // the picker is a quick pick the user types into (code-server route)
    const widget = json().config.widgets.find((w) => typeof w.config?.reportId === 'number')!;
    await webviewClick(`.widget[data-id="${widget.id}"]`);
    await webviewClick(`[data-key="report:${widget.id}"]`);
    await waitFor('the report picker opens', async () =>
      (await pageText('.quick-input-widget'))?.includes('Report of widget'),
    );
    await typeText(PICKED.name);
    await waitFor(
      'the server search lists the report',
      async () => (await pageText('.quick-input-list .monaco-list-row'))?.startsWith(PICKED.name),
      15_000,
    );
    await pressKeys(['Enter']);
    await waitFor('the picker closes', async () =>
      (await pageCount('.quick-input-widget')) === 0 ? true : undefined,
    );
    await waitFor('the widget shows the picked report', () =>
      json().config.widgets.find((w) => w.id === widget.id)?.config?.reportId === PICKED.id
        ? true
        : undefined,
    );
    await waitFor('the inspector names it', async () => (await webviewText('.reportname')) === PICKED.name);
    // Its title only repeated the old report's name, so it follows the new one.
    assert.equal(json().config.widgets.find((w) => w.id === widget.id)?.config?.title, PICKED.name);
    assert.equal(await webviewText(`.widget[data-id="${widget.id}"] .wtitle`), PICKED.name);
  });

  it('marks a bad theme value at its field, keeps editing, and takes the fix and a description', async function () {
    if (!ui) this.skip(); // typing into the page needs UI control (code-server route)
    const colour = String(json().config.theme?.primaryColor ?? '#5b5fc7');
    await webviewClick('[data-tab="theme"]');
    await webviewFill('[data-key="theme:primaryColor"]', 'banana');
    await waitFor('the file holds what was typed', () =>
      json().config.theme?.primaryColor === 'banana' ? true : undefined,
    );
    const message = await waitFor(
      'the field says what is wrong',
      async () => (await webviewText('.field.invalid .field-error')) || undefined,
    );
    assert.match(message, /"banana" is not a CSS colour/);
    assert.equal(api.dashboards.editor.stateOf(doc).locked, false, 'the rest stays editable');
    await screenshot('journeys/publish-invalid-value-light', 800);
    // Another field still works while banana is there, then the fix.
    await webviewFill('[data-key="theme:widgets.padding"]', '14px');
    await waitFor('the other field was edited', () =>
      (json().config.theme?.widgets as Record<string, unknown> | undefined)?.padding === '14px'
        ? true
        : undefined,
    );
    await webviewFill('[data-key="theme:widgets.padding"]', '12px');
    await webviewFill('[data-key="theme:primaryColor"]', colour);
    await waitFor('fixed', () => (json().config.theme?.primaryColor === colour ? true : undefined));
    await webviewClick('[data-tab="dashboard"]');
    await webviewFill('[data-key="description"]', 'Sessions, reviewed in the journey.');
    await waitFor('the description is in the file', () =>
      json().description === 'Sessions, reviewed in the journey.' ? true : undefined,
    );
    assert.equal(json().config.description, 'Sessions, reviewed in the journey.');
  });

  it('reviews only the real changes, and the decision stays in the review until it is taken', async function () {
    if (!ui) this.skip();
    await save();
    const before = await publishes();
    await webviewClick('[data-key="publish"]');
    const tab = await waitFor('the review opens', () => reviewTabs()[0]);
    assert.match(tab.label, /^Review: journey-sessions\.dashboard\.json → "[^"]+" \(/);
    assert.match(tab.label, /1 widget reconfigured/);
    assert.match(tab.label, /description changed/);
    const input = tab.input as vscode.TabInputTextDiff;
    const left = (await vscode.workspace.openTextDocument(input.original)).getText();
    assert.doesNotMatch(left, /^ {4}"kind"|"app"/m, 'no fields the server filled in');
    const review = await waitFor('the review is registered', () =>
      api.dashboards.reviews.open().find((r) => r.file.toString() === file.toString()),
    );
    assert.deepEqual(review.review.changes, [
      'description changed',
      '1 widget reconfigured',
      'config.description changed',
    ]);
    // Longer than a notification lives (about 12 s): the decision is still on screen, in the title bar.
    await new Promise((r) => setTimeout(r, 15_000));
    assert.ok(reviewTabs().length === 1, 'the review is still open');
    // Only a toast about this decision counts: VS Code's own (an Undo after an edit) may show at load.
    assert.doesNotMatch(
      (await pageText('.notifications-toasts')) ?? '',
      /publish|review/i,
      'no notification asks to publish',
    );
    assert.equal(await pageCount(PUBLISH_ACTION), 1, "Publish These Changes is in the review's title bar");
    assert.equal(await pageCount(CANCEL_ACTION), 1, 'and Cancel');
    assert.equal((await publishes()).length, before.length, 'nothing sent yet');
    await screenshot('journeys/publish-review-light', 800);
    await setTheme('Default Dark Modern');
    await screenshot('journeys/publish-review-dark', 1500);
  });

  it('publishes from the review: the history shows the version and the server holds the description', async function () {
    if (!ui) this.skip();
    const before = await publishes();
    const entries = history().length;
    await waitFor('the title-bar action', async () =>
      (await pageCount(PUBLISH_ACTION)) === 1 ? true : undefined,
    );
    await click({ selector: PUBLISH_ACTION });
    await waitFor(
      'the publish is recorded',
      async () => (history().length === entries + 1 ? true : undefined),
      30_000,
    );
    const sent = (await publishes()).slice(before.length);
    assert.equal(sent.length, 1, 'one publish went out');
    const last = history().at(-1)!;
    assert.equal(last.versionNumber, sent[0]!.versionNumber);
    await waitFor('the review closes', () => (reviewTabs().length === 0 ? true : undefined));
    const client = await api.services.clients.platform();
    const workbook = (await client.getWorkbook(DEPLOYMENT, WORKBOOK)) as Record<string, unknown>;
    const dashboard = workbook.publishedDashboard as {
      description?: string;
      config?: { description?: string };
    };
    assert.equal(dashboard.description, 'Sessions, reviewed in the journey.');
    assert.equal(dashboard.config?.description, 'Sessions, reviewed in the journey.');
    const picked = (dashboard.config as { widgets?: { config?: { reportId?: number } }[] }).widgets ?? [];
    assert.ok(
      picked.some((w) => w.config?.reportId === PICKED.id),
      'the picked report was published',
    );
    // The editor's History tab shows it.
    await vscode.commands.executeCommand('dashboardPlatform.dashboards.openEditor', file);
    await webviewClick('[data-tab="history"]');
    assert.equal(await webviewText('table.history tr:nth-child(2) td'), String(last.versionNumber));
    await screenshot('journeys/publish-history-dark', 1200);
  });

  it('cannot publish a review without changes, and cancels it from its title bar', async function () {
    if (!ui) this.skip();
    await setTheme('Default Light Modern');
    const before = await publishes();
    await vscode.commands.executeCommand('dashboardPlatform.dashboards.openEditor', file);
    await waitFor('the dashboard editor page loads', () => api.dashboards.editor.isReady(file), 30_000);
    await webviewClick('[data-key="publish"]');
    const tab = await waitFor('the review opens', () => reviewTabs()[0]);
    assert.match(tab.label, /\(no changes\)$/);
    await waitFor("the review's title bar shows its actions", async () =>
      (await pageCount(CANCEL_ACTION)) === 1 ? true : undefined,
    );
    assert.equal(await pageCount(PUBLISH_ACTION), 0, 'no Publish These Changes action on it');
    await screenshot('journeys/publish-no-changes-light', 500);
    const result = await vscode.commands.executeCommand('dashboardPlatform.dashboards.publishReviewed');
    assert.equal(result, undefined);
    assert.equal((await publishes()).length, before.length, 'nothing was published');
    await click({ selector: CANCEL_ACTION });
    await waitFor('the review closes', () => (reviewTabs().length === 0 ? true : undefined));
  });

  it('refuses a review whose file changed and reviews again; the review tab’s Publish Dashboard… confirms it', async function () {
    if (!ui) this.skip();
    const editor = api.dashboards.editor;
    const before = await publishes();
    await editor.receive(file, { type: 'setTitle', title: 'Sessions (first edit)' });
    await save();
    await vscode.commands.executeCommand('dashboardPlatform.dashboards.publish', { uri: file });
    const first = await waitFor('the review opens', () => api.dashboards.reviews.open()[0]);
    // The file changes under the open review.
    await editor.receive(file, { type: 'setTitle', title: 'Sessions (second edit)' });
    await save();
    await vscode.commands.executeCommand('dashboardPlatform.dashboards.publishReviewed', first.right);
    assert.equal((await publishes()).length, before.length, 'the stale review was not published');
    assert.equal(first.state, 'stale');
    const second = await waitFor('a new review opens', () =>
      api.dashboards.reviews.open().find((r) => r.id !== first.id),
    );
    assert.match(second.review.summary, /title changed/);
    assert.match(second.review.right, /Sessions \(second edit\)/);
    // From the review tab, the generic "Publish Dashboard…" confirms that review, not a new one.
    assert.equal(api.dashboards.reviews.active()?.toString(), second.right.toString());
    await vscode.commands.executeCommand('dashboardPlatform.dashboards.publish');
    assert.equal((await publishes()).length, before.length + 1);
    assert.equal(second.state, 'published');
    const last = history().at(-1)!;
    assert.equal(
      last.versionNumber,
      (await publishes()).at(-1)!.versionNumber,
      'recorded in the file’s history',
    );
  });
});
