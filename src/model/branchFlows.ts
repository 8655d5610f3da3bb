// Opening a model and moving between its branches: pick a deployment and a branch by name, mount
// it as a workspace folder named for both, create a branch (dev mode on it), unlock the default
// branch for editing on explicit request. When adding the folder would make VS Code restart the
// extensions (a single-folder window becoming a multi-root workspace), the user decides first:
// a new window holding this window's folders and the model, or this window, reloaded. A branch
// that is gone from the server is said so, with "Switch to main" and "Create Again". Delete a
// dev branch (picked by name, confirmed in a modal naming it; never the default branch) and exit
// dev mode (the model in view goes back to the default branch, so no folder, status bar or chat
// target keeps naming the branch, and nothing re-enters dev mode on it).
import * as vscode from 'vscode';
import type { Branch } from '../api/buildClient';
import { isApiError } from '../api/errors';
import type { Services } from '../services';
import { defaultBranchOf, parseModelUri } from './modelPaths';
import { Mount, type Mounts } from './mounts';
import { folderChangeReloads, workspaceFileName, workspaceFileText, type FolderEntry } from './windowPlan';

export interface OpenArgs {
  deploymentId?: number;
  branch?: string;
  /**
   * False: mount without adding a workspace folder (files open by URI). In a single-folder
   * window VS Code restarts the extension host to enter a multi-root workspace; the tests avoid it.
   */
  addFolder?: boolean;
}

/** The choice offered before a folder change that would reload the window. */
export const NEW_WINDOW = 'Open in New Window';
export const RELOAD_HERE = 'Add to This Window (Reloads)';

/** The branch pick's answer when "Exit dev mode" was chosen. */
const EXIT = Symbol('exit dev mode');

const folderName = (m: Mount) => `${m.deploymentName} · ${m.branch}`;

export class BranchFlows {
  /** The branch each deployment is in dev mode on, as this window last set it. */
  private readonly devBranch = new Map<number, string>();
  /** Dev mode being entered, by "deployment/branch" (one request for concurrent callers). */
  private readonly entering = new Map<string, Promise<void>>();
  /** Lost branches being asked about (one question per branch at a time). */
  private readonly recovering = new Set<Mount>();

  constructor(
    private readonly services: Services,
    private readonly mounts: Mounts,
    private readonly announce: (m: Mount) => void,
  ) {}

  /** The mount a command is about: its argument, the active editor's, the only one, or a pick. */
  async target(arg?: unknown): Promise<Mount> {
    const uri = arg instanceof vscode.Uri ? arg : vscode.window.activeTextEditor?.document.uri;
    const loc = uri ? parseModelUri(uri.authority, uri.path) : undefined;
    if (uri?.scheme === 'dpmodel' && loc) return this.mounts.resolve(loc.deploymentId, loc.branch);
    const all = this.mounts.all();
    if (all.length === 1) return all[0]!;
    if (all.length === 0) throw new Error('No data model is open. Run "Open Data Model…" first.');
    const picked = await vscode.window.showQuickPick(
      all.map((m) => ({ label: folderName(m), mount: m })),
      { title: 'Which data model?' },
    );
    if (!picked) throw new vscode.CancellationError();
    return picked.mount;
  }

  async pickDeployment(title = 'Open Data Model: deployment'): Promise<{ id: number; name: string }> {
    const page = await (await this.services.clients.platform()).listDeployments({ first: 100 });
    if (page.items.length === 0) throw new Error('This profile has no deployments.');
    if (page.items.length === 1) return page.items[0]!;
    const picked = await vscode.window.showQuickPick(
      page.items.map((d) => ({ label: d.name, description: d.deploymentUrl ?? '', d })),
      { title, matchOnDescription: true },
    );
    if (!picked) throw new vscode.CancellationError();
    return picked.d;
  }

  /** Picks a branch (or "Create branch…"); returns its name, created and in dev mode as needed. */
  async pickBranch(deploymentId: number, branches: Branch[], current?: string): Promise<string> {
    const picked = await this.pickBranchOrExit(deploymentId, branches, current, false);
    if (picked === EXIT) throw new vscode.CancellationError();
    return picked;
  }

  /** The branch pick; with `offerExit`, "Exit dev mode" is offered too (answered as EXIT). */
  private async pickBranchOrExit(
    deploymentId: number,
    branches: Branch[],
    current: string | undefined,
    offerExit: boolean,
  ): Promise<string | typeof EXIT> {
    const def = defaultBranchOf(branches);
    type Item = vscode.QuickPickItem & { name?: string; exit?: true };
    const items: Item[] = [
      ...(offerExit
        ? [
            {
              label: '$(debug-stop) Exit dev mode',
              description: `back to ${def ?? 'the default branch'}, read-only`,
              exit: true as const,
            },
          ]
        : []),
      { label: '$(add) Create branch…' },
      ...branches.map((b) => ({
        label: `$(git-branch) ${b.name}`,
        description: [
          b.name === def ? 'default, read-only' : b.parentBranch ? `from ${b.parentBranch}` : '',
          b.name === current ? 'current' : '',
        ]
          .filter(Boolean)
          .join(' · '),
        name: b.name,
      })),
    ];
    const picked = await vscode.window.showQuickPick(items, { title: 'Data model branch' });
    if (!picked) throw new vscode.CancellationError();
    if (picked.exit) return EXIT;
    return picked.name ?? (await this.askNewBranch(deploymentId, current ?? def, branches));
  }

  /**
   * Asks a new branch's name and creates it from `from` (dev mode on it). A `from` that is not on
   * the server any more (a lost branch in view) gives way to the default branch.
   */
  async askNewBranch(deploymentId: number, from: string | undefined, branches: Branch[]): Promise<string> {
    if (from !== undefined && !branches.some((b) => b.name === from)) from = defaultBranchOf(branches);
    const name = await vscode.window.showInputBox({
      title: `New branch${from ? ` from ${from}` : ''}`,
      prompt: 'Branch name (dev mode starts on it)',
      validateInput: (v) =>
        !v.trim()
          ? 'Enter a name'
          : /\s/.test(v.trim())
            ? 'No spaces in a branch name'
            : branches.some((b) => b.name === v.trim())
              ? 'That branch exists; pick it instead'
              : undefined,
    });
    if (!name) throw new vscode.CancellationError();
    await this.createBranch(deploymentId, name.trim(), from);
    return name.trim();
  }

  async createBranch(deploymentId: number, name: string, from?: string): Promise<void> {
    const build = await this.mounts.build();
    await vscode.window.withProgress(
      { location: vscode.ProgressLocation.Notification, title: `Creating the branch ${name}…` },
      () => build.createBranch(deploymentId, { name, ...(from ? { from } : {}), activate: true }),
    );
    this.devBranch.set(deploymentId, name);
  }

  /** Dev mode on `branch` unless this window already put it there (or is doing so). */
  async ensureDevMode(mount: Mount): Promise<void> {
    if (this.devBranch.get(mount.deploymentId) === mount.branch) return;
    const key = `${mount.deploymentId}/${mount.branch}`;
    let entering = this.entering.get(key);
    if (!entering) {
      entering = (async () => {
        await (
          await this.mounts.build()
        ).startDevMode(mount.deploymentId, {
          branchName: mount.branch,
        });
        this.devBranch.set(mount.deploymentId, mount.branch);
      })().finally(() => this.entering.delete(key));
      this.entering.set(key, entering);
    }
    await entering;
  }

  /** Open Data Model…: mounts a branch (the default one read-only) as a workspace folder. */
  async open(args: OpenArgs = {}): Promise<Mount> {
    const deployment =
      args.deploymentId !== undefined
        ? await (await this.services.clients.platform()).getDeployment(args.deploymentId)
        : await this.pickDeployment();
    const branches = await (await this.mounts.build()).allBranches(deployment.id);
    const branch = args.branch ?? (await this.pickBranch(deployment.id, branches));
    return this.mount(
      deployment.id,
      deployment.name,
      branch,
      defaultBranchOf(branches),
      undefined,
      args.addFolder,
    );
  }

  private async mount(
    deploymentId: number,
    name: string,
    branch: string,
    defaultBranch: string | undefined,
    replace?: Mount,
    addFolder = true,
  ): Promise<Mount> {
    const existing = this.mounts.get(deploymentId, branch);
    const mount = this.mounts.add(new Mount(deploymentId, name, branch, defaultBranch));
    // Shown at once in the status bar, before its files load.
    this.mounts.fire(mount);
    try {
      if (!mount.isDefault) await this.ensureDevMode(mount);
      await vscode.window.withProgress(
        { location: vscode.ProgressLocation.Window, title: `Loading ${folderName(mount)}` },
        () => mount.load(this.mounts.build, true),
      );
    } catch (e) {
      if (!isApiError(e) || e.kind !== 'notFound') throw e;
      // Gone from the server (another user deleted it, a merge removed it, a restarted sandbox).
      this.mounts.remove(mount);
      throw new Error(
        `The branch "${branch}" of ${name} is not on the server (${e.message}). Pick or create a branch again (Open Data Model…).`,
        { cause: e },
      );
    }
    mount.missing = false;
    // A folder that showed the branch while it was gone (or stale) reads it again. (A new
    // mount has nothing to announce: an event racing the first edit could reload it away.)
    if (existing) this.announce(mount);
    const folders = vscode.workspace.workspaceFolders ?? [];
    const old = replace ? folders.findIndex((f) => f.uri.toString() === replace.root.toString()) : -1;
    const shown = folders.some((f) => f.uri.toString() === mount.root.toString());
    // A branch that replaces another takes its folder, if it had one.
    if (!shown && (replace ? old >= 0 : addFolder)) {
      const at = old >= 0 ? old : folders.length;
      const entry = { uri: mount.root, name: folderName(mount) };
      const where = await this.placeFolder(mount, at, old >= 0 ? 1 : 0);
      if (where === 'here') vscode.workspace.updateWorkspaceFolders(at, old >= 0 ? 1 : 0, entry);
    }
    if (replace && replace !== mount) this.mounts.remove(replace);
    this.mounts.fire(mount);
    return mount;
  }

  /**
   * Where a new folder goes when VS Code would restart the extensions to add it here: the user
   * chooses a new window (this window stays as it is) or this window, reloaded. Answers 'here'
   * when the folder is to be changed in this window, else what happened instead.
   */
  private async placeFolder(
    mount: Mount,
    at: number,
    replaces: number,
  ): Promise<'here' | 'newWindow' | 'none'> {
    if (!folderChangeReloads({ workspaceFile: vscode.workspace.workspaceFile !== undefined }, at))
      return 'here';
    const here = replaces ? 'Replace in This Window (Reloads)' : RELOAD_HERE;
    const single = (vscode.workspace.workspaceFolders?.length ?? 0) <= 1 && !vscode.workspace.workspaceFile;
    const choice = await vscode.window.showWarningMessage(
      replaces
        ? `Showing "${folderName(mount)}" in place of this window's first folder reloads the window.`
        : `Adding "${folderName(mount)}" to this window reloads it.`,
      {
        modal: true,
        detail: single
          ? "A second folder turns this window into an untitled multi-root workspace, and VS Code restarts the extensions to do that: running queries stop and open views start over. Open the model in a new window (with this window's folders beside it), or add it here and let the window reload."
          : 'Changing the first folder of a workspace makes VS Code restart the extensions: running queries stop and open views start over. Open the model in a new window, or change the folder here and let the window reload.',
      },
      NEW_WINDOW,
      here,
    );
    if (choice === here) return 'here';
    if (choice !== NEW_WINDOW) {
      void vscode.window.showInformationMessage(
        `${folderName(mount)} is open without a workspace folder: its status bar item and commands work on it. Run "Open Data Model…" again to add the folder.`,
      );
      return 'none';
    }
    await this.openInNewWindow(mount, at, replaces);
    return 'newWindow';
  }

  /** Writes a workspace file with this window's folders and the model's, and opens it in a new window. */
  private async openInNewWindow(mount: Mount, at: number, replaces: number): Promise<void> {
    const entries: FolderEntry[] = (vscode.workspace.workspaceFolders ?? []).map((f) => ({
      uri: f.uri.toString(),
      name: f.name,
      ...(f.uri.scheme === 'file' ? { fsPath: f.uri.fsPath } : {}),
    }));
    entries.splice(at, replaces, { uri: mount.root.toString(), name: folderName(mount) });
    const dir = vscode.Uri.joinPath(this.services.context.globalStorageUri, 'model-windows');
    await vscode.workspace.fs.createDirectory(dir);
    const file = vscode.Uri.joinPath(
      dir,
      workspaceFileName(mount.deploymentName, mount.deploymentId, mount.branch),
    );
    const profile = this.services.profiles.active()?.profile.name;
    await vscode.workspace.fs.writeFile(file, new TextEncoder().encode(workspaceFileText(entries, profile)));
    this.services.log.info(`Opening ${folderName(mount)} in a new window (${file.fsPath}).`);
    await vscode.commands.executeCommand('vscode.openFolder', file, { forceNewWindow: true });
  }

  /**
   * A mounted branch the server no longer has: says so once, with "Switch to <default>" (the
   * folder then shows the default branch) and "Create Again" (a new branch of that name from the
   * default branch, mounted in place). Checked against the branch list first: a passing failure
   * just reloads.
   */
  async recoverLost(mount: Mount): Promise<void> {
    if (this.recovering.has(mount)) return;
    this.recovering.add(mount);
    try {
      const build = await this.mounts.build();
      const branches = await build.allBranches(mount.deploymentId);
      if (branches.some((b) => b.name === mount.branch)) {
        mount.missing = false;
        await mount.load(this.mounts.build, true);
        this.announce(mount);
        this.mounts.fire(mount);
        return;
      }
      mount.missing = true;
      this.mounts.fire(mount);
      const def = defaultBranchOf(branches) ?? 'main';
      const toDefault = `Switch to ${def}`;
      const choice = await vscode.window.showWarningMessage(
        `The branch "${mount.branch}" of ${mount.deploymentName} is not on the server any more.`,
        {
          modal: true,
          detail: `Someone may have deleted or merged it, or the sandbox was reset. Switch the folder to "${def}", or create "${mount.branch}" again from "${def}" (changes that were only on the lost branch are not in it).`,
        },
        toDefault,
        'Create Again',
      );
      if (choice === toDefault) await this.switchBranch(mount.root, def);
      else if (choice === 'Create Again') {
        await this.createBranch(mount.deploymentId, mount.branch, def);
        await this.mount(mount.deploymentId, mount.deploymentName, mount.branch, def, mount);
      }
    } finally {
      this.recovering.delete(mount);
    }
  }

  /**
   * Switch Model Branch…: pick or create another branch of the model in view; it replaces it.
   * While the model in view is a branch in dev mode, the pick offers Exit Dev Mode too.
   */
  async switchBranch(arg?: unknown, branchArg?: string): Promise<Mount> {
    const current = await this.target(arg);
    const branches = await (await this.mounts.build()).allBranches(current.deploymentId);
    const inDevMode = !current.isDefault && !current.missing;
    const picked =
      branchArg ?? (await this.pickBranchOrExit(current.deploymentId, branches, current.branch, inDevMode));
    if (picked === EXIT) return this.exitDevMode(current.root);
    const branch = picked;
    return this.mount(
      current.deploymentId,
      current.deploymentName,
      branch,
      defaultBranchOf(branches),
      current,
    );
  }

  /** Create Model Branch…: a new branch from the model in view, in dev mode, mounted in its place. */
  async newBranch(arg?: unknown, nameArg?: string): Promise<Mount> {
    const current = await this.target(arg);
    const branches = await (await this.mounts.build()).allBranches(current.deploymentId);
    let name = nameArg;
    // From the branch in view, unless it is gone from the server (then from the default branch).
    const from = branches.some((b) => b.name === current.branch) ? current.branch : defaultBranchOf(branches);
    if (name) await this.createBranch(current.deploymentId, name, from);
    else name = await this.askNewBranch(current.deploymentId, current.branch, branches);
    return this.mount(current.deploymentId, current.deploymentName, name, defaultBranchOf(branches), current);
  }

  /** Unlock Default Branch for Editing…: asked every time, stronger on a production profile. */
  async unlock(arg?: unknown, args: { confirm?: boolean } = {}): Promise<void> {
    const mount = await this.target(arg);
    if (!mount.isDefault) {
      void vscode.window.showInformationMessage(
        `"${mount.branch}" is not the default branch; it is editable.`,
      );
      return;
    }
    if (args.confirm !== true) {
      const production = this.services.profiles.active()?.profile.production === true;
      const ok = await vscode.window.showWarningMessage(
        `Edit the default branch "${mount.branch}" of ${mount.deploymentName} directly?`,
        {
          modal: true,
          detail: `Saves change what everyone queries once committed, with no branch to review first.${production ? ' This is a PRODUCTION profile.' : ''}`,
        },
        'Unlock',
      );
      if (ok !== 'Unlock') return;
      if (production) {
        const typed = await vscode.window.showInputBox({
          title: 'Production: confirm by typing the deployment name',
          prompt: `Type "${mount.deploymentName}" to unlock its default branch`,
          validateInput: (v) => (v === mount.deploymentName ? undefined : `Type ${mount.deploymentName}`),
        });
        if (typed !== mount.deploymentName) return;
      }
    }
    // No dev mode here: writes name their branch, and the default branch has no dev mode.
    mount.unlocked = true;
    this.mounts.fire(mount);
    this.announce(mount);
  }

  /** The deployment a branch command is about: the model in view's, else a pick. */
  private async deploymentFor(
    arg: unknown,
    title: string,
  ): Promise<{ id: number; name: string; mount?: Mount }> {
    if (this.mounts.all().length > 0) {
      const m = await this.target(arg);
      return { id: m.deploymentId, name: m.deploymentName, mount: m };
    }
    return this.pickDeployment(title);
  }

  /**
   * Delete Model Branch…: a branch of the deployment picked by name (the default branch is not
   * offered, and refused when named), confirmed in a modal that names it. An open folder of the
   * branch then shows the default branch.
   */
  async deleteBranch(
    arg?: unknown,
    args: { branch?: string; confirm?: boolean } = {},
  ): Promise<string | undefined> {
    const dep = await this.deploymentFor(arg, 'Delete Model Branch: deployment');
    const build = await this.mounts.build();
    const branches = await build.allBranches(dep.id);
    const def = defaultBranchOf(branches);
    let name = args.branch;
    if (name === undefined) {
      const others = branches.filter((b) => b.name !== def);
      if (others.length === 0) {
        void vscode.window.showInformationMessage(
          `${dep.name} has only its default branch${def ? ` "${def}"` : ''}, which cannot be deleted.`,
        );
        return undefined;
      }
      const picked = await vscode.window.showQuickPick(
        others.map((b) => ({
          label: `$(git-branch) ${b.name}`,
          description: [
            b.parentBranch ? `from ${b.parentBranch}` : '',
            this.devBranch.get(dep.id) === b.name ? 'dev mode here' : '',
            this.mounts.get(dep.id, b.name) ? 'open' : '',
          ]
            .filter(Boolean)
            .join(' · '),
          name: b.name,
        })),
        { title: `Delete a branch of ${dep.name}`, placeHolder: 'The branch to delete' },
      );
      if (!picked) return undefined;
      name = picked.name;
    }
    if (name === def)
      throw new Error(
        `"${name}" is the default branch of ${dep.name}: it cannot be deleted. Pick a dev branch to delete.`,
      );
    if (!branches.some((b) => b.name === name))
      throw new Error(
        `${dep.name} has no branch "${name}" (it may be deleted already). Pick one from the list.`,
      );
    const open = this.mounts.all().filter((m) => m.deploymentId === dep.id && m.branch === name);
    if (args.confirm !== true) {
      const go = await vscode.window.showWarningMessage(
        `Delete the branch "${name}" of ${dep.name}?`,
        {
          modal: true,
          detail: `Its changes that are not merged are lost for everyone, and this cannot be undone.${open.length ? ` Its open model switches to "${def ?? 'the default branch'}".` : ''}`,
        },
        'Delete Branch',
      );
      if (go !== 'Delete Branch') return undefined;
    }
    const branch = name;
    await vscode.window.withProgress(
      { location: vscode.ProgressLocation.Notification, title: `Deleting the branch ${branch}…` },
      () => build.removeBranch(dep.id, { branchName: branch }),
    );
    // The server drops dev mode on a deleted branch: so does this window.
    if (this.devBranch.get(dep.id) === branch) this.devBranch.delete(dep.id);
    for (const m of open) {
      if (def) await this.switchBranch(m.root, def);
      else this.mounts.remove(m);
    }
    this.services.log.info(`Deleted the branch "${branch}" of ${dep.name}.`);
    void vscode.window.showInformationMessage(`Branch "${branch}" of ${dep.name} deleted.`);
    return branch;
  }

  /**
   * Exit Dev Mode: dev mode ends on the server, and the model in view goes back to the default
   * branch (read-only), so the folder restored after a reload, the status bar and the chat's
   * target no longer name the branch. The branch itself stays on the server.
   */
  async exitDevMode(arg?: unknown): Promise<Mount> {
    const current = await this.target(arg);
    const build = await this.mounts.build();
    const branches = await build.allBranches(current.deploymentId);
    const def = defaultBranchOf(branches);
    if (!def) throw new Error(`${current.deploymentName} has no default branch to go back to.`);
    const branch =
      this.devBranch.get(current.deploymentId) ?? (current.isDefault ? undefined : current.branch);
    await vscode.window.withProgress(
      {
        location: vscode.ProgressLocation.Notification,
        title: `Leaving dev mode on ${current.deploymentName}…`,
      },
      () => build.stopDevMode(current.deploymentId),
    );
    // Off the branch before dev mode is forgotten: a branch in view would be put back in dev mode.
    const mount = current.isDefault
      ? current
      : await this.mount(current.deploymentId, current.deploymentName, def, def, current);
    this.devBranch.delete(current.deploymentId);
    this.services.log.info(
      `Left dev mode on ${current.deploymentName}${branch ? ` (was "${branch}")` : ''}.`,
    );
    void vscode.window.showInformationMessage(
      branch
        ? `Dev mode is off on ${current.deploymentName}. The branch "${branch}" stays on the server; the model shows "${def}" (read-only). Pick the branch again to go on with it.`
        : `Dev mode is off on ${current.deploymentName}.`,
    );
    return mount;
  }

  /** Forget dev-mode knowledge of a deployment (after a merge that may have moved it). */
  forgetDevMode(deploymentId: number): void {
    this.devBranch.delete(deploymentId);
  }
}
