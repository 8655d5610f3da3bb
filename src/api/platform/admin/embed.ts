// Embedding: embed tenants (listed, so a tenant is picked rather than typed; deleted), their groups
// (created, described, deleted, their members added and removed) and users (provisioned one at a
// time or in batches), a tenant's workbooks per deployment, and embed sessions (generate for a
// published dashboard, revoke). All admin only.
import { z } from 'zod';
import { adminOnly, table } from '../operation';
import { id, maybe, PageQuery } from '../transport';

export const EmbedTenantSchema = z.looseObject({
  id: z.number().optional(),
  name: z.string(),
  displayName: maybe(z.string()),
  userCount: maybe(z.number()),
  createdAt: maybe(z.string()),
});

export const EmbedGroupSchema = z.looseObject({
  id,
  name: z.string(),
  description: maybe(z.string()),
  userCount: maybe(z.number()),
});

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

/** The published group-name rule (`CreateEmbedGroupInput.name`): `system:` is reserved for the platform. */
export const EmbedGroupNameSchema = z
  .string()
  .min(1, 'A group name is required.')
  .max(100, 'A group name is at most 100 characters.')
  .refine((n) => !n.toLowerCase().startsWith('system:'), 'Names starting with "system:" are reserved.');

const Description = z.string().max(500, 'A description is at most 500 characters.').nullable().optional();

export const CreateEmbedGroupInputSchema = z.strictObject({
  name: EmbedGroupNameSchema,
  description: Description,
});
export const UpdateEmbedGroupInputSchema = z.strictObject({ description: Description });

/** One member to add or remove: exactly one of `externalId` or `embedUserId`, as published. */
export const EmbedGroupMemberInputSchema = z
  .strictObject({
    embedUserId: z.number().int().min(1).nullable().optional(),
    externalId: z.string().min(1).nullable().optional(),
  })
  .refine((m) => (m.embedUserId == null) !== (m.externalId == null), {
    message: 'Give exactly one of externalId or embedUserId.',
  });
export type EmbedGroupMemberInput = z.infer<typeof EmbedGroupMemberInputSchema>;
const MembersInput = z.strictObject({
  members: z.array(EmbedGroupMemberInputSchema).min(1, 'Name at least one member.').max(1000),
});

/** An embed user in an answer we only count and name: nothing is required, unknown fields kept. */
const AnsweredUser = z.looseObject({
  id: id.optional(),
  username: maybe(z.string()),
  email: maybe(z.string()),
  externalId: maybe(z.string()),
});
export type AnsweredEmbedUser = z.infer<typeof AnsweredUser>;

/** `ProvisionEmbedUserInput` as published (strict: nothing else is sent). */
export const ProvisionEmbedUserInputSchema = z.strictObject({
  externalId: z.string().trim().min(1, 'An external id is required.'),
  email: z.email('Not an e-mail address.').nullable().optional(),
  groups: z.array(z.string()).nullable().optional(),
  tenantGroups: z.array(z.string()).nullable().optional(),
  userProfile: z
    .strictObject({
      displayName: z.string().nullable().optional(),
      picture: z.url('Not a URL.').nullable().optional(),
    })
    .nullable()
    .optional(),
});
export type ProvisionEmbedUserInput = z.infer<typeof ProvisionEmbedUserInputSchema>;

/** The most users one bulk request may carry (`ProvisionEmbedUsersInput.users`, 1–100). */
export const PROVISION_BATCH = 100;

const ProvisionFailure = z.looseObject({
  externalId: z.string(),
  error: z.looseObject({ status: maybe(z.number()), message: maybe(z.string()) }).optional(),
});
export type ProvisionFailure = z.infer<typeof ProvisionFailure>;

/** A search term; an empty one is not sent. */
const search = z
  .string()
  .optional()
  .transform((s) => s || undefined);
const tenant = '/v1/embed-tenants/{embedTenantName}';
const gone = 'There is no embed tenant named "{embedTenantName}".';
const group = `${tenant}/groups/{id}`;
type Named = { name: string };

const tenantWords = {
  forbidden: adminOnly,
  names: { embedTenantName: 'The embed tenant', deploymentId: 'Deployment id', id: 'Embed group id' },
};
const TENANT = table(tenantWords, {
  listEmbedTenants: {
    method: 'GET',
    path: '/v1/embed-tenants',
    query: PageQuery.extend({ search }),
    item: EmbedTenantSchema,
    action: 'Listing embed tenants',
  },
  listEmbedGroups: {
    method: 'GET',
    path: `${tenant}/groups`,
    query: PageQuery,
    item: EmbedGroupSchema,
    action: 'Listing embed groups',
    notFound: gone,
  },
  createEmbedGroup: {
    method: 'POST',
    path: `${tenant}/groups`,
    body: CreateEmbedGroupInputSchema,
    answer: EmbedGroupSchema,
    action: (b: Named) => `Creating the embed group "${b.name}"`,
    refused: 'Embed group not created',
    notFound: gone,
    check: (b: Named) => `Refresh the tenant's Groups to see whether "${b.name}" was created.`,
  },
  /** Creates or updates one user by external id (the tenant is created on demand). */
  provisionEmbedUser: {
    method: 'POST',
    path: `${tenant}/user`,
    body: ProvisionEmbedUserInputSchema,
    answer: EmbedUserSchema,
    action: (b: { externalId: string }) => `Provisioning the embed user "${b.externalId}"`,
    refused: 'Embed user not provisioned',
    check: 'Provision again: provisioning is idempotent (the body is the desired state).',
  },
  /** Up to 100 users; partially successful: each user is reported as succeeded or failed. */
  provisionEmbedUsers: {
    method: 'POST',
    path: `${tenant}/users`,
    body: z.strictObject({
      users: z.array(ProvisionEmbedUserInputSchema).min(1).max(PROVISION_BATCH),
    }),
    answer: z.looseObject({ succeeded: z.array(AnsweredUser), failed: z.array(ProvisionFailure) }),
    action: (b: { users: unknown[] }) => `Provisioning ${b.users.length} embed users`,
    refused: 'Embed users not provisioned',
    check: 'Provision the same file again: provisioning is idempotent (the body is the desired state).',
  },
  listEmbedUsers: {
    method: 'GET',
    path: `${tenant}/users`,
    query: PageQuery.extend({ search }),
    item: EmbedUserSchema,
    action: 'Listing embed users',
  },
  /** The workbooks an embed tenant has in one deployment. */
  listEmbedTenantWorkbooks: {
    method: 'GET',
    path: '/v1/deployments/{deploymentId}/embed-tenants/{embedTenantName}/workbooks',
    query: PageQuery.extend({ accessSource: z.enum(EMBED_ACCESS_SOURCES).optional() }),
    item: EmbedWorkbookSchema,
    action: 'Listing embed tenant workbooks',
    forbidden: adminOnly('Listing embed workbooks'),
    notFound: 'There is no embed tenant named "{embedTenantName}" (or the deployment is gone).',
  },
  generateEmbedSession: {
    method: 'POST',
    path: '/v1/embed/generate-session',
    body: GenerateSessionInputSchema,
    answer: z.looseObject({ sessionId: z.string().min(1) }),
    action: 'Generating an embed session',
    forbidden: `${adminOnly('Generating embed sessions')} Embedding must also be enabled for the account.`,
    check: 'Generate a new session: an unused one expires on its own.',
  },
  revokeEmbedSession: {
    method: 'POST',
    path: '/v1/embed/session/revoke',
    body: z.strictObject({ sessionId: z.string().regex(/^[0-9a-f]{32}$/, 'not an embed session id') }),
    nothing: true,
    action: 'Revoking an embed session',
    forbidden: adminOnly('Revoking embed sessions'),
    check: 'Revoke again: revoking is idempotent.',
  },
});

/** The rows of one embed group: each finds it gone the same way. */
const GROUP = table(
  {
    ...tenantWords,
    gone: 'The embed group no longer exists in the tenant "{embedTenantName}": refresh its Groups and pick it again.',
  },
  {
    getEmbedGroup: {
      method: 'GET',
      path: group,
      answer: EmbedGroupSchema,
      action: 'Reading an embed group',
    },
    /** The description only: a group's name is immutable (it is part of the session's security context). */
    updateEmbedGroup: {
      method: 'PATCH',
      path: group,
      body: UpdateEmbedGroupInputSchema,
      answer: EmbedGroupSchema,
      action: 'Saving the embed group description',
      refused: 'Description not saved',
      check: "Refresh the tenant's Groups to see whether the description was saved.",
    },
    /** Refused with 400 while the group has members. */
    deleteEmbedGroup: {
      method: 'DELETE',
      path: group,
      nothing: true,
      action: 'Deleting an embed group',
      check: "Refresh the tenant's Groups to see whether the group was deleted.",
    },
    listEmbedGroupMembers: {
      method: 'GET',
      path: `${group}/users`,
      query: PageQuery,
      item: EmbedUserSchema,
      action: 'Listing embed group members',
    },
    /** Idempotent: every member named comes back as added or unchanged. */
    addEmbedGroupMembers: {
      method: 'POST',
      path: `${group}/users`,
      body: MembersInput,
      answer: z.looseObject({ addedMembers: z.array(AnsweredUser), unchangedMembers: z.array(AnsweredUser) }),
      action: 'Adding embed group members',
      refused: 'Members not added',
      notFound: 'The embed group or one of the users no longer exists: refresh the tenant and try again.',
      check: 'Expand the group to see its members: adding again is safe (it is idempotent).',
    },
    /** Idempotent: a user who is not a member is a no-op. */
    removeEmbedGroupMembers: {
      method: 'DELETE',
      path: `${group}/users`,
      body: MembersInput,
      nothing: true,
      action: 'Removing embed group members',
      refused: 'Members not removed',
      check: 'Expand the group to see its members: removing again is safe (it is idempotent).',
    },
  },
);

/** Embedding (reached as `platform.admin`): tenants, their groups and users and workbooks, sessions. */
export const EMBED = { ...TENANT, ...GROUP };

/** Deleting a tenant (reached on `PlatformClient`, beside the explorer's other deletes). */
export const EMBED_TENANTS = table(
  { names: { embedTenantName: 'The embed tenant to delete' } },
  {
    deleteEmbedTenant: {
      method: 'DELETE',
      path: tenant,
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
