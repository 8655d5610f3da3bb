// The deployment operations in the tree: "dbt syncs" (paged runs), "Health" (build status, versions,
// pods, a Logs row) and environments whose children are their tokens. A deployment whose last build
// failed shows it on its own row (icon, description, tooltip with the reason). Startup bundle: types
// only from zod-based modules.
import * as vscode from 'vscode';
import type { Item } from '../loaders';
import { itemWithList, ListNode, type ItemNodeFactory } from '../nodes/listNode';
import { ItemNode } from '../nodes/itemNodes';
import { environmentLook, fixedTreeItem, lookTreeItem } from '../nodes/render';
import { ErrorNode } from '../nodes/statusNodes';
import { ExplorerNode, type TreeContext } from '../nodes/types';
import { DeployOpsCommand } from './ids';
import {
  buildStatusLook,
  dbtSyncLook,
  envTokenLook,
  podLook,
  problemTooltipLine,
  versionLook,
} from './render';

const FAILED_BUILD = /^(error|failed|failure)$/i;
export const isFailedBuildStatus = (b: Item | undefined) =>
  !!b && FAILED_BUILD.test(String(b['status'] ?? ''));

/** Build statuses by deployment id, fetched once per render of the deployments list. */
export class BuildStates {
  private readonly states = new Map<number, Item | Error | 'loading'>();
  constructor(private readonly ctx: TreeContext) {}

  get(deploymentId: number): Item | Error | 'loading' | undefined {
    return this.states.get(deploymentId);
  }

  forget(deploymentId: number): void {
    this.states.delete(deploymentId);
  }

  /** Starts fetching the status unless known; `node` re-renders when it arrives. */
  ensure(deploymentId: number, node: ExplorerNode): void {
    if (this.states.has(deploymentId)) return;
    this.states.set(deploymentId, 'loading');
    void this.fetch(deploymentId).then(() => this.ctx.changed(node));
  }

  async fetch(deploymentId: number): Promise<Item | Error> {
    let v: Item | Error;
    try {
      const ops = (await this.ctx.client()).ops;
      if (!ops) throw new Error('No build status for this client.');
      v = await ops.getBuildStatus(deploymentId);
    } catch (e) {
      v = e instanceof Error ? e : new Error(String(e));
    }
    this.states.set(deploymentId, v);
    return v;
  }
}

/** Marks a deployment's row when its last build failed; a row whose status is unknown stays as it is. */
export function applyBuildState(t: vscode.TreeItem, state: Item | Error | 'loading' | undefined): void {
  if (!state || state === 'loading' || state instanceof Error || !isFailedBuildStatus(state)) return;
  t.iconPath = new vscode.ThemeIcon('server-environment', new vscode.ThemeColor('errorForeground'));
  t.description = `${typeof t.description === 'string' ? `${t.description} · ` : ''}build failed`;
  const md = new vscode.MarkdownString(
    `${t.tooltip instanceof vscode.MarkdownString ? t.tooltip.value : ''}  \n${problemTooltipLine(state)}`,
    false,
  );
  md.isTrusted = false;
  md.supportHtml = false;
  t.tooltip = md;
}

const leaf =
  (
    kind: 'dbtSync' | 'version' | 'pod' | 'envToken',
    look: (i: Item) => ReturnType<typeof podLook>,
    click?: string,
  ) =>
  (list: ListNode, item: Item): ExplorerNode => {
    const node = new ItemNode(kind, list, item, look);
    if (!click) return node;
    const render = node.toTreeItem.bind(node);
    node.toTreeItem = () => {
      const t = render();
      t.command = { command: click, title: 'Open', arguments: [node] };
      return t;
    };
    return node;
  };

/** A row that runs a command on click (Logs). */
class ActionNode extends ExplorerNode {
  readonly kind = 'info';
  constructor(
    parent: ExplorerNode,
    suffix: string,
    private readonly label: string,
    private readonly icon: string,
    private readonly command: string,
    private readonly contextValue: string,
  ) {
    super(`${parent.id}/${suffix}`, parent);
  }
  toTreeItem(): vscode.TreeItem {
    const t = new vscode.TreeItem(this.label, vscode.TreeItemCollapsibleState.None);
    t.id = this.id;
    t.iconPath = new vscode.ThemeIcon(this.icon);
    t.contextValue = this.contextValue;
    t.command = { command: this.command, title: this.label, arguments: [this] };
    return t;
  }
}

class BuildStatusNode extends ExplorerNode {
  readonly kind = 'info';
  constructor(
    parent: ExplorerNode,
    private readonly status: Item,
  ) {
    super(`${parent.id}/build`, parent);
  }
  override get data(): Item {
    return this.status;
  }
  toTreeItem(): vscode.TreeItem {
    const l = buildStatusLook(this.status, isFailedBuildStatus(this.status));
    const t = lookTreeItem(this.id, l, vscode.TreeItemCollapsibleState.None);
    t.command = { command: DeployOpsCommand.showBuildStatus, title: 'Show Build Status', arguments: [this] };
    return t;
  }
}

/** "Health": the build status (fetched on expand), versions, pods and the log tail. */
export class HealthNode extends ExplorerNode {
  readonly kind = 'health';
  private lists: ListNode[] | undefined;
  constructor(
    private readonly ctx: TreeContext,
    parent: ExplorerNode,
    private readonly builds: BuildStates,
  ) {
    super(`${parent.id}/health`, parent);
  }
  toTreeItem(): vscode.TreeItem {
    return fixedTreeItem(
      this.id,
      {
        label: 'Health',
        icon: 'pulse',
        contextValue: 'dp.health',
        tooltip: 'Build status, Cube versions, pods and logs of this deployment',
      },
      vscode.TreeItemCollapsibleState.Collapsed,
    );
  }
  override async getChildren(): Promise<ExplorerNode[]> {
    const depId = this.deploymentId!;
    const before = this.builds.get(depId);
    const status = await this.builds.fetch(depId);
    // The deployment's row follows what Health just read; only on a change, since re-rendering the
    // row re-reads this node's children (which would fetch again).
    const known = (v: typeof before) => (v && v !== 'loading' && !(v instanceof Error) ? v : undefined);
    if (this.parent && isFailedBuildStatus(known(before)) !== isFailedBuildStatus(known(status)))
      this.ctx.changed(this.parent);
    this.lists ??= [
      opsList(
        this.ctx,
        this,
        'versions',
        'Versions',
        'versions',
        'No versions',
        leaf('version', versionLook),
      ),
      opsList(
        this.ctx,
        this,
        'pods',
        'Pods',
        'vm',
        'No pods',
        leaf('pod', podLook, DeployOpsCommand.showLogs),
      ),
    ];
    return [
      status instanceof Error
        ? new ErrorNode(this, `Build status: ${status.message}`)
        : new BuildStatusNode(this, status),
      ...this.lists,
      new ActionNode(this, 'logs', 'Logs', 'output', DeployOpsCommand.showLogs, 'dp.logs'),
    ];
  }
  override reset(): void {
    for (const l of this.lists ?? []) l.reset();
  }
}

function opsList(
  ctx: TreeContext,
  parent: ExplorerNode,
  kind: 'dbtSyncs' | 'versions' | 'pods',
  label: string,
  icon: string,
  empty: string,
  make: ItemNodeFactory,
): ListNode {
  return new ListNode(
    ctx,
    `${parent.id}/${kind}`,
    parent,
    'group',
    { kind, deploymentId: parent.deploymentId },
    () => ({ label, icon: new vscode.ThemeIcon(icon), contextValue: `dp.list.${kind}`, emptyLabel: empty }),
    make,
  );
}

/** The children a deployment gets besides its lists: dbt syncs and Health. */
export function deploymentOpsChildren(
  ctx: TreeContext,
  dep: ExplorerNode,
  builds: BuildStates,
): ExplorerNode[] {
  return [
    opsList(
      ctx,
      dep,
      'dbtSyncs',
      'dbt syncs',
      'sync',
      'No dbt syncs',
      leaf('dbtSync', dbtSyncLook, DeployOpsCommand.dbtShowLogs),
    ),
    new HealthNode(ctx, dep, builds),
  ];
}

/** An environment: an item whose children are its tokens. */
export function environmentWithTokens(ctx: TreeContext): ItemNodeFactory {
  return itemWithList(
    ctx,
    'environment',
    (list, item) => ({
      kind: 'envTokens',
      deploymentId: list.deploymentId,
      environmentId: String(item['id']),
    }),
    environmentLook,
    'No tokens',
    leaf('envToken', envTokenLook),
  );
}
