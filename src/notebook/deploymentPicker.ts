// A status bar item per active query notebook showing its deployment; clicking it picks another one
// (kept in the notebook's metadata). Without a choice the profile's default deployment is used.
// Deployments are those of the notebook's profile (notebookProfile.ts), not necessarily the active one.
import * as vscode from 'vscode';
import type { Services } from '../services';
import { NOTEBOOK_TYPE } from './notebookFormat';
import { notebookDeployment } from './controller';
import { defaultDeploymentName } from './deploymentName';
import { notebookTarget } from './notebookProfile';

export class DeploymentPicker implements vscode.Disposable {
  private readonly item = vscode.window.createStatusBarItem(
    'dashboardPlatform.notebook.deployment',
    vscode.StatusBarAlignment.Right,
    100,
  );
  private readonly subs: vscode.Disposable[] = [];
  /** Deployment names by "profile/id", looked up once (the status bar says names, not ids). */
  private readonly names = new Map<string, string | Promise<void>>();

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
      services.profiles.onDidChangeProfiles(() => this.update()),
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
    const target = notebookTarget(this.services, nb);
    const profile = target.ok ? target.profile : undefined;
    const fallback = profile ? this.services.profiles.get(profile)?.defaultDeploymentId : undefined;
    const label = (id: number) => (profile && this.nameOf(profile, id)) || `Deployment ${id}`;
    const unnamed = (profile && this.defaultOf(profile)) || "The profile's Data API";
    this.item.text = `$(server) ${d !== undefined ? label(d) : fallback !== undefined ? `${label(fallback)} (default)` : unnamed}`;
    this.item.tooltip = 'Deployment this query notebook runs against. Click to change.';
    this.item.show();
  }

  /** Where a profile's Data API answers when nothing names a deployment (looked up once, then updates). */
  private defaultOf(profile: string): string | undefined {
    const key = `${profile.toLowerCase()}/default`;
    const known = this.names.get(key);
    if (typeof known === 'string') return known;
    if (!known)
      this.names.set(
        key,
        defaultDeploymentName(this.services, profile).then(
          (name) => {
            this.names.set(key, name);
            this.update();
          },
          () => undefined,
        ),
      );
    return undefined;
  }

  /** The cached name of a profile's deployment; starts the lookup (then updates) if unknown. */
  private nameOf(profile: string, id: number): string | undefined {
    const key = `${profile.toLowerCase()}/${id}`;
    const known = this.names.get(key);
    if (typeof known === 'string') return known;
    if (!known)
      this.names.set(
        key,
        this.services.clients
          .platform(profile)
          .then((c) => c.getDeployment(id))
          .then(
            (dep) => {
              this.names.set(key, String(dep.name));
              this.update();
            },
            () => undefined, // stays "Deployment <id>" (e.g. signed out); no retry loop
          ),
      );
    return undefined;
  }

  /**
   * Picks a deployment from the profile's list (or the profile default, or a typed id) and stores it
   * in the notebook metadata. Returns the notebook's deployment afterwards.
   */
  async pick(
    nb = vscode.window.activeNotebookEditor?.notebook,
    value?: number | null,
  ): Promise<number | undefined> {
    if (!nb || nb.notebookType !== NOTEBOOK_TYPE) throw new Error('Open a query notebook first.');
    let id: number | undefined;
    if (value === undefined) {
      const chosen = await this.ask(nb);
      if (chosen === 'cancel') return notebookDeployment(nb);
      id = chosen;
    } else id = value ?? undefined;
    const meta = { ...(nb.metadata ?? {}) } as Record<string, unknown>;
    if (id === undefined) delete meta.deploymentId;
    else meta.deploymentId = id;
    // A notebook without a profile gets the one whose deployments were offered (the active one).
    const target = notebookTarget(this.services, nb);
    if (target.ok && !target.stored) meta.profile = target.profile;
    const edit = new vscode.WorkspaceEdit();
    edit.set(nb.uri, [vscode.NotebookEdit.updateNotebookMetadata(meta)]);
    await vscode.workspace.applyEdit(edit);
    this.update();
    return id;
  }

  /** The user's choice: a deployment id, undefined for the profile default, or 'cancel'. */
  private async ask(nb: vscode.NotebookDocument): Promise<number | undefined | 'cancel'> {
    type Item = vscode.QuickPickItem & { id?: number; kind2: 'deployment' | 'default' | 'type' };
    const current = notebookDeployment(nb);
    const items: Item[] = [
      { label: '$(discard) Use the profile default', kind2: 'default' },
      { label: '$(edit) Enter a deployment id…', kind2: 'type' },
    ];
    try {
      const target = notebookTarget(this.services, nb);
      const client = await this.services.clients.platform(target.ok ? target.profile : undefined);
      const page = await client.listDeployments({ first: 100 });
      items.unshift(
        ...page.items.map((d): Item => ({
          label: d.name,
          description: `id ${d.id}${d.id === current ? ' · current' : ''}`,
          id: d.id,
          kind2: 'deployment',
        })),
      );
    } catch (e) {
      this.services.log.warn(`Could not list deployments for the picker: ${(e as Error).message}`);
    }
    const picked = await vscode.window.showQuickPick(items, {
      title: 'Deployment for this notebook',
      matchOnDescription: true,
    });
    if (!picked) return 'cancel';
    if (picked.kind2 === 'deployment') return picked.id;
    if (picked.kind2 === 'default') return undefined;
    const input = await vscode.window.showInputBox({
      title: 'Deployment for this notebook',
      prompt: 'Deployment id; leave empty to use the profile default',
      value: current?.toString() ?? '',
      validateInput: (v) =>
        v.trim() === '' || /^\d+$/.test(v.trim()) ? undefined : 'A whole number, or empty',
    });
    if (input === undefined) return 'cancel';
    return input.trim() === '' ? undefined : Number(input.trim());
  }

  dispose(): void {
    this.item.dispose();
    for (const s of this.subs) s.dispose();
  }
}
