// The tree view's data provider as activation registers it: a shell that loads the explorer's
// tree (its nodes, their looks and loaders: dist/tree.js) the first time VS Code asks for a row,
// so activation does not load the tree's code, and a window whose view is closed never does.
// Every call after that goes to the real provider (explorerProvider.ts), whose change events the
// shell passes on.
import * as vscode from 'vscode';
import type { ExplorerProvider } from './explorerProvider';
import type { ExplorerNode } from './nodes/types';

export class ExplorerTreeShell implements vscode.TreeDataProvider<ExplorerNode>, vscode.Disposable {
  private real: ExplorerProvider | undefined;
  private readonly emitter = new vscode.EventEmitter<ExplorerNode | undefined>();
  readonly onDidChangeTreeData = this.emitter.event;
  private readonly descriptionEmitter = new vscode.EventEmitter<string | undefined>();
  /** Fires with the new view description when a search, sort or filter changes. */
  readonly onDidChangeDescription = this.descriptionEmitter.event;
  private readonly subscriptions: vscode.Disposable[] = [this.emitter, this.descriptionEmitter];

  constructor(private readonly create: () => ExplorerProvider) {}

  /** The real provider, loaded now if it was not yet. */
  get provider(): ExplorerProvider {
    if (!this.real) {
      const real = this.create();
      this.subscriptions.push(
        real,
        real.onDidChangeTreeData((n) => this.emitter.fire(n)),
        real.onDidChangeDescription((d) => this.descriptionEmitter.fire(d)),
      );
      this.real = real;
    }
    return this.real;
  }

  getTreeItem(node: ExplorerNode): vscode.TreeItem {
    return node.toTreeItem();
  }

  getChildren(node?: ExplorerNode): ExplorerNode[] | Promise<ExplorerNode[]> {
    return this.provider.getChildren(node);
  }

  getParent(node: ExplorerNode): ExplorerNode | undefined {
    return node.parent;
  }

  /** Starts the tree over; nothing to do while no row was ever asked for. */
  refresh(): void {
    this.real?.refresh();
  }

  /** The view description (active searches and filters); none before the tree loads. */
  description(): string | undefined {
    return this.real?.description();
  }

  dispose(): void {
    for (const d of this.subscriptions.splice(0)) d.dispose();
  }
}
