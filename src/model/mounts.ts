// The models open in the editor: one mount per deployment and branch, holding the files as last
// read from the server with their hashes (what a save compares against to detect a change made
// elsewhere; the rules are in branchFiles.ts), and whether the default branch was unlocked.
import * as vscode from 'vscode';
import type { BuildClient } from '../api/buildClient';
import type { Services } from '../services';
import { BranchFiles } from './branchFiles';
import { defaultBranchOf, MODEL_SCHEME, modelUriPath } from './modelPaths';

/** One branch of a deployment open in the editor: its files (branchFiles.ts) and its place there. */
export class Mount extends BranchFiles {
  unlocked = false;
  /** The server answered that the branch is not there (deleted, merged away, a reset sandbox). */
  missing = false;

  constructor(
    deploymentId: number,
    readonly deploymentName: string,
    branch: string,
    readonly defaultBranch: string | undefined,
  ) {
    super(deploymentId, branch);
  }

  get isDefault(): boolean {
    return this.branch === this.defaultBranch;
  }

  get readonly(): boolean {
    return this.isDefault && !this.unlocked;
  }

  get root(): vscode.Uri {
    return vscode.Uri.from({
      scheme: MODEL_SCHEME,
      authority: String(this.deploymentId),
      path: modelUriPath(this.branch),
    });
  }

  uri(path: string): vscode.Uri {
    return vscode.Uri.from({
      scheme: MODEL_SCHEME,
      authority: String(this.deploymentId),
      path: modelUriPath(this.branch, path),
    });
  }

  /** Direct children of a folder: names and kinds. */
  children(path: string): [string, vscode.FileType][] {
    const prefix = path ? `${path}/` : '';
    const out = new Map<string, vscode.FileType>();
    const add = (p: string, leafType: vscode.FileType) => {
      if (!p.startsWith(prefix)) return;
      const rest = p.slice(prefix.length);
      const slash = rest.indexOf('/');
      if (slash < 0) out.set(rest, leafType);
      else out.set(rest.slice(0, slash), vscode.FileType.Directory);
    };
    for (const p of this.files.keys()) add(p, vscode.FileType.File);
    for (const d of this.dirs) add(d, vscode.FileType.Directory);
    out.delete('');
    return [...out].sort(([a], [b]) => a.localeCompare(b));
  }
}

/** Every open mount, by deployment and branch. */
export class Mounts {
  private readonly byKey = new Map<string, Mount>();
  private readonly changed = new vscode.EventEmitter<Mount | undefined>();
  /** Fires when a mount is added, removed, or its branch state (unlock) changes. */
  readonly onDidChange = this.changed.event;

  /** Told when a mount's branch is found gone from the server (set by the feature: it asks what to do). */
  lost: ((mount: Mount) => void) | undefined;

  constructor(private readonly services: Services) {}

  build = (): Promise<BuildClient> => this.services.clients.build();

  get(deploymentId: number, branch: string): Mount | undefined {
    return this.byKey.get(`${deploymentId}/${branch}`);
  }

  all(): Mount[] {
    return [...this.byKey.values()];
  }

  /** Adds a mount; `inView` false keeps it out of the status bar (and so out of dev mode). */
  add(mount: Mount, inView = true): Mount {
    const key = `${mount.deploymentId}/${mount.branch}`;
    const found = this.byKey.get(key);
    if (found) return found;
    this.byKey.set(key, mount);
    if (inView) this.changed.fire(mount);
    return mount;
  }

  remove(mount: Mount): void {
    this.byKey.delete(`${mount.deploymentId}/${mount.branch}`);
    this.changed.fire(undefined);
  }

  fire(mount: Mount): void {
    this.changed.fire(mount);
  }

  /**
   * The mount of a URI, created when a model folder comes back with a restored window, or when
   * VS Code reads a file of a branch not open (a restored tab, a document kept from before).
   * A folder's mount becomes the one in view (the status bar; dev mode follows); any other comes
   * quietly, so a stray read never moves dev mode away from the branch being worked on.
   */
  async resolve(deploymentId: number, branch: string): Promise<Mount> {
    const found = this.get(deploymentId, branch);
    if (found) return found;
    const [deployment, branches] = await Promise.all([
      this.services.clients.platform().then((p) => p.getDeployment(deploymentId)),
      this.build().then((b) => b.allBranches(deploymentId)),
    ]);
    const fresh = new Mount(deploymentId, deployment.name, branch, defaultBranchOf(branches));
    const isFolder = (vscode.workspace.workspaceFolders ?? []).some(
      (f) => f.uri.toString() === fresh.root.toString(),
    );
    const mount = this.add(fresh, isFolder);
    // Gone from the server: its reads fail with a clear message, and the user is asked.
    if (mount === fresh && !branches.some((b) => b.name === branch)) this.markLost(mount);
    return mount;
  }

  /** Records that a mount's branch is gone and lets the feature ask the user what to do. */
  markLost(mount: Mount): void {
    mount.missing = true;
    this.changed.fire(mount);
    this.lost?.(mount);
  }

  dispose(): void {
    this.changed.dispose();
  }
}
