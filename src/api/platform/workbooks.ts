// Workbook writes: create, rename (name, slug), delete, upsert by slug, save the dashboard draft
// (without publishing), and the embed access of a workbook's published dashboard. Reads, duplicate
// and publish are in workspace.ts / dashboards.ts.
import { z } from 'zod';
import { ApiError } from '../errors';
import { DashboardConfigWireSchema } from './dashboards';
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

// The published DashboardConfigDraftInput is the publish config except that a widget's id may be
// left out (or null): checked as strictly as a publish.
const widgetWire = DashboardConfigWireSchema.shape.widgets.unwrap().unwrap().element;
export const DashboardDraftWireSchema = DashboardConfigWireSchema.extend({
  widgets: z
    .array(widgetWire.extend({ id: z.string().max(128).nullable().optional() }))
    .nullable()
    .optional(),
});

/** The published WorkbookDashboardInput: the draft to keep (null clears it). */
export const SaveDashboardDraftInputSchema = z.strictObject({
  dashboardDraft: DashboardDraftWireSchema.nullable().optional(),
});
export type SaveDashboardDraftInput = z.input<typeof SaveDashboardDraftInputSchema>;

/** The published WorkbookDashboard (read tolerantly: the configs are kept as sent). */
export const WorkbookDashboardSchema = z.looseObject({
  dashboardDraft: z.unknown().optional(),
  dashboardPublished: z.unknown().optional(),
});

const workbook = '/v1/deployments/{deploymentId}/workbooks/{workbookId}';

export const WORKBOOK_WRITES = table(
  {},
  {
    createWorkbook: {
      method: 'POST',
      path: '/v1/deployments/{deploymentId}/workbooks',
      body: CreateWorkbookInputSchema,
      answer: WorkbookSchema,
      refused: 'Workbook not created',
      check: 'Refresh the workspace to see whether the workbook was created before creating it again.',
    },
    updateWorkbook: {
      method: 'PUT',
      path: workbook,
      body: UpdateWorkbookInputSchema,
      refused: 'Workbook not updated',
      check: 'Refresh the workspace to see the workbook’s name and slug.',
    },
    deleteWorkbook: {
      method: 'DELETE',
      path: workbook,
      check: 'Refresh the workspace to see whether the workbook was deleted.',
    },
    /** Keeps the dashboard's draft on the server; what viewers see (the published one) is unchanged. */
    saveDashboardDraft: {
      method: 'PUT',
      path: `${workbook}/dashboard`,
      body: SaveDashboardDraftInputSchema,
      answer: WorkbookDashboardSchema,
      refused: 'Draft not saved',
      action: 'Saving the dashboard draft',
      check: 'Pull the dashboard’s draft again (Edit Dashboard) to see whether it was saved.',
    },
    getEmbedAccess: {
      method: 'GET',
      path: `${workbook}/embed-access`,
      answer: EmbedAccessSchema,
    },
    updateEmbedAccess: {
      method: 'PUT',
      path: `${workbook}/embed-access`,
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
