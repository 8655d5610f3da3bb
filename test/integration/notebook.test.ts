// Query notebooks inside a real VS Code against the sandbox: the sample notebook's SQL and JSON
// cells, cancel, Continue wait, server errors, completions, export beyond the row cap, a corrupt file.
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import * as vscode from 'vscode';
import { getApi, pressKeys, screenshot, typeText, waitFor, revertAndCloseAll } from './harness';
import { errorOf, NOTEBOOK_TYPE, openNotebook, resultOf, showOnKernel } from './notebooks';

interface SandboxInfo {
  port: number;
}

function workspaceDir(): string {
  const f = vscode.workspace.workspaceFolders?.[0];
  return f ? f.uri.fsPath : os.tmpdir();
}

const sql = (s: string) => new vscode.NotebookCellData(vscode.NotebookCellKind.Code, s, 'sql');
const json = (q: unknown) =>
  new vscode.NotebookCellData(vscode.NotebookCellKind.Code, JSON.stringify(q, null, 2), 'json');

function run(doc: vscode.NotebookDocument, index: number): Thenable<unknown> {
  return vscode.commands.executeCommand('notebook.cell.execute', {
    ranges: [{ start: index, end: index + 1 }],
    document: doc.uri,
  });
}

async function finished(
  cell: vscode.NotebookCell,
  ms = 30_000,
): Promise<vscode.NotebookCellExecutionSummary> {
  return waitFor(
    'the cell to finish',
    () => {
      const s = cell.executionSummary;
      return s?.timing?.endTime ? s : undefined;
    },
    ms,
  );
}

describe('query notebooks', function () {
  this.timeout(120_000);
  let sandbox: SandboxInfo;

  before(async () => {
    const api = await getApi();
    await api.services.profiles.switchTo('Sandbox');
    sandbox = (await api.sandbox()) as unknown as SandboxInfo;
  });

  afterEach(async () => {
    await fetch(`http://127.0.0.1:${sandbox.port}/__sandbox/faults`, { method: 'DELETE' });
    // Untitled notebooks are dirty: revert them so closing asks nothing.
    for (let i = 0; i < 20 && vscode.window.visibleNotebookEditors.length > 0; i++) {
      const editor = vscode.window.visibleNotebookEditors[0]!;
      await vscode.window.showNotebookDocument(editor.notebook);
      await vscode.commands.executeCommand('workbench.action.revertAndCloseActiveEditor');
    }
    await revertAndCloseAll();
  });

  it('opens the sample notebook and runs its SQL and JSON cells', async () => {
    const uri = vscode.Uri.file(path.join(workspaceDir(), 'sample.dpnb'));
    const doc = await vscode.workspace.openNotebookDocument(uri);
    await showOnKernel(doc);
    assert.equal(doc.cellAt(1).document.languageId, 'dashboard-platform-sql');
    assert.equal(doc.cellAt(2).document.languageId, 'json');
    await run(doc, 1);
    const s1 = await finished(doc.cellAt(1));
    assert.equal(s1.success, true, JSON.stringify(errorOf(doc.cellAt(1))));
    const r1 = resultOf(doc.cellAt(1))!;
    assert.deepEqual(
      r1.columns.map((c) => c.name),
      ['status', 'orders', 'revenue'],
    );
    assert.ok(r1.rows.length >= 3, `rows: ${JSON.stringify(r1.rows)}`);
    const total = r1.rows.reduce((n, r) => n + Number(r[1]), 0);
    assert.ok(total > 0);
    await run(doc, 2);
    const s2 = await finished(doc.cellAt(2));
    assert.equal(s2.success, true, JSON.stringify(errorOf(doc.cellAt(2))));
    const r2 = resultOf(doc.cellAt(2))!;
    assert.equal(r2.source, 'load');
    assert.ok(r2.rows.length >= 1);
    assert.ok(r2.columns.some((c) => c.name === 'orders.count' && c.title === 'Orders Count'));
    // One time column (the engine's extra copy under the bare name is not shown twice).
    assert.deepEqual(
      r2.columns.filter((c) => c.kind === 'time').map((c) => c.title),
      ['Orders Created at (month)'],
    );
    // Answered by the model's rollup: the result names it for the badge.
    assert.deepEqual(
      r2.rollups?.map((r) => r.id),
      ['orders.orders_by_status'],
    );
    await screenshot('notebook-table', 1500);
  });

  it('shows a chart for a measure by month', async () => {
    const cell = json({
      measures: ['orders.total_amount'],
      timeDimensions: [{ dimension: 'orders.created_at', granularity: 'month', dateRange: 'last 12 months' }],
      order: { 'orders.created_at': 'asc' },
    });
    cell.metadata = { view: 'chart' };
    const editor = await openNotebook([cell]);
    await run(editor.notebook, 0);
    assert.equal((await finished(editor.notebook.cellAt(0))).success, true);
    assert.equal(resultOf(editor.notebook.cellAt(0))!.view, 'chart');
    await screenshot('notebook-chart', 2500);
  });

  it('cancels a slow query: the cell ends long before the query would', async () => {
    await fetch(`http://127.0.0.1:${sandbox.port}/__sandbox/faults`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ family: 'data', route: '/v1/cubesql', latencyMs: 30_000, times: 1 }),
    });
    const editor = await openNotebook([sql('SELECT status FROM orders')]);
    const cell = editor.notebook.cellAt(0);
    void run(editor.notebook, 0);
    await new Promise((r) => setTimeout(r, 1000));
    assert.equal(cell.executionSummary?.timing?.endTime, undefined, 'still running');
    await vscode.commands.executeCommand('notebook.cell.cancelExecution', {
      ranges: [{ start: 0, end: 1 }],
      document: editor.notebook.uri,
    });
    // The query answers after 30 s; ending within a third of that can only be the cancel (a
    // wait for a condition, not a timing assertion: the machine may be slow).
    const s = await finished(cell, 10_000);
    assert.notEqual(s.success, true);
    assert.equal(resultOf(cell), undefined, 'no rows from the cancelled query');
  });

  it('completes a Continue-wait query', async () => {
    const editor = await openNotebook([
      json({ measures: ['orders.slow_count'], dimensions: ['orders.status'] }),
    ]);
    await run(editor.notebook, 0);
    const s = await finished(editor.notebook.cellAt(0));
    assert.equal(s.success, true, JSON.stringify(errorOf(editor.notebook.cellAt(0))));
    assert.ok(resultOf(editor.notebook.cellAt(0))!.rows.length >= 3);
  });

  it('shows a server error in the cell with its message and requestId', async () => {
    const editor = await openNotebook([sql('SELECT no_such_column FROM orders')]);
    await run(editor.notebook, 0);
    const s = await finished(editor.notebook.cellAt(0));
    assert.equal(s.success, false);
    const e = errorOf(editor.notebook.cellAt(0));
    assert.ok(e && /no_such_column/i.test(e.message), JSON.stringify(e));
    assert.ok(e.requestId, 'requestId shown');
    assert.ok(
      editor.notebook
        .cellAt(0)
        .outputs[0]!.items.some((i) => i.mime === 'application/vnd.code.notebook.error'),
    );
  });

  it('offers sandbox members as completions in JSON and SQL cells', async () => {
    const editor = await openNotebook([json({ measures: [''] }), sql('SELECT  FROM orders')]);
    const jdoc = editor.notebook.cellAt(0).document;
    const at = jdoc.positionAt(jdoc.getText().indexOf('""') + 1);
    const list = await waitFor(
      'member completions',
      async () => {
        const l = await vscode.commands.executeCommand<vscode.CompletionList>(
          'vscode.executeCompletionItemProvider',
          jdoc.uri,
          at,
        );
        return l.items.some((i) => (typeof i.label === 'string' ? i.label : i.label.label) === 'orders.count')
          ? l
          : undefined;
      },
      20_000,
    );
    const labels = list.items.map((i) => (typeof i.label === 'string' ? i.label : i.label.label));
    assert.ok(labels.includes('orders.total_amount'));
    assert.ok(!labels.includes('orders.status'), 'dimensions are not offered under measures');
    const sdoc = editor.notebook.cellAt(1).document;
    const sl = await vscode.commands.executeCommand<vscode.CompletionList>(
      'vscode.executeCompletionItemProvider',
      sdoc.uri,
      new vscode.Position(0, 7),
    );
    const sLabels = sl.items.map((i) => (typeof i.label === 'string' ? i.label : i.label.label));
    assert.ok(sLabels.includes('orders') && sLabels.includes('customers'));
    // Narrowed to the cube the query reads, by column name; a measure inserts MEASURE(...).
    assert.ok(sLabels.includes('status') && sLabels.includes('total_amount'), sLabels.join());
    assert.ok(!sLabels.includes('city'), 'columns of cubes the query does not read are not offered');
    const measure = sl.items.find((i) => i.label === 'total_amount');
    assert.equal((measure?.insertText as vscode.SnippetString | undefined)?.value, 'MEASURE(total_amount)');
    // hover with title, type and description
    const hdoc = (await openNotebook([json({ measures: ['orders.count'] })])).notebook.cellAt(0).document;
    const hoverText = await waitFor(
      'a member hover',
      async () => {
        const hovers = await vscode.commands.executeCommand<vscode.Hover[]>(
          'vscode.executeHoverProvider',
          hdoc.uri,
          hdoc.positionAt(hdoc.getText().indexOf('orders.count') + 3),
        );
        const t = hovers
          .flatMap((h) => h.contents)
          .map((c) => (typeof c === 'string' ? c : c.value))
          .join('\n');
        return /Orders Count/.test(t) ? t : undefined;
      },
      15_000,
    );
    assert.match(hoverText, /Orders Count[\s\S]*measure[\s\S]*Number(\s|&nbsp;)of/);
    // diagnostics for an unknown member before running
    const bad = await openNotebook([json({ measures: ['orders.nope'] })]);
    const d = await waitFor('a diagnostic', () => {
      const list = vscode.languages.getDiagnostics(bad.notebook.cellAt(0).document.uri);
      return list.find((x) => /orders\.nope/.test(x.message));
    });
    assert.equal(d.severity, vscode.DiagnosticSeverity.Error);
  });

  it('exports every row of a result larger than the row cap', async () => {
    const cfg = vscode.workspace.getConfiguration('dashboardPlatform.notebook');
    await cfg.update('rowCap', 100, vscode.ConfigurationTarget.Global);
    try {
      const editor = await openNotebook([sql('SELECT id, status, amount FROM orders')]);
      await run(editor.notebook, 0);
      assert.equal((await finished(editor.notebook.cellAt(0))).success, true);
      const r = resultOf(editor.notebook.cellAt(0))!;
      assert.equal(r.rows.length, 100);
      assert.ok(r.totalRows > 100);
      const file = path.join(os.tmpdir(), `dp-export-${Date.now()}.csv`);
      const out = (await vscode.commands.executeCommand('dashboardPlatform.notebook.exportResults', {
        cell: editor.notebook.cellAt(0),
        uri: vscode.Uri.file(file),
        format: 'csv',
      })) as { rows: number };
      assert.equal(out.rows, r.totalRows);
      const lines = fs.readFileSync(file, 'utf8').trimEnd().split('\r\n');
      assert.equal(lines[0], 'id,status,amount');
      assert.equal(lines.length - 1, r.totalRows);
      fs.rmSync(file, { force: true });
    } finally {
      await cfg.update('rowCap', undefined, vscode.ConfigurationTarget.Global);
    }
  });

  it('picks the notebook deployment by name from the profile list', async function () {
    const editor = await openNotebook([sql('SELECT 1')]);
    const picking = vscode.commands.executeCommand('dashboardPlatform.notebook.selectDeployment');
    await new Promise((r) => setTimeout(r, 1500)); // the quick pick lists the deployments
    if (!(await typeText('Marketing'))) this.skip(); // no UI control in this route
    await pressKeys(['Enter']);
    assert.equal(await picking, 3);
    assert.equal(editor.notebook.metadata.deploymentId, 3);
  });

  it('reports a corrupt .dpnb with its position and leaves the file unchanged', async () => {
    const file = path.join(workspaceDir(), `corrupt-${Date.now()}.dpnb`);
    const text = '{\n  "version": 1,\n  "cells": [\n    { "kind": "sql", "source": "SELECT 1" \n  ]\n}\n';
    fs.writeFileSync(file, text);
    try {
      await assert.rejects(
        async () => {
          await vscode.workspace.openNotebookDocument(vscode.Uri.file(file));
        },
        (e: Error) => /line 5/.test(e.message),
      );
      // Opening through the editor too: no editable (empty) notebook appears.
      await vscode.commands.executeCommand('vscode.openWith', vscode.Uri.file(file), NOTEBOOK_TYPE).then(
        () => undefined,
        () => undefined,
      );
      await new Promise((r) => setTimeout(r, 1000));
      const opened = vscode.workspace.notebookDocuments.find((d) => d.uri.fsPath === file);
      assert.equal(opened, undefined, 'no notebook document was created for the corrupt file');
      await revertAndCloseAll();
      assert.equal(fs.readFileSync(file, 'utf8'), text);
    } finally {
      fs.rmSync(file, { force: true });
    }
  });
});
