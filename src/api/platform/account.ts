// Account-level resources: embed tenants, the app config, and the users list. The service
// publishes no management-API users list; users are read from SCIM 2.0 (`GET /scim/v2/Users` on
// the same API host, startIndex/count paging), mapped onto the cursor pages the explorer uses.
import { z } from 'zod';
import { ApiError } from '../errors';
import type { Page, PageParams } from '../paging';
import { checkPage, maybe, readItems, type PlatformTransport } from './transport';

export const AppConfigResponseSchema = z.looseObject({
  appTheme: z.unknown().optional(),
  applyThemeGlobally: z.boolean().optional(),
  creatorMode: z.unknown().optional(),
  embedding: z.unknown().optional(),
  restrictDataDownload: z.boolean().optional(),
});
export type AppConfigResponse = z.infer<typeof AppConfigResponseSchema>;

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
/** Kept for callers of the old name. */
export const UserSchema = ScimUserSchema;

const ScimListSchema = z.looseObject({
  totalResults: maybe(z.number()),
  startIndex: maybe(z.number()),
  itemsPerPage: maybe(z.number()),
  Resources: maybe(z.array(z.unknown())),
});

export async function deleteEmbedTenant(
  t: PlatformTransport,
  name: string,
  signal?: AbortSignal,
): Promise<number> {
  if (!name.trim()) throw new ApiError('validation', 'Name the embed tenant to delete.');
  return t.writeNoContent('DELETE', `/v1/embed-tenants/${encodeURIComponent(name)}`, {
    signal,
    check: { hint: 'Refresh the explorer to see whether the embed tenant was deleted.' },
    messages: { notFound: `There is no embed tenant named "${name}".` },
  });
}

export async function getAppConfig(t: PlatformTransport, signal?: AbortSignal) {
  return t.get('/v1/app-config', AppConfigResponseSchema, { signal });
}

/**
 * One page of users. The cursor is the SCIM `startIndex` of the page (1-based): `first` becomes
 * `count`, `after` the next `startIndex`.
 */
export async function listUsers(
  t: PlatformTransport,
  p: PageParams = {},
  signal?: AbortSignal,
): Promise<Page<ScimUser>> {
  checkPage(p);
  const startIndex = p.after !== undefined ? Number(p.after) : 1;
  if (!Number.isInteger(startIndex) || startIndex < 1) {
    throw new ApiError('validation', `Not a users page cursor: "${p.after}".`);
  }
  const count = p.first ?? 50;
  const res = await t.get('/scim/v2/Users', ScimListSchema, {
    query: { startIndex, count },
    signal,
    action: 'Listing users',
    forbiddenHint: 'Listing users reads SCIM users: use a token of an admin allowed to read SCIM users.',
  });
  const raw = res.Resources ?? [];
  const { items, invalid } = readItems(raw, ScimUserSchema, 'Listing users', t.log);
  const next = (res.startIndex ?? startIndex) + raw.length;
  const more =
    raw.length > 0 && (typeof res.totalResults === 'number' ? next <= res.totalResults : raw.length >= count);
  const page: Page<ScimUser> = {
    items,
    pageInfo: more ? { hasNextPage: true, hasPreviousPage: startIndex > 1, endCursor: String(next) } : null,
  };
  if (invalid.length > 0) page.invalid = invalid;
  if (typeof res.totalResults === 'number') page.total = res.totalResults;
  return page;
}
