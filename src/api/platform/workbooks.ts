// Workbook writes: create, rename (name, slug), delete, upsert by slug, and the embed access of a
// workbook's published dashboard. Reads, duplicate and publish are in workspace.ts / dashboards.ts.
import { z } from 'zod';
import { ApiError } from '../errors';
import { call, table } from './operation';
import { maybe, type PlatformTransport } from './transport';
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

const workbook = '/v1/deployments/{deploymentId}/workbooks/{workbookId}';

export const WORKBOOK_WRITES = table(
  {},
  {
    createWorkbook: {
      method: 'POST',
      path: '/v1/deployments/{deploymentId}/workbooks',
      kind: 'write',
      body: CreateWorkbookInputSchema,
      answer: WorkbookSchema,
      refused: 'Workbook not created',
      check: 'Refresh the workspace to see whether the workbook was created before creating it again.',
    },
    updateWorkbook: {
      method: 'PUT',
      path: workbook,
      kind: 'write',
      body: UpdateWorkbookInputSchema,
      refused: 'Workbook not updated',
      check: 'Refresh the workspace to see the workbook’s name and slug.',
    },
    deleteWorkbook: {
      method: 'DELETE',
      path: workbook,
      kind: 'destroy',
      check: 'Refresh the workspace to see whether the workbook was deleted.',
    },
    getEmbedAccess: {
      method: 'GET',
      path: `${workbook}/embed-access`,
      kind: 'read',
      answer: EmbedAccessSchema,
    },
    updateEmbedAccess: {
      method: 'PUT',
      path: `${workbook}/embed-access`,
      kind: 'write',
      body: UpdateEmbedAccessInputSchema,
      answer: EmbedAccessSchema,
      refused: 'Embed access not changed',
      check: 'Show the embed access again to see whether it changed.',
    },
  },
);

const BY_SLUG = table(
  {},
  {
    upsertWorkbookBySlug: {
      method: 'PUT',
      path: '/v1/deployments/{deploymentId}/workbooks/by-slug/{slug}',
      kind: 'write',
      text: ['slug'],
      body: CreateWorkbookInputSchema,
      answer: WorkbookSchema,
      refused: 'Workbook not saved',
      check: 'Refresh the workspace to see the workbook with this slug.',
    },
  },
);

export async function upsertWorkbookBySlug(
  t: PlatformTransport,
  deploymentId: number,
  slug: string,
  input: CreateWorkbookInput,
  signal?: AbortSignal,
) {
  const s = slug.trim();
  if (!s) throw new ApiError('validation', 'Workbook not saved: the slug is empty.');
  return call(t, BY_SLUG.upsertWorkbookBySlug, deploymentId, s, input, signal);
}
