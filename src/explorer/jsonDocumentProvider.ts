// Read-only editors of server objects: a `dashboard-platform-json:` document per object, with the
// JSON pretty-printed. Content providers' documents cannot be edited or saved, which is the point.
import * as vscode from 'vscode';

export const JSON_SCHEME = 'dashboard-platform-json';

export class JsonDocumentProvider implements vscode.TextDocumentContentProvider, vscode.Disposable {
  private readonly contents = new Map<string, string>();
  /** The document of each key shown so far (its title is part of the URI). */
  private readonly uris = new Map<string, vscode.Uri>();
  private readonly changed = new vscode.EventEmitter<vscode.Uri>();
  readonly onDidChange = this.changed.event;

  provideTextDocumentContent(uri: vscode.Uri): string {
    return (
      this.contents.get(uri.toString()) ??
      '// This object is no longer loaded. Open it again from the explorer.\n'
    );
  }

  /** Opens (or updates) the read-only document for `key` and shows it. */
  async show(key: string, title: string, value: unknown): Promise<vscode.TextDocument> {
    const safeTitle = title.replace(/[^\w.-]+/g, '-').replace(/^-+|-+$/g, '') || 'object';
    const uri = vscode.Uri.from({ scheme: JSON_SCHEME, path: `/${safeTitle}.json`, query: key });
    this.uris.set(key, uri);
    this.set(uri, value);
    let doc = await vscode.workspace.openTextDocument(uri);
    if (doc.languageId !== 'json') doc = await vscode.languages.setTextDocumentLanguage(doc, 'json');
    await vscode.window.showTextDocument(doc, { preview: true });
    return doc;
  }

  /**
   * After a write changed the object behind `key`: a document of it that is open shows `value` in
   * place (not brought forward); with none open nothing happens. True when one was updated.
   */
  update(key: string, value: unknown): boolean {
    if (!this.isOpen(key)) return false;
    this.set(this.uris.get(key)!, value);
    return true;
  }

  /** Whether a document of `key` is open. */
  isOpen(key: string): boolean {
    const uri = this.uris.get(key);
    return !!uri && vscode.workspace.textDocuments.some((d) => d.uri.toString() === uri.toString());
  }

  private set(uri: vscode.Uri, value: unknown): void {
    const existed = this.contents.has(uri.toString());
    this.contents.set(uri.toString(), `${JSON.stringify(value, null, 2)}\n`);
    if (existed) this.changed.fire(uri);
  }

  dispose(): void {
    this.changed.dispose();
    this.contents.clear();
  }
}
