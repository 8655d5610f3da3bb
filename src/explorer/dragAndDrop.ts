// Drag and drop in the workspace tree: folders, reports and workbooks dropped on a folder (or on
// "Workspace", the root) move there. In the startup bundle (the tree view takes the controller at
// creation), so it only carries nodes and hands the move to the lazily loaded command.
import * as vscode from 'vscode';
import { EXPLORER_VIEW_ID } from './ids';
import type { ExplorerNode } from './nodes/types';

const MIME = `application/vnd.code.tree.${EXPLORER_VIEW_ID.toLowerCase()}`;
const MOVE_COMMAND = 'dashboardPlatform.explorer.moveItems';

/** Whether a node is an item of the (own, not shared) workspace that can be moved. */
export function isMovable(n: ExplorerNode): boolean {
  if (!['folder', 'report', 'workbook'].includes(n.kind) || !n.data) return false;
  // Only items listed under "Workspace" (flat lists and the shared workspace are not places).
  for (let p = n.parent; p; p = p.parent) if (p.id.endsWith('/workspace')) return true;
  return false;
}

/** The folder (or the workspace root list) a drop lands in, or undefined when it is no place. */
export function dropPlace(target: ExplorerNode | undefined): ExplorerNode | undefined {
  for (let n = target; n; n = n.parent) {
    if (n.kind === 'folder' && isMovable(n)) return n;
    if (n.id.endsWith('/workspace')) return n;
    if (n.kind === 'deployment') return undefined;
  }
  return undefined;
}

export class WorkspaceDragAndDrop implements vscode.TreeDragAndDropController<ExplorerNode> {
  readonly dragMimeTypes = [MIME];
  readonly dropMimeTypes = [MIME];

  handleDrag(source: readonly ExplorerNode[], data: vscode.DataTransfer): void {
    const movable = source.filter(isMovable);
    if (movable.length > 0) data.set(MIME, new vscode.DataTransferItem(movable));
  }

  async handleDrop(target: ExplorerNode | undefined, data: vscode.DataTransfer): Promise<void> {
    const nodes = data.get(MIME)?.value as ExplorerNode[] | undefined;
    const place = dropPlace(target);
    if (!nodes || nodes.length === 0 || !place) return;
    // Dropped onto itself or where it already is: nothing to do.
    const moving = nodes.filter((n) => n !== place && n.parent !== place);
    if (moving.length === 0) return;
    if (
      new Set(moving.map((n) => n.deploymentId)).size > 1 ||
      moving[0]!.deploymentId !== place.deploymentId
    ) {
      void vscode.window.showWarningMessage('Items move only within the workspace of their own deployment.');
      return;
    }
    await vscode.commands.executeCommand(MOVE_COMMAND, { nodes: moving, target: place });
  }
}
