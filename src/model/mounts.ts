// The models open in the editor: one mount per deployment and branch, holding the files as last
// read from the server with their server hashes (what a save compares against to detect a
// change made elsewhere), and whether the default branch was unlocked for writing.
import * as vscode from 'vscode';
import type { BuildClient } from '../api/buildClient';
import type { Services } from '../services';
import { defaultBranchOf, MODEL_SCHEME, modelUriPath } from './modelPaths';

export interface MountedFile {
  content: Uint8Array;
  /** The server's hash of the content as read (undefined: the server gave none). */
  hash?: string;
  mtime: number;
}

export class Mount {
  readonly files = new Map<string, MountedFile>();
  /** Folders the user created that hold no file yet (the server has no empty folders). */
  readonly dirs = new Set<string>();
  unlocked = false;
  private loading: Promise<void> | undefined;
  /** Writes of one mount run one after another, so hashes are compared in order. */
  private queue: Promise<unknown> = Promise.resolve();

  constructor(
    readonly deploymentId: number,
    readonly deploymentName: string,
    readonly branch: string,
    readonly defaultBranch: string | undefined,
  ) {}

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

  /** Reads every file with its content and the hashes (again when `refresh`). */
  load(build: () => Promise<BuildClient>, refresh = false): Promise<void> {
    if (!this.loading || refresh) {
      this.loading = (async () => {
        const client = await build();
        const [files, hashes] = await Promise.all([
          client.listFiles(this.deploymentId, { branchName: this.branch, withContent: true }),
          client.fileHashes(this.deploymentId, { branchName: this.branch }),
        ]);
        const enc = new TextEncoder();
        const now = Date.now();
        const before = new Map(this.files);
        this.files.clear();
        for (const f of files) {
          const old = before.get(f.path);
          this.files.set(f.path, {
            content: enc.encode(f.content ?? ''),
            hash: hashes.get(f.path) ?? f.hash,
            mtime: old?.mtime ?? now,
          });
        }
      })();
      this.loading.catch(() => (this.loading = undefined));
    }
    return this.loading;
  }

  serial<T>(fn: () => Promise<T>): Promise<T> {
    const run = this.queue.then(fn, fn);
    this.queue = run.catch(() => undefined);
    return run;
  }

  isDir(path: string): boolean {
    if (path === '' || this.dirs.has(path)) return true;
    const prefix = `${path}/`;
    for (const p of this.files.keys()) if (p.startsWith(prefix)) return true;
    for (const d of this.dirs) if (d.startsWith(prefix)) return true;
    return false;
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

  /** Puts a restored branch in dev mode, as opening it does (set by the feature). */
  restored: ((mount: Mount) => Promise<void>) | undefined;

  constructor(private readonly services: Services) {}

  build = (): Promise<BuildClient> => this.services.clients.build();

  get(deploymentId: number, branch: string): Mount | undefined {
    return this.byKey.get(`${deploymentId}/${branch}`);
  }

  all(): Mount[] {
    return [...this.byKey.values()];
  }

  add(mount: Mount): Mount {
    const key = `${mount.deploymentId}/${mount.branch}`;
    const found = this.byKey.get(key);
    if (found) return found;
    this.byKey.set(key, mount);
    this.changed.fire(mount);
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
   * The mount of a URI, created when a model folder comes back with a restored window (the
   * deployment's name and default branch are looked up then).
   */
  async resolve(deploymentId: number, branch: string): Promise<Mount> {
    const found = this.get(deploymentId, branch);
    if (found) return found;
    const [deployment, branches] = await Promise.all([
      this.services.clients.platform().then((p) => p.getDeployment(deploymentId)),
      this.build().then((b) => b.allBranches(deploymentId)),
    ]);
    const mount = this.add(new Mount(deploymentId, deployment.name, branch, defaultBranchOf(branches)));
    if (!mount.isDefault && this.restored) {
      // Its files work without it; the status bar and the chat's target assume it.
      await this.restored(mount).catch((e: unknown) =>
        this.services.log.warn(
          `Dev mode on ${deployment.name} · ${branch} failed: ${e instanceof Error ? e.message : String(e)}`,
        ),
      );
    }
    return mount;
  }

  dispose(): void {
    this.changed.dispose();
  }
}
