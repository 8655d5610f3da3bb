// Tokens of a deployment environment: list them, create one. A created token is a credential: it is
// returned to the caller once and never logged (the caller registers it with the redaction).
import { z } from 'zod';
import { ApiError } from '../errors';
import { table } from './operation';
import { maybe, PageQuery } from './transport';

export const EnvironmentTokenSchema = z.looseObject({
  token: maybe(z.string()),
  created_at: maybe(z.string()),
  expires_at: maybe(z.string()),
  security_context: maybe(z.record(z.string(), z.unknown())),
});

export const CreateEnvironmentTokenInputSchema = z.strictObject({
  security_context: z.record(z.string(), z.unknown()),
  expires_in: z.number().int().min(1).max(3600).optional(),
  scopes: z.array(z.string().min(1)).optional(),
});
export type CreateEnvironmentTokenInput = z.infer<typeof CreateEnvironmentTokenInputSchema>;

/** Environment ids are strings in the documents, but the tokens paths take an integer. */
export function environmentPathId(environmentId: string | number): number {
  const n = typeof environmentId === 'number' ? environmentId : Number(environmentId);
  if (!Number.isInteger(n) || n < 1)
    throw new ApiError(
      'validation',
      `Environment "${String(environmentId)}" has no numeric id, so its tokens cannot be reached.`,
    );
  return n;
}

const tokens = '/v1/deployments/{deploymentId}/environments/{environmentId}/tokens';

/** Reached as `platform.ops`, which turns an environment's text id into the path's integer first. */
export const TOKENS = table(
  {},
  {
    listEnvironmentTokens: {
      method: 'GET',
      path: tokens,
      query: PageQuery,
      item: EnvironmentTokenSchema,
    },
    /** A write: each request mints another token, so it is sent once and never retried. */
    createEnvironmentToken: {
      method: 'POST',
      path: tokens,
      body: CreateEnvironmentTokenInputSchema,
      // The token is the answer's `data`.
      answer: z
        .looseObject({ data: z.looseObject({ token: z.string() }).and(EnvironmentTokenSchema) })
        .transform((r) => r.data),
      refused: 'Token not created',
      action: 'Creating an environment token',
      check: 'Open the environment’s Tokens list to see whether a new token was created.',
    },
  },
);
