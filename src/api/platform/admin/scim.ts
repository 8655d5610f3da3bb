// SCIM 2.0 Users and Groups (`/api/scim/v2/...`, the published SCIM document): 1-based
// `startIndex`/`count` paging mapped onto the explorer's cursor pages (the cursor is the next
// `startIndex`), `filter` search, and group membership through PatchOp. SCIM errors carry their
// text in `detail`, which the shared error reader shows.
import { z } from 'zod';
import { ApiError } from '../../errors';
import type { Page, PageParams } from '../../paging';
import { checkPage, maybe, parseInput, readItems, type PlatformTransport } from '../transport';

export const ADMIN_HINT = 'needs the admin role. Use a token of an admin user.';

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

/** `displayName eq "<text>"` for groups. */
export function displayNameFilter(name: string): string {
  return `displayName eq "${name.replace(/\\/g, '\\\\').replace(/"/g, '\\"')}"`;
}

async function scimPage<T>(
  t: PlatformTransport,
  path: string,
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
  const res = await t.get(path, ScimListSchema, {
    query: { startIndex, count, ...(q.filter ? { filter: q.filter } : {}) },
    signal,
    action: `Listing ${what}`,
    forbiddenHint: `Listing SCIM ${what} ${ADMIN_HINT}`,
  });
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
  return scimPage(t, '/scim/v2/Users', ScimUserSchema, q, 'users', signal);
}

/** One page of SCIM groups. */
export function listScimGroups(t: PlatformTransport, q: ScimQuery = {}, signal?: AbortSignal) {
  return scimPage(t, '/scim/v2/Groups', ScimGroupSchema, q, 'groups', signal);
}

function scimId(id: string, what: string): string {
  if (!id.trim()) throw new ApiError('validation', `Pick the ${what}.`);
  return encodeURIComponent(id);
}

export function getScimGroup(t: PlatformTransport, id: string, signal?: AbortSignal) {
  return t.get(`/scim/v2/Groups/${scimId(id, 'group')}`, ScimGroupSchema, {
    signal,
    action: 'Reading a group',
    forbiddenHint: `Reading SCIM groups ${ADMIN_HINT}`,
    messages: { notFound: 'The group no longer exists: refresh the Groups list.' },
  });
}

const PatchOpInput = z.strictObject({
  schemas: z.tuple([z.literal('urn:ietf:params:scim:api:messages:2.0:PatchOp')]),
  Operations: z
    .array(
      z.strictObject({
        op: z.enum(['add', 'remove']),
        path: z.string().min(1),
        value: z.array(z.strictObject({ value: z.string().min(1) })).optional(),
      }),
    )
    .min(1),
});

/**
 * Adds or removes members of a group with one PatchOp. Removal uses the filtered path
 * `members[value eq "<id>"]` (RFC 7644 3.5.2.2), one operation per user.
 */
export function patchGroupMembers(
  t: PlatformTransport,
  groupId: string,
  change: { add?: string[]; remove?: string[] },
  signal?: AbortSignal,
) {
  const ops: z.infer<typeof PatchOpInput>['Operations'] = [];
  if (change.add?.length)
    ops.push({ op: 'add', path: 'members', value: change.add.map((value) => ({ value })) });
  for (const id of change.remove ?? []) ops.push({ op: 'remove', path: `members[value eq "${id}"]` });
  const body = parseInput(
    PatchOpInput,
    { schemas: ['urn:ietf:params:scim:api:messages:2.0:PatchOp'], Operations: ops },
    'Changing group members',
  );
  return t.write('PATCH', `/scim/v2/Groups/${scimId(groupId, 'group')}`, body, ScimGroupSchema, {
    signal,
    action: 'Changing group members',
    forbiddenHint: `Changing SCIM groups ${ADMIN_HINT}`,
    check: { hint: 'Refresh the group to see whether its members changed.' },
    messages: { notFound: 'The group no longer exists: refresh the Groups list.' },
  });
}

const GROUP_SCHEMA = 'urn:ietf:params:scim:schemas:core:2.0:Group';
const GroupNameSchema = z.string().trim().min(1, 'a group needs a name').max(255);

/** Creates a group (no members: they are added afterwards, one PatchOp each). */
export function createScimGroup(t: PlatformTransport, displayName: string, signal?: AbortSignal) {
  const body = parseInput(
    z.strictObject({ schemas: z.tuple([z.literal(GROUP_SCHEMA)]), displayName: GroupNameSchema }),
    { schemas: [GROUP_SCHEMA], displayName },
    'Creating a group',
  );
  return t.write('POST', '/scim/v2/Groups', body, ScimGroupSchema, {
    signal,
    action: 'Creating a group',
    forbiddenHint: `Creating SCIM groups ${ADMIN_HINT}`,
    check: { hint: 'Refresh the Groups list to see whether it was created before creating it again.' },
  });
}

/** Renames a group with one PatchOp `replace` of `displayName` (members untouched). */
export function renameScimGroup(
  t: PlatformTransport,
  groupId: string,
  displayName: string,
  signal?: AbortSignal,
) {
  const body = parseInput(
    z.strictObject({
      schemas: z.tuple([z.literal('urn:ietf:params:scim:api:messages:2.0:PatchOp')]),
      Operations: z.tuple([
        z.strictObject({ op: z.literal('replace'), path: z.literal('displayName'), value: GroupNameSchema }),
      ]),
    }),
    {
      schemas: ['urn:ietf:params:scim:api:messages:2.0:PatchOp'],
      Operations: [{ op: 'replace', path: 'displayName', value: displayName }],
    },
    'Renaming a group',
  );
  return t.write('PATCH', `/scim/v2/Groups/${scimId(groupId, 'group')}`, body, ScimGroupSchema, {
    signal,
    action: 'Renaming a group',
    forbiddenHint: `Changing SCIM groups ${ADMIN_HINT}`,
    check: { hint: 'Refresh the Groups list to see whether the name changed.' },
    messages: { notFound: 'The group no longer exists: refresh the Groups list.' },
  });
}

/** Deletes a group; its member users stay. */
export async function deleteScimGroup(t: PlatformTransport, groupId: string, signal?: AbortSignal) {
  await t.writeNoContent('DELETE', `/scim/v2/Groups/${scimId(groupId, 'group')}`, {
    signal,
    action: 'Deleting a group',
    forbiddenHint: `Deleting SCIM groups ${ADMIN_HINT}`,
    check: { hint: 'Refresh the Groups list to see whether the group is gone.' },
    messages: { notFound: 'The group no longer exists: refresh the Groups list.' },
  });
}

/** Display name of a SCIM user: the person's name, else the user name. */
export function scimUserLabel(u: ScimUser): string {
  const person = [u.name?.givenName, u.name?.familyName].filter(Boolean).join(' ');
  return person || u.userName || u.emails?.[0]?.value || '(unnamed user)';
}

// ---- one user (SCIM ids are strings, a UUID in the document's example)

const UserPatchInput = z.strictObject({
  schemas: z.tuple([z.literal('urn:ietf:params:scim:api:messages:2.0:PatchOp')]),
  Operations: z
    .array(z.strictObject({ op: z.literal('replace'), path: z.literal('active'), value: z.boolean() }))
    .length(1),
});

/**
 * Activates or deactivates a user by its SCIM id (a PatchOp replacing `active`, as the document's
 * example does): works whatever shape the tenant's SCIM ids have.
 */
export function setScimUserActive(t: PlatformTransport, id: string, active: boolean, signal?: AbortSignal) {
  const body = parseInput(
    UserPatchInput,
    {
      schemas: ['urn:ietf:params:scim:api:messages:2.0:PatchOp'],
      Operations: [{ op: 'replace', path: 'active', value: active }],
    },
    active ? 'Activating a user' : 'Deactivating a user',
  );
  return t.write('PATCH', `/scim/v2/Users/${scimId(id, 'user')}`, body, ScimUserSchema, {
    signal,
    action: active ? 'Activating a user' : 'Deactivating a user',
    forbiddenHint: `Changing SCIM users ${ADMIN_HINT}`,
    check: { hint: 'Refresh Users to see whether the user is active.' },
    messages: { notFound: 'The user no longer exists: refresh Users.' },
  });
}

/** De-provisions (deletes) a user by its SCIM id. */
export async function deleteScimUser(t: PlatformTransport, id: string, signal?: AbortSignal): Promise<void> {
  await t.writeNoContent('DELETE', `/scim/v2/Users/${scimId(id, 'user')}`, {
    signal,
    action: 'Deleting a user',
    forbiddenHint: `Deleting SCIM users ${ADMIN_HINT}`,
    check: { hint: 'Refresh Users to see whether the user was deleted.' },
    messages: { notFound: 'The user no longer exists: refresh Users.' },
  });
}
