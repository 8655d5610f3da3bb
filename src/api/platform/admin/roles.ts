// Custom roles (`/v1/roles`, admin only): the list with each role's policies (actions such as
// SecretsManage and DownloadData are kept as sent, unknown ones included), and assigning or removing
// a role for a user (`PUT`/`DELETE /v1/roles/{roleId}/users/{userId}`, idempotent, no body).
import { z } from 'zod';
import type { Page, PageParams } from '../../paging';
import { id, maybe, positiveId, type PlatformTransport } from '../transport';
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

export function listRoles(
  t: PlatformTransport,
  p: PageParams = {},
  signal?: AbortSignal,
): Promise<Page<Role>> {
  return t.list(
    '/v1/roles',
    RoleSchema,
    { first: p.first, after: p.after },
    {
      signal,
      action: 'Listing roles',
      forbiddenHint: `Listing roles ${ADMIN_HINT}`,
    },
  );
}

/** Every action a role grants, in policy order, without repeats. */
export function roleActions(role: Role): string[] {
  return [...new Set((role.policies ?? []).flatMap((p) => p.actions ?? []))];
}

function roleUserPath(roleId: number, userId: number): string {
  return `/v1/roles/${positiveId(roleId, 'Role id')}/users/${positiveId(userId, 'User id')}`;
}

export async function assignRole(
  t: PlatformTransport,
  roleId: number,
  userId: number,
  signal?: AbortSignal,
): Promise<void> {
  await t.writeNoContent('PUT', roleUserPath(roleId, userId), {
    signal,
    action: 'Assigning a role',
    forbiddenHint: `Assigning roles ${ADMIN_HINT}`,
    check: { hint: "Refresh the user's roles to see whether the role was assigned." },
    messages: {
      notFound: 'The user or the role no longer exists (the Admin role cannot be assigned this way).',
    },
  });
}

export async function removeRole(
  t: PlatformTransport,
  roleId: number,
  userId: number,
  signal?: AbortSignal,
): Promise<void> {
  await t.writeNoContent('DELETE', roleUserPath(roleId, userId), {
    signal,
    action: 'Removing a role',
    forbiddenHint: `Removing roles ${ADMIN_HINT}`,
    check: { hint: "Refresh the user's roles to see whether the role was removed." },
    messages: { notFound: 'The user no longer exists.' },
  });
}
