// Set Branch Staging Environment…: pick a shared branch of the model in view by name (each shows
// whether its staging environment is on), then on or off. An enabled branch keeps answering at
// `<deploymentUrl>/dev-mode/{branch}/cubejs-api/v1` with nobody in dev mode on it.
import * as vscode from 'vscode';
import type { Branch } from '../api/buildClient';
import type { Services } from '../services';
import type { BranchFlows } from './branchFlows';
import { defaultBranchOf } from './modelPaths';
import type { Mounts } from './mounts';

export interface StagingArgs {
  /** The deployment (else the model in view's, or a pick). */
  deploymentId?: number;
  branch?: string;
  enabled?: boolean;
  /** Skips the production confirmation (tests and scripted use). */
  confirm?: boolean;
}

export async function setStagingEnvironment(
  services: Services,
  mounts: Mounts,
  flows: BranchFlows,
  arg: unknown,
  args: StagingArgs = {},
): Promise<Branch | undefined> {
  const deploymentId =
    args.deploymentId ??
    (mounts.all().length > 0 || arg instanceof vscode.Uri
      ? (await flows.target(arg)).deploymentId
      : (await flows.pickDeployment('Staging environment: deployment')).id);
  const deployment = await (await services.clients.platform()).getDeployment(deploymentId);
  const build = await mounts.build();
  const branches = await build.allBranches(deployment.id);
  const def = defaultBranchOf(branches);
  const shared = branches.filter((b) => b.name !== def);
  let branch = args.branch !== undefined ? branches.find((b) => b.name === args.branch) : undefined;
  if (args.branch !== undefined && !branch)
    throw new Error(`${deployment.name} has no branch named "${args.branch}". Pick one from the list.`);
  if (!branch) {
    if (shared.length === 0)
      throw new Error(
        `${deployment.name} has only its default branch, which is production, not a staging environment. Create a branch first.`,
      );
    const picked = await vscode.window.showQuickPick(
      shared.map((b) => ({
        label: `$(git-branch) ${b.name}`,
        description: b.isStagingEnvironmentEnabled ? 'staging on' : 'staging off',
        branch: b,
      })),
      { title: `${deployment.name}: staging environment of which branch?`, matchOnDescription: true },
    );
    if (!picked) return undefined;
    branch = picked.branch;
  }
  let enabled = args.enabled;
  if (enabled === undefined) {
    const on = branch.isStagingEnvironmentEnabled === true;
    const picked = await vscode.window.showQuickPick(
      [
        {
          label: '$(vm-running) On: always running',
          description: on ? 'current' : '',
          detail: 'Queries and embedded apps reach the branch with nobody in dev mode on it.',
          value: true,
        },
        {
          label: '$(vm-outline) Off',
          description: on ? '' : 'current',
          detail: 'The branch runs only while someone has it open in dev mode.',
          value: false,
        },
      ],
      { title: `Staging environment of ${branch.name}` },
    );
    if (!picked) return undefined;
    enabled = picked.value;
  }
  if (services.profiles.active()?.profile.production === true && args.confirm !== true) {
    const ok = await vscode.window.showWarningMessage(
      `Turn ${enabled ? 'on' : 'off'} the staging environment of "${branch.name}" in ${deployment.name}?`,
      { modal: true, detail: 'This is a PRODUCTION profile.' },
      enabled ? 'Turn On' : 'Turn Off',
    );
    if (!ok) return undefined;
  }
  const name = branch.name;
  const updated = await vscode.window.withProgress(
    {
      location: vscode.ProgressLocation.Notification,
      title: `${enabled ? 'Enabling' : 'Disabling'} the staging environment of ${name}…`,
    },
    () => build.setBranchStagingEnvironment(deployment.id, { branchName: name, enabled }),
  );
  const now = updated.isStagingEnvironmentEnabled ?? enabled;
  const url = deployment.deploymentUrl
    ? `${deployment.deploymentUrl.replace(/\/+$/, '').replace(/\/cubejs-api(\/v1)?$/, '')}/dev-mode/${encodeURIComponent(name)}/cubejs-api/v1`
    : `<deployment URL>/dev-mode/${name}/cubejs-api/v1`;
  void vscode.window.showInformationMessage(
    now
      ? `The staging environment of "${name}" (${deployment.name}) is on: it answers at ${url}.`
      : `The staging environment of "${name}" (${deployment.name}) is off: the branch runs only in dev mode.`,
  );
  return updated;
}
