// Managing deployments as wholes: Create Deployment (name, region, then an empty starter project or
// a GitHub repository picked by name: account, repository, branch), Connect GitHub Repository,
// Edit Deployment (one setting at a time, read back from the server's answer), Delete Deployment
// (a modal naming it; on a production profile the name must be typed), Show Deployment Settings
// (read-only JSON) and Continue Setup (move the onboarding step on, or start it over).
import * as vscode from 'vscode';
import type { BuildClient } from '../api/buildClient';
import { ApiError } from '../api/errors';
import type { GitHubInstallation } from '../api/platform/github';
import { installationNumber } from '../api/platform/github';
import type { DeploymentSettings } from '../api/platform/deployments';
import { COMMANDS } from '../commands';
import { plainText } from '../explorer/labels';
import { asArgs, resolveDeploymentId } from '../explorer/targets';
import { UserCancelled } from '../log';
import { runSteps } from '../ui/steps';
import {
  createBody,
  deleteOutcome,
  nameRefusal,
  savedEditMessage,
  SETTING_EDITS,
  unchangedEdit,
  shownValue,
  stepChoices,
  stepWords,
  watchFirstBuild,
  type FirstBuild,
  type RegionChoice,
} from './deploymentPlans';
import { pause, type OpsContext } from './opsContext';

const BUILD_POLL_MS = 1000;

/** The Show Deployment Settings document of a deployment. */
const settingsKey = (deploymentId: number): string => `settings:${deploymentId}`;

/** The answers of Create Deployment (also accepted as arguments, for tests and other features). */
export interface CreateArgs {
  name?: string;
  region?: string;
  source?: 'starter' | 'github';
  owner?: string;
  repository?: string;
  branch?: string;
}

interface Repo {
  installation: GitHubInstallation;
  installationId: number;
  repository: string;
  branch: string;
}

export class ManageFlows {
  constructor(
    private readonly ops: OpsContext,
    private readonly build: () => Promise<BuildClient>,
  ) {}

  async createDeployment(arg?: unknown): Promise<number | undefined> {
    const o = this.ops;
    const args = asArgs<CreateArgs>(arg);
    const client = await o.client();
    const regions = (await client.admin.listRegions({ first: 200 })).items;
    if (regions.length === 0)
      throw new Error('This account lists no regions to create a deployment in. Ask an account admin.');
    const github = await client.getGithubStatus();
    const s: { name?: string; region?: RegionChoice; source?: 'starter' | 'github' } = {};
    await runSteps(s, [
      {
        run: async (st, step) => {
          st.name =
            args.name ??
            (await o.prompter.input({
              title: 'Create Deployment',
              prompt: 'Name of the new deployment.',
              value: st.name,
              validate: nameRefusal,
              step,
            }));
        },
      },
      {
        run: async (st, step) => {
          const given = args.region && regions.find((r) => r.name === args.region);
          st.region =
            given ||
            (await o.prompter.pick(
              'Create Deployment: Region',
              regions.map((r) => ({
                label: plainText(r.title ?? r.name),
                description: plainText(r.name),
                value: r as RegionChoice,
              })),
              { placeHolder: 'Where the deployment runs', step },
            ));
        },
      },
      {
        run: async (st, step) => {
          st.source =
            args.source ??
            (await o.prompter.pick(
              'Create Deployment: Project',
              [
                {
                  label: 'Empty starter project',
                  description: 'scaffolded now; its first build starts at once',
                  value: 'starter' as const,
                },
                {
                  label: 'GitHub repository',
                  description: github.connected
                    ? 'pick an account, a repository and its deploy branch'
                    : 'GitHub is not linked to your account yet',
                  value: 'github' as const,
                },
              ],
              { placeHolder: 'Where the data model comes from', step },
            ));
        },
      },
    ]);
    const name = s.name!.trim();
    let repo: Repo | undefined;
    if (s.source === 'github') {
      if (!github.connected) {
        await this.offerLink(github.linkUrl, 'GitHub is not linked to your account', 'Link GitHub');
        return undefined;
      }
      repo = await this.pickRepository(args);
      if (!repo) return undefined;
    }
    await o.confirmWrite(`Create the deployment "${plainText(name)}"`);
    const build = await this.build();
    const created = await vscode.window.withProgress(
      {
        location: vscode.ProgressLocation.Notification,
        title: `Creating the deployment "${plainText(name)}"…`,
      },
      () => build.createDeployment(createBody(name, s.region!, repo !== undefined)),
    );
    this.refreshTree();
    if (repo) {
      try {
        await this.connect(created.id, repo);
      } catch (e) {
        // Said apart: the deployment exists either way; whether the repository was connected
        // may be unknown (never retried), or it was refused.
        const why = e instanceof Error ? e.message : String(e);
        const unknown = e instanceof ApiError && e.kind === 'unknownOutcome';
        throw new Error(
          `The deployment "${plainText(created.name)}" was created${unknown ? ', but whether its repository was connected is unknown' : ', but its repository was not connected'}: ${why} ${unknown ? 'Open its settings (Show Deployment Settings) before connecting again.' : 'Use "Connect GitHub Repository…" on it in the Deployments list.'}`,
          { cause: e },
        );
      }
    }
    await this.reportFirstBuild(created.id, plainText(created.name));
    return created.id;
  }

  /** Connects a deployment (one waiting at the GitHub step, typically) to a repository picked by name. */
  async connectRepository(arg?: unknown): Promise<boolean> {
    const o = this.ops;
    const deploymentId = await resolveDeploymentId(o.targets, arg);
    const github = await (await o.client()).getGithubStatus();
    if (!github.connected) {
      await this.offerLink(github.linkUrl, 'GitHub is not linked to your account', 'Link GitHub');
      return false;
    }
    const repo = await this.pickRepository(asArgs<CreateArgs>(arg));
    if (!repo) return false;
    const dep = await o.deploymentName(deploymentId);
    await o.confirmWrite(`Connect ${dep} to ${repo.installation.login}/${repo.repository}`);
    await this.connect(deploymentId, repo);
    this.refreshTree();
    await this.reportFirstBuild(deploymentId, dep.replace(/^"|"$/g, ''));
    return true;
  }

  private async connect(deploymentId: number, repo: Repo): Promise<void> {
    const build = await this.build();
    const full = `${plainText(repo.installation.login)}/${plainText(repo.repository)}`;
    await vscode.window.withProgress(
      {
        location: vscode.ProgressLocation.Notification,
        title: `Connecting ${full} (${plainText(repo.branch)})…`,
      },
      () =>
        build.connectGithub(deploymentId, {
          installationId: repo.installationId,
          name: repo.repository,
          deployBranchName: repo.branch,
        }),
    );
  }

  /** Account, repository, branch: each picked by name (the default branch first). */
  private async pickRepository(args: CreateArgs): Promise<Repo | undefined> {
    const o = this.ops;
    const client = await o.client();
    const installations = (await client.listGithubInstallations({ first: 100 })).items.filter(
      (i) => installationNumber(i) !== undefined,
    );
    if (installations.length === 0) {
      const status = await client.getGithubStatus();
      await this.offerLink(
        status.linkUrl,
        'The Cube GitHub App is not installed on any GitHub account or organisation you can reach',
        'Install the GitHub App',
      );
      return undefined;
    }
    const r: Partial<Repo> = {};
    await runSteps(r, [
      {
        run: async (st, step) => {
          const given = args.owner && installations.find((i) => i.login === args.owner);
          st.installation =
            given ||
            (await o.prompter.pick(
              'Connect GitHub: Account',
              installations.map((i) => ({ label: plainText(i.login), value: i })),
              { placeHolder: 'The GitHub account or organisation of the repository', step },
            ));
          st.installationId = installationNumber(st.installation)!;
        },
      },
      {
        run: async (st, step) => {
          const repos = (await client.listGithubRepositories(st.installationId!, { first: 100 })).items;
          if (repos.length === 0)
            throw new Error(
              `The GitHub App can see no repository of ${plainText(st.installation!.login)}: give it access in GitHub's installation settings, then try again.`,
            );
          st.repository =
            (args.repository && repos.find((x) => x.name === args.repository)?.name) ||
            (await o.prompter.pick(
              'Connect GitHub: Repository',
              repos.map((x) => ({
                label: plainText(x.name),
                ...(x.htmlUrl ? { description: plainText(x.htmlUrl) } : {}),
                value: x.name,
              })),
              { placeHolder: `Repositories of ${plainText(st.installation!.login)}`, step },
            ));
        },
      },
      {
        run: async (st, step) => {
          const branches = (
            await client.listGithubBranches(st.installation!.login, st.repository!, {
              installationId: st.installationId!,
              first: 100,
            })
          ).items.sort((a, b) => Number(b.isDefault === true) - Number(a.isDefault === true));
          st.branch =
            (args.branch && branches.find((b) => b.name === args.branch)?.name) ||
            (await o.prompter.pick(
              'Connect GitHub: Deploy Branch',
              branches.map((b) => ({
                label: plainText(b.name),
                ...(b.isDefault ? { description: 'default branch' } : {}),
                value: b.name,
              })),
              { placeHolder: 'The branch the deployment serves', step },
            ));
        },
      },
    ]);
    return r as Repo;
  }

  /** A modal saying what is missing, with the page that fixes it (opened outside VS Code). */
  private async offerLink(url: string | undefined, message: string, action: string): Promise<void> {
    const detail = url
      ? `${action} on GitHub, then run this command again.`
      : 'Link GitHub in the Cube Cloud console, then run this command again.';
    const choice = await vscode.window.showWarningMessage(
      message,
      { modal: true, detail },
      ...(url ? [action] : []),
    );
    if (choice === action && url) await vscode.env.openExternal(vscode.Uri.parse(url));
  }

  /** Watches the first build with a cancellable progress, then says how it ended and where to look. */
  private async reportFirstBuild(deploymentId: number, name: string): Promise<FirstBuild> {
    const client = await this.ops.client();
    const result = await vscode.window.withProgress(
      {
        location: vscode.ProgressLocation.Notification,
        title: `First build of "${name}"…`,
        cancellable: true,
      },
      (_p, token) =>
        watchFirstBuild(
          () => client.ops.getBuildStatus(deploymentId),
          () => pause(BUILD_POLL_MS, token),
        ),
    );
    const show = 'Show Build Status';
    const setup = 'Continue Setup…';
    const next = (choice: string | undefined) => {
      if (choice === show)
        void vscode.commands.executeCommand(COMMANDS.deploymentsShowBuildStatus.id, { deploymentId });
      if (choice === setup)
        void vscode.commands.executeCommand(COMMANDS.deploymentsContinueSetup.id, { deploymentId });
    };
    if (result.outcome === 'succeeded')
      void vscode.window
        .showInformationMessage(
          `Deployment "${name}" is ready to use: its first build succeeded.`,
          setup,
          show,
        )
        .then(next);
    else if (result.outcome === 'failed')
      void vscode.window
        .showWarningMessage(
          `Deployment "${name}" was created, but its first build failed: ${plainText(result.status.errorText ?? result.status.status, 300)}`,
          show,
        )
        .then(next);
    else
      void vscode.window
        .showInformationMessage(
          result.outcome === 'ended'
            ? `Deployment "${name}" was created; its first build ended "${plainText(result.status.status)}".`
            : `Deployment "${name}" was created; its first build is still running. Watch it with Show Build Status.`,
          show,
        )
        .then(next);
    return result;
  }

  async editDeployment(arg?: unknown): Promise<DeploymentSettings> {
    const o = this.ops;
    const deploymentId = await resolveDeploymentId(o.targets, arg);
    const args = asArgs<{ setting: string; value: string | boolean }>(arg);
    const client = await o.client();
    const settings = await client.getDeploymentSettings(deploymentId);
    const name = plainText(settings.name);
    const edit =
      SETTING_EDITS.find((e) => e.key === args.setting) ??
      (await o.prompter.pick(
        `Edit Deployment "${name}"`,
        SETTING_EDITS.map((e) => ({
          label: e.label,
          description: plainText(shownValue(settings, e.key)),
          value: e,
        })),
        'The setting to change',
      ));
    let body;
    if (edit.kind === 'text') {
      const now = (settings as Record<string, unknown>)[edit.key];
      const v =
        typeof args.value === 'string' && edit.refuse(args.value) === undefined
          ? args.value
          : await o.prompter.input({
              title: `${edit.label} of "${name}"`,
              prompt:
                edit.key === 'customDomain' ? 'A host name; leave empty to remove it.' : 'The new name.',
              value: typeof now === 'string' ? now : '',
              validate: edit.refuse,
            });
      body = edit.body(v);
    } else {
      const v =
        args.value !== undefined && edit.options.some((x) => x.value === args.value)
          ? args.value
          : await o.prompter.pick(
              `${edit.label} of "${name}"`,
              edit.options.map((x) => ({
                label: x.label,
                ...(shownValue(settings, edit.key) === String(x.label) ? { description: 'current' } : {}),
                value: x.value,
              })),
              `Now: ${shownValue(settings, edit.key)}`,
            );
      body = edit.body(v);
    }
    if (unchangedEdit(settings, body)) {
      void vscode.window.showInformationMessage(
        `Nothing to save: ${edit.label.toLowerCase()} of "${name}" is already ${plainText(shownValue(settings, edit.key))}.`,
      );
      return settings;
    }
    await o.confirmWrite(`Change ${edit.label.toLowerCase()} of "${name}"`);
    const saved = await vscode.window.withProgress(
      {
        location: vscode.ProgressLocation.Notification,
        title: `Saving ${edit.label.toLowerCase()} of "${name}"…`,
      },
      () => client.updateDeployment(deploymentId, body),
    );
    this.refreshTree();
    // An open Show Deployment Settings document shows what was saved, not what was there before.
    this.ops.deps.json.update(settingsKey(deploymentId), saved);
    // What the server saved, as it answers it (not what was typed).
    void vscode.window.showInformationMessage(savedEditMessage(settings.name, saved, edit));
    return saved;
  }

  async deleteDeployment(arg?: unknown): Promise<'deleted' | 'refused' | 'unknown'> {
    const o = this.ops;
    const deploymentId = await resolveDeploymentId(o.targets, arg);
    const client = await o.client();
    const d = await client.getDeployment(deploymentId);
    const name = plainText(d.name);
    const ok = await o.prompter.confirm(
      `Delete the deployment "${name}"?`,
      'This deletes its data model, branches, environments, folders, reports, workbooks, notifications and env variables. It cannot be undone.',
      'Delete',
    );
    if (!ok) throw new UserCancelled();
    // On a production profile the name must be typed, as merging into a default branch asks.
    if (this.ops.deps.services.profiles.active()?.profile.production === true)
      await o.prompter.input({
        title: 'Production: confirm by typing the deployment name',
        prompt: `Type "${name}" to delete it`,
        validate: (v) => (v === name ? undefined : `Type ${name}`),
      });
    const r = await vscode.window.withProgress(
      { location: vscode.ProgressLocation.Notification, title: `Deleting the deployment "${name}"…` },
      () => client.deleteDeployment(deploymentId),
    );
    const outcome = deleteOutcome(r);
    this.refreshTree();
    if (outcome === 'deleted') void vscode.window.showInformationMessage(`Deployment "${name}" deleted.`);
    else if (outcome === 'refused')
      void vscode.window.showErrorMessage(
        `The server did not delete "${name}" (it answered success: false).`,
      );
    else
      void vscode.window.showWarningMessage(
        `The server answered without saying whether "${name}" was deleted. Refresh the Deployments list to see whether it is still there.`,
      );
    return outcome;
  }

  async showSettings(arg?: unknown): Promise<vscode.TextDocument> {
    const deploymentId = await resolveDeploymentId(this.ops.targets, arg);
    const s = await (await this.ops.client()).getDeploymentSettings(deploymentId);
    return this.ops.deps.json.show(settingsKey(deploymentId), `deployment-settings-${deploymentId}`, s);
  }

  /** Moves the onboarding step on (to ready, usually), or starts the setup over. */
  async continueSetup(arg?: unknown): Promise<string> {
    const o = this.ops;
    const deploymentId = await resolveDeploymentId(o.targets, arg);
    const args = asArgs<{ step: string }>(arg);
    const client = await o.client();
    const d = await client.getDeployment(deploymentId);
    const name = plainText(d.name);
    const RESET = '$reset';
    const choice =
      args.step ??
      (await o.prompter.pick(
        `Continue Setup of "${name}"`,
        [
          ...stepChoices(d.creationStep).map((c) => ({ label: c.label, value: c.step as string })),
          { label: 'Start setup over', description: 'back to the first step (project)', value: RESET },
        ],
        `Now at: ${stepWords(d.creationStep)}`,
      ));
    await o.confirmWrite(`Change the setup step of "${name}"`);
    const after =
      choice === RESET || choice === 'project'
        ? await client.resetCreationStep(deploymentId)
        : await client.advanceCreationStep(deploymentId, {
            creationStep: choice as Parameters<typeof client.advanceCreationStep>[1]['creationStep'],
          });
    this.refreshTree();
    // The step answer is the deployment, not its settings: an open settings document reads them
    // again (if that read fails the document keeps what it showed; the tree has the new step).
    const key = settingsKey(deploymentId);
    if (o.deps.json.isOpen(key))
      void client.getDeploymentSettings(deploymentId).then(
        (s) => o.deps.json.update(key, s),
        () => undefined,
      );
    void vscode.window.showInformationMessage(
      `"${plainText(after.name)}" is now at setup step ${stepWords(after.creationStep)}.`,
    );
    return String(after.creationStep);
  }

  private refreshTree(): void {
    const p = this.ops.deps.provider;
    p.refresh(p.roots.deployments);
  }
}
