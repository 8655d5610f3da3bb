// Search in Data Model…: finds text in every file of a mounted branch. VS Code's own Search view
// and Quick Open cover only folders whose scheme has a file/text search provider, an API that is
// still proposed (not open to published extensions), so `dpmodel:` folders are left out there;
// this searches the mount's files (with unsaved edits of open editors) instead.
import * as vscode from 'vscode';
import type { BranchFlows } from './branchFlows';
import type { Mounts } from './mounts';

export interface SearchArgs {
  /** The text to find (case-insensitive); asked for when absent. */
  query?: string;
  /** Return the matches without showing a picker (scripted use, tests). */
  noPicker?: boolean;
}

export interface ModelMatch {
  uri: vscode.Uri;
  path: string;
  /** 0-based. */
  line: number;
  column: number;
  text: string;
}

const MAX_MATCHES = 1000;

export async function searchModel(
  mounts: Mounts,
  flows: BranchFlows,
  arg: unknown,
  args: SearchArgs = {},
): Promise<ModelMatch[] | undefined> {
  const mount = await flows.target(arg);
  await mount.load(mounts.build);
  const query =
    args.query ??
    (await vscode.window.showInputBox({
      title: `Search in ${mount.deploymentName} · ${mount.branch}`,
      prompt: 'Text to find in the data-model files (case-insensitive)',
      validateInput: (v) => (v.trim() ? undefined : 'Type some text to find'),
    }));
  if (!query) return undefined;
  const needle = query.toLowerCase();
  const open = new Map(vscode.workspace.textDocuments.map((d) => [d.uri.toString(), d]));
  const dec = new TextDecoder();
  const matches: ModelMatch[] = [];
  for (const path of [...mount.files.keys()].sort()) {
    const uri = mount.uri(path);
    const held = mount.files.get(path)!.content;
    // A file listed without content has nothing to search (unless it is open).
    const text = open.get(uri.toString())?.getText() ?? (held ? dec.decode(held) : undefined);
    if (text === undefined) continue;
    text.split(/\r?\n/).forEach((line, i) => {
      const column = line.toLowerCase().indexOf(needle);
      if (column >= 0 && matches.length < MAX_MATCHES)
        matches.push({ uri, path, line: i, column, text: line });
    });
  }
  if (args.noPicker) return matches;
  if (matches.length === 0) {
    void vscode.window.showInformationMessage(
      `No "${query}" in the files of ${mount.deploymentName} · ${mount.branch}.`,
    );
    return matches;
  }
  const picked = await vscode.window.showQuickPick(
    matches.map((m) => ({
      label: `$(file) ${m.path}:${m.line + 1}`,
      description: m.text.trim(),
      match: m,
    })),
    {
      title: `${matches.length}${matches.length === MAX_MATCHES ? '+' : ''} matches of "${query}" in ${mount.branch}`,
      matchOnDescription: true,
    },
  );
  if (picked) {
    const m = picked.match;
    const at = new vscode.Range(m.line, m.column, m.line, m.column + query.length);
    await vscode.window.showTextDocument(m.uri, { selection: at });
  }
  return matches;
}
