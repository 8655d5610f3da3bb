// "App config" at the top of the tree: expands into the app config read readably (theme, creator
// mode with its localized titles, embedding, time zone, Sheets UI, flags), one row per field, from
// one GET /v1/app-config per expansion (Refresh fetches again). The JSON stays one command away
// (Show App Config). The published API has no write for the app config, so the rows are read-only.
import * as vscode from 'vscode';
import { plainText } from '../labels';
import { ErrorNode } from '../nodes/statusNodes';
import { ExplorerNode, type TreeContext } from '../nodes/types';
import { fixedTreeItem, safeTooltip } from '../nodes/render';
import { appConfigRows, type ConfigRow } from './appConfigRows';

const esc = (s: string) => s.replace(/[\\`*_{}[\]()#+\-.!|<>]/g, '\\$&');

export class ConfigValueNode extends ExplorerNode {
  readonly kind = 'appConfigValue';
  constructor(
    parent: ExplorerNode,
    readonly row: ConfigRow,
  ) {
    super(`${parent.id}/${row.key}`, parent);
  }
  override get data(): Record<string, unknown> {
    return { id: this.row.key, name: this.row.label, value: this.row.raw };
  }
  toTreeItem(): vscode.TreeItem {
    const r = this.row;
    const t = new vscode.TreeItem(
      plainText(r.label),
      r.children ? vscode.TreeItemCollapsibleState.Collapsed : vscode.TreeItemCollapsibleState.None,
    );
    t.id = this.id;
    const desc = [r.value, r.note ? `(${r.note})` : undefined].filter((x) => x !== undefined).join(' ');
    if (desc) t.description = plainText(desc, 200);
    t.iconPath = new vscode.ThemeIcon(
      r.note ? 'warning' : r.children ? 'symbol-namespace' : 'symbol-field',
      r.note ? new vscode.ThemeColor('list.warningForeground') : undefined,
    );
    t.contextValue = r.children ? 'dp.appConfigSection' : 'dp.appConfigValue';
    const raw = JSON.stringify(r.raw, null, 2) ?? 'undefined';
    t.tooltip = safeTooltip(
      `**${esc(plainText(r.label))}**${r.note ? ` — ${esc(r.note)}` : ''}\n\n\`\`\`json\n${plainText(raw, 1500).replace(/`/g, "'")}\n\`\`\``,
    );
    return t;
  }
  override getChildren(): ExplorerNode[] {
    return (this.row.children ?? []).map((c) => new ConfigValueNode(this, c));
  }
}

export class AppConfigNode extends ExplorerNode {
  readonly kind = 'appConfig';
  private cached: Promise<ExplorerNode[]> | undefined;
  constructor(private readonly ctx?: TreeContext) {
    super('app-config', undefined);
  }
  toTreeItem(): vscode.TreeItem {
    return fixedTreeItem(
      this.id,
      {
        label: 'App config',
        icon: 'settings',
        contextValue: 'dp.appConfig',
        tooltip:
          'The app configuration (theme, creator mode, embedding, time zone). Read-only: the published API has no operation that changes it. Show App Config opens it as JSON.',
      },
      vscode.TreeItemCollapsibleState.Collapsed,
    );
  }
  override getChildren(): Promise<ExplorerNode[]> {
    this.cached ??= this.load();
    return this.cached;
  }
  override reset(): void {
    this.cached = undefined;
  }
  private async load(): Promise<ExplorerNode[]> {
    try {
      const client = await this.ctx?.client();
      if (!client?.getAppConfig) return [];
      const rows = appConfigRows(await client.getAppConfig());
      return rows.map((r) => new ConfigValueNode(this, r));
    } catch (e) {
      // Not cached: the next expansion (or Refresh) asks again.
      this.cached = undefined;
      return [
        new ErrorNode(this, `${e instanceof Error ? e.message : String(e)} Refresh to try again.`, false),
      ];
    }
  }
}
