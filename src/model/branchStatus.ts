// The status bar names the branch of the model in view (the active editor's, else the last one
// opened): "$(git-branch) orders-dev · dev mode", or a lock on the read-only default branch.
// Clicking it picks or creates another branch.
import * as vscode from 'vscode';
import { MODEL_SCHEME, parseModelUri } from './modelPaths';
import type { Mount, Mounts } from './mounts';

export class BranchStatus implements vscode.Disposable {
  private readonly item = vscode.window.createStatusBarItem(
    'dashboardPlatform.model.branch',
    vscode.StatusBarAlignment.Left,
    90,
  );
  private last: Mount | undefined;
  private readonly subs: vscode.Disposable[];

  constructor(
    private readonly mounts: Mounts,
    command: string,
  ) {
    this.item.name = 'Data Model Branch';
    this.item.command = command;
    this.subs = [
      vscode.window.onDidChangeActiveTextEditor(() => this.update()),
      mounts.onDidChange((m) => {
        if (m) this.last = m;
        else if (this.last && !mounts.all().includes(this.last)) this.last = mounts.all().at(-1);
        this.update();
      }),
    ];
    this.update();
  }

  /** The mount shown: the active editor's model, else the last one opened. */
  current(): Mount | undefined {
    const uri = vscode.window.activeTextEditor?.document.uri;
    if (uri?.scheme === MODEL_SCHEME) {
      const loc = parseModelUri(uri.authority, uri.path);
      const m = loc && this.mounts.get(loc.deploymentId, loc.branch);
      if (m) return m;
    }
    return this.last;
  }

  /** What the item shows (tests read it). */
  get text(): string {
    return this.item.text;
  }

  update(): void {
    const m = this.current();
    if (!m) {
      this.item.hide();
      return;
    }
    if (m.readonly) {
      this.item.text = `$(lock) ${m.branch}`;
      this.item.tooltip = `${m.deploymentName}: the default branch "${m.branch}", read-only. Click to pick or create a branch to edit.`;
    } else {
      this.item.text = `$(git-branch) ${m.branch}${m.isDefault ? ' (unlocked)' : ' · dev mode'}`;
      this.item.tooltip = `${m.deploymentName}: editing "${m.branch}"${m.isDefault ? ', the default branch, unlocked' : ' in dev mode'}. Click to pick or create a branch.`;
    }
    this.item.show();
  }

  dispose(): void {
    this.item.dispose();
    for (const s of this.subs) s.dispose();
  }
}
