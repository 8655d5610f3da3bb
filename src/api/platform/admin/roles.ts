// Custom roles (`/v1/roles`, admin only): the list with each role's policies (actions such as
// SecretsManage and DownloadData are kept as sent, unknown ones included), and assigning or removing
// a role for a user (`PUT`/`DELETE /v1/roles/{roleId}/users/{userId}`, idempotent, no body).
import { z } from 'zod';
import { table } from '../operation';
import { id, maybe, PageQuery } from '../transport';
import { ADMIN_HINT } from './scim';

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

/** Every action a role grants, in policy order, without repeats. */
export function roleActions(role: Role): string[] {
  return [...new Set((role.policies ?? []).flatMap((p) => p.actions ?? []))];
}

const roleUser = '/v1/roles/{roleId}/users/{userId}';

/** Custom roles (reached as `platform.admin`). */
export const ROLES = table(
  { names: { roleId: 'Role id', userId: 'User id' } },
  {
    listRoles: {
      method: 'GET',
      path: '/v1/roles',
      kind: 'read',
      query: PageQuery,
      item: RoleSchema,
      action: 'Listing roles',
      forbidden: `Listing roles ${ADMIN_HINT}`,
    },
    assignRole: {
      method: 'PUT',
      path: roleUser,
      kind: 'write',
      nothing: true,
      action: 'Assigning a role',
      forbidden: `Assigning roles ${ADMIN_HINT}`,
      check: "Refresh the user's roles to see whether the role was assigned.",
      notFound: 'The user or the role no longer exists (the Admin role cannot be assigned this way).',
    },
    removeRole: {
      method: 'DELETE',
      path: roleUser,
      kind: 'destroy',
      nothing: true,
      action: 'Removing a role',
      forbidden: `Removing roles ${ADMIN_HINT}`,
      check: "Refresh the user's roles to see whether the role was removed.",
      notFound: 'The user no longer exists.',
    },
  },
);
