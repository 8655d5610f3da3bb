// Saved ↔ edited settings side by side in VS Code's diff editor, before a save is confirmed. The two
// sides are documents held in memory under the caller's scheme (nothing is written to disk).
import * as vscode from 'vscode';

export class JsonDiff {
  private readonly docs = new Map<string, string>();

  constructor(private readonly scheme: string) {}

  /** The provider of the two sides' text; dispose it with the commands. */
  register(): vscode.Disposable {
    return vscode.workspace.registerTextDocumentContentProvider(this.scheme, {
      provideTextDocumentContent: (uri) => this.docs.get(uri.toString()) ?? '',
    });
  }

  /** Opens `before` ↔ `after` as JSON, titled "`what`: saved ↔ edited"; `slug` names the two documents. */
  async show(slug: string, what: string, before: unknown, after: unknown): Promise<void> {
    const left = vscode.Uri.from({ scheme: this.scheme, path: `/${slug} (saved).json` });
    const right = vscode.Uri.from({ scheme: this.scheme, path: `/${slug} (edited).json` });
    this.docs.set(left.toString(), `${JSON.stringify(before, null, 2)}\n`);
    this.docs.set(right.toString(), `${JSON.stringify(after, null, 2)}\n`);
    await vscode.commands.executeCommand('vscode.diff', left, right, `${what}: saved ↔ edited`, {
      preview: true,
    });
  }

  /** Closes the diffs this opened: once a save is confirmed, "edited" no longer differs from anything. */
  async close(): Promise<void> {
    const tabs = vscode.window.tabGroups.all
      .flatMap((g) => g.tabs)
      .filter((t) => t.input instanceof vscode.TabInputTextDiff && t.input.modified.scheme === this.scheme);
    if (tabs.length > 0) await vscode.window.tabGroups.close(tabs);
  }
}
