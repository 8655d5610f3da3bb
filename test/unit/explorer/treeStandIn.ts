// A stand-in for `vscode` with what the explorer's nodes build (tree items, icons, colours, Markdown
// tooltips, events) and the settings they read, for walking the tree in plain Node.
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
class Disposable { constructor(fn) { this.fn = fn; } dispose() { if (this.fn) this.fn(); } static from(...d) { return new Disposable(() => d.forEach((x) => x.dispose())); } }
module.exports = {
  EventEmitter, TreeItem, ThemeIcon, ThemeColor, MarkdownString, Uri, Disposable,
  TreeItemCollapsibleState: { None: 0, Collapsed: 1, Expanded: 2 },
  workspace: {
    getConfiguration: () => ({ get: (k, d) => (k in s().settings ? s().settings[k] : d) }),
    onDidChangeConfiguration: () => new Disposable(),
  },
  window: {},
  commands: { executeCommand: async () => undefined },
  env: {},
};
`;

export interface TreeStub {
  settings: Record<string, unknown>;
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
  return {
    uninstall() {
      mod._resolveFilename = resolve;
      delete (globalThis as { __dpTreeStub?: unknown }).__dpTreeStub;
      forgetVscodeDependents();
      fs.rmSync(dir, { recursive: true, force: true });
    },
  };
}
