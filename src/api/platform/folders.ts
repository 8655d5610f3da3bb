// Folder writes of a deployment's workspace (create, rename, delete) and a folder's ancestors,
// which "Reveal in Explorer" walks to expand the tree down to an item.
import { z } from 'zod';
import { ApiError } from '../errors';
import { maybe, parseInput, positiveId, type PlatformTransport } from './transport';
import { FolderSchema } from './workspace';

/** The published CreateFolderInput: a name (at most 255 characters), at the root or under a parent. */
export const CreateFolderInputSchema = z.strictObject({
  name: z.string().trim().min(1).max(255),
  parentId: maybe(z.number().int()),
});
export type CreateFolderInput = z.infer<typeof CreateFolderInputSchema>;

/** The published UpdateFolderInput, the field the extension changes (re-parenting is a move). */
export const UpdateFolderInputSchema = z.strictObject({ name: z.string().trim().min(1).max(255) });

const foldersPath = (deploymentId: number) =>
  `/v1/deployments/${positiveId(deploymentId, 'deploymentId')}/folders`;

export async function createFolder(
  t: PlatformTransport,
  deploymentId: number,
  input: CreateFolderInput,
  signal?: AbortSignal,
) {
  const body = parseInput(CreateFolderInputSchema, input, 'Folder not created');
  return t.write('POST', foldersPath(deploymentId), body, FolderSchema, {
    signal,
    check: { hint: 'Refresh the workspace to see whether the folder was created before creating it again.' },
  });
}

export async function renameFolder(
  t: PlatformTransport,
  deploymentId: number,
  folderId: number,
  name: string,
  signal?: AbortSignal,
) {
  const body = parseInput(UpdateFolderInputSchema, { name }, 'Folder not renamed');
  return t.write(
    'PUT',
    `${foldersPath(deploymentId)}/${positiveId(folderId, 'folderId')}`,
    body,
    FolderSchema,
    {
      signal,
      check: { hint: 'Refresh the workspace to see the folder’s name.' },
    },
  );
}

export async function deleteFolder(
  t: PlatformTransport,
  deploymentId: number,
  folderId: number,
  signal?: AbortSignal,
): Promise<number> {
  return t.writeNoContent('DELETE', `${foldersPath(deploymentId)}/${positiveId(folderId, 'folderId')}`, {
    signal,
    check: { hint: 'Refresh the workspace to see whether the folder was deleted.' },
  });
}

/** The chain from the workspace root down to (and including) the folder. */
export async function getFolderAncestors(
  t: PlatformTransport,
  deploymentId: number,
  folderId: number,
  signal?: AbortSignal,
) {
  const raw = await t.get(
    `${foldersPath(deploymentId)}/${positiveId(folderId, 'folderId')}/ancestors`,
    z.array(z.unknown()),
    { signal },
  );
  // Tolerant: an entry without an id cannot be expanded, so the chain stops being usable there.
  const chain = raw.map((v) => FolderSchema.safeParse(v));
  const bad = chain.findIndex((c) => !c.success);
  if (bad >= 0) throw new ApiError('protocol', `Folder ancestors: entry ${bad} has no readable id and name.`);
  return chain.map((c) => c.data!);
}
