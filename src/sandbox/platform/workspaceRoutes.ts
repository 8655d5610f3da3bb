// The workspace of a deployment as the published documents describe it: the unified feed (folders
// first, then workbooks and reports of one folder; search across all folders), the shared
// workspace (what embed users were given), move and bulk move/delete, and folder writes and
// ancestors. Report and workbook writes are in workspaceItemRoutes.ts.
import type { z } from 'zod';
import type { CreateFolderInput } from '../../api/platform/folders';
import type { MoveInputSchema, WorkspaceItemRef } from '../../api/platform/workspaceFeed';
import type { RequestContext, Router } from '../http';
import { deploymentRoutes, sendPage, type PlatformDeps } from './common';
import type { Row } from './seed';
import { registerWorkspaceItemRoutes } from './workspaceItemRoutes';
import { createWorkspaceModel, MAX_DEPTH, Refused, refusing, type ItemType } from './workspaceModel';

const ORDER_FIELDS: Record<string, string> = {
  name: 'name',
  updated_at: 'updatedAt',
  created_at: 'createdAt',
  viewer_last_viewed_at: 'updatedAt',
};

interface Failure {
  type: string;
  id: number;
  error: { status: number; message: string };
}

export function registerWorkspaceRoutes(router: Router, deps: PlatformDeps): void {
  const m = createWorkspaceModel(deps);
  const { d, folders, workbooks, reports, now, isShared, path, depth, feedItem, moveOne, deleteOne } = m;
  const { itemRoutes, deleteItem } = m;
  const on = deploymentRoutes(router, deps);
  const feed = (shared: boolean) => async (ctx: RequestContext, dep: Row) => {
    const folderText = ctx.query.get('folderId');
    const folderId = folderText ? Number(folderText) : null;
    const types = ctx.query.getAll('types').flatMap((t) => t.split(','));
    const orderText = ctx.query.get('orderByField');
    const direction = ctx.query.get('orderByDirection');
    const search = ctx.query.get('search')?.toLowerCase() ?? '';
    const want = (t: ItemType) => types.length === 0 || types.includes(t);
    // Search spans every folder; otherwise one level.
    const here = (parent: unknown) => (search ? true : (parent ?? null) === folderId);
    const named = (r: Row) => !search || String(r.name).toLowerCase().includes(search);
    const sharedWbs = shared ? workbooks(dep).filter((w) => isShared(dep, w)) : [];
    // Shared: a folder shows when something shared is inside it (navigation only).
    const sharedFolders = new Set<number>();
    for (const w of sharedWbs) for (const p of path(dep, w.folderId)) sharedFolders.add(p.id);
    const fs = folders(dep).filter(
      (f) => want('FOLDER') && here(f.parentId) && named(f) && (!shared || sharedFolders.has(f.id)),
    );
    let others: [ItemType, Row][] = [
      ...(want('WORKBOOK') ? (shared ? sharedWbs : workbooks(dep)) : [])
        .filter((w) => here(w.folderId) && named(w))
        .map((w) => ['WORKBOOK', w] as [ItemType, Row]),
      ...(want('REPORT') && !shared ? reports(dep) : [])
        .filter((r) => here(r.folderId) && named(r))
        .map((r) => ['REPORT', r] as [ItemType, Row]),
    ];
    const field = ORDER_FIELDS[orderText ?? 'name']!;
    const asc = direction ? direction === 'ASC' : field === 'name';
    others = others.sort(
      ([, a], [, b]) => (asc ? 1 : -1) * (String(a[field]).localeCompare(String(b[field])) || a.id - b.id),
    );
    const rows = [
      ...fs.map((f) => feedItem(dep, 'FOLDER', f)),
      ...others.map(([t, r]) => {
        const item = feedItem(dep, t, r);
        // Owner identities are blanked out in the shared feed.
        if (shared) delete item.user;
        return item;
      }),
    ];
    const key = `${shared ? 'shared' : 'ws'}:${dep.id}:${folderText ?? ''}:${types.join(',')}:${search}:${orderText ?? ''}:${direction ?? ''}`;
    await sendPage(ctx, rows, key);
  };
  on('GET', '/workspace', feed(false));
  on('GET', '/shared-workspace', feed(true));

  on('POST', '/workspace/move', async (ctx, dep) => {
    const b = ctx.body as z.infer<typeof MoveInputSchema>;
    await refusing(ctx, () => ctx.json(200, feedItem(dep, b.type, moveOne(dep, b.type, b.id, b.folderId))));
  });

  /**
   * Runs `one` on each distinct item of a bulk body (`items`): what it answered for each, and the
   * refusals, each with the status the single operation would answer.
   */
  const bulk = <T>(body: unknown, one: (i: WorkspaceItemRef) => T) => {
    const seen = new Set<string>();
    const done: T[] = [];
    const failed: Failure[] = [];
    for (const i of (body as { items: WorkspaceItemRef[] }).items) {
      const k = `${i.type}:${i.id}`;
      if (seen.has(k)) continue;
      seen.add(k);
      try {
        done.push(one(i));
      } catch (e) {
        if (!(e instanceof Refused)) throw e;
        failed.push({ ...i, error: { status: e.status, message: e.message } });
      }
    }
    return [done, failed] as const;
  };
  on('POST', '/workspace/bulk-move', async (ctx, dep) => {
    const to = (ctx.body as { folderId: number | null }).folderId;
    const [moved, failed] = bulk(ctx.body, (i) => feedItem(dep, i.type, moveOne(dep, i.type, i.id, to)));
    await ctx.json(200, { moved, failed });
  });
  // A folder's contents go back to the root.
  on('POST', '/workspace/bulk-delete', async (ctx, dep) => {
    const [deleted, failed] = bulk(ctx.body, (i) => (deleteOne(dep, i.type, i.id), i));
    await ctx.json(200, { deleted, failed });
  });

  // ---- folders
  const folder = itemRoutes(on, 'FOLDER');

  on('POST', '/folders', async (ctx, dep) => {
    const b = ctx.body as CreateFolderInput;
    const parentId = b.parentId ?? null;
    if (parentId !== null && !folders(dep).some((f) => f.id === parentId))
      return ctx.error(404, `Folder ${parentId} not found.`);
    if (depth(dep, parentId) + 1 > MAX_DEPTH)
      return ctx.error(400, `Folders can be nested at most ${MAX_DEPTH} deep.`);
    const t = now();
    const folder: Row = {
      id: d.nextId(),
      name: b.name.trim(),
      parentId,
      deploymentId: dep.id,
      type: 'FOLDER',
      position: folders(dep).length,
      createdAt: t,
      updatedAt: t,
      createdBy: 1,
      updatedBy: null,
      user: null,
    };
    d.folders.get(dep.id)!.push(folder);
    await ctx.json(200, folder);
  });
  folder('PUT', '/folders/:folderId', async (ctx, _dep, f) => {
    f.name = (ctx.body as { name: string }).name.trim();
    f.updatedAt = now();
    await ctx.json(200, f);
  });
  on('DELETE', '/folders/:folderId', deleteItem('FOLDER'));
  folder('GET', '/folders/:folderId/ancestors', async (ctx, dep, f) => {
    const chain = path(dep, f.id).map((p) => folders(dep).find((x) => x.id === p.id)!);
    await ctx.json(200, chain);
  });

  registerWorkspaceItemRoutes(router, deps, m);
}
