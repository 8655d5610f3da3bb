// What every picture of the screenshot walk starts from: a clean window.
import * as vscode from 'vscode';

const run = (command: string) => vscode.commands.executeCommand(command);

/**
 * Closes every editor (reverting untitled notebooks, so closing asks nothing), panel and
 * notification; the side bar is closed, or shows the Dashboard Platform view with `sideBar`.
 */
export async function clean({ sideBar = false } = {}): Promise<void> {
  for (let i = 0; i < 20 && vscode.window.visibleNotebookEditors.length > 0; i++) {
    await vscode.window.showNotebookDocument(vscode.window.visibleNotebookEditors[0]!.notebook);
    await run('workbench.action.revertAndCloseActiveEditor');
  }
  await run('workbench.action.closeAllEditors');
  await run('workbench.action.closePanel');
  await run('workbench.action.closeAuxiliaryBar');
  await run(sideBar ? 'workbench.view.extension.dashboardPlatform' : 'workbench.action.closeSidebar');
  await run('notifications.clearAll');
}
