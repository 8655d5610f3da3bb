// The explorer's commands. Each takes the node a menu click passes, or an arguments object (tests,
// other features), and asks with quick input only for what neither supplies. Failures propagate to
// the one catch in runCommand (log + "Show Logs"); writes on a production profile ask first.
import * as vscode from 'vscode';
import type { Services } from '../services';
import { registerCommand, COMMANDS } from '../commandRunner';
import { UserCancelled } from '../log';
import { askNotificationDraft, type NotificationDraft } from './createNotificationFlow';
import type { ExplorerProvider } from './explorerProvider';
import type { JsonDocumentProvider } from './jsonDocumentProvider';
import { displayName, plainText } from './labels';
import { REPORT_SORTS, type Item, type ReportQuery, type ReportSort } from './loaders';
import { ListNode } from './nodes/listNode';
import { LoadMoreNode } from './nodes/statusNodes';
import type { ExplorerNode } from './nodes/types';
import { askNotificationFilter } from './notificationFilterFlow';
import { buildNotificationFilter, FILTER_KEYS, type NotificationFilterArgs } from './notificationFilter';
import { vscodePrompter, type Prompter } from './prompter';
import { askRecipient, recipientRemoval, type RecipientInput } from './recipientFlow';
import {
  ancestor,
  asArgs,
  asNode,
  listFirst,
  resolveDeploymentId,
  resolveItem,
  type TargetContext,
} from './targets';
import { EXPLORER_VIEW_ID } from './ids';

export interface ExplorerCommandDeps {
  services: Services;
  provider: ExplorerProvider;
  view: vscode.TreeView<ExplorerNode>;
  json: JsonDocumentProvider;
}

export class ExplorerCommands {
  private prompterOverride: Prompter | undefined;
  readonly targets: TargetContext;

  constructor(private readonly deps: ExplorerCommandDeps) {
    this.targets = {
      client: () => deps.services.clients.platform(),
      prompter: () => this.prompter,
      selection: () => deps.view.selection[0],
    };
  }

  get prompter(): Prompter {
    return this.prompterOverride ?? vscodePrompter;
  }

  /** Tests answer the flows' questions with a scripted prompter; undefined restores quick input. */
  usePrompter(p: Prompter | undefined): void {
    this.prompterOverride = p;
  }

  register(): vscode.Disposable[] {
    const s = this.deps.services;
    const reg = (spec: { id: string; title: string }, fn: (arg?: unknown) => unknown) =>
      registerCommand(s, spec, fn as (...a: never[]) => unknown);
    return [
      reg(COMMANDS.explorerRefresh, (a) => this.refresh(a)),
      reg(COMMANDS.explorerLoadMore, (a) => this.loadMore(a)),
      reg(COMMANDS.explorerRetry, (a) => this.retry(a)),
      reg(COMMANDS.explorerOpenJson, (a) => this.openJson(a)),
      reg(COMMANDS.explorerCopyId, (a) => this.copy(a, 'id')),
      reg(COMMANDS.explorerCopyPublicId, (a) => this.copy(a, 'publicId')),
      reg(COMMANDS.explorerSearchReports, (a) => this.searchReports(a)),
      reg(COMMANDS.explorerSortReports, (a) => this.sortReports(a)),
      reg(COMMANDS.explorerFilterReports, (a) => this.filterReports(a)),
      reg(COMMANDS.explorerClearReportsQuery, (a) => this.clearReportsQuery(a)),
      reg(COMMANDS.explorerFilterNotifications, (a) => this.filterNotifications(a)),
      reg(COMMANDS.explorerClearNotificationFilter, (a) => this.clearNotificationFilter(a)),
      reg(COMMANDS.explorerDbtSync, (a) => this.dbtSync(a)),
      reg(COMMANDS.explorerDuplicateWorkbook, (a) => this.duplicateWorkbook(a)),
      reg(COMMANDS.explorerConnectReport, (a) => this.connectReport(a)),
      reg(COMMANDS.explorerCreateNotification, (a) => this.createNotification(a)),
      reg(COMMANDS.explorerAddRecipient, (a) => this.addRecipient(a)),
      reg(COMMANDS.explorerRemoveRecipient, (a) => this.removeRecipient(a)),
      reg(COMMANDS.explorerDeleteEmbedTenant, (a) => this.deleteEmbedTenant(a)),
      reg(COMMANDS.explorerShowAppConfig, () => this.showAppConfig()),
    ];
  }

  // --- browsing ---------------------------------------------------------------------------------

  refresh(arg?: unknown): void {
    this.deps.provider.refresh(asNode(arg));
  }

  async loadMore(arg?: unknown): Promise<void> {
    const node = asNode(arg);
    const list = node instanceof LoadMoreNode ? node.parent : node;
    if (!(list instanceof ListNode)) throw new Error('"Load more" needs a list of the explorer.');
    await vscode.window.withProgress({ location: { viewId: EXPLORER_VIEW_ID } }, () => list.loadMore());
  }

  async retry(arg?: unknown): Promise<void> {
    const node = asNode(arg);
    const list = node instanceof ListNode ? node : node?.parent;
    if (!(list instanceof ListNode)) throw new Error('Retry needs a list of the explorer.');
    await vscode.window.withProgress({ location: { viewId: EXPLORER_VIEW_ID } }, () => list.retry());
  }

  /** Opens the node's server object (or `{ title, value }`) as read-only JSON; returns the document. */
  async openJson(arg?: unknown): Promise<vscode.TextDocument> {
    const given = asArgs<{ title: string; value: unknown }>(arg);
    if (given.value !== undefined)
      return this.deps.json.show(`args/${given.title ?? 'value'}`, given.title ?? 'value', given.value);
    const node = asNode(arg) ?? this.deps.view.selection[0];
    if (node?.data) {
      const title = `${node.kind}-${displayName(node.data, 'name', 'title', 'email')}`;
      return this.deps.json.show(node.id, title, node.data);
    }
    const deploymentId = await resolveDeploymentId(this.targets, arg);
    const d = await (await this.targets.client()).getDeployment(deploymentId);
    return this.deps.json.show(`deployment:${deploymentId}`, `deployment-${deploymentId}`, d);
  }

  async copy(arg: unknown, field: 'id' | 'publicId'): Promise<string> {
    const node = asNode(arg) ?? this.deps.view.selection[0];
    const data = node?.data;
    // A workbook's public id is that of its published dashboard.
    const published = data?.['dashboardPublished'] as { publicId?: unknown } | null | undefined;
    const value = field === 'publicId' ? (data?.['publicId'] ?? published?.publicId) : data?.[field];
    if (value === undefined || value === null || value === '')
      throw new Error(
        field === 'id' ? 'Select an item of the explorer to copy its id.' : 'This item has no public id.',
      );
    const text = String(value);
    // Not awaited: a browser-hosted workbench may hold the clipboard write until the page has focus.
    void vscode.env.clipboard.writeText(text).then(() => {
      vscode.window.setStatusBarMessage(
        `Copied ${field === 'id' ? 'id' : 'public id'} ${plainText(text, 60)}`,
        3000,
      );
    });
    return text;
  }

  // --- reports query ---------------------------------------------------------------------------

  private async reportsList(arg: unknown): Promise<ListNode> {
    const deploymentId = await resolveDeploymentId(this.targets, arg);
    return this.listOf(deploymentId, 'reports');
  }

  /** The list node of a deployment, loading the deployments list first when it is not shown yet. */
  async listOf(
    deploymentId: number,
    kind: 'reports' | 'notifications' | 'workbooks' | 'folders' | 'environments' | 'envVars',
  ): Promise<ListNode> {
    const p = this.deps.provider;
    let dep = p.loadedDeployments().find((d) => d.deploymentId === deploymentId);
    while (!dep) {
      const list = p.roots.deployments;
      await list.getChildren();
      dep = p.loadedDeployments().find((d) => d.deploymentId === deploymentId);
      const snap = list.paging.snapshot();
      if (dep || !snap.hasMore) break;
      await list.loadMore();
    }
    if (!dep) throw new Error(`Deployment ${deploymentId} is not in this profile's deployments.`);
    return dep.list(kind);
  }

  private setReportQuery(list: ListNode, q: ReportQuery): ReportQuery {
    const clean = Object.fromEntries(
      Object.entries(q).filter(([, v]) => v !== undefined && v !== ''),
    ) as ReportQuery;
    list.setSpec({ ...list.listSpec, reportQuery: clean });
    this.deps.provider.changedRow(list);
    return clean;
  }

  async searchReports(arg?: unknown): Promise<ReportQuery> {
    const list = await this.reportsList(arg);
    const current = list.listSpec.reportQuery ?? {};
    const given = asArgs<{ search: string }>(arg).search;
    const search =
      given ??
      (await this.prompter.input({
        title: 'Search Reports',
        prompt: 'Text to search for on the server (empty clears the search).',
        value: current.search ?? '',
      }));
    return this.setReportQuery(list, { ...current, search: search.trim() });
  }

  async sortReports(arg?: unknown): Promise<ReportQuery> {
    const list = await this.reportsList(arg);
    const current = list.listSpec.reportQuery ?? {};
    let sortBy = asArgs<{ sortBy: ReportSort | '' }>(arg).sortBy;
    if (sortBy !== undefined && sortBy !== '' && !REPORT_SORTS.includes(sortBy))
      throw new Error(`Reports can be sorted by ${REPORT_SORTS.join(', ')}; not by "${sortBy}".`);
    sortBy ??= await this.prompter.pick<ReportSort | ''>('Sort Reports', [
      { label: 'Default order', value: '' },
      { label: 'name', value: 'name' },
      { label: 'createdAt', value: 'createdAt' },
      { label: 'updatedAt', value: 'updatedAt' },
      {
        label: 'lastViewedAt',
        description: 'first page only: the server cannot page this order',
        value: 'lastViewedAt',
      },
    ]);
    return this.setReportQuery(list, { ...current, sortBy: sortBy === '' ? undefined : sortBy });
  }

  async filterReports(arg?: unknown): Promise<ReportQuery> {
    const list = await this.reportsList(arg);
    const current = list.listSpec.reportQuery ?? {};
    const args = asArgs<{ folderId: number | null; externalWorkbookId: string | null }>(arg);
    if ('folderId' in args || 'externalWorkbookId' in args) {
      return this.setReportQuery(list, {
        ...current,
        ...('folderId' in args ? { folderId: args.folderId ?? undefined } : {}),
        ...('externalWorkbookId' in args ? { externalWorkbookId: args.externalWorkbookId ?? undefined } : {}),
      });
    }
    const what = await this.prompter.pick('Filter Reports', [
      { label: 'By folder', value: 'folder' as const },
      { label: 'By external workbook id', value: 'workbook' as const },
    ]);
    if (what === 'folder') {
      const folders = await (await this.targets.client()).listFolders(list.deploymentId!, { first: 200 });
      const folder = await this.prompter.pick<number | undefined>('Folder', [
        { label: 'Any folder', value: undefined },
        ...folders.items.map((f) => ({
          label: displayName(f as Item),
          description: `#${plainText((f as Item)['id'])}`,
          value: Number((f as Item)['id']),
        })),
      ]);
      return this.setReportQuery(list, { ...current, folderId: folder });
    }
    const wb = await this.prompter.input({
      title: 'Filter Reports: external workbook',
      prompt: 'The external workbook id reports are connected to (empty clears the filter).',
      value: current.externalWorkbookId ?? '',
    });
    return this.setReportQuery(list, { ...current, externalWorkbookId: wb.trim() });
  }

  async clearReportsQuery(arg?: unknown): Promise<void> {
    const node = asNode(arg);
    const args = asArgs(arg);
    const targets =
      node || args.deploymentId !== undefined
        ? [await this.reportsList(arg)]
        : this.deps.provider.loadedDeployments().map((d) => d.list('reports'));
    for (const list of targets) this.setReportQuery(list, {});
  }

  // --- notifications filter --------------------------------------------------------------------

  async filterNotifications(arg?: unknown) {
    const deploymentId = await resolveDeploymentId(this.targets, arg);
    const list = await this.listOf(deploymentId, 'notifications');
    const args = asArgs<NotificationFilterArgs>(arg);
    const hasArgs = [...FILTER_KEYS, 'dashboard', 'recipient'].some((k) => k in args);
    let filter;
    if (hasArgs) {
      const built = buildNotificationFilter(args);
      // Refused before any request: the message names the parameters in conflict.
      if (!built.ok) throw new Error(built.message);
      filter = built.value;
    } else {
      filter = await askNotificationFilter(this.prompter, list.listSpec.notificationFilter);
    }
    list.setSpec({ ...list.listSpec, notificationFilter: filter });
    this.deps.provider.changedRow(list);
    return filter;
  }

  async clearNotificationFilter(arg?: unknown): Promise<void> {
    const node = asNode(arg);
    const args = asArgs(arg);
    const lists =
      node || args.deploymentId !== undefined
        ? [await this.listOf(await resolveDeploymentId(this.targets, arg), 'notifications')]
        : this.deps.provider.loadedDeployments().map((d) => d.list('notifications'));
    for (const list of lists) {
      list.setSpec({ ...list.listSpec, notificationFilter: undefined });
      this.deps.provider.changedRow(list);
    }
  }

  // --- writes ----------------------------------------------------------------------------------

  /** Asks before a write when the active profile is marked production; throws UserCancelled if declined. */
  private async confirmWrite(what: string): Promise<void> {
    const profile = this.deps.services.profiles.active()?.profile;
    if (!profile?.production) return;
    const ok = await this.prompter.confirm(
      `${what} on the production profile "${plainText(profile.name)}"?`,
      'This profile is marked as production: the change applies to live data.',
      'Continue',
    );
    if (!ok) throw new UserCancelled();
  }

  /** Re-fetches one list of a deployment if it is shown, leaving every other list alone. */
  private refreshList(deploymentId: number, kind: 'reports' | 'workbooks' | 'notifications'): void {
    const dep = this.deps.provider.loadedDeployments().find((d) => d.deploymentId === deploymentId);
    if (dep) this.deps.provider.refresh(dep.list(kind));
  }

  async dbtSync(arg?: unknown) {
    const deploymentId = await resolveDeploymentId(this.targets, arg);
    const args = asArgs<{ branchName: string }>(arg);
    const branch =
      args.branchName ??
      (await this.prompter.input({
        title: 'Start dbt Sync',
        prompt: 'Branch to sync (empty for the deployment’s default branch).',
      }));
    await this.confirmWrite(`Start a dbt sync of deployment ${deploymentId}`);
    const client = await this.targets.client();
    const started = await client.startDbtSync(
      deploymentId,
      branch.trim() ? { branchName: branch.trim() } : {},
    );
    this.deps.services.log.info(`dbt sync ${started.syncJobId} started on deployment ${deploymentId}`);
    const job = await vscode.window.withProgress(
      {
        location: vscode.ProgressLocation.Notification,
        title: `dbt sync of deployment ${deploymentId}`,
        cancellable: true,
      },
      async (progress, token) => {
        const abort = new AbortController();
        const sub = token.onCancellationRequested(() => abort.abort());
        try {
          return await client.waitForDbtSync(deploymentId, started.syncJobId, {
            signal: abort.signal,
            onStatus: (s: { status?: string }) => progress.report({ message: plainText(s.status ?? '') }),
          });
        } finally {
          sub.dispose();
        }
      },
    );
    const status = String((job as Item)['status'] ?? '');
    if (status === 'FAILED') {
      const why = plainText((job as Item)['error'] ?? (job as Item)['message'] ?? 'no reason given');
      throw new Error(`The dbt sync ${started.syncJobId} failed: ${why}`);
    }
    void vscode.window.showInformationMessage(`The dbt sync of deployment ${deploymentId} completed.`);
    return job;
  }

  async duplicateWorkbook(arg?: unknown) {
    const { deploymentId, item } = await resolveItem(
      this.targets,
      arg,
      'workbook',
      'workbookId',
      listFirst.workbooks,
    );
    const args = asArgs<{ shared: boolean }>(arg);
    const shared =
      args.shared ??
      (await this.prompter.pick('Duplicate Workbook', [
        { label: 'From my workspace', value: false },
        { label: 'From the shared workspace', description: 'shared: true', value: true },
      ]));
    await this.confirmWrite(`Duplicate workbook ${displayName(item)}`);
    const copy = await (
      await this.targets.client()
    ).duplicateWorkbook(deploymentId, Number(item['id']), { shared });
    this.refreshList(deploymentId, 'workbooks');
    void vscode.window.showInformationMessage(`Duplicated as "${displayName(copy as Item)}".`);
    return copy;
  }

  async connectReport(arg?: unknown) {
    const { deploymentId, item } = await resolveItem(
      this.targets,
      arg,
      'report',
      'reportId',
      listFirst.reports,
    );
    const args = asArgs<{ externalWorkbookId: string; resultLocation: string; endResultCell: string }>(arg);
    const required = (what: string) => (v: string) => (v.trim() === '' ? `Enter the ${what}.` : undefined);
    const externalWorkbookId =
      args.externalWorkbookId ??
      (await this.prompter.input({
        title: 'Connect Report to Workbook (1/3)',
        prompt: 'The external workbook (spreadsheet) id.',
        validate: required('external workbook id'),
      }));
    const resultLocation =
      args.resultLocation ??
      (await this.prompter.input({
        title: 'Connect Report to Workbook (2/3)',
        prompt: 'Where the result starts, e.g. Sheet1!A1.',
        value: 'Sheet1!A1',
        validate: required('result location'),
      }));
    const endResultCell =
      args.endResultCell ??
      (await this.prompter.input({
        title: 'Connect Report to Workbook (3/3)',
        prompt: 'The last cell of the result (optional), e.g. D20.',
      }));
    await this.confirmWrite(
      `Connect report ${displayName(item)} to workbook ${plainText(externalWorkbookId)}`,
    );
    const updated = await (
      await this.targets.client()
    ).connectReportToWorkbook(deploymentId, Number(item['id']), {
      externalWorkbookId: externalWorkbookId.trim(),
      resultLocation: resultLocation.trim(),
      ...(endResultCell.trim() ? { endResultCell: endResultCell.trim() } : {}),
    });
    this.refreshList(deploymentId, 'reports');
    void vscode.window.showInformationMessage(
      `Connected "${displayName(item)}" to ${plainText(externalWorkbookId)}.`,
    );
    return updated;
  }

  async createNotification(arg?: unknown) {
    const deploymentId = await resolveDeploymentId(this.targets, arg);
    const args = asArgs<NotificationDraft>(arg);
    const draft = await askNotificationDraft(this.prompter, pickDraft(args));
    await this.confirmWrite(`Create a notification in deployment ${deploymentId}`);
    const created = await (
      await this.targets.client()
    ).createNotification(deploymentId, {
      ...draft,
      notificationEnabled: true,
    } as never);
    this.refreshList(deploymentId, 'notifications');
    void vscode.window.showInformationMessage(`Notification ${plainText((created as Item)['id'])} created.`);
    return created;
  }

  async addRecipient(arg?: unknown) {
    const { deploymentId, item, node } = await resolveItem(
      this.targets,
      arg,
      'notification',
      'notificationId',
      listFirst.notifications,
    );
    const given = asArgs<{ recipient: RecipientInput }>(arg).recipient;
    const recipient = given ?? (await askRecipient(this.prompter));
    await this.confirmWrite(`Add a recipient to notification ${plainText(item['id'])}`);
    const result = await (
      await this.targets.client()
    ).addRecipients(deploymentId, Number(item['id']), [recipient as never]);
    if (node) this.deps.provider.refresh(node);
    return result;
  }

  async removeRecipient(arg?: unknown) {
    const node = asNode(arg);
    const args = asArgs<{ recipient: RecipientInput & { embedUserId?: string | number } }>(arg);
    let deploymentId: number;
    let notificationId: number;
    let recipient: Item;
    let notificationNode: ExplorerNode | undefined;
    if (node?.kind === 'recipient' && node.data) {
      notificationNode = ancestor(node, 'notification');
      deploymentId = node.deploymentId!;
      notificationId = Number(notificationNode?.data?.['id']);
      recipient = node.data;
    } else {
      const target = await resolveItem(
        this.targets,
        arg,
        'notification',
        'notificationId',
        listFirst.notifications,
      );
      deploymentId = target.deploymentId;
      notificationId = Number(target.item['id']);
      notificationNode = target.node;
      if (args.recipient) recipient = args.recipient as Item;
      else {
        const client = await this.targets.client();
        const r = await client.listRecipients(deploymentId, notificationId);
        const items = (Array.isArray(r) ? r : r.items) as Item[];
        if (items.length === 0) throw new Error(`Notification ${notificationId} has no recipients.`);
        recipient = await this.prompter.pick(
          'Remove Recipient',
          items.map((i) => ({
            label: plainText(
              i['email'] ?? i['username'] ?? i['externalId'] ?? i['channelName'] ?? i['userId'],
            ),
            description: plainText(i['type']),
            value: i,
          })),
        );
      }
    }
    await this.confirmWrite(`Remove a recipient from notification ${notificationId}`);
    const removal = recipientRemoval(recipient);
    await (await this.targets.client()).removeRecipients(deploymentId, notificationId, [removal as never]);
    if (notificationNode) this.deps.provider.refresh(notificationNode);
    return removal;
  }

  async deleteEmbedTenant(arg?: unknown): Promise<boolean> {
    const args = typeof arg === 'string' ? { name: arg } : asArgs<{ name: string; confirmed: boolean }>(arg);
    const name =
      args.name ??
      (await this.prompter.input({
        title: 'Delete Embed Tenant',
        prompt: 'The embed tenant name, exactly (lowercase).',
        validate: (v) => (v.trim() === '' ? 'Enter the tenant name.' : undefined),
      }));
    // Always modal, naming the tenant: this deletes its users, groups and content.
    const ok = await this.prompter.confirm(
      `Delete the embed tenant "${plainText(name)}"?`,
      'This deletes its users, groups, memberships, attributes, policies and content. It cannot be undone.',
      'Delete',
    );
    if (!ok) throw new UserCancelled();
    await this.confirmWrite(`Delete the embed tenant "${plainText(name)}"`);
    await (await this.targets.client()).deleteEmbedTenant(name.trim());
    void vscode.window.showInformationMessage(`Embed tenant "${plainText(name)}" deleted.`);
    return true;
  }

  async showAppConfig(): Promise<vscode.TextDocument> {
    const config = await (await this.targets.client()).getAppConfig();
    return this.deps.json.show('app-config', 'app-config', config);
  }
}

function pickDraft(args: Partial<NotificationDraft>): NotificationDraft {
  const keys: (keyof NotificationDraft)[] = [
    'dashboardId',
    'dashboardPublicId',
    'scheduleType',
    'hour',
    'minute',
    'dayOfWeek',
    'dayOfMonth',
    'customCron',
    'timezone',
    'notificationFormat',
    'filters',
    'timeGrains',
  ];
  const out: NotificationDraft = {};
  for (const k of keys) if (args[k] !== undefined) (out as Record<string, unknown>)[k] = args[k];
  return out;
}
