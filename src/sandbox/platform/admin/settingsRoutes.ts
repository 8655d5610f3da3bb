// Account settings: regions (any user), tenant settings, OAuth integrations and OIDC token configs
// (admin only; list, create, get, PUT, delete; a client secret is required on create, optional on
// update, and never stored or echoed: only the number of secret writes is counted, so tests can
// tell a kept secret from a replaced one), the caller's own OAuth tokens (the admin token's user
// holds one; the member token's none; a sign-in started here is finished by opening the address
// it answers, see oauthPage.ts) and the caller's own settings.
import { randomBytes } from 'node:crypto';
import type { Method, RequestContext, Router } from '../../http';
import type { UserSettingsInput } from '../../../api/platform/me';
import { OAUTH_SIGN_IN_PATH } from './oauthPage';
import { issueId } from '../../state';
import { adminRoutes, isAdmin, sendPage, type PlatformDeps } from '../common';
import type { TenantSettingsInput } from '../../../api/platform/admin/settings';
import type { AdminState } from './adminState';

type Body = Record<string, unknown>;
const isObject = (v: unknown): v is Body => typeof v === 'object' && v !== null && !Array.isArray(v);

const oauthFields = (b: Body) => ({
  name: b.name,
  type: b.type,
  authUrl: b.authUrl,
  tokenUrl: b.tokenUrl,
  clientId: b.clientId,
  redirectUri: b.redirectUri,
  scopes: Array.isArray(b.scopes) ? b.scopes : null,
});

// Not published as patterns, but the service refuses any other day or time (modelled here).
const DAYS = ['Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday', 'Saturday', 'Sunday'];
const TIME = /^([01]\d|2[0-3]):[0-5]\d$/;

export function registerSettingsRoutes(router: Router, deps: PlatformDeps, admin: AdminState): void {
  const on = adminRoutes(router, deps);

  router.add('platform', 'GET', '/v1/regions', async (ctx) => {
    // The deprecated `data` here is every region, as the service sends it.
    await sendPage(ctx, admin.regions, 'regions', { first: 50, extra: () => ({ data: admin.regions }) });
  });

  on('GET', '/v1/tenant/settings', 'reading tenant settings', (ctx) => ctx.json(200, admin.tenantSettings));
  on('PUT', '/v1/tenant/settings', 'changing tenant settings', async (ctx) => {
    const b = ctx.body as TenantSettingsInput;
    if (b.maintenanceWindowDay !== undefined && !DAYS.includes(b.maintenanceWindowDay))
      return ctx.error(400, `maintenanceWindowDay must be one of ${DAYS.join(', ')}.`);
    if (b.maintenanceWindowTime !== undefined && !TIME.test(b.maintenanceWindowTime))
      return ctx.error(400, 'maintenanceWindowTime must be HH:MM, from 00:00 to 23:59.');
    Object.assign(admin.tenantSettings, b);
    if (typeof b.auditLogEnabled === 'boolean') {
      admin.tenantSettings.auditLogEnabledCurrent = b.auditLogEnabled;
      admin.tenantSettings.auditLogEnabledTimestamp = Date.now();
    }
    await ctx.json(200, admin.tenantSettings);
  });

  // A collection: list, create, get, update (PUT) and delete by id, all admin only.
  const collection = (
    path: string,
    rows: () => Record<string, unknown>[],
    what: string,
    create: (b: Body) => Record<string, unknown>,
    update: (row: Record<string, unknown>, b: Body) => Record<string, unknown>,
  ) => {
    /** A route of the row the path names (404 when there is none). */
    const one = (
      method: Method,
      verb: string,
      fn: (ctx: RequestContext, list: Body[], i: number) => Promise<void>,
    ) =>
      on(method, `${path}/:id`, `${verb} ${what}`, (ctx) => {
        const list = rows();
        const i = list.findIndex((r) => String(r.id) === ctx.params.id);
        return i < 0 ? ctx.error(404, `No ${what} ${ctx.params.id}.`) : fn(ctx, list, i);
      });
    on('GET', path, `listing ${what}`, (ctx) => ctx.json(200, rows()));
    on('POST', path, `creating ${what}`, async (ctx) => {
      const made = create(ctx.body as Body);
      rows().unshift(made);
      await ctx.json(200, made);
    });
    one('GET', 'reading', (ctx, list, i) => ctx.json(200, list[i]));
    one('PUT', 'changing', async (ctx, list, i) => {
      const next = update(list[i]!, ctx.body as Body);
      list[i] = next;
      await ctx.json(200, next);
    });
    one('DELETE', 'deleting', async (ctx, list, i) => {
      list.splice(i, 1);
      await ctx.json(200, {});
    });
  };
  const stamp = () => new Date().toISOString();

  collection(
    '/v1/oauth-integrations',
    () => admin.oauthIntegrations,
    'OAuth integrations',
    (b) => {
      const id = issueId(deps.state, 'adminIntegration', 901);
      // The secret is checked and dropped: never stored, never sent back; only the write is counted.
      admin.oauthSecretWrites[id] = 1;
      return {
        id,
        ...oauthFields(b),
        config: isObject(b.config) ? b.config : null,
        createdAt: stamp(),
        updatedAt: stamp(),
      };
    },
    (row, b) => {
      if (typeof b.clientSecret === 'string') {
        const id = Number(row.id);
        admin.oauthSecretWrites[id] = (admin.oauthSecretWrites[id] ?? 0) + 1;
      }
      return {
        ...row,
        ...oauthFields(b),
        ...(isObject(b.config) ? { config: b.config } : {}),
        updatedAt: stamp(),
      };
    },
  );
  collection(
    '/v1/oidc-token-configs',
    () => admin.oidcTokenConfigs,
    'OIDC token configs',
    (b) => {
      const id = issueId(deps.state, 'adminIntegration', 901);
      return {
        id,
        name: typeof b.name === 'string' ? b.name : `oidc-${id}`,
        audience: typeof b.customAudience === 'string' ? b.customAudience : `https://sandbox.example/${id}`,
        audienceType: b.audienceType,
        isEnabled: b.isEnabled !== false,
        subFormat: typeof b.subFormat === 'string' ? b.subFormat : null,
        targetEnvVar: typeof b.targetEnvVar === 'string' ? b.targetEnvVar : null,
        customClaims: isObject(b.customClaims) ? b.customClaims : null,
        createdAt: stamp(),
        updatedAt: stamp(),
      };
    },
    (row, b) => {
      // Absent fields stay; null clears the nullable ones (name and isEnabled keep their value).
      const next: Record<string, unknown> = { ...row, updatedAt: stamp() };
      if (typeof b.name === 'string') next.name = b.name;
      if (typeof b.isEnabled === 'boolean') next.isEnabled = b.isEnabled;
      if (typeof b.customAudience === 'string') next.audience = b.customAudience;
      for (const k of ['subFormat', 'targetEnvVar', 'customClaims']) if (b[k] !== undefined) next[k] = b[k];
      return next;
    },
  );

  // The caller's own: the admin token is user 1, the member token user 2.
  const me = (ctx: RequestContext) => (isAdmin(ctx, deps) ? 1 : 2);
  const mine = (ctx: RequestContext) => admin.userOAuthTokens.filter((t) => t.userId === me(ctx));
  router.add('platform', 'GET', '/v1/user-oauth-tokens', (ctx) => ctx.json(200, mine(ctx)));
  router.add('platform', 'GET', '/v1/user-oauth-tokens/:integrationId', async (ctx) => {
    const t = mine(ctx).find((x) => String(x.integrationId) === ctx.params.integrationId);
    if (!t) return ctx.error(404, `You hold no token for integration ${ctx.params.integrationId}.`);
    await ctx.json(200, t);
  });
  router.add('platform', 'DELETE', '/v1/user-oauth-tokens/:integrationId', async (ctx) => {
    admin.userOAuthTokens = admin.userOAuthTokens.filter(
      (t) => !(t.userId === me(ctx) && String(t.integrationId) === ctx.params.integrationId),
    );
    await ctx.json(200, {});
  });
  // Starting a sign-in: the address of the sandbox's own sign-in page (oauthPage.ts), which
  // finishes it when opened, as an identity provider's consent page would.
  router.add('platform', 'POST', '/v1/user-oauth-tokens/:integrationId/initiate', async (ctx) => {
    const integration = admin.oauthIntegrations.find((i) => String(i.id) === ctx.params.integrationId);
    if (!integration) return ctx.error(404, `OAuth integration ${ctx.params.integrationId} not found.`);
    const state = randomBytes(16).toString('hex');
    admin.oauthSignIns[state] = { userId: me(ctx), integrationId: Number(integration.id), at: stamp() };
    const host = ctx.req.headers.host ?? '127.0.0.1';
    await ctx.json(200, { url: `http://${host}${OAUTH_SIGN_IN_PATH}?state=${state}` });
  });

  router.add('platform', 'PATCH', '/v1/users/me/settings', async (ctx) => {
    const id = me(ctx);
    const b = ctx.body as UserSettingsInput;
    const now = (admin.userSettings[String(id)] ??= {});
    // A merge: absent fields stay; `sheets` merges field by field and null clears it; the
    // deprecated `lastSeenChangelogId` is accepted and ignored, as published.
    for (const [k, v] of Object.entries(b)) {
      if (v === undefined || k === 'lastSeenChangelogId') continue;
      if (k === 'sheets' && v !== null)
        now.sheets = { ...(isObject(now.sheets) ? now.sheets : {}), ...(v as Body) };
      else now[k] = v;
    }
    const u = deps.data.users.find((x) => x.id === id);
    await ctx.json(200, {
      id,
      email: String(u?.email ?? `user${id}@sandbox.example`),
      username: String(u?.username ?? u?.email ?? `user${id}`),
      firstName: (u?.firstName as string | undefined) ?? null,
      isAdmin: isAdmin(ctx, deps),
      notifications: {},
      settings: now,
    });
  });
}
