// Env variables of a deployment: listing is in deployments.ts; this is the write. PUT upserts by
// name (variables left out keep their values). Values are secrets-like: never put in messages.
import { z } from 'zod';
import { call, table } from './operation';
import { readItems, type PlatformTransport } from './transport';
import { EnvVarSchema } from './deployments';

/** The masked value the server sends for secret-named variables; sending it back is rejected. */
export const ENCRYPTED_PLACEHOLDER = '[ENCRYPTED]';
/** New names must be POSIX identifiers (stored legacy names may be resent as they are). */
export const ENV_NAME_PATTERN = /^[A-Za-z_][A-Za-z0-9_]*$/;

export const EnvVariableInputSchema = z.strictObject({
  name: z.string().min(1),
  value: z.string().refine((v) => v !== ENCRYPTED_PLACEHOLDER, {
    message: `the masked placeholder ${ENCRYPTED_PLACEHOLDER} cannot be sent as a value`,
  }),
});
export const SetEnvVariablesInputSchema = z.strictObject({
  env_variables: z.array(EnvVariableInputSchema).min(1),
});
export type EnvVariableInput = z.infer<typeof EnvVariableInputSchema>;

const SetResponseSchema = z.looseObject({
  items: z.array(z.unknown()).optional(),
  data: z.array(z.unknown()).optional(),
});

const ENV_VARS = table(
  {},
  {
    setEnvVariables: {
      method: 'PUT',
      path: '/v1/deployments/{deploymentId}/env-vars',
      // The error names the field, never the value.
      body: SetEnvVariablesInputSchema,
      answer: SetResponseSchema,
      refused: 'Env variables not set',
      action: 'Setting env variables',
      check: 'Refresh the Env variables list to see whether the change was saved.',
    },
  },
);

/** PUT /env-vars: upserts `vars`; returns the variables as the server now has them (values masked as sent). */
export async function setEnvVariables(
  t: PlatformTransport,
  deploymentId: number,
  vars: EnvVariableInput[],
  signal?: AbortSignal,
) {
  const res = await call(t, ENV_VARS.setEnvVariables, deploymentId, { env_variables: vars }, signal);
  return readItems(res.items ?? res.data ?? [], EnvVarSchema, 'env variables').items;
}
