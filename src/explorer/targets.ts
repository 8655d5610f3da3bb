// Where a command's subject comes from: the node a menu click passes, an arguments object (tests,
// other features, keybindings), the view's selection, or — only when all of those are missing —
// a quick pick over the server's first page.
import type { PlatformClient } from '../api/platformClient';
import type { Item } from './loaders';
import { DeploymentNode } from './nodes/deploymentNode';
import { type ListNode } from './nodes/listNode';
import { ExplorerNode, type NodeKind } from './nodes/types';
import { displayName, plainText } from './labels';
import type { Prompter } from '../ui/prompter';
import { nameDashboards } from './notifications/dashboardNames';
import { notificationDashboard } from './notifications/notificationLook';

/** The arguments object every explorer command accepts instead of a node. */
export interface TargetArgs {
  deploymentId?: number;
  reportId?: number;
  workbookId?: number;
  notificationId?: number;
}

export function asNode(arg: unknown): ExplorerNode | undefined {
  return arg instanceof ExplorerNode ? arg : undefined;
}

export function asArgs<T extends object>(arg: unknown): Partial<T> & TargetArgs {
  return arg && typeof arg === 'object' && !(arg instanceof ExplorerNode)
    ? (arg as Partial<T> & TargetArgs)
    : {};
}

/** The nearest node of `kind` at or above `node`. */
export function ancestor(node: ExplorerNode | undefined, kind: NodeKind): ExplorerNode | undefined {
  for (let n = node; n; n = n.parent) if (n.kind === kind) return n;
  return undefined;
}

export interface TargetContext {
  client(): Promise<PlatformClient>;
  prompter(): Prompter;
  /** The first selected node of the view, if any. */
  selection(): ExplorerNode | undefined;
}

const PICK_PAGE = 200;

function choices(items: Item[], describe?: (i: Item) => string | undefined) {
  return items.map((i) => {
    const d = describe?.(i);
    return {
      label: displayName(i, 'name', 'title', 'humanReadableSchedule', 'email'),
      description: `#${plainText(i['id'])}${d ? ` · ${d}` : ''}`,
      value: i,
    };
  });
}

export async function resolveDeploymentId(ctx: TargetContext, arg: unknown): Promise<number> {
  const node = asNode(arg) ?? (asArgs(arg).deploymentId === undefined ? ctx.selection() : undefined);
  const fromNode = node?.deploymentId;
  if (fromNode !== undefined) return fromNode;
  const given = asArgs(arg).deploymentId;
  if (given !== undefined) return Number(given);
  const page = await (await ctx.client()).listDeployments({ first: PICK_PAGE });
  if (page.items.length === 1) return Number(page.items[0]!['id']);
  const d = await ctx.prompter().pick('Deployment', choices(page.items as Item[]), 'Pick a deployment');
  return Number(d['id']);
}

/** A deployment as messages name it: `"Analytics"` (quoted name), or "This deployment" if unknown. */
export async function deploymentLabel(ctx: TargetContext, deploymentId: number): Promise<string> {
  try {
    return `"${plainText((await (await ctx.client()).getDeployment(deploymentId)).name)}"`;
  } catch {
    return 'This deployment';
  }
}

export function deploymentNodeOf(node: ExplorerNode | undefined): DeploymentNode | undefined {
  const d = ancestor(node, 'deployment');
  return d instanceof DeploymentNode ? d : undefined;
}

/**
 * The item of `kind` the command acts on: the node's data, the id in the arguments (fetched when
 * `fetch` is given), the selection, or a pick from the first page of `list`.
 */
export async function resolveItem(
  ctx: TargetContext,
  arg: unknown,
  kind: 'report' | 'workbook' | 'notification',
  idKey: 'reportId' | 'workbookId' | 'notificationId',
  list: (c: PlatformClient, deploymentId: number) => Promise<{ items: unknown[] }>,
): Promise<{ deploymentId: number; item: Item; node?: ExplorerNode }> {
  const node = asNode(arg);
  const args = asArgs(arg);
  const direct = node && ancestor(node, kind);
  if (direct?.data) return { deploymentId: direct.deploymentId!, item: direct.data, node: direct };
  if (args[idKey] !== undefined) {
    const deploymentId = await resolveDeploymentId(ctx, arg);
    return { deploymentId, item: { id: Number(args[idKey]) } };
  }
  const sel = ctx.selection();
  const selected = sel && ancestor(sel, kind);
  if (selected?.data) return { deploymentId: selected.deploymentId!, item: selected.data, node: selected };
  const deploymentId = await resolveDeploymentId(ctx, arg);
  const page = await list(await ctx.client(), deploymentId);
  if (page.items.length === 0)
    throw new Error(`${await deploymentLabel(ctx, deploymentId)} has no ${kind}s.`);
  const item = await ctx.prompter().pick(
    kind[0]!.toUpperCase() + kind.slice(1),
    choices(page.items as Item[], (i) => (kind === 'notification' ? notificationDashboard(i) : undefined)),
    `Pick a ${kind}`,
  );
  return { deploymentId, item };
}

export const listFirst = {
  reports: (c: PlatformClient, d: number) => c.listReports(d, { first: PICK_PAGE }),
  workbooks: (c: PlatformClient, d: number) => c.listWorkbooks(d, { first: PICK_PAGE }),
  // Each notification's dashboard by name, as the tree shows it (a notification carries only its id).
  notifications: async (c: PlatformClient, d: number) => {
    const page = await c.listNotifications(d, { first: PICK_PAGE });
    await nameDashboards(c, d, page.items);
    return page;
  },
};

/** The list node of a kind under a deployment, when that deployment has been shown in the tree. */
export function listNodeOf(
  deployments: DeploymentNode[],
  deploymentId: number,
  kind: 'reports' | 'workbooks' | 'notifications' | 'folders',
): ListNode | undefined {
  return deployments.find((d) => d.deploymentId === deploymentId)?.list(kind);
}
