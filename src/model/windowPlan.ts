// Where a model folder goes (no vscode): whether adding or replacing a workspace folder makes VS
// Code restart the extension host (and reload the window), and the workspace file that opens the
// model in a new window instead, beside the folders of this one.
import { createHash } from 'node:crypto';

export interface WindowFolders {
  /** The window has a workspace file (a saved or untitled multi-root workspace). */
  workspaceFile: boolean;
}

/**
 * VS Code restarts the extensions when the first workspace folder is added, removed or changed,
 * and when a window without a workspace file (empty, or one folder) becomes a multi-root
 * workspace. `at` is where the change happens (the index of the folder replaced, or of the new
 * one).
 */
export function folderChangeReloads(window: WindowFolders, at: number): boolean {
  return !window.workspaceFile || at === 0;
}

export interface FolderEntry {
  /** The folder's URI as a string (`file:///…`, `dpmodel://1/branch`). */
  uri: string;
  /** For `file:` folders: the path on disk (a workspace file names local folders by path). */
  fsPath?: string;
  name?: string;
}

/**
 * A `.code-workspace` file holding `folders` (local ones by path: a `file:` URI would be read as
 * the client machine's in a remote window) and the active profile, since a new workspace starts
 * with no profile chosen.
 */
export function workspaceFileText(folders: readonly FolderEntry[], activeProfile?: string): string {
  const entries = folders.map((f) =>
    f.fsPath !== undefined
      ? { path: f.fsPath, ...(f.name ? { name: f.name } : {}) }
      : { uri: f.uri, ...(f.name ? { name: f.name } : {}) },
  );
  const settings = activeProfile ? { 'dashboardPlatform.activeProfile': activeProfile } : {};
  return `${JSON.stringify({ folders: entries, settings }, null, 2)}\n`;
}

/**
 * A file name for the workspace of a model branch: readable, one per deployment and branch (a
 * short hash tells apart names that read alike, `a/b` and `a-b`).
 */
export function workspaceFileName(deploymentName: string, deploymentId: number, branch: string): string {
  const slug = (s: string) =>
    s
      .replace(/[^A-Za-z0-9._-]+/g, '-')
      .replace(/^-+|-+$/g, '')
      .slice(0, 60) || 'model';
  const tag = createHash('sha256').update(`${deploymentId}\0${branch}`).digest('hex').slice(0, 8);
  return `${slug(deploymentName)} · ${slug(branch)}-${tag}.code-workspace`;
}
