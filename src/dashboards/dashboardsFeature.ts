// Dashboards as code, the feature: its commands, and the ones that are a single step: pull a
// workbook's dashboard into a `*.dashboard.json`, save it as the workbook's draft on the server
// (not published), open it in the dashboard editor, show its publish history, and attach an AI
// widget thread. Publishing (reviewed in a diff tab whose title bar holds the decision) lives in
// publishFlow.ts, what is remembered per file in dashboardRecords.ts, and reports as code (a
// `*.report.json` pushed and pulled by public id) in reportFlows.ts. Every command takes an
// arguments object so tests need no UI; the review is skipped only by `{confirm: true}`.
import * as vscode from 'vscode';
import { COMMANDS } from '../commands';
import { registerCommand } from '../commandRunner';
import { DASHBOARD_EDITOR_VIEW_TYPE, DashboardEditorProvider } from './dashboardEditor';
import { publishedDashboardOf } from '../api/platform/workbookShapes';
import type { PublishDashboardInput, PublishedDashboard } from '../api/schemas/platform';
import type { EditorReport } from '../shared/dashboardEditorProtocol';
import { mergeReports, reportFromListItem, reportsFromSnapshots, widgetReportIds } from './widgetReports';
import { pickReport } from './reportPicker';
import { dashboardJsonSchema, themeChoicesOf } from './dashboardSchema';
import { reviewWhere, type ReviewRecord, type ReviewTabs } from './reviewTabs';
import { ReportFlows } from './reportFlows';
import { DashboardRecords } from './dashboardRecords';
import { PublishFlow } from './publishFlow';
import type { Services } from '../services';
import type { AttachThreadArgs, EditArgs, PublishArgs, PublishHistoryEntry } from './dashboardArgs';
import {
  activeDashboardFile,
  askText,
  deploymentLabel,
  fileName,
  objectArg,
  pickDeployment,
  pickWorkbook,
  saveBeforeSending,
  toUri,
  withCancelProgress,
  workbookFromNode,
} from './dashboardPrompts';
import {
  dashboardFileName,
  dashboardFromWorkbook,
  draftOf,
  formatDashboardFile,
  normaliseDashboardPath,
  parseDashboardFile,
} from './dashboardFile';

export type { AttachThreadArgs, EditArgs, PublishArgs, PublishHistoryEntry } from './dashboardArgs';

/** Widgets' reports looked up one by one when the editor opens, at most. */
const MAX_REPORT_LOOKUPS = 40;

export class DashboardsFeature implements vscode.Disposable {
  readonly diagnostics = vscode.languages.createDiagnosticCollection('dashboardPlatform.dashboards');
  private readonly disposables: vscode.Disposable[] = [];
  /** Each file's deployment and publish history. */
  private readonly records: DashboardRecords;
  /** Publishing a file: its review, the decision, the send. */
  private readonly publishing: PublishFlow;
  /** The custom editor over *.dashboard.json (opened with "Open With…"). */
  readonly editor: DashboardEditorProvider;
  /** Reports as code: push and pull `*.report.json` files. */
  readonly reportFiles: ReportFlows;

  constructor(private readonly services: Services) {
    this.records = new DashboardRecords(services);
    this.publishing = new PublishFlow(services, this.records, this.diagnostics, (uri) =>
      this.editor.refresh(uri),
    );
    this.editor = new DashboardEditorProvider(services.context.extensionUri, {
      history: (uri) => this.history(uri),
      publish: (uri) => vscode.commands.executeCommand(COMMANDS.dashboardsPublish.id, { uri }),
      saveDraft: (uri) => vscode.commands.executeCommand(COMMANDS.dashboardsSaveDraft.id, { uri }),
      reports: (uri, input) => this.widgetReports(uri, input),
      pickReport: (uri, input, widgetId) => this.pickWidgetReport(uri, input, widgetId),
      review: (uri) => {
        const r = this.reviews.open().find((x) => x.file.toString() === uri.toString());
        return r ? { summary: r.review.summary, where: reviewWhere(r) } : undefined;
      },
      decideReview: (uri, publish) => {
        const r = this.reviews.open().find((x) => x.file.toString() === uri.toString());
        if (!r) throw new Error('This file has no open publish review. Choose Publish… to review it.');
        return vscode.commands.executeCommand(
          publish ? COMMANDS.dashboardsPublishReviewed.id : COMMANDS.dashboardsCancelReview.id,
          { reviewId: r.id },
        );
      },
      themeChoices: themeChoicesOf(dashboardJsonSchema()),
      diagnostics: this.diagnostics,
    });
    this.reportFiles = new ReportFlows(services, (doc) =>
      saveBeforeSending(doc, 'Report not pushed', 'push again'),
    );
    // The custom editor itself is registered at activation (index.ts) and resolves through `editor`.
    this.disposables.push(
      this.reportFiles,
      this.diagnostics,
      this.publishing,
      this.reviews.onDidEnd((r) => this.editor.refresh(r.file)),
      vscode.workspace.onDidChangeTextDocument((e) => {
        // Problems found at publish time go away as soon as the file is edited (the dashboard
        // editor keeps its own live problems up to date while it is open).
        const uri = e.document.uri;
        if (this.diagnostics.has(uri) && !this.editor.isOpen(uri)) this.diagnostics.delete(uri);
      }),
    );
  }

  /** The open publish reviews (their diff tabs). */
  get reviews(): ReviewTabs {
    return this.publishing.reviews;
  }

  /** The last publish review shown (tests read it). */
  get lastReview(): ReviewRecord | undefined {
    return this.publishing.lastReview;
  }

  commands(): vscode.Disposable[] {
    const s = this.services;
    const publishing = this.publishing;
    return [
      registerCommand(s, COMMANDS.dashboardsEdit, (arg?: unknown) => this.edit(arg)),
      registerCommand(s, COMMANDS.dashboardsPublish, (arg?: unknown) => publishing.publish(arg)),
      registerCommand(s, COMMANDS.dashboardsSaveDraft, (arg?: unknown) => this.saveDraft(arg)),
      registerCommand(s, COMMANDS.dashboardsPushReport, (arg?: unknown) => this.reportFiles.push(arg)),
      registerCommand(s, COMMANDS.dashboardsPullReport, (arg?: unknown) => this.reportFiles.pull(arg)),
      registerCommand(s, COMMANDS.dashboardsPublishReviewed, (arg?: unknown) =>
        publishing.publishTheseChanges(arg),
      ),
      registerCommand(s, COMMANDS.dashboardsCancelReview, (arg?: unknown) => publishing.cancelReview(arg)),
      registerCommand(s, COMMANDS.dashboardsShowHistory, (arg?: unknown) => this.showHistory(arg)),
      registerCommand(s, COMMANDS.dashboardsOpenEditor, (arg?: unknown) => this.openEditor(arg)),
      registerCommand(s, COMMANDS.dashboardsAttachAiWidgetThread, (arg?: unknown) => this.attachThread(arg)),
    ];
  }

  /** The publish history of a file, oldest first. */
  history(uri: vscode.Uri): PublishHistoryEntry[] {
    return this.records.history(uri);
  }

  /**
   * The reports the widgets of a file place, read from the server for the file's deployment: each
   * report's current name, with the kind and preview (chart mark, SQL) of the published snapshot
   * when there is one. Nothing when the deployment is unknown or the profile is signed out.
   */
  async widgetReports(uri: vscode.Uri, input: PublishDashboardInput): Promise<Record<string, EditorReport>> {
    const ids = widgetReportIds(input.config);
    if (ids.length === 0) return {};
    const deploymentId = await this.records.deploymentOf(uri, input.workbookId);
    if (deploymentId === undefined) return {};
    const client = await this.services.clients.platform();
    const workbook = await client.getWorkbook(deploymentId, input.workbookId).catch(() => undefined);
    const snapshots = reportsFromSnapshots(workbook ? publishedDashboardOf(workbook) : undefined);
    const live: Record<string, EditorReport> = {};
    await Promise.all(
      ids.slice(0, MAX_REPORT_LOOKUPS).map(async (id) => {
        const report = await client.getReport(deploymentId, id).catch(() => undefined);
        if (report) live[String(id)] = reportFromListItem(report);
      }),
    );
    return mergeReports(live, snapshots);
  }

  /** The report picker of a widget (the dashboard editor's Report field). */
  async pickWidgetReport(
    uri: vscode.Uri,
    input: PublishDashboardInput,
    widgetId: string,
  ): Promise<{ id: number; name: string } | undefined> {
    const deploymentId =
      (await this.records.deploymentOf(uri, input.workbookId)) ??
      (await pickDeployment(this.services, 'Deployment whose reports to list'));
    const widget = (input.config?.widgets ?? []).find((w) => w.id === widgetId);
    const current = Number((widget?.config as { reportId?: unknown } | null | undefined)?.reportId);
    return pickReport(this.services, deploymentId, {
      title: `Report of widget ${widgetId}`,
      ...(Number.isInteger(current) ? { current } : {}),
    });
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
    await this.records.setDeployment(target, deploymentId);
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

  /**
   * "Save Dashboard Draft": keeps the file (saved and validated first) as the workbook's draft on
   * the server. Nothing is published: viewers keep seeing the published version, and publishing
   * still goes through its review. Said saved only when the server answered; an unknown outcome
   * is said so (with how to check), never retried.
   */
  async saveDraft(arg?: unknown): Promise<unknown> {
    const args = objectArg<PublishArgs>(arg);
    const uri = this.publishing.fileOf(arg);
    const prepared = await this.publishing.prepare(
      uri,
      args.deploymentId,
      'Draft not saved',
      'Deployment to save to',
    );
    if (!prepared) return undefined;
    const { input, deploymentId, deploymentName } = prepared;
    const client = await this.services.clients.platform();
    const where = deploymentLabel(deploymentId, deploymentName);
    const answer = await withCancelProgress('Saving the dashboard draft…', (signal) =>
      client.saveDashboardDraft(
        deploymentId,
        input.workbookId,
        { dashboardDraft: draftOf(input) as never },
        signal,
      ),
    );
    await this.records.setDeployment(uri, deploymentId);
    this.services.log.info(`Saved the draft of workbook ${input.workbookId} on ${where} from ${uri.fsPath}`);
    void vscode.window.showInformationMessage(
      `Draft of ${fileName(uri)} saved on ${where}. Nothing was published: viewers still see the published version.`,
    );
    return answer;
  }

  /** "Open in Dashboard Editor": the file (or the active one) in the custom editor. */
  async openEditor(arg?: unknown): Promise<vscode.Uri> {
    const uri = this.publishing.fileOf(arg);
    await vscode.commands.executeCommand('vscode.openWith', uri, DASHBOARD_EDITOR_VIEW_TYPE);
    return uri;
  }

  /** "Show Publish History": the file's publishes, newest first, in a quick pick. Returns them. */
  async showHistory(arg?: unknown): Promise<PublishHistoryEntry[]> {
    const uri = this.publishing.fileOf(arg);
    const entries = this.history(uri);
    if (entries.length === 0) {
      void vscode.window.showInformationMessage('This dashboard file has not been published from here yet.');
    } else {
      void vscode.window.showQuickPick(
        [...entries].reverse().map((e) => ({
          label: e.versionNumber !== undefined ? `Version ${e.versionNumber}` : 'Version (not reported)',
          description: `${e.time} by ${e.who}`,
          detail: `${deploymentLabel(e.deploymentId, e.deploymentName)}, ${e.status}${e.publicId !== undefined ? `, public id ${e.publicId}` : ''}`,
        })),
        { title: `Publish history of ${fileName(uri)}` },
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
        deploymentId ??= this.records.recordedDeployment(uri);
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
