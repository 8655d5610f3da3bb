// A node whose children are one paged server list (a group such as "Reports", or an item that is
// also a list, such as a folder and its subfolders). It owns the list's paging state; refreshing it
// touches nothing else in the tree.
import * as vscode from 'vscode';
import { isApiError } from '../../api/errors';
import { fetcherFor, itemKey, singlePageReason, type Item, type ListSpec } from '../loaders';
import { loadCurrent, PagedList } from '../pagedList';
import { ErrorNode, InfoNode, InvalidItemNode, LoadMoreNode } from './statusNodes';
import { ExplorerNode, type NodeKind, type TreeContext } from './types';

export interface ListPresentation {
  label: string;
  description?: string;
  tooltip?: string | vscode.MarkdownString;
  icon: vscode.ThemeIcon;
  contextValue: string;
  /** Shown as the only child when the list has no items, e.g. "No reports". */
  emptyLabel: string;
  expanded?: boolean;
  /** Run on click (e.g. a notification opens its details). */
  command?: vscode.Command;
}

export type ItemNodeFactory = (list: ListNode, item: Item) => ExplorerNode;

/**
 * The factory of items that are lists too (an environment's tokens, an embed group's members): the
 * row looks like the item and expands to the list `spec` names, its entries made by `makeItem`.
 */
export function itemWithList(
  ctx: TreeContext,
  kind: NodeKind,
  spec: (list: ListNode, item: Item) => ListSpec,
  look: (item: Item) => Omit<ListPresentation, 'emptyLabel'>,
  emptyLabel: string,
  makeItem: ItemNodeFactory,
): ItemNodeFactory {
  return (list, item) =>
    new ListNode(
      ctx,
      `${list.id}/${kind}:${String(item['id'])}`,
      list,
      kind,
      spec(list, item),
      () => ({ ...look(item), emptyLabel }),
      makeItem,
      item,
    );
}

export class ListNode extends ExplorerNode {
  private list: PagedList<Item>;
  /** Item nodes by id: the same object is returned on every render, so expansion state survives. */
  private readonly nodes = new Map<string, ExplorerNode>();

  constructor(
    protected readonly ctx: TreeContext,
    id: string,
    parent: ExplorerNode | undefined,
    readonly kind: NodeKind,
    private spec: ListSpec,
    private readonly present: (self: ListNode) => ListPresentation,
    private readonly makeItem: ItemNodeFactory,
    private readonly item?: Item,
  ) {
    super(id, parent);
    this.list = this.createList();
  }

  override get data(): Item | undefined {
    return this.item;
  }

  override get deploymentId(): number | undefined {
    return this.spec.deploymentId ?? super.deploymentId;
  }

  get listSpec(): Readonly<ListSpec> {
    return this.spec;
  }

  /** The paging state, for tests and the "Load more" command. */
  get paging(): PagedList<Item> {
    return this.list;
  }

  /** Replaces the query (search, sort, filter) and starts again from the first page. */
  setSpec(spec: ListSpec): void {
    this.spec = spec;
    this.reset();
  }

  override reset(): void {
    this.list.dispose();
    this.nodes.clear();
    this.list = this.createList();
  }

  private createList(): PagedList<Item> {
    const reason = singlePageReason(this.spec);
    return new PagedList<Item>(
      fetcherFor(this.spec, () => this.ctx.client()),
      {
        pageSize: this.ctx.pageSize(),
        ...(reason !== undefined ? { singlePageReason: reason } : {}),
      },
    );
  }

  toTreeItem(): vscode.TreeItem {
    const p = this.present(this);
    const item = new vscode.TreeItem(
      p.label,
      p.expanded ? vscode.TreeItemCollapsibleState.Expanded : vscode.TreeItemCollapsibleState.Collapsed,
    );
    item.id = this.id;
    if (p.description !== undefined) item.description = p.description;
    if (p.tooltip !== undefined) item.tooltip = p.tooltip;
    item.iconPath = p.icon;
    item.contextValue = p.contextValue;
    if (p.command) item.command = p.command;
    return item;
  }

  override async getChildren(): Promise<ExplorerNode[]> {
    await loadCurrent(() => this.list);
    return this.renderChildren();
  }

  /** The children as they are now, without fetching. */
  renderChildren(): ExplorerNode[] {
    const snap = this.list.snapshot();
    const out: ExplorerNode[] = snap.items.map((it) => this.nodeFor(it));
    snap.invalid.forEach((bad, i) => out.push(new InvalidItemNode(this, i, bad)));
    if (snap.status === 'error') {
      const e = snap.error;
      if (isApiError(e) && e.kind === 'forbidden') {
        // One node, no retry: a non-admin token stays non-admin.
        out.push(new ErrorNode(this, e.message, false));
      } else {
        out.push(new ErrorNode(this, e instanceof Error ? e.message : String(e)));
      }
    } else if (snap.hasMore) {
      out.push(new LoadMoreNode(this, snap.items.length));
    } else if (snap.truncatedReason !== undefined) {
      out.push(new InfoNode(this, 'truncated', snap.truncatedReason));
    } else if (snap.status === 'ready' && snap.items.length === 0 && snap.invalid.length === 0) {
      out.push(new InfoNode(this, 'empty', this.present(this).emptyLabel, 'empty'));
    }
    return out;
  }

  /** Loads the next page and tells the view that only this list changed. */
  async loadMore(): Promise<void> {
    await this.list.loadMore();
    this.ctx.changed(this);
  }

  /** Repeats the failed request and re-renders this list only. */
  async retry(): Promise<void> {
    await this.list.retry();
    this.ctx.changed(this);
  }

  private nodeFor(item: Item): ExplorerNode {
    const key = itemKey(item);
    let node = this.nodes.get(key);
    if (!node) {
      node = this.makeItem(this, item);
      this.nodes.set(key, node);
    }
    return node;
  }
}
