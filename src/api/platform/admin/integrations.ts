// OAuth integrations and OIDC token configs: list, get, create, update (PUT), delete. Inputs are
// the published CreateOAuthIntegrationInput / UpdateOAuthIntegrationInput and
// CreateOidcTokenConfigInput / UpdateOidcTokenConfigInput, strict: URLs (`format: url`) and the
// published patterns are checked before sending. A client secret is write-only: sent, never read
// back (the responses carry none) and never kept. On update the published document makes
// `clientSecret` optional (string or null) without saying what leaving it out does; we leave it
// out when the user enters none and say so in the UI.
import { z } from 'zod';
import { adminOnly, table } from '../operation';
import { id, maybe } from '../transport';

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

const OAUTH = '/v1/oauth-integrations';
const OIDC = '/v1/oidc-token-configs';

/** How an account-settings resource is named: "an OAuth integration", "OAuth integrations", its id. */
interface Noun {
  a: string;
  one: string;
  many: string;
  id: string;
}

/** The rows' keys as the client names them: `get` of an `OAuthIntegration` is `getOAuthIntegration`. */
type Named<N extends string, R> = {
  [K in keyof R as K extends 'list' ? `list${N}s` : `${K & string}${N}`]: R[K];
};

/**
 * The list (one bare array: these lists are not paged), get, create, update and delete rows of an
 * admin resource at `path` and `path/{id}`, every message made from its noun (forbidden, not
 * found, outcome unknown).
 */
function resource<
  N extends string,
  P extends string,
  C extends z.ZodType,
  U extends z.ZodType,
  A extends z.ZodType,
>(name: N, n: Noun, path: P, create: C, update: U, answer: A) {
  const item = `${path}/{id}` as `${P}/{id}`;
  const rows = {
    list: {
      method: 'GET',
      path,
      answer: z.array(z.unknown()),
      each: answer,
      action: `Listing ${n.many}`,
    },
    get: { method: 'GET', path: item, answer, action: `Reading ${n.a} ${n.one}` },
    create: {
      method: 'POST',
      path,
      body: create,
      answer,
      action: `Creating ${n.a} ${n.one}`,
      check: `Refresh ${n.many} to see whether it was created before trying again.`,
    },
    update: {
      method: 'PUT',
      path: item,
      body: update,
      answer,
      action: `Updating ${n.a} ${n.one}`,
      check: `Open the ${n.one} again to see whether the change was saved.`,
    },
    delete: {
      method: 'DELETE',
      path: item,
      nothing: true,
      action: `Deleting ${n.a} ${n.one}`,
      check: `Refresh ${n.many} to see whether it was deleted.`,
    },
  } as const;
  const named = Object.fromEntries(
    Object.entries(rows).map(([k, row]) => [k === 'list' ? `list${name}s` : `${k}${name}`, row]),
  ) as Named<N, typeof rows>;
  return table(
    {
      names: { id: n.id },
      many: n.many,
      forbidden: adminOnly,
      // Only the rows naming one by its id can find it gone (the list and create rows have no id).
      gone: `The ${n.one} no longer exists: refresh ${n.many}.`,
    },
    named,
  );
}

/** OAuth integrations and OIDC token configs (reached as `platform.admin`). */
export const INTEGRATIONS = resource(
  'OAuthIntegration',
  { a: 'an', one: 'OAuth integration', many: 'OAuth integrations', id: 'Integration id' },
  OAUTH,
  CreateOAuthIntegrationInputSchema,
  UpdateOAuthIntegrationInputSchema,
  OAuthIntegrationSchema,
);
export const OIDC_CONFIGS = resource(
  'OidcTokenConfig',
  { a: 'an', one: 'OIDC token config', many: 'OIDC token configs', id: 'Config id' },
  OIDC,
  CreateOidcTokenConfigInputSchema,
  UpdateOidcTokenConfigInputSchema,
  OidcTokenConfigSchema,
);
