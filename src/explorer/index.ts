// The explorer: the tree view of the active profile's platform and its browsing commands. The view
// is registered at activation with a shell provider: the tree's code (dist/tree.js) loads when
// VS Code first asks for a row, its loaders reach the HTTP stack on first expand, and the commands
// load on first use. What a user does to the rows (src/admin, src/deployments, src/workspace,
// src/notifications) registers itself with the host made here (context.ts).
import * as vscode from 'vscode';
import { COMMANDS } from '../commands';
import { featureCommandIds, LazyFeature, lazyModule } from '../lazy';
import type { Services } from '../services';
import type { ExplorerHost } from './context';
import type { ExplorerCommands } from './explorerCommands';
import type { ExplorerProvider } from './explorerProvider';
import type * as ExplorerProviderModule from './explorerProvider';
import { EXPLORER_VIEW_ID, PAGE_SIZE_SETTING } from './ids';
import { JSON_SCHEME, JsonDocumentProvider } from './jsonDocumentProvider';
import { offerWalkthroughOnce, WALKTHROUGH_ID } from './firstRun';
import type { ExplorerNode } from './nodes/types';
import type { Prompter, ScriptedPrompter } from '../ui/prompter';
import type * as ExplorerCommandsModule from './explorerCommands';
import { ExplorerTreeShell } from './treeShell';
import { WorkspaceDragAndDrop } from './dragAndDrop';

/** What the explorer exposes to tests and to other features through the extension's API. */
export interface ExplorerApi {
  readonly provider: ExplorerProvider;
  readonly view: vscode.TreeView<ExplorerNode>;
  readonly commands: ExplorerCommands;
  /** The workspace's drag and drop (tests drop through it as the tree would). */
  readonly dragAndDrop: WorkspaceDragAndDrop;
  /** Answers the questions of every flow that acts on the tree from `answers` (tests drive flows with it). */
  script(answers: (string | number | boolean | undefined | string[])[], confirm?: boolean): ScriptedPrompter;
  usePrompter(p: Prompter | undefined): void;
}

export function createExplorer(services: Services): {
  api: ExplorerApi;
  host: ExplorerHost;
  disposables: vscode.Disposable[];
} {
  const tree = new ExplorerTreeShell(() => {
    const mod = lazyModule<typeof ExplorerProviderModule>('src/explorer/explorerProvider.ts');
    return new mod.ExplorerProvider(
      () => services.clients.platform(),
      () => services.profiles.active() !== undefined,
    );
  });
  const dragAndDrop = new WorkspaceDragAndDrop();
  const view = vscode.window.createTreeView(EXPLORER_VIEW_ID, {
    treeDataProvider: tree,
    showCollapseAll: true,
    // Move and delete take several items; single-item commands act on the clicked one.
    canSelectMany: true,
    dragAndDropController: dragAndDrop,
  });
  const json = new JsonDocumentProvider();
  let prompter: Prompter | undefined;
  const host: ExplorerHost = {
    services,
    view,
    json,
    provider: () => tree.provider,
    prompterOverride: () => prompter,
  };
  let commandsModule: typeof ExplorerCommandsModule | undefined;
  const loadCommandsModule = () =>
    (commandsModule ??= lazyModule<typeof ExplorerCommandsModule>('src/explorer/explorerCommands.ts'));
  const commands = new LazyFeature(featureCommandIds(COMMANDS, 'explorer'), () => {
    const mod = loadCommandsModule();
    const c = new mod.ExplorerCommands(mod.explorerContext(host));
    services.context.subscriptions.push(...c.register());
    return c;
  });
  const updateDescription = () => {
    view.description = tree.description();
    // Shows the "clear" entries of the view's title menu only while a search, sort or filter is active.
    void vscode.commands.executeCommand(
      'setContext',
      'dashboardPlatform.explorer.hasQuery',
      !!view.description,
    );
  };
  const disposables: vscode.Disposable[] = [
    tree,
    view,
    json,
    vscode.workspace.registerTextDocumentContentProvider(JSON_SCHEME, json),
    commands,
    tree.onDidChangeDescription(updateDescription),
    services.clients.onDidChange(() => tree.refresh()),
    vscode.workspace.onDidChangeConfiguration((e) => {
      if (e.affectsConfiguration(PAGE_SIZE_SETTING)) tree.refresh();
    }),
  ];
  const api: ExplorerApi = {
    get provider() {
      return tree.provider;
    },
    view,
    dragAndDrop,
    get commands() {
      return commands.get();
    },
    script(answers, confirm = true) {
      const p = new (loadCommandsModule().ScriptedPrompter)(answers, confirm);
      prompter = p;
      return p;
    },
    usePrompter: (p) => {
      prompter = p;
    },
  };
  offerWalkthrough(services);
  return { api, host, disposables };
}

/** The test host extension that runs the integration suites (installed only for test runs). */
const TEST_HOST = 'dashboard-platform.dashboard-platform-test-host';

/** Opens the getting-started walkthrough on a new install (firstRun.ts). */
function offerWalkthrough(services: Services): void {
  const ctx = services.context;
  const testRun =
    // Read defensively: the activation test's stand-in host has neither.
    ctx.extensionMode === (vscode.ExtensionMode?.Test ?? 3) ||
    vscode.extensions?.getExtension(TEST_HOST) !== undefined;
  void offerWalkthroughOnce(
    ctx.globalState,
    () => vscode.commands.executeCommand('workbench.action.openWalkthrough', WALKTHROUGH_ID, false),
    testRun,
  ).catch((e: unknown) => services.log.warn(`Could not open the walkthrough: ${String(e)}`));
}

export function register(services: Services): vscode.Disposable[] {
  return createExplorer(services).disposables;
}
