// Nodes for single server objects, and the factories each list uses to build them. Folders and
// notifications are items that are lists too (subfolders; recipients).
import * as vscode from 'vscode';
import { itemKey, type Item } from '../loaders';
import { notificationLook } from '../notifications/notificationLook';
import { ListNode, type ItemNodeFactory } from './listNode';
import {
  envVarLook,
  environmentLook,
  folderLook,
  recipientLook,
  reportLook,
  userLook,
  workbookLook,
  lookTreeItem,
  type Look,
} from './render';
import { ExplorerNode, type NodeKind, type TreeContext } from './types';

export class ItemNode extends ExplorerNode {
  constructor(
    readonly kind: NodeKind,
    parent: ExplorerNode,
    private readonly item: Item,
    private readonly look: (i: Item) => Look,
  ) {
    super(`${parent.id}/${kind}:${itemKey(item)}`, parent);
  }

  override get data(): Item {
    return this.item;
  }

  toTreeItem(): vscode.TreeItem {
    const l = this.look(this.item);
    const t = lookTreeItem(this.id, l, vscode.TreeItemCollapsibleState.None);
    return t;
  }
}

/** The command a click on a report or workbook runs (it opens the item). */
export const OPEN_ITEM_COMMAND = 'dashboardPlatform.explorer.openItem';

/** A report or workbook that opens on click (a report's read-only SQL, a workbook's dashboard). */
export class OpenableItemNode extends ItemNode {
  override toTreeItem(): vscode.TreeItem {
    const t = super.toTreeItem();
    t.command = { command: OPEN_ITEM_COMMAND, title: 'Open', arguments: [this] };
    return t;
  }
}

function leaf(kind: NodeKind, look: (i: Item) => Look): ItemNodeFactory {
  return (list, item) => new ItemNode(kind, list, item, look);
}

export const environmentItem = leaf('environment', environmentLook);
export const reportItem: ItemNodeFactory = (list, item) =>
  new OpenableItemNode('report', list, item, reportLook);
export const workbookItem: ItemNodeFactory = (list, item) =>
  new OpenableItemNode('workbook', list, item, workbookLook);
export const envVarItem = leaf('envVar', envVarLook);
export const userItem = leaf('user', userLook);
export const recipientItem = leaf('recipient', recipientLook);

/** A folder: an item whose children are its subfolders (one paged request each level). */
export function folderItem(ctx: TreeContext): ItemNodeFactory {
  const make: ItemNodeFactory = (list, item) => {
    const id = Number(item['id']);
    return new ListNode(
      ctx,
      `${list.id}/folder:${id}`,
      list,
      'folder',
      { kind: 'folders', deploymentId: list.deploymentId, parentId: id },
      () => {
        const l = folderLook(item);
        return { ...l, emptyLabel: 'No subfolders' };
      },
      make,
      item,
    );
  };
  return make;
}

/** A notification: an item whose children are its recipients. */
export function notificationItem(ctx: TreeContext): ItemNodeFactory {
  return (list, item) => {
    const id = Number(item['id']);
    return new ListNode(
      ctx,
      `${list.id}/notification:${id}`,
      list,
      'notification',
      { kind: 'recipients', deploymentId: list.deploymentId, notificationId: id },
      (self) => ({ ...notificationLook(item, self), emptyLabel: 'No recipients' }),
      recipientItem,
      item,
    );
  };
}
