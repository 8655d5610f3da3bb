// Registers the workspace's commands (one line in ExplorerCommands.register): each handler gets
// the clicked node and VS Code's multi-selection (the tree allows selecting many).
import type * as vscode from 'vscode';
import { COMMANDS, registerCommand } from '../commandRunner';
import type { ExplorerCommandDeps, ExplorerCommands } from '../explorer/explorerCommands';
import { ItemActions } from './itemActions';
import { WorkspaceActions } from './workspaceActions';

export interface WorkspaceCommands {
  workspace: WorkspaceActions;
  items: ItemActions;
}

export function registerWorkspaceCommands(
  c: ExplorerCommands,
  deps: ExplorerCommandDeps,
): vscode.Disposable[] {
  const confirm = (what: string) => c.actions.confirmWrite(what);
  const workspace = new WorkspaceActions(deps, c.targets, confirm, (d, kind) => c.listOf(d, kind));
  const items = new ItemActions(deps, c.targets, confirm, workspace);
  c.workspace = { workspace, items };
  const reg = (spec: { id: string; title: string }, fn: (arg?: unknown, all?: unknown) => unknown) =>
    registerCommand(deps.services, spec, fn as (...a: never[]) => unknown);
  return [
    reg(COMMANDS.explorerOpenItem, (a) => items.openItem(a)),
    reg(COMMANDS.explorerOpenReportSql, (a) => items.openReportSql(a)),
    reg(COMMANDS.explorerSaveReportSql, (a) => items.saveReportSql(a)),
    reg(COMMANDS.explorerOpenDashboard, (a) => items.openDashboard(a)),
    reg(COMMANDS.explorerCreateFolder, (a) => workspace.createFolder(a)),
    reg(COMMANDS.explorerRenameItem, (a, all) => workspace.rename(a, all)),
    reg(COMMANDS.explorerMoveItems, (a, all) => workspace.move(a, all)),
    reg(COMMANDS.explorerDeleteItems, (a, all) => workspace.delete(a, all)),
    reg(COMMANDS.explorerRevealInExplorer, (a) => workspace.reveal(a)),
    reg(COMMANDS.explorerCreateReport, (a) => items.createReport(a)),
    reg(COMMANDS.explorerRefreshReport, (a) => items.refreshReport(a)),
    reg(COMMANDS.explorerDisconnectReport, (a) => items.disconnectReport(a)),
    reg(COMMANDS.explorerOpenReportInNotebook, (a) => items.openInNotebook(a)),
    reg(COMMANDS.explorerCreateWorkbook, (a) => items.createWorkbook(a)),
    reg(COMMANDS.explorerChangeWorkbookSlug, (a) => items.changeSlug(a)),
    reg(COMMANDS.explorerUpsertWorkbookBySlug, (a) => items.upsertBySlug(a)),
    reg(COMMANDS.explorerShowEmbedAccess, (a) => items.showEmbedAccess(a)),
    reg(COMMANDS.explorerChangeEmbedAccess, (a) => items.changeEmbedAccess(a)),
  ];
}
