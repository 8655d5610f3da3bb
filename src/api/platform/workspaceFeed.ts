// The workspace as the platform shows it: one paged feed of folders, workbooks and reports per
// folder (folders first), the shared workspace, and moving and deleting items (one or in bulk).
import { z } from 'zod';
import { ApiError } from '../errors';
import type { PageParams } from '../paging';
import { id, maybe, parseInput, positiveId, type PlatformTransport } from './transport';

export const WORKSPACE_TYPES = ['FOLDER', 'WORKBOOK', 'REPORT'] as const;
export type WorkspaceType = (typeof WORKSPACE_TYPES)[number];

/**
 * An item of the feed (the documents type it as a Workbook whose `type` says what it is). Only id
 * and name are needed; `type` is kept as sent (an unknown kind shows as it is, and cannot be moved).
 */
export const WorkspaceItemSchema = z.looseObject({
  id,
  name: z.string(),
  type: maybe(z.string()),
  folderId: maybe(z.number()),
  parentId: maybe(z.number()),
  updatedAt: maybe(z.string()),
});
export type WorkspaceItem = z.infer<typeof WorkspaceItemSchema>;

export interface WorkspaceQuery extends PageParams {
  folderId?: number;
  types?: WorkspaceType[];
  search?: string;
  orderByField?: 'updated_at' | 'created_at' | 'name' | 'viewer_last_viewed_at';
  orderByDirection?: 'ASC' | 'DESC';
}

const ItemRefSchema = z.strictObject({ type: z.enum(WORKSPACE_TYPES), id: z.number().int().min(1) });
export type WorkspaceItemRef = z.infer<typeof ItemRefSchema>;

export const MoveInputSchema = z.strictObject({
  type: z.enum(WORKSPACE_TYPES),
  id: z.number().int().min(1),
  folderId: z.number().int().min(1).nullable(),
});
export const BulkMoveInputSchema = z.strictObject({
  items: z.array(ItemRefSchema).min(1).max(100),
  folderId: z.number().int().min(1).nullable(),
});
export const BulkDeleteInputSchema = z.strictObject({ items: z.array(ItemRefSchema).min(1).max(100) });

const FailureSchema = z.looseObject({
  type: z.string(),
  id,
  error: z.looseObject({ status: maybe(z.number()), message: maybe(z.string()) }).nullish(),
});
export type WorkspaceFailure = z.infer<typeof FailureSchema>;

export const BulkMoveResultSchema = z.looseObject({
  moved: z.array(z.unknown()),
  failed: z.array(FailureSchema),
});
export const BulkDeleteResultSchema = z.looseObject({
  deleted: z.array(z.looseObject({ type: z.string(), id })),
  failed: z.array(FailureSchema),
});

const deploymentPath = (deploymentId: number) =>
  `/v1/deployments/${positiveId(deploymentId, 'deploymentId')}`;

function feedQuery(q: WorkspaceQuery) {
  const { first, after, folderId, types, search, orderByField, orderByDirection } = q;
  return { first, after, folderId, types, search, orderByField, orderByDirection };
}

/** One page of a folder's items (undefined folder: the workspace root). */
export async function listWorkspace(
  t: PlatformTransport,
  deploymentId: number,
  q: WorkspaceQuery = {},
  signal?: AbortSignal,
) {
  return t.list(`${deploymentPath(deploymentId)}/workspace`, WorkspaceItemSchema, feedQuery(q), { signal });
}

/** One page of the shared workspace (what embed users are given), same parameters. */
export async function listSharedWorkspace(
  t: PlatformTransport,
  deploymentId: number,
  q: WorkspaceQuery = {},
  signal?: AbortSignal,
) {
  return t.list(`${deploymentPath(deploymentId)}/shared-workspace`, WorkspaceItemSchema, feedQuery(q), {
    signal,
  });
}

/** Moves one item into a folder (null: the workspace root); answers the moved item. */
export async function moveWorkspaceItem(
  t: PlatformTransport,
  deploymentId: number,
  item: WorkspaceItemRef,
  folderId: number | null,
  signal?: AbortSignal,
) {
  const body = parseInput(MoveInputSchema, { ...item, folderId }, 'Not moved');
  return t.write('POST', `${deploymentPath(deploymentId)}/workspace/move`, body, WorkspaceItemSchema, {
    signal,
    check: { hint: 'Refresh the workspace to see where the item is now.' },
  });
}

function checkBatch(items: readonly WorkspaceItemRef[], what: string) {
  if (items.length > 100)
    throw new ApiError('validation', `${what}: at most 100 items at once (got ${items.length}).`);
}

/** Moves up to 100 items; partially successful: `failed` says which were not moved and why. */
export async function bulkMoveWorkspaceItems(
  t: PlatformTransport,
  deploymentId: number,
  items: WorkspaceItemRef[],
  folderId: number | null,
  signal?: AbortSignal,
) {
  checkBatch(items, 'Not moved');
  const body = parseInput(BulkMoveInputSchema, { items, folderId }, 'Not moved');
  return t.write('POST', `${deploymentPath(deploymentId)}/workspace/bulk-move`, body, BulkMoveResultSchema, {
    signal,
    check: { hint: 'Refresh the workspace to see which items were moved.' },
  });
}

/** Deletes up to 100 items; partially successful, never rolled back. */
export async function bulkDeleteWorkspaceItems(
  t: PlatformTransport,
  deploymentId: number,
  items: WorkspaceItemRef[],
  signal?: AbortSignal,
) {
  checkBatch(items, 'Not deleted');
  const body = parseInput(BulkDeleteInputSchema, { items }, 'Not deleted');
  return t.write(
    'POST',
    `${deploymentPath(deploymentId)}/workspace/bulk-delete`,
    body,
    BulkDeleteResultSchema,
    { signal, check: { hint: 'Refresh the workspace to see which items were deleted.' } },
  );
}
