// Tokens of a deployment environment: list them, create one. A created token is a credential: it is
// returned to the caller once and never logged (the caller registers it with the redaction).
import { z } from 'zod';
import { ApiError } from '../errors';
import type { PageParams } from '../paging';
import { maybe, parseInput, positiveId, type PlatformTransport } from './transport';

export const EnvironmentTokenSchema = z.looseObject({
  token: maybe(z.string()),
  created_at: maybe(z.string()),
  expires_at: maybe(z.string()),
  security_context: maybe(z.record(z.string(), z.unknown())),
});
export type EnvironmentToken = z.infer<typeof EnvironmentTokenSchema>;

export const CreateEnvironmentTokenInputSchema = z.strictObject({
  security_context: z.record(z.string(), z.unknown()),
  expires_in: z.number().int().min(1).max(3600).optional(),
  scopes: z.array(z.string().min(1)).optional(),
});
export type CreateEnvironmentTokenInput = z.infer<typeof CreateEnvironmentTokenInputSchema>;

const CreatedSchema = z.looseObject({
  data: z.looseObject({ token: z.string() }).and(EnvironmentTokenSchema),
});

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

const tokensPath = (deploymentId: number, environmentId: string | number) =>
  `/v1/deployments/${positiveId(deploymentId, 'deploymentId')}/environments/${environmentPathId(environmentId)}/tokens`;

export async function listEnvironmentTokens(
  t: PlatformTransport,
  deploymentId: number,
  environmentId: string | number,
  p: PageParams = {},
  signal?: AbortSignal,
) {
  return t.list(tokensPath(deploymentId, environmentId), EnvironmentTokenSchema, { ...p }, { signal });
}

export async function createEnvironmentToken(
  t: PlatformTransport,
  deploymentId: number,
  environmentId: string | number,
  input: CreateEnvironmentTokenInput,
  signal?: AbortSignal,
): Promise<EnvironmentToken & { token: string }> {
  const body = parseInput(CreateEnvironmentTokenInputSchema, input, 'Token not created');
  const res = await t.write('POST', tokensPath(deploymentId, environmentId), body, CreatedSchema, {
    signal,
    action: 'Creating an environment token',
    check: { hint: 'Open the environment’s Tokens list to see whether a new token was created.' },
  });
  return res.data;
}
