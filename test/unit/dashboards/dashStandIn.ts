// The dashboards' unit tests' stand-in for `vscode` (a file in a temp folder resolved through
// Module._resolveFilename, as in admin/userRoles.test.ts): documents held as text, what the user
// is told (information, warnings, their modal answer), quick picks, input boxes and the save dialog
// answered from queues, files written, commands run, and tab groups with nothing open.
// `useDashStandIn()` registers mocha's before/after hooks; require modules inside a `before`.
import * as fs from 'node:fs';
import Module from 'node:module';
import * as os from 'node:os';
import * as path from 'node:path';
import { forgetVscodeDependents } from '../vscodeStandIn';

export interface Doc {
  text: string;
  isDirty: boolean;
  saves: number;
  languageId: string;
  /** Counts the edits applied (1 when absent). */
  version?: number;
}

export interface DashSink {
  docs: Map<string, Doc>;
  info: string[];
  warnings: { message: string; modal: boolean }[];
  /** The detail of each warning (in the order of `warnings`; '' when none). */
  warningDetails: string[];
  /** What a modal warning answers. */
  warnAnswer: string | undefined;
  commands: { id: string; args: unknown[] }[];
  progress: unknown[];
  /** Quick picks shown: their title and item labels/descriptions; answered by `pickAnswers` (index, or undefined: dismissed). */
  picks: {
    title: string | undefined;
    matchOnDescription: unknown;
    items: { label: string; description?: string }[];
  }[];
  pickAnswers: (number | undefined)[];
  /** Input boxes shown: their prompt and what validateInput says of `probes`; answered by `inputAnswers`. */
  inputs: { prompt: string; checks: Record<string, string | undefined> }[];
  inputAnswers: (string | undefined)[];
  saveDialogs: unknown[];
  saveAnswer: string | undefined;
  written: { uri: string; text: string }[];
  shown: { uri: string; languageId: string; preview: unknown }[];
  /** The workspace's first folder ('' : a workspace with no folders; undefined: none open). */
  workspaceFolder: string | undefined;
  /** The active tab's input (see tabInput). */
  activeTab: unknown;
  /** The document of the active text editor, by path. */
  activeEditor: string | undefined;
  /** Error messages shown. */
  errors: string[];
  /** Each WorkspaceEdit applied: its replacements (offsets in the text before). */
  edits: { uri: string; offset: number; length: number; text: string }[][];
  /** What workspace.applyEdit answers (false: VS Code refused it; nothing changes). */
  applyEditAnswer: boolean;
  /** Listeners of workspace.onDidChangeTextDocument (an applied edit fires them). */
  changeListeners: ((e: unknown) => void)[];
  /** Quick picks made with createQuickPick, in order (see FakeQuickPick). */
  quickPicks: FakeQuickPick[];
}

/** A quick pick made with window.createQuickPick: its state, and the user's typing, Enter and Escape. */
export interface FakeQuickPick {
  title: string | undefined;
  placeholder: string | undefined;
  /** Every placeholder set, in order. */
  placeholders: string[];
  matchOnDescription: boolean;
  busy: boolean;
  items: { id?: number; label: string; description?: string; detail?: string }[];
  activeItems: unknown[];
  selectedItems: unknown[];
  value: string;
  shown: boolean;
  disposed: boolean;
  /** The user types: value set, onDidChangeValue fired. */
  type(value: string): void;
  /** Enter. */
  accept(): void;
  /** Escape (or hide()). */
  hide(): void;
}

/** The values every input box's validateInput is asked about. */
export const PROBES = ['', '  ', '0', '7', ' 12 ', '-3', '1.5', 'abc'];

const STUB_SOURCE = `
const sink = () => globalThis.__dpDashSink;
const PROBES = ${JSON.stringify(PROBES)};
const cls = () => class { constructor(...a) { this.args = a; } };
const ns = (extra) => new Proxy(extra, { get: (t, k) => (k in t ? t[k] : cls()) });
class Uri {
  constructor(scheme, path, query) { this.scheme = scheme; this.path = path; this.query = query ?? ''; }
  static from(c) { return new Uri(c.scheme, c.path ?? '', c.query ?? ''); }
  static file(p) { return new Uri('file', p, ''); }
  static parse(s) { const m = /^([a-z][a-z0-9+.-]*):(?:\\/\\/)?([^?]*)(?:\\?(.*))?$/i.exec(s); return new Uri(m[1], m[2], m[3] ?? ''); }
  static joinPath(u, ...parts) { return new Uri(u.scheme, [u.path, ...parts].join('/'), u.query); }
  with(c) { return new Uri(c.scheme ?? this.scheme, c.path ?? this.path, c.query ?? this.query); }
  get fsPath() { return this.path; }
  toString() { return this.scheme + '://' + this.path + (this.query ? '?' + this.query : ''); }
}
class EventEmitter {
  constructor() { this.listeners = []; this.event = (l) => { this.listeners.push(l); return { dispose() {} }; }; }
  fire(e) { for (const l of this.listeners) l(e); }
  dispose() { this.listeners = []; }
}
class CancellationError extends Error {}
class TabInputTextDiff { constructor(original, modified) { this.original = original; this.modified = modified; } }
class TabInputText { constructor(uri) { this.uri = uri; } }
class TabInputCustom { constructor(uri, viewType) { this.uri = uri; this.viewType = viewType; } }
class Position { constructor(line, character) { this.line = line; this.character = character; } }
class Range { constructor(start, end) { this.start = start; this.end = end; } }
class WorkspaceEdit {
  constructor() { this.replacements = []; }
  replace(uri, range, text) { this.replacements.push({ uri, range, text }); }
}
class Diagnostic { constructor(range, message, severity) { this.range = range; this.message = message; this.severity = severity; } }
const offsetIn = (text, pos) => {
  const lines = text.split('\\n');
  let o = 0;
  for (let i = 0; i < pos.line; i++) o += lines[i].length + 1;
  return o + pos.character;
};
const docOf = (uri) => {
  const d = sink().docs.get(String(uri));
  if (!d) throw new Error('no document ' + String(uri));
  return {
    uri,
    getText: () => d.text,
    get isDirty() { return d.isDirty; },
    get languageId() { return d.languageId; },
    get version() { return d.version ?? 1; },
    offsetAt: (pos) => offsetIn(d.text, pos),
    save: async () => { d.saves += 1; d.isDirty = false; return true; },
    lineAt: () => ({ range: { end: { character: 0 } } }),
    positionAt: (offset) => {
      const before = d.text.slice(0, offset).split('\\n');
      return { line: before.length - 1, character: before[before.length - 1].length };
    },
    lineCount: d.text.split('\\n').length,
  };
};
module.exports = ns({
  Uri, EventEmitter, CancellationError, TabInputTextDiff, TabInputText, TabInputCustom,
  Position, Range, WorkspaceEdit, Diagnostic,
  ProgressLocation: { Notification: 15 },
  ViewColumn: { Active: -1, Beside: -2 },
  DiagnosticSeverity: { Error: 0 },
  window: ns({
    showInformationMessage: async (m) => { sink().info.push(m); return undefined; },
    showErrorMessage: async (m) => { sink().errors.push(m); return undefined; },
    showWarningMessage: async (m, o) => { sink().warningDetails.push(o?.detail ?? ''); sink().warnings.push({ message: m, modal: o?.modal === true }); return o?.modal ? sink().warnAnswer : undefined; },
    withProgress: (o, task) => { sink().progress.push(o); return task({ report() {} }, { onCancellationRequested: () => ({ dispose() {} }) }); },
    showQuickPick: async (items, o) => {
      sink().picks.push({ title: o?.title, matchOnDescription: o?.matchOnDescription, items: items.map((i) => ({ label: i.label, ...(i.description !== undefined ? { description: i.description } : {}) })) });
      const i = sink().pickAnswers.shift();
      return i === undefined ? undefined : items[i];
    },
    showInputBox: async (o) => {
      const checks = {};
      for (const p of PROBES) checks[p] = o?.validateInput?.(p) ?? undefined;
      sink().inputs.push({ prompt: o?.prompt, checks });
      return sink().inputAnswers.shift();
    },
    showSaveDialog: async (o) => { sink().saveDialogs.push(o); const a = sink().saveAnswer; return a === undefined ? undefined : Uri.file(a); },
    showTextDocument: async (doc, o) => {
      sink().shown.push({
        uri: String(doc.uri ?? doc), languageId: doc.languageId, preview: o?.preview,
        ...(o?.viewColumn !== undefined ? { viewColumn: o.viewColumn } : {}),
        ...(o?.selection !== undefined ? { selection: o.selection } : {}),
      });
      return {};
    },
    tabGroups: {
      all: [],
      get activeTabGroup() { const input = sink().activeTab; return { activeTab: input ? { input } : undefined }; },
      onDidChangeTabs: () => ({ dispose() {} }),
      close: async () => true,
    },
    createQuickPick: () => {
      const on = { value: [], accept: [], hide: [] };
      const sub = (list) => (l) => { list.push(l); return { dispose() { const i = list.indexOf(l); if (i >= 0) list.splice(i, 1); } }; };
      let placeholder;
      const qp = {
        title: undefined, placeholders: [], matchOnDescription: false, busy: false, items: [], activeItems: [],
        selectedItems: [], value: '', shown: false, disposed: false,
        get placeholder() { return placeholder; },
        set placeholder(p) { placeholder = p; qp.placeholders.push(p); },
        onDidChangeValue: sub(on.value), onDidAccept: sub(on.accept), onDidHide: sub(on.hide),
        show() { qp.shown = true; },
        hide() { for (const l of [...on.hide]) l(); },
        dispose() { qp.disposed = true; },
        type(v) { qp.value = v; for (const l of [...on.value]) l(v); },
        accept() { for (const l of [...on.accept]) l(); },
      };
      sink().quickPicks.push(qp);
      return qp;
    },
    get activeTextEditor() { const p = sink().activeEditor; return p ? { document: { uri: Uri.file(p) } } : undefined; },
  }),
  workspace: ns({
    get workspaceFolders() { const f = sink().workspaceFolder; return f === undefined ? undefined : f === '' ? [] : [{ uri: Uri.file(f) }]; },
    registerTextDocumentContentProvider: () => ({ dispose() {} }),
    onDidSaveTextDocument: () => ({ dispose() {} }),
    onDidChangeTextDocument: (l) => {
      sink().changeListeners.push(l);
      return { dispose() { const ls = sink().changeListeners; const i = ls.indexOf(l); if (i >= 0) ls.splice(i, 1); } };
    },
    applyEdit: async (edit) => {
      if (!sink().applyEditAnswer) return false;
      const applied = [];
      for (const r of edit.replacements) {
        const d = sink().docs.get(String(r.uri));
        const offset = offsetIn(d.text, r.range.start);
        const length = offsetIn(d.text, r.range.end) - offset;
        d.text = d.text.slice(0, offset) + r.text + d.text.slice(offset + length);
        d.version = (d.version ?? 1) + 1;
        d.isDirty = true;
        applied.push({ uri: String(r.uri), offset, length, text: r.text });
        const change = { document: docOf(r.uri), contentChanges: [{ text: r.text }] };
        for (const l of [...sink().changeListeners]) l(change);
      }
      sink().edits.push(applied);
      return true;
    },
    openTextDocument: async (uri) => docOf(uri),
    get textDocuments() { return [...sink().docs.keys()].map((k) => docOf(Uri.parse(k))); },
    fs: {
      readFile: async (uri) => {
        const d = sink().docs.get(String(uri));
        if (!d) throw new Error('file not found ' + String(uri));
        return Buffer.from(d.text, 'utf8');
      },
      writeFile: async (uri, bytes) => {
        const text = Buffer.from(bytes).toString('utf8');
        sink().written.push({ uri: String(uri), text });
        sink().docs.set(String(uri), { text, isDirty: false, saves: 0, languageId: 'plaintext' });
      },
    },
  }),
  languages: ns({
    createDiagnosticCollection: () => { const m = new Map(); return { set: (u, d) => m.set(String(u), d), delete: (u) => m.delete(String(u)), has: (u) => m.has(String(u)), get: (u) => m.get(String(u)), dispose() {} }; },
    setTextDocumentLanguage: async (doc, languageId) => { sink().docs.get(String(doc.uri)).languageId = languageId; return docOf(doc.uri); },
  }),
  commands: ns({
    executeCommand: async (id, ...args) => { sink().commands.push({ id, args }); return undefined; },
  }),
});`;

function emptySink(): DashSink {
  return {
    docs: new Map(),
    info: [],
    warnings: [],
    warningDetails: [],
    warnAnswer: undefined,
    commands: [],
    progress: [],
    picks: [],
    pickAnswers: [],
    inputs: [],
    inputAnswers: [],
    saveDialogs: [],
    saveAnswer: undefined,
    written: [],
    shown: [],
    workspaceFolder: undefined,
    activeTab: undefined,
    activeEditor: undefined,
    errors: [],
    edits: [],
    applyEditAnswer: true,
    changeListeners: [],
    quickPicks: [],
  };
}

export interface DashStandIn {
  sink: DashSink;
  /** Empties what the stand-in recorded and the queued answers. */
  reset(): void;
}

export function useDashStandIn(): DashStandIn {
  const mod = Module as unknown as { _resolveFilename: (request: string, ...rest: unknown[]) => string };
  const resolve = mod._resolveFilename;
  let dir = '';
  const sink = emptySink();
  before(() => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'dp-dash-test-'));
    const file = path.join(dir, 'vscode.js');
    fs.writeFileSync(file, STUB_SOURCE);
    (globalThis as { __dpDashSink?: DashSink }).__dpDashSink = sink;
    mod._resolveFilename = function (request: string, ...rest: unknown[]) {
      return request === 'vscode' ? file : resolve.call(this, request, ...rest);
    };
    forgetVscodeDependents();
  });
  after(() => {
    mod._resolveFilename = resolve;
    forgetVscodeDependents();
    fs.rmSync(dir, { recursive: true, force: true });
  });
  return { sink, reset: () => Object.assign(sink, emptySink()) };
}

/** A Memento over a plain object (`data` shows what was stored). */
export function memento() {
  const data: Record<string, unknown> = {};
  return {
    data,
    get: <T>(k: string, d?: T) => (k in data ? (data[k] as T) : (d as T)),
    update: async (k: string, v: unknown) => {
      data[k] = v;
    },
    keys: () => Object.keys(data),
  };
}
