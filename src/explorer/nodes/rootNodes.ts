// The top of the tree: the paged deployments, then the app-level nodes (App config, Administration).
import * as vscode from 'vscode';
import { deploymentItem } from './deploymentNode';
import { AppConfigNode } from '../admin/appConfigNode';
import { createAdminRoot, type AdminRoot } from '../admin/adminNodes';
import { ListNode } from './listNode';
import type { ExplorerNode, TreeContext } from './types';

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
  const appConfig = new AppConfigNode(ctx);
  const admin = createAdminRoot(ctx);
  return { deployments, appConfig, admin, users: admin.users, all: [deployments, appConfig, admin.root] };
}
