// A status bar item per active query notebook showing its deployment; clicking it picks another one
// (kept in the notebook's metadata). Without a choice the profile's default deployment is used.
import * as vscode from 'vscode';
import type { Services } from '../services';
import { NOTEBOOK_TYPE } from './notebookFormat';
import { notebookDeployment } from './controller';

export class DeploymentPicker implements vscode.Disposable {
  private readonly item = vscode.window.createStatusBarItem(
    'dashboardPlatform.notebook.deployment',
    vscode.StatusBarAlignment.Right,
    100,
  );
  private readonly subs: vscode.Disposable[] = [];

  constructor(
    private readonly services: Services,
    command: string,
  ) {
    this.item.name = 'Query Notebook Deployment';
    this.item.command = command;
    this.subs.push(
      vscode.window.onDidChangeActiveNotebookEditor(() => this.update()),
      vscode.workspace.onDidChangeNotebookDocument((e) => {
        if (e.metadata) this.update();
      }),
      services.profiles.onDidChangeActiveProfile(() => this.update()),
    );
    this.update();
  }

  update(): void {
    const nb = vscode.window.activeNotebookEditor?.notebook;
    if (!nb || nb.notebookType !== NOTEBOOK_TYPE) {
      this.item.hide();
      return;
    }
    const d = notebookDeployment(nb);
    const fallback = this.services.profiles.active()?.profile.defaultDeploymentId;
    this.item.text = `$(server) ${d !== undefined ? `Deployment ${d}` : fallback !== undefined ? `Deployment ${fallback} (default)` : 'Default deployment'}`;
    this.item.tooltip = 'Deployment this query notebook runs against. Click to change.';
    this.item.show();
  }

  /** Asks for a deployment id (empty = profile default) and stores it in the notebook metadata. */
  async pick(
    nb = vscode.window.activeNotebookEditor?.notebook,
    value?: number | null,
  ): Promise<number | undefined> {
    if (!nb || nb.notebookType !== NOTEBOOK_TYPE) throw new Error('Open a query notebook first.');
    let id: number | undefined;
    if (value === undefined) {
      const input = await vscode.window.showInputBox({
        title: 'Deployment for this notebook',
        prompt: 'Deployment id; leave empty to use the profile default',
        value: notebookDeployment(nb)?.toString() ?? '',
        validateInput: (v) =>
          v.trim() === '' || /^\d+$/.test(v.trim()) ? undefined : 'A whole number, or empty',
      });
      if (input === undefined) return notebookDeployment(nb);
      id = input.trim() === '' ? undefined : Number(input.trim());
    } else id = value ?? undefined;
    const meta = { ...(nb.metadata ?? {}) } as Record<string, unknown>;
    if (id === undefined) delete meta.deploymentId;
    else meta.deploymentId = id;
    const profile = this.services.profiles.active()?.profile.name;
    if (profile) meta.profile = profile;
    const edit = new vscode.WorkspaceEdit();
    edit.set(nb.uri, [vscode.NotebookEdit.updateNotebookMetadata(meta)]);
    await vscode.workspace.applyEdit(edit);
    this.update();
    return id;
  }

  dispose(): void {
    this.item.dispose();
    for (const s of this.subs) s.dispose();
  }
}
