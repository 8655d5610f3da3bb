// The status bar names the data-model branch in view, as soon as it changes: the branch just
// mounted or switched to (before its files load), the branch of the model file in the active
// editor, or, while a query notebook is active, the branch that notebook runs on (a notebook
// icon, "orders-dev · dev mode", or the deployment's default branch). A lock marks the read-only default
// branch, a warning a branch gone from the server. Clicking it picks another branch: for the
// model, or for the notebook.
import * as vscode from 'vscode';
import { COMMANDS } from '../commands';
import { notebookDevBranch } from '../notebook/devBranch';
import type { Services } from '../services';
import { defaultBranchOf, MODEL_SCHEME, parseModelUri } from './modelPaths';
import type { Mount, Mounts } from './mounts';

const NOTEBOOK_TYPE = 'dashboard-platform-notebook';

const notebookDeployment = (nb: vscode.NotebookDocument): number | undefined => {
  const d = (nb.metadata as Record<string, unknown> | undefined)?.deploymentId;
  return typeof d === 'number' ? d : undefined;
};

interface DeploymentInfo {
  name: string;
  defaultBranch?: string;
}

export class BranchStatus implements vscode.Disposable {
  private readonly item = vscode.window.createStatusBarItem(
    'dashboardPlatform.model.branch',
    vscode.StatusBarAlignment.Left,
    90,
  );
  /** The model in view: the last one mounted, switched to, or focused in an editor. */
  private inView: Mount | undefined;
  /** The active query notebook was focused (or re-targeted) after the model in view changed. */
  private notebookFirst = false;
  /** Names and default branches of deployments notebooks run on, not mounted here. */
  private readonly known = new Map<number, DeploymentInfo>();
  private readonly asked = new Set<number>();
  private readonly subs: vscode.Disposable[];

  constructor(
    private readonly services: Services,
    private readonly mounts: Mounts,
  ) {
    this.item.name = 'Data Model Branch';
    this.subs = [
      vscode.window.onDidChangeActiveTextEditor((e) => {
        const m = this.mountOf(e?.document.uri);
        if (m) {
          this.inView = m;
          this.notebookFirst = false;
        }
        this.update();
      }),
      vscode.window.onDidChangeActiveNotebookEditor((e) => {
        if (e && e.notebook.notebookType === NOTEBOOK_TYPE) this.notebookFirst = true;
        this.update();
      }),
      vscode.workspace.onDidChangeNotebookDocument((e) => {
        if (e.metadata && e.notebook === vscode.window.activeNotebookEditor?.notebook) {
          this.notebookFirst = true;
          this.update();
        }
      }),
      mounts.onDidChange((m) => {
        if (m) {
          this.inView = m;
          this.notebookFirst = false;
        } else if (this.inView && !mounts.all().includes(this.inView)) {
          this.inView = this.mountOf(vscode.window.activeTextEditor?.document.uri) ?? mounts.all().at(-1);
        }
        this.update();
      }),
    ];
    this.inView = this.mountOf(vscode.window.activeTextEditor?.document.uri) ?? mounts.all().at(-1);
    this.update();
  }

  private mountOf(uri: vscode.Uri | undefined): Mount | undefined {
    if (uri?.scheme !== MODEL_SCHEME) return undefined;
    const loc = parseModelUri(uri.authority, uri.path);
    return loc && this.mounts.get(loc.deploymentId, loc.branch);
  }

  /** The model in view (what the chat and notebooks can target). */
  current(): Mount | undefined {
    return this.inView;
  }

  /** What the item shows (tests read it). */
  get text(): string {
    return this.item.text;
  }

  get tooltip(): string {
    return typeof this.item.tooltip === 'string' ? this.item.tooltip : '';
  }

  private activeNotebook(): vscode.NotebookDocument | undefined {
    const nb = vscode.window.activeNotebookEditor?.notebook;
    return nb?.notebookType === NOTEBOOK_TYPE ? nb : undefined;
  }

  /** Name and default branch of a deployment: a mount's when one is open, else asked once. */
  private deployment(id: number): DeploymentInfo | undefined {
    const m = this.mounts.all().find((x) => x.deploymentId === id);
    if (m) return { name: m.deploymentName, defaultBranch: m.defaultBranch };
    if (!this.asked.has(id)) {
      this.asked.add(id);
      void (async () => {
        const [d, branches] = await Promise.all([
          this.services.clients.platform().then((c) => c.getDeployment(id)),
          this.services.clients.build().then((b) => b.allBranches(id)),
        ]);
        this.known.set(id, { name: d.name, defaultBranch: defaultBranchOf(branches) });
        this.update();
      })().catch(() => this.asked.delete(id));
    }
    return this.known.get(id);
  }

  update(): void {
    const nb = this.activeNotebook();
    if (nb && (this.notebookFirst || !this.inView)) this.showNotebook(nb);
    else if (this.inView) this.showMount(this.inView);
    else this.item.hide();
  }

  private showNotebook(nb: vscode.NotebookDocument): void {
    const branch = notebookDevBranch(nb);
    const id = notebookDeployment(nb) ?? this.services.profiles.active()?.profile.defaultDeploymentId;
    const dep = id !== undefined ? this.deployment(id) : undefined;
    const where = dep?.name ?? (id !== undefined ? 'its deployment' : 'the default deployment');
    this.item.command = {
      command: COMMANDS.modelNotebookBranch.id,
      title: COMMANDS.modelNotebookBranch.title,
      arguments: [{ notebook: nb }],
    };
    if (branch) {
      this.item.text = `$(notebook) ${branch} · dev mode`;
      this.item.tooltip = `This notebook runs on the branch "${branch}" of ${where}, in dev mode. Click to run it on another branch.`;
    } else {
      const def = dep?.defaultBranch ?? 'default branch';
      this.item.text = `$(notebook) ${def}`;
      this.item.tooltip = `This notebook runs on ${where} itself (its default branch${dep?.defaultBranch ? ` "${dep.defaultBranch}"` : ''}). Click to run it on a dev branch.`;
    }
    this.item.show();
  }

  private showMount(m: Mount): void {
    this.item.command = COMMANDS.modelSwitchBranch.id;
    if (m.missing) {
      this.item.text = `$(warning) ${m.branch} · not on the server`;
      this.item.tooltip = `${m.deploymentName}: the branch "${m.branch}" is not on the server any more. Click to pick or create a branch.`;
    } else if (m.readonly) {
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
