// Deployments as wholes in the sandbox: their settings (read, and written with only the fields
// sent: `templateVariables` merged key by key, the release version checked against the channel's
// versions), delete (admin only), the onboarding step (advance, reset), creating one (an empty
// starter project and its first build, or nothing yet when it is to come from GitHub), GitHub
// (linked for the admin token only, so the member token shows the not-linked path) and connecting
// a repository (its deploy branch gets the repository's model and is built). Written settings live
// in the state (`deploymentSettings`), so they survive a restart like the deployments themselves.
import type { AdvanceCreationStepInputSchema, UpdateDeploymentInput } from '../../api/platform/deployments';
import type { ConnectGitHubInput, CreateDeploymentInput } from '../../api/platform/build/creation';
import type { RequestContext, Router } from '../http';
import { SEED_FILES } from '../build/seedModel';
import { issueId, type SandboxState } from '../state';
import type { z } from 'zod';
import { deploymentRoutes, isAdmin, publicView, sendPage, withDeployment, type PlatformDeps } from './common';
import { currentVersion, VERSIONS } from './opsRoutes';
import type { Row } from './seed';

/** The repository a created deployment starts from (see `starterOf`). */
export interface Starter {
  deployBranch: string;
  files: (readonly [string, string])[];
}

/** What creating and deleting a deployment set up beside its row (its Data API host, its repository). */
export interface DeploymentLifecycle {
  created(id: number): Promise<void>;
  /** The repository is made again from `starterOf` (after connecting a repository). */
  reseeded(id: number): void;
  deleted(id: number): void;
}

/** The empty starter project: a configuration file and an empty model folder's first file. */
export const STARTER_FILES: (readonly [string, string])[] = [
  ['cube.py', "from cube import config\n\n# The starter project's configuration.\n"],
  [
    'model/cubes/example.yml',
    '# Add your cubes here: https://cube.dev/docs/product/data-modeling\ncubes: []\n',
  ],
];

/** The linked GitHub accounts of the admin token's user and their repositories and branches. */
const INSTALLATIONS = [
  {
    installationId: '41001',
    id: '41001',
    login: 'acme-analytics',
    avatarUrl: 'https://avatars.example/acme.png',
  },
  { installationId: '41002', id: '41002', login: 'ann-dev', avatarUrl: 'https://avatars.example/ann.png' },
];
const REPOS: Record<string, string[]> = {
  'acme-analytics': ['cube-models', 'warehouse-dbt', 'website'],
  'ann-dev': ['cube-sandbox'],
};
const BRANCHES = ['main', 'develop', 'release/2026-q1'];
const LINK_URL = 'https://github.com/apps/cube-cloud-sandbox/installations/new';
const SETTINGS_URL = 'https://github.com/settings/installations';

const settingsOf = (state: SandboxState, id: number) =>
  ((state.deploymentSettings ??= {})[String(id)] ??= {});

/** The repository of a created deployment, as its settings record it (undefined: a seeded one). */
export function starterOf(state: SandboxState, id: number): Starter | undefined {
  const s = state.deploymentSettings?.[String(id)];
  const kind = s?._starter;
  if (kind === undefined) return undefined;
  const deployBranch = typeof s?.deployBranchName === 'string' ? s.deployBranchName : 'main';
  return {
    deployBranch,
    files: kind === 'empty' ? STARTER_FILES : kind === 'github' ? [...SEED_FILES] : [],
  };
}

export function registerDeploymentRoutes(
  router: Router,
  deps: PlatformDeps,
  lifecycle: DeploymentLifecycle,
): void {
  const { data: d, state } = deps;
  const on = deploymentRoutes(router, deps);
  const regions = () => state.admin?.regions ?? [];
  /** The region of a name, or undefined after answering 400 naming the ones there are. */
  const regionOf = async (ctx: RequestContext, name: string) => {
    const region = regions().find((r) => r.name === name);
    if (!region)
      await ctx.error(
        400,
        `region "${name}" is not one of ${regions()
          .map((r) => r.name)
          .join(', ')}.`,
      );
    return region;
  };

  /** Every published field: the deployment's own, the defaults, then what was written. */
  const settings = (dep: Row): Record<string, unknown> => {
    const written = publicView(settingsOf(state, dep.id));
    const slug = String(dep.name)
      .toLowerCase()
      .replace(/[^a-z0-9]+/g, '-')
      .replace(/^-|-$/g, '');
    return {
      template: 'single',
      cloudProvider: 'aws',
      region: 'aws-us-east-1',
      targetPlatform: 'aws',
      isManaged: true,
      creationMethod: 'github',
      repoType: 'git',
      deployMode: 'git',
      releaseChannel: dep.id === 3 ? 'release' : 'latest',
      releaseChannelVersion: `v${currentVersion(dep.id)}`,
      releaseChannelVersionHold: dep.id === 3,
      cubeImageVersion: currentVersion(dep.id),
      cubeImageCloud: null,
      deployBranchName: 'main',
      deployBranchReadOnly: dep.id === 2,
      deployBranchMergeAllowed: true,
      deployProjectRoot: '/',
      autoDomain: `${slug || 'deployment'}-${dep.id}.sandbox.cubecloud.dev`,
      customDomain: null,
      defaultLaunchpadViewGroup: null,
      launchpadTabs: null,
      isCold: false,
      isCubeSqlEnabled: true,
      isSupportPreAggregations: true,
      cspsConfig: null,
      templateVariables: {},
      ...written,
      id: dep.id,
      name: dep.name,
      creationStep: dep.creationStep,
      deploymentUrl: dep.deploymentUrl,
    };
  };
  const deploymentView = (dep: Row) => ({
    id: dep.id,
    name: dep.name,
    deploymentUrl: dep.deploymentUrl,
    creationStep: dep.creationStep,
  });

  on('GET', '/settings', (ctx, dep) => ctx.json(200, settings(dep)));

  on('PUT', '', async (ctx, dep) => {
    const b = ctx.body as UpdateDeploymentInput;
    if (b.name != null && !b.name.trim()) return ctx.error(400, 'name must not be empty.');
    if (b.customDomain != null && b.customDomain !== '' && !HOST.test(b.customDomain))
      return ctx.error(400, `customDomain "${b.customDomain}" is not a host name (like cube.example.com).`);
    if (b.region != null && !(await regionOf(ctx, b.region))) return;
    if (b.deployBranchName != null) {
      const build = await deps.buildStatus(dep.id, b.deployBranchName);
      if (!build) return ctx.error(400, `deployBranchName: no branch named "${b.deployBranchName}".`);
    }
    const current = settings(dep);
    const channel = b.releaseChannel ?? String(current.releaseChannel);
    const written = settingsOf(state, dep.id);
    if (b.releaseChannelVersion != null) {
      const inChannel = VERSIONS.filter((v) => v.releaseChannel === channel);
      const v = inChannel.find((x) =>
        [x.version, x.releaseChannelVersion].includes(b.releaseChannelVersion!),
      );
      if (!v)
        return ctx.error(
          400,
          `releaseChannelVersion "${b.releaseChannelVersion}" is not a version of the ${channel} channel (${inChannel.map((x) => x.version).join(', ')}).`,
        );
      // As published: a version that is not the channel's latest is held unless the hold is sent.
      if (!v.isLatestInChannel && b.releaseChannelVersionHold == null)
        written.releaseChannelVersionHold = true;
      written.cubeImageVersion = v.version;
    }
    for (const [k, v] of Object.entries(b)) {
      if (v === undefined || v === null || k === 'name') continue;
      if (k === 'templateVariables')
        written.templateVariables = { ...(current.templateVariables as object), ...(v as object) };
      else written[k] = v;
    }
    if (b.name != null) dep.name = b.name.trim();
    await ctx.json(200, settings(dep));
  });

  on('DELETE', '', async (ctx, dep) => {
    if (!isAdmin(ctx, deps)) return ctx.error(403, 'Forbidden: deleting a deployment needs the admin role.');
    d.deployments.splice(d.deployments.indexOf(dep), 1);
    for (const m of [d.environments, d.folders, d.reports, d.workbooks, d.notifications, d.envVars])
      m.delete(dep.id);
    delete state.deploymentSettings?.[String(dep.id)];
    lifecycle.deleted(dep.id);
    await ctx.json(200, { success: true });
  });

  on('POST', '/creation-step/advance', async (ctx, dep) => {
    dep.creationStep = (ctx.body as z.output<typeof AdvanceCreationStepInputSchema>).creationStep;
    await ctx.json(200, deploymentView(dep));
  });
  on('POST', '/creation-step/reset', async (ctx, dep) => {
    dep.creationStep = 'project';
    await ctx.json(200, deploymentView(dep));
  });

  // ---- creating a deployment (build API, on the tenant host)
  router.add('platform', 'POST', '/build/api/v1/deployments', async (ctx) => {
    const b = ctx.body as CreateDeploymentInput;
    const name = b.name.trim();
    if (!name) return ctx.error(400, 'name must not be empty.');
    if (!(await regionOf(ctx, b.region))) return;
    const id = issueId(state, 'deployment', 4);
    const fromGithub = b.creationMethod === 'github';
    const dep: Row = { id, name, creationStep: b.creationStep, deploymentUrl: '' };
    Object.assign(settingsOf(state, id), {
      cloudProvider: b.cloudProvider,
      region: b.region,
      targetPlatform: b.targetPlatform,
      isManaged: b.isManaged,
      creationMethod: b.creationMethod ?? 'cubecloud',
      deployMode: b.deployMode ?? 'git',
      repoType: fromGithub ? null : 'deployRepo',
      releaseChannelVersionHold: false,
      // Where its repository comes from: the starter project, or GitHub once connected.
      _starter: fromGithub ? 'none' : 'empty',
    });
    d.deployments.push(dep);
    d.environments.set(id, [{ id: `prod-${id}`, name: 'Production', type: 'production', branch: 'main' }]);
    await lifecycle.created(id);
    await ctx.json(200, deploymentView(dep));
  });

  // ---- GitHub: linked for the admin token's user only
  const linked = (ctx: RequestContext) => isAdmin(ctx, deps);
  const reposOf = (login: string) => [...(REPOS[login] ?? []), ...(state.githubRepos?.[login] ?? [])];
  // The GitHub lists still carry the deprecated `data` (the same items), as published.
  const data = { data: true };
  const installation = (n: number) => INSTALLATIONS.find((i) => Number(i.installationId) === n);
  router.add('platform', 'GET', '/v1/github/status', (ctx) =>
    ctx.json(200, { connected: linked(ctx), linkUrl: LINK_URL, settingsUrl: SETTINGS_URL }),
  );
  router.add('platform', 'GET', '/v1/github/installations', (ctx) =>
    sendPage(ctx, linked(ctx) ? INSTALLATIONS : [], 'github-installations', data),
  );
  router.add('platform', 'GET', '/v1/github/installations/:installationId/repositories', async (ctx) => {
    const i = linked(ctx) ? installation(Number(ctx.params.installationId)) : undefined;
    if (!i) return ctx.error(404, `No GitHub App installation ${ctx.params.installationId} for this user.`);
    const rows = reposOf(i.login).map((name, n) => ({
      id: 7_000 + (Number(i.installationId) % 100) * 100 + n,
      name,
      htmlUrl: `https://github.com/${i.login}/${name}`,
    }));
    await sendPage(ctx, rows, `github-repos:${i.login}`, data);
  });
  router.add('platform', 'GET', '/v1/github/repositories/:owner/:repo/branches', async (ctx) => {
    const i = linked(ctx) ? installation(Number(ctx.query.get('installationId'))) : undefined;
    if (!i)
      return ctx.error(404, `No GitHub App installation ${ctx.query.get('installationId')} for this user.`);
    if (i.login !== ctx.params.owner || !reposOf(i.login).includes(ctx.params.repo!))
      return ctx.error(404, `No repository ${ctx.params.owner}/${ctx.params.repo} in this installation.`);
    const created = state.githubRepos?.[i.login]?.includes(ctx.params.repo!);
    const rows = (created ? ['main'] : BRANCHES).map((name) => ({ name, isDefault: name === 'main' }));
    await sendPage(ctx, rows, `github-branches:${i.login}/${ctx.params.repo}`, data);
  });

  const connect = '/build/api/v1/deployments/:deploymentId/github/connect';
  router.add(
    'platform',
    'POST',
    connect,
    withDeployment(deps)(async (ctx, dep) => {
      const b = ctx.body as ConnectGitHubInput;
      const i = linked(ctx) ? installation(b.installationId) : undefined;
      if (!i)
        return ctx.error(
          400,
          `installationId ${b.installationId} is not a GitHub App installation of this user.`,
        );
      const exists = reposOf(i.login).includes(b.name);
      if (b.isNewRepo && exists)
        return ctx.error(400, `${i.login}/${b.name} exists already: connect it instead.`);
      if (!b.isNewRepo && !exists) return ctx.error(400, `There is no repository ${i.login}/${b.name}.`);
      if (b.isNewRepo) ((state.githubRepos ??= {})[i.login] ??= []).push(b.name);
      const branch = b.deployBranchName ?? 'main';
      if (!(exists ? BRANCHES : ['main']).includes(branch))
        return ctx.error(400, `deployBranchName: ${i.login}/${b.name} has no branch "${branch}".`);
      Object.assign(settingsOf(state, dep.id), {
        creationMethod: 'github',
        repoType: 'git',
        deployBranchName: branch,
        deployProjectRoot: b.deployProjectRoot ?? '/',
        _repository: `${i.login}/${b.name}`,
        _starter: 'github',
      });
      if (dep.creationStep === 'github' || dep.creationStep === 'project') dep.creationStep = 'databases';
      lifecycle.reseeded(dep.id);
      await ctx.json(200, deploymentView(dep));
    }),
  );
}

const HOST = /^(?=.{1,253}$)([a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?\.)+[a-z]{2,63}$/i;
