// The cell status bar of query notebooks says where a cell runs: the active profile and the
// notebook's deployment, by name. A notebook saved for another profile still runs on the active
// one (clients exist only for the active profile), so that cell says so in a warning, with a click
// that switches the profile.
import * as vscode from 'vscode';
import { COMMANDS } from '../commands';
import type { Services } from '../services';
import { notebookDeployment } from './controller';
import { notebookDevBranch } from './devBranch';
import { NOTEBOOK_TYPE } from './notebookFormat';

/** The profile a notebook was saved for (its metadata), if any. */
export function storedProfile(nb: vscode.NotebookDocument): string | undefined {
  const p = (nb.metadata as Record<string, unknown> | undefined)?.profile;
  return typeof p === 'string' && p.trim() ? p : undefined;
}

export class TargetStatus implements vscode.NotebookCellStatusBarItemProvider, vscode.Disposable {
  private readonly changed = new vscode.EventEmitter<void>();
  readonly onDidChangeCellStatusBarItems = this.changed.event;
  /** Deployment names of the active profile, loaded once per profile. */
  private names: { profile: string; byId: Promise<Map<number, string>> } | undefined;
  private readonly subs: vscode.Disposable[];

  constructor(private readonly services: Services) {
    this.subs = [
      this.changed,
      vscode.notebooks.registerNotebookCellStatusBarItemProvider(NOTEBOOK_TYPE, this),
      services.profiles.onDidChangeActiveProfile(() => {
        this.names = undefined;
        this.changed.fire();
      }),
      vscode.workspace.onDidChangeNotebookDocument((e) => {
        if (e.metadata && e.notebook.notebookType === NOTEBOOK_TYPE) this.changed.fire();
      }),
    ];
  }

  private deploymentNames(profile: string): Promise<Map<number, string>> {
    if (this.names?.profile !== profile) {
      const byId = (async () => {
        const client = await this.services.clients.platform();
        const page = await client.listDeployments({ first: 100 });
        return new Map(page.items.map((d) => [d.id, String(d.name ?? `Deployment ${d.id}`)]));
      })().catch(() => new Map<number, string>());
      this.names = { profile, byId };
    }
    return this.names.byId;
  }

  /** The text and tooltip of a code cell's target item (tests read it). */
  async describe(
    nb: vscode.NotebookDocument,
  ): Promise<{ text: string; tooltip: string; mismatch: boolean; command: vscode.Command }> {
    const pick: vscode.Command = { command: COMMANDS.profilesSwitch.id, title: 'Switch Profile…' };
    const active = this.services.profiles.active();
    if (!active) {
      return {
        text: '$(debug-disconnect) No profile',
        tooltip: 'No active profile: switch to one to run cells.',
        mismatch: true,
        command: pick,
      };
    }
    const name = active.profile.name;
    const id = notebookDeployment(nb) ?? active.profile.defaultDeploymentId;
    const deploymentName =
      id === undefined
        ? 'default deployment'
        : ((await this.deploymentNames(name)).get(id) ?? `deployment ${id}`);
    const branch = notebookDevBranch(nb);
    const deployment = branch ? `${deploymentName} · branch ${branch} (dev mode)` : deploymentName;
    const saved = storedProfile(nb);
    if (saved && saved.toLowerCase() !== name.toLowerCase()) {
      // A click switches straight to the saved profile when this machine has it; else it picks one.
      const known = this.services.profiles.get(saved)?.name;
      return {
        text: `$(warning) Runs on ${name} · ${deployment}, not ${saved}`,
        tooltip: `This notebook was saved for the profile "${saved}", but cells run on the active profile "${name}". ${
          known
            ? `Click to switch to "${known}".`
            : `No profile named "${saved}" exists here: click to pick a profile, or add one with that name.`
        }`,
        mismatch: true,
        command: known
          ? { command: COMMANDS.profilesSwitch.id, title: `Switch to ${known}`, arguments: [known] }
          : pick,
      };
    }
    return {
      text: `$(plug) ${name} · ${deployment}`,
      tooltip: `Cells run on the profile "${name}", ${deployment}. Click to switch profile.`,
      mismatch: false,
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
