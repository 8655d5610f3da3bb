// The sandbox's model of a deployment's workspace, shared by the workspace routes and the report
// and workbook routes: lists, folder paths, the feed's item shape, moving and deleting one item,
// and the embed audiences of each workbook.
import type { WorkspaceType } from '../../api/platform/workspaceFeed';
import type { Method, RequestContext } from '../http';
import type { DeploymentRoutes, PlatformDeps } from './common';
import type { Row } from './seed';

export type ItemType = WorkspaceType;
export const MAX_DEPTH = 6;
/** The path parameter naming an item of each type, and how a message names the type. */
const PARAM = { FOLDER: 'folderId', WORKBOOK: 'workbookId', REPORT: 'reportId' } as const;
const NAME = { FOLDER: 'Folder', WORKBOOK: 'Workbook', REPORT: 'Report' } as const;

/** A refusal with the status the per-item operation answers (bulk operations report it per item). */
export class Refused extends Error {
  constructor(
    readonly status: number,
    message: string,
  ) {
    super(message);
  }
}

/** Runs a handler's work, answering a Refused with its status. */
export async function refusing(ctx: RequestContext, work: () => Promise<void>): Promise<void> {
  try {
    await work();
  } catch (e) {
    if (!(e instanceof Refused)) throw e;
    await ctx.error(e.status, e.message);
  }
}

/** The published `folderPath` of an item in `folderId`: root first, the folder itself last. */
export function folderPathOf(data: PlatformDeps['data'], deploymentId: number, folderId: unknown) {
  const all = data.folders.get(deploymentId) ?? [];
  const out: { id: number; name: string }[] = [];
  let f = all.find((x) => x.id === folderId);
  for (let i = 0; f && i < 50; i++) {
    out.unshift({ id: f.id, name: String(f.name) });
    const parent = f.parentId;
    f = all.find((x) => x.id === parent);
  }
  return out;
}

/** A report or workbook as served, with its folder path (computed, so moves and renames show). */
export function withFolderPath(
  data: PlatformDeps['data'],
  deploymentId: number,
  row: Record<string, unknown>,
) {
  return { ...row, folderPath: folderPathOf(data, deploymentId, row.folderId) };
}

export type WorkspaceModel = ReturnType<typeof createWorkspaceModel>;

const EMBED_AUDIENCES = new WeakMap<object, Map<string, { all: boolean; tenants: Set<string> }>>();

export function createWorkspaceModel(deps: PlatformDeps) {
  const d = deps.data;
  const folders = (dep: Row) => d.folders.get(dep.id) ?? [];
  const reports = (dep: Row) => d.reports.get(dep.id) ?? [];
  const workbooks = (dep: Row) => d.workbooks.get(dep.id) ?? [];
  const now = () => new Date().toISOString();

  // Embed audiences per workbook (not part of the Workbook shape): one published workbook in four
  // starts shared with all embed users.
  // One map per sandbox (keyed by its data), so every route sees the same audiences.
  const embed = EMBED_AUDIENCES.get(d) ?? new Map<string, { all: boolean; tenants: Set<string> }>();
  EMBED_AUDIENCES.set(d, embed);
  const embedOf = (dep: Row, w: Row) => {
    const key = `${dep.id}:${w.id}`;
    let e = embed.get(key);
    if (!e) {
      e = { all: w.publishedDashboard !== null && (w.id % 1000) % 4 === 1, tenants: new Set() };
      embed.set(key, e);
    }
    return e;
  };
  const isShared = (dep: Row, w: Row) => {
    const e = embedOf(dep, w);
    return w.publishedDashboard !== null && (e.all || e.tenants.size > 0);
  };

  const path = (dep: Row, folderId: unknown) => folderPathOf(d, dep.id, folderId);
  const depth = (dep: Row, folderId: unknown) => path(dep, folderId).length;

  /** An item of the feed, in the documents' Workbook shape (the only fields it declares). */
  const feedItem = (dep: Row, type: ItemType, row: Row): Record<string, unknown> => {
    const folderId = (type === 'FOLDER' ? row.parentId : row.folderId) ?? null;
    return {
      id: row.id,
      name: row.name,
      type,
      deploymentId: dep.id,
      folderId,
      folderPath: path(dep, folderId),
      createdAt: row.createdAt,
      updatedAt: row.updatedAt,
      meta: {},
      calculatedFields: {},
      ...(type === 'WORKBOOK'
        ? { slug: row.slug ?? null, publishedDashboard: row.publishedDashboard ?? null }
        : {}),
      ...(row.user !== undefined ? { user: row.user } : {}),
    };
  };

  const listOf = (dep: Row, type: ItemType) =>
    type === 'FOLDER' ? folders(dep) : type === 'REPORT' ? reports(dep) : workbooks(dep);

  /** Moves one item or throws Refused with the status the single move would answer. */
  const moveOne = (dep: Row, type: ItemType, id: number, folderId: number | null): Row => {
    const row = listOf(dep, type).find((r) => r.id === id);
    if (!row) throw new Refused(404, `${type} ${id} not found.`);
    if (folderId !== null && !folders(dep).some((f) => f.id === folderId))
      throw new Refused(404, `Folder ${folderId} not found.`);
    if (type === 'FOLDER') {
      if (folderId !== null && path(dep, folderId).some((p) => p.id === id))
        throw new Refused(400, 'A folder cannot be moved into itself or one of its own subfolders.');
      const below = (fid: number): number =>
        1 +
        Math.max(
          0,
          ...folders(dep)
            .filter((f) => f.parentId === fid)
            .map((f) => below(f.id)),
        );
      if (depth(dep, folderId) + below(id) > MAX_DEPTH)
        throw new Refused(400, `Folders can be nested at most ${MAX_DEPTH} deep.`);
      row.parentId = folderId;
    } else row.folderId = folderId;
    row.updatedAt = now();
    return row;
  };
  /** Adds routes of the report, workbook or folder the path names (404 when the deployment has none). */
  const itemRoutes =
    (on: DeploymentRoutes, type: ItemType) =>
    (method: Method, path: string, fn: (ctx: RequestContext, dep: Row, row: Row) => Promise<void>) =>
      on(method, path, async (ctx, dep) => {
        const id = ctx.params[PARAM[type]];
        const row = listOf(dep, type).find((r) => r.id === Number(id));
        return row ? fn(ctx, dep, row) : ctx.error(404, `${NAME[type]} ${id} not found.`);
      });
  /** DELETE of the item the path names (a folder's contents go back to the root); 200 as published. */
  const deleteItem = (type: ItemType) => (ctx: RequestContext, dep: Row) =>
    refusing(ctx, async () => {
      deleteOne(dep, type, Number(ctx.params[PARAM[type]]));
      await ctx.json(200, {});
    });
  const deleteOne = (dep: Row, type: ItemType, id: number) => {
    const list = listOf(dep, type);
    const at = list.findIndex((r) => r.id === id);
    if (at < 0) throw new Refused(404, `${type} ${id} not found.`);
    if (type === 'FOLDER') {
      if (folders(dep).some((f) => f.parentId === id))
        throw new Refused(400, 'The folder still has subfolders: delete or move them first.');
      for (const r of [...reports(dep), ...workbooks(dep)]) if (r.folderId === id) r.folderId = null;
    }
    list.splice(at, 1);
  };

  return {
    d,
    folders,
    reports,
    workbooks,
    now,
    embedOf,
    isShared,
    path,
    depth,
    feedItem,
    listOf,
    moveOne,
    deleteOne,
    itemRoutes,
    deleteItem,
  };
}
