// A deployment and its fixed set of lists. Each list pages on its own; the deployment only holds them.
import * as vscode from 'vscode';
import { describeFilter, isEmptyFilter } from '../notificationFilter';
import type { Item, ListKind } from '../loaders';
import { describeReportQuery } from '../reportQuery';
import { ListNode, type ItemNodeFactory } from './listNode';
import { deploymentLook, lookTreeItem } from './render';
import { envVarItem, folderItem, notificationItem, reportItem, workbookItem } from './itemNodes';
import { ExplorerNode, type TreeContext } from './types';
import { workspaceItem } from './workspaceNodes';
import type { DeployOpsKind } from '../deployment/listing';
import {
  applyBuildState,
  BuildStates,
  deploymentOpsChildren,
  environmentWithTokens,
} from '../deployment/nodes';

export type DeploymentListKind = Exclude<
  ListKind,
  'deployments' | 'users' | 'recipients' | 'admin' | DeployOpsKind
>;

const LISTS: { kind: DeploymentListKind; label: string; icon: string; empty: string }[] = [
  { kind: 'workspace', label: 'Workspace', icon: 'root-folder', empty: 'The workspace is empty' },
  {
    kind: 'sharedWorkspace',
    label: 'Shared workspace',
    icon: 'live-share',
    empty: 'Nothing is shared with embed users',
  },
  { kind: 'environments', label: 'Environments', icon: 'layers', empty: 'No environments' },
  { kind: 'folders', label: 'Folders', icon: 'folder-library', empty: 'No folders' },
  { kind: 'reports', label: 'Reports', icon: 'graph', empty: 'No reports' },
  { kind: 'workbooks', label: 'Workbooks', icon: 'notebook', empty: 'No workbooks' },
  { kind: 'notifications', label: 'Notifications', icon: 'bell', empty: 'No notifications' },
  { kind: 'envVars', label: 'Env variables', icon: 'symbol-variable', empty: 'No env variables' },
];

export class DeploymentNode extends ExplorerNode {
  readonly kind = 'deployment';
  private lists: ListNode[] | undefined;
  private ops: ExplorerNode[] | undefined;
  private readonly builds: BuildStates;

  constructor(
    private readonly ctx: TreeContext,
    parent: ExplorerNode,
    private readonly item: Item,
  ) {
    super(`${parent.id}/deployment:${String(item['id'])}`, parent);
    this.builds = new BuildStates(ctx);
  }

  override get data(): Item {
    return this.item;
  }

  override get deploymentId(): number {
    return Number(this.item['id']);
  }

  get name(): string {
    return deploymentLook(this.item).label;
  }

  toTreeItem(): vscode.TreeItem {
    const l = deploymentLook(this.item);
    const t = lookTreeItem(this.id, l, vscode.TreeItemCollapsibleState.Collapsed);
    // A failed build shows on the row (fetched once; Refresh asks again).
    this.builds.ensure(this.deploymentId, this);
    applyBuildState(t, this.builds.get(this.deploymentId));
    return t;
  }

  override getChildren(): ExplorerNode[] {
    this.lists ??= LISTS.map((spec) => this.makeList(spec));
    this.ops ??= deploymentOpsChildren(this.ctx, this, this.builds);
    return [...this.lists, ...this.ops];
  }

  /** The list of one kind (created on first use). */
  list(kind: DeploymentListKind): ListNode {
    this.getChildren();
    return this.lists!.find((l) => l.listSpec.kind === kind)!;
  }

  /** The deployment operations' children (dbt syncs, Health). */
  opsChild(kind: 'dbtSyncs' | 'health'): ExplorerNode {
    this.getChildren();
    return this.ops!.find((n) => (n instanceof ListNode ? n.listSpec.kind : n.kind) === kind)!;
  }

  override reset(): void {
    for (const l of this.lists ?? []) l.reset();
    for (const n of this.ops ?? []) n.reset();
    this.builds.forget(this.deploymentId);
  }

  private makeList(spec: (typeof LISTS)[number]): ListNode {
    const depId = this.deploymentId;
    const factories: Record<DeploymentListKind, ItemNodeFactory> = {
      environments: environmentWithTokens(this.ctx),
      folders: folderItem(this.ctx),
      reports: reportItem,
      workbooks: workbookItem,
      notifications: notificationItem(this.ctx),
      envVars: envVarItem,
      workspace: workspaceItem(this.ctx, false),
      sharedWorkspace: workspaceItem(this.ctx, true),
    };
    const present = (self: ListNode) => {
      const s = self.listSpec;
      let description: string | undefined;
      let contextValue = `dp.list.${spec.kind}`;
      if (spec.kind === 'reports' && s.reportQuery && describeReportQuery(s.reportQuery) !== '') {
        description = describeReportQuery(s.reportQuery);
        contextValue += '.queried';
      }
      if (spec.kind === 'notifications' && !isEmptyFilter(s.notificationFilter)) {
        description = s.notificationFilterText ?? describeFilter(s.notificationFilter!);
        contextValue += '.filtered';
      }
      return {
        label: spec.label,
        ...(description !== undefined ? { description } : {}),
        icon: new vscode.ThemeIcon(spec.icon),
        contextValue,
        emptyLabel: spec.empty,
      };
    };
    return new ListNode(
      this.ctx,
      `${this.id}/${spec.kind}`,
      this,
      'group',
      { kind: spec.kind, deploymentId: depId },
      present,
      factories[spec.kind],
    );
  }
}

export function deploymentItem(ctx: TreeContext): ItemNodeFactory {
  return (list, item) => new DeploymentNode(ctx, list, item);
}
