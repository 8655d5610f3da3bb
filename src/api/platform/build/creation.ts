// Creating a deployment (an empty starter project and its first build, or none when it is to come
// from GitHub) and connecting a deployment to a GitHub repository (which triggers a build). Both
// answer the deployment as it now is.
import { z } from 'zod';
import { DeploymentSchema, CREATION_STEPS } from '../deployments';
import { table } from '../operation';
import { maybe } from '../transport';
import { DEPLOYMENT } from './common';

/** `CreateDeploymentInput` (strict, every required field). */
export const CreateDeploymentInputSchema = z.strictObject({
  name: z.string(),
  cloudProvider: z.enum(['cubecloud', 'aws', 'gcp']),
  creationMethod: maybe(z.enum(['upload', 'cubecloud', 'github', 'ssh'])),
  creationStep: z.enum(CREATION_STEPS),
  deployMode: maybe(z.enum(['git', 'cli'])),
  isManaged: z.boolean(),
  region: z.string(),
  targetPlatform: z.string(),
});
export type CreateDeploymentInput = z.input<typeof CreateDeploymentInputSchema>;
type Create = z.output<typeof CreateDeploymentInputSchema>;

/** `ConnectGitHubRequest`: the installation and the repository's name (a new one when `isNewRepo`). */
export const ConnectGitHubInputSchema = z.strictObject({
  installationId: z.number().int(),
  name: z.string().min(1),
  deployBranchName: maybe(z.string()),
  deployProjectRoot: maybe(z.string()),
  isNewRepo: maybe(z.boolean()),
  private: maybe(z.boolean()),
});
export type ConnectGitHubInput = z.input<typeof ConnectGitHubInputSchema>;
type Connect = z.output<typeof ConnectGitHubInputSchema>;

export const CREATION = table(
  {},
  {
    createDeployment: {
      method: 'POST',
      path: '/build/api/v1/deployments',
      body: CreateDeploymentInputSchema,
      answer: DeploymentSchema,
      refused: 'Deployment not created',
      action: (b: Create) => `Creating the deployment "${b.name}"`,
      check: (b: Create) =>
        `Refresh the Deployments list to see whether "${b.name}" was created before creating it again.`,
    },
    connectGithub: {
      method: 'POST',
      path: `${DEPLOYMENT}/github/connect`,
      body: ConnectGitHubInputSchema,
      answer: DeploymentSchema,
      refused: 'Repository not connected',
      action: (b: Connect) => `Connecting the repository ${b.name}`,
      check:
        "Open the deployment's settings: the deploy branch and repository show whether it was connected.",
      notFound: 'Deployment {deploymentId} does not exist, or this token cannot see it.',
    },
  },
);
