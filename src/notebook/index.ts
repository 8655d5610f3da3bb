// Query notebooks, activation part: the .dpnb serializer is registered here and delegates to the
// feature (notebookFeature.ts), which loads when a query notebook opens or a notebook command runs.
import * as vscode from 'vscode';
import { COMMANDS } from '../commands';
import { commandIds, LazyFeature, lazyModule } from '../lazy';
import type { Services } from '../services';
import type * as NotebookModule from './notebookFeature';

/** Same as notebookFormat.ts's NOTEBOOK_TYPE (the manifest's notebook type). */
const NOTEBOOK_TYPE = 'dashboard-platform-notebook';

export function register(services: Services): vscode.Disposable[] {
  const lazy = new LazyFeature(commandIds(COMMANDS, 'dashboardPlatform.notebook.'), () => {
    const mod = lazyModule<typeof NotebookModule>('src/notebook/notebookFeature.ts');
    const { serializer, disposables } = mod.createNotebookFeature(services);
    services.context.subscriptions.push(...disposables);
    return serializer;
  });
  const isQueryNotebook = (nb: vscode.NotebookDocument) => nb.notebookType === NOTEBOOK_TYPE;
  // A query notebook already open (restored window) needs its controller now.
  if (vscode.workspace.notebookDocuments.some(isQueryNotebook)) lazy.get();
  const saveOutputs = vscode.workspace
    .getConfiguration('dashboardPlatform.notebook')
    .get<boolean>('saveOutputs', false);
  return [
    lazy,
    vscode.workspace.registerNotebookSerializer(
      NOTEBOOK_TYPE,
      {
        serializeNotebook: (data, token) => lazy.get().serializeNotebook(data, token),
        deserializeNotebook: (content, token) => lazy.get().deserializeNotebook(content, token),
      },
      // Outputs dirty the file only when they are saved at all.
      { transientOutputs: !saveOutputs, transientDocumentMetadata: { execution: true } },
    ),
    // Notebooks created from data (chat's "Open in notebook") skip the serializer.
    vscode.workspace.onDidOpenNotebookDocument((nb) => {
      if (isQueryNotebook(nb)) lazy.get();
    }),
  ];
}
