// A stand-in for `vscode` for the model folder's flows in plain Node (see ../vscodeStandIn.ts for
// why the module cache is cleared): URIs, events, file-system errors and a window whose pickers,
// input boxes and message boxes answer from a script (`ScriptedUi`) and record what they showed.
import * as fs from 'node:fs';
import Module from 'node:module';
import * as os from 'node:os';
import * as path from 'node:path';
import { forgetVscodeDependents } from '../vscodeStandIn';

const STUB_SOURCE = `
const ui = () => globalThis.__dpModelUi;
class Uri {
  constructor(scheme, authority, path, query) {
    this.scheme = scheme; this.authority = authority; this.path = path; this.query = query;
  }
  static from(c) { return new Uri(c.scheme, c.authority ?? '', c.path ?? '', c.query ?? ''); }
  static file(p) { return new Uri('file', '', p, ''); }
  static joinPath(u, ...s) { return new Uri(u.scheme, u.authority, [u.path.replace(/\\/$/, ''), ...s].join('/'), ''); }
  get fsPath() { return this.path; }
  toString() { return this.scheme + '://' + this.authority + this.path + (this.query ? '?' + this.query : ''); }
}
class EventEmitter {
  constructor() { this.listeners = []; this.event = (l) => (this.listeners.push(l), { dispose() {} }); }
  fire(e) { for (const l of this.listeners) l(e); }
  dispose() { this.listeners = []; }
}
class FileSystemError extends Error {
  constructor(m, code) { super(typeof m === 'string' ? m : String(m)); this.code = code; }
}
for (const code of ['FileNotFound', 'FileExists', 'FileNotADirectory', 'FileIsADirectory', 'NoPermissions', 'Unavailable'])
  FileSystemError[code] = (m) => new FileSystemError(m, code);
class CancellationError extends Error { constructor() { super('Canceled'); this.name = 'Canceled'; } }
class Disposable { constructor(f) { this.f = f; } dispose() { this.f?.(); } }
class WorkspaceEdit { constructor() { this.entries = []; } set(uri, edits) { this.entries.push([uri.toString(), edits]); } }
const NotebookEdit = { updateNotebookMetadata: (metadata) => ({ metadata }) };
class Diagnostic { constructor(range, message, severity) { Object.assign(this, { range, message, severity }); } }
class Range { constructor(a, b, c, d) { Object.assign(this, { startLine: a, startCharacter: b, endLine: c, endCharacter: d }); } }
module.exports = {
  Uri, EventEmitter, FileSystemError, CancellationError, Disposable, Range, WorkspaceEdit, NotebookEdit,
  FileType: { Unknown: 0, File: 1, Directory: 2, SymbolicLink: 64 },
  FilePermission: { Readonly: 1 },
  FileChangeType: { Changed: 1, Created: 2, Deleted: 3 },
  ProgressLocation: { SourceControl: 1, Window: 10, Notification: 15 },
  StatusBarAlignment: { Left: 1, Right: 2 },
  Diagnostic, DiagnosticSeverity: { Error: 0, Warning: 1 },
  languages: {
    createDiagnosticCollection: (name) => {
      const byUri = new Map();
      return {
        name,
        set: (uri, list) => byUri.set(uri.toString(), list),
        get: (uri) => byUri.get(uri.toString()),
        delete: (uri) => byUri.delete(typeof uri === 'string' ? uri : uri.toString()),
        forEach: (f) => [...byUri.keys()].forEach((k) => f({ toString: () => k }, byUri.get(k))),
        entries: () => [...byUri.entries()],
        dispose: () => byUri.clear(),
      };
    },
  },
  window: {
    showQuickPick: (items, opts) => ui().pick(items, opts),
    showTextDocument: async (...a) => { ui().commands.push(['showTextDocument', ...a]); },
    showInputBox: (opts) => ui().input(opts),
    showWarningMessage: (m, ...rest) => ui().message('warn', m, rest),
    showInformationMessage: (m, ...rest) => ui().message('info', m, rest),
    showErrorMessage: (m, ...rest) => ui().message('error', m, rest),
    withProgress: (o, task) => (ui().progress.push(o.title), task({ report() {} }, { isCancellationRequested: false, onCancellationRequested: () => ({ dispose() {} }) })),
    get activeTextEditor() { return ui().activeEditorUri && { document: { uri: ui().activeEditorUri } }; },
    createStatusBarItem: () => {
      const item = { text: '', tooltip: '', visible: false, show() { this.visible = true; }, hide() { this.visible = false; }, dispose() {} };
      ui().statusItems.push(item);
      return item;
    },
    onDidChangeActiveTextEditor: (l) => ui().listen('editor', l),
    onDidChangeActiveNotebookEditor: (l) => ui().listen('notebookEditor', l),
    get activeNotebookEditor() { return ui().activeNotebook && { notebook: ui().activeNotebook }; },
  },
  workspace: {
    get workspaceFolders() { return ui().folders; },
    get workspaceFile() { return ui().workspaceFile; },
    updateWorkspaceFolders: (...a) => (ui().folderUpdates.push(a), true),
    get textDocuments() { return ui().documents; },
    get notebookDocuments() { return ui().notebooks; },
    onDidChangeNotebookDocument: (l) => ui().listen('notebookDocument', l),
    applyEdit: async (edit) => (ui().edits.push(...edit.entries), true),
    fs: { createDirectory: async () => undefined, writeFile: async (u, b) => ui().written.push([u.toString(), new TextDecoder().decode(b)]) },
  },
  commands: { executeCommand: async (...a) => { ui().commands.push(a); } },
};`;

/** An item of a quick pick as the flows build it. */
export interface PickItem {
  label: string;
  description?: string;
  [k: string]: unknown;
}

/**
 * The window's answers, in order of asking: a pick answers the item whose label is the answer or
 * ends with ` <answer>` (`$(git-branch) dev`), undefined dismisses; an input answers its string;
 * a message box answers the button named. Everything shown is recorded.
 */
export class ScriptedUi {
  /** Each message: `warn: text [buttons]` (modal ones with ` (modal)`), `info: text`. */
  readonly shown: string[] = [];
  /** The items each pick offered (labels, with the description after ` — ` when there is one). */
  readonly offered: string[][] = [];
  /** The options of each pick (title, placeHolder, matchOnDescription). */
  readonly pickOptions: unknown[] = [];
  /** Open editors' documents: `{uri, getText()}`. */
  documents: { uri: unknown; getText(): string }[] = [];
  /** Open notebooks, and the one in the active editor. */
  notebooks: { uri: unknown; notebookType: string; metadata?: Record<string, unknown> }[] = [];
  activeNotebook: { uri: unknown; notebookType: string; metadata?: Record<string, unknown> } | undefined;
  /** Workspace edits applied: `[uri, edits]`. */
  readonly edits: [string, unknown[]][] = [];
  readonly inputs: { title?: string; prompt?: string; value?: string; validate?: (v: string) => unknown }[] =
    [];
  readonly details: string[] = [];
  readonly progress: string[] = [];
  readonly commands: unknown[][] = [];
  readonly folderUpdates: unknown[][] = [];
  readonly written: [string, string][] = [];
  folders: { uri: unknown; name: string }[] | undefined = undefined;
  workspaceFile: unknown = undefined;
  /** The URI of the document in the active text editor, if any. */
  activeEditorUri: unknown = undefined;
  /** Status bar items created (text, tooltip, whether shown). */
  readonly statusItems: { text: string; tooltip: string; visible: boolean }[] = [];
  /** The listeners of window and workspace events, by event. */
  readonly listeners = new Map<string, ((e: unknown) => void)[]>();

  listen(event: string, l: (e: unknown) => void): { dispose(): void } {
    this.listeners.set(event, [...(this.listeners.get(event) ?? []), l]);
    return {
      dispose: () =>
        this.listeners.set(
          event,
          (this.listeners.get(event) ?? []).filter((x) => x !== l),
        ),
    };
  }

  /** Fires a window or workspace event to its listeners. */
  fire(event: string, e: unknown): void {
    for (const l of this.listeners.get(event) ?? []) l(e);
  }

  private readonly picks: (string | undefined)[];
  private readonly typed: (string | undefined)[];
  private readonly buttons: (string | undefined)[];

  constructor(
    picks: readonly (string | undefined)[] = [],
    typed: readonly (string | undefined)[] = [],
    buttons: readonly (string | undefined)[] = [],
  ) {
    // Copies: a test's table of answers stays as written.
    [this.picks, this.typed, this.buttons] = [[...picks], [...typed], [...buttons]];
  }

  async pick(items: PickItem[], options?: unknown): Promise<PickItem | undefined> {
    this.pickOptions.push(options);
    this.offered.push(items.map((i) => (i.description ? `${i.label} — ${i.description}` : i.label)));
    const want = this.picks.shift();
    if (want === undefined) return undefined;
    const found = items.find((i) => i.label === want || i.label.endsWith(` ${want}`));
    if (!found) throw new Error(`No item "${want}" among ${items.map((i) => i.label).join(', ')}`);
    return found;
  }

  async input(opts: {
    title?: string;
    prompt?: string;
    value?: string;
    validateInput?: (v: string) => unknown;
  }): Promise<string | undefined> {
    this.inputs.push({
      title: opts.title,
      prompt: opts.prompt,
      value: opts.value,
      validate: opts.validateInput,
    });
    return this.typed.shift();
  }

  async message(kind: string, text: string, rest: unknown[]): Promise<string | undefined> {
    const [first, ...more] = rest;
    const opts =
      first && typeof first === 'object' ? (first as { modal?: boolean; detail?: string }) : undefined;
    const buttons = (opts ? more : rest).filter((b): b is string => typeof b === 'string');
    this.shown.push(
      `${kind}: ${text}${buttons.length ? ` [${buttons.join(', ')}]` : ''}${opts?.modal ? ' (modal)' : ''}`,
    );
    if (opts?.detail) this.details.push(opts.detail);
    return buttons.length ? this.buttons.shift() : undefined;
  }
}

/** Installs the stand-in (call in `before`); the returned function removes it (call in `after`). */
export function installModelStandIn(): () => void {
  const mod = Module as unknown as { _resolveFilename: (request: string, ...rest: unknown[]) => string };
  const resolve = mod._resolveFilename;
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'dp-model-test-'));
  const file = path.join(dir, 'vscode.js');
  fs.writeFileSync(file, STUB_SOURCE);
  mod._resolveFilename = function (request: string, ...rest: unknown[]) {
    return request === 'vscode' ? file : resolve.call(this, request, ...rest);
  };
  forgetVscodeDependents();
  useUi(new ScriptedUi());
  return () => {
    mod._resolveFilename = resolve;
    fs.rmSync(dir, { recursive: true, force: true });
  };
}

/** Makes `ui` the window the stand-in answers from; returns it. */
export function useUi(ui: ScriptedUi): ScriptedUi {
  (globalThis as { __dpModelUi?: ScriptedUi }).__dpModelUi = ui;
  return ui;
}
