// The dev-mode branch a query notebook runs on (set by "Run Notebook on a Dev Branch…", kept in
// its metadata), if any.
import type * as vscode from 'vscode';

export function notebookDevBranch(nb: vscode.NotebookDocument): string | undefined {
  const b = (nb.metadata as Record<string, unknown> | undefined)?.devBranch;
  return typeof b === 'string' && b.trim() ? b : undefined;
}
