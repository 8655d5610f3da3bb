// Account settings: regions (any user), tenant settings, OAuth integrations and OIDC token configs
// (admin only; list, create, get, PUT, delete; a client secret is required on create, optional on
// update, and never stored or echoed: only the number of secret writes is counted, so tests can
// tell a kept secret from a replaced one), and the caller's own OAuth tokens (the admin token's user
// holds one; the member token's none).
import type { RequestContext, Router } from '../../http';
import { issueId } from '../../state';
import { isAdmin, page, type PlatformDeps } from '../common';
import type { AdminState } from './adminState';

type Body = Record<string, unknown>;
const isObject = (v: unknown): v is Body => typeof v === 'object' && v !== null && !Array.isArray(v);
const isUrl = (v: unknown) => {
  try {
    return typeof v === 'string' && /^https?:$/.test(new URL(v).protocol);
  } catch {
    return false;
  }
};

/** What is wrong with an OAuth integration body (Create/UpdateOAuthIntegrationInput), if anything. */
function oauthProblem(b: Body, create: boolean): string | undefined {
  for (const k of ['name', 'type', 'authUrl', 'tokenUrl', 'clientId', 'redirectUri'])
    if (typeof b[k] !== 'string' || !b[k]) return `${k} is required.`;
  for (const k of ['authUrl', 'tokenUrl', 'redirectUri']) if (!isUrl(b[k])) return `${k} must be a URL.`;
  if (
    create
      ? typeof b.clientSecret !== 'string' || !b.clientSecret
      : !(b.clientSecret === undefined || b.clientSecret === null || typeof b.clientSecret === 'string')
  )
    return create ? 'clientSecret is required.' : 'clientSecret must be a string.';
  if (b.scopes !== undefined && !(Array.isArray(b.scopes) && b.scopes.every((x) => typeof x === 'string')))
    return 'scopes must be a list of strings.';
  if (b.config !== undefined && !isObject(b.config)) return 'config must be an object.';
  return undefined;
}

const oauthFields = (b: Body) => ({
  name: b.name,
  type: b.type,
  authUrl: b.authUrl,
  tokenUrl: b.tokenUrl,
  clientId: b.clientId,
  redirectUri: b.redirectUri,
  scopes: Array.isArray(b.scopes) ? b.scopes : null,
});

/** What is wrong with the optional fields of an OIDC token config body, if anything. */
function oidcProblem(b: Body): string | undefined {
  const set = (k: string) => b[k] !== undefined && b[k] !== null;
  if (set('name') && !/^[a-z0-9](?:[a-z0-9-]*[a-z0-9])?$/.test(String(b.name)))
    return 'name must be lowercase letters, digits and dashes.';
  if (
    set('targetEnvVar') &&
    (typeof b.targetEnvVar !== 'string' ||
      b.targetEnvVar.length > 128 ||
      !/^[A-Z_][A-Z0-9_]*$/.test(b.targetEnvVar))
  )
    return 'targetEnvVar must be an environment variable name.';
  if (
    set('subFormat') &&
    (typeof b.subFormat !== 'string' ||
      b.subFormat.length > 200 ||
      !/^(?:[A-Za-z0-9:_-]|\{(?:deployment_id|component|region)\})+$/.test(b.subFormat))
  )
    return 'subFormat may use letters, digits, ":", "_", "-" and {deployment_id}, {component}, {region}.';
  if (set('isEnabled') && typeof b.isEnabled !== 'boolean') return 'isEnabled must be true or false.';
  if (set('customAudience') && typeof b.customAudience !== 'string')
    return 'customAudience must be a string.';
  if (set('customClaims') && !isObject(b.customClaims)) return 'customClaims must be an object.';
  return undefined;
}
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

  // A collection: list, create, get, update (PUT) and delete by id, all admin only.
  const collection = (
    path: string,
    rows: () => Record<string, unknown>[],
    what: string,
    create: (b: Body) => string | Record<string, unknown>,
    update: (row: Record<string, unknown>, b: Body) => string | Record<string, unknown>,
  ) => {
    const find = (ctx: RequestContext) => rows().findIndex((r) => String(r.id) === ctx.params.id);
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
      'GET',
      `${path}/:id`,
      guard(`reading ${what}`, async (ctx) => {
        const i = find(ctx);
        if (i < 0) return ctx.error(404, `No ${what} ${ctx.params.id}.`);
        await ctx.json(200, rows()[i]);
      }),
    );
    router.add(
      'platform',
      'PUT',
      `${path}/:id`,
      guard(`changing ${what}`, async (ctx) => {
        const i = find(ctx);
        if (i < 0) return ctx.error(404, `No ${what} ${ctx.params.id}.`);
        const next = update(rows()[i]!, (ctx.body ?? {}) as Body);
        if (typeof next === 'string') return ctx.error(400, next);
        rows()[i] = next;
        await ctx.json(200, next);
      }),
    );
    router.add(
      'platform',
      'DELETE',
      `${path}/:id`,
      guard(`deleting ${what}`, async (ctx) => {
        const list = rows();
        const i = find(ctx);
        if (i < 0) return ctx.error(404, `No ${what} ${ctx.params.id}.`);
        list.splice(i, 1);
        await ctx.json(200, {});
      }),
    );
  };
  const stamp = () => new Date().toISOString();

  collection(
    '/v1/oauth-integrations',
    () => admin.oauthIntegrations,
    'OAuth integrations',
    (b) => {
      const bad = oauthProblem(b, true);
      if (bad) return bad;
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
      const bad = oauthProblem(b, false);
      if (bad) return bad;
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
      if (typeof b.audienceType !== 'string' || !b.audienceType) return 'audienceType is required.';
      const bad = oidcProblem(b);
      if (bad) return bad;
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
      const bad = oidcProblem(b);
      if (bad) return bad;
      // Absent fields stay; null clears the nullable ones (name and isEnabled keep their value).
      const next: Record<string, unknown> = { ...row, updatedAt: stamp() };
      if (typeof b.name === 'string') next.name = b.name;
      if (typeof b.isEnabled === 'boolean') next.isEnabled = b.isEnabled;
      if (typeof b.customAudience === 'string') next.audience = b.customAudience;
      for (const k of ['subFormat', 'targetEnvVar', 'customClaims']) if (b[k] !== undefined) next[k] = b[k];
      return next;
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
