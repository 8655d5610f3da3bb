// The renderer's chart choices, saved with the cell: the renderer sends `{type: 'chart'}` when the
// user changes type, x, y or series, and this stores it in the cell's metadata (`chart`, and
// `view: 'chart'` so the cell opens on its chart). When an output is shown again the renderer says
// `hello` and gets the saved choice back, so a re-render never loses it.
import * as vscode from 'vscode';
import { validChoice } from '../shared/chartChoice';
import { RESULT_MIME, type ResultPayload } from '../shared/notebookOutput';

export const RENDERER_ID = 'dashboard-platform-result-renderer';

interface Message {
  type?: unknown;
  outputKey?: unknown;
  chart?: unknown;
}

const dec = new TextDecoder();

function payloadOf(cell: vscode.NotebookCell, key: string): ResultPayload | undefined {
  for (const o of cell.outputs) {
    if (o.metadata?.outputKey !== key) continue;
    const item = o.items.find((i) => i.mime === RESULT_MIME);
    if (item) return JSON.parse(dec.decode(item.data)) as ResultPayload;
  }
  return undefined;
}

export function registerChartMessages(log: { warn(message: string): void }): vscode.Disposable {
  const messaging = vscode.notebooks.createRendererMessaging(RENDERER_ID);
  return messaging.onDidReceiveMessage(async ({ editor, message }) => {
    const m = message as Message;
    if (typeof m?.outputKey !== 'string') return;
    const key = m.outputKey;
    const cell = editor.notebook.getCells().find((c) => c.outputs.some((o) => o.metadata?.outputKey === key));
    const payload = cell && payloadOf(cell, key);
    if (!cell || !payload) return;
    if (m.type === 'hello') {
      const chart = validChoice(cell.metadata?.chart, payload.columns);
      if (chart) await messaging.postMessage({ type: 'chart', outputKey: key, chart }, editor);
      return;
    }
    if (m.type !== 'chart') return;
    const chart = validChoice(m.chart, payload.columns);
    if (!chart) return;
    const edit = new vscode.WorkspaceEdit();
    edit.set(editor.notebook.uri, [
      vscode.NotebookEdit.updateCellMetadata(cell.index, { ...cell.metadata, chart, view: 'chart' }),
    ]);
    if (!(await vscode.workspace.applyEdit(edit)))
      log.warn('The chart choice could not be saved in the cell.');
  });
}
