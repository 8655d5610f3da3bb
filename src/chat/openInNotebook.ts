// "Open in notebook": a tool call's SQL becomes a new SQL cell of the active query notebook, or of
// a new untitled one when no query notebook is active.
import * as vscode from 'vscode';

import { PLATFORM_SQL } from '../notebook/notebookFormat';

export const QUERY_NOTEBOOK_TYPE = 'dashboard-platform-notebook';

export async function openSqlInNotebook(sql: string | undefined): Promise<vscode.NotebookEditor | undefined> {
  if (!sql?.trim()) {
    void vscode.window.showWarningMessage('There is no SQL to open: the tool call carried none.');
    return undefined;
  }
  const cell = new vscode.NotebookCellData(vscode.NotebookCellKind.Code, sql, PLATFORM_SQL);
  const active = vscode.window.activeNotebookEditor;
  if (active && active.notebook.notebookType === QUERY_NOTEBOOK_TYPE) {
    const index = active.notebook.cellCount;
    const edit = new vscode.WorkspaceEdit();
    edit.set(active.notebook.uri, [vscode.NotebookEdit.insertCells(index, [cell])]);
    await vscode.workspace.applyEdit(edit);
    active.revealRange(
      new vscode.NotebookRange(index, index + 1),
      vscode.NotebookEditorRevealType.InCenterIfOutsideViewport,
    );
    active.selection = new vscode.NotebookRange(index, index + 1);
    return active;
  }
  const doc = await vscode.workspace.openNotebookDocument(
    QUERY_NOTEBOOK_TYPE,
    new vscode.NotebookData([cell]),
  );
  return vscode.window.showNotebookDocument(doc);
}
