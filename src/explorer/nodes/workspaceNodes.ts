// A deployment's workspace as the platform shows it: one paged feed per folder (folders first,
// then workbooks and reports), and the shared workspace (what embed users were given). Reports and
// workbooks here are the same node kinds as in the flat lists, so every action on them applies.
import * as vscode from 'vscode';
import type { Item } from '../loaders';
import { displayName, plainText, tooltipLines } from '../labels';
import { ListNode, type ItemNodeFactory } from './listNode';
import { ItemNode, OpenableItemNode } from './itemNodes';
import { ago, reportLook, safeTooltip, when, workbookLook } from './render';
import type { TreeContext } from './types';

export { OPEN_ITEM_COMMAND } from './itemNodes';

/** A report or workbook of the workspace tree: it opens on click. */
export class WorkspaceItemNode extends OpenableItemNode {}

function folderPresentation(item: Item, shared: boolean) {
  const updated = ago(item['updatedAt']);
  return {
    label: displayName(item),
    ...(updated !== undefined ? { description: updated } : {}),
    icon: vscode.ThemeIcon.Folder,
    // Shared folders are navigation only: no write actions on them.
    contextValue: shared ? 'dp.folder.shared' : 'dp.folder.ws',
    tooltip: safeTooltip(tooltipLines(displayName(item), [['updated', when(item['updatedAt'])]])),
    emptyLabel: 'Empty folder',
  };
}

/** The feed's item factory: folders are lists of their own items; the rest open on click. */
export function workspaceItem(ctx: TreeContext, shared: boolean): ItemNodeFactory {
  const make: ItemNodeFactory = (list, item) => {
    const type = String(item['type'] ?? '');
    const id = Number(item['id']);
    if (type === 'FOLDER') {
      return new ListNode(
        ctx,
        `${list.id}/folder:${id}`,
        list,
        'folder',
        { kind: shared ? 'sharedWorkspace' : 'workspace', deploymentId: list.deploymentId, folderId: id },
        () => folderPresentation(item, shared),
        make,
        item,
      );
    }
    if (type === 'REPORT') return new WorkspaceItemNode('report', list, item, (i) => reportLook(i, true));
    if (type === 'WORKBOOK')
      return new WorkspaceItemNode('workbook', list, item, (i) => workbookLook(i, true));
    // A kind this version does not know: shown as sent (Open as JSON shows everything).
    return new ItemNode('info', list, item, (i) => ({
      label: displayName(i),
      description: plainText(type || 'unknown type'),
      icon: new vscode.ThemeIcon('question'),
      contextValue: 'dp.wsUnknown',
      tooltip: safeTooltip(tooltipLines(displayName(i), [['type', type]])),
    }));
  };
  return make;
}
