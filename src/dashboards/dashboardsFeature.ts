// Dashboards as code: pull a workbook's dashboard into a `*.dashboard.json`, save it as the
// workbook's draft on the server (not published), publish it (validated, reviewed in a diff tab
// whose title bar holds the decision, bound to that review, reported and recorded in a per-file
// history), show the history, and attach an AI widget thread. Reports as code (a `*.report.json`
// pushed and pulled by public id) are in reportFiles.ts. Every command
// takes an arguments object so tests need no UI; the review is skipped only by `{confirm: true}`.
import * as vscode from 'vscode';
import { COMMANDS } from '../commands';
import { registerCommand } from '../commandRunner';
import { DASHBOARD_EDITOR_VIEW_TYPE, DashboardEditorProvider, problemDiagnostics } from './dashboardEditor';
import { withCheckCommand } from '../api/http';
import { publishedDashboardOf } from '../api/platform/workbookShapes';
import type { PublishDashboardInput, PublishedDashboard } from '../api/schemas/platform';
import type { EditorReport } from '../shared/dashboardEditorProtocol';
import { mergeReports, reportFromListItem, reportsFromSnapshots, widgetReportIds } from './widgetReports';
import { pickReport } from './reportPicker';
import { dashboardJsonSchema, themeChoicesOf } from './dashboardSchema';
import {
  checkReview,
  DOCUMENTED_SERVER_FILLS,
  learnServerFills,
  publishReview,
  type ServerFills,
} from './publishReview';
import { REVIEW_SCHEME, ReviewTabs, type ReviewRecord } from './reviewTabs';
import { saveFirst, type NextSave } from './saveFirst';
import { ReportFlows } from './reportFlows';
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
  draftOf,
  formatDashboardFile,
  normaliseDashboardPath,
  parseDashboardFile,
  type DashboardProblem,
} from './dashboardFile';

export type { AttachThreadArgs, EditArgs, PublishArgs, PublishHistoryEntry } from './dashboardArgs';

const FILES_KEY = 'dashboardPlatform.dashboards.files';
/** Widgets' reports looked up one by one when the editor opens, at most. */
const MAX_REPORT_LOOKUPS = 40;
/** The server fills learned per profile (see publishReview.ts's ServerFills). */
const FILLS_KEY = 'dashboardPlatform.dashboards.serverFills';

const basename = (uri: vscode.Uri) => uri.path.split('/').pop() ?? uri.path;

/** The version of a workbook's published dashboard (undefined when nothing is published). */
function publishedVersionOf(workbook: Record<string, unknown>): number | undefined {
  const v = publishedDashboardOf(workbook)?.versionNumber;
  return typeof v === 'number' ? v : undefined;
}

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
  private readonly disposables: vscode.Disposable[] = [];
  /** The open publish reviews (their diff tabs). */
  readonly reviews = new ReviewTabs();
  /** The last publish review shown (tests read it). */
  lastReview: ReviewRecord | undefined;
  /** The custom editor over *.dashboard.json (opened with "Open With…"). */
  readonly editor: DashboardEditorProvider;
  /** Reports as code: push and pull `*.report.json` files. */
  readonly reportFiles: ReportFlows;

  constructor(private readonly services: Services) {
    this.editor = new DashboardEditorProvider(services.context.extensionUri, {
      history: (uri) => this.history(uri),
      publish: (uri) => vscode.commands.executeCommand(COMMANDS.dashboardsPublish.id, { uri }),
      saveDraft: (uri) => vscode.commands.executeCommand(COMMANDS.dashboardsSaveDraft.id, { uri }),
      reports: (uri, input) => this.widgetReports(uri, input),
      pickReport: (uri, input, widgetId) => this.pickWidgetReport(uri, input, widgetId),
      review: (uri) => {
        const r = this.reviews.open().find((x) => x.file.toString() === uri.toString());
        if (!r) return undefined;
        const where = `${r.production ? 'PRODUCTION ' : ''}${r.deploymentName ? `"${r.deploymentName}"` : `deployment ${r.deploymentId}`}`;
        return { summary: r.review.summary, where };
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
      saveFirst(doc, nextSaveOf(doc), fileName(doc.uri), 'Report not pushed', 'push again'),
    );
    // The custom editor itself is registered at activation (index.ts) and resolves through `editor`.
    this.disposables.push(
      this.reportFiles,
      this.diagnostics,
      this.reviews,
      this.reviews.onDidEnd((r) => this.editor.refresh(r.file)),
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
      registerCommand(s, COMMANDS.dashboardsSaveDraft, (arg?: unknown) => this.saveDraft(arg)),
      registerCommand(s, COMMANDS.dashboardsPushReport, (arg?: unknown) => this.reportFiles.push(arg)),
      registerCommand(s, COMMANDS.dashboardsPullReport, (arg?: unknown) => this.reportFiles.pull(arg)),
      registerCommand(s, COMMANDS.dashboardsPublishReviewed, (arg?: unknown) =>
        this.publishReviewed(
          arg instanceof vscode.Uri
            ? arg
            : (objectArg<PublishArgs>(arg).reviewId ?? this.reviews.active() ?? this.noReview()),
        ),
      ),
      registerCommand(s, COMMANDS.dashboardsCancelReview, (arg?: unknown) => this.cancelReview(arg)),
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

  /** Deployments found holding a file's workbook, by file (see deploymentOf). */
  private readonly foundDeployments = new Map<string, number>();

  /**
   * The deployment a file's workbook lives in: the one it was pulled from or published to, else
   * the profile's default when that holds the workbook, else the first deployment that does
   * (looked up once per file). Undefined when none does or the profile cannot list them.
   */
  async deploymentOf(uri: vscode.Uri, workbookId: number): Promise<number | undefined> {
    const recorded = this.record(uri).deploymentId;
    if (recorded !== undefined) return recorded;
    const found = this.foundDeployments.get(uri.toString());
    if (found !== undefined) return found;
    const client = await this.services.clients.platform();
    const holds = (d: number) =>
      client.getWorkbook(d, workbookId).then(
        () => true,
        () => false,
      );
    const preferred = this.services.profiles.active()?.profile.defaultDeploymentId;
    let id: number | undefined;
    if (preferred !== undefined && (await holds(preferred))) id = preferred;
    else {
      const deployments = await client.listDeployments({ first: 100 }).catch(() => undefined);
      for (const d of deployments?.items ?? []) {
        if (d.id !== preferred && (await holds(d.id))) {
          id = d.id;
          break;
        }
      }
    }
    if (id !== undefined) this.foundDeployments.set(uri.toString(), id);
    return id;
  }

  /**
   * The reports the widgets of a file place, read from the server for the file's deployment: each
   * report's current name, with the kind and preview (chart mark, SQL) of the published snapshot
   * when there is one. Nothing when the deployment is unknown or the profile is signed out.
   */
  async widgetReports(uri: vscode.Uri, input: PublishDashboardInput): Promise<Record<string, EditorReport>> {
    const ids = widgetReportIds(input.config);
    if (ids.length === 0) return {};
    const deploymentId = await this.deploymentOf(uri, input.workbookId);
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
      (await this.deploymentOf(uri, input.workbookId)) ??
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

  /** The dashboard file an argument names (a review of a file names that file). */
  private fileOf(arg: unknown): vscode.Uri {
    const u = arg instanceof vscode.Uri ? arg : objectArg<PublishArgs>(arg).uri;
    const uri = u !== undefined ? toUri(u) : (this.reviews.active() ?? activeDashboardFile());
    if (uri) return this.reviews.fileOf(uri) ?? uri;
    throw new Error('Open a *.dashboard.json file first.');
  }

  /**
   * "Publish Dashboard…". On a file: validates it and opens its review, whose title bar carries
   * "Publish These Changes" and "Cancel" (returns undefined then: the decision is taken there). On a
   * review (its URI, or with its tab active): confirms THAT review. `{confirm: true}` publishes a
   * file with no review (automation and tests).
   */
  async publish(arg?: unknown): Promise<PublishedDashboard | undefined> {
    const reviewUri =
      arg instanceof vscode.Uri && arg.scheme === REVIEW_SCHEME
        ? arg
        : arg === undefined
          ? this.reviews.active()
          : undefined;
    const reviewId = objectArg<PublishArgs>(arg).reviewId;
    if (reviewUri || reviewId !== undefined) return this.publishReviewed(reviewUri ?? reviewId!);
    const args = objectArg<PublishArgs>(arg);
    const uri = this.fileOf(arg);
    const prepared = await this.prepare(uri, args.deploymentId);
    if (!prepared) return undefined;
    if (args.confirm === true)
      return this.send(uri, prepared.input, prepared.deploymentId, prepared.deploymentName);
    await this.review(uri, prepared);
    return undefined;
  }

  /** The file saved, parsed and validated, and where it publishes; undefined after reporting its problems. */
  private async prepare(
    uri: vscode.Uri,
    deploymentArg: number | undefined,
    refused = 'Dashboard not published',
    where = 'Deployment to publish to',
  ): Promise<
    { text: string; input: PublishDashboardInput; deploymentId: number; deploymentName?: string } | undefined
  > {
    const doc = await vscode.workspace.openTextDocument(uri);
    await saveFirst(
      doc,
      nextSaveOf(doc),
      fileName(uri),
      refused,
      refused.startsWith('Draft') ? 'save the draft again' : 'publish again',
    );
    const parsed = parseDashboardFile(doc.getText());
    if (!parsed.ok) {
      this.diagnostics.set(uri, problemDiagnostics(doc, parsed.problems));
      throw new Error(`${refused}: ${describe(parsed.problems[0]!)}`);
    }
    this.diagnostics.delete(uri);
    // The file's own deployment, else the one found holding its workbook (the review names it
    // before anything is sent), else the user's pick.
    const deploymentId =
      deploymentArg ??
      (await this.deploymentOf(uri, parsed.input.workbookId).catch(() => undefined)) ??
      (await pickDeployment(this.services, where));
    const client = await this.services.clients.platform();
    const deployment = await client.getDeployment(deploymentId).catch(() => undefined);
    const deploymentName = typeof deployment?.name === 'string' ? deployment.name : undefined;
    return {
      text: doc.getText(),
      input: parsed.input,
      deploymentId,
      ...(deploymentName ? { deploymentName } : {}),
    };
  }

  /** What the server fills in for fields a publish leaves out: documented, plus learned from its answers. */
  private serverFills(): ServerFills {
    const learned = this.services.context.globalState.get<Record<string, ServerFills>>(FILLS_KEY, {});
    const profile = this.services.profiles.active()?.profile.name ?? '';
    return { ...DOCUMENTED_SERVER_FILLS, ...(learned[profile] ?? {}) };
  }

  private async learnFills(sent: PublishDashboardInput, answer: PublishedDashboard): Promise<void> {
    const found = learnServerFills(sent.config, answer.config);
    if (Object.keys(found).length === 0) return;
    const all = { ...this.services.context.globalState.get<Record<string, ServerFills>>(FILLS_KEY, {}) };
    const profile = this.services.profiles.active()?.profile.name ?? '';
    all[profile] = { ...(all[profile] ?? {}), ...found };
    await this.services.context.globalState.update(FILLS_KEY, all);
  }

  /** Opens the review of publishing the prepared file (replacing an older review of it). */
  private async review(
    uri: vscode.Uri,
    p: { text: string; input: PublishDashboardInput; deploymentId: number; deploymentName?: string },
  ): Promise<ReviewRecord> {
    const client = await this.services.clients.platform();
    const workbook = await client.getWorkbook(p.deploymentId, p.input.workbookId);
    const published = workbook.dashboardPublished ? dashboardFromWorkbook(workbook, 'published') : undefined;
    const review = publishReview(p.text, p.input, published, this.serverFills());
    const record = await this.reviews.show({
      file: uri,
      deploymentId: p.deploymentId,
      ...(p.deploymentName ? { deploymentName: p.deploymentName } : {}),
      workbookName: workbook.name,
      text: p.text,
      input: p.input,
      publishedVersion: publishedVersionOf(workbook),
      review,
      production: this.services.profiles.active()?.profile.production === true,
    });
    this.lastReview = record;
    this.editor.refresh(uri);
    return record;
  }

  /**
   * "Publish These Changes": publishes exactly what a review showed, if the file and the published
   * dashboard are still what it compared; otherwise that review is closed and a new one opened.
   */
  async publishReviewed(ref: vscode.Uri | string): Promise<PublishedDashboard | undefined> {
    const r = this.reviews.find(ref);
    const file = r?.file ?? (typeof ref === 'string' ? undefined : this.reviews.fileOf(ref));
    if (!r || (r.state !== 'open' && r.state !== 'published')) {
      if (!file)
        throw new Error('That publish review has ended. Choose "Publish Dashboard…" on the file again.');
      void vscode.window.showInformationMessage(
        `That review of ${basename(file)} has ended; here is a new one. Check it, then choose Publish These Changes.`,
      );
      return this.publish({ uri: file, ...(r ? { deploymentId: r.deploymentId } : {}) });
    }
    const where = r.deploymentName ? `"${r.deploymentName}"` : `deployment ${r.deploymentId}`;
    if (r.state === 'published') {
      void vscode.window.showInformationMessage(`This review of ${basename(r.file)} was published already.`);
      return undefined;
    }
    const doc = await vscode.workspace.openTextDocument(r.file);
    const client = await this.services.clients.platform();
    const workbook = await client.getWorkbook(r.deploymentId, r.input.workbookId);
    const check = checkReview(
      { text: r.text, publishedVersion: r.publishedVersion, changes: r.review.changes },
      { text: doc.getText(), dirty: doc.isDirty, publishedVersion: publishedVersionOf(workbook) },
    );
    if (check.kind === 'stale') {
      return this.reReview(
        r,
        check.why === 'file'
          ? `${basename(r.file)} ${check.detail}`
          : `The published dashboard changed since this review (${check.detail})`,
      );
    }
    if (check.kind === 'nothing') {
      void vscode.window.showInformationMessage(
        `Nothing to publish: ${basename(r.file)} matches what is published on ${where}.`,
      );
      return undefined;
    }
    if (r.production) {
      // A production publish asks once more, in a dialog that waits for the answer.
      const go = await vscode.window.showWarningMessage(
        `Publish the dashboard of "${r.workbookName}" to PRODUCTION ${where}? Viewers see it at once.`,
        { modal: true, detail: `Changes: ${r.review.summary}.` },
        'Publish to Production',
      );
      if (go !== 'Publish to Production') return undefined;
    }
    const result = await this.send(r.file, r.input, r.deploymentId, r.deploymentName);
    await this.reviews.end(r, 'published');
    return result;
  }

  /** "Cancel": ends a review without publishing (its tab closes). */
  async cancelReview(arg?: unknown): Promise<void> {
    const ref =
      arg instanceof vscode.Uri ? arg : (objectArg<PublishArgs>(arg).reviewId ?? this.reviews.active());
    const r = ref !== undefined ? this.reviews.find(ref) : undefined;
    if (r) await this.reviews.end(r, 'cancelled');
    else if (ref instanceof vscode.Uri) {
      // A review tab left from before a reload: nothing to cancel, so just close it.
      const tabs = vscode.window.tabGroups.all
        .flatMap((g) => g.tabs)
        .filter(
          (t) => t.input instanceof vscode.TabInputTextDiff && t.input.modified.toString() === ref.toString(),
        );
      await vscode.window.tabGroups.close(tabs);
    }
  }

  private async reReview(r: ReviewRecord, why: string): Promise<undefined> {
    await this.reviews.end(r, 'stale');
    void vscode.window.showWarningMessage(
      `${why}: nothing was published. Check the new review, then publish it.`,
    );
    const prepared = await this.prepare(r.file, r.deploymentId);
    if (prepared) await this.review(r.file, prepared);
    return undefined;
  }

  /** Sends a publish and records it in the file's history (every route comes here). */
  private async send(
    uri: vscode.Uri,
    input: PublishDashboardInput,
    deploymentId: number,
    deploymentName: string | undefined,
  ): Promise<PublishedDashboard> {
    const client = await this.services.clients.platform();
    const active = this.services.profiles.active();
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
    await this.saveRecord(uri, { deploymentId, history: [...this.record(uri).history, entry] });
    await this.learnFills(input, result).catch(() => undefined);
    this.editor.refresh(uri);
    this.services.log.info(
      `Published workbook ${input.workbookId} to ${deploymentName ? `"${deploymentName}"` : `deployment ${deploymentId}`}: ${describePublish(entry)}`,
    );
    void vscode.window.showInformationMessage(`Dashboard ${describePublish(entry)}.`);
    return result;
  }

  /**
   * "Save Dashboard Draft": keeps the file (saved and validated first) as the workbook's draft on
   * the server. Nothing is published: viewers keep seeing the published version, and publishing
   * still goes through its review. Said saved only when the server answered; an unknown outcome
   * is said so (with how to check), never retried.
   */
  async saveDraft(arg?: unknown): Promise<unknown> {
    const args = objectArg<PublishArgs>(arg);
    const uri = this.fileOf(arg);
    const prepared = await this.prepare(uri, args.deploymentId, 'Draft not saved', 'Deployment to save to');
    if (!prepared) return undefined;
    const { input, deploymentId, deploymentName } = prepared;
    const client = await this.services.clients.platform();
    const where = deploymentName ? `"${deploymentName}"` : `deployment ${deploymentId}`;
    const answer = await vscode.window.withProgress(
      {
        location: vscode.ProgressLocation.Notification,
        title: 'Saving the dashboard draft…',
        cancellable: true,
      },
      (_progress, token) => {
        const abort = new AbortController();
        const sub = token.onCancellationRequested(() => abort.abort());
        return client
          .saveDashboardDraft(
            deploymentId,
            input.workbookId,
            { dashboardDraft: draftOf(input) as never },
            abort.signal,
          )
          .finally(() => sub.dispose());
      },
    );
    await this.saveRecord(uri, { ...this.record(uri), deploymentId });
    this.services.log.info(`Saved the draft of workbook ${input.workbookId} on ${where} from ${uri.fsPath}`);
    void vscode.window.showInformationMessage(
      `Draft of ${basename(uri)} saved on ${where}. Nothing was published: viewers still see the published version.`,
    );
    return answer;
  }

  private noReview(): never {
    throw new Error('No publish review is open. Choose "Publish Dashboard…" on a dashboard file first.');
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

/** This document's next save (VS Code's save event), or the end of `ms`. */
function nextSaveOf(doc: vscode.TextDocument): NextSave {
  return (ms) => {
    let done: () => void = () => undefined;
    const saved = new Promise<void>((resolve) => (done = resolve));
    const timer = setTimeout(done, ms);
    const sub = vscode.workspace.onDidSaveTextDocument((d) => {
      if (d.uri.toString() === doc.uri.toString()) done();
    });
    return {
      saved,
      dispose: () => {
        clearTimeout(timer);
        sub.dispose();
      },
    };
  };
}

const fileName = (uri: vscode.Uri) => uri.path.slice(uri.path.lastIndexOf('/') + 1);
