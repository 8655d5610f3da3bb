// Account-level resources: the users list. The service publishes no management-API users list;
// users are read from SCIM 2.0 (`GET /scim/v2/Users` on the same API host, startIndex/count
// paging), mapped onto the cursor pages the explorer uses.
import type { Page, PageParams } from '../paging';
import { listScimUsers, type ScimUser } from './admin/scim';
import type { PlatformTransport } from './transport';

// The app config is typed in full with the account settings (admin/appConfig.ts), embed tenants
// with the rest of embedding (admin/embed.ts).
export { AppConfigResponseSchema, type AppConfigResponse } from './admin/appConfig';

// The SCIM user shape and pager live with the rest of SCIM (admin/scim.ts).
export { ScimUserSchema, type ScimUser } from './admin/scim';

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
