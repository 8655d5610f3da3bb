// The sandbox's administration routes: SCIM, users and roles, embedding, account settings.
import type { Router } from '../../http';
import type { PlatformDeps } from '../common';
import { createAdminState } from './adminState';
import { registerEmbedRoutes } from './embedRoutes';
import { registerScimRoutes } from './scimRoutes';
import { registerSettingsRoutes } from './settingsRoutes';
import { registerUserRoutes } from './userRoutes';

export function registerAdminRoutes(router: Router, deps: PlatformDeps): void {
  const admin = createAdminState(deps.data.embedTenants);
  deps.state.admin = admin;
  registerScimRoutes(router, deps, admin);
  registerUserRoutes(router, deps, admin);
  registerEmbedRoutes(router, deps, admin);
  registerSettingsRoutes(router, deps, admin);
}
