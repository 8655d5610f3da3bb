// Composition root: builds the services, then calls each feature's register(). Activation does no
// network I/O and loads neither the HTTP stack nor zod: features register small shells and load
// their code on first use (src/lazy.ts); the sandbox starts on first use of the Sandbox profile.
//
// The value returned by activate() is the extension API used by the integration tests:
//   services, sandbox() (+ .start(), .stop(), .current()), statusBarText(), statusBarTooltip(),
//   explorer, chat, dashboards (the last two load their feature when read).
import * as vscode from 'vscode';
import { COMMANDS } from './commands';
import { registerCommand } from './commandRunner';
import { KnownSecrets, createRedactingLog } from './log';
import { createClients, registerProfileShell } from './profileShell';
import { trackProfileContext } from './profiles/profileContext';
import { ProfileService } from './profiles/profileService';
import type { SandboxManager } from './profiles/sandboxProfile';
import { ProfileStatusBar } from './profiles/statusBar';
import type { Services } from './services';
import { createExplorer, type ExplorerApi } from './explorer';
import { register as registerChat, type ChatFeature } from './chat';
import { register as registerNotebook } from './notebook';
import { register as registerDashboards, type DashboardsFeature } from './dashboards';
import { register as registerAgents, type AgentsFeature } from './agents';
import { register as registerModel, type ModelFeature } from './model';
import { ModelBranchState } from './model/modelBranchState';
import {
  createSandbox,
  registerSandboxCommands,
  type SandboxApi,
  type SandboxHandle,
} from './sandboxFeature';

export type { SandboxApi };

export interface ExtensionApi {
  services: Services;
  sandbox: SandboxApi;
  explorer: ExplorerApi;
  statusBarText(): string;
  statusBarTooltip(): string;
  /** The chat feature (panels, history), for the integration tests. */
  readonly chat: ChatFeature;
  /** The dashboards-as-code feature (its custom editor), for the integration tests. */
  readonly dashboards: DashboardsFeature;
  /** Language model tools, chat participant and MCP provider, for the integration tests. */
  readonly agents: AgentsFeature;
  /** The data model in the editor (mounts, validation, branch status), for the integration tests. */
  readonly model: ModelFeature;
}

let sandboxManager: SandboxManager<SandboxHandle> | undefined;

export function activate(context: vscode.ExtensionContext): ExtensionApi {
  const t0 = Date.now();
  const secrets = new KnownSecrets();
  const channel = vscode.window.createOutputChannel('Dashboard Platform', { log: true });
  const log = createRedactingLog(channel, secrets);
  const sandbox = (sandboxManager = createSandbox(log, secrets));
  const profiles = new ProfileService(context, log, sandbox, secrets);
  const clients = createClients(profiles, log);
  const statusBar = new ProfileStatusBar(profiles);
  const modelBranch = new ModelBranchState();
  const services: Services = { context, log, profiles, clients, modelBranch };
  const explorer = createExplorer(services);
  const chat = registerChat(services);
  const dashboards = registerDashboards(services);
  const agents = registerAgents(services);
  const model = registerModel(services);
  context.subscriptions.push(
    channel,
    profiles,
    modelBranch,
    statusBar,
    registerCommand(services, COMMANDS.showLogs, () => log.show()),
    trackProfileContext(profiles),
    ...registerProfileShell(services, clients),
    ...registerSandboxCommands(services, sandbox),
    ...explorer.disposables,
    ...chat.disposables,
    ...registerNotebook(services),
    ...dashboards.disposables,
    ...agents.disposables,
    ...model.disposables,
  );

  log.info(`Dashboard Platform activated in ${Date.now() - t0} ms`);
  return {
    services,
    sandbox: Object.assign(() => sandbox.start(), {
      start: () => sandbox.start(),
      stop: () => sandbox.stop(),
      current: () => sandbox.current,
    }) satisfies SandboxApi,
    explorer: explorer.api,
    statusBarText: () => statusBar.text,
    statusBarTooltip: () => statusBar.tooltipText,
    get chat() {
      return chat.feature;
    },
    get dashboards() {
      return dashboards.feature;
    },
    get agents() {
      return agents.feature;
    },
    get model() {
      return model.feature;
    },
  };
}

export async function deactivate(): Promise<void> {
  const s = sandboxManager;
  sandboxManager = undefined;
  await s?.stop();
}
