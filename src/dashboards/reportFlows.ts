// Reports as code: "Push Report" sends a `*.report.json` to a deployment (create or update by its
// publicId, said created or updated as the answer tells) and "Pull Report to File…" writes a
// report into one. Before either side is overwritten the two are shown in a diff and a modal
// names what changes; nothing is sent or written until the user decides. The file format is in
// reportFile.ts.
import { randomBytes } from 'node:crypto';
import * as vscode from 'vscode';
import { UPSERT_REPORT_FIELDS } from '../api/platform/reports';
import type { PlatformClient } from '../api/platformClient';
import type { Report } from '../api/platform/workspace';
import type { Services } from '../services';
import { fileName, objectArg, pickDeployment, toUri, withCancelProgress } from './dashboardPrompts';
import {
  conflictError,
  formatReportFile,
  mintPublicId,
  parseReportFile,
  pullChanges,
  pushChanges,
  REPORT_FILE_SUFFIX,
  reportFileFromServer,
  reportFileName,
  upsertOutcome,
} from './reportFile';
import { pickReport } from './reportPicker';

export interface PushReportArgs {
  uri?: string | vscode.Uri;
  deploymentId?: number;
  /** Skips the overwrite question (automation and tests). */
  confirm?: boolean;
}

export interface PullReportArgs {
  deploymentId?: number;
  reportId?: number;
  /** Where to write (a path or URI); otherwise a save dialog asks. */
  target?: string | vscode.Uri;
  confirm?: boolean;
}

export interface PushResult {
  outcome: 'created' | 'updated' | 'unchanged';
  report: Report;
}

const FILES_KEY = 'dashboardPlatform.reports.files';
const COMPARE_SCHEME = 'dashboard-platform-report-compare';
const PUSH = 'Push Report';
const OVERWRITE = 'Overwrite File';
/** Pages of reports read while looking for a public id, at most (100 reports a page). */
const MAX_PAGES = 50;

export class ReportFlows implements vscode.Disposable {
  /** The texts the compare tabs show, by URI. */
  private readonly texts = new Map<string, string>();
  private readonly provider: vscode.Disposable;
  /** The last compare tab opened (tests read it). */
  lastCompare: { left: vscode.Uri; right: vscode.Uri; changes: string[] } | undefined;

  constructor(
    private readonly services: Services,
    /** Saves a dirty document first (the dashboards' save-first rule). */
    private readonly saveFirst: (doc: vscode.TextDocument) => Promise<void>,
  ) {
    this.provider = vscode.workspace.registerTextDocumentContentProvider(COMPARE_SCHEME, {
      provideTextDocumentContent: (uri) => this.texts.get(uri.toString()) ?? '',
    });
  }

  private remembered(uri: vscode.Uri): number | undefined {
    return this.services.context.workspaceState.get<Record<string, number>>(FILES_KEY, {})[uri.toString()];
  }

  private async remember(uri: vscode.Uri, deploymentId: number): Promise<void> {
    const all = { ...this.services.context.workspaceState.get<Record<string, number>>(FILES_KEY, {}) };
    all[uri.toString()] = deploymentId;
    await this.services.context.workspaceState.update(FILES_KEY, all);
  }

  private async where(client: PlatformClient, deploymentId: number): Promise<string> {
    const d = await client.getDeployment(deploymentId).catch(() => undefined);
    return typeof d?.name === 'string' ? `"${d.name}"` : `deployment ${deploymentId}`;
  }

  /** The report holding `publicId` in a deployment: searched by name first, then every page. */
  async findByPublicId(
    client: PlatformClient,
    deploymentId: number,
    publicId: string,
    name?: string,
  ): Promise<Report | undefined> {
    if (name?.trim()) {
      const hit = (await client.listReports(deploymentId, { first: 100, search: name.trim() })).items.find(
        (r) => r.publicId === publicId,
      );
      if (hit) return client.getReport(deploymentId, hit.id);
    }
    let after: string | undefined;
    for (let i = 0; i < MAX_PAGES; i++) {
      const page = await client.listReports(deploymentId, { first: 100, ...(after ? { after } : {}) });
      const hit = page.items.find((r) => r.publicId === publicId);
      if (hit) return client.getReport(deploymentId, hit.id);
      const next = page.pageInfo?.hasNextPage ? (page.pageInfo.endCursor ?? undefined) : undefined;
      if (!next || next === after) return undefined;
      after = next;
    }
    return undefined;
  }

  /** Opens a diff of two texts (or of a text and a file) and keeps it open while the user decides. */
  private async compare(
    left: { uri?: vscode.Uri; text?: string; name: string },
    right: { uri?: vscode.Uri; text?: string; name: string },
    title: string,
    changes: string[],
  ): Promise<void> {
    const virtual = (side: { text?: string; name: string }, n: number) => {
      const uri = vscode.Uri.from({
        scheme: COMPARE_SCHEME,
        path: `/${n}/${side.name}`,
        query: String(Date.now()),
      });
      this.texts.set(uri.toString(), side.text ?? '');
      return uri;
    };
    const l = left.uri ?? virtual(left, 1);
    const r = right.uri ?? virtual(right, 2);
    this.lastCompare = { left: l, right: r, changes };
    await vscode.commands.executeCommand('vscode.diff', l, r, title, { preview: true });
  }

  /** The report file a command is about: its argument, else the active editor's. */
  private fileOf(arg: unknown): vscode.Uri {
    const u = arg instanceof vscode.Uri ? arg : objectArg<PushReportArgs>(arg).uri;
    const uri = u !== undefined ? toUri(u) : vscode.window.activeTextEditor?.document.uri;
    if (uri?.path.endsWith(REPORT_FILE_SUFFIX)) return uri;
    throw new Error(`Open a *${REPORT_FILE_SUFFIX} file first (Pull Report to File… makes one).`);
  }

  /** "Push Report": the file to a deployment (created, or updated after a diff and a decision). */
  async push(arg?: unknown): Promise<PushResult | undefined> {
    const args = objectArg<PushReportArgs>(arg);
    const uri = this.fileOf(arg);
    let doc = await vscode.workspace.openTextDocument(uri);
    await this.saveFirst(doc);
    let parsed = parseReportFile(doc.getText());
    if (!parsed.ok) throw new Error(`Report not pushed: ${fileName(uri)}: ${parsed.message}`);
    if (parsed.file.publicId === undefined) {
      // The document asks for a client-minted id; it goes into the file so the next push updates.
      const add = 'Add a publicId and Push';
      const go =
        args.confirm === true
          ? add
          : await vscode.window.showWarningMessage(
              `${fileName(uri)} has no publicId, the report's identity for pushes.`,
              {
                modal: true,
                detail:
                  'Push mints one (12 letters or digits), writes it into the file, and creates the report with it; later pushes of this file update that report.',
              },
              add,
            );
      if (go !== add) return undefined;
      const text = formatReportFile({ publicId: mintPublicId(randomBytes), ...parsed.file.fields });
      const edit = new vscode.WorkspaceEdit();
      edit.replace(uri, new vscode.Range(doc.positionAt(0), doc.positionAt(doc.getText().length)), text);
      if (!(await vscode.workspace.applyEdit(edit))) throw new Error('VS Code refused the edit of the file.');
      doc = await vscode.workspace.openTextDocument(uri);
      await this.saveFirst(doc);
      parsed = parseReportFile(doc.getText());
      if (!parsed.ok) throw new Error(`Report not pushed: ${parsed.message}`);
    }
    const file = parsed.file;
    const publicId = file.publicId!;
    const deploymentId =
      args.deploymentId ??
      this.remembered(uri) ??
      (await pickDeployment(this.services, 'Deployment to push the report to'));
    const client = await this.services.clients.platform();
    const where = await this.where(client, deploymentId);
    const name = typeof file.body.name === 'string' ? file.body.name : undefined;
    const before = await this.findByPublicId(client, deploymentId, publicId, name);
    if (before) {
      const changes = pushChanges(file.body, before as Record<string, unknown>);
      if (changes.length === 0) {
        void vscode.window.showInformationMessage(
          `Nothing to push: the report "${before.name}" on ${where} already matches ${fileName(uri)}.`,
        );
        return { outcome: 'unchanged', report: before };
      }
      if (args.confirm !== true) {
        const server = formatReportFile(reportFileFromServer(before as Record<string, unknown>, file.fields));
        await this.compare(
          { text: server, name: `${publicId} on server${REPORT_FILE_SUFFIX}` },
          { uri, name: fileName(uri) },
          `"${before.name}" on ${where} ↔ ${fileName(uri)}`,
          changes,
        );
        const go = await vscode.window.showWarningMessage(
          `Overwrite the report "${before.name}" on ${where} with ${fileName(uri)}?`,
          {
            modal: true,
            detail: `Changes: ${changes.join(', ')} (the diff is open). Everyone who uses the report sees them.`,
          },
          PUSH,
        );
        if (go !== PUSH) return undefined;
      }
    }
    let answer: Report;
    try {
      answer = await withCancelProgress(`Pushing ${fileName(uri)}…`, (signal) =>
        client.upsertReportByPublicId(deploymentId, publicId, file.body, signal),
      );
    } catch (e) {
      throw conflictError(e, publicId) ?? e;
    }
    await this.remember(uri, deploymentId);
    const outcome = upsertOutcome(before, answer);
    const unsent = file.unknown.length ? ` Not sent (not report fields): ${file.unknown.join(', ')}.` : '';
    const said = {
      created: `Report "${answer.name}" created on ${where} (publicId ${publicId}).`,
      updated: `Report "${answer.name}" updated on ${where}.`,
      unchanged: `Report "${answer.name}" on ${where} was already as the file says.`,
    }[outcome];
    this.services.log.info(`Pushed ${uri.fsPath} to ${where}: ${outcome} (report ${answer.id}).`);
    void vscode.window.showInformationMessage(`${said}${unsent}`);
    return { outcome, report: answer };
  }

  /** "Pull Report to File…": a report (picked by name, or the tree's) into a report file. */
  async pull(arg?: unknown): Promise<vscode.Uri | undefined> {
    const args = objectArg<PullReportArgs>(arg);
    const node = arg as { kind?: unknown; deploymentId?: unknown; data?: { id?: unknown } } | undefined;
    const fromNode =
      node?.kind === 'report' && typeof node.deploymentId === 'number' && typeof node.data?.id === 'number'
        ? { deploymentId: node.deploymentId, reportId: node.data.id }
        : undefined;
    const deploymentId =
      fromNode?.deploymentId ??
      args.deploymentId ??
      (await pickDeployment(this.services, 'Deployment to pull the report from'));
    const reportId =
      fromNode?.reportId ??
      args.reportId ??
      (await pickReport(this.services, deploymentId, { title: 'Report to pull into a file' }))?.id;
    if (reportId === undefined) return undefined;
    const client = await this.services.clients.platform();
    const report = await client.getReport(deploymentId, reportId);
    const where = await this.where(client, deploymentId);
    let target = args.target !== undefined ? toUri(args.target) : undefined;
    if (!target) {
      const folder = vscode.workspace.workspaceFolders?.[0]?.uri;
      target = await vscode.window.showSaveDialog({
        title: `Save the report "${report.name}" as a file`,
        saveLabel: 'Save Report',
        filters: { 'Report JSON': ['json'] },
        ...(folder ? { defaultUri: vscode.Uri.joinPath(folder, reportFileName(report.name)) } : {}),
      });
      if (!target) return undefined;
    }
    if (!target.path.endsWith(REPORT_FILE_SUFFIX))
      target = target.with({ path: `${target.path.replace(/\.json$/i, '')}${REPORT_FILE_SUFFIX}` });
    const open = vscode.workspace.textDocuments.find((d) => d.uri.toString() === target.toString());
    if (open?.isDirty)
      throw new Error(`${fileName(target)} has unsaved changes: save or revert them, then pull again.`);
    const current = await vscode.workspace.fs.readFile(target).then(
      (b) => new TextDecoder().decode(b),
      () => undefined,
    );
    let existing: Record<string, unknown> = {};
    if (current !== undefined) {
      const parsed = parseReportFile(current);
      // An unreadable file is reported, never replaced.
      if (!parsed.ok)
        throw new Error(`Report not pulled: ${fileName(target)} was left as it is: ${parsed.message}`);
      existing = parsed.file.fields;
    }
    const next = reportFileFromServer(report as Record<string, unknown>, existing);
    const text = formatReportFile(next);
    if (current !== undefined) {
      const changes = pullChanges(existing, next);
      if (changes.length === 0) {
        void vscode.window.showInformationMessage(
          `${fileName(target)} already matches "${report.name}" on ${where}.`,
        );
        await vscode.window.showTextDocument(target, { preview: false });
        return target;
      }
      if (args.confirm !== true) {
        await this.compare(
          { uri: target, name: fileName(target) },
          { text, name: `${report.name} from server${REPORT_FILE_SUFFIX}` },
          `${fileName(target)} ↔ "${report.name}" on ${where}`,
          changes,
        );
        const kept = parseReportFile(current).ok
          ? Object.keys(existing).filter((k) => !UPSERT_REPORT_FIELDS.includes(k))
          : [];
        const go = await vscode.window.showWarningMessage(
          `Overwrite ${fileName(target)} with the report "${report.name}" from ${where}?`,
          {
            modal: true,
            detail: `Changes: ${changes.join(', ')} (the diff is open).${kept.length ? ` Kept as they are (not report fields): ${kept.join(', ')}.` : ''}`,
          },
          OVERWRITE,
        );
        if (go !== OVERWRITE) return undefined;
      }
    }
    await vscode.workspace.fs.writeFile(target, new TextEncoder().encode(text));
    await this.remember(target, deploymentId);
    const doc = await vscode.workspace.openTextDocument(target);
    await vscode.window.showTextDocument(
      doc.languageId === 'json' ? doc : await vscode.languages.setTextDocumentLanguage(doc, 'json'),
      { preview: false },
    );
    this.services.log.info(`Pulled report ${report.id} (${where}) into ${target.fsPath}`);
    void vscode.window.showInformationMessage(
      `Report "${report.name}" pulled into ${fileName(target)}. Push Report sends your edits back.`,
    );
    return target;
  }

  dispose(): void {
    this.provider.dispose();
  }
}
