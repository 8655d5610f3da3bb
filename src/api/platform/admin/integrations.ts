// OAuth integrations and OIDC token configs: list, get, create, update (PUT), delete. Inputs are
// the published CreateOAuthIntegrationInput / UpdateOAuthIntegrationInput and
// CreateOidcTokenConfigInput / UpdateOidcTokenConfigInput, strict: URLs (`format: url`) and the
// published patterns are checked before sending. A client secret is write-only: sent, never read
// back (the responses carry none) and never kept. On update the published document makes
// `clientSecret` optional (string or null) without saying what leaving it out does; we leave it
// out when the user enters none and say so in the UI.
import { z } from 'zod';
import type { Page } from '../../paging';
import { id, maybe, parseInput, positiveId, readItems, type PlatformTransport } from '../transport';
import { ADMIN_HINT } from './scim';

export const OAuthIntegrationSchema = z.looseObject({
  id,
  name: z.string(),
  type: maybe(z.string()),
  clientId: maybe(z.string()),
  authUrl: maybe(z.string()),
  tokenUrl: maybe(z.string()),
  redirectUri: maybe(z.string()),
  scopes: maybe(z.array(z.unknown())),
  config: maybe(z.record(z.string(), z.unknown())),
  createdAt: maybe(z.string()),
  updatedAt: maybe(z.string()),
});
export type OAuthIntegration = z.infer<typeof OAuthIntegrationSchema>;

export const OidcTokenConfigSchema = z.looseObject({
  id,
  name: maybe(z.string()),
  audience: maybe(z.string()),
  audienceType: maybe(z.string()),
  isEnabled: maybe(z.boolean()),
  subFormat: maybe(z.string()),
  targetEnvVar: maybe(z.string()),
  customClaims: maybe(z.record(z.string(), z.unknown())),
  createdAt: maybe(z.string()),
  updatedAt: maybe(z.string()),
});
export type OidcTokenConfig = z.infer<typeof OidcTokenConfigSchema>;

/** `format: url` as the published inputs use it: an absolute http(s) URL. */
export const HttpUrlSchema = z.url({ protocol: /^https?$/, error: 'use an absolute http(s) URL' });
const required = z.string().min(1, 'required');
const config = z.record(z.string(), z.unknown());

const oauthFields = {
  name: required,
  type: required,
  authUrl: HttpUrlSchema,
  tokenUrl: HttpUrlSchema,
  clientId: required,
  redirectUri: HttpUrlSchema,
  scopes: z.array(z.string()).optional(),
  config: config.optional(),
};

export const CreateOAuthIntegrationInputSchema = z.strictObject({
  ...oauthFields,
  clientSecret: required,
});
export type CreateOAuthIntegrationInput = z.infer<typeof CreateOAuthIntegrationInputSchema>;

/** A full replacement (every field but the secret is required); no secret sent: see the header. */
export const UpdateOAuthIntegrationInputSchema = z.strictObject({
  ...oauthFields,
  clientSecret: required.optional(),
});
export type UpdateOAuthIntegrationInput = z.infer<typeof UpdateOAuthIntegrationInputSchema>;

export const OIDC_NAME = /^[a-z0-9](?:[a-z0-9-]*[a-z0-9])?$/;
export const OIDC_ENV_VAR = /^[A-Z_][A-Z0-9_]*$/;
export const OIDC_SUB_FORMAT = /^(?:[A-Za-z0-9:_-]|\{(?:deployment_id|component|region)\})+$/;

const oidcFields = {
  customAudience: z.string().min(1, 'required').nullable().optional(),
  customClaims: config.nullable().optional(),
  isEnabled: z.boolean().nullable().optional(),
  name: z.string().regex(OIDC_NAME, 'use lowercase letters, digits and dashes').nullable().optional(),
  subFormat: z
    .string()
    .max(200)
    .regex(OIDC_SUB_FORMAT, 'use letters, digits, ":", "_", "-" and {deployment_id}, {component}, {region}')
    .nullable()
    .optional(),
  targetEnvVar: z
    .string()
    .max(128)
    .regex(OIDC_ENV_VAR, 'use an environment variable name such as CUBEJS_DB_TOKEN')
    .nullable()
    .optional(),
};

export const CreateOidcTokenConfigInputSchema = z.strictObject({
  audienceType: required,
  ...oidcFields,
});
export type CreateOidcTokenConfigInput = z.infer<typeof CreateOidcTokenConfigInputSchema>;

export const UpdateOidcTokenConfigInputSchema = z.strictObject(oidcFields);
export type UpdateOidcTokenConfigInput = z.infer<typeof UpdateOidcTokenConfigInputSchema>;
/** The fields an update may carry, in the order the edit flow offers them. */
export const OIDC_EDIT_KEYS = Object.keys(oidcFields) as (keyof UpdateOidcTokenConfigInput)[];

/** A bare JSON array answer as one page (these lists are not paged). */
export async function arrayPage<T>(
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

const OAUTH = '/v1/oauth-integrations';
const OIDC = '/v1/oidc-token-configs';

export function listOAuthIntegrations(t: PlatformTransport, signal?: AbortSignal) {
  return arrayPage(t, OAUTH, OAuthIntegrationSchema, 'Listing OAuth integrations', signal);
}

export function getOAuthIntegration(t: PlatformTransport, integrationId: number, signal?: AbortSignal) {
  return t.get(`${OAUTH}/${positiveId(integrationId, 'Integration id')}`, OAuthIntegrationSchema, {
    signal,
    action: 'Reading an OAuth integration',
    forbiddenHint: `Reading OAuth integrations ${ADMIN_HINT}`,
    messages: { notFound: 'That OAuth integration no longer exists: refresh OAuth integrations.' },
  });
}

export function createOAuthIntegration(
  t: PlatformTransport,
  input: CreateOAuthIntegrationInput,
  signal?: AbortSignal,
) {
  const body = parseInput(CreateOAuthIntegrationInputSchema, input, 'Creating an OAuth integration');
  return t.write('POST', OAUTH, body, OAuthIntegrationSchema, {
    signal,
    action: 'Creating an OAuth integration',
    forbiddenHint: `Creating OAuth integrations ${ADMIN_HINT}`,
    check: { hint: 'Refresh OAuth integrations to see whether it was created before trying again.' },
  });
}

export function updateOAuthIntegration(
  t: PlatformTransport,
  integrationId: number,
  input: UpdateOAuthIntegrationInput,
  signal?: AbortSignal,
) {
  const body = parseInput(UpdateOAuthIntegrationInputSchema, input, 'Updating an OAuth integration');
  return t.write(
    'PUT',
    `${OAUTH}/${positiveId(integrationId, 'Integration id')}`,
    body,
    OAuthIntegrationSchema,
    {
      signal,
      action: 'Updating an OAuth integration',
      forbiddenHint: `Changing OAuth integrations ${ADMIN_HINT}`,
      messages: { notFound: 'That OAuth integration no longer exists: refresh OAuth integrations.' },
      check: { hint: 'Open the OAuth integration again to see whether the change was saved.' },
    },
  );
}

export async function deleteOAuthIntegration(
  t: PlatformTransport,
  integrationId: number,
  signal?: AbortSignal,
) {
  await t.writeNoContent('DELETE', `${OAUTH}/${positiveId(integrationId, 'Integration id')}`, {
    signal,
    action: 'Deleting an OAuth integration',
    forbiddenHint: `Deleting OAuth integrations ${ADMIN_HINT}`,
    check: { hint: 'Refresh OAuth integrations to see whether it was deleted.' },
  });
}

export function listOidcTokenConfigs(t: PlatformTransport, signal?: AbortSignal) {
  return arrayPage(t, OIDC, OidcTokenConfigSchema, 'Listing OIDC token configs', signal);
}

export function getOidcTokenConfig(t: PlatformTransport, configId: number, signal?: AbortSignal) {
  return t.get(`${OIDC}/${positiveId(configId, 'Config id')}`, OidcTokenConfigSchema, {
    signal,
    action: 'Reading an OIDC token config',
    forbiddenHint: `Reading OIDC token configs ${ADMIN_HINT}`,
    messages: { notFound: 'That OIDC token config no longer exists: refresh OIDC token configs.' },
  });
}

export function createOidcTokenConfig(
  t: PlatformTransport,
  input: CreateOidcTokenConfigInput,
  signal?: AbortSignal,
) {
  const body = parseInput(CreateOidcTokenConfigInputSchema, input, 'Creating an OIDC token config');
  return t.write('POST', OIDC, body, OidcTokenConfigSchema, {
    signal,
    action: 'Creating an OIDC token config',
    forbiddenHint: `Creating OIDC token configs ${ADMIN_HINT}`,
    check: { hint: 'Refresh OIDC token configs to see whether it was created before trying again.' },
  });
}

export function updateOidcTokenConfig(
  t: PlatformTransport,
  configId: number,
  input: UpdateOidcTokenConfigInput,
  signal?: AbortSignal,
) {
  const body = parseInput(UpdateOidcTokenConfigInputSchema, input, 'Updating an OIDC token config');
  return t.write('PUT', `${OIDC}/${positiveId(configId, 'Config id')}`, body, OidcTokenConfigSchema, {
    signal,
    action: 'Updating an OIDC token config',
    forbiddenHint: `Changing OIDC token configs ${ADMIN_HINT}`,
    messages: { notFound: 'That OIDC token config no longer exists: refresh OIDC token configs.' },
    check: { hint: 'Open the OIDC token config again to see whether the change was saved.' },
  });
}

export async function deleteOidcTokenConfig(t: PlatformTransport, configId: number, signal?: AbortSignal) {
  await t.writeNoContent('DELETE', `${OIDC}/${positiveId(configId, 'Config id')}`, {
    signal,
    action: 'Deleting an OIDC token config',
    forbiddenHint: `Deleting OIDC token configs ${ADMIN_HINT}`,
    check: { hint: 'Refresh OIDC token configs to see whether it was deleted.' },
  });
}
