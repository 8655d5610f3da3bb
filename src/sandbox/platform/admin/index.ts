// The sandbox's administration routes: SCIM, users and roles, embedding, account settings.
import type { Router } from '../../http';
import type { PlatformDeps } from '../common';
import { createAdminState } from './adminState';
import { registerAttributeRoutes } from './attributeRoutes';
import { registerEmbedGroupRoutes } from './embedGroupRoutes';
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
  registerEmbedGroupRoutes(router, deps, admin);
  registerSettingsRoutes(router, deps, admin);
  // users: each deployment's first top-level folder starts shared with the first embed tenant.
  const first = [...deps.data.embedTenants][0];
  for (const dep of deps.data.deployments) {
    const folder = (deps.data.folders.get(dep.id) ?? []).find((f) => f.parentId === null);
    if (first && folder)
      admin.embedFolderShares.push({ deploymentId: dep.id, folderId: folder.id, embedTenantName: first });
  }
  registerAttributeRoutes(router, deps, admin.attributes);
}
