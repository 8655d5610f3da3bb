// Embedding: embed tenants (listed, so a tenant is picked rather than typed; deleted), their groups
// and users, a tenant's workbooks per deployment, and embed sessions (generate for a published
// dashboard, revoke). All admin only.
import { z } from 'zod';
import { table } from '../operation';
import { id, maybe, PageQuery } from '../transport';
import { ADMIN_HINT } from './scim';

export const EmbedTenantSchema = z.looseObject({
  id: z.number().optional(),
  name: z.string(),
  displayName: maybe(z.string()),
  userCount: maybe(z.number()),
  createdAt: maybe(z.string()),
});
export type EmbedTenant = z.infer<typeof EmbedTenantSchema>;

export const EmbedGroupSchema = z.looseObject({
  id,
  name: z.string(),
  description: maybe(z.string()),
  userCount: maybe(z.number()),
});
export type EmbedGroup = z.infer<typeof EmbedGroupSchema>;

export const EmbedUserSchema = z.looseObject({
  id,
  username: z.string().optional(),
  email: maybe(z.string()),
  externalId: maybe(z.string()),
  firstName: maybe(z.string()),
  lastLogin: maybe(z.string()),
});
export type EmbedUser = z.infer<typeof EmbedUserSchema>;

const EmbedWorkbookSchema = z.looseObject({
  id,
  name: maybe(z.string()),
  folderId: maybe(z.number()),
  updatedAt: maybe(z.string()),
});

/** How a tenant's access to a workbook is granted (the published `accessSource` filter). */
export const EMBED_ACCESS_SOURCES = ['tenant', 'allEmbedUsers', 'folder'] as const;
export type EmbedAccessSource = (typeof EMBED_ACCESS_SOURCES)[number];

/** The published tenant-name rule: a name outside it cannot be a tenant (checked before sending). */
export const EMBED_TENANT_NAME = /^[a-z][a-z0-9-]{0,34}[a-z0-9]$/;

/** The part of the published GenerateSession body the preview sends (strict: nothing else). */
export const GenerateSessionInputSchema = z
  .strictObject({
    deploymentId: z.number().int().positive(),
    externalId: z.string().min(1),
    embedTenantName: z.string().regex(EMBED_TENANT_NAME, 'not an embed tenant name').optional(),
    publicDashboardId: z.string().min(1).optional(),
    tenantGroups: z.array(z.string().min(1)).optional(),
    creatorMode: z.boolean().optional(),
    userProfile: z.strictObject({ displayName: z.string().optional() }).optional(),
    embedTenantProfile: z.strictObject({ displayName: z.string().optional() }).optional(),
  })
  // As published: tenant groups need creator mode and the tenant they belong to.
  .refine((b) => !b.tenantGroups?.length || (b.creatorMode === true && b.embedTenantName !== undefined), {
    path: ['tenantGroups'],
    message: 'needs creatorMode: true and embedTenantName',
  });
export type GenerateSessionInput = z.infer<typeof GenerateSessionInputSchema>;

/** A search term; an empty one is not sent. */
const search = z
  .string()
  .optional()
  .transform((s) => s || undefined);
const tenant = '/v1/embed-tenants/{embedTenantName}';
const gone = 'There is no embed tenant named "{embedTenantName}".';

/** Embedding (reached as `platform.admin`): tenants, their groups and users and workbooks, sessions. */
export const EMBED = table(
  {
    forbidden: (action) => `${action} ${ADMIN_HINT}`,
    names: { embedTenantName: 'The embed tenant', deploymentId: 'Deployment id' },
  },
  {
    listEmbedTenants: {
      method: 'GET',
      path: '/v1/embed-tenants',
      kind: 'read',
      query: PageQuery.extend({ search }),
      item: EmbedTenantSchema,
      action: 'Listing embed tenants',
    },
    listEmbedGroups: {
      method: 'GET',
      path: `${tenant}/groups`,
      kind: 'read',
      text: ['embedTenantName'],
      query: PageQuery,
      item: EmbedGroupSchema,
      action: 'Listing embed groups',
      notFound: gone,
    },
    listEmbedUsers: {
      method: 'GET',
      path: `${tenant}/users`,
      kind: 'read',
      text: ['embedTenantName'],
      query: PageQuery.extend({ search }),
      item: EmbedUserSchema,
      action: 'Listing embed users',
    },
    /** The workbooks an embed tenant has in one deployment. */
    listEmbedTenantWorkbooks: {
      method: 'GET',
      path: '/v1/deployments/{deploymentId}/embed-tenants/{embedTenantName}/workbooks',
      kind: 'read',
      text: ['embedTenantName'],
      query: PageQuery.extend({ accessSource: z.enum(EMBED_ACCESS_SOURCES).optional() }),
      item: EmbedWorkbookSchema,
      action: 'Listing embed tenant workbooks',
      forbidden: `Listing embed workbooks ${ADMIN_HINT}`,
      notFound: 'There is no embed tenant named "{embedTenantName}" (or the deployment is gone).',
    },
    generateEmbedSession: {
      method: 'POST',
      path: '/v1/embed/generate-session',
      kind: 'write',
      body: GenerateSessionInputSchema,
      answer: z.looseObject({ sessionId: z.string().min(1) }),
      action: 'Generating an embed session',
      forbidden: `Generating embed sessions ${ADMIN_HINT} Embedding must also be enabled for the account.`,
      check: 'Generate a new session: an unused one expires on its own.',
    },
    revokeEmbedSession: {
      method: 'POST',
      path: '/v1/embed/session/revoke',
      kind: 'write',
      body: z.strictObject({ sessionId: z.string().regex(/^[0-9a-f]{32}$/, 'not an embed session id') }),
      nothing: true,
      action: 'Revoking an embed session',
      forbidden: `Revoking embed sessions ${ADMIN_HINT}`,
      check: 'Revoke again: revoking is idempotent.',
    },
  },
);

/** Deleting a tenant (reached on `PlatformClient`, beside the explorer's other deletes). */
export const EMBED_TENANTS = table(
  { names: { embedTenantName: 'The embed tenant to delete' } },
  {
    deleteEmbedTenant: {
      method: 'DELETE',
      path: tenant,
      kind: 'destroy',
      text: ['embedTenantName'],
      nothing: true,
      check: 'Refresh the explorer to see whether the embed tenant was deleted.',
      notFound: gone,
    },
  },
);

/** Where an embed session is opened: the tenant host's embed page for the dashboard. */
export function embedPreviewUrl(appBase: string, publicDashboardId: string, sessionId: string): string {
  const u = new URL(
    `embed/dashboard/${encodeURIComponent(publicDashboardId)}`,
    appBase.endsWith('/') ? appBase : `${appBase}/`,
  );
  u.searchParams.set('session', sessionId);
  return u.toString();
}
