// Deleting embed tenants, app config, and minting Data API tokens (dbt sync jobs: dbtRoutes.ts;
// SCIM users and the rest of administration: admin/).
import type { Router } from '../http';
import { signJwt } from '../jwt';
import { isAdmin, withDeployment as guard, type PlatformDeps } from './common';

export function registerAccountRoutes(router: Router, deps: PlatformDeps): void {
  const d = deps.data;
  const withDeployment = guard(deps);
  router.add('platform', 'DELETE', '/v1/embed-tenants/:embedTenantName', async (ctx) => {
    if (!isAdmin(ctx, deps)) return ctx.error(403, 'Forbidden: deleting embed tenants needs the admin role.');
    const name = ctx.params.embedTenantName!;
    // As published: the name must already be canonical (lowercase), a name differing in case is a
    // 400 so a typo never deletes a tenant not named exactly; deleting one that does not exist succeeds.
    if (name !== name.toLowerCase())
      return ctx.error(
        400,
        `Embed tenant names are lowercase: "${name}" is not deleted; use "${name.toLowerCase()}".`,
      );
    if (d.embedTenants.delete(name)) deps.state.deletedEmbedTenants.push(name);
    await ctx.noContent();
  });
  router.add('platform', 'GET', '/v1/app-config', (ctx) => ctx.json(200, d.appConfig));
  router.add(
    'platform',
    'POST',
    '/v1/deployments/:deploymentId/token',
    withDeployment(async (ctx, dep) => {
      // The body fits MintTokenInput (the row's check: 60 to 86400 seconds).
      const expiresIn = (ctx.body as { expiresIn?: number } | undefined)?.expiresIn ?? 3600;
      await ctx.json(200, {
        cubeApiToken: signJwt({ deploymentId: dep.id, sub: 'sandbox' }, deps.jwtSecret, expiresIn),
      });
    }),
  );
}
