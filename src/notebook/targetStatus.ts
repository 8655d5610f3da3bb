// The cell status bar of query notebooks says where a cell runs: the notebook's profile (stored in
// the notebook, else the active one) and its deployment, by name. A stored profile missing here, or
// one without a token, shows a warning; a click picks the notebook's profile (never the active one).
import * as vscode from 'vscode';
import { COMMANDS } from '../commands';
import type { Services } from '../services';
import { notebookDeployment } from './controller';
import { defaultDeploymentName } from './deploymentName';
import { notebookDevBranch } from './devBranch';
import { NOTEBOOK_TYPE } from './notebookFormat';
import { notebookTarget, profileSignedIn } from './notebookProfile';

export { storedProfile } from './notebookProfile';

export interface TargetDescription {
  text: string;
  tooltip: string;
  /** The cells cannot run as things stand (no such profile, or no token). */
  problem: boolean;
  command: vscode.Command;
}

export class TargetStatus implements vscode.NotebookCellStatusBarItemProvider, vscode.Disposable {
  private readonly changed = new vscode.EventEmitter<void>();
  readonly onDidChangeCellStatusBarItems = this.changed.event;
  /** Deployment names per profile (lower-cased name), loaded once. */
  private readonly names = new Map<string, Promise<Map<number, string>>>();
  /** What each profile's Data API answers for when nothing names a deployment, loaded once. */
  private readonly defaults = new Map<string, Promise<string>>();
  private readonly subs: vscode.Disposable[];

  constructor(private readonly services: Services) {
    const refresh = () => {
      this.names.clear();
      this.defaults.clear();
      this.changed.fire();
    };
    this.subs = [
      this.changed,
      vscode.notebooks.registerNotebookCellStatusBarItemProvider(NOTEBOOK_TYPE, this),
      services.profiles.onDidChangeActiveProfile(refresh),
      services.profiles.onDidChangeProfiles(refresh),
      services.profiles.onDidChangeSecrets(refresh),
      vscode.workspace.onDidChangeNotebookDocument((e) => {
        if (e.metadata && e.notebook.notebookType === NOTEBOOK_TYPE) this.changed.fire();
      }),
    ];
  }

  private deploymentNames(profile: string): Promise<Map<number, string>> {
    const key = profile.toLowerCase();
    let byId = this.names.get(key);
    if (!byId) {
      byId = (async () => {
        const client = await this.services.clients.platform(profile);
        const page = await client.listDeployments({ first: 100 });
        return new Map(page.items.map((d) => [d.id, String(d.name ?? `Deployment ${d.id}`)]));
      })().catch(() => new Map<number, string>());
      this.names.set(key, byId);
    }
    return byId;
  }

  private defaultName(profile: string): Promise<string> {
    const key = profile.toLowerCase();
    let name = this.defaults.get(key);
    if (!name) {
      name = defaultDeploymentName(this.services, profile).catch(() => "the profile's Data API");
      this.defaults.set(key, name);
    }
    return name;
  }

  /** The text and tooltip of a code cell's target item (tests read it). */
  async describe(nb: vscode.NotebookDocument): Promise<TargetDescription> {
    const pick: vscode.Command = {
      command: COMMANDS.notebookSelectProfile.id,
      title: 'Select Notebook Profile…',
      arguments: [{ notebook: nb.uri.toString() }],
    };
    const target = notebookTarget(this.services, nb);
    if (!target.ok) {
      return {
        text: target.stored
          ? `$(warning) No profile "${target.stored}" here`
          : '$(debug-disconnect) No profile',
        tooltip: `${target.reason} Click to pick one.`,
        problem: true,
        command: pick,
      };
    }
    const name = target.profile;
    const active = this.services.profiles.active()?.profile.name;
    const whose = target.stored ? "the notebook's profile" : 'the active profile';
    const keepsActive =
      active && active.toLowerCase() !== name.toLowerCase() ? ` The active profile stays "${active}".` : '';
    if (!(await profileSignedIn(this.services, name))) {
      return {
        text: `$(warning) ${name} · signed out`,
        tooltip: `Cells run on ${whose} "${name}", which has no token here. Set one (Set Token…) or click to pick another profile for this notebook.${keepsActive}`,
        problem: true,
        command: pick,
      };
    }
    const profile = this.services.profiles.get(name);
    const id = notebookDeployment(nb) ?? profile?.defaultDeploymentId;
    const deploymentName =
      id === undefined
        ? await this.defaultName(name)
        : ((await this.deploymentNames(name)).get(id) ?? `deployment ${id}`);
    const branch = notebookDevBranch(nb);
    const deployment = branch ? `${deploymentName} · branch ${branch} (dev mode)` : deploymentName;
    return {
      text: `$(plug) ${name} · ${deployment}`,
      tooltip: `Cells run on ${whose} "${name}", ${deployment}.${keepsActive} Click to pick the notebook's profile.`,
      problem: false,
      command: pick,
    };
  }

  async provideCellStatusBarItems(cell: vscode.NotebookCell): Promise<vscode.NotebookCellStatusBarItem[]> {
    if (cell.kind !== vscode.NotebookCellKind.Code) return [];
    const d = await this.describe(cell.notebook);
    const item = new vscode.NotebookCellStatusBarItem(d.text, vscode.NotebookCellStatusBarAlignment.Right);
    item.tooltip = d.tooltip;
    item.command = d.command;
    return [item];
  }

  dispose(): void {
    for (const s of this.subs) s.dispose();
  }
}
