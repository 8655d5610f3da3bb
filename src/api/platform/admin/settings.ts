// Account settings: regions, tenant settings (read, and written with only the fields changed),
// and the user's own OAuth tokens. OAuth integrations and OIDC token configs are in
// integrations.ts (re-exported here); the app config in appConfig.ts.
import { z } from 'zod';
import type { PageParams } from '../../paging';
import { id, maybe, parseInput, positiveId, type PlatformTransport } from '../transport';
import { arrayPage } from './integrations';
import { ADMIN_HINT } from './scim';

export * from './integrations';

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

export const UserOAuthTokenSchema = z.looseObject({
  id,
  integrationId: z.number(),
  status: maybe(z.string()),
  accessTokenExpiresAt: maybe(z.string()),
});

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
