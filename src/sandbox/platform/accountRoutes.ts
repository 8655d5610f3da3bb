// Embed tenants, app config, SCIM users, and minting Data API tokens.
import type { Router } from '../http';
import { signJwt } from '../jwt';
import { isAdmin, withDeployment as guard, type PlatformDeps } from './common';
import type { RequestContext } from '../http';

export function registerAccountRoutes(router: Router, deps: PlatformDeps): void {
  const d = deps.data;
  const withDeployment = guard(deps);
  router.add('platform', 'DELETE', '/v1/embed-tenants/:embedTenantName', async (ctx) => {
    if (!isAdmin(ctx, deps)) return ctx.error(403, 'Forbidden: deleting embed tenants needs the admin role.');
    const name = ctx.params.embedTenantName!;
    if (!d.embedTenants.delete(name)) return ctx.error(404, `Embed tenant "${name}" not found.`);
    deps.state.deletedEmbedTenants.push(name);
    await ctx.noContent();
  });
  router.add('platform', 'GET', '/v1/app-config', (ctx) => ctx.json(200, d.appConfig));
  // Tenant users are published through SCIM (`GET /api/scim/v2/Users`): 1-based startIndex, count,
  // and the one filter the documents show, `userName eq "<email>"`.
  router.add('platform', 'GET', '/scim/v2/Users', async (ctx) => {
    const int = (name: string, min: number) => {
      const v = ctx.query.get(name);
      if (v === null) return undefined;
      const n = Number(v);
      return Number.isInteger(n) && n >= min ? n : NaN;
    };
    const startIndex = int('startIndex', 1) ?? 1;
    const count = int('count', 0) ?? 20;
    if (Number.isNaN(startIndex)) return scimError(ctx, 400, 'startIndex must be an integer >= 1.');
    if (Number.isNaN(count)) return scimError(ctx, 400, 'count must be an integer >= 0.');
    const filter = ctx.query.get('filter');
    let rows = d.users;
    if (filter) {
      const m = /^\s*userName\s+eq\s+"([^"]*)"\s*$/i.exec(filter);
      if (!m)
        return scimError(ctx, 400, 'Unsupported filter: use userName eq "<userName>".', 'invalidFilter');
      rows = rows.filter((u) => String(u.email).toLowerCase() === m[1]!.toLowerCase());
    }
    const slice = rows.slice(startIndex - 1, startIndex - 1 + count);
    await ctx.json(200, {
      schemas: ['urn:ietf:params:scim:api:messages:2.0:ListResponse'],
      totalResults: rows.length,
      startIndex,
      itemsPerPage: slice.length,
      Resources: slice.map((u) => ({
        schemas: ['urn:ietf:params:scim:schemas:core:2.0:User'],
        id: String(u.id),
        userName: String(u.email),
        name: { givenName: String(u.firstName), familyName: String(u.lastName) },
        emails: [{ value: String(u.email), primary: true }],
        active: true,
        meta: {
          resourceType: 'User',
          created: String(u.createdAt),
          lastModified: String(u.createdAt),
          location: `/api/scim/v2/Users/${u.id}`,
        },
      })),
    });
  });
  router.add(
    'platform',
    'POST',
    '/v1/deployments/:deploymentId/token',
    withDeployment(async (ctx, dep) => {
      const expiresIn = ((ctx.body ?? {}) as { expiresIn?: unknown }).expiresIn ?? 3600;
      if (
        typeof expiresIn !== 'number' ||
        !Number.isInteger(expiresIn) ||
        expiresIn < 60 ||
        expiresIn > 86400
      ) {
        return ctx.error(400, 'expiresIn must be an integer from 60 to 86400.');
      }
      await ctx.json(200, {
        cubeApiToken: signJwt({ deploymentId: dep.id, sub: 'sandbox' }, deps.jwtSecret, expiresIn),
      });
    }),
  );
}

/** A SCIM error body (RFC 7644 section 3.12). */
function scimError(ctx: RequestContext, status: number, detail: string, scimType?: string): Promise<void> {
  return ctx.json(status, {
    schemas: ['urn:ietf:params:scim:api:messages:2.0:Error'],
    status: String(status),
    detail,
    ...(scimType ? { scimType } : {}),
  });
}
