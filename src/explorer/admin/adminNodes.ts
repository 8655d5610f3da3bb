// The Administration root of the explorer: Users (SCIM, searchable), Groups (SCIM, with their
// members), Roles (with their actions), Embed tenants (› groups, users) and Account settings
// (tenant settings, regions, OAuth integrations, OIDC token configs, my OAuth tokens). Every list is
// a ListNode over one paged request; a token without the admin role gets one row per list saying
// the role is needed (ListNode renders a forbidden error that way).
import * as vscode from 'vscode';
import type { Item } from '../loaders';
import { ItemNode } from '../nodes/itemNodes';
import { itemWithList, ListNode, type ItemNodeFactory } from '../nodes/listNode';
import { fixedTreeItem, lookTreeItem, type Look } from '../nodes/render';
import { ExplorerNode, type NodeKind, type TreeContext } from '../nodes/types';
import type { AdminListSpec } from './adminLoaders';
import {
  actionLook,
  embedGroupLook,
  embedMemberLook,
  embedTenantLook,
  embedUserLook,
  memberLook,
  oauthIntegrationLook,
  oidcConfigLook,
  regionLook,
  roleActionsOf,
  roleLook,
  scimGroupLook,
  userTokenLook,
} from './adminLooks';
import { adminUserItem, attributeItem, tenantWorkbooksNode } from './usersNodes';

export const ADMIN_COMMAND = {
  showTenantSettings: 'dashboardPlatform.explorer.showTenantSettings',
} as const;

function leaf(kind: NodeKind, look: (i: Item) => Look): ItemNodeFactory {
  return (list, item) => new ItemNode(kind, list, item, look);
}

/** An item whose children are known with it (a group's members, a role's actions). */
class StaticItemNode extends ExplorerNode {
  constructor(
    readonly kind: NodeKind,
    parent: ExplorerNode,
    key: string,
    private readonly item: Item,
    private readonly look: (i: Item) => Look,
    private readonly children: (self: ExplorerNode) => ExplorerNode[],
    private readonly emptyLabel: string,
  ) {
    super(`${parent.id}/${kind}:${key}`, parent);
  }
  override get data(): Item {
    return this.item;
  }
  toTreeItem(): vscode.TreeItem {
    const l = this.look(this.item);
    const t = lookTreeItem(this.id, l, vscode.TreeItemCollapsibleState.Collapsed);
    return t;
  }
  override getChildren(): ExplorerNode[] {
    const out = this.children(this);
    if (out.length > 0) return out;
    return [new ItemNode('empty', this, { id: '~empty', name: this.emptyLabel }, emptyLook)];
  }
}

const emptyLook = (i: Item): Look => ({
  label: String(i['name']),
  icon: new vscode.ThemeIcon('circle-slash'),
  contextValue: 'dp.empty',
  tooltip: new vscode.MarkdownString(''),
});

const scimGroupItem: ItemNodeFactory = (list, g) =>
  new StaticItemNode(
    'scimGroup',
    list,
    String(g['id']),
    g,
    scimGroupLook,
    (self) =>
      (Array.isArray(g['members']) ? (g['members'] as Item[]) : []).map(
        (m) => new ItemNode('adminItem', self, { ...m, id: m['value'] }, memberLook),
      ),
    'No members',
  );

const roleItem: ItemNodeFactory = (list, r) =>
  new StaticItemNode(
    'role',
    list,
    String(r['id']),
    r,
    roleLook,
    (self) => roleActionsOf(r).map((a) => new ItemNode('adminItem', self, { id: a, name: a }, actionLook)),
    'No actions',
  );

/** A section of fixed children (Administration itself, Account settings, an embed tenant). */
export class AdminSectionNode extends ExplorerNode {
  readonly kind: NodeKind;
  private cached: ExplorerNode[] | undefined;
  constructor(
    id: string,
    parent: ExplorerNode | undefined,
    private readonly look: () => Look & { expanded?: boolean },
    private readonly make: (self: AdminSectionNode) => ExplorerNode[],
    private readonly item?: Item,
    kind: NodeKind = 'adminSection',
  ) {
    super(id, parent);
    this.kind = kind;
  }
  override get data(): Item | undefined {
    return this.item;
  }
  toTreeItem(): vscode.TreeItem {
    const l = this.look();
    const t = lookTreeItem(
      this.id,
      l,
      l.expanded ? vscode.TreeItemCollapsibleState.Expanded : vscode.TreeItemCollapsibleState.Collapsed,
    );
    return t;
  }
  override getChildren(): ExplorerNode[] {
    this.cached ??= this.make(this);
    return this.cached;
  }
  override reset(): void {
    for (const c of this.cached ?? []) c.reset();
  }
}

function adminList(
  ctx: TreeContext,
  id: string,
  parent: ExplorerNode,
  spec: AdminListSpec,
  label: string,
  icon: string,
  emptyLabel: string,
  make: ItemNodeFactory,
  describe?: (spec: AdminListSpec) => string | undefined,
): ListNode {
  return new ListNode(
    ctx,
    id,
    parent,
    'group',
    { kind: 'admin', admin: spec },
    (self) => {
      const d = describe?.(self.listSpec.admin ?? spec);
      return {
        label,
        ...(d ? { description: d } : {}),
        icon: new vscode.ThemeIcon(icon),
        contextValue: `dp.list.admin.${spec.list}${d ? '.filtered' : ''}`,
        emptyLabel: d ? `No ${label.toLowerCase()} match ${d}` : emptyLabel,
      };
    },
    make,
  );
}

const filterText = (s: AdminListSpec) =>
  'filter' in s && s.filter ? s.filter : 'search' in s && s.search ? `"${s.search}"` : undefined;

/** An embed group: expands to its members (one paged request), each removable from it. */
function embedGroupItem(ctx: TreeContext, tenant: string): ItemNodeFactory {
  return itemWithList(
    ctx,
    'embedGroup',
    (_list, g) => ({ kind: 'admin', admin: { list: 'embedGroupMembers', tenant, groupId: Number(g['id']) } }),
    embedGroupLook,
    'No members',
    (members, u) => new ItemNode('embedMember', members, u, embedMemberLook),
  );
}

function embedTenantItem(ctx: TreeContext): ItemNodeFactory {
  return (list, t) => {
    const name = String(t['name']);
    return new AdminSectionNode(
      `${list.id}/embedTenant:${name}`,
      list,
      () => embedTenantLook(t),
      (self) => [
        adminList(
          ctx,
          `${self.id}/groups`,
          self,
          { list: 'embedGroups', tenant: name },
          'Groups',
          'organization',
          'No groups',
          embedGroupItem(ctx, name),
        ),
        adminList(
          ctx,
          `${self.id}/users`,
          self,
          { list: 'embedUsers', tenant: name },
          'Users',
          'person',
          'No embed users',
          leaf('adminItem', embedUserLook),
          filterText,
        ),
        tenantWorkbooksNode(ctx, self, name),
      ],
      t,
      'embedTenant',
    );
  };
}

export class TenantSettingsNode extends ExplorerNode {
  readonly kind = 'tenantSettings';
  constructor(parent: ExplorerNode) {
    super(`${parent.id}/tenant-settings`, parent);
  }
  toTreeItem(): vscode.TreeItem {
    const t = fixedTreeItem(
      this.id,
      {
        label: 'Tenant settings',
        icon: 'settings-gear',
        contextValue: 'dp.tenantSettings',
        tooltip: 'Show the tenant settings; Edit Tenant Settings… changes them after showing the difference',
      },
      vscode.TreeItemCollapsibleState.None,
    );
    t.command = {
      command: ADMIN_COMMAND.showTenantSettings,
      title: 'Show Tenant Settings',
      arguments: [this],
    };
    return t;
  }
}

export interface AdminRoot {
  root: AdminSectionNode;
  users: ListNode;
  userAttributes: ListNode;
  groups: ListNode;
  roles: ListNode;
  embedTenants: ListNode;
  settings: AdminSectionNode;
}

export function createAdminRoot(ctx: TreeContext): AdminRoot {
  let lists: Omit<AdminRoot, 'root'> | undefined;
  const root: AdminSectionNode = new AdminSectionNode(
    'admin',
    undefined,
    () => ({
      label: 'Administration',
      icon: new vscode.ThemeIcon('shield'),
      contextValue: 'dp.admin',
      tooltip: new vscode.MarkdownString(
        'Users, user attributes, groups, roles, embedding and account settings (most need the admin role)',
      ),
    }),
    () => {
      const l: Omit<AdminRoot, 'root'> = build();
      return [l.users, l.userAttributes, l.groups, l.roles, l.embedTenants, l.settings];
    },
  );
  const build = (): Omit<AdminRoot, 'root'> => {
    if (lists) return lists;
    const settings = new AdminSectionNode(
      'admin/settings',
      root,
      () => ({
        label: 'Account settings',
        icon: new vscode.ThemeIcon('gear'),
        contextValue: 'dp.admin.settings',
        tooltip: new vscode.MarkdownString(
          'Tenant settings, regions, OAuth integrations, OIDC token configs, your OAuth tokens',
        ),
      }),
      (self) => [
        new TenantSettingsNode(self),
        adminList(
          ctx,
          'admin/settings/regions',
          self,
          { list: 'regions' },
          'Regions',
          'globe',
          'No regions',
          leaf('adminItem', regionLook),
        ),
        adminList(
          ctx,
          'admin/settings/oauth',
          self,
          { list: 'oauthIntegrations' },
          'OAuth integrations',
          'plug',
          'No OAuth integrations',
          leaf('adminItem', oauthIntegrationLook),
        ),
        adminList(
          ctx,
          'admin/settings/oidc',
          self,
          { list: 'oidcTokenConfigs' },
          'OIDC token configs',
          'key',
          'No OIDC token configs',
          leaf('adminItem', oidcConfigLook),
        ),
        adminList(
          ctx,
          'admin/settings/tokens',
          self,
          { list: 'userOAuthTokens' },
          'My OAuth tokens',
          'key',
          'You hold no OAuth tokens',
          leaf('adminItem', userTokenLook),
        ),
      ],
    );
    lists = {
      users: adminList(
        ctx,
        'admin/users',
        root,
        { list: 'scimUsers' },
        'Users',
        'account',
        'No users',
        adminUserItem(ctx),
        filterText,
      ),
      userAttributes: adminList(
        ctx,
        'admin/attributes',
        root,
        { list: 'userAttributes' },
        'User attributes',
        'symbol-property',
        'No user attributes',
        attributeItem,
      ),
      groups: adminList(
        ctx,
        'admin/groups',
        root,
        { list: 'scimGroups' },
        'Groups',
        'organization',
        'No groups',
        scimGroupItem,
        filterText,
      ),
      roles: adminList(
        ctx,
        'admin/roles',
        root,
        { list: 'roles' },
        'Roles',
        'shield',
        'No custom roles',
        roleItem,
      ),
      embedTenants: adminList(
        ctx,
        'admin/embed',
        root,
        { list: 'embedTenants' },
        'Embed tenants',
        'globe',
        'No embed tenants',
        embedTenantItem(ctx),
        filterText,
      ),
      settings,
    };
    return lists;
  };
  const l = build();
  return { root, ...l };
}
