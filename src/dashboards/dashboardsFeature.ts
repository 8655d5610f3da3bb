// Dashboards as code: pull a workbook's dashboard into a `*.dashboard.json`, publish it (validated,
// diffed against what is published, confirmed, reported, recorded in a per-file history), show the
// history, and attach an AI widget thread. Every command takes an arguments object so tests need no
// UI; the confirmation is skipped only by an explicit `{confirm: true}`.
import * as vscode from 'vscode';
import { COMMANDS } from '../commands';
import { registerCommand } from '../commandRunner';
import { DASHBOARD_EDITOR_VIEW_TYPE, DashboardEditorProvider, problemDiagnostics } from './dashboardEditor';
import { withCheckCommand } from '../api/http';
import { publishedDashboardOf } from '../api/platform/workbookShapes';
import type { PublishDashboardInput, PublishedDashboard } from '../api/schemas/platform';
import type { EditorReport } from '../shared/dashboardEditorProtocol';
import { reportFromListItem, reportsFromSnapshots, widgetReportIds } from './widgetReports';
import { publishReview, type PublishReview } from './publishReview';
import type { Services } from '../services';
import type { AttachThreadArgs, EditArgs, PublishArgs, PublishHistoryEntry } from './dashboardArgs';
import {
  activeDashboardFile,
  askText,
  objectArg,
  pickDeployment,
  pickWorkbook,
  toUri,
  workbookFromNode,
} from './dashboardPrompts';
import {
  dashboardFileName,
  dashboardFromWorkbook,
  formatDashboardFile,
  normaliseDashboardPath,
  parseDashboardFile,
  type DashboardProblem,
} from './dashboardFile';

export type { AttachThreadArgs, EditArgs, PublishArgs, PublishHistoryEntry } from './dashboardArgs';

const PUBLISHED_SCHEME = 'dashboard-platform-published';
const FILES_KEY = 'dashboardPlatform.dashboards.files';

/** "published: version 3, public id abc": the parts the service reported. */
function describePublish(e: PublishHistoryEntry): string {
  const parts = [
    e.versionNumber !== undefined ? `version ${e.versionNumber}` : undefined,
    e.publicId !== undefined ? `public id ${e.publicId}` : undefined,
  ].filter((x) => x !== undefined);
  return parts.length > 0 ? `${e.status}: ${parts.join(', ')}` : e.status;
}

interface FileRecord {
  deploymentId?: number;
  history: PublishHistoryEntry[];
}

function describe(p: DashboardProblem): string {
  return `${p.message} (line ${p.line + 1}, column ${p.column + 1})`;
}

export class DashboardsFeature implements vscode.Disposable {
  readonly diagnostics = vscode.languages.createDiagnosticCollection('dashboardPlatform.dashboards');
  private readonly published = new Map<string, string>();
  private readonly publishedChanged = new vscode.EventEmitter<vscode.Uri>();
  private readonly disposables: vscode.Disposable[] = [];
  /** The last publish review shown (tests read it). */
  lastReview: { uri: vscode.Uri; summary: string; changes: string[] } | undefined;
  /** The custom editor over *.dashboard.json (opened with "Open With…"). */
  readonly editor: DashboardEditorProvider;

  constructor(private readonly services: Services) {
    this.editor = new DashboardEditorProvider(services.context.extensionUri, {
      history: (uri) => this.history(uri),
      publish: (uri) => vscode.commands.executeCommand(COMMANDS.dashboardsPublish.id, { uri }),
      reports: (uri, input) => this.widgetReports(uri, input),
      diagnostics: this.diagnostics,
    });
    // The custom editor itself is registered at activation (index.ts) and resolves through `editor`.
    this.disposables.push(
      this.diagnostics,
      this.publishedChanged,
      vscode.workspace.registerTextDocumentContentProvider(PUBLISHED_SCHEME, {
        onDidChange: this.publishedChanged.event,
        provideTextDocumentContent: (uri) => this.published.get(uri.toString()) ?? '',
      }),
      vscode.workspace.onDidChangeTextDocument((e) => {
        // Problems found at publish time go away as soon as the file is edited (the dashboard
        // editor keeps its own live problems up to date while it is open).
        const uri = e.document.uri;
        if (this.diagnostics.has(uri) && !this.editor.isOpen(uri)) this.diagnostics.delete(uri);
      }),
    );
  }

  commands(): vscode.Disposable[] {
    const s = this.services;
    return [
      registerCommand(s, COMMANDS.dashboardsEdit, (arg?: unknown) => this.edit(arg)),
      registerCommand(s, COMMANDS.dashboardsPublish, (arg?: unknown) => this.publish(arg)),
      registerCommand(s, COMMANDS.dashboardsShowHistory, (arg?: unknown) => this.showHistory(arg)),
      registerCommand(s, COMMANDS.dashboardsOpenEditor, (arg?: unknown) => this.openEditor(arg)),
      registerCommand(s, COMMANDS.dashboardsAttachAiWidgetThread, (arg?: unknown) => this.attachThread(arg)),
    ];
  }

  private get state(): vscode.Memento {
    return this.services.context.workspaceState;
  }

  private record(uri: vscode.Uri): FileRecord {
    const all = this.state.get<Record<string, FileRecord>>(FILES_KEY, {});
    return all[uri.toString()] ?? { history: [] };
  }

  private async saveRecord(uri: vscode.Uri, rec: FileRecord): Promise<void> {
    const all = { ...this.state.get<Record<string, FileRecord>>(FILES_KEY, {}) };
    all[uri.toString()] = rec;
    await this.state.update(FILES_KEY, all);
  }

  /** The publish history of a file, oldest first. */
  history(uri: vscode.Uri): PublishHistoryEntry[] {
    return this.record(uri).history;
  }

  /**
   * The reports the widgets of a file place: titles, kinds and snapshot previews from the
   * workbook's published dashboard, then the report itself for the others. Read from the
   * deployment the file was pulled from (or the profile's default); nothing when neither is known
   * or the profile is signed out.
   */
  async widgetReports(uri: vscode.Uri, input: PublishDashboardInput): Promise<Record<string, EditorReport>> {
    const deploymentId =
      this.record(uri).deploymentId ?? this.services.profiles.active()?.profile.defaultDeploymentId;
    const ids = widgetReportIds(input.config);
    if (deploymentId === undefined || ids.length === 0) return {};
    const client = await this.services.clients.platform();
    const workbook = await client.getWorkbook(deploymentId, input.workbookId).catch(() => undefined);
    const out = reportsFromSnapshots(workbook ? publishedDashboardOf(workbook) : undefined);
    // Reports without a snapshot: one request each, only for a handful.
    const missing = ids.filter((id) => !(String(id) in out)).slice(0, 20);
    await Promise.all(
      missing.map(async (id) => {
        const report = await client.getReport(deploymentId, id).catch(() => undefined);
        if (report) out[String(id)] = reportFromListItem(report);
      }),
    );
    return out;
  }

  /** "Edit Dashboard": pulls a workbook's dashboard into a local file and opens it. */
  async edit(arg?: unknown): Promise<vscode.Uri | undefined> {
    const args = objectArg<EditArgs>(arg);
    const fromNode = workbookFromNode(arg);
    const deploymentId =
      fromNode?.deploymentId ??
      args.deploymentId ??
      (await pickDeployment(this.services, 'Deployment to pull from'));
    const workbookId =
      fromNode?.workbookId ?? args.workbookId ?? (await pickWorkbook(this.services, deploymentId));
    const client = await this.services.clients.platform();
    const workbook = await client.getWorkbook(deploymentId, workbookId);
    const input = dashboardFromWorkbook(workbook, args.source ?? 'draft');
    let target = args.target !== undefined ? toUri(args.target) : undefined;
    if (!target) {
      const folder = vscode.workspace.workspaceFolders?.[0]?.uri;
      const name = dashboardFileName(workbook.name);
      target = await vscode.window.showSaveDialog({
        title: `Save the dashboard of "${workbook.name}"`,
        saveLabel: 'Save Dashboard',
        // A one-part extension: dialogs that compare only ".json" would append "dashboard.json" again.
        filters: { 'Dashboard JSON': ['json'] },
        ...(folder ? { defaultUri: vscode.Uri.joinPath(folder, name) } : {}),
      });
      if (!target) return undefined;
    }
    target = target.with({ path: normaliseDashboardPath(target.path) });
    await vscode.workspace.fs.writeFile(target, Buffer.from(formatDashboardFile(input), 'utf8'));
    const rec = this.record(target);
    await this.saveRecord(target, { ...rec, deploymentId });
    const doc = await vscode.workspace.openTextDocument(target);
    // JSON, so the contributed schema validates and completes it (never plain text).
    const json =
      doc.languageId === 'json' ? doc : await vscode.languages.setTextDocumentLanguage(doc, 'json');
    await vscode.window.showTextDocument(json, { preview: false });
    this.services.log.info(
      `Pulled the dashboard of workbook ${workbookId} (deployment ${deploymentId}) into ${target.fsPath}`,
    );
    return target;
  }

  private fileOf(arg: unknown): vscode.Uri {
    if (arg instanceof vscode.Uri) return arg;
    const u = objectArg<PublishArgs>(arg).uri;
    if (u !== undefined) return toUri(u);
    const active = activeDashboardFile();
    if (active) return active;
    throw new Error('Open a *.dashboard.json file first.');
  }

  /** "Publish Dashboard". Returns the published dashboard, or undefined when cancelled. */
  async publish(arg?: unknown): Promise<PublishedDashboard | undefined> {
    const args = objectArg<PublishArgs>(arg);
    const uri = this.fileOf(arg);
    const doc = await vscode.workspace.openTextDocument(uri);
    if (doc.isDirty) await doc.save();
    const parsed = parseDashboardFile(doc.getText());
    if (!parsed.ok) {
      this.diagnostics.set(uri, problemDiagnostics(doc, parsed.problems));
      throw new Error(`Dashboard not published: ${describe(parsed.problems[0]!)}`);
    }
    this.diagnostics.delete(uri);
    const input = parsed.input;
    const rec = this.record(uri);
    const deploymentId =
      args.deploymentId ??
      rec.deploymentId ??
      (await pickDeployment(this.services, 'Deployment to publish to'));
    const client = await this.services.clients.platform();
    const active = this.services.profiles.active();
    const deployment = await client.getDeployment(deploymentId).catch(() => undefined);
    const deploymentName = typeof deployment?.name === 'string' ? deployment.name : undefined;

    if (args.showDiff !== false || args.confirm !== true) {
      const workbook = await client.getWorkbook(deploymentId, input.workbookId);
      const published = workbook.dashboardPublished
        ? dashboardFromWorkbook(workbook, 'published')
        : undefined;
      const review = publishReview(doc.getText(), input, published);
      if (args.showDiff !== false) await this.showReview(uri, deploymentId, review);
      if (args.confirm !== true) {
        const production = active?.profile.production === true;
        const where = `${deploymentName ? `"${deploymentName}"` : `deployment ${deploymentId}`}${active ? ` (profile "${active.profile.name}")` : ''}`;
        const what = `the dashboard of workbook "${workbook.name}"`;
        const message = production
          ? `Publish ${what} to PRODUCTION ${where}? Viewers see it at once. Changes: ${review.summary}.`
          : `Publish ${what} to ${where}? Changes: ${review.summary}.`;
        // Not modal: the review stays readable while the user decides.
        const choice = await vscode.window.showWarningMessage(
          message,
          production ? 'Publish to Production' : 'Publish',
          'Cancel',
        );
        if (choice !== 'Publish' && choice !== 'Publish to Production') return undefined;
      }
    }

    // Cancellable; an outcome left unknown (cancelled after sending, reset, 5xx) offers the history.
    let result: PublishedDashboard;
    try {
      result = await vscode.window.withProgress(
        {
          location: vscode.ProgressLocation.Notification,
          title: 'Publishing the dashboard…',
          cancellable: true,
        },
        (_progress, token) => {
          const abort = new AbortController();
          const sub = token.onCancellationRequested(() => abort.abort());
          return client
            .publishDashboard(deploymentId, input.workbookId, input, abort.signal)
            .finally(() => sub.dispose());
        },
      );
    } catch (e) {
      throw withCheckCommand(e, COMMANDS.dashboardsShowHistory.id, [uri]);
    }
    const entry: PublishHistoryEntry = {
      time: new Date().toISOString(),
      ...(result.versionNumber !== undefined ? { versionNumber: result.versionNumber } : {}),
      who: active?.profile.name ?? 'unknown',
      deploymentId,
      ...(deploymentName ? { deploymentName } : {}),
      status: result.status ?? 'published',
      ...(result.publicId !== undefined ? { publicId: result.publicId } : {}),
    };
    await this.saveRecord(uri, { deploymentId, history: [...rec.history, entry] });
    this.editor.refresh(uri);
    this.services.log.info(
      `Published workbook ${input.workbookId} to ${deploymentName ? `"${deploymentName}"` : `deployment ${deploymentId}`}: ${describePublish(entry)}`,
    );
    void vscode.window.showInformationMessage(`Dashboard ${describePublish(entry)}.`);
    return result;
  }

  /** The publish review: a diff of the normalised published and local dashboards, titled with the summary. */
  private async showReview(uri: vscode.Uri, deploymentId: number, review: PublishReview): Promise<void> {
    const name = uri.path.split('/').pop() ?? 'local';
    const base = `/${deploymentId}/${encodeURIComponent(uri.toString())}`;
    const left = vscode.Uri.from({ scheme: PUBLISHED_SCHEME, path: `${base}/published/${name}` });
    const right = vscode.Uri.from({ scheme: PUBLISHED_SCHEME, path: `${base}/to-publish/${name}` });
    this.published.set(left.toString(), review.left);
    this.published.set(right.toString(), review.right);
    this.publishedChanged.fire(left);
    this.publishedChanged.fire(right);
    this.lastReview = { uri, summary: review.summary, changes: review.changes };
    await vscode.commands.executeCommand(
      'vscode.diff',
      left,
      right,
      `Review: published ↔ ${name} (${review.summary})`,
      { preview: true },
    );
  }

  /** "Open in Dashboard Editor": the file (or the active one) in the custom editor. */
  async openEditor(arg?: unknown): Promise<vscode.Uri> {
    const uri = this.fileOf(arg);
    await vscode.commands.executeCommand('vscode.openWith', uri, DASHBOARD_EDITOR_VIEW_TYPE);
    return uri;
  }

  /** "Show Publish History": the file's publishes, newest first, in a quick pick. Returns them. */
  async showHistory(arg?: unknown): Promise<PublishHistoryEntry[]> {
    const uri = this.fileOf(arg);
    const entries = this.history(uri);
    if (entries.length === 0) {
      void vscode.window.showInformationMessage('This dashboard file has not been published from here yet.');
    } else {
      void vscode.window.showQuickPick(
        [...entries].reverse().map((e) => ({
          label: e.versionNumber !== undefined ? `Version ${e.versionNumber}` : 'Version (not reported)',
          description: `${e.time} by ${e.who}`,
          detail: `${e.deploymentName ? `"${e.deploymentName}"` : `deployment ${e.deploymentId}`}, ${e.status}${e.publicId !== undefined ? `, public id ${e.publicId}` : ''}`,
        })),
        { title: `Publish history of ${uri.path.split('/').pop()}` },
      );
    }
    return entries;
  }

  /** "Attach AI Widget Thread": to the published dashboard of a workbook (or of a dashboard file). */
  async attachThread(arg?: unknown): Promise<PublishedDashboard> {
    const args = objectArg<AttachThreadArgs>(arg);
    const fromNode = workbookFromNode(arg);
    let deploymentId = fromNode?.deploymentId ?? args.deploymentId;
    let workbookId = fromNode?.workbookId ?? args.workbookId;
    if (workbookId === undefined && !fromNode) {
      const uri = args.uri !== undefined ? toUri(args.uri) : activeDashboardFile();
      if (uri) {
        const parsed = parseDashboardFile((await vscode.workspace.openTextDocument(uri)).getText());
        if (parsed.ok) workbookId = parsed.input.workbookId;
        deploymentId ??= this.record(uri).deploymentId;
      }
    }
    deploymentId ??= await pickDeployment(this.services, 'Deployment');
    workbookId ??= await pickWorkbook(this.services, deploymentId);
    // Asked whenever the thread or widget was asked (palette and tree menus alike).
    const interactive = args.threadId === undefined || args.widgetId === undefined;
    const threadId = args.threadId ?? (await askText('AI thread id'))!;
    const widgetId = args.widgetId ?? (await askText('Widget id'))!;
    const checksum = args.checksum ?? (interactive ? await askText('Checksum (optional)', true) : undefined);
    const client = await this.services.clients.platform();
    const result = await client.updateAiWidgetThread(deploymentId, workbookId, {
      threadId,
      widgetId,
      ...(checksum !== undefined ? { checksum } : {}),
    });
    void vscode.window.showInformationMessage(`AI thread ${threadId} attached to widget ${widgetId}.`);
    return result;
  }

  dispose(): void {
    for (const d of this.disposables) d.dispose();
  }
}

/** Loaded on first use (see index.ts): the feature and its commands. */
export function createDashboardsFeature(services: Services): {
  feature: DashboardsFeature;
  disposables: vscode.Disposable[];
} {
  const feature = new DashboardsFeature(services);
  return { feature, disposables: [feature, ...feature.commands()] };
}
