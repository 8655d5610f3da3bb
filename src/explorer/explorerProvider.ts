// The explorer's TreeDataProvider: hands out the node model and fires change events for exactly
// the node whose children changed, so loading one list never re-renders (or refetches) another.
import * as vscode from 'vscode';
import { PAGE_SIZE_SETTING } from './ids';
import { clampPageSize } from './pagedList';
import type { ListingClient } from './loaders';
import { DeploymentNode } from './nodes/deploymentNode';
import { ListNode } from './nodes/listNode';
import { createRoot, type RootNodes } from './nodes/rootNodes';
import type { ExplorerNode, TreeContext } from './nodes/types';
import { describeFilter, isEmptyFilter } from './notificationFilter';
import { describeReportQuery, isEmptyReportQuery } from './reportQuery';

export class ExplorerProvider implements vscode.TreeDataProvider<ExplorerNode>, vscode.Disposable {
  private readonly emitter = new vscode.EventEmitter<ExplorerNode | undefined>();
  readonly onDidChangeTreeData = this.emitter.event;
  private readonly descriptionEmitter = new vscode.EventEmitter<string | undefined>();
  /** Fires with the new view description when a search, sort or filter changes. */
  readonly onDidChangeDescription = this.descriptionEmitter.event;
  private root: RootNodes;
  private readonly ctx: TreeContext;

  /**
   * @param hasProfile false leaves the tree empty, so the view's welcome content (add a profile, or
   * try the Sandbox) shows instead.
   */
  constructor(
    client: () => Promise<ListingClient>,
    private readonly hasProfile: () => boolean = () => true,
  ) {
    this.ctx = {
      client,
      pageSize: () => clampPageSize(vscode.workspace.getConfiguration().get<number>(PAGE_SIZE_SETTING, 50)),
      changed: (node) => this.emitter.fire(node),
    };
    this.root = createRoot(this.ctx);
  }

  get roots(): RootNodes {
    return this.root;
  }

  getTreeItem(node: ExplorerNode): vscode.TreeItem {
    return node.toTreeItem();
  }

  getChildren(node?: ExplorerNode): ExplorerNode[] | Promise<ExplorerNode[]> {
    if (node) return node.getChildren();
    return this.hasProfile() ? this.root.all : [];
  }

  getParent(node: ExplorerNode): ExplorerNode | undefined {
    return node.parent;
  }

  /** Refetches `node`'s children (a list, or the lists under a deployment); no node: the whole tree. */
  refresh(node?: ExplorerNode): void {
    if (!node) {
      // A new profile or page size: start over with fresh state (ids stay the same, so VS Code
      // re-expands what was open, which loads again lazily).
      for (const n of this.root.all) n.reset();
      this.root = createRoot(this.ctx);
      this.emitter.fire(undefined);
      this.descriptionEmitter.fire(this.description());
      return;
    }
    const target = node instanceof ListNode || node instanceof DeploymentNode ? node : node.parent;
    if (!target) return this.refresh();
    target.reset();
    this.emitter.fire(target);
  }

  /** Re-renders a node whose own row changed (e.g. a new query in its description). */
  changedRow(node: ExplorerNode): void {
    this.emitter.fire(node);
    this.descriptionEmitter.fire(this.description());
  }

  /** Loaded deployment nodes (those the deployments list has shown). */
  loadedDeployments(): DeploymentNode[] {
    return this.root.deployments
      .renderChildren()
      .filter((n): n is DeploymentNode => n instanceof DeploymentNode);
  }

  /** The view description: active report queries and notification filters, per deployment. */
  description(): string | undefined {
    const parts: string[] = [];
    const many = this.loadedDeployments().length > 1;
    for (const d of this.loadedDeployments()) {
      const prefix = many ? `${d.name}: ` : '';
      const q = d.list('reports').listSpec.reportQuery;
      if (!isEmptyReportQuery(q)) parts.push(`${prefix}reports ${describeReportQuery(q!)}`);
      const spec = d.list('notifications').listSpec;
      const f = spec.notificationFilter;
      if (!isEmptyFilter(f))
        parts.push(`${prefix}notifications ${spec.notificationFilterText ?? describeFilter(f!)}`);
    }
    return parts.length > 0 ? parts.join(' · ') : undefined;
  }

  dispose(): void {
    for (const n of this.root.all) n.reset();
    this.emitter.dispose();
    this.descriptionEmitter.dispose();
  }
}
