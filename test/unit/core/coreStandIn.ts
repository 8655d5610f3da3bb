// A stand-in for `vscode` for the extension's shared core (settings that relax safety, the network
// settings, the one catch per command, webview HTML, pickers and input boxes): a file in a temp
// folder resolved through Module._resolveFilename, as in admin/userRoles.test.ts. It records what
// the user is shown (error messages and their buttons, pickers and boxes with every property the
// code set) and lets a test drive a picker or box as a user would (type, accept, press Back, close).
// `useCoreStandIn()` registers mocha's before/after hooks; require the modules under test through
// its `load` inside a `before`.
import * as fs from 'node:fs';
import Module from 'node:module';
import * as os from 'node:os';
import * as path from 'node:path';
import { forgetVscodeDependents } from '../vscodeStandIn';

/** A quick pick or input box as the code left it, with the user's hands on it. */
export interface Widget {
  kind: 'pick' | 'input';
  title?: string;
  placeholder?: string;
  prompt?: string;
  value: string;
  password?: boolean;
  ignoreFocusOut?: boolean;
  matchOnDescription?: boolean;
  matchOnDetail?: boolean;
  canSelectMany?: boolean;
  step?: number;
  totalSteps?: number;
  buttons: unknown[];
  busy?: boolean;
  validationMessage?: string;
  items: { label: string; description?: string; detail?: string; alwaysShow?: boolean }[];
  activeItems: unknown[];
  selectedItems: unknown[];
  shown: boolean;
  disposed: boolean;
  /** The user types `text` (the value changes). */
  type(text: string): void;
  /** The user presses Enter. */
  accept(): void;
  /** The user presses the Back button. */
  back(): void;
  /** The user presses another button. */
  press(button: unknown): void;
  /** The user closes it (Escape). */
  hide(): void;
}

export interface CoreSink {
  trusted: boolean;
  /** Settings by full key, per level. */
  user: Record<string, unknown>;
  workspace: Record<string, unknown>;
  folder: Record<string, unknown>;
  defaults: Record<string, unknown>;
  errors: { message: string; actions: string[] }[];
  /** The button the next error message is answered with. */
  answer?: string;
  commands: { id: string; args: unknown[] }[];
  widgets: Widget[];
}

export const newSink = (): CoreSink => ({
  trusted: true,
  user: {},
  workspace: {},
  folder: {},
  defaults: {},
  errors: [],
  commands: [],
  widgets: [],
});

const STUB_SOURCE = `
const sink = () => globalThis.__dpCoreSink;
class Uri {
  constructor(scheme, p) { this.scheme = scheme; this.path = p; }
  static file(p) { return new Uri('file', p); }
  static joinPath(base, ...parts) { return new Uri(base.scheme, [base.path, ...parts].join('/')); }
  toString() { return this.scheme + '://' + this.path; }
}
const Back = { iconPath: 'back' };
function widget(kind) {
  const on = { accept: [], hide: [], button: [], value: [] };
  const reg = (k) => (l) => { on[k].push(l); return { dispose() {} }; };
  const w = {
    kind, value: '', buttons: [], items: [], activeItems: [], selectedItems: [], shown: false, disposed: false,
    onDidAccept: reg('accept'), onDidHide: reg('hide'), onDidTriggerButton: reg('button'), onDidChangeValue: reg('value'),
    show() { w.shown = true; },
    dispose() { w.disposed = true; },
    type(text) { w.value = text; for (const l of on.value) l(text); },
    accept() { for (const l of on.accept) l(); },
    press(b) { for (const l of on.button) l(b); },
    back() { w.press(Back); },
    hide() { for (const l of on.hide) l(); },
  };
  sink().widgets.push(w);
  return w;
}
module.exports = {
  Uri,
  QuickInputButtons: { Back },
  workspace: {
    get isTrusted() { return sink().trusted; },
    getConfiguration: (section) => ({
      inspect: (k) => {
        const key = section + '.' + k;
        const s = sink();
        return { key, defaultValue: s.defaults[key], globalValue: s.user[key], workspaceValue: s.workspace[key], workspaceFolderValue: s.folder[key] };
      },
      get: () => { throw new Error('read through inspect: get() would honour a workspace value'); },
    }),
  },
  window: {
    showErrorMessage: (message, ...actions) => {
      sink().errors.push({ message, actions });
      return Promise.resolve(sink().answer);
    },
    createQuickPick: () => widget('pick'),
    createInputBox: () => widget('input'),
  },
  commands: {
    executeCommand: async (id, ...args) => { sink().commands.push({ id, args }); },
    registerCommand: (id, fn) => { sink().registered = sink().registered || new Map(); sink().registered.set(id, fn); return { dispose() {} }; },
  },
};
`;

/** Registers the stand-in around the suite; `load` requires a module bound to it. */
export function useCoreStandIn(): {
  sink: () => CoreSink;
  reset: () => CoreSink;
  load: <T>(id: string) => T;
} {
  let dir = '';
  let current = newSink();
  const mod = Module as unknown as { _resolveFilename: (request: string, ...rest: unknown[]) => string };
  const resolve = mod._resolveFilename;
  before(() => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'dp-core-test-'));
    const file = path.join(dir, 'vscode.js');
    fs.writeFileSync(file, STUB_SOURCE);
    (globalThis as { __dpCoreSink?: CoreSink }).__dpCoreSink = current;
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
  return {
    sink: () => current,
    reset: () => {
      current = newSink();
      (globalThis as { __dpCoreSink?: CoreSink }).__dpCoreSink = current;
      return current;
    },
    // eslint-disable-next-line @typescript-eslint/no-require-imports
    load: <T>(id: string) => require(id) as T,
  };
}
