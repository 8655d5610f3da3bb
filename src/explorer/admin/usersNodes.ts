// The users side of Administration: User attributes (definitions), each user's attribute values
// (the user row expands to them), and an embed tenant's Workbooks per deployment, split by how the
// tenant's access is granted (the published `accessSource`). Startup bundle: no zod.
import * as vscode from 'vscode';
import { displayName, plainText, tooltipLines } from '../labels';
import type { Item } from '../loaders';
import { ItemNode } from '../nodes/itemNodes';
import { ListNode, type ItemNodeFactory } from '../nodes/listNode';
import { fixedTreeItem, safeTooltip, workbookLook, type Look } from '../nodes/render';
import { ExplorerNode, type TreeContext } from '../nodes/types';
import { WorkspaceItemNode } from '../nodes/workspaceNodes';
import { adminUserLook } from './adminLooks';
import { knownPlatformId } from './platformIds';
import type { EmbedAccessSource } from './adminLoaders';

const str = (v: unknown): string | undefined => (typeof v === 'string' && v !== '' ? v : undefined);

/** A value as one line: arrays comma-separated, unset as undefined. */
export function valueText(v: unknown): string | undefined {
  if (v === null || v === undefined) return undefined;
  if (Array.isArray(v)) return v.map(String).join(', ');
  if (typeof v === 'object') return JSON.stringify(v);
  return String(v);
}

export function attributeLook(a: Item): Look {
  const name = plainText(a['name']);
  const label = plainText(str(a['displayName']) ?? name);
  return {
    label,
    description: plainText(`${label !== name ? `${name} · ` : ''}${String(a['type'])}`),
    icon: new vscode.ThemeIcon('symbol-property'),
    contextValue: 'dp.userAttribute',
    tooltip: safeTooltip(
      tooltipLines(label, [
        ['name', a['name']],
        ['type', a['type']],
        ['description', a['description']],
        ['default', a['defaultValue']],
        ['id', a['id']],
      ]),
    ),
  };
}

export function attributeValueLook(v: Item): Look {
  const label = plainText(str(v['displayName']) ?? v['name']);
  const text = valueText(v['formattedValue'] ?? v['value']);
  return {
    label,
    description: text === undefined ? 'not set' : plainText(text),
    icon: new vscode.ThemeIcon('symbol-property'),
    contextValue: 'dp.attributeValue',
    tooltip: safeTooltip(
      tooltipLines(label, [
        ['attribute', v['name']],
        ['type', v['type']],
        ['value', text],
      ]),
    ),
  };
}

/**
 * A user row that expands to the user's attribute values (fetched when expanded). Attribute values
 * are keyed by the platform user id: where the SCIM id is not one (the documents type it as any
 * string, their example is a UUID), the row is a leaf and its tooltip says why.
 */
export function adminUserItem(ctx: TreeContext): ItemNodeFactory {
  return (list, u) => {
    const scimId = String(u['id'] ?? '');
    const userId = knownPlatformId(u);
    if (userId === undefined) {
      return new ItemNode('user', list, u, (i) => {
        const look = adminUserLook(i);
        return {
          ...look,
          tooltip: safeTooltip(
            `${look.tooltip.value}\n\nAttribute values: Set User Attribute Value… asks for the platform user id once (SCIM ids here are not platform ids).`,
          ),
        };
      });
    }
    return new ListNode(
      ctx,
      `${list.id}/user:${scimId}`,
      list,
      'user',
      {
        kind: 'admin',
        admin: { list: 'userAttributeValues', userId, userName: String(u['userName'] ?? scimId) },
      },
      () => ({ ...adminUserLook(u), emptyLabel: 'No attribute values set' }),
      (values, v) =>
        new ItemNode('attributeValue', values, { ...v, id: v['userAttributeId'] }, attributeValueLook),
      u,
    );
  };
}

export const attributeItem: ItemNodeFactory = (list, a) =>
  new ItemNode('userAttribute', list, a, attributeLook);

const SOURCES: { source: EmbedAccessSource; label: (tenant: string) => string; icon: string }[] = [
  { source: 'tenant', label: (t) => `Shared with ${t}`, icon: 'person' },
  { source: 'allEmbedUsers', label: () => 'Shared with all embed users', icon: 'globe' },
  { source: 'folder', label: () => 'In shared folders', icon: 'folder' },
];

/** A deployment under a tenant's Workbooks: one list per access source. */
class TenantDeploymentNode extends ExplorerNode {
  readonly kind = 'adminSection';
  private cached: ListNode[] | undefined;
  constructor(
    private readonly ctx: TreeContext,
    parent: ExplorerNode,
    private readonly dep: Item,
    private readonly tenant: string,
  ) {
    super(`${parent.id}/dep:${String(dep['id'])}`, parent);
  }
  override get data(): Item {
    return this.dep;
  }
  override get deploymentId(): number {
    return Number(this.dep['id']);
  }
  toTreeItem(): vscode.TreeItem {
    return fixedTreeItem(
      this.id,
      {
        label: displayName(this.dep),
        icon: 'server',
        contextValue: 'dp.admin.embedDeployment',
        tooltip: `The workbooks ${this.tenant} can access in this deployment, by how access is granted`,
      },
      vscode.TreeItemCollapsibleState.Collapsed,
    );
  }
  override getChildren(): ExplorerNode[] {
    this.cached ??= SOURCES.map(
      ({ source, label, icon }) =>
        new ListNode(
          this.ctx,
          `${this.id}/${source}`,
          this,
          'group',
          {
            kind: 'admin',
            deploymentId: this.deploymentId,
            admin: {
              list: 'embedTenantWorkbooks',
              tenant: this.tenant,
              deploymentId: this.deploymentId,
              accessSource: source,
            },
          },
          () => ({
            label: label(this.tenant),
            icon: new vscode.ThemeIcon(icon),
            contextValue: `dp.list.admin.embedWorkbooks.${source}`,
            emptyLabel: 'No workbooks',
          }),
          // A click opens the workbook as the workspace does.
          (list, w) => new WorkspaceItemNode('workbook', list, w, (i) => workbookLook(i, true)),
        ),
    );
    return this.cached;
  }
  override reset(): void {
    for (const c of this.cached ?? []) c.reset();
  }
}

/** "Workbooks" under an embed tenant: the deployments, each with the tenant's workbooks. */
export function tenantWorkbooksNode(ctx: TreeContext, parent: ExplorerNode, tenant: string): ListNode {
  return new ListNode(
    ctx,
    `${parent.id}/workbooks`,
    parent,
    'group',
    { kind: 'deployments' },
    () => ({
      label: 'Workbooks',
      icon: new vscode.ThemeIcon('book'),
      contextValue: 'dp.list.admin.embedWorkbooks',
      tooltip: `Workbooks ${tenant} can access, per deployment and by how access is granted`,
      emptyLabel: 'No deployments',
    }),
    (list, d) => new TenantDeploymentNode(ctx, list, d, tenant),
  );
}
