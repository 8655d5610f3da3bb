// Deployments and what hangs off them directly: environments, env variables, Data API tokens, the
// Data API host a deployment publishes (`deploymentUrl`), its settings (read, and written with only
// the fields changed), deleting it, and its onboarding step (advanced or reset).
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

/** The published onboarding steps (`CreationStep`); `ready` is a deployment whose setup is done. */
export const CREATION_STEPS = [
  'project',
  'upload',
  'schema',
  'github',
  'ssh',
  'databases',
  'ready',
  'demo',
] as const;
export type CreationStep = (typeof CREATION_STEPS)[number];

const CREATION_METHODS = ['upload', 'cubecloud', 'github', 'ssh'] as const;
const DEPLOY_MODES = ['git', 'cli'] as const;
export const RELEASE_CHANNELS = ['latest', 'release'] as const;
const TEMPLATES = ['single', 'simpleCluster', 'multiCluster'] as const;

/** `CspsConfigInput`: Cube Store private storage, as published. */
const CspsConfigInputSchema = z.strictObject({
  enabled: z.boolean(),
  storageProvider: z.string(),
  awsRoleArn: maybe(z.string()),
  azureClientId: maybe(z.string()),
  azureContainer: maybe(z.string()),
  azureStorageAccount: maybe(z.string()),
  azureTenantId: maybe(z.string()),
  gcpServiceAccountEmail: maybe(z.string()),
  gcpWorkloadIdentityProvider: maybe(z.string()),
  gcsBucket: maybe(z.string()),
  s3Bucket: maybe(z.string()),
  s3Region: maybe(z.string()),
  s3Sse: maybe(z.string()),
});

/**
 * `UpdateDeploymentInput` (strict): any subset of the settings; an omitted field is left alone and
 * `templateVariables` is merged key by key on the server.
 */
export const UpdateDeploymentInputSchema = z.strictObject({
  cloudProvider: maybe(z.enum(['cubecloud', 'aws', 'gcp'])),
  creationMethod: maybe(z.enum(CREATION_METHODS)),
  cspsConfig: maybe(CspsConfigInputSchema),
  customDomain: maybe(z.string()),
  defaultLaunchpadViewGroup: maybe(z.string()),
  deployBranchMergeAllowed: maybe(z.boolean()),
  deployBranchName: maybe(z.string()),
  deployBranchReadOnly: maybe(z.boolean()),
  deployMode: maybe(z.enum(DEPLOY_MODES)),
  deployProjectRoot: maybe(z.string()),
  launchpadTabs: maybe(z.array(z.string())),
  name: maybe(z.string()),
  region: maybe(z.string()),
  releaseChannel: maybe(z.enum(RELEASE_CHANNELS)),
  releaseChannelVersion: maybe(z.string()),
  releaseChannelVersionHold: maybe(z.boolean()),
  template: maybe(z.enum(TEMPLATES)),
  templateVariables: maybe(z.record(z.string(), z.unknown())),
});
export type UpdateDeploymentInput = z.input<typeof UpdateDeploymentInputSchema>;

/**
 * `DeploymentSettings`, read tolerantly: only the id and name are needed; every other field (enums
 * included, unknown values kept) is shown as sent.
 */
export const DeploymentSettingsSchema = z.looseObject({
  id,
  name: z.string(),
  creationStep: maybe(z.string()),
  deploymentUrl: maybe(z.string()),
  customDomain: maybe(z.string()),
  releaseChannel: maybe(z.string()),
  deployBranchName: maybe(z.string()),
  deployBranchReadOnly: maybe(z.boolean()),
  deployBranchMergeAllowed: maybe(z.boolean()),
});
export type DeploymentSettings = z.infer<typeof DeploymentSettingsSchema>;

/** `AdvanceCreationStepInput`. */
export const AdvanceCreationStepInputSchema = z.strictObject({ creationStep: z.enum(CREATION_STEPS) });
type Advance = z.output<typeof AdvanceCreationStepInputSchema>;

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
const gone = 'Deployment {deploymentId} does not exist, or this token cannot see it.';
const settingsCheck = "Open the deployment's settings to see what was saved.";

export const DEPLOYMENTS = table(
  {},
  {
    listDeployments: {
      method: 'GET',
      path: '/v1/deployments',
      query: PageQuery,
      item: DeploymentSchema,
      action: 'Listing deployments',
    },
    getDeployment: {
      method: 'GET',
      path: dep,
      answer: DeploymentSchema,
      notFound: gone,
    },
    getDeploymentSettings: {
      method: 'GET',
      path: `${dep}/settings`,
      answer: DeploymentSettingsSchema,
      action: 'Reading the deployment settings',
      notFound: gone,
    },
    /** Sends only the fields given and answers the full settings as saved. */
    updateDeployment: {
      method: 'PUT',
      path: dep,
      body: UpdateDeploymentInputSchema,
      answer: DeploymentSettingsSchema,
      refused: 'Deployment not changed',
      action: 'Saving the deployment settings',
      check: settingsCheck,
      notFound: gone,
    },
    /** `success: true` is the only confirmation (see `writeOutcome`). */
    deleteDeployment: {
      method: 'DELETE',
      path: dep,
      answer: z.looseObject({ success: z.boolean().optional() }),
      action: 'Deleting the deployment',
      check: 'Refresh the Deployments list to see whether it is still there.',
      notFound: gone,
    },
    advanceCreationStep: {
      method: 'POST',
      path: `${dep}/creation-step/advance`,
      body: AdvanceCreationStepInputSchema,
      answer: DeploymentSchema,
      refused: 'Setup step not changed',
      action: (b: Advance) => `Moving the deployment's setup to "${b.creationStep}"`,
      check: 'Refresh the Deployments list: the row shows the setup step the deployment is at.',
      notFound: gone,
    },
    resetCreationStep: {
      method: 'POST',
      path: `${dep}/creation-step/reset`,
      answer: DeploymentSchema,
      action: "Restarting the deployment's setup",
      check: 'Refresh the Deployments list: the row shows the setup step the deployment is at.',
      notFound: gone,
    },
    listEnvironments: {
      method: 'GET',
      path: `${dep}/environments`,
      query: PageQuery.extend({ type: z.enum(['production', 'staging', 'development']).optional() }),
      item: EnvironmentSchema,
    },
    listEnvVars: {
      method: 'GET',
      path: `${dep}/env-vars`,
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
