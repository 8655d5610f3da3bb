// The deployment operations' flows in plain Node: a stand-in for `vscode` that records what the user
// is shown (messages with their buttons, output channels, clipboard, files written, links opened,
// commands run) and answers the buttons a test scripts; and the real OpsContext over a recording
// explorer context (tree refreshes, JSON documents, production confirmations).
import * as fs from 'node:fs';
import Module from 'node:module';
import * as os from 'node:os';
import * as path from 'node:path';
import type * as OpsContextModule from '../../../src/deployments/opsContext';
import type * as PrompterModule from '../../../src/ui/prompter';
import { ExplorerNode } from '../../../src/explorer/nodes/types';
import { forgetVscodeDependents } from '../vscodeStandIn';

/** What the stand-in recorded, and what it answers (reset by `reset()`). */
export interface Shown {
  /** `info: …`, `warning: …`, `error: …` (with ` [button, …]` when it offers buttons). */
  messages: string[];
  /** The modal details of warnings, by message. */
  details: string[];
  clipboard: string[];
  external: string[];
  commands: string[];
  written: { path: string; bytes: number }[];
  opened: string[];
  languages: string[];
  /** The button each message answers with, in order (undefined: dismissed). */
  buttons: (string | undefined)[];
  /** What the save dialog answers (a path), or undefined for Cancel. */
  saveAs?: string;
  saveDialogs: unknown[];
  /** What the open dialog answers (one path), or undefined for Cancel; the options it was shown with. */
  openAs?: string;
  openDialogs: unknown[];
  /** Set by a test to cancel the next progress notification (or the next whose title starts so). */
  cancelProgress: boolean | string;
  progressTitles: string[];
  /** Each progress notification: title, whether it offers Cancel, what it reported. */
  progress: { title: string; cancellable: boolean; reports: unknown[] }[];
  /** Output channels created (by name), and each `show(preserveFocus)` and line written. */
  channels: string[];
  channelLog: string[];
  /** Commands registered, by id (their handlers). */
  registered: Map<string, (...a: unknown[]) => unknown>;
  /** The token source of the last progress notification (a test cancels it as the user would). */
  progressSource?: { cancel(): void };
  /** The content providers registered, by scheme. */
  providers: Map<string, { provideTextDocumentContent(uri: { toString(): string }): string }>;
  /** The options each text document was shown with. */
  showOptions: unknown[];
}

const STUB_SOURCE = `
const cls = () => class { constructor(...a) { this.args = a; } };
const ns = (extra) => new Proxy(extra, { get: (t, k) => (k in t ? t[k] : cls()) });
const s = () => globalThis.__dpOpsShown;
const uri = (scheme, p) => ({ scheme, path: p, fsPath: p, toString: () => scheme + ':' + p });
class TokenSource {
  constructor() {
    this.listeners = [];
    this.token = {
      isCancellationRequested: false,
      onCancellationRequested: (l) => { this.listeners.push(l); return { dispose: () => { this.listeners = this.listeners.filter((x) => x !== l); } }; },
    };
  }
  cancel() { if (this.token.isCancellationRequested) return; this.token.isCancellationRequested = true; for (const l of [...this.listeners]) l(); }
  dispose() {}
}
const say = (kind) => async (m, ...rest) => {
  const opts = rest[0] && typeof rest[0] === 'object' ? rest.shift() : undefined;
  if (opts && opts.detail) s().details.push(opts.detail);
  s().messages.push(kind + (opts && opts.modal ? ' (modal)' : '') + ': ' + m + (rest.length ? ' [' + rest.join(', ') + ']' : ''));
  return s().buttons.shift();
};
module.exports = ns({
  window: ns({
    showInformationMessage: say('info'),
    showWarningMessage: say('warning'),
    showErrorMessage: say('error'),
    withProgress: async (o, fn) => {
      s().progressTitles.push(o.title);
      const rec = { title: o.title, cancellable: o.cancellable === true, reports: [] };
      s().progress.push(rec);
      const src = new TokenSource();
      s().progressSource = src;
      const c = s().cancelProgress;
      if (c === true || (typeof c === 'string' && o.title.startsWith(c))) { s().cancelProgress = false; src.cancel(); }
      return fn({ report: (r) => rec.reports.push(r) }, src.token);
    },
    createOutputChannel: (name) => {
      s().channels.push(name);
      return {
        name,
        appendLine: (l) => s().channelLog.push(name + ': ' + l),
        show: (p) => s().channelLog.push(name + ' shown' + (p === true ? ' (focus kept)' : '')),
        dispose: () => s().channelLog.push(name + ' disposed'),
      };
    },
    showSaveDialog: async (o) => { s().saveDialogs.push(o); return s().saveAs === undefined ? undefined : uri('file', s().saveAs); },
    showOpenDialog: async (o) => { s().openDialogs.push(o); return s().openAs === undefined ? undefined : [uri('file', s().openAs)]; },
    showTextDocument: async (d, o) => { s().opened.push(d.uri.path); s().showOptions.push(o); return {}; },
    tabGroups: { all: [], close: async () => true },
  }),
  workspace: ns({
    workspaceFolders: undefined,
    fs: { writeFile: async (u, bytes) => { s().written.push({ path: u.fsPath, bytes: bytes.length }); } },
    openTextDocument: async (u) => ({ uri: u, languageId: 'plaintext' }),
    registerTextDocumentContentProvider: (scheme, p) => { s().providers.set(scheme, p); return { dispose() {} }; },
  }),
  languages: ns({ setTextDocumentLanguage: async (d, l) => { s().languages.push(d.uri.path + ' ' + l); return { ...d, languageId: l }; } }),
  env: ns({
    clipboard: { writeText: async (t) => { s().clipboard.push(t); } },
    openExternal: async (u) => { s().external.push(u.toString()); return true; },
  }),
  commands: ns({
    executeCommand: async (id, ...a) => { s().commands.push(id + ' ' + JSON.stringify(a)); },
    registerCommand: (id, fn) => { s().registered.set(id, fn); return { dispose() {} }; },
  }),
  Uri: {
    file: (p) => uri('file', p),
    from: (o) => uri(o.scheme, o.path),
    parse: (t) => ({ toString: () => t }),
    joinPath: (b, ...p) => uri(b.scheme, [b.path, ...p].join('/')),
  },
  CancellationTokenSource: TokenSource,
  ProgressLocation: { Notification: 15 },
  TreeItemCollapsibleState: { None: 0, Collapsed: 1, Expanded: 2 },
});`;

const g = globalThis as unknown as { __dpOpsShown: Shown };

export function reset(): Shown {
  g.__dpOpsShown = {
    messages: [],
    details: [],
    clipboard: [],
    external: [],
    commands: [],
    written: [],
    opened: [],
    languages: [],
    buttons: [],
    saveDialogs: [],
    openDialogs: [],
    cancelProgress: false,
    progressTitles: [],
    progress: [],
    channels: [],
    channelLog: [],
    registered: new Map(),
    providers: new Map(),
    showOptions: [],
  };
  return g.__dpOpsShown;
}

/**
 * Installs the stand-in (call in `before`), requires the modules the test names through `load`,
 * and returns them with `restore` (call in `after`).
 */
export function standIn<T>(load: () => T): { modules: T; restore: () => void } {
  const mod = Module as unknown as { _resolveFilename: (request: string, ...rest: unknown[]) => string };
  const resolve = mod._resolveFilename;
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'dp-ops-test-'));
  const file = path.join(dir, 'vscode.js');
  fs.writeFileSync(file, STUB_SOURCE);
  reset();
  mod._resolveFilename = function (request: string, ...rest: unknown[]) {
    return request === 'vscode' ? file : resolve.call(this, request, ...rest);
  };
  forgetVscodeDependents();
  const modules = load();
  return {
    modules,
    restore: () => {
      mod._resolveFilename = resolve;
      fs.rmSync(dir, { recursive: true, force: true });
    },
  };
}

/* eslint-disable @typescript-eslint/no-require-imports */
export const loadOps = () => ({
  OpsContext: (require('../../../src/deployments/opsContext') as typeof OpsContextModule).OpsContext,
  ScriptedPrompter: (require('../../../src/ui/prompter') as typeof PrompterModule).ScriptedPrompter,
});
/* eslint-enable @typescript-eslint/no-require-imports */

export interface World {
  /** The answers of the prompter, in order; `confirm` answers every confirmation. */
  answers?: (string | string[] | undefined)[];
  confirm?: boolean;
  /** The active profile is marked production, and its confirmation is answered with this. */
  production?: boolean;
  productionConfirm?: boolean;
  /** The node the view has selected. */
  selection?: unknown;
  /** The deployments the tree shows (id and name), with their list nodes. */
  shown?: { deploymentId: number; name: string; lists?: Record<string, unknown> }[];
  /** Documents open in the JSON provider (their keys). */
  openJson?: string[];
}

/** The real OpsContext over a recording explorer context, and what it recorded. */
export function opsWorld(
  m: ReturnType<typeof loadOps>,
  client: unknown,
  w: World = {},
  build: unknown = undefined,
) {
  const refreshed: unknown[] = [];
  const secrets: string[] = [];
  const logged: string[] = [];
  const confirmed: string[] = [];
  const jsonShown: { key: string; name: string; value: unknown }[] = [];
  const jsonUpdated: { key: string; value: unknown }[] = [];
  const prompter = new m.ScriptedPrompter(w.answers ?? [], w.confirm ?? true);
  const confirmations: string[] = [];
  const confirm = prompter.confirm.bind(prompter);
  prompter.confirm = async (message: string, detail?: string, action?: string) => (
    confirmations.push(`${message} | ${detail} | ${action}`),
    confirm(message)
  );
  /** Every question as the user reads it: `input <title> | <prompt> | value=<value>[ | password]`, `pick <title> | <placeholder>`. */
  const questions: string[] = [];
  const input = prompter.input.bind(prompter);
  prompter.input = async (q) => (
    questions.push(
      `input ${q.title} | ${q.prompt ?? ''} | value=${q.value ?? ''}${q.placeHolder ? ` | e.g. ${q.placeHolder}` : ''}${q.password ? ' | password' : ''}`,
    ),
    input(q)
  );
  const pick = prompter.pick.bind(prompter);
  prompter.pick = async (title, choices, o) => {
    const placeHolder = typeof o === 'string' ? o : o?.placeHolder;
    questions.push(
      `pick ${title} | ${placeHolder ?? ''}${typeof o === 'object' && o?.typed ? ` | typed: ${o.typed.hint ?? ''}` : ''}`,
    );
    return pick(title, choices, o);
  };
  const deploymentsRoot = { id: 'deployments' };
  const shown = (w.shown ?? []).map((d) => ({
    deploymentId: d.deploymentId,
    name: d.name,
    list: (kind: string) => d.lists?.[kind] ?? { list: kind },
    opsChild: (kind: string) => d.lists?.[kind],
  }));
  const deps = {
    services: {
      log: {
        info: (l: string) => void logged.push(l),
        warn: (l: string) => void logged.push(l),
        redact: (l: string) => secrets.reduce((t, s) => t.split(s).join('***'), l),
        addSecret: (s: string) => void secrets.push(s),
      },
      clients: { build: async () => build },
      profiles: { active: () => ({ profile: { name: 'Prod', production: w.production === true } }) },
    },
    provider: {
      roots: { deployments: deploymentsRoot },
      loadedDeployments: () => shown,
      refresh: (n: unknown) => void refreshed.push(n),
    },
    json: {
      show: async (key: string, name: string, value: unknown) => (
        jsonShown.push({ key, name, value }),
        { uri: { path: name } }
      ),
      update: (key: string, value: unknown) => void jsonUpdated.push({ key, value }),
      isOpen: (key: string) => (w.openJson ?? []).includes(key),
    },
    targets: {
      client: async () => client,
      prompter: () => prompter,
      selection: () => w.selection,
    },
    async confirmWrite(what: string) {
      if (!w.production) return;
      confirmed.push(what);
      if (w.productionConfirm === false)
        throw Object.assign(new Error('Cancelled'), { name: 'UserCancelled' });
    },
  };
  const ops = new m.OpsContext(deps as unknown as ConstructorParameters<typeof m.OpsContext>[0]);
  return {
    ops,
    prompter,
    questions,
    refreshed,
    deploymentsRoot,
    secrets,
    logged,
    confirmed,
    confirmations,
    jsonShown,
    jsonUpdated,
  };
}

/** Records each call of the named methods as `name(args as JSON)` and answers with `answers[name]`. */
export function recorder<T extends Record<string, unknown>>(
  calls: string[],
  answers: Record<string, (...a: never[]) => unknown>,
): T {
  const out: Record<string, unknown> = {};
  for (const [name, fn] of Object.entries(answers))
    out[name] = async (...a: unknown[]) => {
      calls.push(
        `${name}(${a
          .filter((x) => !(x instanceof AbortSignal))
          .map((x) => JSON.stringify(x))
          .join(', ')})`,
      );
      return (fn as (...b: unknown[]) => unknown)(...a);
    };
  return out as T;
}

/** A tree row as a command receives it: `kind`, its server object, its deployment, its parent. */
export function treeNode(
  kind: string,
  data: Record<string, unknown> | undefined,
  deploymentId?: number,
  parent?: ExplorerNode,
  proto: object = ExplorerNode.prototype,
): ExplorerNode {
  const n = Object.create(proto) as ExplorerNode;
  Object.defineProperty(n, 'kind', { value: kind });
  Object.defineProperty(n, 'data', { value: data });
  Object.defineProperty(n, 'deploymentId', { value: deploymentId });
  Object.defineProperty(n, 'parent', { value: parent });
  return n;
}
