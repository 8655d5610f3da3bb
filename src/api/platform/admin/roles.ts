// Custom roles (`/v1/roles`, admin only): the list with each role's policies (actions such as
// SecretsManage and DownloadData are kept as sent, unknown ones included), one role read, created,
// updated (only the fields sent change; `policies` replaces them all) and deleted, and assigning or
// removing a role for a user (`PUT`/`DELETE /v1/roles/{roleId}/users/{userId}`, idempotent, no
// body). Built-in roles are not listed and cannot be changed or deleted.
import { z } from 'zod';
import { adminOnly, table } from '../operation';
import { id, maybe, PageQuery } from '../transport';

export const PolicySchema = z.looseObject({
  resourceType: z.string().optional(),
  actions: maybe(z.array(z.string())),
  resources: maybe(z.array(z.string())),
});

export const RoleSchema = z.looseObject({
  id,
  name: z.string(),
  description: maybe(z.string()),
  policies: maybe(z.array(PolicySchema)),
});
export type Role = z.infer<typeof RoleSchema>;

/** The published Policy actions (a role read back may hold others: read tolerantly above). */
export const POLICY_ACTIONS = [
  'All',
  'DeploymentsManage',
  'DeploymentCreate',
  'DeploymentRead',
  'DeploymentUpdate',
  'DeploymentDelete',
  'SecretsManage',
  'DownloadData',
  'PlaygroundRead',
  'SchemaRead',
  'SchemaUpdate',
  'SchemaUpdateDevBranches',
  'APMRead',
  'ChatHistoryRead',
  'PreAggregationBuild',
  'AlertsCreate',
  'AlertsRead',
  'AlertsUpdate',
  'AlertsDelete',
  'AuditLogManage',
  'BillingRead',
  'SqlRunnerRead',
  'DataAssetsRead',
  'DataAssetsManage',
  'CubeNetworkConnect',
  'ReportRead',
  'ReportEdit',
  'ReportManage',
  'WorkbookManage',
  'WorkbookRead',
  'WorkbookEdit',
  'ChatThreadRead',
  'AgentManage',
  'AgentRead',
  'AgentSpaceManage',
  'AgentAdmin',
  'DeploymentAgentRead',
  'OAuthIntegrationsManage',
  'OAuthIntegrationsIssueTokens',
  'McpToolsManage',
  'AIBIDevelop',
  'AIBIExplore',
  'AIBIView',
  'ChartPalettesManage',
  'DashboardThemesManage',
  'AIBIDeveloper',
  'AIBIUser',
  'AIBIViewer',
  'EmbedDeploymentRead',
  'EmbedDashboardRead',
  'FolderRead',
  'FolderEdit',
  'FolderManage',
] as const;
export type PolicyAction = (typeof POLICY_ACTIONS)[number];

export const POLICY_RESOURCE_TYPES = [
  'Global',
  'Deployment',
  'Report',
  'ReportFolder',
  'Agent',
  'AgentSpace',
  'Workbook',
  'Dashboard',
  'Folder',
  'ChatThread',
] as const;

/** Names the service keeps for its built-in roles: creating or renaming to one is refused (400). */
export const BUILT_IN_ROLE_NAMES = [
  'Admin',
  'Developer',
  'AIBIDeveloper',
  'D3User',
  'AIBIUser',
  'AIBIViewer',
  'Guest',
  'EmbedUser',
] as const;

/**
 * A policy as sent: every field required; as the document says, one with no action or naming no
 * resource is refused, and a `Deployment` resource is a deployment id (or "All").
 */
export const PolicyInputSchema = z
  .strictObject({
    resourceType: z.enum(POLICY_RESOURCE_TYPES),
    actions: z.array(z.enum(POLICY_ACTIONS)).min(1, 'a policy grants at least one action'),
    resources: z.array(z.string().min(1)).min(1, 'a policy names at least one resource'),
  })
  .refine(
    (p) => p.resourceType !== 'Deployment' || p.resources.every((r) => r === 'All' || /^[1-9]\d*$/.test(r)),
    {
      path: ['resources'],
      message: 'a deployment is named by its id (or All)',
    },
  );
export type PolicyInput = z.infer<typeof PolicyInputSchema>;

const RoleNameSchema = z
  .string()
  .min(1, 'a role needs a name')
  .max(255, 'use at most 255 characters')
  .refine((n) => !(BUILT_IN_ROLE_NAMES as readonly string[]).includes(n), 'that name is a built-in role');
const DescriptionSchema = z.string().max(255, 'use at most 255 characters').nullable();
const PoliciesSchema = z.array(PolicyInputSchema).max(200, 'a role has at most 200 policies');

/** The published RoleCreateBody. */
export const RoleCreateInputSchema = z.strictObject({
  name: RoleNameSchema,
  description: DescriptionSchema.optional(),
  policies: PoliciesSchema,
});
export type RoleCreateInput = z.infer<typeof RoleCreateInputSchema>;

/** The published RoleUpdateBody: a field left out is left as it is; `policies` replaces them all. */
export const RoleUpdateInputSchema = z.strictObject({
  name: RoleNameSchema.optional(),
  description: DescriptionSchema.optional(),
  policies: PoliciesSchema.optional(),
});
export type RoleUpdateInput = z.infer<typeof RoleUpdateInputSchema>;

/** Why a typed role name cannot be sent (the rows' rule), or why it is taken (names compared without case). */
export function roleNameProblem(typed: string, taken: readonly string[] = []): string | undefined {
  const name = typed.trim();
  if (!name) return 'Enter a name.';
  if (name.length > 255) return `A role name has at most 255 characters (this one has ${name.length}).`;
  if ((BUILT_IN_ROLE_NAMES as readonly string[]).includes(name))
    return `${name} is the name of a built-in role: pick another name.`;
  if (taken.some((t) => t.toLowerCase() === name.toLowerCase()))
    return `A role named ${name} already exists: pick another name.`;
  return undefined;
}

const roleUser = '/v1/roles/{roleId}/users/{userId}';
const ROLE_TAKEN = 'A role with that name already exists: pick another name.';

/** Custom roles (reached as `platform.admin`). */
export const ROLES = table(
  {
    names: { roleId: 'Role id', userId: 'User id' },
    place: 'Roles',
    many: 'roles',
    forbidden: adminOnly,
    gone: 'The role no longer exists: refresh Roles.',
  },
  {
    listRoles: {
      method: 'GET',
      path: '/v1/roles',
      query: PageQuery,
      item: RoleSchema,
      action: 'Listing roles',
    },
    getRole: {
      method: 'GET',
      path: '/v1/roles/{roleId}',
      answer: RoleSchema,
      action: 'Reading a role',
    },
    createRole: {
      method: 'POST',
      path: '/v1/roles',
      body: RoleCreateInputSchema,
      answer: RoleSchema,
      action: (b: RoleCreateInput) => `Creating the role ${b.name}`,
      conflict: ROLE_TAKEN,
      refused: 'Role not created',
    },
    updateRole: {
      method: 'PUT',
      path: '/v1/roles/{roleId}',
      body: RoleUpdateInputSchema,
      answer: RoleSchema,
      action: 'Saving a role',
      conflict: ROLE_TAKEN,
      refused: 'Role not saved',
    },
    deleteRole: {
      method: 'DELETE',
      path: '/v1/roles/{roleId}',
      nothing: true,
      action: 'Deleting a role',
    },
    assignRole: {
      method: 'PUT',
      path: roleUser,
      nothing: true,
      action: 'Assigning a role',
      verb: 'Assigning',
      check: "Refresh the user's roles to see whether the role was assigned.",
      notFound: 'The user or the role no longer exists (the Admin role cannot be assigned this way).',
    },
    removeRole: {
      method: 'DELETE',
      path: roleUser,
      nothing: true,
      // It takes the role from the user; the role itself stays.
      action: 'Removing a role from a user',
      forbidden: adminOnly('Removing roles from a user'),
      check: "Refresh the user's roles to see whether the role was removed.",
      notFound: 'The user no longer exists: refresh Users.',
    },
  },
);
