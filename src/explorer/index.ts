// The explorer feature: the tree view of the active profile's platform and its commands. The tree
// is registered at activation (its loaders reach the HTTP stack on first expand); the commands, with
// their flows and write actions, load on first use.
import * as vscode from 'vscode';
import { COMMANDS } from '../commands';
import { commandIds, LazyFeature, lazyModule } from '../lazy';
import type { Services } from '../services';
import type { ExplorerCommands } from './explorerCommands';
import { ExplorerProvider, PAGE_SIZE_SETTING } from './explorerProvider';
import { EXPLORER_VIEW_ID } from './ids';
import { JSON_SCHEME, JsonDocumentProvider } from './jsonDocumentProvider';
import type { ExplorerNode } from './nodes/types';
import { ScriptedPrompter, type Prompter } from './prompter';
import type * as ExplorerCommandsModule from './explorerCommands';
import { WorkspaceDragAndDrop } from './workspace/dragAndDrop';

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
  const provider = new ExplorerProvider(
    () => services.clients.platform(),
    () => services.profiles.active() !== undefined,
  );
  const dragAndDrop = new WorkspaceDragAndDrop();
  const view = vscode.window.createTreeView(EXPLORER_VIEW_ID, {
    treeDataProvider: provider,
    showCollapseAll: true,
    // Move and delete take several items; single-item commands act on the clicked one.
    canSelectMany: true,
    dragAndDropController: dragAndDrop,
  });
  const json = new JsonDocumentProvider();
  const commands = new LazyFeature(commandIds(COMMANDS, 'dashboardPlatform.explorer.'), () => {
    const mod = lazyModule<typeof ExplorerCommandsModule>('src/explorer/explorerCommands.ts');
    const c = new mod.ExplorerCommands({ services, provider, view, json });
    services.context.subscriptions.push(...c.register());
    return c;
  });
  const updateDescription = () => {
    view.description = provider.description();
    // Shows the "clear" entries of the view's title menu only while a search, sort or filter is active.
    void vscode.commands.executeCommand(
      'setContext',
      'dashboardPlatform.explorer.hasQuery',
      !!view.description,
    );
  };
  const disposables: vscode.Disposable[] = [
    provider,
    view,
    json,
    vscode.workspace.registerTextDocumentContentProvider(JSON_SCHEME, json),
    commands,
    provider.onDidChangeDescription(updateDescription),
    services.clients.onDidChange(() => provider.refresh()),
    vscode.workspace.onDidChangeConfiguration((e) => {
      if (e.affectsConfiguration(PAGE_SIZE_SETTING)) provider.refresh();
    }),
  ];
  const api: ExplorerApi = {
    provider,
    view,
    dragAndDrop,
    get commands() {
      return commands.get();
    },
    script(answers, confirm = true) {
      const p = new ScriptedPrompter(answers, confirm);
      commands.get().usePrompter(p);
      return p;
    },
    usePrompter: (p) => commands.get().usePrompter(p),
  };
  return { api, disposables };
}

export function register(services: Services): vscode.Disposable[] {
  return createExplorer(services).disposables;
}
