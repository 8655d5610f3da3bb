// Folder writes of a deployment's workspace (create, rename, delete) and a folder's ancestors,
// which "Reveal in Explorer" walks to expand the tree down to an item.
import { z } from 'zod';
import { ApiError } from '../errors';
import { call, table } from './operation';
import { maybe, type PlatformTransport } from './transport';
import { FolderSchema } from './workspace';

/** The published CreateFolderInput: a name (at most 255 characters), at the root or under a parent. */
export const CreateFolderInputSchema = z.strictObject({
  name: z.string().trim().min(1).max(255),
  parentId: maybe(z.number().int()),
});
export type CreateFolderInput = z.infer<typeof CreateFolderInputSchema>;

/** The published UpdateFolderInput, the field the extension changes (re-parenting is a move). */
export const UpdateFolderInputSchema = z.strictObject({ name: z.string().trim().min(1).max(255) });

const folder = '/v1/deployments/{deploymentId}/folders/{folderId}';

export const FOLDERS = table(
  {},
  {
    createFolder: {
      method: 'POST',
      path: '/v1/deployments/{deploymentId}/folders',
      body: CreateFolderInputSchema,
      answer: FolderSchema,
      refused: 'Folder not created',
      check: 'Refresh the workspace to see whether the folder was created before creating it again.',
    },
    renameFolder: {
      method: 'PUT',
      path: folder,
      body: UpdateFolderInputSchema,
      answer: FolderSchema,
      refused: 'Folder not renamed',
      check: 'Refresh the workspace to see the folder’s name.',
    },
    deleteFolder: {
      method: 'DELETE',
      path: folder,
      check: 'Refresh the workspace to see whether the folder was deleted.',
    },
  },
);

const ANCESTORS = table(
  {},
  {
    getFolderAncestors: {
      method: 'GET',
      path: `${folder}/ancestors`,
      answer: z.array(z.unknown()),
    },
  },
);

/** The chain from the workspace root down to (and including) the folder. */
export async function getFolderAncestors(
  t: PlatformTransport,
  deploymentId: number,
  folderId: number,
  signal?: AbortSignal,
) {
  const raw = await call(t, ANCESTORS.getFolderAncestors, deploymentId, folderId, signal);
  // Tolerant: an entry without an id cannot be expanded, so the chain stops being usable there.
  const chain = raw.map((v) => FolderSchema.safeParse(v));
  const bad = chain.findIndex((c) => !c.success);
  if (bad >= 0) throw new ApiError('protocol', `Folder ancestors: entry ${bad} has no readable id and name.`);
  return chain.map((c) => c.data!);
}
