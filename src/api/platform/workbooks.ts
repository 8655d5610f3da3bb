// Workbook writes: create, rename (name, slug), delete, upsert by slug, and the embed access of a
// workbook's published dashboard. Reads, duplicate and publish are in workspace.ts / dashboards.ts.
import { z } from 'zod';
import { ApiError } from '../errors';
import { maybe, parseInput, positiveId, type PlatformTransport } from './transport';
import { WorkbookSchema } from './workspace';

/** The published CreateWorkbookInput, the fields the extension sets. */
export const CreateWorkbookInputSchema = z.strictObject({
  name: z.string().trim().min(1),
  folderId: maybe(z.number().int().min(1)),
});
export type CreateWorkbookInput = z.infer<typeof CreateWorkbookInputSchema>;

/** The published UpdateWorkbookInput, the fields the extension changes. */
export const UpdateWorkbookInputSchema = z
  .strictObject({
    name: z.string().trim().min(1).optional(),
    slug: z.string().trim().min(1).optional(),
    slugTakeover: z.boolean().optional(),
  })
  .refine((v) => v.name !== undefined || v.slug !== undefined, { message: 'nothing to change' });
export type UpdateWorkbookInput = z.infer<typeof UpdateWorkbookInputSchema>;

export const EmbedAccessSchema = z.looseObject({
  allowEmbed: z.boolean(),
  allEmbedUsers: z.looseObject({ enabled: z.boolean(), action: maybe(z.string()) }).nullish(),
  tenants: z.array(z.looseObject({ embedTenantName: z.string(), action: maybe(z.string()) })).nullish(),
});
export type EmbedAccess = z.infer<typeof EmbedAccessSchema>;

/** The published UpdateEmbedAccessInput: at most one audience, with its action, and/or allowEmbed. */
export const UpdateEmbedAccessInputSchema = z
  .strictObject({
    embedTenantName: z.string().trim().min(1).optional(),
    allEmbedUsers: z.literal(true).optional(),
    action: z.enum(['read', 'none']).optional(),
    allowEmbed: z.boolean().optional(),
  })
  .refine((v) => !(v.embedTenantName !== undefined && v.allEmbedUsers !== undefined), {
    message: 'one audience at a time: an embed tenant or all embed users',
  })
  .refine(
    (v) => (v.embedTenantName !== undefined || v.allEmbedUsers !== undefined) === (v.action !== undefined),
    {
      message: 'an audience needs an action (read or none), and an action needs an audience',
    },
  )
  .refine((v) => v.action !== undefined || v.allowEmbed !== undefined, { message: 'nothing to change' });
export type UpdateEmbedAccessInput = z.infer<typeof UpdateEmbedAccessInputSchema>;

const workbooksPath = (deploymentId: number) =>
  `/v1/deployments/${positiveId(deploymentId, 'deploymentId')}/workbooks`;
const workbookPath = (deploymentId: number, workbookId: number) =>
  `${workbooksPath(deploymentId)}/${positiveId(workbookId, 'workbookId')}`;

export async function createWorkbook(
  t: PlatformTransport,
  deploymentId: number,
  input: CreateWorkbookInput,
  signal?: AbortSignal,
) {
  const body = parseInput(CreateWorkbookInputSchema, input, 'Workbook not created');
  return t.write('POST', workbooksPath(deploymentId), body, WorkbookSchema, {
    signal,
    check: {
      hint: 'Refresh the workspace to see whether the workbook was created before creating it again.',
    },
  });
}

/** Renames a workbook and/or changes its slug. The documents publish no body for the answer. */
export async function updateWorkbook(
  t: PlatformTransport,
  deploymentId: number,
  workbookId: number,
  input: UpdateWorkbookInput,
  signal?: AbortSignal,
): Promise<number> {
  const body = parseInput(UpdateWorkbookInputSchema, input, 'Workbook not updated');
  return t.http.writeNoContent({
    method: 'PUT',
    path: workbookPath(deploymentId, workbookId),
    body,
    signal,
    check: { hint: 'Refresh the workspace to see the workbook’s name and slug.' },
  });
}

export async function deleteWorkbook(
  t: PlatformTransport,
  deploymentId: number,
  workbookId: number,
  signal?: AbortSignal,
): Promise<number> {
  return t.writeNoContent('DELETE', workbookPath(deploymentId, workbookId), {
    signal,
    check: { hint: 'Refresh the workspace to see whether the workbook was deleted.' },
  });
}

/** Creates the workbook with this slug, or updates the one that has it (idempotent). */
export async function upsertWorkbookBySlug(
  t: PlatformTransport,
  deploymentId: number,
  slug: string,
  input: CreateWorkbookInput,
  signal?: AbortSignal,
) {
  const s = slug.trim();
  if (!s) throw new ApiError('validation', 'Workbook not saved: the slug is empty.');
  const body = parseInput(CreateWorkbookInputSchema, input, 'Workbook not saved');
  return t.write(
    'PUT',
    `${workbooksPath(deploymentId)}/by-slug/${encodeURIComponent(s)}`,
    body,
    WorkbookSchema,
    {
      signal,
      check: { hint: 'Refresh the workspace to see the workbook with this slug.' },
    },
  );
}

export async function getEmbedAccess(
  t: PlatformTransport,
  deploymentId: number,
  workbookId: number,
  signal?: AbortSignal,
) {
  return t.get(`${workbookPath(deploymentId, workbookId)}/embed-access`, EmbedAccessSchema, { signal });
}

export async function updateEmbedAccess(
  t: PlatformTransport,
  deploymentId: number,
  workbookId: number,
  input: UpdateEmbedAccessInput,
  signal?: AbortSignal,
) {
  const body = parseInput(UpdateEmbedAccessInputSchema, input, 'Embed access not changed');
  return t.write('PUT', `${workbookPath(deploymentId, workbookId)}/embed-access`, body, EmbedAccessSchema, {
    signal,
    check: { hint: 'Show the embed access again to see whether it changed.' },
  });
}
