// Deployments and what hangs off them directly: environments, env variables, Data API tokens, and
// the Data API host a deployment publishes (`deploymentUrl`).
import { z } from 'zod';
import { ApiError } from '../errors';
import type { Page, PageParams } from '../paging';
import { id, maybe, parseInput, positiveId, type PlatformTransport } from './transport';

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
  expiresIn: z.number().int().min(60).max(86400).optional(),
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

const deploymentPath = (deploymentId: number) =>
  `/v1/deployments/${positiveId(deploymentId, 'deploymentId')}`;

export async function listDeployments(t: PlatformTransport, p: PageParams = {}, signal?: AbortSignal) {
  return t.list('/v1/deployments', DeploymentSchema, { ...p }, { signal, action: 'Listing deployments' });
}

export async function getDeployment(t: PlatformTransport, deploymentId: number, signal?: AbortSignal) {
  const d = positiveId(deploymentId, 'deploymentId');
  return t.get(`/v1/deployments/${d}`, DeploymentSchema, {
    signal,
    messages: { notFound: `Deployment ${d} does not exist, or this token cannot see it.` },
  });
}

export async function listEnvironments(
  t: PlatformTransport,
  deploymentId: number,
  p: PageParams = {},
  signal?: AbortSignal,
): Promise<Page<Environment>> {
  return t.list(`${deploymentPath(deploymentId)}/environments`, EnvironmentSchema, { ...p }, { signal });
}

export async function listEnvVars(
  t: PlatformTransport,
  deploymentId: number,
  p: PageParams = {},
  signal?: AbortSignal,
) {
  return t.list(`${deploymentPath(deploymentId)}/env-vars`, EnvVarSchema, { ...p }, { signal });
}

/** POST /v1/deployments/{id}/token: a Data API token for that deployment, from the platform token. */
export async function mintDataApiToken(
  t: PlatformTransport,
  deploymentId: number,
  opts: { expiresIn?: number; signal?: AbortSignal } = {},
): Promise<string> {
  const expiresIn = opts.expiresIn;
  if (expiresIn !== undefined && !(Number.isInteger(expiresIn) && expiresIn >= 60 && expiresIn <= 86400)) {
    throw new ApiError('validation', `expiresIn must be 60 to 86400 seconds (got ${String(expiresIn)}).`);
  }
  const body = parseInput(
    MintTokenInputSchema,
    expiresIn === undefined ? {} : { expiresIn },
    'Data API token not requested',
  );
  // A write: each request mints another token, so it is sent once and never retried; a failure
  // after sending leaves the outcome unknown (a token minted then was never received).
  const res = await t.write('POST', `${deploymentPath(deploymentId)}/token`, body, MintTokenResponseSchema, {
    signal: opts.signal,
    action: 'Getting a Data API token',
    check: {
      hint: 'A token minted then was never received and expires on its own; nothing needs undoing. Run the query when the service answers again to get a new one.',
    },
  });
  return res.cubeApiToken;
}
