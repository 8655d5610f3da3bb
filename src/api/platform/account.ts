// Account-level resources: embed tenants, the app config, and the users list. The service
// publishes no management-API users list; users are read from SCIM 2.0 (`GET /scim/v2/Users` on
// the same API host, startIndex/count paging), mapped onto the cursor pages the explorer uses.
import { ApiError } from '../errors';
import type { Page, PageParams } from '../paging';
import { listScimUsers, ScimUserSchema, type ScimUser } from './admin/scim';
import { call, table } from './operation';
import type { PlatformTransport } from './transport';

// The app config is typed in full with the account settings (admin/appConfig.ts).
export { AppConfigResponseSchema, getAppConfig, type AppConfigResponse } from './admin/appConfig';

// The SCIM user shape and pager live with the rest of SCIM (admin/scim.ts).
export { ScimUserSchema, type ScimUser } from './admin/scim';
/** Kept for callers of the old name. */
export const UserSchema = ScimUserSchema;

const TENANTS = table(
  {},
  {
    deleteEmbedTenant: {
      method: 'DELETE',
      path: '/v1/embed-tenants/{embedTenantName}',
      kind: 'destroy',
      text: ['embedTenantName'],
      check: 'Refresh the explorer to see whether the embed tenant was deleted.',
      notFound: 'There is no embed tenant named "{embedTenantName}".',
    },
  },
);

export async function deleteEmbedTenant(
  t: PlatformTransport,
  name: string,
  signal?: AbortSignal,
): Promise<number> {
  if (!name.trim()) throw new ApiError('validation', 'Name the embed tenant to delete.');
  return call(t, TENANTS.deleteEmbedTenant, name, signal);
}

/**
 * One page of users. The cursor is the SCIM `startIndex` of the page (1-based): `first` becomes
 * `count`, `after` the next `startIndex`.
 */
export function listUsers(
  t: PlatformTransport,
  p: PageParams = {},
  signal?: AbortSignal,
): Promise<Page<ScimUser>> {
  return listScimUsers(t, p, signal);
}
