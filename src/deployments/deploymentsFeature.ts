// Deployment operations, loaded on first use of one of their commands (index.ts registers the
// shims): dbt sync, dashboard export, env variables, environment tokens, build status and logs,
// and managing deployments as wholes (create, connect GitHub, edit, delete, settings, setup step).
import * as vscode from 'vscode';
import { registerCommand } from '../commandRunner';
import { COMMANDS } from '../commands';
import { explorerContext, type ExplorerHost } from '../explorer/context';
import { DBT_SCHEME, DbtFlows, GeneratedFiles } from './dbtFlows';
import { EnvFlows } from './envFlows';
import { ExportFlow } from './exportFlow';
import { HealthFlows } from './healthFlows';
import { ManageFlows } from './manageFlows';
import { OpsContext } from './opsContext';

export class DeployOps {
  readonly context: OpsContext;
  readonly dbt: DbtFlows;
  readonly exports: ExportFlow;
  readonly env: EnvFlows;
  readonly health: HealthFlows;
  readonly manage: ManageFlows;
  private readonly files = new GeneratedFiles();

  constructor(private readonly host: ExplorerHost) {
    this.context = new OpsContext(explorerContext(host));
    this.dbt = new DbtFlows(this.context, this.files);
    this.exports = new ExportFlow(this.context);
    this.env = new EnvFlows(this.context);
    this.health = new HealthFlows(this.context);
    this.manage = new ManageFlows(this.context, () => host.services.clients.build());
  }

  /** The lines written to an output channel of these commands (for tests). */
  transcript(channel: string): string[] {
    return [...(this.context.transcripts.get(channel) ?? [])];
  }

  register(): vscode.Disposable[] {
    const s = this.host.services;
    const reg = (spec: { id: string; title: string }, fn: (arg?: unknown) => unknown) =>
      registerCommand(s, spec, fn as (...a: never[]) => unknown);
    return [
      this.context,
      this.health,
      vscode.workspace.registerTextDocumentContentProvider(DBT_SCHEME, this.files),
      reg(COMMANDS.deploymentsDbtSync, (a) => this.dbt.start(a)),
      reg(COMMANDS.deploymentsDbtShowLogs, (a) => this.dbt.showLogs(a)),
      reg(COMMANDS.deploymentsDbtCancel, (a) => this.dbt.cancel(a)),
      reg(COMMANDS.deploymentsDbtOpenResult, (a) => this.dbt.openResult(a)),
      reg(COMMANDS.deploymentsDbtOpenGeneratedFiles, (a) => this.dbt.openGeneratedFiles(a)),
      reg(COMMANDS.deploymentsExportDashboard, (a) => this.exports.exportDashboard(a)),
      reg(COMMANDS.deploymentsSetEnvVar, (a) => this.env.setEnvVar(a)),
      reg(COMMANDS.deploymentsChangeEnvVar, (a) => this.env.changeEnvVar(a)),
      reg(COMMANDS.deploymentsRevealEnvVar, (a) => this.env.revealEnvVar(a)),
      reg(COMMANDS.deploymentsCreateEnvironmentToken, (a) => this.env.createToken(a)),
      reg(COMMANDS.deploymentsShowBuildStatus, (a) => this.health.showBuildStatus(a)),
      reg(COMMANDS.deploymentsShowLogs, (a) => this.health.showLogs(a)),
      reg(COMMANDS.deploymentsFollowLogs, (a) => this.health.follow(a)),
      reg(COMMANDS.deploymentsStopFollowingLogs, () => this.health.stopFollowing()),
      reg(COMMANDS.deploymentsCreate, (a) => this.manage.createDeployment(a)),
      reg(COMMANDS.deploymentsConnectGithub, (a) => this.manage.connectRepository(a)),
      reg(COMMANDS.deploymentsEdit, (a) => this.manage.editDeployment(a)),
      reg(COMMANDS.deploymentsDelete, (a) => this.manage.deleteDeployment(a)),
      reg(COMMANDS.deploymentsShowSettings, (a) => this.manage.showSettings(a)),
      reg(COMMANDS.deploymentsContinueSetup, (a) => this.manage.continueSetup(a)),
    ];
  }
}

/** Builds the feature and registers its commands (the lazily loaded entry of src/deployments). */
export function createDeploymentsFeature(host: ExplorerHost): {
  feature: DeployOps;
  disposables: vscode.Disposable[];
} {
  const feature = new DeployOps(host);
  return { feature, disposables: feature.register() };
}
