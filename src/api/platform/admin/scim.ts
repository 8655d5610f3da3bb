// SCIM 2.0 Users and Groups (`/api/scim/v2/...`, the published SCIM document): 1-based
// `startIndex`/`count` paging mapped onto the explorer's cursor pages (the cursor is the next
// `startIndex`), `filter` search, and group membership through PatchOp. SCIM errors carry their
// text in `detail`, which the shared error reader shows. Each operation is a row: SCIM holds those
// called as they are, CALLS those whose callers here shape their input or answer.
import { z } from 'zod';
import { ApiError } from '../../errors';
import type { Page, PageParams } from '../../paging';
import { adminOnly, call, callOperation, table, variant, type Operation } from '../operation';
import { checkPage, maybe, readItems, type PlatformTransport } from '../transport';

export { ADMIN_HINT } from '../operation';

/** A SCIM user, read tolerantly (SCIM ids are strings). */
export const ScimUserSchema = z.looseObject({
  id: maybe(z.string()),
  userName: z.string().optional(),
  name: maybe(z.looseObject({ givenName: maybe(z.string()), familyName: maybe(z.string()) })),
  emails: maybe(z.array(z.looseObject({ value: maybe(z.string()), primary: maybe(z.boolean()) }))),
  active: maybe(z.boolean()),
  externalId: maybe(z.string()),
});
export type ScimUser = z.infer<typeof ScimUserSchema>;

export const ScimGroupSchema = z.looseObject({
  id: maybe(z.string()),
  displayName: z.string().optional(),
  members: maybe(z.array(z.looseObject({ value: maybe(z.string()), display: maybe(z.string()) }))),
});
export type ScimGroup = z.infer<typeof ScimGroupSchema>;

const ScimListSchema = z.looseObject({
  totalResults: maybe(z.number()),
  startIndex: maybe(z.number()),
  itemsPerPage: maybe(z.number()),
  Resources: maybe(z.array(z.unknown())),
});

export interface ScimQuery extends PageParams {
  /** A SCIM filter, e.g. `userName eq "jane@example.com"`. */
  filter?: string;
}

/** `userName eq "<text>"`: the one filter the documents show, quotes escaped. */
export function userNameFilter(userName: string): string {
  return `userName eq "${userName.replace(/\\/g, '\\\\').replace(/"/g, '\\"')}"`;
}

const PATCH_OP = 'urn:ietf:params:scim:api:messages:2.0:PatchOp';
const GROUP_SCHEMA = 'urn:ietf:params:scim:schemas:core:2.0:Group';
const GroupNameSchema = z
  .string()
  .trim()
  .min(1, 'a group needs a name')
  .max(255, 'use at most 255 characters');
const USER_SCHEMA = 'urn:ietf:params:scim:schemas:core:2.0:User';

/** Why a typed group name cannot be sent (the rows' own rule, so a box refuses what the call would). */
export function groupNameProblem(typed: string): string | undefined {
  const r = GroupNameSchema.safeParse(typed);
  if (r.success) return undefined;
  return typed.trim()
    ? `A group name has at most 255 characters (this one has ${typed.trim().length}).`
    : 'Enter a name.';
}

/** Names are unique without regard to case: the service answers 409 for "analysts" beside "Analysts". */
const takenName =
  'A group with that name already exists (names are compared without regard to case): pick another name.';

/**
 * The published User, as this extension writes it: `userName` required; the person's name, one or
 * more e-mails, `active`, `externalId` may be sent. A replace (PUT) sends all of it: what is left
 * out is cleared, so the edit form starts from the user as read.
 */
export const ScimUserInputSchema = z.strictObject({
  schemas: z.tuple([z.literal(USER_SCHEMA)]).optional(),
  userName: z.string().trim().min(1, 'a user needs a user name'),
  name: z.strictObject({ givenName: z.string().optional(), familyName: z.string().optional() }).optional(),
  emails: z
    .array(z.strictObject({ value: z.email('not an e-mail address'), primary: z.boolean().optional() }))
    .optional(),
  active: z.boolean().optional(),
  externalId: z.string().optional(),
});
export type ScimUserInput = z.infer<typeof ScimUserInputSchema>;

/** The published Group as a replace sends it: the name and the whole membership. */
export const ScimGroupInputSchema = z.strictObject({
  schemas: z.tuple([z.literal(GROUP_SCHEMA)]).optional(),
  displayName: GroupNameSchema,
  members: z.array(z.strictObject({ value: z.string().min(1), display: z.string().optional() })).optional(),
});
export type ScimGroupInput = z.infer<typeof ScimGroupInputSchema>;
const Member = z.strictObject({ value: z.string().min(1), display: z.string().optional() });

/** A PatchOp (RFC 7644 3.5.2) of one or more of `operation`. */
const patchOf = <T extends z.ZodType>(operation: T) =>
  z.strictObject({ schemas: z.tuple([z.literal(PATCH_OP)]), Operations: z.array(operation).min(1) });

/** What a group PatchOp may do: rename, add members, remove one (`members[value eq "<id>"]`). */
const GroupPatchSchema = patchOf(
  z.discriminatedUnion('op', [
    z.strictObject({ op: z.literal('replace'), path: z.literal('displayName'), value: GroupNameSchema }),
    z.strictObject({ op: z.literal('add'), path: z.literal('members'), value: z.array(Member).min(1) }),
    z.strictObject({ op: z.literal('remove'), path: z.string().regex(/^members\[value eq ".+"\]$/) }),
  ]),
);
type GroupPatch = z.infer<typeof GroupPatchSchema>['Operations'];

/** A user PatchOp replaces `active`, as the document's example does. */
const UserPatchSchema = patchOf(
  z.strictObject({ op: z.literal('replace'), path: z.literal('active'), value: z.boolean() }),
);

/** The list query as published: 1-based `startIndex`, `count` of at least 0, a `filter`. */
const ListQuery = z.object({
  filter: z.string().optional(),
  startIndex: z.number().int().min(1).optional(),
  count: z.number().int().min(0).optional(),
});

const group = '/scim/v2/Groups/{id}';
const user = '/scim/v2/Users/{id}';
// The nouns are the tree's (Users, Groups): "Reading users needs the admin role…".
const groups = {
  names: { id: 'SCIM id' },
  many: 'groups',
  forbidden: adminOnly,
  gone: 'The group no longer exists: refresh Groups.',
};
const users = { ...groups, many: 'users', gone: 'The user no longer exists: refresh Users.' };

/** The SCIM operations that are one call each (reached as `platform.admin`). */
export const SCIM = {
  ...table(groups, {
    getScimGroup: {
      method: 'GET',
      path: group,
      text: ['id'],
      answer: ScimGroupSchema,
      action: 'Reading a group',
    },
    deleteScimGroup: {
      method: 'DELETE',
      path: group,
      text: ['id'],
      nothing: true,
      action: 'Deleting a group',
      check: 'Refresh the Groups list to see whether the group is gone.',
    },
    replaceScimGroup: {
      method: 'PUT',
      path: group,
      text: ['id'],
      body: ScimGroupInputSchema,
      answer: ScimGroupSchema,
      action: (b: ScimGroupInput) => `Saving the group ${b.displayName}`,
      check: 'Refresh the Groups list to see whether the name and members were saved.',
      conflict: takenName,
      refused: 'Group not saved',
    },
  }),
  ...table(users, {
    getScimUser: {
      method: 'GET',
      path: user,
      text: ['id'],
      answer: ScimUserSchema,
      action: 'Reading a user',
    },
    createScimUser: {
      method: 'POST',
      path: '/scim/v2/Users',
      body: ScimUserInputSchema,
      answer: ScimUserSchema,
      action: (b: ScimUserInput) => `Creating the user ${b.userName}`,
      check: 'Search Users for that user name before creating it again.',
      conflict: 'A user with that user name already exists: search Users for it, or pick another user name.',
      refused: 'User not created',
    },
    replaceScimUser: {
      method: 'PUT',
      path: user,
      text: ['id'],
      body: ScimUserInputSchema,
      answer: ScimUserSchema,
      action: (b: ScimUserInput) => `Saving the user ${b.userName}`,
      check: 'Refresh Users and open the user to see whether the change was saved.',
      conflict: 'Another user already has that user name: pick another one.',
      refused: 'User not saved',
    },
    deleteScimUser: {
      method: 'DELETE',
      path: user,
      text: ['id'],
      nothing: true,
      action: 'Deleting a user',
      check: 'Refresh Users to see whether the user was deleted.',
    },
  }),
};

/** The SCIM operations whose callers below shape their input or answer. */
const CALLS = {
  ...table(users, {
    listUsers: {
      method: 'GET',
      path: '/scim/v2/Users',
      query: ListQuery,
      answer: ScimListSchema,
      action: 'Listing users',
    },
    patchUser: {
      method: 'PATCH',
      path: user,
      text: ['id'],
      body: UserPatchSchema,
      answer: ScimUserSchema,
      action: 'Changing a user',
      check: 'Refresh Users to see whether the user is active.',
    },
  }),
  ...table(groups, {
    listGroups: {
      method: 'GET',
      path: '/scim/v2/Groups',
      query: ListQuery,
      answer: ScimListSchema,
      action: 'Listing groups',
    },
    createGroup: {
      method: 'POST',
      path: '/scim/v2/Groups',
      // The published Group: `displayName` required; `schemas` and `members` may be sent.
      body: z.strictObject({
        schemas: z.tuple([z.literal(GROUP_SCHEMA)]).optional(),
        displayName: GroupNameSchema,
        members: z.array(Member).optional(),
      }),
      answer: ScimGroupSchema,
      action: 'Creating a group',
      conflict: takenName,
      check: 'Refresh the Groups list to see whether it was created before creating it again.',
    },
    patchGroup: {
      method: 'PATCH',
      path: group,
      text: ['id'],
      body: GroupPatchSchema,
      answer: ScimGroupSchema,
      action: 'Changing group members',
      conflict: takenName,
      check: 'Refresh the group to see whether its members changed.',
    },
  }),
};

/** One page of a SCIM list: the cursor is the next 1-based `startIndex`, `first` the `count`. */
async function scimPage<T>(
  t: PlatformTransport,
  row: Operation,
  item: z.ZodType<T>,
  q: ScimQuery,
  what: string,
  signal?: AbortSignal,
): Promise<Page<T>> {
  checkPage(q);
  const startIndex = q.after !== undefined ? Number(q.after) : 1;
  if (!Number.isInteger(startIndex) || startIndex < 1) {
    throw new ApiError('validation', `Not a ${what} page cursor: "${q.after}".`);
  }
  const count = q.first ?? 50;
  const query = { startIndex, count, ...(q.filter ? { filter: q.filter } : {}) };
  const res = (await callOperation(t, row, [query, signal])) as z.infer<typeof ScimListSchema>;
  // RFC 7644 3.4.2: `Resources` may be left out only when `totalResults` is 0. An answer without
  // it is not an empty list: saying "no users" for it would be false.
  if (!Array.isArray(res.Resources) && res.totalResults !== 0) {
    throw new ApiError(
      'protocol',
      `Listing ${what}: the service's answer has no "Resources" list` +
        (typeof res.totalResults === 'number' ? ` (it counts ${res.totalResults})` : '') +
        `, so the ${what} cannot be shown. Refresh; if it keeps happening, check the profile's URL.`,
      { code: 'SCHEMA' },
    );
  }
  const raw = res.Resources ?? [];
  const { items, invalid } = readItems(raw, item, `Listing ${what}`, t.log);
  const next = (res.startIndex ?? startIndex) + raw.length;
  const more =
    raw.length > 0 && (typeof res.totalResults === 'number' ? next <= res.totalResults : raw.length >= count);
  const page: Page<T> = {
    items,
    pageInfo: more ? { hasNextPage: true, hasPreviousPage: startIndex > 1, endCursor: String(next) } : null,
  };
  if (invalid.length > 0) page.invalid = invalid;
  if (typeof res.totalResults === 'number') page.total = res.totalResults;
  return page;
}

/** One page of SCIM users (the cursor is the next startIndex). */
export function listScimUsers(t: PlatformTransport, q: ScimQuery = {}, signal?: AbortSignal) {
  return scimPage(t, CALLS.listUsers, ScimUserSchema, q, 'users', signal);
}

/** One page of SCIM groups. */
export function listScimGroups(t: PlatformTransport, q: ScimQuery = {}, signal?: AbortSignal) {
  return scimPage(t, CALLS.listGroups, ScimGroupSchema, q, 'groups', signal);
}

/**
 * Adds or removes members of a group with one PatchOp. Removal uses the filtered path
 * `members[value eq "<id>"]` (RFC 7644 3.5.2.2), one operation per user.
 */
export function changeGroupMembers(
  t: PlatformTransport,
  groupId: string,
  change: { add?: string[]; remove?: string[] },
  signal?: AbortSignal,
) {
  const ops: GroupPatch = [];
  if (change.add?.length)
    ops.push({ op: 'add', path: 'members', value: change.add.map((value) => ({ value })) });
  for (const id of change.remove ?? []) ops.push({ op: 'remove', path: `members[value eq "${id}"]` });
  return call(t, CALLS.patchGroup, groupId, { schemas: [PATCH_OP], Operations: ops }, signal);
}

/** Creates a group (no members: they are added afterwards, one PatchOp each). */
export function createScimGroup(t: PlatformTransport, displayName: string, signal?: AbortSignal) {
  return call(t, CALLS.createGroup, { schemas: [GROUP_SCHEMA], displayName }, signal);
}

/** Renames a group with one PatchOp `replace` of `displayName` (members untouched). */
export function renameScimGroup(t: PlatformTransport, id: string, displayName: string, signal?: AbortSignal) {
  const row = variant(CALLS.patchGroup, {
    action: 'Renaming a group',
    check: 'Refresh the Groups list to see whether the name changed.',
  });
  const Operations: GroupPatch = [{ op: 'replace', path: 'displayName', value: displayName }];
  return call(t, row, id, { schemas: [PATCH_OP], Operations }, signal);
}

/** Display name of a SCIM user: the person's name, else the user name. */
export function scimUserLabel(u: ScimUser): string {
  const person = [u.name?.givenName, u.name?.familyName].filter(Boolean).join(' ');
  return person || u.userName || u.emails?.[0]?.value || '(unnamed user)';
}

/**
 * Activates or deactivates a user by its SCIM id (a PatchOp replacing `active`, as the document's
 * example does): works whatever shape the tenant's SCIM ids have.
 */
export function setScimUserActive(t: PlatformTransport, id: string, active: boolean, signal?: AbortSignal) {
  const row = variant(CALLS.patchUser, { action: active ? 'Activating a user' : 'Deactivating a user' });
  const Operations = [{ op: 'replace' as const, path: 'active' as const, value: active }];
  return call(t, row, id, { schemas: [PATCH_OP], Operations }, signal);
}
