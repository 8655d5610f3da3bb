// "Export Results": re-runs the cell's query and streams the FULL result (no row cap) to a CSV or
// JSON file, with progress and cancel. The rows are parsed and written in a worker thread
// (exportRunner.ts, exportWorker.ts).
import * as vscode from 'vscode';
import { exportFileName } from './exportName';
import type { DataClient } from '../api/dataClient';
import { exportQuery, type ExportFormat } from './exportRunner';

export type { ExportFormat } from './exportRunner';

/** The command: picks the cell (argument or the selected one), the target file, and runs with progress. */
export async function exportResultsCommand(
  clientFor: (nb: vscode.NotebookDocument) => Promise<DataClient>,
  args?: { cell?: vscode.NotebookCell; uri?: vscode.Uri; format?: ExportFormat },
): Promise<{ rows: number; file: string } | undefined> {
  const editor = vscode.window.activeNotebookEditor;
  const cell = args?.cell ?? (editor ? editor.notebook.cellAt(editor.selection.start) : undefined);
  if (!cell || cell.kind !== vscode.NotebookCellKind.Code)
    throw new Error('Select a SQL or JSON query cell to export.');
  const kind = cell.document.languageId === 'json' ? 'json' : 'sql';
  let format = args?.format;
  let uri = args?.uri;
  if (!uri) {
    const nbUri = cell.notebook.uri;
    const name = exportFileName({
      notebookName: nbUri.path.split('/').pop() ?? 'results',
      cellIndex: cell.index,
      kind,
      query: cell.document.getText(),
      format: format ?? 'csv',
      date: new Date(),
    });
    // Beside the notebook when it is a file, else in the first workspace folder.
    const folder =
      nbUri.scheme === 'file'
        ? vscode.Uri.joinPath(nbUri, '..')
        : vscode.workspace.workspaceFolders?.[0]?.uri;
    const picked = await vscode.window.showSaveDialog({
      filters: { CSV: ['csv'], JSON: ['json'] },
      title: 'Export the full result',
      saveLabel: 'Export',
      ...(folder ? { defaultUri: vscode.Uri.joinPath(folder, name) } : {}),
    });
    if (!picked) return undefined;
    uri = picked;
  }
  format ??= uri.fsPath.toLowerCase().endsWith('.json') ? 'json' : 'csv';
  const client = await clientFor(cell.notebook);
  const target = uri;
  const fmt = format;
  const rows = await vscode.window.withProgress(
    { location: vscode.ProgressLocation.Notification, title: 'Exporting results', cancellable: true },
    async (progress, token) => {
      const abort = new AbortController();
      const sub = token.onCancellationRequested(() => abort.abort());
      try {
        return await exportQuery(client, kind, cell.document.getText(), target.fsPath, fmt, {
          signal: abort.signal,
          onRows: (n) => progress.report({ message: `${n.toLocaleString()} rows written` }),
        });
      } finally {
        sub.dispose();
      }
    },
  );
  const file = target.path.split('/').pop() ?? target.fsPath;
  void vscode.window
    .showInformationMessage(
      `Exported ${rows.toLocaleString()} rows to ${file}.`,
      'Open',
      'Reveal in Explorer',
    )
    .then(async (choice) => {
      if (choice === 'Open') await vscode.commands.executeCommand('vscode.open', target);
      if (choice === 'Reveal in Explorer') await vscode.commands.executeCommand('revealInExplorer', target);
    });
  return { rows, file: target.fsPath };
}
