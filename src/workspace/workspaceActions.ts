// The workspace's actions: create a folder, rename, move (several at once, also by drag and drop),
// delete (several at once, one modal confirmation listing them), and reveal an item in the tree
// by walking its folder ancestors. Every command takes the clicked node and the multi-selection
// VS Code passes, an arguments object (tests, other features), or asks with pickers.
import * as vscode from 'vscode';
import type { WorkspaceItemRef, WorkspaceType } from '../api/platformClient';
import { UserCancelled } from '../log';
import type { ExplorerContext } from '../explorer/context';
import { EXPLORER_VIEW_ID } from '../explorer/ids';
import { displayName, plainText } from '../explorer/labels';
import type { Item } from '../explorer/loaders';
import { ListNode } from '../explorer/nodes/listNode';
import { ExplorerNode } from '../explorer/nodes/types';
import { asArgs, resolveDeploymentId } from '../explorer/targets';

/** One workspace item a command acts on. */
export interface Target {
  deploymentId: number;
  type: WorkspaceType;
  id: number;
  name: string;
  node?: ExplorerNode;
}

const TYPE_OF: Partial<Record<string, WorkspaceType>> = {
  folder: 'FOLDER',
  report: 'REPORT',
  workbook: 'WORKBOOK',
};
const NOUN: Record<WorkspaceType, string> = { FOLDER: 'folder', REPORT: 'report', WORKBOOK: 'workbook' };

/** The workspace item a node shows, if it is one (shared-workspace folders are navigation only). */
export function targetOf(node: ExplorerNode): Target | undefined {
  const type = TYPE_OF[node.kind];
  const data = node.data;
  if (!type || !data || node.deploymentId === undefined) return undefined;
  const id = Number(data['id']);
  if (!Number.isInteger(id)) return undefined;
  return { deploymentId: node.deploymentId, type, id, name: displayName(data), node };
}

/** The nodes of a command call: the multi-selection when the clicked node is part of it. */
export function nodesOf(arg: unknown, all: unknown): ExplorerNode[] {
  const list = Array.isArray(all) ? all.filter((n): n is ExplorerNode => n instanceof ExplorerNode) : [];
  if (arg instanceof ExplorerNode) return list.includes(arg) ? list : [arg];
  return list;
}

export class WorkspaceActions {
  constructor(private readonly ctx: ExplorerContext) {}

  private get targets() {
    return this.ctx.targets;
  }

  private get prompter() {
    return this.targets.prompter();
  }

  /** Re-fetches the workspace and the flat lists of a deployment that are shown. */
  refreshDeployment(deploymentId: number): void {
    const dep = this.ctx.provider.loadedDeployments().find((d) => d.deploymentId === deploymentId);
    if (!dep) return;
    for (const kind of ['workspace', 'sharedWorkspace', 'folders', 'reports', 'workbooks'] as const)
      this.ctx.provider.refresh(dep.list(kind));
  }

  /**
   * Targets from nodes, the selection or `{deploymentId, items: [{type, id, name?}]}`; a pick when
   * none.
   */
  async resolveTargets(arg: unknown, all: unknown, verb: string): Promise<Target[]> {
    // From the palette or a key (no arguments): the explorer's selection, when it holds only
    // workspace items, as their context menu would pass it.
    const nodes = arg === undefined && all === undefined ? this.selectedItems() : nodesOf(arg, all);
    if (nodes.length > 0) {
      const targets = nodes.map(targetOf);
      if (targets.some((t) => t === undefined))
        throw new Error(`Only folders, reports and workbooks of the workspace can be ${verb}.`);
      const list = targets as Target[];
      if (new Set(list.map((t) => t.deploymentId)).size > 1)
        throw new Error(`Select items of one deployment to ${verb.replace(/d$/, '')} them together.`);
      return list;
    }
    const args = asArgs<{ items: { type: WorkspaceType; id: number; name?: string }[] }>(arg);
    const deploymentId = await resolveDeploymentId(this.targets, arg);
    if (args.items)
      return args.items.map((i) => ({ deploymentId, type: i.type, id: i.id, name: i.name ?? `#${i.id}` }));
    const page = await (await this.targets.client()).listWorkspace(deploymentId, { first: 200, search: '' });
    const picked = await this.prompter.pick(
      `Workspace items to be ${verb}`,
      (page.items as Item[])
        .filter((i) => TYPE_OF[String(i['type']).toLowerCase()] !== undefined)
        .map((i) => ({
          label: displayName(i),
          description: NOUN[i['type'] as WorkspaceType],
          value: i,
        })),
    );
    return [
      {
        deploymentId,
        type: picked['type'] as WorkspaceType,
        id: Number(picked['id']),
        name: displayName(picked),
      },
    ];
  }

  /** The explorer's selection when every selected row is a folder, report or workbook; else none. */
  private selectedItems(): ExplorerNode[] {
    const selection = this.ctx.view.selection;
    return selection.length > 0 && selection.every((n) => targetOf(n) !== undefined) ? [...selection] : [];
  }

  /** Every folder of a deployment, root first, walking one level per request (for the pickers). */
  async allFolders(deploymentId: number): Promise<{ id: number; path: string }[]> {
    const client = await this.targets.client();
    const out: { id: number; path: string }[] = [];
    const queue: { parentId?: number; path: string }[] = [{ path: '' }];
    while (queue.length > 0 && out.length < 500) {
      const { parentId, path } = queue.shift()!;
      let after: string | undefined;
      do {
        const page = await client.listFolders(deploymentId, {
          first: 200,
          ...(parentId !== undefined ? { parentId } : {}),
          ...(after ? { after } : {}),
        });
        // Without parentId some servers list every level: keep the roots only at the top.
        for (const f of page.items.filter((x) => parentId !== undefined || x.parentId == null)) {
          const p = path ? `${path} / ${plainText(f.name)}` : plainText(f.name);
          out.push({ id: f.id, path: p });
          queue.push({ parentId: f.id, path: p });
        }
        after = page.pageInfo?.hasNextPage ? (page.pageInfo.endCursor ?? undefined) : undefined;
      } while (after);
    }
    return out;
  }

  async pickFolder(
    deploymentId: number,
    title: string,
    exclude: number[] = [],
  ): Promise<{ id: number | null; name: string }> {
    const folders = await vscode.window.withProgress({ location: { viewId: EXPLORER_VIEW_ID } }, () =>
      this.allFolders(deploymentId),
    );
    return this.prompter.pick<{ id: number | null; name: string }>(title, [
      { label: 'Workspace root', value: { id: null, name: 'the workspace root' } },
      ...folders
        // A folder cannot go into itself or below itself.
        .filter((f) => !exclude.some((x) => isBelow(folders, f.id, x)))
        .map((f) => ({ label: f.path, description: 'folder', value: { id: f.id, name: `"${f.path}"` } })),
    ]);
  }

  // --- commands ----------------------------------------------------------------------------------

  async createFolder(arg?: unknown) {
    const node = arg instanceof ExplorerNode ? arg : undefined;
    const args = asArgs<{ name: string; parentId: number | null }>(arg);
    const deploymentId = await resolveDeploymentId(this.targets, arg);
    const parent = node && node.kind === 'folder' ? targetOf(node) : undefined;
    const parentId =
      parent?.id ??
      (args.parentId !== undefined
        ? args.parentId
        : node
          ? null
          : (await this.pickFolder(deploymentId, 'Create the folder in')).id);
    const name =
      args.name ??
      (await this.prompter.input({
        title: 'New Folder',
        prompt: parent ? `A folder in "${parent.name}".` : 'A folder at the workspace root.',
        validate: (v) =>
          v.trim() === '' ? 'Enter a name.' : v.length > 255 ? 'At most 255 characters.' : undefined,
      }));
    await this.ctx.confirmWrite(`Create the folder "${plainText(name)}"`);
    const folder = await (
      await this.targets.client()
    ).createFolder(deploymentId, {
      name: name.trim(),
      ...(parentId !== null && parentId !== undefined ? { parentId } : {}),
    });
    this.refreshDeployment(deploymentId);
    return folder;
  }

  async rename(arg?: unknown, all?: unknown) {
    const targets = await this.resolveTargets(arg, all, 'renamed');
    if (targets.length !== 1) throw new Error('Rename one item at a time.');
    const t = targets[0]!;
    const name =
      asArgs<{ name: string }>(arg).name ??
      (await this.prompter.input({
        title: `Rename ${NOUN[t.type]} "${t.name}"`,
        prompt: 'The new name.',
        value: t.name,
        validate: (v) =>
          v.trim() === '' ? 'Enter a name.' : v.length > 255 ? 'At most 255 characters.' : undefined,
      }));
    await this.ctx.confirmWrite(`Rename ${NOUN[t.type]} "${t.name}" to "${plainText(name)}"`);
    const c = await this.targets.client();
    if (t.type === 'FOLDER') await c.renameFolder(t.deploymentId, t.id, { name: name.trim() });
    else if (t.type === 'REPORT') await c.updateReport(t.deploymentId, t.id, { name: name.trim() });
    else await c.updateWorkbook(t.deploymentId, t.id, { name: name.trim() });
    this.refreshDeployment(t.deploymentId);
    return name.trim();
  }

  /** Moves items into a folder (null: the root): one request for one item, a bulk move for several. */
  async move(arg?: unknown, all?: unknown) {
    const args = asArgs<{ folderId: number | null; target: ExplorerNode }>(arg);
    const given = asArgs<{ nodes: ExplorerNode[] }>(arg).nodes;
    const targets = given
      ? await this.resolveTargets(undefined, given, 'moved')
      : await this.resolveTargets(arg, all, 'moved');
    const deploymentId = targets[0]!.deploymentId;
    let folderId: number | null;
    let where: string;
    if (args.target instanceof ExplorerNode) {
      const folder = args.target.kind === 'folder' ? args.target.data : undefined;
      folderId = folder ? Number(folder['id']) : null;
      where = folder ? `"${displayName(folder)}"` : 'the workspace root';
    } else if (args.folderId !== undefined) {
      folderId = args.folderId;
      where = folderId === null ? 'the workspace root' : 'the folder given';
    } else {
      const picked = await this.pickFolder(
        deploymentId,
        `Move ${targets.length === 1 ? `"${targets[0]!.name}"` : `${targets.length} items`} to`,
        targets.filter((t) => t.type === 'FOLDER').map((t) => t.id),
      );
      folderId = picked.id;
      where = picked.name;
    }
    await this.ctx.confirmWrite(`Move ${describe(targets)} to ${where}`);
    const c = await this.targets.client();
    const refs: WorkspaceItemRef[] = targets.map((t) => ({ type: t.type, id: t.id }));
    const failed: { type: string; id: number; error?: { message?: string | null } | null }[] = [];
    if (refs.length === 1) await c.moveWorkspaceItem(deploymentId, { ...refs[0]!, folderId });
    else {
      for (let i = 0; i < refs.length; i += 100)
        failed.push(
          ...(await c.bulkMoveWorkspaceItems(deploymentId, { items: refs.slice(i, i + 100), folderId }))
            .failed,
        );
    }
    this.refreshDeployment(deploymentId);
    if (failed.length > 0)
      throw new Error(
        `Moved ${refs.length - failed.length} of ${refs.length}; not moved: ${failures(failed, targets)}`,
      );
    void vscode.window.showInformationMessage(`Moved ${describe(targets)} to ${where}.`);
    return { moved: refs.length, folderId };
  }

  /** Deletes items after one modal confirmation that lists them; reports what was not deleted. */
  async delete(arg?: unknown, all?: unknown) {
    const targets = await this.resolveTargets(arg, all, 'deleted');
    const deploymentId = targets[0]!.deploymentId;
    const names = targets.slice(0, 12).map((t) => `• ${t.name} (${NOUN[t.type]})`);
    if (targets.length > 12) names.push(`… and ${targets.length - 12} more`);
    const ok = await this.prompter.confirm(
      `Delete ${describe(targets)}?`,
      `${names.join('\n')}\n\nThis cannot be undone. A deleted folder’s reports and workbooks move to the workspace root; a folder with subfolders is not deleted.`,
      'Delete',
    );
    if (!ok) throw new UserCancelled();
    await this.ctx.confirmWrite(`Delete ${describe(targets)}`);
    const c = await this.targets.client();
    const failed: { type: string; id: number; error?: { message?: string | null } | null }[] = [];
    const refs: WorkspaceItemRef[] = targets.map((t) => ({ type: t.type, id: t.id }));
    for (let i = 0; i < refs.length; i += 100)
      failed.push(
        ...(await c.bulkDeleteWorkspaceItems(deploymentId, { items: refs.slice(i, i + 100) })).failed,
      );
    this.refreshDeployment(deploymentId);
    if (failed.length > 0)
      throw new Error(
        `Deleted ${refs.length - failed.length} of ${refs.length}; not deleted: ${failures(failed, targets)}`,
      );
    void vscode.window.showInformationMessage(`Deleted ${describe(targets)}.`);
    return { deleted: refs.length };
  }

  /**
   * Shows an item in the workspace tree: expands its folder's ancestors (one request) and pages
   * each level until the next node is found. Takes a node or `{deploymentId, type, id}`.
   */
  async reveal(arg?: unknown): Promise<ExplorerNode> {
    const node = arg instanceof ExplorerNode ? arg : undefined;
    let t = node ? targetOf(node) : undefined;
    const args = asArgs<{ type: WorkspaceType; id: number }>(arg);
    if (!t && args.type && args.id !== undefined)
      t = {
        deploymentId: await resolveDeploymentId(this.targets, arg),
        type: args.type,
        id: args.id,
        name: '',
      };
    if (!t) t = (await this.resolveTargets(arg, undefined, 'revealed'))[0]!;
    const c = await this.targets.client();
    let folderId: number | null;
    if (t.type === 'FOLDER') folderId = t.id;
    else {
      const item = (
        t.type === 'REPORT'
          ? await c.getReport(t.deploymentId, t.id)
          : await c.getWorkbook(t.deploymentId, t.id)
      ) as Item;
      folderId = typeof item['folderId'] === 'number' ? item['folderId'] : null;
    }
    const chain =
      folderId === null ? [] : (await c.getFolderAncestors(t.deploymentId, folderId)).map((f) => f.id);
    // The folders down to the item's folder, then the item itself (a folder is its own last ancestor).
    const steps = [
      ...chain.map((id) => ({ kind: 'folder', id })),
      ...(t.type === 'FOLDER' ? [] : [{ kind: NOUN[t.type], id: t.id }]),
    ];
    const view = this.ctx.view;
    // VS Code's reveal gives up silently (it only logs) when the tree refreshes while it resolves
    // the node's parents, for example after a write elsewhere: walk again from the fresh lists.
    for (let attempt = 1; ; attempt++) {
      let list: ListNode = await this.ctx.listOf(t.deploymentId, 'workspace');
      let found: ExplorerNode = list;
      for (const step of steps) {
        found = await findIn(list, step.kind, step.id);
        if (found instanceof ListNode) list = found;
      }
      await view.reveal(found, { select: true, focus: true, expand: t.type === 'FOLDER' ? 1 : false });
      if (await selected(view, found.id)) return found;
      if (attempt === 3)
        throw new Error(
          `Could not show the ${NOUN[t.type]} in the explorer: the tree kept changing. Refresh it and try again.`,
        );
    }
  }
}

/** Whether the view's selection holds the node with this id (now, or within `ms`). */
async function selected(
  view: vscode.TreeView<ExplorerNode>,
  id: string | undefined,
  ms = 3000,
): Promise<boolean> {
  const has = () => view.selection.some((n) => n.id === id);
  if (has()) return true;
  return new Promise((resolve) => {
    const timer = setTimeout(() => {
      sub.dispose();
      resolve(has());
    }, ms);
    const sub = view.onDidChangeSelection(() => {
      if (!has()) return;
      clearTimeout(timer);
      sub.dispose();
      resolve(true);
    });
  });
}

/** The child of `list` showing item `id` of `kind`, loading more pages as needed. */
async function findIn(list: ListNode, kind: string, id: number): Promise<ExplorerNode> {
  for (let i = 0; i < 100; i++) {
    const children = await list.getChildren();
    const hit = children.find((n) => n.kind === kind && Number(n.data?.['id']) === id);
    if (hit) return hit;
    if (!list.paging.snapshot().hasMore) break;
    await list.loadMore();
  }
  throw new Error(
    `The ${kind} #${id} is not in the workspace list (it may have been moved or deleted: refresh).`,
  );
}

/** Whether folder `id` is `ancestor` or below it, by the picker's paths (walked root first). */
function isBelow(folders: { id: number; path: string }[], id: number, ancestor: number): boolean {
  const a = folders.find((f) => f.id === ancestor);
  const f = folders.find((x) => x.id === id);
  return !!a && !!f && (f.path === a.path || f.path.startsWith(`${a.path} / `));
}

function describe(targets: Target[]): string {
  if (targets.length === 1) return `${NOUN[targets[0]!.type]} "${targets[0]!.name}"`;
  return `${targets.length} items`;
}

function failures(
  failed: { type: string; id: number; error?: { message?: string | null } | null }[],
  targets: Target[],
): string {
  return failed
    .map((f) => {
      const t = targets.find((x) => x.type === f.type && x.id === f.id);
      return `${t?.name ?? `${f.type} #${f.id}`} (${plainText(f.error?.message ?? 'no reason given')})`;
    })
    .join('; ');
}
