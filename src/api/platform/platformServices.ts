// What the platform offers its own services and tools rather than a person: an environment token
// for the BI meta sync jobs (same input and answer as Create Environment Token), a short-lived Data
// API token for the account's Usage Analytics deployment (admin only), and the OpenAPI 3.1 document
// of the API as served (for runtime discovery; read as one object, kept whole). A token is a
// credential: returned once and never logged (the caller registers it with the redaction).
import { z } from 'zod';
import { adminOnly, table } from './operation';
import { CreateEnvironmentTokenInputSchema, TOKENS } from './environmentTokens';
import { maybe } from './transport';

export const UsageAnalyticsTokenSchema = z.looseObject({
  /** A JWT for the Usage Analytics deployment: `Authorization: Bearer <token>` on `apiUrl`. */
  token: z.string(),
  /** The deployment's Cube REST API base (`…/cubejs-api/v1`). */
  apiUrl: z.string(),
  deploymentId: z.number(),
  expiresAt: maybe(z.string()),
});
export type UsageAnalyticsToken = z.infer<typeof UsageAnalyticsTokenSchema>;

export const ApiSpecSchema = z.looseObject({
  // The documents promise only an object: what an OpenAPI document holds is read if present.
  openapi: maybe(z.string()),
  info: maybe(z.looseObject({ title: maybe(z.string()), version: maybe(z.string()) })),
  paths: maybe(z.record(z.string(), z.unknown())),
});

export const PLATFORM_SERVICES = table(
  {},
  {
    /** The environment id is the path's integer (environments list it as text: convert first). */
    createMetaSyncToken: {
      method: 'POST',
      path: '/v1/deployments/{deploymentId}/environments/{environmentId}/tokens-for-meta-sync',
      kind: 'write',
      body: CreateEnvironmentTokenInputSchema,
      answer: TOKENS.createEnvironmentToken.answer,
      names: { environmentId: 'Environment id' },
      refused: 'Meta sync token not created',
      action: 'Creating a meta sync token',
      notFound: 'The environment no longer exists in this deployment: refresh the deployment’s environments.',
      // Meta sync tokens are listed nowhere: a new one is the only way to hold one.
      check: 'Meta sync tokens are not listed: create another one if this one did not arrive.',
    },
    /** Issuing is idempotent and cheap; the token expires after an hour (`expiresAt`). */
    createUsageAnalyticsToken: {
      method: 'POST',
      path: '/v1/usage-analytics/token',
      kind: 'write',
      answer: UsageAnalyticsTokenSchema,
      action: 'Issuing a Usage Analytics token',
      forbidden: adminOnly('Issuing a Usage Analytics token'),
      notFound: 'Usage Analytics is not enabled for this account: ask Cube support to enable it.',
      check: 'Issue the token again: issuing one is idempotent.',
    },
    getApiSpec: {
      method: 'GET',
      path: '/v1/spec',
      kind: 'read',
      answer: ApiSpecSchema,
      action: 'Reading the Platform API description',
    },
  },
);
