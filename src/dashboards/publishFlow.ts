// Publishing a dashboard file, from the file to the server: prepared (saved, validated, its
// deployment found), reviewed in a diff tab whose title bar holds the decision (reviewTabs.ts, the
// comparison in publishReview.ts), then exactly what was reviewed is sent, if the file and the
// published dashboard are still what the review compared; otherwise a new review replaces it.
// Every publish is reported and recorded in the file's history, and the fields the server filled
// in are learned per profile so later reviews do not show them as changes.
import * as vscode from 'vscode';
import { COMMANDS } from '../commands';
import { withCheckCommand } from '../api/http';
import { publishedDashboardOf } from '../api/platform/workbookShapes';
import type { PublishDashboardInput, PublishedDashboard } from '../api/schemas/platform';
import type { Services } from '../services';
import type { PublishArgs, PublishHistoryEntry } from './dashboardArgs';
import { problemDiagnostics } from './dashboardEditor';
import { dashboardFromWorkbook, parseDashboardFile, type DashboardProblem } from './dashboardFile';
import {
  activeDashboardFile,
  deploymentLabel,
  fileName,
  objectArg,
  pickDeployment,
  saveBeforeSending,
  toUri,
  withCancelProgress,
} from './dashboardPrompts';
import type { DashboardRecords } from './dashboardRecords';
import {
  checkReview,
  DOCUMENTED_SERVER_FILLS,
  learnServerFills,
  publishReview,
  type ServerFills,
} from './publishReview';
import { REVIEW_SCHEME, ReviewTabs, type ReviewRecord } from './reviewTabs';

/** The server fills learned per profile (see publishReview.ts's ServerFills). */
const FILLS_KEY = 'dashboardPlatform.dashboards.serverFills';

/** A dashboard file ready to send: its text, what it sends, and where. */
export interface PreparedFile {
  text: string;
  input: PublishDashboardInput;
  deploymentId: number;
  deploymentName?: string;
}

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

function describe(p: DashboardProblem): string {
  return `${p.message} (line ${p.line + 1}, column ${p.column + 1})`;
}

function noReview(): never {
  throw new Error('No publish review is open. Choose "Publish Dashboard…" on a dashboard file first.');
}

export class PublishFlow implements vscode.Disposable {
  /** The open publish reviews (their diff tabs). */
  readonly reviews = new ReviewTabs();
  /** The last publish review shown (tests read it). */
  lastReview: ReviewRecord | undefined;

  constructor(
    private readonly services: Services,
    private readonly records: DashboardRecords,
    /** Problems found at publish time, shown on the file. */
    private readonly diagnostics: vscode.DiagnosticCollection,
    /** Tells the dashboard editor of a file that its review or history changed. */
    private readonly refresh: (uri: vscode.Uri) => void,
  ) {}

  /** The dashboard file an argument names (a review of a file names that file). */
  fileOf(arg: unknown): vscode.Uri {
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

  /** "Publish These Changes" (the review's title bar): the review a URI or `{reviewId}` names, else the active one. */
  publishTheseChanges(arg?: unknown): Promise<PublishedDashboard | undefined> {
    return this.publishReviewed(
      arg instanceof vscode.Uri
        ? arg
        : (objectArg<PublishArgs>(arg).reviewId ?? this.reviews.active() ?? noReview()),
    );
  }

  /** The file saved, parsed and validated, and where it publishes; undefined after reporting its problems. */
  async prepare(
    uri: vscode.Uri,
    deploymentArg: number | undefined,
    refused = 'Dashboard not published',
    where = 'Deployment to publish to',
  ): Promise<PreparedFile | undefined> {
    const doc = await vscode.workspace.openTextDocument(uri);
    await saveBeforeSending(
      doc,
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
      (await this.records.deploymentOf(uri, parsed.input.workbookId).catch(() => undefined)) ??
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
  private async review(uri: vscode.Uri, p: PreparedFile): Promise<ReviewRecord> {
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
    this.refresh(uri);
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
        `That review of ${fileName(file)} has ended; here is a new one. Check it, then choose Publish These Changes.`,
      );
      return this.publish({ uri: file, ...(r ? { deploymentId: r.deploymentId } : {}) });
    }
    const where = deploymentLabel(r.deploymentId, r.deploymentName);
    if (r.state === 'published') {
      void vscode.window.showInformationMessage(`This review of ${fileName(r.file)} was published already.`);
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
          ? `${fileName(r.file)} ${check.detail}`
          : `The published dashboard changed since this review (${check.detail})`,
      );
    }
    if (check.kind === 'nothing') {
      void vscode.window.showInformationMessage(
        `Nothing to publish: ${fileName(r.file)} matches what is published on ${where}.`,
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
      result = await withCancelProgress('Publishing the dashboard…', (signal) =>
        client.publishDashboard(deploymentId, input.workbookId, input, signal),
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
    await this.records.addPublish(uri, entry);
    await this.learnFills(input, result).catch(() => undefined);
    this.refresh(uri);
    this.services.log.info(
      `Published workbook ${input.workbookId} to ${deploymentLabel(deploymentId, deploymentName)}: ${describePublish(entry)}`,
    );
    void vscode.window.showInformationMessage(`Dashboard ${describePublish(entry)}.`);
    return result;
  }

  dispose(): void {
    this.reviews.dispose();
  }
}
