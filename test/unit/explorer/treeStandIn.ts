// A stand-in for `vscode` with what the explorer's nodes build (tree items, icons, colours, Markdown
// tooltips, events), the settings they read, drag and drop, read-only documents, warnings and
// commands (recorded in the stub), for the explorer's code in plain Node.
import * as fs from 'node:fs';
import Module from 'node:module';
import * as os from 'node:os';
import * as path from 'node:path';
import { forgetVscodeDependents } from '../vscodeStandIn';

const STUB_SOURCE = `
const s = () => globalThis.__dpTreeStub;
class EventEmitter {
  constructor() { this.listeners = new Set(); }
  get event() { return (fn) => { this.listeners.add(fn); return { dispose: () => this.listeners.delete(fn) }; }; }
  fire(v) { for (const f of [...this.listeners]) f(v); }
  dispose() { this.listeners.clear(); }
}
class TreeItem { constructor(label, collapsibleState) { this.label = label; this.collapsibleState = collapsibleState; } }
class ThemeIcon { constructor(id, color) { this.id = id; this.color = color; } }
ThemeIcon.Folder = new ThemeIcon('folder');
ThemeIcon.File = new ThemeIcon('file');
class ThemeColor { constructor(id) { this.id = id; } }
class MarkdownString {
  constructor(value = '', supportThemeIcons) { this.value = value; this.supportThemeIcons = supportThemeIcons; }
  appendMarkdown(v) { this.value += v; return this; }
  appendText(v) { this.value += v.replace(/[\\\\\`*_{}[\\]()#+\\-.!<>]/g, (c) => '\\\\' + c); return this; }
  appendCodeblock(v, lang) { this.value += '\\n\`\`\`' + (lang || '') + '\\n' + v + '\\n\`\`\`\\n'; return this; }
}
class Uri {
  constructor(scheme, path, query) { this.scheme = scheme; this.path = path; this.query = query || ''; }
  static from(c) { return new Uri(c.scheme, c.path, c.query); }
  static parse(v) { const m = /^([a-z-]+):(.*)$/.exec(v); return new Uri(m ? m[1] : 'file', m ? m[2] : v); }
  static file(p) { return new Uri('file', p); }
  toString() { return this.scheme + ':' + this.path + (this.query ? '?' + this.query : ''); }
}
class DataTransferItem { constructor(value) { this.value = value; } }
class DataTransfer {
  constructor() { this.items = new Map(); }
  set(mime, item) { this.items.set(mime, item); }
  get(mime) { return this.items.get(mime); }
}
class Disposable { constructor(fn) { this.fn = fn; } dispose() { if (this.fn) this.fn(); } static from(...d) { return new Disposable(() => d.forEach((x) => x.dispose())); } }
module.exports = {
  EventEmitter, TreeItem, ThemeIcon, ThemeColor, MarkdownString, Uri, Disposable, DataTransfer, DataTransferItem,
  TreeItemCollapsibleState: { None: 0, Collapsed: 1, Expanded: 2 },
  workspace: {
    getConfiguration: () => ({ get: (k, d) => (k in s().settings ? s().settings[k] : d) }),
    onDidChangeConfiguration: () => new Disposable(),
    get textDocuments() { return s().documents || []; },
    openTextDocument: async (uri) => {
      const doc = { uri, languageId: 'plaintext' };
      (s().opened = s().opened || []).push(uri.toString());
      return doc;
    },
  },
  languages: { setTextDocumentLanguage: async (doc, languageId) => ({ ...doc, languageId }) },
  window: {
    showWarningMessage: async (m) => { (s().warnings = s().warnings || []).push(m); return undefined; },
    showTextDocument: async (doc, options) => { (s().shown = s().shown || []).push({ doc, options }); return {}; },
  },
  commands: {
    executeCommand: async (command, ...args) => { (s().commands = s().commands || []).push({ command, args }); return undefined; },
  },
  env: {},
};
`;

export interface TreeStub {
  settings: Record<string, unknown>;
  /** Warnings shown, commands run, documents opened and shown (filled by the stand-in). */
  warnings?: string[];
  commands?: { command: string; args: unknown[] }[];
  opened?: string[];
  shown?: { doc: { uri: { toString(): string }; languageId: string }; options: unknown }[];
  /** The open text documents (`vscode.workspace.textDocuments`). */
  documents?: { uri: { toString(): string } }[];
}

/** Installs the stand-in (before), and removes it (after); `stub` is what the stand-in reads. */
export function useTreeStandIn(stub: () => TreeStub): { uninstall(): void } {
  const mod = Module as unknown as { _resolveFilename: (request: string, ...rest: unknown[]) => string };
  const resolve = mod._resolveFilename;
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'dp-tree-test-'));
  const file = path.join(dir, 'vscode.js');
  fs.writeFileSync(file, STUB_SOURCE);
  Object.defineProperty(globalThis, '__dpTreeStub', { get: stub, configurable: true });
  mod._resolveFilename = function (request: string, ...rest: unknown[]) {
    return request === 'vscode' ? file : resolve.call(this, request, ...rest);
  };
  forgetVscodeDependents();
  // Session state other suites may have filled (platform ids learnt by e-mail): a fresh copy, so the
  // tree shows what this sandbox alone says.
  delete require.cache[require.resolve('../../../src/explorer/admin/platformIds')];
  return {
    uninstall() {
      mod._resolveFilename = resolve;
      delete (globalThis as { __dpTreeStub?: unknown }).__dpTreeStub;
      forgetVscodeDependents();
      fs.rmSync(dir, { recursive: true, force: true });
    },
  };
}
