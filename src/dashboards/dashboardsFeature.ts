// Dashboards as code: pull a workbook's dashboard into a `*.dashboard.json`, publish it (validated,
// diffed against what is published, confirmed, reported, recorded in a per-file history), show the
// history, and attach an AI widget thread. Every command takes an arguments object so tests need no
// UI; the confirmation is skipped only by an explicit `{confirm: true}`.
import * as vscode from 'vscode';
import { COMMANDS } from '../commands';
import { registerCommand } from '../commandRunner';
import { DASHBOARD_EDITOR_VIEW_TYPE, DashboardEditorProvider, problemDiagnostics } from './dashboardEditor';
import type { PublishedDashboard } from '../api/schemas/platform';
import type { Services } from '../services';
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
  parseDashboardFile,
  type DashboardProblem,
} from './dashboardFile';

const PUBLISHED_SCHEME = 'dashboard-platform-published';
const FILES_KEY = 'dashboardPlatform.dashboards.files';

export interface PublishHistoryEntry {
  time: string;
  versionNumber: number;
  /** The profile that published. */
  who: string;
  deploymentId: number;
  status: string;
  publicId: string;
}

interface FileRecord {
  deploymentId?: number;
  history: PublishHistoryEntry[];
}

export interface EditArgs {
  deploymentId?: number;
  workbookId?: number;
  /** Where to write the file (a path or file URI); otherwise a save dialog asks. */
  target?: string | vscode.Uri;
  /** Pull the published dashboard instead of the draft. */
  source?: 'draft' | 'published';
}

export interface PublishArgs {
  /** The file; defaults to the active editor's document. */
  uri?: string | vscode.Uri;
  /** Defaults to the deployment the file was pulled from. */
  deploymentId?: number;
  /** Skips the modal confirmation (tests). */
  confirm?: boolean;
  /** Set false to skip opening the diff editor. */
  showDiff?: boolean;
}

export interface AttachThreadArgs {
  deploymentId?: number;
  workbookId?: number;
  uri?: string | vscode.Uri;
  threadId?: string;
  widgetId?: string;
  checksum?: string;
}

function describe(p: DashboardProblem): string {
  return `${p.message} (line ${p.line + 1}, column ${p.column + 1})`;
}

export class DashboardsFeature implements vscode.Disposable {
  readonly diagnostics = vscode.languages.createDiagnosticCollection('dashboardPlatform.dashboards');
  private readonly published = new Map<string, string>();
  private readonly publishedChanged = new vscode.EventEmitter<vscode.Uri>();
  private readonly disposables: vscode.Disposable[] = [];
  /** The custom editor over *.dashboard.json (opened with "Open With…"). */
  readonly editor: DashboardEditorProvider;

  constructor(private readonly services: Services) {
    this.editor = new DashboardEditorProvider(services.context.extensionUri, {
      history: (uri) => this.history(uri),
      publish: (uri) => vscode.commands.executeCommand(COMMANDS.dashboardsPublish.id, { uri }),
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
        filters: { 'Dashboard JSON': ['dashboard.json'] },
        ...(folder ? { defaultUri: vscode.Uri.joinPath(folder, name) } : {}),
      });
      if (!target) return undefined;
    }
    await vscode.workspace.fs.writeFile(target, Buffer.from(formatDashboardFile(input), 'utf8'));
    const rec = this.record(target);
    await this.saveRecord(target, { ...rec, deploymentId });
    await vscode.window.showTextDocument(target, { preview: false });
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

    if (args.showDiff !== false) {
      const workbook = await client.getWorkbook(deploymentId, input.workbookId);
      const left = vscode.Uri.from({
        scheme: PUBLISHED_SCHEME,
        path: `/published/${deploymentId}/${input.workbookId}.dashboard.json`,
      });
      this.published.set(
        left.toString(),
        workbook.dashboardPublished ? formatDashboardFile(dashboardFromWorkbook(workbook, 'published')) : '',
      );
      this.publishedChanged.fire(left);
      await vscode.commands.executeCommand(
        'vscode.diff',
        left,
        uri,
        `Published ↔ ${uri.path.split('/').pop() ?? 'local'}`,
        { preview: true },
      );
    }

    const active = this.services.profiles.active();
    if (args.confirm !== true) {
      const production = active?.profile.production === true;
      const where = `deployment ${deploymentId}${active ? ` of profile "${active.profile.name}"` : ''}`;
      const message = production
        ? `Publish to PRODUCTION: ${where}? Viewers of the published dashboard see this version immediately.`
        : `Publish "${input.title ?? input.config?.title ?? `workbook ${input.workbookId}`}" to ${where}?`;
      const choice = await vscode.window.showWarningMessage(
        message,
        { modal: true, detail: 'The diff shows what changes against the published dashboard.' },
        production ? 'Publish to Production' : 'Publish',
      );
      if (!choice) return undefined;
    }

    const result = await client.publishDashboard(deploymentId, input.workbookId, input);
    const entry: PublishHistoryEntry = {
      time: new Date().toISOString(),
      versionNumber: result.versionNumber,
      who: active?.profile.name ?? 'unknown',
      deploymentId,
      status: String(result.status),
      publicId: result.publicId,
    };
    await this.saveRecord(uri, { deploymentId, history: [...rec.history, entry] });
    this.editor.refresh(uri);
    this.services.log.info(
      `Published workbook ${input.workbookId} to deployment ${deploymentId}: ${entry.status}, version ${entry.versionNumber}, public id ${entry.publicId}`,
    );
    void vscode.window.showInformationMessage(
      `Dashboard ${entry.status}: version ${entry.versionNumber}, public id ${entry.publicId}.`,
    );
    return result;
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
          label: `Version ${e.versionNumber}`,
          description: `${e.time} by ${e.who}`,
          detail: `deployment ${e.deploymentId}, ${e.status}, public id ${e.publicId}`,
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
    const threadId = args.threadId ?? (await askText('AI thread id'))!;
    const widgetId = args.widgetId ?? (await askText('Widget id'))!;
    const checksum =
      args.checksum ?? (arg === undefined ? await askText('Checksum (optional)', true) : undefined);
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
