// The workspace feature, loaded on first use of one of its commands (index.ts registers their
// shims and the report documents): folders, reports and workbooks created, renamed, moved,
// deleted and revealed; a report's SQL opened and saved; workbooks duplicated, re-slugged and
// shared. Each handler gets the clicked node and VS Code's multi-selection (the tree allows
// selecting many).
import type * as vscode from 'vscode';
import { COMMANDS, registerCommand } from '../commandRunner';
import { explorerContext, type ExplorerHost } from '../explorer/context';
import { ItemActions } from './itemActions';
import type { ReportDocuments } from './reportDocuments';
import { WorkspaceActions } from './workspaceActions';

export interface WorkspaceFeature {
  workspace: WorkspaceActions;
  items: ItemActions;
}

export function createWorkspaceFeature(
  host: ExplorerHost,
  reports: ReportDocuments,
): { feature: WorkspaceFeature; disposables: vscode.Disposable[] } {
  const ctx = explorerContext(host);
  const workspace = new WorkspaceActions(ctx);
  const items = new ItemActions(ctx, reports, workspace);
  const reg = (spec: { id: string; title: string }, fn: (arg?: unknown, all?: unknown) => unknown) =>
    registerCommand(host.services, spec, fn as (...a: never[]) => unknown);
  const disposables = [
    reg(COMMANDS.workspaceOpenItem, (a) => items.openItem(a)),
    reg(COMMANDS.workspaceOpenReportSql, (a) => items.openReportSql(a)),
    reg(COMMANDS.workspaceSaveReportSql, (a) => items.saveReportSql(a)),
    reg(COMMANDS.workspaceOpenDashboard, (a) => items.openDashboard(a)),
    reg(COMMANDS.workspaceCreateFolder, (a) => workspace.createFolder(a)),
    reg(COMMANDS.workspaceRenameItem, (a, all) => workspace.rename(a, all)),
    reg(COMMANDS.workspaceMoveItems, (a, all) => workspace.move(a, all)),
    reg(COMMANDS.workspaceDeleteItems, (a, all) => workspace.delete(a, all)),
    reg(COMMANDS.workspaceRevealInExplorer, (a) => workspace.reveal(a)),
    reg(COMMANDS.workspaceCreateReport, (a) => items.createReport(a)),
    reg(COMMANDS.workspaceRefreshReport, (a) => items.refreshReport(a)),
    reg(COMMANDS.workspaceDisconnectReport, (a) => items.disconnectReport(a)),
    reg(COMMANDS.workspaceConnectReport, (a) => items.connectReport(a)),
    reg(COMMANDS.workspaceOpenReportInNotebook, (a) => items.openInNotebook(a)),
    reg(COMMANDS.workspaceCreateWorkbook, (a) => items.createWorkbook(a)),
    reg(COMMANDS.workspaceDuplicateWorkbook, (a) => items.duplicateWorkbook(a)),
    reg(COMMANDS.workspaceChangeWorkbookSlug, (a) => items.changeSlug(a)),
    reg(COMMANDS.workspaceUpsertWorkbookBySlug, (a) => items.upsertBySlug(a)),
    reg(COMMANDS.workspaceShowEmbedAccess, (a) => items.showEmbedAccess(a)),
    reg(COMMANDS.workspaceChangeEmbedAccess, (a) => items.changeEmbedAccess(a)),
  ];
  return { feature: { workspace, items }, disposables };
}
