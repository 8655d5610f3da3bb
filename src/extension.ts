// Composition root: builds the services, then calls each feature's register(). Activation does no
// network I/O and loads no webview code; the sandbox starts on first use of the Sandbox profile.
//
// The value returned by activate() is the extension API used by the integration tests:
//   services            the Services handed to features
//   sandbox()           starts (once) and returns the sandbox handle; also sandbox.start(),
//                       sandbox.stop(), sandbox.current() (the handle, or undefined when stopped)
//   statusBarText()     the status bar item's text
//   statusBarTooltip()  the status bar item's tooltip as plain text
//   explorer            the explorer feature's API (src/explorer)
import * as vscode from 'vscode';
import { COMMANDS } from './commands';
import { registerCommand } from './commandRunner';
import { readNetworkSettings, affectsNetwork } from './config/networkSettings';
import { KnownSecrets, apiLogger, createRedactingLog } from './log';
import { trackProfileContext } from './profiles/profileContext';
import { ProfileClientProvider } from './profiles/clientProvider';
import { registerProfileCommands } from './profiles/profileCommands';
import { createPlatformClient } from './profiles/platformFactory';
import { SANDBOX_PROFILE_NAME } from './profiles/profileModel';
import { ProfileService } from './profiles/profileService';
import { loadSandbox, type SandboxHandle } from './profiles/sandboxLoader';
import { SandboxManager, sandboxInfoLines } from './profiles/sandboxProfile';
import { ProfileStatusBar } from './profiles/statusBar';
import type { Services } from './services';
import { createExplorer, type ExplorerApi } from './explorer';
import { register as registerChat, type ChatFeature } from './chat';
import { register as registerNotebook } from './notebook';
import { register as registerDashboards, type DashboardsFeature } from './dashboards';
import { register as registerAgents, type AgentsFeature } from './agents';

export interface SandboxApi {
  (): Promise<SandboxHandle>;
  start(): Promise<SandboxHandle>;
  stop(): Promise<boolean>;
  current(): SandboxHandle | undefined;
}

export interface ExtensionApi {
  services: Services;
  sandbox: SandboxApi;
  explorer: ExplorerApi;
  statusBarText(): string;
  statusBarTooltip(): string;
  /** The chat feature (panels, history), for the integration tests. */
  chat: ChatFeature;
  /** The dashboards-as-code feature (its custom editor), for the integration tests. */
  dashboards: DashboardsFeature;
  /** Language model tools, chat participant and MCP provider, for the integration tests. */
  agents: AgentsFeature;
}

let sandboxManager: SandboxManager<SandboxHandle> | undefined;

export function activate(context: vscode.ExtensionContext): ExtensionApi {
  const t0 = Date.now();
  const secrets = new KnownSecrets();
  const channel = vscode.window.createOutputChannel('Dashboard Platform', { log: true });
  const log = createRedactingLog(channel, secrets);
  const logger = apiLogger(log);
  context.subscriptions.push(channel);

  const sandbox = new SandboxManager(
    loadSandbox,
    () => ({ rows: vscode.workspace.getConfiguration('dashboardPlatform').get<number>('sandbox.rows') }),
    logger,
  );
  sandboxManager = sandbox;
  context.subscriptions.push(
    sandbox.onDidChange((h) => {
      if (h) secrets.add(h.tokens.admin, h.tokens.member, h.tokens.dataApi, h.tokens.aiApiKey);
    }),
  );

  const profiles = new ProfileService(context, log, sandbox, secrets);
  const clients = new ProfileClientProvider({
    profiles,
    logger,
    network: () => readNetworkSettings((m) => log.warn(m)),
    createPlatform: createPlatformClient,
  });
  const statusBar = new ProfileStatusBar(profiles);
  context.subscriptions.push(
    profiles,
    clients,
    statusBar,
    vscode.workspace.onDidChangeConfiguration((e) => {
      if (affectsNetwork(e)) clients.reset();
    }),
  );

  const services: Services = { context, log, profiles, clients };

  context.subscriptions.push(
    registerCommand(services, COMMANDS.showLogs, () => log.show()),
    trackProfileContext(profiles),
    registerCommand(services, COMMANDS.sandboxUse, async () => {
      await profiles.switchTo(SANDBOX_PROFILE_NAME);
      await sandbox.start();
    }),
    registerCommand(services, COMMANDS.sandboxStart, async () => {
      const h = await sandbox.start();
      for (const l of sandboxInfoLines(h)) log.info(l);
      return h.urls;
    }),
    registerCommand(services, COMMANDS.sandboxStop, async () => {
      const stopped = await sandbox.stop();
      void vscode.window.showInformationMessage(stopped ? 'Sandbox stopped.' : 'The sandbox is not running.');
    }),
    registerCommand(services, COMMANDS.sandboxShowInfo, async () => {
      const h = sandbox.current;
      if (!h) {
        log.info('The sandbox is not running; it starts on first use of the "Sandbox" profile.');
      } else {
        for (const l of sandboxInfoLines(h)) log.info(l);
      }
      log.show(true);
    }),
    ...registerProfileCommands(services),
  );

  // Features: each registers lazily (no network I/O, no webview until a panel opens).
  const explorer = createExplorer(services);
  context.subscriptions.push(...explorer.disposables);
  const chat = registerChat(services);
  context.subscriptions.push(...chat.disposables);
  context.subscriptions.push(...registerNotebook(services));
  const dashboards = registerDashboards(services);
  context.subscriptions.push(...dashboards.disposables);
  const agents = registerAgents(services);
  context.subscriptions.push(...agents.disposables);

  log.info(`Dashboard Platform activated in ${Date.now() - t0} ms`);
  return {
    services,
    sandbox: Object.assign(() => sandbox.start(), {
      start: () => sandbox.start(),
      stop: () => sandbox.stop(),
      current: () => sandbox.current,
    }),
    explorer: explorer.api,
    statusBarText: () => statusBar.text,
    statusBarTooltip: () => statusBar.tooltipText,
    chat: chat.feature,
    dashboards: dashboards.feature,
    agents: agents.feature,
  };
}

export async function deactivate(): Promise<void> {
  const s = sandboxManager;
  sandboxManager = undefined;
  await s?.stop();
}
