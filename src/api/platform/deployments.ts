// Deployments and what hangs off them directly: environments, env variables, Data API tokens, and
// the Data API host a deployment publishes (`deploymentUrl`).
import { z } from 'zod';
import { call, table } from './operation';
import { id, maybe, PageQuery, type PlatformTransport } from './transport';

export const DeploymentSchema = z.looseObject({
  id,
  name: z.string(),
  /** Where the deployment serves its Data API (published; older servers may omit it). */
  deploymentUrl: maybe(z.string()),
  creationStep: maybe(z.string()),
});
export type Deployment = z.infer<typeof DeploymentSchema>;

/** Environment ids are strings in the published documents; a number from an older server is kept. */
export const EnvironmentSchema = z.looseObject({
  id: z.union([z.string(), z.number()]),
  name: maybe(z.string()),
  type: maybe(z.string()),
  branch: maybe(z.string()),
});
export type Environment = z.infer<typeof EnvironmentSchema>;

export const EnvVarSchema = z.looseObject({ name: z.string() });

export const MintTokenInputSchema = z.strictObject({
  expiresIn: z
    .number()
    .int('use whole seconds, 60 to 86400')
    .min(60, 'use 60 to 86400 seconds')
    .max(86400, 'use 60 to 86400 seconds')
    .optional(),
});
export const MintTokenResponseSchema = z.looseObject({ cubeApiToken: z.string() });

const DATA_API_BASE_PATH = '/cubejs-api';

/**
 * The Data API base URL of a deployment from its `deploymentUrl`: a bare host gets the default
 * base path `/cubejs-api`; a URL that already has a path is used as it is. Undefined when the
 * deployment publishes no usable URL.
 */
export function dataApiUrlOfDeployment(d: Pick<Deployment, 'deploymentUrl'>): string | undefined {
  const raw = d.deploymentUrl?.trim();
  if (!raw) return undefined;
  let url: URL;
  try {
    url = new URL(/^[a-z][a-z0-9+.-]*:\/\//i.test(raw) ? raw : `https://${raw}`);
  } catch {
    return undefined;
  }
  if (url.pathname === '' || url.pathname === '/') url.pathname = DATA_API_BASE_PATH;
  url.search = '';
  url.hash = '';
  return url.toString().replace(/\/+$/, '');
}

const dep = '/v1/deployments/{deploymentId}';

export const DEPLOYMENTS = table(
  {},
  {
    listDeployments: {
      method: 'GET',
      path: '/v1/deployments',
      kind: 'read',
      query: PageQuery,
      item: DeploymentSchema,
      action: 'Listing deployments',
    },
    getDeployment: {
      method: 'GET',
      path: dep,
      kind: 'read',
      answer: DeploymentSchema,
      notFound: 'Deployment {deploymentId} does not exist, or this token cannot see it.',
    },
    listEnvironments: {
      method: 'GET',
      path: `${dep}/environments`,
      kind: 'read',
      query: PageQuery.extend({ type: z.enum(['production', 'staging', 'development']).optional() }),
      item: EnvironmentSchema,
    },
    listEnvVars: {
      method: 'GET',
      path: `${dep}/env-vars`,
      kind: 'read',
      query: PageQuery,
      item: EnvVarSchema,
    },
  },
);

const MINT = table(
  {},
  {
    mintDataApiToken: {
      method: 'POST',
      path: `${dep}/token`,
      kind: 'write',
      body: MintTokenInputSchema,
      answer: MintTokenResponseSchema,
      refused: 'Data API token not requested',
      action: 'Getting a Data API token',
      check:
        'A token minted then was never received and expires on its own; nothing needs undoing. Run the query when the service answers again to get a new one.',
    },
  },
);

/** POST /v1/deployments/{id}/token: a Data API token for that deployment, from the platform token. */
export async function mintDataApiToken(
  t: PlatformTransport,
  deploymentId: number,
  opts: { expiresIn?: number; signal?: AbortSignal } = {},
): Promise<string> {
  const { expiresIn, signal } = opts;
  // A write: each request mints another token, so it is sent once and never retried; a failure
  // after sending leaves the outcome unknown (a token minted then was never received).
  const input = expiresIn === undefined ? {} : { expiresIn };
  const res = await call(t, MINT.mintDataApiToken, deploymentId, input, signal);
  return res.cubeApiToken;
}
