// Tenant users through `/v1/users` (admin only): create, update, delete, and one action on many
// users (`/v1/users/bulk`, partially successful: each user's outcome is reported). Listing and
// search go through SCIM (scim.ts): the service publishes no `/v1/users` list.
import { z } from 'zod';
import { adminOnly, call, table } from '../operation';
import { id, maybe, type PlatformTransport } from '../transport';

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

/** Why a typed e-mail cannot create a user (the row's own rule, so the box refuses what the call would). */
export function emailProblem(typed: string): string | undefined {
  return CreateUserInputSchema.shape.email.safeParse(typed.trim()).success
    ? undefined
    : 'Enter an e-mail address, like name@example.com.';
}

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

const words = { many: 'users', forbidden: adminOnly, gone: 'The user no longer exists: refresh Users.' };

/** Create, update and delete (reached as `platform.admin`). */
export const USERS = table(
  { ...words, names: { id: 'User id' }, place: 'the users' },
  {
    createUser: {
      method: 'POST',
      path: '/v1/users',
      body: CreateUserInputSchema,
      answer: PlatformUserSchema,
      action: 'Creating a user',
      check: 'Search the users for that e-mail before creating it again.',
    },
    updateUser: {
      method: 'PUT',
      path: '/v1/users/{id}',
      body: UpdateUserInputSchema,
      answer: PlatformUserSchema,
      action: 'Updating a user',
    },
    deleteUser: {
      method: 'DELETE',
      path: '/v1/users/{id}',
      nothing: true,
      action: 'Deleting a user',
      check: 'Refresh the users to see whether the user was deleted.',
    },
  },
);

const BULK = table(words, {
  bulkUserAction: {
    method: 'POST',
    path: '/v1/users/bulk',
    body: BulkInputSchema,
    answer: BulkResultSchema,
    action: 'Changing users',
    verb: 'Changing',
    check: 'Refresh the users to see which were changed.',
  },
});

export function bulkUserAction(
  t: PlatformTransport,
  action: BulkUserAction,
  userIds: number[],
  signal?: AbortSignal,
): Promise<BulkUserResult> {
  return call(t, BULK.bulkUserAction, { action, userIds }, signal);
}
