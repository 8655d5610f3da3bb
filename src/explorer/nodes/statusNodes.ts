// The rows a list shows besides its items: "Load more", an error with Retry, "empty", and notes.
import * as vscode from 'vscode';
import { ExplorerCommand } from '../ids';
import { plainText } from '../labels';
import type { InvalidItem } from '../../api/paging';
import { ExplorerNode } from './types';

export class LoadMoreNode extends ExplorerNode {
  readonly kind = 'loadMore';
  constructor(
    parent: ExplorerNode,
    private readonly shown: number,
  ) {
    // One id per list: the row stays in place (and selected) while pages are appended above it.
    super(`${parent.id}/~more`, parent);
  }
  toTreeItem(): vscode.TreeItem {
    const item = new vscode.TreeItem('Load more', vscode.TreeItemCollapsibleState.None);
    item.id = this.id;
    item.description = `${this.shown} shown`;
    item.iconPath = new vscode.ThemeIcon('fold-down');
    item.contextValue = 'dp.loadMore';
    item.tooltip = 'Fetch the next page';
    item.command = { command: ExplorerCommand.loadMore, title: 'Load more', arguments: [this.parent] };
    return item;
  }
}

export class ErrorNode extends ExplorerNode {
  readonly kind = 'error';
  constructor(
    parent: ExplorerNode,
    readonly message: string,
    private readonly retryable = true,
  ) {
    super(`${parent.id}/~error`, parent);
  }
  toTreeItem(): vscode.TreeItem {
    // Retryable: "Retry" leads the row, so it shows at any width (the message is the description
    // and the tooltip); the row's inline action and a click retry too.
    const item = new vscode.TreeItem(
      this.retryable ? 'Retry' : plainText(this.message, 300),
      vscode.TreeItemCollapsibleState.None,
    );
    item.id = this.id;
    item.iconPath = new vscode.ThemeIcon('error', new vscode.ThemeColor('errorForeground'));
    item.tooltip = plainText(this.message, 2000);
    if (this.retryable) {
      item.description = plainText(this.message, 300);
      item.contextValue = 'dp.error';
      item.command = { command: ExplorerCommand.retry, title: 'Retry', arguments: [this.parent] };
    } else {
      item.contextValue = 'dp.message';
    }
    return item;
  }
}

export class InfoNode extends ExplorerNode {
  readonly kind: 'empty' | 'info';
  constructor(
    parent: ExplorerNode,
    suffix: string,
    readonly label: string,
    kind: 'empty' | 'info' = 'info',
    private readonly icon = kind === 'empty' ? 'circle-slash' : 'info',
  ) {
    super(`${parent.id}/~${suffix}`, parent);
    this.kind = kind;
  }
  toTreeItem(): vscode.TreeItem {
    const item = new vscode.TreeItem(this.label, vscode.TreeItemCollapsibleState.None);
    item.id = this.id;
    item.iconPath = new vscode.ThemeIcon(this.icon);
    item.tooltip = this.label;
    item.contextValue = this.kind === 'empty' ? 'dp.empty' : 'dp.message';
    return item;
  }
}

/** An item of a page the client could not read: the rest of the page shows; this row says why. */
export class InvalidItemNode extends ExplorerNode {
  readonly kind = 'invalid';
  constructor(
    parent: ExplorerNode,
    ordinal: number,
    readonly item: InvalidItem,
  ) {
    super(`${parent.id}/~invalid-${ordinal}`, parent);
  }
  override get data(): Record<string, unknown> | undefined {
    const v = this.item.value;
    return typeof v === 'object' && v !== null && !Array.isArray(v)
      ? (v as Record<string, unknown>)
      : undefined;
  }
  toTreeItem(): vscode.TreeItem {
    const item = new vscode.TreeItem('Item not readable', vscode.TreeItemCollapsibleState.None);
    item.id = this.id;
    item.description = plainText(this.item.problem, 120);
    item.iconPath = new vscode.ThemeIcon('warning', new vscode.ThemeColor('problemsWarningIcon.foreground'));
    item.tooltip = plainText(
      `The service sent an item this version cannot read (${this.item.problem}). The other items are shown; "Open as JSON" shows this one as sent.`,
      2000,
    );
    item.contextValue = 'dp.invalidItem';
    return item;
  }
}
