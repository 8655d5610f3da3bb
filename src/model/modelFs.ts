// The model's files as a FileSystemProvider: reads come from the mount (loaded from the server),
// writes go to the server under the rules of branchFiles.ts (confirmed writes only, the hash of
// the bytes sent as the base, strict UTF-8). A change made elsewhere is shown as a diff and never
// overwritten without the user's say; a failed write is a FileSystemError with the reason, so the
// editor stays dirty. The default branch is read-only until unlocked. Each confirmed write runs
// validate.
import * as vscode from 'vscode';
import { isApiError } from '../api/errors';
import { ModelFileError, type Conflict } from './branchFiles';
import type { Mount, Mounts } from './mounts';
import { parseModelUri } from './modelPaths';

/** The error VS Code shows (and keeps the editor dirty on) for a failed file operation. */
function fsError(e: unknown, uri: vscode.Uri): unknown {
  if (e instanceof vscode.FileSystemError || e instanceof vscode.CancellationError) return e;
  if (e instanceof ModelFileError) {
    if (e.kind === 'notFound') return vscode.FileSystemError.FileNotFound(uri);
    if (e.kind === 'exists') return vscode.FileSystemError.FileExists(uri);
  }
  return vscode.FileSystemError.Unavailable(e instanceof Error ? e.message : String(e));
}

/** Shows the server's current text of a file beside the user's in a diff. */
export const SERVER_SCHEME = 'dpmodel-server';

export class ModelFileSystem implements vscode.FileSystemProvider, vscode.TextDocumentContentProvider {
  private readonly emitter = new vscode.EventEmitter<vscode.FileChangeEvent[]>();
  readonly onDidChangeFile = this.emitter.event;
  /** Server texts shown in conflict diffs, by the diff's left URI. */
  private readonly serverTexts = new Map<string, string>();

  constructor(
    private readonly mounts: Mounts,
    private readonly afterWrite: (mount: Mount, path: string) => void,
    private readonly log: { warn(message: string): void },
  ) {}

  private async locate(uri: vscode.Uri): Promise<{ mount: Mount; path: string }> {
    const loc = parseModelUri(uri.authority, uri.path);
    if (!loc) throw vscode.FileSystemError.FileNotFound(uri);
    const mount = await this.mounts.resolve(loc.deploymentId, loc.branch);
    if (!mount.missing) {
      try {
        await mount.load(this.mounts.build);
        return { mount, path: loc.path };
      } catch (e) {
        if (!isApiError(e) || e.kind !== 'notFound') throw e;
        this.mounts.markLost(mount);
      }
    }
    throw vscode.FileSystemError.FileNotFound(
      `The branch "${mount.branch}" of ${mount.deploymentName} is not on the server any more: switch the folder to another branch or create it again.`,
    );
  }

  watch(): vscode.Disposable {
    // Changes are announced by this provider itself (its writes and refreshes).
    return new vscode.Disposable(() => undefined);
  }

  async stat(uri: vscode.Uri): Promise<vscode.FileStat> {
    const { mount, path } = await this.locate(uri);
    const permissions = mount.readonly ? vscode.FilePermission.Readonly : undefined;
    const file = mount.files.get(path);
    if (file) {
      return {
        type: vscode.FileType.File,
        ctime: file.mtime,
        mtime: file.mtime,
        size: file.content?.byteLength ?? 0,
        permissions,
      };
    }
    if (mount.isDir(path))
      return { type: vscode.FileType.Directory, ctime: 0, mtime: 0, size: 0, permissions };
    throw vscode.FileSystemError.FileNotFound(uri);
  }

  async readDirectory(uri: vscode.Uri): Promise<[string, vscode.FileType][]> {
    const { mount, path } = await this.locate(uri);
    if (!mount.isDir(path)) throw vscode.FileSystemError.FileNotADirectory(uri);
    return mount.children(path);
  }

  async readFile(uri: vscode.Uri): Promise<Uint8Array> {
    const { mount, path } = await this.locate(uri);
    try {
      return mount.read(path);
    } catch (e) {
      throw fsError(e, uri);
    }
  }

  private refuseReadonly(mount: Mount, uri: vscode.Uri): void {
    if (mount.readonly) {
      throw vscode.FileSystemError.NoPermissions(
        `"${mount.branch}" is the default branch of ${mount.deploymentName}, read-only here. Pick or create a branch to edit, or run "Unlock Default Branch for Editing". (${uri.path})`,
      );
    }
  }

  async writeFile(
    uri: vscode.Uri,
    content: Uint8Array,
    options: { create: boolean; overwrite: boolean },
  ): Promise<void> {
    const { mount, path } = await this.locate(uri);
    this.refuseReadonly(mount, uri);
    let result: 'created' | 'changed';
    try {
      result = await mount.save(await this.mounts.build(), path, content, options, (c) =>
        this.resolveConflict(mount, c, uri),
      );
    } catch (e) {
      // VS Code shows the save error and keeps the editor dirty; the log keeps it with the file.
      this.log.warn(`Saving ${uri.path} failed: ${e instanceof Error ? e.message : String(e)}`);
      throw fsError(e, uri);
    }
    this.emitter.fire([
      { type: result === 'created' ? vscode.FileChangeType.Created : vscode.FileChangeType.Changed, uri },
    ]);
    this.afterWrite(mount, path);
  }

  /** A change on the server: diff and ask. True when the user chose to overwrite it. */
  private async resolveConflict(mount: Mount, { path, theirs }: Conflict, uri: vscode.Uri): Promise<boolean> {
    const build = await this.mounts.build();
    const files = await build.listFiles(mount.deploymentId, { branchName: mount.branch, withContent: true });
    const server = files.find((f) => f.path === path);
    const left = vscode.Uri.from({
      scheme: SERVER_SCHEME,
      path: `/${path}`,
      query: `d=${mount.deploymentId}&b=${encodeURIComponent(mount.branch)}&h=${theirs ?? 'deleted'}`,
    });
    this.serverTexts.set(left.toString(), server?.content ?? '');
    const choice = await vscode.window.showWarningMessage(
      `${path} was changed on the server (branch "${mount.branch}") since you opened it.`,
      {
        modal: true,
        detail:
          'Saving now would overwrite that change. Compare the two versions first, or overwrite on purpose.',
      },
      'Compare',
      'Overwrite',
    );
    if (choice === 'Overwrite') return true;
    if (choice === 'Compare') {
      await vscode.commands.executeCommand(
        'vscode.diff',
        left,
        uri,
        `${path}: server ↔ yours (${mount.branch})`,
      );
    }
    return false;
  }

  provideTextDocumentContent(uri: vscode.Uri): string {
    return this.serverTexts.get(uri.toString()) ?? '';
  }

  async createDirectory(uri: vscode.Uri): Promise<void> {
    const { mount, path } = await this.locate(uri);
    this.refuseReadonly(mount, uri);
    mount.dirs.add(path);
    this.emitter.fire([{ type: vscode.FileChangeType.Created, uri }]);
  }

  async delete(uri: vscode.Uri): Promise<void> {
    const { mount, path } = await this.locate(uri);
    this.refuseReadonly(mount, uri);
    try {
      await mount.remove(await this.mounts.build(), path);
    } catch (e) {
      this.log.warn(`Deleting ${uri.path} failed: ${e instanceof Error ? e.message : String(e)}`);
      throw fsError(e, uri);
    }
    this.emitter.fire([{ type: vscode.FileChangeType.Deleted, uri }]);
    this.afterWrite(mount, path);
  }

  async rename(oldUri: vscode.Uri, newUri: vscode.Uri, options: { overwrite: boolean }): Promise<void> {
    const from = await this.locate(oldUri);
    const to = await this.locate(newUri);
    if (from.mount !== to.mount)
      throw vscode.FileSystemError.NoPermissions('Files move only within one branch.');
    const mount = from.mount;
    this.refuseReadonly(mount, oldUri);
    try {
      await mount.rename(await this.mounts.build(), from.path, to.path, options.overwrite);
    } catch (e) {
      this.log.warn(`Renaming ${oldUri.path} failed: ${e instanceof Error ? e.message : String(e)}`);
      throw fsError(e, newUri);
    }
    this.emitter.fire([
      { type: vscode.FileChangeType.Deleted, uri: oldUri },
      { type: vscode.FileChangeType.Created, uri: newUri },
    ]);
    this.afterWrite(mount, to.path);
  }

  /** Tells VS Code every file of a mount may have changed (after a pull, a merge, an unlock). */
  announce(mount: Mount): void {
    const events: vscode.FileChangeEvent[] = [{ type: vscode.FileChangeType.Changed, uri: mount.root }];
    for (const p of mount.files.keys())
      events.push({ type: vscode.FileChangeType.Changed, uri: mount.uri(p) });
    this.emitter.fire(events);
  }

  dispose(): void {
    this.emitter.dispose();
  }
}
