// The Platform (management) API of the sandbox: cursor paging with opaque cursors, the rules of
// spec 4.1 enforced server-side, admin-only notifications, publish creating new versions, dbt sync
// jobs that move through states over time.
import type { Router } from '../http';
import { registerAccountRoutes } from './accountRoutes';
import { registerAdminRoutes } from './admin';
import { registerCatalogRoutes } from './catalogRoutes';
import { registerDatabricksRoutes } from './databricksRoutes';
import { registerDbtRoutes } from './dbtRoutes';
import { registerDeploymentRoutes, type DeploymentLifecycle } from './deploymentRoutes';
import { registerEmbedDashboardRoutes } from './embedDashboardRoutes';
import { registerOpsRoutes } from './opsRoutes';
import { registerServiceRoutes } from './serviceRoutes';
import type { PlatformDeps } from './common';
import { registerNotificationRoutes } from './notificationRoutes';
import { registerWorkspaceRoutes } from './workspaceRoutes';

export type { PlatformDeps } from './common';

export function registerPlatformRoutes(
  router: Router,
  deps: PlatformDeps,
  lifecycle: DeploymentLifecycle,
): void {
  registerCatalogRoutes(router, deps);
  registerNotificationRoutes(router, deps);
  registerAccountRoutes(router, deps);
  registerWorkspaceRoutes(router, deps);
  registerDbtRoutes(router, deps);
  registerOpsRoutes(router, deps);
  registerDatabricksRoutes(router, deps);
  registerServiceRoutes(router, deps);
  registerDeploymentRoutes(router, deps, lifecycle);
  registerAdminRoutes(router, deps);
  // After the admin routes: embed sessions and tenants' users are theirs.
  registerEmbedDashboardRoutes(router, deps);
}
