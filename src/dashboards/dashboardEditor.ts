// The dashboard custom editor: a webview over the `*.dashboard.json` text document. The document
// stays the source of truth (save, undo/redo, dirty state and "Reopen with Text Editor" are VS
// Code's); every edit from the page becomes one minimal WorkspaceEdit of the text. While the text is
// invalid the page lists the problems (they are in the Problems panel too) and keeps the last valid
// preview, locked; a bad value alone (a theme colour that is not CSS) is marked at its field and the
// rest stays editable. The page's Publish button opens the publish review, and while one is open
// the page offers its decision too; Save Draft keeps the file as the workbook's draft on the
// server without publishing; its history tab shows this file's publishes.
import * as vscode from 'vscode';
import type { PublishDashboardInput } from '../api/schemas/platform';
import {
  hostToWebview,
  isEditorEdit,
  webviewToHost,
  type EditorBreakpoint,
  type EditorHistoryEntry,
  type EditorReport,
  type HostToWebview,
  type WebviewToHost,
} from '../shared/dashboardEditorProtocol';
import { webviewOptions, webviewPageHtml } from '../ui/webviewHtml';
import { parseDashboardFile, type DashboardProblem } from './dashboardFile';
import { editDashboardText, minimalReplacement } from './dashboardEdits';

export const DASHBOARD_EDITOR_VIEW_TYPE = 'dashboardPlatform.dashboardEditor';

export interface DashboardEditorHost {
  /** The publish history of a file, oldest first. */
  history(uri: vscode.Uri): EditorHistoryEntry[];
  /** Runs Publish Dashboard on a file (the command reports its own errors). */
  publish(uri: vscode.Uri): Thenable<unknown>;
  /** Runs Save Dashboard Draft on a file (the command reports its own outcome and errors). */
  saveDraft?(uri: vscode.Uri): Thenable<unknown>;
  /** Where the problems of an open dashboard file are shown (the Problems panel). */
  diagnostics: vscode.DiagnosticCollection;
  /** What the widgets' reports are (titles, kinds, snapshot previews), by report id. */
  reports?(uri: vscode.Uri, input: PublishDashboardInput): Promise<Record<string, EditorReport>>;
  /** Asks the user for a widget's report (a searchable list); undefined when dismissed. */
  pickReport?(
    uri: vscode.Uri,
    input: PublishDashboardInput,
    widgetId: string,
  ): Promise<{ id: number; name: string } | undefined>;
  /** The file's open publish review, if any: its summary and where it publishes. */
  review?(uri: vscode.Uri): { summary: string; where: string } | undefined;
  /** Confirms (Publish These Changes) or cancels the file's open publish review. */
  decideReview?(uri: vscode.Uri, publish: boolean): Thenable<unknown>;
  /** The choices of the theme's fixed-set fields (see dashboardSchema.ts themeChoicesOf). */
  themeChoices?: Record<string, string[]>;
}

/** Diagnostics for a file's problems, at their locations. */
export function problemDiagnostics(
  doc: vscode.TextDocument,
  problems: DashboardProblem[],
): vscode.Diagnostic[] {
  return problems.map((p) => {
    const range = new vscode.Range(
      doc.positionAt(p.offset),
      doc.positionAt(p.offset + Math.max(1, p.length)),
    );
    const d = new vscode.Diagnostic(range, p.message, vscode.DiagnosticSeverity.Error);
    d.source = 'Dashboard Platform';
    return d;
  });
}

interface OpenEditor {
  panel: vscode.WebviewPanel;
  document: vscode.TextDocument;
  ready: boolean;
  handle(message: unknown): Promise<void>;
}

export class DashboardEditorProvider implements vscode.CustomTextEditorProvider {
  private readonly lastValid = new Map<string, PublishDashboardInput>();
  /** The document version lastValid was parsed from (edits reuse it instead of parsing again). */
  private readonly validVersion = new Map<string, number>();
  /** Open editors by document URI (a document can be open in several editor groups). */
  private readonly open = new Map<string, Set<OpenEditor>>();
  /** The widgets' reports per document, loaded once per editor opening and after a publish. */
  private readonly reports = new Map<string, Record<string, EditorReport>>();
  /** Per document, the end of its queue of edits from the page. */
  private readonly editing = new Map<string, Promise<unknown>>();

  constructor(
    private readonly extensionUri: vscode.Uri,
    private readonly host: DashboardEditorHost,
  ) {}

  private editorsOf(uri: vscode.Uri): OpenEditor[] {
    return [...(this.open.get(uri.toString()) ?? [])];
  }

  /** Whether `uri` is open in a dashboard editor. */
  isOpen(uri: vscode.Uri): boolean {
    return this.editorsOf(uri).length > 0;
  }

  /** Whether the page of an editor of `uri` has loaded and asked for its state. */
  isReady(uri: vscode.Uri): boolean {
    return this.editorsOf(uri).some((e) => e.ready);
  }

  /** Delivers a message as if the page of the editor of `uri` had sent it (integration tests). */
  async receive(uri: vscode.Uri, message: WebviewToHost): Promise<void> {
    const e = this.editorsOf(uri)[0];
    if (!e) throw new Error(`No dashboard editor is open for ${uri.toString()}.`);
    await e.handle(message);
  }

  /** Shows the preview of the editors of `document` at a breakpoint (tests, screenshots). */
  async showBreakpoint(document: vscode.TextDocument, breakpoint: EditorBreakpoint): Promise<boolean> {
    const editors = this.editorsOf(document.uri);
    if (editors.length === 0) throw new Error(`No dashboard editor is open for ${document.uri.toString()}.`);
    const state = { ...this.stateOf(document), breakpoint };
    const sent = await Promise.all(editors.map((e) => e.panel.webview.postMessage(state)));
    return sent.every(Boolean);
  }

  /** Sends the current state to every editor of `uri` (after a publish, say). */
  refresh(uri: vscode.Uri): void {
    for (const e of this.editorsOf(uri)) void e.panel.webview.postMessage(this.stateOf(e.document));
    const first = this.editorsOf(uri)[0];
    if (first) void this.loadReports(first.document);
  }

  /** Resolves when the widgets' reports of `document` are loaded (tests). */
  reportsLoaded = new Map<string, Promise<void>>();

  private loadReports(document: vscode.TextDocument): Promise<void> {
    const key = document.uri.toString();
    const input = this.lastValid.get(key);
    if (!this.host.reports || !input) return Promise.resolve();
    const loading = this.host
      .reports(document.uri, input)
      .then((reports) => {
        if (!this.open.has(key)) return;
        this.reports.set(key, reports);
        for (const e of this.editorsOf(document.uri))
          void e.panel.webview.postMessage(this.stateOf(document));
      })
      // A preview nicety: without a connection the widgets show their report ids.
      .catch(() => undefined);
    this.reportsLoaded.set(key, loading);
    return loading;
  }

  /** The state the editors of `document` show; also updates the document's problems. */
  stateOf(document: vscode.TextDocument, select?: string): HostToWebview {
    const parsed = parseDashboardFile(document.getText());
    const key = document.uri.toString();
    // With problems in values only, the page shows and edits the file as it is (the bad value
    // stays in its field, marked); with a broken shape it shows the last valid version, locked.
    const current = parsed.input;
    if (current) {
      this.lastValid.set(key, current);
      this.validVersion.set(key, document.version);
    }
    if (parsed.ok) this.host.diagnostics.delete(document.uri);
    else this.host.diagnostics.set(document.uri, problemDiagnostics(document, parsed.problems));
    const review = this.host.review?.(document.uri);
    return hostToWebview.parse({
      type: 'state',
      input: this.lastValid.get(key) ?? null,
      problems: parsed.ok
        ? []
        : parsed.problems.map((p) => ({ message: p.message, line: p.line, column: p.column, path: p.path })),
      locked: !current,
      history: this.host.history(document.uri),
      reports: this.reports.get(key) ?? {},
      themeChoices: this.host.themeChoices ?? {},
      ...(review ? { review } : {}),
      ...(select !== undefined ? { select } : {}),
    });
  }

  /**
   * Applies the page's edits to a document one at a time. VS Code refuses an edit made against a
   * version of the document that an earlier, still pending edit has changed, so two quick keys
   * (or key repeat) would otherwise lose every edit but the first.
   */
  private applyEdit(document: vscode.TextDocument, message: WebviewToHost): Promise<string | undefined> {
    const key = document.uri.toString();
    const run = (this.editing.get(key) ?? Promise.resolve()).then(() => this.applyEditNow(document, message));
    // A failed edit is reported by its own caller; the next one still runs.
    const end = run.catch(() => undefined);
    this.editing.set(key, end);
    void end.then(() => {
      if (this.editing.get(key) === end) this.editing.delete(key);
    });
    return run;
  }

  private async applyEditNow(
    document: vscode.TextDocument,
    message: WebviewToHost,
  ): Promise<string | undefined> {
    if (!isEditorEdit(message)) return undefined;
    const before = document.getText();
    const key = document.uri.toString();
    const parsed = this.validVersion.get(key) === document.version ? this.lastValid.get(key) : undefined;
    const { text, select } = editDashboardText(before, message, parsed);
    const change = minimalReplacement(before, text);
    if (change) {
      const edit = new vscode.WorkspaceEdit();
      edit.replace(
        document.uri,
        new vscode.Range(
          document.positionAt(change.offset),
          document.positionAt(change.offset + change.length),
        ),
        change.text,
      );
      if (!(await vscode.workspace.applyEdit(edit))) throw new Error('VS Code refused the edit of the file.');
    }
    return select;
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
    const post = (select?: string) => void panel.webview.postMessage(this.stateOf(document, select));
    const editor: OpenEditor = {
      panel,
      document,
      ready: false,
      handle: async (raw: unknown) => {
        const message = webviewToHost.parse(raw);
        switch (message.type) {
          case 'ready':
            editor.ready = true;
            return post();
          case 'publish':
            await this.host.publish(document.uri);
            return post();
          case 'saveDraft':
            await this.host.saveDraft?.(document.uri);
            return post();
          case 'publishReviewed':
          case 'cancelReview':
            await this.host.decideReview?.(document.uri, message.type === 'publishReviewed');
            return post();
          case 'pickReport': {
            const input = this.lastValid.get(key);
            if (!input || !this.host.pickReport) return;
            const picked = await this.host.pickReport(document.uri, input, message.id);
            if (!picked) return;
            // A title that only repeated the old report's name follows the new report.
            const widget = (input.config?.widgets ?? []).find((w) => w.id === message.id);
            const config = (widget?.config ?? {}) as Record<string, unknown>;
            const old = this.reports.get(key)?.[String(config.reportId)]?.title;
            const follows = typeof config.title === 'string' && old !== undefined && config.title === old;
            await this.applyEdit(document, {
              type: 'setWidgetReport',
              id: message.id,
              reportId: picked.id,
              ...(follows ? { title: picked.name } : {}),
            });
            // The new report's name and preview.
            return void this.loadReports(document);
          }
          case 'openText':
            await vscode.commands.executeCommand('vscode.openWith', document.uri, 'default');
            return;
          case 'reveal': {
            const at = new vscode.Position(message.line, message.column);
            await vscode.window.showTextDocument(document, {
              viewColumn: vscode.ViewColumn.Beside,
              selection: new vscode.Range(at, at),
            });
            return;
          }
          default: {
            const select = await this.applyEdit(document, message);
            // The document change already posted the new state; this one selects the new widget.
            if (select !== undefined) post(select);
          }
        }
      },
    };
    const set = this.open.get(key) ?? new Set<OpenEditor>();
    set.add(editor);
    this.open.set(key, set);
    const subs = [
      panel.webview.onDidReceiveMessage((m) =>
        editor.handle(m).catch((e: unknown) => {
          void vscode.window.showErrorMessage(e instanceof Error ? e.message : String(e));
          post();
        }),
      ),
      vscode.workspace.onDidChangeTextDocument((e) => {
        if (e.document.uri.toString() === key && e.contentChanges.length > 0) post();
      }),
    ];
    panel.onDidDispose(() => {
      set.delete(editor);
      if (set.size === 0) {
        this.open.delete(key);
        this.lastValid.delete(key);
        this.validVersion.delete(key);
        this.reports.delete(key);
        // Text editors have the JSON schema's validation; these live problems were this editor's.
        this.host.diagnostics.delete(document.uri);
      }
      for (const s of subs) s.dispose();
    });
    post();
    void this.loadReports(document);
  }
}
