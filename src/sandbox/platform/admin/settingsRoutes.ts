// Account settings: regions (any user), tenant settings, OAuth integrations and OIDC token configs
// (admin only; a client secret is required on create and never stored or echoed), and the
// caller's own OAuth tokens (the admin token's user holds one; the member token's none).
import type { RequestContext, Router } from '../../http';
import { isAdmin, page, type PlatformDeps } from '../common';
import type { AdminState } from './adminState';

type Body = Record<string, unknown>;
const BOOL = [
  'auditLogEnabled',
  'hasSupportAccess',
  'useAIBIUserInterface',
  'maintenanceWindowEnabled',
  'oidcEnabled',
];
const DAYS = ['Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday', 'Saturday', 'Sunday'];

export function registerSettingsRoutes(router: Router, deps: PlatformDeps, admin: AdminState): void {
  const guard =
    (what: string, fn: (ctx: RequestContext) => Promise<void>) =>
    (ctx: RequestContext): Promise<void> =>
      isAdmin(ctx, deps) ? fn(ctx) : ctx.error(403, `Forbidden: ${what} needs the admin role.`);
  let nextId = 900;

  router.add('platform', 'GET', '/v1/regions', async (ctx) => {
    const p = await page(ctx, admin.regions, 'regions', 50);
    if (p) await ctx.json(200, { items: p.items, data: admin.regions, pageInfo: p.pageInfo });
  });

  router.add(
    'platform',
    'GET',
    '/v1/tenant/settings',
    guard('reading tenant settings', (ctx) => ctx.json(200, admin.tenantSettings)),
  );
  router.add(
    'platform',
    'PUT',
    '/v1/tenant/settings',
    guard('changing tenant settings', async (ctx) => {
      const b = (ctx.body ?? {}) as Body;
      for (const [k, v] of Object.entries(b)) {
        if (v === null) continue;
        if (BOOL.includes(k)) {
          if (typeof v !== 'boolean') return ctx.error(400, `${k} must be true or false.`);
        } else if (k === 'maintenanceWindowDay') {
          if (!DAYS.includes(String(v)))
            return ctx.error(400, `maintenanceWindowDay must be one of ${DAYS.join(', ')}.`);
        } else if (k === 'maintenanceWindowTime') {
          if (typeof v !== 'string' || !/^([01]\d|2[0-3]):[0-5]\d$/.test(v))
            return ctx.error(400, 'maintenanceWindowTime must be HH:MM.');
        } else return ctx.error(400, `Unknown tenant setting ${k}.`);
      }
      for (const [k, v] of Object.entries(b)) if (v !== null) admin.tenantSettings[k] = v;
      if (typeof b.auditLogEnabled === 'boolean') {
        admin.tenantSettings.auditLogEnabledCurrent = b.auditLogEnabled;
        admin.tenantSettings.auditLogEnabledTimestamp = Date.now();
      }
      await ctx.json(200, admin.tenantSettings);
    }),
  );

  const collection = (
    path: string,
    rows: () => Record<string, unknown>[],
    what: string,
    create: (b: Body) => string | Record<string, unknown>,
  ) => {
    router.add(
      'platform',
      'GET',
      path,
      guard(`listing ${what}`, (ctx) => ctx.json(200, rows())),
    );
    router.add(
      'platform',
      'POST',
      path,
      guard(`creating ${what}`, async (ctx) => {
        const made = create((ctx.body ?? {}) as Body);
        if (typeof made === 'string') return ctx.error(400, made);
        rows().unshift(made);
        await ctx.json(200, made);
      }),
    );
    router.add(
      'platform',
      'DELETE',
      `${path}/:id`,
      guard(`deleting ${what}`, async (ctx) => {
        const list = rows();
        const i = list.findIndex((r) => String(r.id) === ctx.params.id);
        if (i < 0) return ctx.error(404, `No ${what} ${ctx.params.id}.`);
        list.splice(i, 1);
        await ctx.json(200, {});
      }),
    );
  };
  const str = (b: Body, ...keys: string[]) => keys.find((k) => typeof b[k] !== 'string' || !b[k]);
  const stamp = () => new Date().toISOString();

  collection(
    '/v1/oauth-integrations',
    () => admin.oauthIntegrations,
    'OAuth integrations',
    (b) => {
      const missing = str(
        b,
        'name',
        'type',
        'authUrl',
        'tokenUrl',
        'clientId',
        'clientSecret',
        'redirectUri',
      );
      if (missing) return `${missing} is required.`;
      // The secret is checked for presence and dropped: never stored, never sent back.
      return {
        id: ++nextId,
        name: b.name,
        type: b.type,
        authUrl: b.authUrl,
        tokenUrl: b.tokenUrl,
        clientId: b.clientId,
        redirectUri: b.redirectUri,
        scopes: Array.isArray(b.scopes) ? b.scopes : null,
        config: null,
        createdAt: stamp(),
        updatedAt: stamp(),
      };
    },
  );
  collection(
    '/v1/oidc-token-configs',
    () => admin.oidcTokenConfigs,
    'OIDC token configs',
    (b) => {
      if (typeof b.audienceType !== 'string' || !b.audienceType) return 'audienceType is required.';
      if (
        b.name !== undefined &&
        b.name !== null &&
        !/^[a-z0-9](?:[a-z0-9-]*[a-z0-9])?$/.test(String(b.name))
      )
        return 'name must be lowercase letters, digits and dashes.';
      if (
        b.targetEnvVar !== undefined &&
        b.targetEnvVar !== null &&
        !/^[A-Z_][A-Z0-9_]*$/.test(String(b.targetEnvVar))
      )
        return 'targetEnvVar must be an environment variable name.';
      const id = ++nextId;
      return {
        id,
        name: typeof b.name === 'string' ? b.name : `oidc-${id}`,
        audience: typeof b.customAudience === 'string' ? b.customAudience : `https://sandbox.example/${id}`,
        audienceType: b.audienceType,
        isEnabled: b.isEnabled !== false,
        subFormat: null,
        targetEnvVar: typeof b.targetEnvVar === 'string' ? b.targetEnvVar : null,
        customClaims: null,
        createdAt: stamp(),
        updatedAt: stamp(),
      };
    },
  );

  router.add('platform', 'GET', '/v1/user-oauth-tokens', (ctx) =>
    ctx.json(200, isAdmin(ctx, deps) ? admin.userOAuthTokens : []),
  );
  router.add('platform', 'DELETE', '/v1/user-oauth-tokens/:integrationId', async (ctx) => {
    if (isAdmin(ctx, deps))
      admin.userOAuthTokens = admin.userOAuthTokens.filter(
        (t) => String(t.integrationId) !== ctx.params.integrationId,
      );
    await ctx.json(200, {});
  });
}
