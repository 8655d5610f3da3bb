// The explorer feature: the tree view of the active profile's platform and its commands. The view
// is registered at activation with a shell provider: the tree's code (dist/tree.js) loads when
// VS Code first asks for a row, its loaders reach the HTTP stack on first expand, and the commands,
// with their flows and write actions, load on first use.
import * as vscode from 'vscode';
import { COMMANDS } from '../commands';
import { commandIds, LazyFeature, lazyModule } from '../lazy';
import type { Services } from '../services';
import type { ExplorerCommands } from './explorerCommands';
import type { ExplorerProvider } from './explorerProvider';
import type * as ExplorerProviderModule from './explorerProvider';
import { EXPLORER_VIEW_ID, PAGE_SIZE_SETTING } from './ids';
import { JSON_SCHEME, JsonDocumentProvider } from './jsonDocumentProvider';
import { ReportDocuments } from '../workspace/reportDocuments';
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
  /** Answers the flows' questions from `answers` until `restore()` (tests drive flows with it). */
  script(answers: (string | number | boolean | undefined | string[])[], confirm?: boolean): ScriptedPrompter;
  usePrompter(p: Prompter | undefined): void;
}

export function createExplorer(services: Services): { api: ExplorerApi; disposables: vscode.Disposable[] } {
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
  // Registered now so report tabs restored with the window read their SQL again.
  const reports = new ReportDocuments();
  let commandsModule: typeof ExplorerCommandsModule | undefined;
  const commands = new LazyFeature(commandIds(COMMANDS, 'dashboardPlatform.explorer.'), () => {
    const mod = (commandsModule = lazyModule<typeof ExplorerCommandsModule>(
      'src/explorer/explorerCommands.ts',
    ));
    const c = new mod.ExplorerCommands({ services, provider: tree.provider, view, json, reports });
    services.context.subscriptions.push(...c.register());
    return c;
  });
  reports.useSource(async () => commands.get().workspace!.items.reportSource());
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
    reports,
    ...reports.register(),
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
      const c = commands.get();
      const p = new commandsModule!.ScriptedPrompter(answers, confirm);
      c.usePrompter(p);
      return p;
    },
    usePrompter: (p) => commands.get().usePrompter(p),
  };
  offerWalkthrough(services);
  return { api, disposables };
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
