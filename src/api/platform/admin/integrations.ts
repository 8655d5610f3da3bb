// OAuth integrations and OIDC token configs: list, get, create, update (PUT), delete. Inputs are
// the published CreateOAuthIntegrationInput / UpdateOAuthIntegrationInput and
// CreateOidcTokenConfigInput / UpdateOidcTokenConfigInput, strict: URLs (`format: url`) and the
// published patterns are checked before sending. A client secret is write-only: sent, never read
// back (the responses carry none) and never kept. On update the published document makes
// `clientSecret` optional (string or null) without saying what leaving it out does; we leave it
// out when the user enters none and say so in the UI.
import { z } from 'zod';
import type { Page } from '../../paging';
import { callOperation, table, type Operation } from '../operation';
import { id, maybe, readItems, type PlatformTransport } from '../transport';
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

/** A bare JSON array answer (these lists are not paged) as one page, read item by item. */
export async function arrayPage<T>(
  t: PlatformTransport,
  row: Operation,
  item: z.ZodType<T>,
  what: string,
  signal?: AbortSignal,
): Promise<Page<T>> {
  const raw = (await callOperation(t, row, [signal])) as unknown[];
  const { items, invalid } = readItems(raw, item, what, t.log);
  return invalid.length > 0 ? { items, pageInfo: null, invalid } : { items, pageInfo: null };
}

const OAUTH = '/v1/oauth-integrations';
const OIDC = '/v1/oidc-token-configs';

/** How an account-settings resource is named in messages: "an OAuth integration", "OAuth integrations". */
interface Noun {
  a: string;
  one: string;
  many: string;
}

/**
 * The get, create, update and delete rows of an admin resource at `path/{id}`, every message made
 * from its noun (forbidden, not found, outcome unknown).
 */
function resource<P extends string, C extends z.ZodType, U extends z.ZodType, A extends z.ZodType>(
  n: Noun,
  path: P,
  create: C,
  update: U,
  answer: A,
) {
  const item = `${path}/{id}` as `${P}/{id}`;
  const gone = `That ${n.one} no longer exists: refresh ${n.many}.`;
  const does = (verb: string, verbs = verb) => ({
    action: `${verb} ${n.a} ${n.one}`,
    forbidden: `${verbs} ${n.many} ${ADMIN_HINT}`,
  });
  return {
    get: { method: 'GET', path: item, kind: 'read', answer, notFound: gone, ...does('Reading') },
    create: {
      method: 'POST',
      path,
      kind: 'write',
      body: create,
      answer,
      check: `Refresh ${n.many} to see whether it was created before trying again.`,
      ...does('Creating'),
      refused: `Creating ${n.a} ${n.one}`,
    },
    update: {
      method: 'PUT',
      path: item,
      kind: 'write',
      body: update,
      answer,
      notFound: gone,
      check: `Open the ${n.one} again to see whether the change was saved.`,
      ...does('Updating', 'Changing'),
      refused: `Updating ${n.a} ${n.one}`,
    },
    remove: {
      method: 'DELETE',
      path: item,
      kind: 'destroy',
      nothing: true,
      check: `Refresh ${n.many} to see whether it was deleted.`,
      ...does('Deleting'),
    },
  } as const;
}

const oauth = resource(
  { a: 'an', one: 'OAuth integration', many: 'OAuth integrations' },
  OAUTH,
  CreateOAuthIntegrationInputSchema,
  UpdateOAuthIntegrationInputSchema,
  OAuthIntegrationSchema,
);
const oidc = resource(
  { a: 'an', one: 'OIDC token config', many: 'OIDC token configs' },
  OIDC,
  CreateOidcTokenConfigInputSchema,
  UpdateOidcTokenConfigInputSchema,
  OidcTokenConfigSchema,
);

/** OAuth integrations and OIDC token configs (reached as `platform.admin`). */
export const INTEGRATIONS = table(
  { names: { id: 'Integration id' } },
  {
    getOAuthIntegration: oauth.get,
    createOAuthIntegration: oauth.create,
    updateOAuthIntegration: oauth.update,
    deleteOAuthIntegration: oauth.remove,
  },
);
export const OIDC_CONFIGS = table(
  { names: { id: 'Config id' } },
  {
    getOidcTokenConfig: oidc.get,
    createOidcTokenConfig: oidc.create,
    updateOidcTokenConfig: oidc.update,
    deleteOidcTokenConfig: oidc.remove,
  },
);

/** The two lists: a bare array each, read item by item by the functions below. */
const LISTS = table(
  {},
  {
    listOAuthIntegrations: {
      method: 'GET',
      path: OAUTH,
      kind: 'read',
      answer: z.array(z.unknown()),
      action: 'Listing OAuth integrations',
      forbidden: `Listing OAuth integrations ${ADMIN_HINT}`,
    },
    listOidcTokenConfigs: {
      method: 'GET',
      path: OIDC,
      kind: 'read',
      answer: z.array(z.unknown()),
      action: 'Listing OIDC token configs',
      forbidden: `Listing OIDC token configs ${ADMIN_HINT}`,
    },
  },
);

export function listOAuthIntegrations(t: PlatformTransport, signal?: AbortSignal) {
  return arrayPage(
    t,
    LISTS.listOAuthIntegrations,
    OAuthIntegrationSchema,
    'Listing OAuth integrations',
    signal,
  );
}

export function listOidcTokenConfigs(t: PlatformTransport, signal?: AbortSignal) {
  return arrayPage(
    t,
    LISTS.listOidcTokenConfigs,
    OidcTokenConfigSchema,
    'Listing OIDC token configs',
    signal,
  );
}
