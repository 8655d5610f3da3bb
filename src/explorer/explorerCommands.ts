// The explorer's own commands: browsing the tree (refresh, load more, retry, open as JSON, copy
// ids) and the reports list's server-side search, sort and filter. Each takes the node a menu click
// passes, or an arguments object (tests, other features), and asks with quick input only for what
// neither supplies. Failures propagate to the one catch in runCommand (log + "Show Logs"). What a
// user does to the rows (administration, deployment operations, the workspace, notifications) are
// features of their own (src/admin, src/deployments, src/workspace, src/notifications).
import * as vscode from 'vscode';
import { publishedDashboardOf } from '../api/platform/workbookShapes';
import { registerCommand, COMMANDS } from '../commandRunner';
import type { ExplorerContext } from './context';
import { displayName, plainText } from './labels';
import { REPORT_SORTS, type Item, type ReportQuery, type ReportSort } from './loaders';
import { ListNode } from './nodes/listNode';
import { LoadMoreNode } from './nodes/statusNodes';
import type { Prompter } from '../ui/prompter';
import { asArgs, asNode, resolveDeploymentId, type TargetContext } from './targets';
import { sortText } from './reportQuery';
import { EXPLORER_VIEW_ID } from './ids';

/** The scripted prompter tests answer flows with (here so it loads with the commands). */
export { ScriptedPrompter } from '../ui/prompter';
export { explorerContext } from './context';

export class ExplorerCommands {
  readonly targets: TargetContext;

  constructor(private readonly ctx: ExplorerContext) {
    this.targets = ctx.targets;
  }

  get prompter(): Prompter {
    return this.targets.prompter();
  }

  register(): vscode.Disposable[] {
    const reg = (spec: { id: string; title: string }, fn: (arg?: unknown) => unknown) =>
      registerCommand(this.ctx.services, spec, fn as (...a: never[]) => unknown);
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
    ];
  }

  // --- browsing ---------------------------------------------------------------------------------

  refresh(arg?: unknown): void {
    this.ctx.provider.refresh(asNode(arg));
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
      return this.ctx.json.show(`args/${given.title ?? 'value'}`, given.title ?? 'value', given.value);
    const node = asNode(arg) ?? this.ctx.view.selection[0];
    if (node?.data) {
      const title = `${node.kind}-${displayName(node.data, 'name', 'title', 'email')}`;
      return this.ctx.json.show(node.id, title, node.data);
    }
    const deploymentId = await resolveDeploymentId(this.targets, arg);
    const d = await (await this.targets.client()).getDeployment(deploymentId);
    return this.ctx.json.show(`deployment:${deploymentId}`, `deployment-${deploymentId}`, d);
  }

  async copy(arg: unknown, field: 'id' | 'publicId'): Promise<string> {
    const node = asNode(arg) ?? this.ctx.view.selection[0];
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
    return this.ctx.listOf(deploymentId, 'reports');
  }

  private setReportQuery(list: ListNode, q: ReportQuery): ReportQuery {
    const clean = Object.fromEntries(
      Object.entries(q).filter(([, v]) => v !== undefined && v !== ''),
    ) as ReportQuery;
    list.setSpec({ ...list.listSpec, reportQuery: clean });
    this.ctx.provider.changedRow(list);
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
        : this.ctx.provider.loadedDeployments().map((d) => d.list('reports'));
    for (const list of targets) this.setReportQuery(list, {});
  }
}
