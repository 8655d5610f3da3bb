// Completions and hover in a branch's model files, from that branch's /v1/meta (its dev-mode
// Data API; the default branch's own Data API), refreshed after each validate.
import * as vscode from 'vscode';
import type { Meta, MetaCube } from '../api/schemas/data';
import type { Services } from '../services';
import { MODEL_SCHEME, parseModelUri } from './modelPaths';
import type { Mount, Mounts } from './mounts';
import { referenceAt, yamlContext } from './yamlContext';

export class ModelIntel implements vscode.CompletionItemProvider, vscode.HoverProvider, vscode.Disposable {
  private readonly metas = new Map<Mount, Promise<Meta>>();
  private readonly subs: vscode.Disposable[];

  constructor(
    private readonly services: Services,
    private readonly mounts: Mounts,
  ) {
    const selector: vscode.DocumentSelector = [
      { scheme: MODEL_SCHEME, language: 'yaml' },
      { scheme: MODEL_SCHEME, pattern: '**/*.{yml,yaml}' },
    ];
    this.subs = [
      vscode.languages.registerCompletionItemProvider(selector, this, '.', '{', ' '),
      vscode.languages.registerHoverProvider(selector, this),
    ];
  }

  /** Forget a branch's meta (after a save compiled it again). */
  invalidate(mount: Mount): void {
    this.metas.delete(mount);
  }

  private async cubes(doc: vscode.TextDocument): Promise<MetaCube[]> {
    const loc = parseModelUri(doc.uri.authority, doc.uri.path);
    const mount = loc && this.mounts.get(loc.deploymentId, loc.branch);
    if (!mount) return [];
    let meta = this.metas.get(mount);
    if (!meta) {
      meta = (async () => {
        const client = mount.isDefault
          ? await this.services.clients.data(mount.deploymentId)
          : await this.services.clients.devData(mount.deploymentId, mount.branch);
        return client.meta({ refresh: true });
      })();
      meta.catch(() => this.metas.delete(mount));
      this.metas.set(mount, meta);
    }
    try {
      return (await meta).cubes;
    } catch (e) {
      this.services.log.debug(`Model completions: no meta for ${mount.branch} (${(e as Error).message})`);
      return [];
    }
  }

  async provideCompletionItems(
    doc: vscode.TextDocument,
    pos: vscode.Position,
  ): Promise<vscode.CompletionItem[]> {
    const lines = doc.getText().split(/\r?\n/);
    const ctx = yamlContext(lines, pos.line, lines[pos.line]!.slice(0, pos.character));
    if (!ctx) return [];
    const cubes = await this.cubes(doc);
    const range = new vscode.Range(pos.translate(0, -ctx.prefix.length), pos);
    if (ctx.kind === 'cube') {
      return cubes.map((c) => {
        const item = new vscode.CompletionItem(c.name, vscode.CompletionItemKind.Class);
        item.detail = c.title ?? 'cube';
        item.documentation = c.description ?? undefined;
        item.range = range;
        return item;
      });
    }
    const cube = cubes.find((c) => c.name === ctx.cube);
    if (!cube) return [];
    const short = (name: string) => name.slice(name.indexOf('.') + 1);
    const members = [
      ...cube.measures.map((m) => ({ m, kind: 'measure', icon: vscode.CompletionItemKind.Value })),
      ...cube.dimensions.map((m) => ({ m, kind: 'dimension', icon: vscode.CompletionItemKind.Field })),
    ];
    return members.map(({ m, kind, icon }) => {
      const item = new vscode.CompletionItem(short(m.name), icon);
      item.detail = `${kind}${m.type ? ` · ${m.type}` : ''}${m.title ? ` · ${m.title}` : ''}`;
      item.documentation = m.description ?? undefined;
      item.range = range;
      return item;
    });
  }

  async provideHover(doc: vscode.TextDocument, pos: vscode.Position): Promise<vscode.Hover | undefined> {
    const lines = doc.getText().split(/\r?\n/);
    const ref = referenceAt(lines, pos.line, pos.character);
    if (!ref) return undefined;
    const cube = (await this.cubes(doc)).find((c) => c.name === ref.cube);
    if (!cube) return undefined;
    const md = new vscode.MarkdownString();
    if (!ref.member) {
      md.appendMarkdown(`**${cube.title ?? cube.name}** (cube \`${cube.name}\`)`);
      md.appendMarkdown(`\n\n${cube.measures.length} measures, ${cube.dimensions.length} dimensions`);
    } else {
      const full = `${cube.name}.${ref.member}`;
      const measure = cube.measures.find((m) => m.name === full);
      const m = measure ?? cube.dimensions.find((d) => d.name === full);
      if (!m) return undefined;
      md.appendMarkdown(
        `**${m.title ?? full}** · ${measure ? 'measure' : 'dimension'}${m.type ? ` · ${m.type}` : ''}`,
      );
      md.appendMarkdown(`\n\n\`${full}\``);
    }
    const desc = ref.member ? undefined : cube.description;
    if (desc) md.appendMarkdown(`\n\n${desc}`);
    return new vscode.Hover(md);
  }

  dispose(): void {
    for (const s of this.subs) s.dispose();
  }
}
