// Account settings: regions, tenant settings (read, and written with only the fields changed),
// OAuth integrations and OIDC token configs (client secrets are write-only: sent, never read back
// or kept), and the user's own OAuth tokens.
import { z } from 'zod';
import type { Page, PageParams } from '../../paging';
import { id, maybe, parseInput, positiveId, readItems, type PlatformTransport } from '../transport';
import { ADMIN_HINT } from './scim';

export const RegionSchema = z.looseObject({
  id: z.number().optional(),
  name: z.string(),
  title: maybe(z.string()),
  provider: maybe(z.string()),
  isPublic: maybe(z.boolean()),
  isDedicated: maybe(z.boolean()),
});

export const TenantSettingsSchema = z.looseObject({
  auditLogEnabled: maybe(z.boolean()),
  hasSupportAccess: maybe(z.boolean()),
  useAIBIUserInterface: maybe(z.boolean()),
  maintenanceWindowEnabled: maybe(z.boolean()),
  maintenanceWindowDay: maybe(z.string()),
  maintenanceWindowTime: maybe(z.string()),
  oidcEnabled: maybe(z.boolean()),
});
export type TenantSettings = z.infer<typeof TenantSettingsSchema>;

/** The editable tenant settings, as the published TenantSettingsInput (strict). */
export const TenantSettingsInputSchema = z.strictObject({
  auditLogEnabled: z.boolean().optional(),
  hasSupportAccess: z.boolean().optional(),
  useAIBIUserInterface: z.boolean().optional(),
  maintenanceWindowEnabled: z.boolean().optional(),
  maintenanceWindowDay: z.string().optional(),
  maintenanceWindowTime: z
    .string()
    .regex(/^\d{2}:\d{2}$/, 'use HH:MM')
    .optional(),
  oidcEnabled: z.boolean().optional(),
});
export type TenantSettingsInput = z.infer<typeof TenantSettingsInputSchema>;
export const TENANT_SETTING_KEYS = Object.keys(
  TenantSettingsInputSchema.shape,
) as (keyof TenantSettingsInput)[];

export const OAuthIntegrationSchema = z.looseObject({
  id,
  name: z.string(),
  type: maybe(z.string()),
  clientId: maybe(z.string()),
  authUrl: maybe(z.string()),
  tokenUrl: maybe(z.string()),
  redirectUri: maybe(z.string()),
  scopes: maybe(z.array(z.unknown())),
});

export const OidcTokenConfigSchema = z.looseObject({
  id,
  name: maybe(z.string()),
  audience: maybe(z.string()),
  audienceType: maybe(z.string()),
  isEnabled: maybe(z.boolean()),
  targetEnvVar: maybe(z.string()),
});

export const UserOAuthTokenSchema = z.looseObject({
  id,
  integrationId: z.number(),
  status: maybe(z.string()),
  accessTokenExpiresAt: maybe(z.string()),
});

const url = z.url({ protocol: /^https?$/ });
export const CreateOAuthIntegrationInputSchema = z.strictObject({
  name: z.string().min(1),
  type: z.string().min(1),
  authUrl: url,
  tokenUrl: url,
  clientId: z.string().min(1),
  clientSecret: z.string().min(1),
  redirectUri: url,
  scopes: z.array(z.string()).optional(),
});
export type CreateOAuthIntegrationInput = z.infer<typeof CreateOAuthIntegrationInputSchema>;

export const CreateOidcTokenConfigInputSchema = z.strictObject({
  audienceType: z.string().min(1),
  customAudience: z.string().min(1).optional(),
  name: z
    .string()
    .regex(/^[a-z0-9](?:[a-z0-9-]*[a-z0-9])?$/, 'use lowercase letters, digits and dashes')
    .optional(),
  isEnabled: z.boolean().optional(),
  targetEnvVar: z
    .string()
    .regex(/^[A-Z_][A-Z0-9_]*$/, 'use an environment variable name such as CUBEJS_DB_TOKEN')
    .max(128)
    .optional(),
});
export type CreateOidcTokenConfigInput = z.infer<typeof CreateOidcTokenConfigInputSchema>;

/** A bare JSON array answer as one page (these lists are not paged). */
async function arrayPage<T>(
  t: PlatformTransport,
  path: string,
  item: z.ZodType<T>,
  what: string,
  signal?: AbortSignal,
): Promise<Page<T>> {
  const raw = await t.get(path, z.array(z.unknown()), {
    signal,
    action: what,
    forbiddenHint: `${what} ${ADMIN_HINT}`,
  });
  const { items, invalid } = readItems(raw, item, what, t.log);
  return invalid.length > 0 ? { items, pageInfo: null, invalid } : { items, pageInfo: null };
}

export function listRegions(t: PlatformTransport, p: PageParams = {}, signal?: AbortSignal) {
  return t.list(
    '/v1/regions',
    RegionSchema,
    { first: p.first, after: p.after },
    { signal, action: 'Listing regions' },
  );
}

export function getTenantSettings(t: PlatformTransport, signal?: AbortSignal) {
  return t.get('/v1/tenant/settings', TenantSettingsSchema, {
    signal,
    action: 'Reading tenant settings',
    forbiddenHint: `Reading tenant settings ${ADMIN_HINT}`,
  });
}

export function updateTenantSettings(t: PlatformTransport, input: TenantSettingsInput, signal?: AbortSignal) {
  const body = parseInput(TenantSettingsInputSchema, input, 'Updating tenant settings');
  return t.write('PUT', '/v1/tenant/settings', body, TenantSettingsSchema, {
    signal,
    action: 'Updating tenant settings',
    forbiddenHint: `Changing tenant settings ${ADMIN_HINT}`,
    check: { hint: 'Open Tenant Settings again to see whether the change was saved.' },
  });
}

export function listOAuthIntegrations(t: PlatformTransport, signal?: AbortSignal) {
  return arrayPage(t, '/v1/oauth-integrations', OAuthIntegrationSchema, 'Listing OAuth integrations', signal);
}

export function createOAuthIntegration(
  t: PlatformTransport,
  input: CreateOAuthIntegrationInput,
  signal?: AbortSignal,
) {
  const body = parseInput(CreateOAuthIntegrationInputSchema, input, 'Creating an OAuth integration');
  return t.write('POST', '/v1/oauth-integrations', body, OAuthIntegrationSchema, {
    signal,
    action: 'Creating an OAuth integration',
    forbiddenHint: `Creating OAuth integrations ${ADMIN_HINT}`,
    check: { hint: 'Refresh OAuth integrations to see whether it was created before trying again.' },
  });
}

export async function deleteOAuthIntegration(
  t: PlatformTransport,
  integrationId: number,
  signal?: AbortSignal,
) {
  await t.writeNoContent('DELETE', `/v1/oauth-integrations/${positiveId(integrationId, 'Integration id')}`, {
    signal,
    action: 'Deleting an OAuth integration',
    forbiddenHint: `Deleting OAuth integrations ${ADMIN_HINT}`,
    check: { hint: 'Refresh OAuth integrations to see whether it was deleted.' },
  });
}

export function listOidcTokenConfigs(t: PlatformTransport, signal?: AbortSignal) {
  return arrayPage(t, '/v1/oidc-token-configs', OidcTokenConfigSchema, 'Listing OIDC token configs', signal);
}

export function createOidcTokenConfig(
  t: PlatformTransport,
  input: CreateOidcTokenConfigInput,
  signal?: AbortSignal,
) {
  const body = parseInput(CreateOidcTokenConfigInputSchema, input, 'Creating an OIDC token config');
  return t.write('POST', '/v1/oidc-token-configs', body, OidcTokenConfigSchema, {
    signal,
    action: 'Creating an OIDC token config',
    forbiddenHint: `Creating OIDC token configs ${ADMIN_HINT}`,
    check: { hint: 'Refresh OIDC token configs to see whether it was created before trying again.' },
  });
}

export async function deleteOidcTokenConfig(t: PlatformTransport, configId: number, signal?: AbortSignal) {
  await t.writeNoContent('DELETE', `/v1/oidc-token-configs/${positiveId(configId, 'Config id')}`, {
    signal,
    action: 'Deleting an OIDC token config',
    forbiddenHint: `Deleting OIDC token configs ${ADMIN_HINT}`,
    check: { hint: 'Refresh OIDC token configs to see whether it was deleted.' },
  });
}

export function listUserOAuthTokens(t: PlatformTransport, signal?: AbortSignal) {
  return arrayPage(t, '/v1/user-oauth-tokens', UserOAuthTokenSchema, 'Listing your OAuth tokens', signal);
}

export async function revokeUserOAuthToken(
  t: PlatformTransport,
  integrationId: number,
  signal?: AbortSignal,
) {
  await t.writeNoContent('DELETE', `/v1/user-oauth-tokens/${positiveId(integrationId, 'Integration id')}`, {
    signal,
    action: 'Revoking your OAuth token',
    check: { hint: 'Refresh "My OAuth tokens" to see whether it was revoked.' },
  });
}
