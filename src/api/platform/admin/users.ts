// Tenant users through `/v1/users` (admin only): create, update, delete, and one action on many
// users (`/v1/users/bulk`, partially successful: each user's outcome is reported). Listing and
// search go through SCIM (scim.ts): the service publishes no `/v1/users` list.
import { z } from 'zod';
import { id, maybe, parseInput, positiveId, type PlatformTransport } from '../transport';
import { ADMIN_HINT } from './scim';

export const PlatformUserSchema = z.looseObject({
  id,
  email: z.string().optional(),
  firstName: maybe(z.string()),
  isAdmin: maybe(z.boolean()),
  isDeactivated: maybe(z.boolean()),
});

export const CreateUserInputSchema = z.strictObject({
  email: z.email(),
  username: z.string().min(1),
  firstName: z.string().min(1).optional(),
  isAdmin: z.boolean().optional(),
});
export type CreateUserInput = z.infer<typeof CreateUserInputSchema>;

export const UpdateUserInputSchema = z.strictObject({
  firstName: z.string().min(1).optional(),
  title: z.string().optional(),
  isAdmin: z.boolean().optional(),
  isDeactivated: z.boolean().optional(),
});
export type UpdateUserInput = z.infer<typeof UpdateUserInputSchema>;

export type BulkUserAction = 'DEACTIVATE' | 'ACTIVATE' | 'DELETE';
const BulkInputSchema = z.strictObject({
  action: z.enum(['DEACTIVATE', 'ACTIVATE', 'DELETE']),
  userIds: z.array(z.number().int().positive()).min(1).max(100),
});
const BulkResultSchema = z.looseObject({
  action: z.string().optional(),
  succeeded: z.array(z.number()).default([]),
  failed: z
    .array(
      z.looseObject({
        userId: maybe(z.number()),
        error: maybe(z.looseObject({ status: maybe(z.number()), message: maybe(z.string()) })),
      }),
    )
    .default([]),
});
export type BulkUserResult = z.infer<typeof BulkResultSchema>;

export function createUser(t: PlatformTransport, input: CreateUserInput, signal?: AbortSignal) {
  const body = parseInput(CreateUserInputSchema, input, 'Creating a user');
  return t.write('POST', '/v1/users', body, PlatformUserSchema, {
    signal,
    action: 'Creating a user',
    forbiddenHint: `Creating users ${ADMIN_HINT}`,
    check: { hint: 'Search the users for that e-mail before creating it again.' },
  });
}

export function updateUser(
  t: PlatformTransport,
  userId: number,
  input: UpdateUserInput,
  signal?: AbortSignal,
) {
  const body = parseInput(UpdateUserInputSchema, input, 'Updating a user');
  return t.write('PUT', `/v1/users/${positiveId(userId, 'User id')}`, body, PlatformUserSchema, {
    signal,
    action: 'Updating a user',
    forbiddenHint: `Updating users ${ADMIN_HINT}`,
    check: { hint: 'Refresh the users to see whether the change was saved.' },
    messages: { notFound: 'The user no longer exists.' },
  });
}

export async function deleteUser(t: PlatformTransport, userId: number, signal?: AbortSignal) {
  await t.writeNoContent('DELETE', `/v1/users/${positiveId(userId, 'User id')}`, {
    signal,
    action: 'Deleting a user',
    forbiddenHint: `Deleting users ${ADMIN_HINT}`,
    check: { hint: 'Refresh the users to see whether the user was deleted.' },
    messages: { notFound: 'The user no longer exists.' },
  });
}

export function bulkUserAction(
  t: PlatformTransport,
  action: BulkUserAction,
  userIds: number[],
  signal?: AbortSignal,
): Promise<BulkUserResult> {
  const body = parseInput(BulkInputSchema, { action, userIds }, 'Changing users');
  return t.write('POST', '/v1/users/bulk', body, BulkResultSchema, {
    signal,
    action: 'Changing users',
    forbiddenHint: `Changing users ${ADMIN_HINT}`,
    check: { hint: 'Refresh the users to see which were changed.' },
  });
}

/** The numeric platform user id behind a SCIM user id, when it is one (the roles and users APIs need it). */
export function platformUserId(scimId: string | null | undefined): number | undefined {
  return scimId && /^[1-9]\d*$/.test(scimId) ? Number(scimId) : undefined;
}
