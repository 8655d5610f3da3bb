// NotebookSerializer for *.dpnb. A file that cannot be parsed throws (VS Code then shows the error
// and opens no editable notebook, so a save cannot overwrite the file).
import * as vscode from 'vscode';
import {
  CELL_KEYS,
  decodeNotebook,
  FILE_KEYS,
  FORMAT_VERSION,
  PLATFORM_SQL,
  parseNotebook,
  unknownKeys,
  stringifyNotebook,
  type CellKind,
  type FileCell,
  type NotebookFile,
  type SavedOutput,
} from './notebookFormat';

const dec = new TextDecoder();
const enc = new TextEncoder();

/**
 * Where keys of the file this version does not know ride along in VS Code's metadata (of the
 * notebook, of a cell) between open and save.
 */
export const EXTRA_KEY = 'dpnbUnknownKeys';

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
    // Both throw NotebookParseError with line/column (invalid UTF-8 is refused, not replaced).
    const file = parseNotebook(decodeNotebook(content));
    const cells = file.cells.map((c) => {
      const data = new vscode.NotebookCellData(
        c.kind === 'markdown' ? vscode.NotebookCellKind.Markup : vscode.NotebookCellKind.Code,
        c.source,
        languageOf(c.kind),
      );
      const extra = unknownKeys(c, CELL_KEYS);
      if (c.metadata || extra) data.metadata = { ...c.metadata, ...(extra ? { [EXTRA_KEY]: extra } : {}) };
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
    const extra = unknownKeys(file, FILE_KEYS);
    nb.metadata = { ...file.metadata, ...(extra ? { [EXTRA_KEY]: extra } : {}) };
    return nb;
  }

  serializeNotebook(data: vscode.NotebookData): Uint8Array {
    return enc.encode(stringifyNotebook(toFile(data, this.settings)));
  }
}

export function toFile(data: vscode.NotebookData, settings: SerializerSettings): NotebookFile {
  const save = settings.saveOutputs();
  let budget = settings.maxSavedOutputBytes();
  const { [EXTRA_KEY]: fileExtra, ...meta } = (data.metadata ?? {}) as Record<string, unknown>;
  return {
    ...asRecord(fileExtra),
    version: FORMAT_VERSION,
    metadata: {
      ...unknownKeys(meta, ['profile', 'deploymentId']),
      ...(typeof meta.profile === 'string' ? { profile: meta.profile } : {}),
      ...(typeof meta.deploymentId === 'number' ? { deploymentId: meta.deploymentId } : {}),
    },
    cells: data.cells.map((c): FileCell => {
      const { [EXTRA_KEY]: cellExtra, ...cellMeta } = (c.metadata ?? {}) as Record<string, unknown>;
      const cell: FileCell = { ...asRecord(cellExtra), kind: kindOf(c), source: c.value };
      const md = Object.fromEntries(Object.entries(cellMeta).filter(([k]) => k !== 'execution'));
      if (Object.keys(md).length > 0) cell.metadata = md;
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

function asRecord(v: unknown): Record<string, unknown> {
  return v && typeof v === 'object' && !Array.isArray(v) ? (v as Record<string, unknown>) : {};
}
