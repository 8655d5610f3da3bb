// The top of the tree: the paged deployments, then the app-level nodes (App config, Administration).
import * as vscode from 'vscode';
import { ExplorerCommand } from '../ids';
import { deploymentItem } from './deploymentNode';
import { createAdminRoot, type AdminRoot } from '../admin/adminNodes';
import { ListNode } from './listNode';
import { ExplorerNode, type TreeContext } from './types';

export class AppConfigNode extends ExplorerNode {
  readonly kind = 'appConfig';
  constructor() {
    super('app-config', undefined);
  }
  toTreeItem(): vscode.TreeItem {
    const t = new vscode.TreeItem('App config', vscode.TreeItemCollapsibleState.None);
    t.id = this.id;
    t.iconPath = new vscode.ThemeIcon('settings');
    t.contextValue = 'dp.appConfig';
    t.tooltip = 'Show the app configuration (theme, creator mode, embedding) as JSON';
    t.command = { command: ExplorerCommand.showAppConfig, title: 'Show App Config', arguments: [this] };
    return t;
  }
}

export interface RootNodes {
  deployments: ListNode;
  appConfig: AppConfigNode;
  /** Administration: users, groups, roles, embedding, account settings. */
  admin: AdminRoot;
  /** The tenant's users (SCIM), under Administration. */
  users: ListNode;
  all: ExplorerNode[];
}

export function createRoot(ctx: TreeContext): RootNodes {
  const deployments = new ListNode(
    ctx,
    'deployments',
    undefined,
    'group',
    { kind: 'deployments' },
    () => ({
      label: 'Deployments',
      icon: new vscode.ThemeIcon('cloud'),
      contextValue: 'dp.list.deployments',
      emptyLabel: 'No deployments',
      expanded: true,
    }),
    deploymentItem(ctx),
  );
  const appConfig = new AppConfigNode();
  const admin = createAdminRoot(ctx);
  return { deployments, appConfig, admin, users: admin.users, all: [deployments, appConfig, admin.root] };
}
