// "Export Results": re-runs the cell's query and streams the FULL result (no row cap) to a CSV or
// JSON file, with progress and cancel.
import * as fs from 'node:fs';
import * as vscode from 'vscode';
import { exportFileName } from './exportName';
import type { DataClient } from '../api/dataClient';
import type { LoadQuery } from '../api/schemas/data';
import { csvCell } from '../shared/notebookOutput';
import { loadPayload } from './results';

export type ExportFormat = 'csv' | 'json';

/** Streams a query's full result to `file`. Returns the number of rows written. */
export async function exportQuery(
  client: DataClient,
  kind: 'sql' | 'json',
  text: string,
  file: string,
  format: ExportFormat,
  opts: { signal?: AbortSignal; onRows?(n: number): void } = {},
): Promise<number> {
  const out = fs.createWriteStream(file, { encoding: 'utf8' });
  const write = (s: string) =>
    new Promise<void>((resolve, reject) => {
      if (out.write(s)) resolve();
      else out.once('drain', resolve).once('error', reject);
    });
  let n = 0;
  let names: string[] = [];
  const writeRow = async (r: unknown[]) => {
    if (format === 'csv') await write(r.map(csvCell).join(',') + '\r\n');
    else
      await write(
        (n === 0 ? '\n' : ',\n') + JSON.stringify(Object.fromEntries(names.map((c, i) => [c, r[i] ?? null]))),
      );
    n++;
  };
  try {
    if (format === 'json') await write('[');
    if (kind === 'sql') {
      for await (const chunk of client.cubesql(text, { signal: opts.signal })) {
        if (chunk.type === 'schema') {
          names = chunk.schema.map((c) => c.name);
          if (format === 'csv') await write(names.map(csvCell).join(',') + '\r\n');
        } else {
          for (const r of chunk.rows) await writeRow(r);
          opts.onRows?.(n);
        }
      }
    } else {
      const res = await client.load(JSON.parse(text) as LoadQuery, { signal: opts.signal });
      const p = loadPayload(res, Number.MAX_SAFE_INTEGER);
      names = p.columns.map((c) => c.name);
      if (format === 'csv') await write(names.map(csvCell).join(',') + '\r\n');
      for (const r of p.rows) await writeRow(r);
      opts.onRows?.(n);
    }
    if (format === 'json') await write(n === 0 ? ']\n' : '\n]\n');
  } finally {
    await new Promise<void>((resolve) => out.end(resolve));
  }
  if (opts.signal?.aborted) {
    fs.rmSync(file, { force: true });
    throw new vscode.CancellationError();
  }
  return n;
}

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
