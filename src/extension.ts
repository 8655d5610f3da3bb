// Composition root: builds the services, then calls each feature's register(). Activation does no
// network I/O and loads neither the HTTP stack nor zod: features register small shells and load
// their code on first use (src/lazy.ts); the sandbox starts on first use of the Sandbox profile.
// activate() returns after the services and the status bar; the rest registers over the next event
// loop turns, before its promise resolves.
//
// The value returned by activate() is the extension API used by the integration tests:
//   services, sandbox() (+ .start(), .stop(), .current()), statusBarText(), statusBarTooltip(),
//   explorer, chat, dashboards, admin, deployments, workspace, notifications (all but the explorer
//   load their feature when read).
import * as vscode from 'vscode';
import { COMMANDS } from './commands';
import { registerCommand } from './commandRunner';
import { preloadModule } from './lazyModule';
import type * as Api from './api';
import { KnownSecrets, createRedactingLog } from './log';
import { createClients, registerProfileShell } from './profileShell';
import { trackProfileContext } from './profiles/profileContext';
import { ProfileService } from './profiles/profileService';
import type { SandboxManager } from './profiles/sandboxProfile';
import { ProfileStatusBar } from './profiles/statusBar';
import type { Services } from './services';
import { createExplorer, type ExplorerApi } from './explorer';
import { register as registerWorkspace, type WorkspaceFeature } from './workspace';
import { register as registerDeployments, type DeployOps } from './deployments';
import { register as registerNotifications } from './notifications';
import { register as registerAdmin, type AdminCommands } from './admin';
import { register as registerEmbedDash } from './dashboards/comments';
import type { NotificationActions } from './notifications/notificationActions';
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
  /** The features that act on the explorer's rows, for the integration tests. */
  readonly workspace: WorkspaceFeature;
  readonly deployments: DeployOps;
  readonly notifications: NotificationActions;
  readonly admin: AdminCommands;
}

/** How long after activation the API bundle is loaded in the background. */
const API_PRELOAD_DELAY_MS = 1500;

let sandboxManager: SandboxManager<SandboxHandle> | undefined;

/**
 * The next turn of the extension host's event loop: activation registers its parts one per turn so
 * that no single task blocks the host for all of them (VS Code times only the synchronous part of
 * activate(); the rest still runs before activation completes).
 */
const nextTurn = (): Promise<void> => new Promise((resolve) => setImmediate(resolve));

/**
 * Synchronously: the services and the profile status bar (what shows first). Then, one event loop
 * turn each, the explorer tree, the commands, and each feature's shell. The returned promise
 * resolves once everything is registered: VS Code completes activation only then, so a command,
 * view, notebook or panel that triggers activation waits for its registration and never finds it
 * missing.
 */
export function activate(context: vscode.ExtensionContext): Promise<ExtensionApi> {
  const t0 = performance.now();
  const secrets = new KnownSecrets();
  const channel = vscode.window.createOutputChannel('Dashboard Platform', { log: true });
  const log = createRedactingLog(channel, secrets);
  const sandbox = (sandboxManager = createSandbox(log, secrets, context.globalStorageUri));
  const profiles = new ProfileService(context, log, sandbox, secrets);
  const clients = createClients(profiles, log);
  const statusBar = new ProfileStatusBar(profiles);
  const modelBranch = new ModelBranchState();
  const services: Services = { context, log, profiles, clients, modelBranch };
  context.subscriptions.push(channel, profiles, modelBranch, statusBar);
  const firstMs = performance.now() - t0;
  return registerFeatures(services, clients, sandbox).then((features) => {
    // The HTTP stack and zod (dist/api.js) load once activation is over, while the user looks
    // around, so the first query does not pay for them.
    const cancelPreload = preloadModule<typeof Api>(
      'src/api/index.ts',
      API_PRELOAD_DELAY_MS,
      setTimeout,
      (api) => api.warmUp(),
    );
    context.subscriptions.push({ dispose: cancelPreload });
    log.info(
      `Dashboard Platform activated in ${(performance.now() - t0).toFixed(0)} ms (${firstMs.toFixed(0)} ms before activate() returned; ${features.stepsMs.map((ms) => ms.toFixed(1)).join(', ')} ms for the later steps)`,
    );
    const { explorer, chat, dashboards, agents, model, rows } = features;
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
      get workspace() {
        return rows.workspace.feature;
      },
      get deployments() {
        return rows.deployments.feature;
      },
      get notifications() {
        return rows.notifications.feature;
      },
      get admin() {
        return rows.admin.feature;
      },
    };
  });
}

/** Registers the rest, one step per event loop turn; each step's disposables join the context's. */
async function registerFeatures(
  services: Services,
  clients: ReturnType<typeof createClients>,
  sandbox: SandboxManager<SandboxHandle>,
) {
  const { context, log, profiles } = services;
  const stepsMs: number[] = [];
  async function step<T>(run: () => T, disposables: (value: T) => vscode.Disposable[]): Promise<T> {
    await nextTurn();
    const t = performance.now();
    const value = run();
    context.subscriptions.push(...disposables(value));
    stepsMs.push(performance.now() - t);
    return value;
  }
  const explorer = await step(
    () => createExplorer(services),
    (e) => e.disposables,
  );
  // What a user does to the explorer's rows: each feature registers its own commands' shims.
  const rows = await step(
    () => ({
      workspace: registerWorkspace(explorer.host),
      deployments: registerDeployments(explorer.host),
      notifications: registerNotifications(explorer.host),
      admin: registerAdmin(explorer.host),
      embedDash: registerEmbedDash(explorer.host),
    }),
    (r) => [
      ...r.embedDash.disposables,
      ...r.workspace.disposables,
      ...r.deployments.disposables,
      ...r.notifications.disposables,
      ...r.admin.disposables,
    ],
  );
  await step(
    () => undefined,
    () => [
      registerCommand(services, COMMANDS.showLogs, () => log.show()),
      trackProfileContext(profiles),
      ...registerProfileShell(services, clients),
      ...registerSandboxCommands(services, sandbox),
    ],
  );
  const chat = await step(
    () => registerChat(services),
    (c) => c.disposables,
  );
  await step(
    () => registerNotebook(services),
    (d) => d,
  );
  const dashboards = await step(
    () => registerDashboards(services),
    (d) => d.disposables,
  );
  const agents = await step(
    () => registerAgents(services),
    (a) => a.disposables,
  );
  const model = await step(
    () => registerModel(services),
    (m) => m.disposables,
  );
  return { explorer, rows, chat, dashboards, agents, model, stepsMs };
}

export async function deactivate(): Promise<void> {
  const s = sandboxManager;
  sandboxManager = undefined;
  await s?.stop();
}
