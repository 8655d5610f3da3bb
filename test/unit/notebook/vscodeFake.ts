// A stand-in for `vscode` shared by the notebook and chat unit suites: the classes those features
// build (outputs, edits, items, ranges, emitters) as plain records, and the window/workspace calls
// answered from a `VsHooks` object the test fills (quick picks, input boxes, message answers,
// settings, applyEdit's result), every call recorded in it. Loaded through the same
// Module._resolveFilename hook as test/unit/admin/userRoles.test.ts, and forgotten after.
import * as fs from 'node:fs';
import Module from 'node:module';
import * as os from 'node:os';
import * as path from 'node:path';
import { forgetVscodeDependents } from '../vscodeStandIn';

export interface Shown {
  kind: 'info' | 'warning' | 'error';
  message: string;
  actions: string[];
}

/** What the stand-in answers and what it recorded; `reset()` between tests. */
export interface VsHooks {
  /** Settings by full key (`dashboardPlatform.notebook.rowCap`). */
  config: Record<string, unknown>;
  shown: Shown[];
  /** The button a message answers with (by message kind), else undefined (dismissed). */
  answer: Partial<Record<Shown['kind'], string>>;
  commands: { id: string; args: unknown[] }[];
  /** Every applyEdit: the edit's entries as [uri, edits]. */
  edits: [unknown, unknown[]][];
  applyResult: boolean;
  /** Called with each applied edit's entries (a test can apply them to its notebook). */
  onApply?: (entries: [unknown, unknown[]][]) => void;
  quickPicks: { items: unknown[]; options: Record<string, unknown> }[];
  /** Picks an item (by label) or dismisses (undefined). */
  pick: (items: { label: string }[], options: Record<string, unknown>) => unknown;
  inputBoxes: Record<string, unknown>[];
  input: (options: Record<string, unknown>) => string | undefined;
  saveDialog: (options: Record<string, unknown>) => unknown;
  activeNotebookEditor: unknown;
  notebookDocuments: unknown[];
  statusItems: Record<string, unknown>[];
  panels: Record<string, unknown>[];
  clipboard: string[];
  statusMessages: string[];
  controllers: Record<string, unknown>[];
  rendererMessaging: Record<string, unknown>[];
  opened: unknown[];
  listeners: Record<string, ((e: unknown) => unknown)[]>;
  /** Commands registered, by id. */
  registered: Record<string, (...args: unknown[]) => unknown>;
  commandResult?: (id: string, args: unknown[]) => unknown;
  workspaceFolders?: { uri: unknown }[];
  /** Builds the execution a controller makes for a cell. */
  newExecution?: (cell: unknown) => unknown;
  /** Builds the panel createWebviewPanel returns. */
  newPanel?: (viewType: string, title: string, column: unknown, options: unknown) => Record<string, unknown>;
  completion?: { provider: { provideCompletionItems(doc: unknown, pos: unknown): Promise<unknown[]> } };
  hover?: { provideHover(doc: unknown, pos: unknown): Promise<unknown> };
  diagnostics?: { byUri: Map<string, unknown[]> };
  serializers?: unknown[];
  reset(): void;
}

const SOURCE = `
const h = globalThis.__dpVsHooks;
const cls = () => class { constructor(...a) { this.args = a; } };
const ns = (extra) => new Proxy(extra, { get: (t, k) => (k in t ? t[k] : cls()) });
class Disposable {
  constructor(f) { this.f = f; }
  dispose() { const f = this.f; this.f = undefined; f && f(); }
  static from(...d) { return new Disposable(() => d.forEach((x) => x.dispose())); }
}
class EventEmitter {
  constructor() {
    this.ls = new Set();
    this.event = (l) => { this.ls.add(l); return new Disposable(() => this.ls.delete(l)); };
  }
  fire(e) { for (const l of [...this.ls]) l(e); }
  dispose() { this.ls.clear(); }
}
const on = (name) => (l) => {
  (h.listeners[name] = h.listeners[name] || []).push(l);
  return new Disposable(() => { h.listeners[name] = h.listeners[name].filter((x) => x !== l); });
};
const enc = new TextEncoder();
class NotebookCellOutputItem {
  constructor(data, mime) { this.data = data; this.mime = mime; }
  static json(v, mime = 'application/json') { return new NotebookCellOutputItem(enc.encode(JSON.stringify(v)), mime); }
  static text(s, mime = 'text/plain') { return new NotebookCellOutputItem(enc.encode(s), mime); }
  static error(e) {
    const item = new NotebookCellOutputItem(enc.encode(JSON.stringify({ name: e.name, message: e.message, stack: e.stack })), 'application/vnd.code.notebook.error');
    item.error = e;
    return item;
  }
}
class NotebookCellOutput { constructor(items, metadata) { this.items = items; this.metadata = metadata; } }
class NotebookCellData { constructor(kind, value, languageId) { this.kind = kind; this.value = value; this.languageId = languageId; } }
class NotebookData { constructor(cells) { this.cells = cells; } }
class WorkspaceEdit { constructor() { this.entries = []; } set(uri, edits) { this.entries.push([uri, edits]); } }
class NotebookCellStatusBarItem { constructor(text, alignment) { this.text = text; this.alignment = alignment; } }
class NotebookRange { constructor(start, end) { this.start = start; this.end = end; } }
class Position { constructor(line, character) { this.line = line; this.character = character; } }
class Range {
  constructor(a, b, c, d) {
    if (typeof a === 'number') { this.start = new Position(a, b); this.end = new Position(c, d); }
    else { this.start = a; this.end = b; }
  }
}
class Diagnostic { constructor(range, message, severity) { this.range = range; this.message = message; this.severity = severity; } }
class CompletionItem { constructor(label, kind) { this.label = label; this.kind = kind; } }
class SnippetString {
  constructor(v = '') { this.value = v; }
  appendText(t) { this.value += t.replace(/[$}\\\\]/g, '\\\\$&'); return this; }
  appendTabstop(n) { this.value += '$' + n; return this; }
}
class MarkdownString {
  constructor(v = '') { this.value = v; }
  appendMarkdown(t) { this.value += t; return this; }
  appendText(t) { this.value += t; return this; }
  appendCodeblock(c, l) { this.value += '\\n\`\`\`' + l + '\\n' + c + '\\n\`\`\`\\n'; return this; }
}
class Hover { constructor(contents, range) { this.contents = contents; this.range = range; } }
class ThemeIcon { constructor(id) { this.id = id; } }
const TextEdit = { insert: (position, newText) => ({ position, newText }) };
class Uri {
  constructor(scheme, p) { this.scheme = scheme; this.path = p; this.fsPath = p; }
  toString() { return this.scheme + '://' + this.path; }
  static file(p) { return new Uri('file', p); }
  static parse(s) { const m = /^([a-z-]+):\\/\\/(.*)$/.exec(s); return m ? new Uri(m[1], m[2]) : new Uri('file', s); }
  static joinPath(u, ...parts) { return new Uri(u.scheme, require('node:path').posix.join(u.path, ...parts)); }
}
const show = (kind) => async (message, ...rest) => {
  const actions = rest.filter((a) => typeof a === 'string');
  h.shown.push({ kind, message, actions });
  return h.answer[kind];
};
const statusItem = (id, alignment, priority) => {
  const item = { id, alignment, priority, visible: false, disposed: false,
    show() { this.visible = true; }, hide() { this.visible = false; }, dispose() { this.disposed = true; } };
  h.statusItems.push(item);
  return item;
};
module.exports = ns({
  Disposable, EventEmitter, NotebookCellOutputItem, NotebookCellOutput, NotebookCellData, NotebookData,
  WorkspaceEdit, NotebookCellStatusBarItem, NotebookRange, Position, Range, Diagnostic, CompletionItem,
  SnippetString, MarkdownString, Hover, ThemeIcon, TextEdit, Uri,
  NotebookEdit: {
    updateNotebookMetadata: (metadata) => ({ type: 'notebookMetadata', metadata }),
    updateCellMetadata: (index, metadata) => ({ type: 'cellMetadata', index, metadata }),
    insertCells: (index, cells) => ({ type: 'insertCells', index, cells }),
  },
  NotebookCellKind: { Markup: 1, Code: 2 },
  NotebookCellStatusBarAlignment: { Left: 1, Right: 2 },
  StatusBarAlignment: { Left: 1, Right: 2 },
  NotebookEditorRevealType: { Default: 0, InCenter: 1, InCenterIfOutsideViewport: 2, AtTop: 3 },
  ViewColumn: { Active: -1, Beside: -2, One: 1, Two: 2 },
  ProgressLocation: { SourceControl: 1, Window: 10, Notification: 15 },
  DiagnosticSeverity: { Error: 0, Warning: 1, Information: 2, Hint: 3 },
  CompletionItemKind: { Class: 6, Field: 4, Property: 9, Operator: 23 },
  TreeItemCollapsibleState: { None: 0, Collapsed: 1, Expanded: 2 },
  window: ns({
    showInformationMessage: show('info'),
    showWarningMessage: show('warning'),
    showErrorMessage: show('error'),
    showQuickPick: async (items, options) => {
      const list = await items;
      h.quickPicks.push({ items: list, options: options || {} });
      return h.pick(list, options || {});
    },
    showInputBox: async (options) => { h.inputBoxes.push(options || {}); return h.input(options || {}); },
    showSaveDialog: async (options) => h.saveDialog(options || {}),
    withProgress: async (options, task) => {
      const token = { isCancellationRequested: false, onCancellationRequested: () => new Disposable() };
      return task({ report: (p) => h.statusMessages.push('progress: ' + (p.message || '')) }, token);
    },
    setStatusBarMessage: (m) => { h.statusMessages.push(m); return new Disposable(); },
    createStatusBarItem: statusItem,
    showNotebookDocument: async (doc) => { h.opened.push(doc); return { notebook: doc }; },
    createWebviewPanel: (viewType, title, column, options) => {
      const panel = h.newPanel(viewType, title, column, options);
      h.panels.push(panel);
      return panel;
    },
    registerWebviewPanelSerializer: (type, serializer) => { h.panelSerializer = [type, serializer]; return new Disposable(); },
    get activeNotebookEditor() { return h.activeNotebookEditor; },
    onDidChangeActiveNotebookEditor: on('activeNotebookEditor'),
  }),
  workspace: ns({
    getConfiguration: (section) => ({
      get: (key, fallback) => { const k = section + '.' + key; return k in h.config ? h.config[k] : fallback; },
      inspect: (key) => { const k = section + '.' + key; return k in h.config ? { key: k, globalValue: h.config[k] } : { key: k }; },
    }),
    isTrusted: true,
    applyEdit: async (edit) => { h.edits.push(...edit.entries); if (h.onApply) h.onApply(edit.entries); return h.applyResult; },
    get notebookDocuments() { return h.notebookDocuments; },
    get workspaceFolders() { return h.workspaceFolders; },
    openNotebookDocument: async (type, data) => ({ notebookType: type, data, uri: Uri.parse('untitled://nb-' + h.opened.length) }),
    onDidChangeNotebookDocument: on('notebookChange'),
    onDidOpenNotebookDocument: on('notebookOpen'),
    onDidChangeTextDocument: on('textChange'),
    onDidOpenTextDocument: on('textOpen'),
    registerNotebookSerializer: (type, serializer, options) => { h.serializers = [type, serializer, options]; return new Disposable(); },
  }),
  commands: ns({
    executeCommand: async (id, ...args) => { h.commands.push({ id, args }); return h.commandResult && h.commandResult(id, args); },
    registerCommand: (id, handler) => { h.registered[id] = handler; return new Disposable(); },
  }),
  env: ns({ clipboard: { writeText: async (t) => { h.clipboard.push(t); } } }),
  notebooks: ns({
    createNotebookController: (id, type, label) => {
      const c = { id, type, label, dispose() { this.disposed = true; },
        createNotebookCellExecution: (cell) => h.newExecution(cell) };
      h.controllers.push(c);
      return c;
    },
    createRendererMessaging: (id) => {
      const m = { id, posted: [], onDidReceiveMessage: (l) => { m.listener = l; return new Disposable(); },
        postMessage: async (msg, editor) => { m.posted.push({ msg, editor }); return true; } };
      h.rendererMessaging.push(m);
      return m;
    },
    registerNotebookCellStatusBarItemProvider: () => new Disposable(),
  }),
  languages: ns({
    createDiagnosticCollection: (name) => {
      const d = { name, byUri: new Map(), set(uri, list) { d.byUri.set(String(uri), list); }, dispose() {} };
      h.diagnostics = d;
      return d;
    },
    registerCompletionItemProvider: (selector, provider, ...triggers) => { h.completion = { selector, provider, triggers }; return new Disposable(); },
    registerHoverProvider: (selector, provider) => { h.hover = provider; return new Disposable(); },
  }),
});
`;

type Resolver = { _resolveFilename: (request: string, ...rest: unknown[]) => string };

function freshHooks(): VsHooks {
  const h = {} as VsHooks;
  h.reset = () => {
    Object.assign(h, {
      config: {},
      shown: [],
      answer: {},
      commands: [],
      edits: [],
      applyResult: true,
      quickPicks: [],
      pick: () => undefined,
      inputBoxes: [],
      input: () => undefined,
      saveDialog: () => undefined,
      activeNotebookEditor: undefined,
      notebookDocuments: [],
      statusItems: [],
      panels: [],
      clipboard: [],
      statusMessages: [],
      controllers: [],
      rendererMessaging: [],
      opened: [],
      listeners: {},
      registered: {},
      commandResult: undefined,
      onApply: undefined,
      workspaceFolders: undefined,
      newExecution: undefined,
      newPanel: undefined,
      completion: undefined,
      hover: undefined,
      diagnostics: undefined,
      serializers: undefined,
      panelSerializer: undefined,
    });
  };
  h.reset();
  return h;
}

/**
 * Installs the stand-in before the suite's requires (call from `before`), returning the hooks and
 * an `uninstall` for `after`. `load` requires the modules under it (paths relative to this file).
 */
export function installVscodeFake(): {
  hooks: VsHooks;
  load<T>(request: string): T;
  uninstall(): void;
} {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'dp-nbchat-test-'));
  const file = path.join(dir, 'vscode.js');
  fs.writeFileSync(file, SOURCE);
  const hooks = freshHooks();
  (globalThis as { __dpVsHooks?: unknown }).__dpVsHooks = hooks;
  const mod = Module as unknown as Resolver;
  const resolve = mod._resolveFilename;
  mod._resolveFilename = function (request: string, ...rest: unknown[]) {
    return request === 'vscode' ? file : resolve.call(this, request, ...rest);
  };
  forgetVscodeDependents();
  return {
    hooks,
    // eslint-disable-next-line @typescript-eslint/no-require-imports
    load: <T>(request: string) => require(request) as T,
    uninstall: () => {
      mod._resolveFilename = resolve;
      fs.rmSync(dir, { recursive: true, force: true });
    },
  };
}

/** A notebook document as the features read it (uri, type, metadata, cells). */
export function fakeNotebook(
  metadata: Record<string, unknown> = {},
  cells: { languageId?: string; text?: string; kind?: number; metadata?: Record<string, unknown> }[] = [],
  uri = 'file:///work/q.dpnb',
): FakeNotebook {
  const nb = {
    uri: { scheme: uri.split(':')[0], path: uri.replace(/^[a-z]+:\/\//, ''), toString: () => uri },
    notebookType: 'dashboard-platform-notebook',
    metadata,
    cells: [] as FakeCell[],
    get cellCount() {
      return nb.cells.length;
    },
    getCells: () => nb.cells,
    cellAt: (i: number) => nb.cells[i]!,
  } as FakeNotebook;
  nb.uri.fsPath = nb.uri.path;
  cells.forEach((c, index) => {
    const text = c.text ?? 'SELECT 1';
    nb.cells.push({
      index,
      kind: c.kind ?? 2,
      notebook: nb,
      metadata: c.metadata ?? {},
      outputs: [],
      document: {
        languageId: c.languageId ?? 'dashboard-platform-sql',
        getText: () => text,
        uri: { toString: () => `${uri}#cell${index}` },
      },
    });
  });
  return nb;
}

export interface FakeCell {
  index: number;
  kind: number;
  notebook: FakeNotebook;
  metadata: Record<string, unknown>;
  outputs: { metadata?: Record<string, unknown>; items: { mime: string; data: Uint8Array }[] }[];
  document: { languageId: string; getText(): string; uri: { toString(): string } };
}

export interface FakeNotebook {
  uri: { scheme: string; path: string; fsPath?: string; toString(): string };
  notebookType: string;
  metadata: Record<string, unknown>;
  cells: FakeCell[];
  readonly cellCount: number;
  getCells(): FakeCell[];
  cellAt(i: number): FakeCell;
}

const dec = new TextDecoder();
/** The text of an output item. */
export const itemText = (i: { data: Uint8Array }): string => dec.decode(i.data);
/** The JSON of an output item. */
export const itemJson = <T = Record<string, unknown>>(i: { data: Uint8Array }): T =>
  JSON.parse(itemText(i)) as T;
