// The dashboard custom editor: a webview over the `*.dashboard.json` text document. The document
// stays the source of truth (save, undo/redo, dirty state and "Reopen with Text Editor" are VS
// Code's); every edit from the page becomes a WorkspaceEdit. While the text is invalid the page shows
// the problems with their locations and keeps the last valid preview.
import * as vscode from 'vscode';
import type { PublishDashboardInput } from '../api/schemas/platform';
import {
  hostToWebview,
  webviewToHost,
  type EditorBreakpoint,
  type HostToWebview,
  type WebviewToHost,
} from '../shared/dashboardEditorProtocol';
import { webviewOptions, webviewPageHtml } from '../ui/webviewHtml';
import { formatDashboardFile, parseDashboardFile } from './dashboardFile';
import { applyEditorEdit } from './dashboardEdits';

export const DASHBOARD_EDITOR_VIEW_TYPE = 'dashboardPlatform.dashboardEditor';

export class DashboardEditorProvider implements vscode.CustomTextEditorProvider {
  private readonly lastValid = new Map<string, PublishDashboardInput>();
  private readonly handlers = new Map<string, (m: unknown) => Promise<void>>();
  private readonly panels = new Map<string, vscode.WebviewPanel>();
  private readonly ready = new Set<vscode.WebviewPanel>();

  /** Whether the page of the editor of `uri` has loaded and asked for its state. */
  isReady(uri: vscode.Uri): boolean {
    const panel = this.panels.get(uri.toString());
    return panel !== undefined && this.ready.has(panel);
  }

  constructor(private readonly extensionUri: vscode.Uri) {}

  /** Delivers a message as if the page of the editor of `uri` had sent it (integration tests). */
  async receive(uri: vscode.Uri, message: WebviewToHost): Promise<void> {
    const h = this.handlers.get(uri.toString());
    if (!h) throw new Error(`No dashboard editor is open for ${uri.toString()}.`);
    await h(message);
  }

  /** Shows the preview of the editor of `uri` at a breakpoint (tests, screenshots). */
  async showBreakpoint(document: vscode.TextDocument, breakpoint: EditorBreakpoint): Promise<boolean> {
    const panel = this.panels.get(document.uri.toString());
    if (!panel) throw new Error(`No dashboard editor is open for ${document.uri.toString()}.`);
    return panel.webview.postMessage({ ...this.stateOf(document), breakpoint });
  }

  /** The state the editor of `uri` shows (integration tests). */
  stateOf(document: vscode.TextDocument): HostToWebview {
    const parsed = parseDashboardFile(document.getText());
    const key = document.uri.toString();
    if (parsed.ok) this.lastValid.set(key, parsed.input);
    return hostToWebview.parse({
      type: 'state',
      input: this.lastValid.get(key) ?? null,
      problems: parsed.ok
        ? []
        : parsed.problems.map((p) => ({ message: p.message, line: p.line, column: p.column })),
    });
  }

  resolveCustomTextEditor(document: vscode.TextDocument, panel: vscode.WebviewPanel): void {
    const key = document.uri.toString();
    panel.webview.options = webviewOptions(this.extensionUri);
    panel.webview.html = webviewPageHtml({
      webview: panel.webview,
      extensionUri: this.extensionUri,
      name: 'dashboard',
      title: 'Dashboard',
    });
    const post = () => void panel.webview.postMessage(this.stateOf(document));
    const handler = async (raw: unknown) => {
      const message = webviewToHost.parse(raw);
      if (message.type === 'ready') {
        this.ready.add(panel);
        return post();
      }
      const current = this.lastValid.get(key);
      const parsed = parseDashboardFile(document.getText());
      if (!parsed.ok || !current) {
        void vscode.window.showWarningMessage('Fix the problems in the file before editing it here.');
        return;
      }
      const next = applyEditorEdit(parsed.input, message);
      const edit = new vscode.WorkspaceEdit();
      edit.replace(
        document.uri,
        new vscode.Range(document.positionAt(0), document.positionAt(document.getText().length)),
        formatDashboardFile(next),
      );
      await vscode.workspace.applyEdit(edit);
    };
    this.handlers.set(key, handler);
    this.panels.set(key, panel);
    const subs = [
      panel.webview.onDidReceiveMessage((m) =>
        handler(m).catch(
          (e: unknown) => void vscode.window.showErrorMessage(String((e as Error).message ?? e)),
        ),
      ),
      vscode.workspace.onDidChangeTextDocument((e) => {
        if (e.document.uri.toString() === key) post();
      }),
    ];
    panel.onDidDispose(() => {
      if (this.handlers.get(key) === handler) this.handlers.delete(key);
      if (this.panels.get(key) === panel) this.panels.delete(key);
      this.ready.delete(panel);
      for (const s of subs) s.dispose();
    });
    post();
  }
}
