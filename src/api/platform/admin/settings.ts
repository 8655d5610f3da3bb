// Account settings: regions, tenant settings (read, and written with only the fields changed),
// and the user's own OAuth tokens. OAuth integrations and OIDC token configs are in
// integrations.ts (re-exported here); the app config in appConfig.ts.
import { z } from 'zod';
import { adminOnly, table } from '../operation';
import { maybe, PageQuery } from '../transport';

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

// The user's own tokens are read with the rest of what is theirs (../me.ts).
export { UserOAuthTokenSchema } from '../me';

/** Regions, tenant settings and the user's own OAuth tokens (reached as `platform.admin`). */
export const SETTINGS = table(
  { names: { integrationId: 'Integration id' } },
  {
    listRegions: {
      method: 'GET',
      path: '/v1/regions',
      query: PageQuery,
      item: RegionSchema,
      action: 'Listing regions',
    },
    getTenantSettings: {
      method: 'GET',
      path: '/v1/tenant/settings',
      answer: TenantSettingsSchema,
      action: 'Reading tenant settings',
      forbidden: adminOnly('Reading tenant settings'),
    },
    updateTenantSettings: {
      method: 'PUT',
      path: '/v1/tenant/settings',
      body: TenantSettingsInputSchema,
      answer: TenantSettingsSchema,
      action: 'Updating tenant settings',
      forbidden: adminOnly('Changing tenant settings'),
      check: 'Open Tenant Settings again to see whether the change was saved.',
    },
    revokeUserOAuthToken: {
      method: 'DELETE',
      path: '/v1/user-oauth-tokens/{integrationId}',
      nothing: true,
      action: 'Revoking your OAuth token',
      check: 'Refresh My Connections to see whether it was revoked.',
    },
  },
);
