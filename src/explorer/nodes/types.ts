// The node model of the explorer. Every node has a stable id (ids survive re-renders, so VS Code
// keeps expansion and selection), a parent (for TreeView.reveal), and renders itself to a TreeItem.
import type * as vscode from 'vscode';
import type { Item, ListingClient } from '../loaders';

export type NodeKind =
  | 'group'
  | 'deployment'
  | 'environment'
  | 'folder'
  | 'report'
  | 'workbook'
  | 'notification'
  | 'recipient'
  | 'envVar'
  | 'user'
  | 'appConfig'
  | 'appConfigValue'
  | 'loadMore'
  | 'error'
  | 'empty'
  | 'info'
  | 'invalid'
  // deployops
  | 'dbtSync'
  | 'version'
  | 'pod'
  | 'envToken'
  | 'health'
  // admin
  | 'adminSection'
  | 'adminItem'
  | 'scimGroup'
  | 'role'
  | 'embedTenant'
  | 'embedGroup'
  | 'embedMember'
  | 'tenantSettings'
  // admin users
  | 'userAttribute'
  | 'attributeValue';

/** What nodes need from the provider, passed down instead of imported. */
export interface TreeContext {
  client(): Promise<ListingClient>;
  pageSize(): number;
  /** Tells the view that `node`'s children changed (undefined: the whole tree). */
  changed(node: ExplorerNode | undefined): void;
}

export abstract class ExplorerNode {
  abstract readonly kind: NodeKind;
  constructor(
    readonly id: string,
    readonly parent: ExplorerNode | undefined,
  ) {}

  /** The server object this node shows, for "Open as JSON" and "Copy id". */
  get data(): Item | undefined {
    return undefined;
  }

  /** The deployment this node belongs to, if any. */
  get deploymentId(): number | undefined {
    return this.parent?.deploymentId;
  }

  abstract toTreeItem(): vscode.TreeItem;

  getChildren(): Promise<ExplorerNode[]> | ExplorerNode[] {
    return [];
  }

  /** Drops cached children so the next expansion fetches again. */
  reset(): void {}
}
