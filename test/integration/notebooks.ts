// Query notebooks in the suites: opened in an editor on the extension's kernel, and what a cell
// shows read back from its outputs (the payloads the renderer draws).
import assert from 'node:assert/strict';
import * as vscode from 'vscode';
import {
  ERROR_MIME,
  RESULT_MIME,
  type ErrorPayload,
  type ResultPayload,
} from '../../src/shared/notebookOutput';
import { waitFor } from './harness';

export const NOTEBOOK_TYPE = 'dashboard-platform-notebook';
const CONTROLLER = {
  id: 'dashboard-platform-notebook-controller',
  extension: 'dashboard-platform.dashboard-platform',
};

/** The JSON payload of `mime` among a cell's outputs, if it has one. */
export function outputOf<T>(cell: vscode.NotebookCell, mime: string): T | undefined {
  for (const o of cell.outputs)
    for (const i of o.items) if (i.mime === mime) return JSON.parse(new TextDecoder().decode(i.data)) as T;
  return undefined;
}
export const resultOf = (cell: vscode.NotebookCell) => outputOf<ResultPayload>(cell, RESULT_MIME);
export const errorOf = (cell: vscode.NotebookCell) => outputOf<ErrorPayload>(cell, ERROR_MIME);

/** Shows a notebook in an editor and picks the extension's kernel for it, as a user would. */
export async function showOnKernel(nb: vscode.NotebookDocument): Promise<vscode.NotebookEditor> {
  const editor = await vscode.window.showNotebookDocument(nb);
  await vscode.commands.executeCommand('notebook.selectKernel', { notebookEditor: editor, ...CONTROLLER });
  return editor;
}

/** A new untitled query notebook of these cells, shown on the extension's kernel. */
export async function openNotebook(
  data: vscode.NotebookData | vscode.NotebookCellData[],
): Promise<vscode.NotebookEditor> {
  const nb = await vscode.workspace.openNotebookDocument(
    NOTEBOOK_TYPE,
    Array.isArray(data) ? new vscode.NotebookData(data) : data,
  );
  return showOnKernel(nb);
}

/**
 * A new notebook of one JSON query cell on the sandbox's first deployment and a dev branch of its
 * data model, picked as the notebook's commands pick them.
 */
export async function openOnBranch(query: unknown, branch: string): Promise<vscode.NotebookDocument> {
  const json = new vscode.NotebookCellData(vscode.NotebookCellKind.Code, JSON.stringify(query), 'json');
  const nb = (await openNotebook([json])).notebook;
  await vscode.commands.executeCommand('dashboardPlatform.notebook.selectDeployment', { deploymentId: 1 });
  await vscode.commands.executeCommand('dashboardPlatform.model.notebookBranch', { branch, notebook: nb });
  return nb;
}

/**
 * A new notebook of one JSON query cell shown as a chart (`query` pretty-printed, as a user writes
 * it), run to its end on the extension's kernel: answers its editor.
 */
export async function runChart(query: unknown): Promise<vscode.NotebookEditor> {
  const data = new vscode.NotebookCellData(
    vscode.NotebookCellKind.Code,
    JSON.stringify(query, null, 2),
    'json',
  );
  data.metadata = { view: 'chart' };
  const editor = await openNotebook([data]);
  await vscode.commands.executeCommand('notebook.cell.execute', {
    ranges: [{ start: 0, end: 1 }],
    document: editor.notebook.uri,
  });
  const cell = editor.notebook.cellAt(0);
  const summary = await waitFor(
    'the cell to finish',
    () => (cell.executionSummary?.timing?.endTime ? cell.executionSummary : undefined),
    60_000,
  );
  assert.equal(summary.success, true, 'the chart cell ran');
  return editor;
}
