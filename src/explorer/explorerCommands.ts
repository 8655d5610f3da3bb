// The explorer's commands. Each takes the node a menu click passes, or an arguments object (tests,
// other features), and asks with quick input only for what neither supplies. Failures propagate to
// the one catch in runCommand (log + "Show Logs"). The write actions are in explorerActions.ts.
import * as vscode from 'vscode';
import { publishedDashboardOf } from '../api/platform/workbookShapes';
import type { Services } from '../services';
import { registerCommand, COMMANDS } from '../commandRunner';
import type { ExplorerProvider } from './explorerProvider';
import type { JsonDocumentProvider } from './jsonDocumentProvider';
import type { ReportDocuments } from '../workspace/reportDocuments';
import { displayName, plainText } from './labels';
import { REPORT_SORTS, type Item, type ReportQuery, type ReportSort } from './loaders';
import type { DeploymentListKind } from './nodes/deploymentNode';
import { ListNode } from './nodes/listNode';
import { LoadMoreNode } from './nodes/statusNodes';
import type { ExplorerNode } from './nodes/types';
import { askNotificationFilter } from '../notifications/notificationFilterFlow';
import {
  buildNotificationFilter,
  describeFilter,
  FILTER_KEYS,
  isEmptyFilter,
  type NotificationFilterArgs,
} from './notificationFilter';
import { dashboardName, resolveDashboardNames } from './notifications/dashboardNames';
import type { Prompter } from '../ui/prompter';
import { vscodePrompter } from '../ui/vscodePrompter';
import { asArgs, asNode, resolveDeploymentId, type TargetContext } from './targets';
import { sortText } from './reportQuery';
import { EXPLORER_VIEW_ID } from './ids';
import { ExplorerActions } from './explorerActions';
import { registerWorkspaceCommands, type WorkspaceCommands } from '../workspace/workspaceFeature';
import { DeployOps } from '../deployments/deploymentsFeature';
import { NotificationActions } from '../notifications/notificationActions';
import { dashboardChoices, userChoices } from '../ui/pickerSources';
import { registerAdminCommands, type AdminCommands } from '../admin/adminFeature';

/** The scripted prompter tests answer flows with (here so it loads with the commands). */
export { ScriptedPrompter } from '../ui/prompter';

export interface ExplorerCommandDeps {
  services: Services;
  provider: ExplorerProvider;
  view: vscode.TreeView<ExplorerNode>;
  json: JsonDocumentProvider;
  /** The report preview and draft documents (reportDocuments.ts). */
  reports: ReportDocuments;
}

export class ExplorerCommands {
  private prompterOverride: Prompter | undefined;
  readonly targets: TargetContext;
  /** The write actions (explorerActions.ts). */
  readonly actions: ExplorerActions;
  /** The workspace's actions (src/explorer/workspace/). */
  workspace: WorkspaceCommands | undefined;
  /** dbt sync, exports, env variables, health and environment tokens (deployment/). */
  readonly deployOps: DeployOps;
  /** Administration (admin/adminCommands.ts), set by register(). */
  admin: AdminCommands | undefined;

  constructor(private readonly deps: ExplorerCommandDeps) {
    this.targets = {
      client: () => deps.services.clients.platform(),
      prompter: () => this.prompter,
      selection: () => deps.view.selection[0],
    };
    this.actions = new ExplorerActions(deps, this.targets);
    this.deployOps = new DeployOps(deps, this.targets, this.actions);
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
      reg(COMMANDS.explorerDuplicateWorkbook, (a) => this.actions.duplicateWorkbook(a)),
      reg(COMMANDS.explorerConnectReport, (a) => this.actions.connectReport(a)),
      reg(COMMANDS.explorerCreateNotification, (a) => this.actions.createNotification(a)),
      reg(COMMANDS.explorerAddRecipient, (a) => this.actions.addRecipient(a)),
      reg(COMMANDS.explorerRemoveRecipient, (a) => this.actions.removeRecipient(a)),
      reg(COMMANDS.explorerDeleteEmbedTenant, (a) => this.actions.deleteEmbedTenant(a)),
      reg(COMMANDS.explorerShowAppConfig, () => this.showAppConfig()),
      ...registerWorkspaceCommands(this, this.deps),
      ...this.deployOps.register(),
      // polish
      ...new NotificationActions(this.deps, this.targets, (w) => this.actions.confirmWrite(w)).register(reg),
      ...registerAdminCommands(this.deps, this.targets, reg, (a) => (this.admin = a)),
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
    const published = data ? publishedDashboardOf(data) : undefined;
    const value = field === 'publicId' ? (data?.['publicId'] ?? published?.['publicId']) : data?.[field];
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
  async listOf(deploymentId: number, kind: DeploymentListKind): Promise<ListNode> {
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
    const args = asArgs<{ sortBy: ReportSort | ''; sortDirection: 'ASC' | 'DESC' }>(arg);
    let sortBy = args.sortBy;
    if (sortBy !== undefined && sortBy !== '' && !REPORT_SORTS.includes(sortBy))
      throw new Error(`Reports can be sorted by ${REPORT_SORTS.join(', ')}; not by "${sortBy}".`);
    let sortDirection = args.sortDirection;
    if (sortBy === undefined) {
      type Sort = { sortBy: ReportSort | ''; sortDirection?: 'ASC' | 'DESC' };
      const choice = (by: ReportSort, dir: 'ASC' | 'DESC', description?: string) => ({
        label: sortText(by, dir).replace(/^./, (c) => c.toUpperCase()),
        ...(description ? { description } : {}),
        value: { sortBy: by, sortDirection: dir } as Sort,
      });
      const picked = await this.prompter.pick<Sort>(
        'Sort Reports',
        [
          { label: 'Default order', description: 'as the platform lists them', value: { sortBy: '' } },
          choice('name', 'ASC'),
          choice('name', 'DESC'),
          choice('updatedAt', 'DESC'),
          choice('updatedAt', 'ASC'),
          choice('createdAt', 'DESC'),
          choice('createdAt', 'ASC'),
          choice('lastViewedAt', 'DESC', 'first page only: the platform cannot page this order'),
        ],
        {
          placeHolder: 'How to order the reports (on the server)',
          active: (v) => v.sortBy === (current.sortBy ?? '') && v.sortDirection === current.sortDirection,
        },
      );
      sortBy = picked.sortBy;
      sortDirection = picked.sortDirection;
    }
    return this.setReportQuery(list, {
      ...current,
      sortBy: sortBy === '' ? undefined : sortBy,
      sortDirection: sortBy === '' ? undefined : sortDirection,
    });
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
      const client = await this.targets.client();
      filter = await askNotificationFilter(this.prompter, list.listSpec.notificationFilter, {
        dashboards: () => dashboardChoices(client, deploymentId),
        users: () => userChoices(client),
      });
    }
    // The row and the view description name the dashboard, not its id.
    let text: string | undefined;
    if (!isEmptyFilter(filter)) {
      const client = await this.targets.client();
      const id = filter.dashboardId;
      let name: string | undefined;
      if (id !== undefined) {
        await resolveDashboardNames(client, deploymentId, [id]).catch(() => undefined);
        name = dashboardName(client, deploymentId, id);
      }
      text = describeFilter(filter, name);
    }
    list.setSpec({ ...list.listSpec, notificationFilter: filter, notificationFilterText: text });
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
      list.setSpec({ ...list.listSpec, notificationFilter: undefined, notificationFilterText: undefined });
      this.deps.provider.changedRow(list);
    }
  }

  async showAppConfig(): Promise<vscode.TextDocument> {
    const config = await (await this.targets.client()).getAppConfig();
    return this.deps.json.show('app-config', 'app-config', config);
  }
}
