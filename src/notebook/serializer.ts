// NotebookSerializer for *.dpnb. A file that cannot be parsed throws (VS Code then shows the error
// and opens no editable notebook, so a save cannot overwrite the file).
import * as vscode from 'vscode';
import {
  FORMAT_VERSION,
  PLATFORM_SQL,
  parseNotebook,
  stringifyNotebook,
  type CellKind,
  type FileCell,
  type NotebookFile,
  type SavedOutput,
} from './notebookFormat';

const dec = new TextDecoder();
const enc = new TextEncoder();

export interface SerializerSettings {
  saveOutputs(): boolean;
  maxSavedOutputBytes(): number;
}

export function settingsFromConfig(): SerializerSettings {
  const cfg = () => vscode.workspace.getConfiguration('dashboardPlatform.notebook');
  return {
    saveOutputs: () => cfg().get<boolean>('saveOutputs', false),
    maxSavedOutputBytes: () => cfg().get<number>('maxSavedOutputBytes', 1_000_000),
  };
}

export function languageOf(kind: CellKind): string {
  return kind === 'sql' ? PLATFORM_SQL : kind === 'json' ? 'json' : 'markdown';
}

export function kindOf(cell: vscode.NotebookCellData): CellKind {
  if (cell.kind === vscode.NotebookCellKind.Markup) return 'markdown';
  return cell.languageId === 'json' || cell.languageId === 'jsonc' ? 'json' : 'sql';
}

export class DpnbSerializer implements vscode.NotebookSerializer {
  constructor(private readonly settings: SerializerSettings) {}

  deserializeNotebook(content: Uint8Array): vscode.NotebookData {
    const file = parseNotebook(dec.decode(content)); // throws NotebookParseError with line/column
    const cells = file.cells.map((c) => {
      const data = new vscode.NotebookCellData(
        c.kind === 'markdown' ? vscode.NotebookCellKind.Markup : vscode.NotebookCellKind.Code,
        c.source,
        languageOf(c.kind),
      );
      if (c.metadata) data.metadata = c.metadata;
      if (c.outputs) {
        data.outputs = c.outputs.map(
          (items) =>
            new vscode.NotebookCellOutput(
              items.map((i) => new vscode.NotebookCellOutputItem(enc.encode(i.data), i.mime)),
            ),
        );
      }
      return data;
    });
    const nb = new vscode.NotebookData(cells);
    nb.metadata = { ...file.metadata };
    return nb;
  }

  serializeNotebook(data: vscode.NotebookData): Uint8Array {
    return enc.encode(stringifyNotebook(toFile(data, this.settings)));
  }
}

export function toFile(data: vscode.NotebookData, settings: SerializerSettings): NotebookFile {
  const save = settings.saveOutputs();
  let budget = settings.maxSavedOutputBytes();
  const meta = (data.metadata ?? {}) as Record<string, unknown>;
  return {
    version: FORMAT_VERSION,
    metadata: {
      ...(typeof meta.profile === 'string' ? { profile: meta.profile } : {}),
      ...(typeof meta.deploymentId === 'number' ? { deploymentId: meta.deploymentId } : {}),
    },
    cells: data.cells.map((c): FileCell => {
      const cell: FileCell = { kind: kindOf(c), source: c.value };
      const md =
        c.metadata && Object.fromEntries(Object.entries(c.metadata).filter(([k]) => k !== 'execution'));
      if (md && Object.keys(md).length > 0) cell.metadata = md;
      if (save && c.outputs && c.outputs.length > 0) {
        const outputs: SavedOutput[][] = [];
        for (const o of c.outputs) {
          const items: SavedOutput[] = [];
          for (const i of o.items) {
            if (i.data.byteLength > budget) continue; // over the cap: dropped, the cell re-runs
            budget -= i.data.byteLength;
            items.push({ mime: i.mime, data: dec.decode(i.data) });
          }
          if (items.length > 0) outputs.push(items);
        }
        if (outputs.length > 0) cell.outputs = outputs;
      }
      return cell;
    }),
  };
}
