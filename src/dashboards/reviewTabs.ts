// The open publish reviews: each is a diff tab (published ↔ to publish) whose title bar carries
// "Publish These Changes" and "Cancel" (package.json, editor/title), so the decision stays on
// screen until it is taken and is bound to that review. A review remembers the exact text and
// input it was made from, the published version it compared against and where it would publish;
// it ends when it is published, cancelled, closed by the user or replaced by a newer review of the
// same file, and its tab is closed then.
import * as vscode from 'vscode';
import type { PublishDashboardInput } from '../api/schemas/platform';
import { deploymentLabel } from './dashboardPrompts';
import type { PublishReview } from './publishReview';

export const REVIEW_SCHEME = 'dashboard-platform-published';

export type ReviewState = 'open' | 'published' | 'cancelled' | 'replaced' | 'stale';

export interface ReviewRecord {
  readonly id: string;
  /** The dashboard file reviewed. */
  readonly file: vscode.Uri;
  readonly deploymentId: number;
  readonly deploymentName?: string;
  readonly workbookName: string;
  /** The file's text when the review was made: a publish is refused once it differs. */
  readonly text: string;
  /** What the review shows on the right, and what "Publish These Changes" sends. */
  readonly input: PublishDashboardInput;
  /** The published version compared against (undefined: nothing was published). */
  readonly publishedVersion: number | undefined;
  readonly review: PublishReview;
  readonly production: boolean;
  readonly left: vscode.Uri;
  readonly right: vscode.Uri;
  state: ReviewState;
}

/** What a review is opened with (the rest is filled in here). */
export type NewReview = Omit<ReviewRecord, 'id' | 'left' | 'right' | 'state'>;

/** Where a review would publish, as its tab and the dashboard editor name it. */
export function reviewWhere(r: Pick<ReviewRecord, 'production' | 'deploymentId' | 'deploymentName'>): string {
  return `${r.production ? 'PRODUCTION ' : ''}${deploymentLabel(r.deploymentId, r.deploymentName)}`;
}

/** The text shown by a review tab whose review is gone (a reload, say): no diff, a note. */
const ENDED =
  '// This review has ended (it was published, cancelled or the window was reloaded).\n' +
  '// Close this tab and choose "Publish Dashboard…" on the file to review it again.\n';

export class ReviewTabs implements vscode.Disposable {
  private readonly byId = new Map<string, ReviewRecord>();
  private readonly content = new Map<string, string>();
  private readonly changed = new vscode.EventEmitter<vscode.Uri>();
  private readonly disposables: vscode.Disposable[];
  private next = 1;
  /** Reviews whose tab is still opening: known (its title-bar action may be clicked) but tabless. */
  private readonly opening = new Set<string>();
  /** Fires when a review ends (tests and the dashboard editor's banner). */
  private readonly ended = new vscode.EventEmitter<ReviewRecord>();
  readonly onDidEnd = this.ended.event;

  constructor() {
    this.disposables = [
      this.changed,
      this.ended,
      vscode.workspace.registerTextDocumentContentProvider(REVIEW_SCHEME, {
        onDidChange: this.changed.event,
        provideTextDocumentContent: (uri) => this.content.get(uri.toString()) ?? ENDED,
      }),
      // Closing the review tab is cancelling it: nothing may publish that review afterwards.
      vscode.window.tabGroups.onDidChangeTabs((e) => {
        if (e.closed.length === 0) return;
        for (const r of this.open()) {
          if (!this.opening.has(r.id) && this.tabsOf(r).length === 0) void this.end(r, 'cancelled');
        }
      }),
    ];
  }

  /** The reviews still open, oldest first. */
  open(): ReviewRecord[] {
    return [...this.byId.values()].filter((r) => r.state === 'open');
  }

  /** The review a URI (either side of its diff) or an id names, open or ended. */
  find(ref: vscode.Uri | string): ReviewRecord | undefined {
    if (typeof ref === 'string') return this.byId.get(ref);
    if (ref.scheme !== REVIEW_SCHEME) return undefined;
    return this.byId.get(ref.path.split('/')[1] ?? '');
  }

  /** The file a review URI was made for, also when the review itself is gone (after a reload). */
  fileOf(uri: vscode.Uri): vscode.Uri | undefined {
    if (uri.scheme !== REVIEW_SCHEME || !uri.query) return undefined;
    try {
      return vscode.Uri.parse(uri.query, true);
    } catch {
      return undefined;
    }
  }

  /** The review in the active tab, if the active tab is one. */
  active(): vscode.Uri | undefined {
    const input = vscode.window.tabGroups.activeTabGroup.activeTab?.input;
    if (input instanceof vscode.TabInputTextDiff && input.modified.scheme === REVIEW_SCHEME) {
      return input.modified;
    }
    return undefined;
  }

  /**
   * Opens a review in a diff tab (pinned, so opening another file does not replace it). Older
   * reviews of the same file are closed: only the newest can be published.
   */
  async show(data: NewReview): Promise<ReviewRecord> {
    for (const old of this.open()) {
      if (old.file.toString() === data.file.toString()) await this.end(old, 'replaced');
    }
    const id = `r${this.next++}-${Date.now().toString(36)}`;
    const name = data.file.path.split('/').pop() ?? 'dashboard.json';
    const stem = name.replace(/\.dashboard\.json$/i, '');
    // The right side's name says whether there is anything to publish: the title bar's Publish
    // These Changes shows only on "(to publish)" (package.json matches resourceFilename, which
    // is the plain name on every platform). The query names the file, for a tab left over
    // from before a reload.
    const uri = (part: string) =>
      vscode.Uri.from({
        scheme: REVIEW_SCHEME,
        path: `/${id}/${stem} (${part}).dashboard.json`,
        query: data.file.toString(),
      });
    const record: ReviewRecord = {
      ...data,
      id,
      left: uri('published'),
      right: uri(data.review.changes.length > 0 ? 'to publish' : 'no changes'),
      state: 'open',
    };
    this.content.set(record.left.toString(), data.review.left);
    this.content.set(record.right.toString(), data.review.right);
    this.changed.fire(record.left);
    this.changed.fire(record.right);
    const where = reviewWhere(data);
    // Known before its tab is: the tab (and its Publish These Changes) can show before the diff
    // command returns. The closed-tab check leaves it alone until then.
    this.byId.set(id, record);
    this.opening.add(id);
    try {
      await vscode.commands.executeCommand(
        'vscode.diff',
        record.left,
        record.right,
        `Review: ${name} → ${where} (${data.review.summary})`,
        { preview: false },
      );
    } catch (e) {
      await this.end(record, 'cancelled');
      throw e;
    } finally {
      this.opening.delete(id);
    }
    return record;
  }

  private tabsOf(r: ReviewRecord): vscode.Tab[] {
    return vscode.window.tabGroups.all
      .flatMap((g) => g.tabs)
      .filter(
        (t) =>
          t.input instanceof vscode.TabInputTextDiff &&
          (t.input.modified.toString() === r.right.toString() ||
            t.input.original.toString() === r.left.toString()),
      );
  }

  /** Ends a review: its state is set first (so it can never be published again), then its tab closes. */
  async end(r: ReviewRecord, state: Exclude<ReviewState, 'open'>): Promise<void> {
    if (r.state !== 'open') return;
    r.state = state;
    this.ended.fire(r);
    const tabs = this.tabsOf(r);
    if (tabs.length > 0) await vscode.window.tabGroups.close(tabs, true);
    this.content.delete(r.left.toString());
    this.content.delete(r.right.toString());
  }

  dispose(): void {
    for (const d of this.disposables) d.dispose();
  }
}
