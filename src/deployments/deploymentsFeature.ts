// The deployment operations' commands (dbt sync, dashboard export, env variables, health, environment
// tokens), registered with the explorer's commands (so they load with them, on first use).
import * as vscode from 'vscode';
import { registerCommand } from '../commandRunner';
import { COMMANDS } from '../commands';
import type { ExplorerActions } from '../explorer/explorerActions';
import type { ExplorerCommandDeps } from '../explorer/explorerCommands';
import type { TargetContext } from '../explorer/targets';
import { DBT_SCHEME, DbtFlows, GeneratedFiles } from './dbtFlows';
import { EnvFlows } from './envFlows';
import { ExportFlow } from './exportFlow';
import { HealthFlows } from './healthFlows';
import { OpsContext } from './opsContext';

export class DeployOps {
  readonly context: OpsContext;
  readonly dbt: DbtFlows;
  readonly exports: ExportFlow;
  readonly env: EnvFlows;
  readonly health: HealthFlows;
  private readonly files = new GeneratedFiles();

  constructor(
    private readonly deps: ExplorerCommandDeps,
    targets: TargetContext,
    actions: ExplorerActions,
  ) {
    this.context = new OpsContext(deps, targets, actions);
    this.dbt = new DbtFlows(this.context, this.files);
    this.exports = new ExportFlow(this.context);
    this.env = new EnvFlows(this.context);
    this.health = new HealthFlows(this.context);
  }

  /** The lines written to an output channel of these commands (for tests). */
  transcript(channel: string): string[] {
    return [...(this.context.transcripts.get(channel) ?? [])];
  }

  register(): vscode.Disposable[] {
    const s = this.deps.services;
    const reg = (spec: { id: string; title: string }, fn: (arg?: unknown) => unknown) =>
      registerCommand(s, spec, fn as (...a: never[]) => unknown);
    return [
      this.context,
      this.health,
      vscode.workspace.registerTextDocumentContentProvider(DBT_SCHEME, this.files),
      reg(COMMANDS.explorerDbtSync, (a) => this.dbt.start(a)),
      reg(COMMANDS.explorerDbtShowLogs, (a) => this.dbt.showLogs(a)),
      reg(COMMANDS.explorerDbtCancel, (a) => this.dbt.cancel(a)),
      reg(COMMANDS.explorerDbtOpenResult, (a) => this.dbt.openResult(a)),
      reg(COMMANDS.explorerDbtOpenGeneratedFiles, (a) => this.dbt.openGeneratedFiles(a)),
      reg(COMMANDS.explorerExportDashboard, (a) => this.exports.exportDashboard(a)),
      reg(COMMANDS.explorerSetEnvVar, (a) => this.env.setEnvVar(a)),
      reg(COMMANDS.explorerChangeEnvVar, (a) => this.env.changeEnvVar(a)),
      reg(COMMANDS.explorerRevealEnvVar, (a) => this.env.revealEnvVar(a)),
      reg(COMMANDS.explorerCreateEnvironmentToken, (a) => this.env.createToken(a)),
      reg(COMMANDS.explorerShowBuildStatus, (a) => this.health.showBuildStatus(a)),
      reg(COMMANDS.explorerShowDeploymentLogs, (a) => this.health.showLogs(a)),
      reg(COMMANDS.explorerFollowDeploymentLogs, (a) => this.health.follow(a)),
      reg(COMMANDS.explorerStopFollowingLogs, () => this.health.stopFollowing()),
    ];
  }
}
