// Issue 14's gallery: for each of its items 1-8 the screen that shows the fix, in the light and the
// dark theme, cropped to the part that matters, written to docs/images/polish/<item>-<what>-<theme>.png
// by `npm run screenshots` (docs/polish.md lists them with the tests that cover each item). Every
// shot waits for a state (a result, a dialog, a step's title), never only for time.
import assert from 'node:assert/strict';
import * as vscode from 'vscode';
import type { ChatPanel } from '../../src/chat/chatPanel';
import type { ExtensionApi } from '../../src/extension';
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
  type ScreenshotCrop,
} from '../integration/harness';
import { clean } from './window';
import { moveTwoWidgetsAndRecolour } from '../integration/dashboardFiles';
import { NOTEBOOK_TYPE, runChart, showOnKernel } from '../integration/notebooks';

/* eslint-disable @typescript-eslint/no-explicit-any -- the explorer's nodes are the extension's own objects */
type Node = any;

const THEMES = {
  light: { name: 'Default Light Modern', kind: vscode.ColorThemeKind.Light },
  dark: { name: 'Default Dark Modern', kind: vscode.ColorThemeKind.Dark },
} as const;
type Theme = keyof typeof THEMES;
const EDITOR: ScreenshotCrop = { selector: '.part.editor' };
const QUICK_INPUT: ScreenshotCrop = { selector: '.quick-input-widget' };
const DIALOG: ScreenshotCrop = { selector: '.monaco-dialog-box' };
const TOAST: ScreenshotCrop = { selector: '.notifications-toasts .notification-toast' };
/** A configured profile that reaches the sandbox like a remote one (the notebook's stored profile). */
const STAGING = 'Staging EU';

const run = (command: string, ...args: unknown[]) => vscode.commands.executeCommand(command, ...args);

async function setTheme(theme: Theme): Promise<void> {
  const t = THEMES[theme];
  await vscode.workspace
    .getConfiguration('workbench')
    .update('colorTheme', t.name, vscode.ConfigurationTarget.Global);
  await waitFor(`the ${theme} theme`, () => vscode.window.activeColorTheme.kind === t.kind);
}

/** The picture in one theme, cropped; webviews get a moment to repaint in the new colours. */
async function shot(name: string, theme: Theme, crop: ScreenshotCrop, settleMs = 1200): Promise<void> {
  await setTheme(theme);
  assert.ok(
    await screenshot(`polish/${name}-${theme}`, settleMs, crop),
    'screenshots need the code-server harness (npm run screenshots)',
  );
}

async function both(name: string, crop: ScreenshotCrop, settleMs?: number): Promise<void> {
  await shot(name, 'light', crop, settleMs);
  await shot(name, 'dark', crop, settleMs);
}

/** Waits until the quick input shows `text` (a step's title or prompt). */
async function quickInputShows(text: string): Promise<string> {
  return waitFor(
    `the quick input showing "${text}"`,
    async () => {
      const t = (await pageText('.quick-input-widget')) ?? '';
      return t.includes(text) ? t : undefined;
    },
    30_000,
  );
}

/** Answers an input box step: waits for its prompt, types, Enter. */
async function answer(prompt: string, text: string): Promise<void> {
  await quickInputShows(prompt);
  if (text) await typeText(text);
  await pressKeys(['Enter']);
}

async function cellDone(cell: vscode.NotebookCell): Promise<void> {
  await waitFor('the cell to finish', () => cell.executionSummary?.timing?.endTime, 60_000);
}

describe('Polish gallery (issue 14)', function () {
  this.timeout(240_000);
  let api: ExtensionApi;
  let sandbox: { port: number; urls: { platform: string; ai: { url: string }[] }; tokens: { admin: string } };
  let deploymentId: number;
  let workbookId: number;
  let dashboardFile: vscode.Uri;

  before(async () => {
    api = await getApi();
    await run('dashboardPlatform.sandbox.use');
    sandbox = (await api.sandbox.start()) as unknown as typeof sandbox;
    const client = await api.services.clients.platform();
    deploymentId = (await client.listDeployments()).items[0]!.id;
    workbookId = (await client.listWorkbooks(deploymentId)).items[1]!.id;
    const folder = vscode.workspace.workspaceFolders?.[0];
    assert.ok(folder, 'the walk runs on a copy of demo/');
    dashboardFile = vscode.Uri.joinPath(folder.uri, 'review.dashboard.json');
  });

  afterEach(async () => {
    await fetch(`http://127.0.0.1:${sandbox.port}/__sandbox/faults`, { method: 'DELETE' });
  });

  after(async () => {
    await clean();
    // The README walk that follows takes its pictures in the default theme.
    await vscode.workspace
      .getConfiguration('workbench')
      .update('colorTheme', undefined, vscode.ConfigurationTarget.Global);
    if (api.services.profiles.get(STAGING)) await api.services.profiles.remove(STAGING);
    await api.services.profiles.switchTo('Sandbox');
  });

  it('1 publish review: the semantic diff with its summary, and its Publish These Changes action', async () => {
    await clean();
    const pulled = (await run('dashboardPlatform.dashboards.edit', {
      deploymentId,
      workbookId,
      target: dashboardFile,
    })) as vscode.Uri;
    assert.equal(pulled.toString(), dashboardFile.toString());
    await run('dashboardPlatform.dashboards.publish', { uri: dashboardFile, confirm: true, showDiff: false });
    await moveTwoWidgetsAndRecolour(await vscode.workspace.openTextDocument(dashboardFile));
    await clean();
    const publishing = run('dashboardPlatform.dashboards.publish', { uri: dashboardFile });
    await waitFor('the review diff', () =>
      vscode.window.tabGroups.all
        .flatMap((g) => g.tabs)
        .find((t) => t.input instanceof vscode.TabInputTextDiff && t.label.startsWith('Review:')),
    );
    // The decision stays on the review tab's title bar until it is taken (never a toast that goes away).
    const actions = '.editor-group-container.active .editor-actions .action-label';
    await waitFor("the review's Publish These Changes action", async () =>
      (await pageCount(`${actions}:has-text("Publish These Changes")`)) === 1 ? true : undefined,
    );
    await both('1-publish-review', EDITOR);
    await click({ selector: `${actions}:has-text("Cancel Publish")` });
    assert.equal(await publishing, undefined, 'cancelled: nothing published');
  });

  it('2 names not ids: reports with folder names and relative dates, notifications with dashboard names', async () => {
    const ex = api.explorer as any;
    // Short lists and a wide side bar, so the names and dates are not cut off.
    const cfg = vscode.workspace.getConfiguration('dashboardPlatform.explorer');
    await cfg.update('pageSize', 6, vscode.ConfigurationTarget.Global);
    ex.provider.refresh();
    await clean({ sideBar: true });
    await run('workbench.actions.treeView.dashboardPlatform.explorer.collapseAll');
    const deployments: Node[] = await ex.provider.getChildren(ex.provider.roots.deployments);
    const dep = deployments.find((n) => n.kind === 'deployment');
    assert.ok(dep, 'the sandbox lists deployments');
    await ex.view.reveal(dep, { expand: true, focus: false, select: false });
    for (const kind of ['reports', 'notifications']) {
      const list = dep.list(kind);
      const items: Node[] = await ex.provider.getChildren(list);
      assert.ok(items.length > 0, `${kind} listed`);
      await ex.view.reveal(list, { expand: true, focus: false, select: false });
    }
    const notifications: Node[] = await ex.provider.getChildren(dep.list('notifications'));
    const first = notifications.find((n) => n.kind === 'notification');
    assert.ok(first, 'the deployment has notifications');
    const label = String(first.toTreeItem().description ?? '') + String(first.toTreeItem().label ?? '');
    assert.doesNotMatch(label, /dashboard: \d+/, 'named, not numbered');
    await run('dashboardPlatform.explorer.openNotification', first);
    await ex.view.reveal(first, { select: true, focus: true });
    await waitFor('the notification details', () =>
      vscode.window.activeTextEditor?.document.getText().includes('"recipients"'),
    );
    // A narrower editor gives the side bar the room (the resize acts on the focused editor).
    await run('workbench.action.focusActiveEditorGroup');
    for (let i = 0; i < 8; i++) await run('workbench.action.decreaseViewWidth');
    await ex.view.reveal(first, { select: true, focus: false });
    await both('2-explorer-names', { selector: '.part.sidebar, .part.editor' });
    await cfg.update('pageSize', undefined, vscode.ConfigurationTarget.Global);
    await run('workbench.action.focusActiveEditorGroup');
    for (let i = 0; i < 8; i++) await run('workbench.action.increaseViewWidth');
  });

  it('2 report SQL: a report opened from the explorer, in Platform SQL, with Save SQL to Report', async () => {
    await clean();
    const client = await api.services.clients.platform();
    const report = (await client.listReports(deploymentId)).items[0] as { id: number };
    const doc = (await run('dashboardPlatform.explorer.openReportSql', {
      deploymentId,
      reportId: report.id,
    })) as vscode.TextDocument;
    assert.equal(doc.languageId, 'dashboard-platform-sql');
    await both('2-report-sql', { selector: '.part.editor, .part.statusbar' });
    await run('workbench.action.revertAndCloseActiveEditor');
  });

  it('3 charts: every measure by month, ticks from the granularity, in the theme', async () => {
    await clean();
    const editor = await runChart({
      measures: ['orders.count', 'orders.total_amount'],
      timeDimensions: [{ dimension: 'orders.created_at', granularity: 'month', dateRange: 'last 24 months' }],
      order: { 'orders.created_at': 'asc' },
    });
    const doc = editor.notebook;
    editor.revealRange(new vscode.NotebookRange(0, 1), vscode.NotebookEditorRevealType.AtTop);
    await run('notebook.cell.collapseCellInput', { ranges: [{ start: 0, end: 1 }], document: doc.uri });
    await both('3-chart', EDITOR, 2500);
  });

  it('4 write flows: the notification flow’s searchable dashboard step and its recipients step', async () => {
    await clean();
    const flow = Promise.resolve(run('dashboardPlatform.explorer.createNotification', { deploymentId }));
    await quickInputShows('Create Notification: dashboard');
    await both('4-notification-dashboard-step', QUICK_INPUT);
    // Enter takes each step's default until the recipients step.
    let text = await quickInputShows('Create Notification');
    for (let i = 0; i < 15 && !/Create Notification: recipients/.test(text); i++) {
      const before = text;
      await pressKeys(['Enter']);
      text = await waitFor('the next step', async () => {
        const t = (await pageText('.quick-input-widget')) ?? '';
        return t !== before && t.includes('Create Notification') ? t : undefined;
      });
    }
    assert.match(text, /Create Notification: recipients/);
    await both('4-notification-recipients-step', QUICK_INPUT);
    await pressKeys(['Escape']);
    await flow;
  });

  it('4 Add Profile: the connection test says what works and what does not before saving', async () => {
    await clean();
    const adding = Promise.resolve(run('dashboardPlatform.profiles.add'));
    await answer('Profile name', 'Analytics EU');
    await answer('Platform API base URL', sandbox.urls.platform);
    await answer('platform API token (', sandbox.tokens.admin);
    // The default deployment is picked by name from the deployments the URL and token list.
    await quickInputShows('No default deployment');
    await pressKeys(['Enter']);
    // A Data API token the sandbox refuses, set from the review: the check names what fails.
    await quickInputShows('Test the connection and save');
    await typeText('Data API token');
    await pressKeys(['Enter']);
    await answer('Data API token (', 'not-a-data-api-token');
    await quickInputShows('Test the connection and save');
    await pressKeys(['Enter']);
    await waitFor(
      'the connection check',
      async () => /Analytics EU/.test((await pageText('.monaco-dialog-box')) ?? ''),
      60_000,
    );
    await both('4-add-profile-check', DIALOG);
    await pressKeys(['Escape']);
    await adding;
    assert.equal(api.services.profiles.get('Analytics EU'), undefined, 'cancelled: nothing saved');
  });

  it('5 chat: agent and profile named, starters, a failed question kept with Retry', async () => {
    await clean();
    const panel = (await run('dashboardPlatform.chat.open', {
      agentUrl: sandbox.urls.ai[0]!.url,
    })) as ChatPanel;
    await waitFor(
      'starter prompts',
      async () => ((await panel.inspect()).starters.length > 0 ? true : undefined),
      30_000,
    );
    await both('5-chat-starters', EDITOR);
    await fetch(`http://127.0.0.1:${sandbox.port}/__sandbox/faults`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ family: 'ai', method: 'POST', status: 503, body: { error: 'busy' }, times: 1 }),
    });
    await panel.ask('What was the revenue by month?');
    await waitFor(
      'the error notice',
      async () => ((await panel.inspect()).notices.length > 0 ? true : undefined),
      30_000,
    );
    await run('notifications.clearAll');
    await both('5-chat-failed-retry', EDITOR);
    await panel.currentSession!.retry();
    await waitFor(
      'the answer',
      async () => {
        const v = await panel.inspect();
        return v.finalAnswers.length > 0 && !v.inputDisabled ? true : undefined;
      },
      60_000,
    );
    await both('5-chat-answer', EDITOR, 2000);
  });

  it('6 notebooks: Platform SQL cells run on the notebook’s stored profile, named in the cell status bar', async () => {
    await clean();
    const { profiles } = api.services;
    await profiles.save({
      name: STAGING,
      platformUrl: sandbox.urls.platform,
      agents: [],
      defaultDeploymentId: deploymentId,
    });
    await profiles.setSecret(STAGING, 'platformToken', sandbox.tokens.admin, true);
    const data = new vscode.NotebookData([
      new vscode.NotebookCellData(
        vscode.NotebookCellKind.Code,
        'SELECT status, MEASURE(count) AS orders, MEASURE(total_amount) AS revenue\nFROM orders\nGROUP BY 1',
        'dashboard-platform-sql',
      ),
    ]);
    data.metadata = { profile: STAGING };
    const doc = await vscode.workspace.openNotebookDocument(NOTEBOOK_TYPE, data);
    await showOnKernel(doc);
    await run('notebook.cell.execute', { ranges: [{ start: 0, end: 1 }], document: doc.uri });
    await cellDone(doc.cellAt(0));
    assert.equal(doc.cellAt(0).executionSummary?.success, true);
    assert.equal(profiles.active()?.profile.name, 'Sandbox', 'the active profile stays');
    // Untitled notebooks share their name, and so the collapsed input of the chart shot.
    await run('notebook.cell.expandCellInput', { ranges: [{ start: 0, end: 1 }], document: doc.uri });
    await waitFor('the cell status bar names the profile', async () =>
      ((await pageText('.cell-statusbar-container')) ?? '').includes(STAGING) ? true : undefined,
    );
    await both('6-notebook-stored-profile', { selector: '.part.editor, .part.statusbar' });
  });

  it('6 notebooks: a stored profile missing here stops the run with Pick Profile…', async () => {
    await clean();
    const data = new vscode.NotebookData([
      new vscode.NotebookCellData(
        vscode.NotebookCellKind.Code,
        'SELECT status FROM orders',
        'dashboard-platform-sql',
      ),
    ]);
    data.metadata = { profile: 'Production EU' };
    const doc = await vscode.workspace.openNotebookDocument(NOTEBOOK_TYPE, data);
    await showOnKernel(doc);
    await run('notebook.cell.execute', { ranges: [{ start: 0, end: 1 }], document: doc.uri });
    await cellDone(doc.cellAt(0));
    assert.equal(doc.cellAt(0).executionSummary?.success, false);
    await run('notebook.cell.expandCellInput', { ranges: [{ start: 0, end: 1 }], document: doc.uri });
    await waitFor('the Pick Profile… notification', async () =>
      ((await pageText('.notifications-toasts')) ?? '').includes('Pick Profile') ? true : undefined,
    );
    await both('6-notebook-missing-profile', EDITOR);
  });

  describe('7 dashboard editor', () => {
    let doc: vscode.TextDocument;

    before(async () => {
      await clean();
      doc = await vscode.workspace.openTextDocument(dashboardFile);
      await run('dashboardPlatform.dashboards.openEditor', dashboardFile);
      await waitFor('the dashboard editor', () => api.dashboards.editor.isReady(dashboardFile), 30_000);
      await api.dashboards.editor.reportsLoaded.get(dashboardFile.toString());
    });

    after(async () => {
      if (doc.isDirty) {
        await vscode.window.showTextDocument(doc);
        await run('workbench.action.files.revert');
      }
    });

    it('widgets show their report’s title, kind and preview; TEXT widgets render markdown', async () => {
      await api.dashboards.editor.showBreakpoint(doc, 'lg');
      const reports = api.dashboards.editor.stateOf(doc).reports;
      assert.ok(Object.keys(reports).length > 0, 'the widgets know their reports');
      await both('7-dashboard-widgets', EDITOR, 2000);
    });

    it('the History tab fits a narrow inspector', async () => {
      assert.ok(await webviewClick('[data-tab="history"]'));
      await both('7-dashboard-history', EDITOR, 1500);
      await webviewClick('[data-tab="widget"]');
    });

    it('an invalid theme colour is flagged', async () => {
      const original = doc.getText();
      const edit = new vscode.WorkspaceEdit();
      edit.replace(
        dashboardFile,
        new vscode.Range(0, 0, doc.lineCount, 0),
        original.replace(/"primaryColor": "[^"]*"/, '"primaryColor": "banana"'),
      );
      assert.ok(await vscode.workspace.applyEdit(edit));
      await waitFor('the problem', () =>
        api.dashboards.editor.stateOf(doc).problems.some((p) => /banana/.test(p.message)),
      );
      assert.ok(await webviewClick('[data-tab="theme"]'));
      await both('7-dashboard-theme-invalid', EDITOR, 1500);
      await webviewClick('[data-tab="widget"]');
    });
  });

  it('8 hygiene: the walkthrough over the sandbox', async () => {
    await clean();
    await run(
      'workbench.action.openWalkthrough',
      'dashboard-platform.dashboard-platform#gettingStarted',
      false,
    );
    await waitFor('the walkthrough', async () =>
      ((await pageText('.part.editor')) ?? '').includes('Sandbox') ? true : undefined,
    );
    await both('8-walkthrough', EDITOR, 1500);
  });

  it('8 hygiene: an export suggests a file name and offers Open', async () => {
    await clean();
    const doc = await vscode.workspace.openNotebookDocument(
      NOTEBOOK_TYPE,
      new vscode.NotebookData([
        new vscode.NotebookCellData(
          vscode.NotebookCellKind.Code,
          'SELECT status FROM orders LIMIT 5',
          'dashboard-platform-sql',
        ),
      ]),
    );
    await vscode.window.showNotebookDocument(doc);
    const folder = vscode.workspace.workspaceFolders![0]!.uri;
    const res = (await run('dashboardPlatform.notebook.exportResults', {
      cell: doc.cellAt(0),
      uri: vscode.Uri.joinPath(folder, 'orders-status.csv'),
    })) as { rows: number };
    assert.equal(res.rows, 5);
    await waitFor('the Open notification', async () =>
      ((await pageText('.notifications-toasts')) ?? '').includes('Open') ? true : undefined,
    );
    await both('8-export-open', TOAST);
  });
});
