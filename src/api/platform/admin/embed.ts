// Embedding: embed tenants (listed, so a tenant is picked rather than typed), their groups and
// users, a tenant's workbooks per deployment, and embed sessions (generate for a published
// dashboard, revoke). All admin only.
import { z } from 'zod';
import { ApiError } from '../../errors';
import type { Page, PageParams } from '../../paging';
import { id, maybe, parseInput, positiveId, type PlatformTransport } from '../transport';
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

function tenantPath(name: string): string {
  if (!name.trim()) throw new ApiError('validation', 'Pick the embed tenant.');
  return `/v1/embed-tenants/${encodeURIComponent(name)}`;
}

export function listEmbedTenants(
  t: PlatformTransport,
  q: PageParams & { search?: string } = {},
  signal?: AbortSignal,
): Promise<Page<EmbedTenant>> {
  return t.list(
    '/v1/embed-tenants',
    EmbedTenantSchema,
    { first: q.first, after: q.after, search: q.search || undefined },
    {
      signal,
      action: 'Listing embed tenants',
      forbiddenHint: `Listing embed tenants ${ADMIN_HINT}`,
    },
  );
}

export function listEmbedGroups(
  t: PlatformTransport,
  tenant: string,
  p: PageParams = {},
  signal?: AbortSignal,
) {
  return t.list(
    `${tenantPath(tenant)}/groups`,
    EmbedGroupSchema,
    { first: p.first, after: p.after },
    {
      signal,
      action: 'Listing embed groups',
      forbiddenHint: `Listing embed groups ${ADMIN_HINT}`,
      messages: { notFound: `There is no embed tenant named "${tenant}".` },
    },
  );
}

export function listEmbedUsers(
  t: PlatformTransport,
  tenant: string,
  q: PageParams & { search?: string } = {},
  signal?: AbortSignal,
) {
  return t.list(
    `${tenantPath(tenant)}/users`,
    EmbedUserSchema,
    { first: q.first, after: q.after, search: q.search || undefined },
    {
      signal,
      action: 'Listing embed users',
      forbiddenHint: `Listing embed users ${ADMIN_HINT}`,
    },
  );
}

/** The workbooks an embed tenant has in one deployment. */
export function listEmbedTenantWorkbooks(
  t: PlatformTransport,
  deploymentId: number,
  tenant: string,
  p: PageParams & { accessSource?: EmbedAccessSource } = {},
  signal?: AbortSignal,
) {
  if (p.accessSource !== undefined && !EMBED_ACCESS_SOURCES.includes(p.accessSource))
    throw new ApiError('validation', `Not an access source: "${String(p.accessSource)}".`);
  return t.list(
    `/v1/deployments/${positiveId(deploymentId, 'Deployment id')}${tenantPath(tenant).slice(3)}/workbooks`,
    EmbedWorkbookSchema,
    { first: p.first, after: p.after, accessSource: p.accessSource },
    {
      signal,
      action: 'Listing embed tenant workbooks',
      forbiddenHint: `Listing embed workbooks ${ADMIN_HINT}`,
      messages: { notFound: `There is no embed tenant named "${tenant}" (or the deployment is gone).` },
    },
  );
}

/** The part of the published GenerateSession body the preview sends (strict: nothing else). */
export const GenerateSessionInputSchema = z.strictObject({
  deploymentId: z.number().int().positive(),
  externalId: z.string().min(1),
  embedTenantName: z.string().regex(EMBED_TENANT_NAME, 'not an embed tenant name').optional(),
  publicDashboardId: z.string().min(1).optional(),
  tenantGroups: z.array(z.string().min(1)).optional(),
  creatorMode: z.boolean().optional(),
  userProfile: z.strictObject({ displayName: z.string().optional() }).optional(),
  embedTenantProfile: z.strictObject({ displayName: z.string().optional() }).optional(),
});
export type GenerateSessionInput = z.infer<typeof GenerateSessionInputSchema>;

const SessionResponseSchema = z.looseObject({ sessionId: z.string().min(1) });

export function generateSession(t: PlatformTransport, input: GenerateSessionInput, signal?: AbortSignal) {
  const body = parseInput(GenerateSessionInputSchema, input, 'Generating an embed session');
  return t.write('POST', '/v1/embed/generate-session', body, SessionResponseSchema, {
    signal,
    action: 'Generating an embed session',
    forbiddenHint: `Generating embed sessions ${ADMIN_HINT} Embedding must also be enabled for the account.`,
    check: { hint: 'Generate a new session: an unused one expires on its own.' },
  });
}

export async function revokeSession(
  t: PlatformTransport,
  sessionId: string,
  signal?: AbortSignal,
): Promise<void> {
  const body = parseInput(
    z.strictObject({ sessionId: z.string().regex(/^[0-9a-f]{32}$/, 'not an embed session id') }),
    { sessionId },
    'Revoking an embed session',
  );
  await t.writeNoContent('POST', '/v1/embed/session/revoke', {
    body,
    signal,
    action: 'Revoking an embed session',
    forbiddenHint: `Revoking embed sessions ${ADMIN_HINT}`,
    check: { hint: 'Revoke again: revoking is idempotent.' },
  });
}

/** Where an embed session is opened: the tenant host's embed page for the dashboard. */
export function embedPreviewUrl(appBase: string, publicDashboardId: string, sessionId: string): string {
  const u = new URL(
    `embed/dashboard/${encodeURIComponent(publicDashboardId)}`,
    appBase.endsWith('/') ? appBase : `${appBase}/`,
  );
  u.searchParams.set('session', sessionId);
  return u.toString();
}
