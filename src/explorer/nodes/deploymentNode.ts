// A deployment and its fixed set of lists. Each list pages on its own; the deployment only holds them.
import * as vscode from 'vscode';
import { describeFilter, isEmptyFilter } from '../notificationFilter';
import type { Item, ListKind } from '../loaders';
import { describeReportQuery } from '../reportQuery';
import { ListNode, type ItemNodeFactory } from './listNode';
import { deploymentLook } from './render';
import {
  envVarItem,
  environmentItem,
  folderItem,
  notificationItem,
  reportItem,
  workbookItem,
} from './itemNodes';
import { ExplorerNode, type TreeContext } from './types';

export type DeploymentListKind = Exclude<ListKind, 'deployments' | 'users' | 'recipients' | 'admin'>;

const LISTS: { kind: DeploymentListKind; label: string; icon: string; empty: string }[] = [
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

  constructor(
    private readonly ctx: TreeContext,
    parent: ExplorerNode,
    private readonly item: Item,
  ) {
    super(`${parent.id}/deployment:${String(item['id'])}`, parent);
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
    const t = new vscode.TreeItem(l.label, vscode.TreeItemCollapsibleState.Collapsed);
    t.id = this.id;
    t.description = l.description;
    t.iconPath = l.icon;
    t.tooltip = l.tooltip;
    t.contextValue = l.contextValue;
    return t;
  }

  override getChildren(): ExplorerNode[] {
    this.lists ??= LISTS.map((spec) => this.makeList(spec));
    return this.lists;
  }

  /** The list of one kind (created on first use). */
  list(kind: DeploymentListKind): ListNode {
    const all = this.getChildren() as ListNode[];
    return all.find((l) => l.listSpec.kind === kind)!;
  }

  override reset(): void {
    for (const l of this.lists ?? []) l.reset();
  }

  private makeList(spec: (typeof LISTS)[number]): ListNode {
    const depId = this.deploymentId;
    const factories: Record<DeploymentListKind, ItemNodeFactory> = {
      environments: environmentItem,
      folders: folderItem(this.ctx),
      reports: reportItem,
      workbooks: workbookItem,
      notifications: notificationItem(this.ctx),
      envVars: envVarItem,
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
        description = describeFilter(s.notificationFilter!);
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
