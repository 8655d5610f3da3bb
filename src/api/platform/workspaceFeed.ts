// The workspace as the platform shows it: one paged feed of folders, workbooks and reports per
// folder (folders first), the shared workspace, and moving and deleting items (one or in bulk).
import { z } from 'zod';
import { table } from './operation';
import { id, maybe, PageQuery } from './transport';

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

export const WorkspaceQuerySchema = PageQuery.extend({
  folderId: z.number().int().optional(),
  types: z.array(z.enum(WORKSPACE_TYPES)).optional(),
  search: z.string().optional(),
  orderByField: z.enum(['updated_at', 'created_at', 'name', 'viewer_last_viewed_at']).optional(),
  orderByDirection: z.enum(['ASC', 'DESC']).optional(),
});
export type WorkspaceQuery = z.input<typeof WorkspaceQuerySchema>;

const ItemRefSchema = z.strictObject({ type: z.enum(WORKSPACE_TYPES), id: z.number().int().min(1) });
export type WorkspaceItemRef = z.infer<typeof ItemRefSchema>;

export const MoveInputSchema = z.strictObject({
  type: z.enum(WORKSPACE_TYPES),
  id: z.number().int().min(1),
  folderId: z.number().int().min(1).nullable(),
});
const batch = z.array(ItemRefSchema).min(1).max(100, 'at most 100 items at once');
export const BulkMoveInputSchema = z.strictObject({
  items: batch,
  folderId: z.number().int().min(1).nullable(),
});
export const BulkDeleteInputSchema = z.strictObject({ items: batch });

const FailureSchema = z.looseObject({
  type: z.string(),
  id,
  error: z.looseObject({ status: maybe(z.number()), message: maybe(z.string()) }).nullish(),
});

export const BulkMoveResultSchema = z.looseObject({
  moved: z.array(z.unknown()),
  failed: z.array(FailureSchema),
});
export const BulkDeleteResultSchema = z.looseObject({
  deleted: z.array(z.looseObject({ type: z.string(), id })),
  failed: z.array(FailureSchema),
});

const dep = '/v1/deployments/{deploymentId}';
const check = (hint: string) => `Refresh the workspace to see ${hint}.`;

export const WORKSPACE_FEED = table(
  {},
  {
    /** One page of a folder's items (undefined folder: the workspace root). */
    listWorkspace: {
      method: 'GET',
      path: `${dep}/workspace`,
      query: WorkspaceQuerySchema,
      item: WorkspaceItemSchema,
    },
    /** One page of the shared workspace (what embed users are given), same parameters. */
    listSharedWorkspace: {
      method: 'GET',
      path: `${dep}/shared-workspace`,
      query: WorkspaceQuerySchema,
      item: WorkspaceItemSchema,
    },
    /** Moves one item into a folder (null: the workspace root); answers the moved item. */
    moveWorkspaceItem: {
      method: 'POST',
      path: `${dep}/workspace/move`,
      body: MoveInputSchema,
      answer: WorkspaceItemSchema,
      refused: 'Not moved',
      check: check('where the item is now'),
    },
    /** Moves up to 100 items; partially successful: `failed` says which were not moved and why. */
    bulkMoveWorkspaceItems: {
      method: 'POST',
      path: `${dep}/workspace/bulk-move`,
      body: BulkMoveInputSchema,
      answer: BulkMoveResultSchema,
      refused: 'Not moved',
      check: check('which items were moved'),
    },
    /** Deletes up to 100 items; partially successful, never rolled back. */
    bulkDeleteWorkspaceItems: {
      method: 'POST',
      path: `${dep}/workspace/bulk-delete`,
      body: BulkDeleteInputSchema,
      answer: BulkDeleteResultSchema,
      refused: 'Not deleted',
      check: check('which items were deleted'),
    },
  },
);
