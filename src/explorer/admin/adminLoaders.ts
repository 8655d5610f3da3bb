// What each list of the Administration root fetches, as plain functions of a client (no `vscode`,
// no zod: the tree is in the startup bundle). One request a page; SCIM lists page by startIndex
// behind the same cursor interface.
import type { Page, PageParams } from '../../api/paging';
import type { PageFetcher } from '../pagedList';

type Item = Record<string, unknown>;

/** The part of `PlatformClient.admin` the Administration lists use (structural). */
export interface AdminListing {
  listScimUsers(q?: PageParams & { filter?: string }, signal?: AbortSignal): Promise<Page<Item>>;
  listScimGroups(q?: PageParams & { filter?: string }, signal?: AbortSignal): Promise<Page<Item>>;
  listRoles(p?: PageParams, signal?: AbortSignal): Promise<Page<Item>>;
  listEmbedTenants(q?: PageParams & { search?: string }, signal?: AbortSignal): Promise<Page<Item>>;
  listEmbedGroups(tenant: string, p?: PageParams, signal?: AbortSignal): Promise<Page<Item>>;
  listEmbedGroupMembers(
    tenant: string,
    groupId: number,
    p?: PageParams,
    signal?: AbortSignal,
  ): Promise<Page<Item>>;
  listEmbedUsers(
    tenant: string,
    q?: PageParams & { search?: string },
    signal?: AbortSignal,
  ): Promise<Page<Item>>;
  listRegions(p?: PageParams, signal?: AbortSignal): Promise<Page<Item>>;
  listOAuthIntegrations(signal?: AbortSignal): Promise<Page<Item>>;
  listOidcTokenConfigs(signal?: AbortSignal): Promise<Page<Item>>;
  listUserOAuthTokens(signal?: AbortSignal): Promise<Page<Item>>;
  // users
  listUserAttributes(p?: PageParams, signal?: AbortSignal): Promise<Page<Item>>;
  getUserAttributeValues(userId: number, signal?: AbortSignal): Promise<Page<Item>>;
  listEmbedTenantWorkbooks(
    deploymentId: number,
    tenant: string,
    p?: PageParams & { accessSource?: EmbedAccessSource },
    signal?: AbortSignal,
  ): Promise<Page<Item>>;
}

export type EmbedAccessSource = 'tenant' | 'allEmbedUsers' | 'folder';

export type AdminListSpec =
  | { list: 'scimUsers'; filter?: string }
  | { list: 'scimGroups'; filter?: string }
  | { list: 'roles' }
  | { list: 'embedTenants'; search?: string }
  | { list: 'embedGroups'; tenant: string }
  | { list: 'embedGroupMembers'; tenant: string; groupId: number }
  | { list: 'embedUsers'; tenant: string; search?: string }
  | { list: 'regions' }
  | { list: 'oauthIntegrations' }
  | { list: 'oidcTokenConfigs' }
  | { list: 'userOAuthTokens' }
  // users
  | { list: 'userAttributes' }
  | { list: 'userAttributeValues'; userId: number | undefined; userName: string }
  | { list: 'embedTenantWorkbooks'; tenant: string; deploymentId: number; accessSource: EmbedAccessSource };

/** One page of an Administration list; `admin` is undefined for a client without one. */
export function adminFetch(
  spec: AdminListSpec,
  admin: AdminListing | undefined,
  p: Parameters<PageFetcher<Item>>[0],
): Promise<Page<Item>> {
  if (!admin) throw new Error('This profile has no administration client.');
  const page: PageParams = p.after !== undefined ? { first: p.first, after: p.after } : { first: p.first };
  const s = p.signal;
  switch (spec.list) {
    case 'scimUsers':
      return admin.listScimUsers({ ...page, ...(spec.filter ? { filter: spec.filter } : {}) }, s);
    case 'scimGroups':
      return admin.listScimGroups({ ...page, ...(spec.filter ? { filter: spec.filter } : {}) }, s);
    case 'roles':
      return admin.listRoles(page, s);
    case 'embedTenants':
      return admin.listEmbedTenants({ ...page, ...(spec.search ? { search: spec.search } : {}) }, s);
    case 'embedGroups':
      return admin.listEmbedGroups(spec.tenant, page, s);
    case 'embedGroupMembers':
      return admin.listEmbedGroupMembers(spec.tenant, spec.groupId, page, s);
    case 'embedUsers':
      return admin.listEmbedUsers(
        spec.tenant,
        { ...page, ...(spec.search ? { search: spec.search } : {}) },
        s,
      );
    case 'regions':
      return admin.listRegions(page, s);
    case 'oauthIntegrations':
      return admin.listOAuthIntegrations(s);
    case 'oidcTokenConfigs':
      return admin.listOidcTokenConfigs(s);
    case 'userOAuthTokens':
      return userTokens(admin, s);
    case 'userAttributes':
      return admin.listUserAttributes(page, s);
    case 'userAttributeValues':
      if (spec.userId === undefined)
        throw new Error(
          `The user "${spec.userName}" has no numeric user id in SCIM, which attribute values need.`,
        );
      return admin.getUserAttributeValues(spec.userId, s);
    case 'embedTenantWorkbooks':
      return admin.listEmbedTenantWorkbooks(
        spec.deploymentId,
        spec.tenant,
        { ...page, accessSource: spec.accessSource },
        s,
      );
  }
}

/**
 * The user's tokens, each named by its integration. Only admins may list integrations: for anyone
 * else the names stay unknown and the rows fall back to the integration id (the tokens still show).
 */
async function userTokens(admin: AdminListing, signal?: AbortSignal): Promise<Page<Item>> {
  const page = await admin.listUserOAuthTokens(signal);
  const names = new Map<string, string>();
  try {
    for (const i of (await admin.listOAuthIntegrations(signal)).items)
      if (typeof i['name'] === 'string') names.set(String(i['id']), i['name']);
  } catch (e) {
    if (signal?.aborted) throw e;
  }
  return {
    ...page,
    items: page.items.map((t) => {
      const name = names.get(String(t['integrationId']));
      return name ? { ...t, integrationName: name } : t;
    }),
  };
}
