// Issue 14, item 6 and item 2 leftovers in a real VS Code against the sandbox: a query notebook runs
// on the profile stored in it while another profile stays active (a missing or signed-out stored
// profile stops the run with a message whose action picks one), and a report's SQL opened from the
// explorer is Platform SQL and saves back.
import assert from 'node:assert/strict';
import * as vscode from 'vscode';
import type { ExtensionApi } from '../../src/extension';
import { TargetStatus } from '../../src/notebook/targetStatus';
import { click, getApi, pressKeys, screenshot, typeText, waitFor, clearWorkbench } from './harness';
import { errorOf, openNotebook, resultOf } from './notebooks';

/** A configured profile pointing at the sandbox (a "remote" one) and one whose host is unreachable. */
const REMOTE = 'Polish Remote';
const OFFLINE = 'Polish Offline';
const SIGNED_OUT = 'Polish Signed Out';

async function runCell(nb: vscode.NotebookDocument, index = 0): Promise<vscode.NotebookCell> {
  const cell = nb.cellAt(index);
  const before = cell.executionSummary?.timing?.endTime ?? 0;
  await vscode.commands.executeCommand('notebook.cell.execute', {
    ranges: [{ start: index, end: index + 1 }],
    document: nb.uri,
  });
  await waitFor(
    'the cell to finish',
    () => (cell.executionSummary?.timing?.endTime ?? 0) > before && cell.outputs.length > 0,
    60_000,
  );
  return cell;
}

describe('Polish: notebook profile and report SQL', function () {
  this.timeout(180_000);
  let api: ExtensionApi;
  let deploymentId: number;
  let deploymentName: string;

  before(async () => {
    api = await getApi();
    const { profiles } = api.services;
    await profiles.switchTo('Sandbox');
    const sandbox = await api.sandbox.start();
    const client = await api.services.clients.platform();
    const dep = (await client.listDeployments()).items[0]!;
    deploymentId = dep.id;
    deploymentName = String(dep.name);
    // Over http on loopback, as a remote profile would be reached over https.
    await profiles.save({
      name: REMOTE,
      platformUrl: sandbox.urls.platform,
      agents: [],
      defaultDeploymentId: dep.id,
    });
    await profiles.setSecret(REMOTE, 'platformToken', sandbox.tokens.admin, true);
    await profiles.save({
      name: OFFLINE,
      platformUrl: 'http://127.0.0.1:9',
      agents: [],
      defaultDeploymentId: dep.id,
    });
    await profiles.setSecret(OFFLINE, 'platformToken', 'offline-token-never-used', true);
    await profiles.save({ name: SIGNED_OUT, platformUrl: 'http://127.0.0.1:9', agents: [] });
  });

  afterEach(async () => {
    await clearWorkbench();
  });

  after(async () => {
    const { profiles } = api.services;
    await profiles.switchTo('Sandbox');
    for (const name of [REMOTE, OFFLINE, SIGNED_OUT]) await profiles.remove(name);
  });

  async function notebook(
    profile: string | undefined,
    sql = 'SELECT status, MEASURE(count) FROM orders GROUP BY 1',
  ) {
    const data = new vscode.NotebookData([
      new vscode.NotebookCellData(vscode.NotebookCellKind.Code, sql, 'dashboard-platform-sql'),
    ]);
    data.metadata = profile ? { profile } : {};
    return (await openNotebook(data)).notebook;
  }

  it('runs a cell on the notebook’s stored profile while another profile stays active', async () => {
    const { profiles } = api.services;
    const setting = () =>
      JSON.stringify(vscode.workspace.getConfiguration('dashboardPlatform').inspect('activeProfile'));
    const before = setting();
    await profiles.switchTo(OFFLINE);
    // The choice is kept in workspace state: the (often committed) settings are not written.
    assert.equal(setting(), before);
    const nb = await notebook(REMOTE);
    const target = new TargetStatus(api.services);
    try {
      const said = await target.describe(nb);
      assert.equal(said.problem, false);
      assert.equal(said.text, `$(plug) ${REMOTE} · ${deploymentName}`);
      assert.match(
        said.tooltip,
        new RegExp(`notebook's profile "${REMOTE}".*active profile stays "${OFFLINE}"`),
      );
      assert.equal(said.command.command, 'dashboardPlatform.notebook.selectProfile');
    } finally {
      target.dispose();
    }
    const cell = await runCell(nb);
    const result = resultOf(cell);
    assert.ok(result, `a result, not ${JSON.stringify(errorOf(cell))}`);
    assert.ok(result.rows.length > 0);
    assert.equal(cell.executionSummary?.success, true);
    // The active profile is the unreachable one: had the cell used it, it would have failed.
    assert.equal(profiles.active()?.profile.name, OFFLINE, 'the active profile did not change');
    await screenshot('polish-notebook-stored-profile', 1200);

    // Without a stored profile the same notebook runs on the active one (and says so).
    const plain = await notebook(undefined);
    const active = new TargetStatus(api.services);
    try {
      const said = await active.describe(plain);
      assert.match(said.text, new RegExp(`^\\$\\(plug\\) ${OFFLINE} · `));
      assert.match(said.tooltip, /the active profile/);
    } finally {
      active.dispose();
    }
    const failed = await runCell(plain);
    assert.equal(failed.executionSummary?.success, false, 'the offline profile cannot answer');
  });

  it('a stored profile missing here stops the run with a message whose action picks one', async () => {
    const { profiles } = api.services;
    await profiles.switchTo(OFFLINE);
    const nb = await notebook('Production EU');
    const target = new TargetStatus(api.services);
    try {
      const said = await target.describe(nb);
      assert.equal(said.problem, true);
      assert.match(said.text, /No profile "Production EU" here/);
      assert.match(said.tooltip, /does not exist here/);
      assert.deepEqual(said.command.arguments, [{ notebook: nb.uri.toString() }]);
    } finally {
      target.dispose();
    }
    const cell = await runCell(nb);
    assert.equal(cell.executionSummary?.success, false);
    const error = errorOf(cell);
    assert.match(error?.message ?? '', /profile "Production EU", which does not exist here\. Pick a profile/);

    if (await pressKeys([])) {
      // The notification's action opens the profile pick; choosing Remote stores it in the notebook.
      await screenshot('polish-notebook-missing-profile', 1200);
      await click({ selector: '.notifications-toasts .monaco-button:has-text("Pick Profile")' });
      // Waits for the pick to show (the click waits for its target), then filters it.
      await click({ selector: '.quick-input-widget .quick-input-box input' });
      await typeText(REMOTE);
      await pressKeys(['Enter']);
      await waitFor('the notebook’s profile is stored', () => nb.metadata.profile === REMOTE);
    } else {
      await vscode.commands.executeCommand('dashboardPlatform.notebook.selectProfile', {
        profile: REMOTE,
        notebook: nb.uri.toString(),
      });
    }
    assert.equal(nb.metadata.profile, REMOTE);
    assert.equal(profiles.active()?.profile.name, OFFLINE, 'picking the notebook’s profile switches nothing');
    const again = await runCell(nb);
    assert.equal(again.executionSummary?.success, true, 'the rerun uses the picked profile');
  });

  it('a stored profile without a token says so in the cell status bar and in the cell', async () => {
    await api.services.profiles.switchTo('Sandbox');
    const nb = await notebook(SIGNED_OUT);
    const target = new TargetStatus(api.services);
    try {
      const said = await target.describe(nb);
      assert.equal(said.problem, true);
      assert.equal(said.text, `$(warning) ${SIGNED_OUT} · signed out`);
      assert.match(said.tooltip, /has no token here.*pick another profile/);
      assert.match(said.tooltip, /active profile stays "Sandbox"/);
    } finally {
      target.dispose();
    }
    const cell = await runCell(nb);
    assert.equal(cell.executionSummary?.success, false);
    assert.match(errorOf(cell)?.message ?? '', new RegExp(`profile "${SIGNED_OUT}" has no token here`));
    assert.equal(api.services.profiles.active()?.profile.name, 'Sandbox');
  });

  it('opens a report’s SQL from the explorer as Platform SQL and saves it back', async () => {
    await api.services.profiles.switchTo('Sandbox');
    const client = await api.services.clients.platform();
    const report = (await client.listReports(deploymentId)).items.find(
      (r) => typeof (r as { sqlQuery?: unknown }).sqlQuery === 'string',
    ) as { id: number; sqlQuery: string } | undefined;
    assert.ok(report, 'the sandbox has a report with SQL');
    const original = (await client.getReport(deploymentId, report.id)).sqlQuery as string;
    const doc = (await vscode.commands.executeCommand('dashboardPlatform.explorer.openReportSql', {
      deploymentId,
      reportId: report.id,
    })) as vscode.TextDocument;
    assert.equal(doc.languageId, 'dashboard-platform-sql');
    assert.equal(doc.getText(), original);
    const langs = await vscode.languages.getLanguages();
    assert.ok(langs.includes(doc.languageId));
    // The editor title's "Save SQL to Report" is offered for this language.
    const ext = vscode.extensions.getExtension('dashboard-platform.dashboard-platform')!;
    const menus = (
      ext.packageJSON as { contributes: { menus: Record<string, { command: string; when?: string }[]> } }
    ).contributes.menus['editor/title']!;
    const save = menus.find((m) => m.command === 'dashboardPlatform.explorer.saveReportSql');
    const langRule = /editorLangId =~ \/(.+)\/$/.exec(save?.when ?? '')?.[1];
    assert.ok(langRule && new RegExp(langRule).test('dashboard-platform-sql'), save?.when);
    try {
      const editor = await vscode.window.showTextDocument(doc);
      const edited = `${original.trimEnd()}\n-- checked by the polish suite`;
      await editor.edit((e) => e.replace(new vscode.Range(0, 0, doc.lineCount, 0), edited));
      await vscode.commands.executeCommand('dashboardPlatform.explorer.saveReportSql');
      assert.equal((await client.getReport(deploymentId, report.id)).sqlQuery, edited);
      await screenshot('polish-report-sql', 1000);
    } finally {
      await client.updateReport(deploymentId, report.id, { sqlQuery: original });
      await vscode.commands.executeCommand('workbench.action.revertAndCloseActiveEditor');
    }
  });
});
