// Deleting embed tenants, app config, and minting Data API tokens (dbt sync jobs: dbtRoutes.ts;
// SCIM users and the rest of administration: admin/).
import type { z } from 'zod';
import type { MintTokenInputSchema } from '../../api/platform/deployments';
import type { Router } from '../http';
import { signJwt } from '../jwt';
import { adminRoutes, deploymentRoutes, type PlatformDeps } from './common';

export function registerAccountRoutes(router: Router, deps: PlatformDeps): void {
  const d = deps.data;
  const admin = adminRoutes(router, deps);
  admin('DELETE', '/v1/embed-tenants/:embedTenantName', 'deleting embed tenants', async (ctx) => {
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
  deploymentRoutes(router, deps)('POST', '/token', async (ctx, dep) => {
    // The body fits MintTokenInput (the row's check: 60 to 86400 seconds).
    const expiresIn = (ctx.body as z.output<typeof MintTokenInputSchema>).expiresIn ?? 3600;
    await ctx.json(200, {
      cubeApiToken: signJwt({ deploymentId: dep.id, sub: 'sandbox' }, deps.jwtSecret, expiresIn),
    });
  });
}
