// Journey: query, chart, export. An analytics engineer opens the sample query notebook on the
// Sandbox profile, sees which deployment it runs on (by name), runs its SQL cell and its JSON cell
// (answered by a rollup: the result says which and how old), mistypes a member and is stopped before
// anything is sent (with the member meant), charts a month series, and exports the result, in the
// light and the dark theme. Asserts what the user sees at each step.
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import * as vscode from 'vscode';
import { getApi, screenshot, waitFor, setTheme } from '../harness';
import { TargetStatus } from '../../../src/notebook/targetStatus';
import { errorOf, resultOf, showOnKernel } from '../notebooks';

async function runCell(
  nb: vscode.NotebookDocument,
  index: number,
): Promise<vscode.NotebookCellExecutionSummary> {
  const cell = nb.cellAt(index);
  const before = cell.executionSummary?.executionOrder;
  await vscode.commands.executeCommand('notebook.cell.execute', {
    ranges: [{ start: index, end: index + 1 }],
    document: nb.uri,
  });
  return waitFor(
    `cell ${index} to finish`,
    () => {
      const s = cell.executionSummary;
      return s?.timing?.endTime && s.executionOrder !== before ? s : undefined;
    },
    60_000,
  );
}

async function appendCell(nb: vscode.NotebookDocument, data: vscode.NotebookCellData): Promise<number> {
  const index = nb.cellCount;
  const edit = new vscode.WorkspaceEdit();
  edit.set(nb.uri, [vscode.NotebookEdit.insertCells(index, [data])]);
  assert.ok(await vscode.workspace.applyEdit(edit));
  return index;
}

const json = (q: unknown, metadata?: Record<string, unknown>) => {
  const c = new vscode.NotebookCellData(vscode.NotebookCellKind.Code, JSON.stringify(q, null, 2), 'json');
  if (metadata) c.metadata = metadata;
  return c;
};

describe('journey: query, chart, export', function () {
  this.timeout(300_000);
  let port: number;
  let nb: vscode.NotebookDocument;
  let editor: vscode.NotebookEditor;

  /** The Data API requests the sandbox has answered. */
  const dataRequests = async () =>
    (
      (await (await fetch(`http://127.0.0.1:${port}/__sandbox/state`)).json()) as {
        dataQueries: { path: string }[];
      }
    ).dataQueries;

  before(async () => {
    const api = await getApi();
    await api.services.profiles.switchTo('Sandbox');
    port = ((await api.sandbox()) as unknown as { port: number }).port;
    await setTheme('Default Light Modern');
    // The sample notebook, copied so that the journey never changes a tracked file.
    const folder = vscode.workspace.workspaceFolders?.[0]?.uri.fsPath ?? os.tmpdir();
    const copy = path.join(os.tmpdir(), `journey-query-${Date.now()}.dpnb`);
    fs.copyFileSync(path.join(folder, 'sample.dpnb'), copy);
    nb = await vscode.workspace.openNotebookDocument(vscode.Uri.file(copy));
    editor = await showOnKernel(nb);
  });

  after(async () => {
    await setTheme('Default Light Modern');
    for (let i = 0; i < 10 && vscode.window.visibleNotebookEditors.length > 0; i++) {
      await vscode.window.showNotebookDocument(vscode.window.visibleNotebookEditors[0]!.notebook);
      await vscode.commands.executeCommand('workbench.action.revertAndCloseActiveEditor');
    }
    fs.rmSync(nb.uri.fsPath, { force: true });
  });

  it('names the deployment the cells run on, not "default deployment"', async () => {
    const api = await getApi();
    const target = new TargetStatus(api.services);
    try {
      const said = await target.describe(nb);
      // The Sandbox profile names no default deployment: its Data API token is deployment 1's.
      assert.equal(said.text, '$(plug) Sandbox · Analytics');
      assert.doesNotMatch(said.tooltip, /default deployment/i);
    } finally {
      target.dispose();
    }
  });

  it('runs the SQL cell: streamed rows with their columns', async () => {
    const s = await runCell(nb, 1);
    assert.equal(s.success, true, JSON.stringify(errorOf(nb.cellAt(1))));
    const r = resultOf(nb.cellAt(1))!;
    assert.deepEqual(
      r.columns.map((c) => c.name),
      ['status', 'orders', 'revenue'],
    );
    assert.ok(r.rows.length >= 3);
  });

  it('runs the JSON cell: one month column, model formats, and the rollup that answered it', async () => {
    const s = await runCell(nb, 2);
    assert.equal(s.success, true, JSON.stringify(errorOf(nb.cellAt(2))));
    const r = resultOf(nb.cellAt(2))!;
    assert.equal(r.source, 'load');
    // The engine also sends the month under "orders.created_at": shown once, titled with its grain.
    assert.deepEqual(
      r.columns.map((c) => [c.name, c.title]),
      [
        ['orders.created_at.month', 'Orders Created at (month)'],
        ['orders.count', 'Orders Count'],
        ['orders.total_amount', 'Orders Total Amount'],
      ],
    );
    assert.equal(r.columns.find((c) => c.name === 'orders.total_amount')!.specifier, '$,.2~f');
    assert.equal(r.columns.find((c) => c.name === 'orders.count')!.specifier, ',.2~f');
    assert.deepEqual(
      r.rollups?.map((x) => x.id),
      ['orders.orders_by_status'],
      'the badge names the rollup',
    );
    assert.ok(r.rollups![0]!.builtAt && Date.parse(r.rollups![0]!.builtAt) <= Date.now());
    editor.revealRange(new vscode.NotebookRange(2, 3), vscode.NotebookEditorRevealType.AtTop);
    await screenshot('journey-query-rollup-light', 2500);
  });

  it('refuses a member typo before sending anything, naming the member meant', async () => {
    const index = await appendCell(nb, json({ measures: ['orders.count'], dimensions: ['orders.statuss'] }));
    const loadsBefore = (await dataRequests()).filter((q) => q.path === '/v1/load').length;
    const s = await runCell(nb, index);
    assert.equal(s.success, false);
    const e = errorOf(nb.cellAt(index))!;
    assert.match(
      e.message,
      /^Unknown member "orders\.statuss" in dimensions\. Did you mean "orders\.status"\?/,
    );
    const loadsAfter = (await dataRequests()).filter((q) => q.path === '/v1/load').length;
    assert.equal(loadsAfter, loadsBefore, 'nothing was sent to /v1/load');
    // The same problem is underlined in the cell while typing.
    const d = await waitFor('the diagnostic of the typo', () =>
      vscode.languages
        .getDiagnostics(nb.cellAt(index).document.uri)
        .find((x) => /orders\.statuss/.test(x.message)),
    );
    assert.match(d.message, /Did you mean "orders\.status"/);
    editor.revealRange(new vscode.NotebookRange(index, index + 1), vscode.NotebookEditorRevealType.AtTop);
    await screenshot('journey-query-typo', 2000);
  });

  it('charts the month series, in the light and the dark theme', async () => {
    const index = await appendCell(
      nb,
      json(
        {
          measures: ['orders.count', 'orders.total_amount'],
          timeDimensions: [
            { dimension: 'orders.created_at', granularity: 'month', dateRange: 'last 12 months' },
          ],
          order: { 'orders.created_at': 'asc' },
        },
        { view: 'chart' },
      ),
    );
    const s = await runCell(nb, index);
    assert.equal(s.success, true, JSON.stringify(errorOf(nb.cellAt(index))));
    const r = resultOf(nb.cellAt(index))!;
    assert.equal(r.view, 'chart');
    assert.equal(r.rows.length, 12, 'twelve months');
    assert.ok(r.rollups?.length, 'answered by the rollup');
    editor.revealRange(new vscode.NotebookRange(index, index + 1), vscode.NotebookEditorRevealType.AtTop);
    await screenshot('journey-query-chart-light', 3000);
    await setTheme('Default Dark Modern');
    await screenshot('journey-query-chart-dark', 3000);
    editor.revealRange(new vscode.NotebookRange(2, 3), vscode.NotebookEditorRevealType.AtTop);
    await screenshot('journey-query-rollup-dark', 2500);
    await setTheme('Default Light Modern');
  });

  it('exports the JSON result: every row, the columns the table shows', async () => {
    const shown = resultOf(nb.cellAt(2))!;
    const file = path.join(os.tmpdir(), `journey-export-${Date.now()}.csv`);
    try {
      const out = (await vscode.commands.executeCommand('dashboardPlatform.notebook.exportResults', {
        cell: nb.cellAt(2),
        uri: vscode.Uri.file(file),
        format: 'csv',
      })) as { rows: number };
      assert.equal(out.rows, shown.totalRows);
      const lines = fs.readFileSync(file, 'utf8').trimEnd().split('\r\n');
      assert.equal(lines[0], shown.columns.map((c) => c.name).join(','));
      assert.equal(lines.length - 1, shown.totalRows);
    } finally {
      fs.rmSync(file, { force: true });
    }
  });
});
