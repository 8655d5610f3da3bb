// What the profile command, status bar and connection review tests share: a stand-in for `vscode`
// (a file in a temp folder resolved through Module._resolveFilename, as in admin/userRoles.test.ts)
// that answers input boxes, quick picks and modal messages from a script and records what was asked
// and shown; the product's quick-input prompter replaced by a ScriptedPrompter the test sets; and a
// profile service that keeps profiles and secrets in memory and records every write.
// `useProfileStandIn()` registers mocha's hooks; require modules through its `load` inside `before`.
import * as fs from 'node:fs';
import Module from 'node:module';
import * as os from 'node:os';
import * as path from 'node:path';
import type { Profile, SecretKind } from '../../src/profiles/profileModel';
import type { Prompter } from '../../src/ui/prompter';
import { forgetVscodeDependents } from './vscodeStandIn';

/** A message shown: its kind, text, options (modal, detail) and buttons. */
export interface Shown {
  kind: 'info' | 'warning' | 'error';
  message: string;
  options?: { modal?: boolean; detail?: string };
  buttons: string[];
}

export interface QuickPickItemLike {
  label: string;
  description?: string;
  detail?: string;
  kind?: number;
  iconPath?: { id: string };
  [k: string]: unknown;
}

export interface ProfileSink {
  /** Answers, in order, to input boxes, quick picks (by label) and modal messages (the button). */
  answers: (string | undefined)[];
  shown: Shown[];
  inputs: { prompt?: string; password?: boolean; refusals: string[] }[];
  quickPicks: { items: QuickPickItemLike[]; placeHolder?: string }[];
  progress: { title?: string; cancellable?: boolean }[];
  registered: Map<string, (...args: unknown[]) => unknown>;
  items: StatusItemLike[];
  /** The prompter the product's vscodePrompter forwards to. */
  prompter: Prompter | undefined;
  /** User settings by full key ("http.proxy"). */
  settings: Record<string, unknown>;
}

export interface StatusItemLike {
  id: string;
  alignment: number;
  priority: number;
  name?: string;
  text: string;
  command?: string;
  tooltip?: string | { value: string; isTrusted?: boolean; supportThemeIcons?: boolean };
  backgroundColor?: { id: string };
  shown: boolean;
  disposed: boolean;
}

const STUB_SOURCE = `
const sink = () => globalThis.__dpProfileSink;
class EventEmitter {
  constructor() { this.listeners = []; this.event = (l) => { this.listeners.push(l); return { dispose() {} }; }; }
  fire(e) { for (const l of this.listeners) l(e); }
  dispose() { this.listeners = []; }
}
class Disposable { constructor(f) { this.f = f; } dispose() { this.f?.(); } }
class ThemeColor { constructor(id) { this.id = id; } }
class ThemeIcon { constructor(id) { this.id = id; } }
class MarkdownString {
  constructor(value, supportThemeIcons) { this.value = value ?? ''; this.supportThemeIcons = supportThemeIcons; }
  appendMarkdown(t) { this.value += t; return this; }
}
const message = (kind) => async (m, ...rest) => {
  const options = rest.length && typeof rest[0] === 'object' ? rest.shift() : undefined;
  sink().shown.push({ kind, message: m, options, buttons: rest });
  if (!options || !options.modal) return undefined;
  if (sink().answers.length === 0) throw new Error('no scripted answer for: ' + m);
  return sink().answers.shift();
};
module.exports = {
  EventEmitter, Disposable, ThemeColor, ThemeIcon, MarkdownString,
  StatusBarAlignment: { Left: 1, Right: 2 },
  ProgressLocation: { SourceControl: 1, Window: 10, Notification: 15 },
  QuickPickItemKind: { Separator: -1, Default: 0 },
  window: {
    createStatusBarItem: (id, alignment, priority) => {
      const item = { id, alignment, priority, text: '', shown: false, disposed: false,
        show() { this.shown = true; }, dispose() { this.disposed = true; } };
      sink().items.push(item);
      return item;
    },
    showInformationMessage: message('info'),
    showWarningMessage: message('warning'),
    showErrorMessage: message('error'),
    showQuickPick: async (items, options) => {
      sink().quickPicks.push({ items, placeHolder: options?.placeHolder });
      if (sink().answers.length === 0) throw new Error('no scripted answer for the pick ' + options?.placeHolder);
      const a = sink().answers.shift();
      if (a === undefined) return undefined;
      const item = items.find((i) => i.label === a);
      if (!item) throw new Error('no item ' + a + ' in ' + items.map((i) => i.label).join(', '));
      return item;
    },
    showInputBox: async (o) => {
      const asked = { prompt: o.prompt, password: o.password, refusals: [] };
      sink().inputs.push(asked);
      for (;;) {
        if (sink().answers.length === 0) throw new Error('no scripted answer for the input ' + o.prompt);
        const a = sink().answers.shift();
        if (a === undefined) return undefined;
        const problem = o.validateInput ? await o.validateInput(a) : undefined;
        if (!problem) return a;
        asked.refusals.push(problem);
      }
    },
    withProgress: (o, f) => {
      sink().progress.push({ title: o.title, cancellable: o.cancellable });
      return f({ report() {} }, { isCancellationRequested: false, onCancellationRequested: () => ({ dispose() {} }) });
    },
  },
  env: { machineId: 'test-machine-id' },
  workspace: {
    getConfiguration: (section) => ({
      get: (k, d) => sink().settings[section + '.' + k] ?? d,
      inspect: (k) => ({ key: section + '.' + k, globalValue: sink().settings[section + '.' + k] }),
    }),
  },
  commands: {
    registerCommand: (id, fn) => { sink().registered.set(id, fn); return new Disposable(); },
    executeCommand: async () => undefined,
  },
};`;

// The product's prompter (quick inputs) forwards to the one the test sets.
const PROMPTER_SOURCE = `
const p = () => {
  const it = globalThis.__dpProfileSink.prompter;
  if (!it) throw new Error('no prompter set');
  return it;
};
exports.vscodePrompter = {
  input: (...a) => p().input(...a),
  pick: (...a) => p().pick(...a),
  pickMany: (...a) => p().pickMany(...a),
  confirm: (...a) => p().confirm(...a),
};`;

export interface ProfileStandIn {
  sink: ProfileSink;
  load<T>(fromTestUnit: string): T;
}

export function useProfileStandIn(): ProfileStandIn {
  const mod = Module as unknown as { _resolveFilename: (request: string, ...rest: unknown[]) => string };
  const resolve = mod._resolveFilename;
  let dir = '';
  const sink: ProfileSink = {
    answers: [],
    shown: [],
    inputs: [],
    quickPicks: [],
    progress: [],
    registered: new Map(),
    items: [],
    prompter: undefined,
    settings: {},
  };
  before(() => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'dp-profile-test-'));
    const file = path.join(dir, 'vscode.js');
    const prompterFile = path.join(dir, 'vscodePrompter.js');
    fs.writeFileSync(file, STUB_SOURCE);
    fs.writeFileSync(prompterFile, PROMPTER_SOURCE);
    (globalThis as { __dpProfileSink?: ProfileSink }).__dpProfileSink = sink;
    mod._resolveFilename = function (request: string, ...rest: unknown[]) {
      if (request === 'vscode') return file;
      if (request === '../ui/vscodePrompter') return prompterFile;
      return resolve.call(this, request, ...rest);
    };
    forgetVscodeDependents();
  });
  beforeEach(() => {
    sink.answers = [];
    sink.shown = [];
    sink.inputs = [];
    sink.quickPicks = [];
    sink.progress = [];
    sink.registered.clear();
    sink.items = [];
    sink.prompter = undefined;
    sink.settings = {};
  });
  after(() => {
    mod._resolveFilename = resolve;
    // Suites after this one load the same modules with their own stand-in.
    forgetVscodeDependents();
    fs.rmSync(dir, { recursive: true, force: true });
  });
  return {
    sink,
    // eslint-disable-next-line @typescript-eslint/no-require-imports
    load: <T>(p: string) => require(path.join(__dirname, p)) as T,
  };
}

/** A log that keeps its lines (info, warn, error, debug). */
export function memoryLog() {
  const lines: string[] = [];
  const at = (level: string) => (m: string) => void lines.push(`${level}: ${m}`);
  return {
    lines,
    log: {
      info: at('info'),
      warn: at('warn'),
      error: at('error'),
      debug: at('debug'),
      trace: at('trace'),
      show: () => undefined,
      redact: (s: string) => s,
      remember: () => undefined,
    },
  };
}

type Listener = () => void;

/**
 * The profile service the commands and the status bar use, in memory: profiles by name (one of
 * them the sandbox), which come from the workspace's settings and which are trusted, and a record
 * of every write (save, switch, remove, secrets).
 */
export class FakeProfiles {
  readonly writes: unknown[][] = [];
  readonly sessionSecrets: { name: string; kind: SecretKind; value: string }[] = [];
  readonly remembered: string[] = [];
  activeName: string | undefined;
  readonly workspace = new Set<string>();
  readonly trusted = new Set<string>();
  readonly shadowing = new Set<string>();
  /** SecretStorage fails with this error when set. */
  secretFailure: Error | undefined;
  sandbox = { current: undefined as unknown };
  readonly stored = new Map<string, string>();
  private readonly listeners = {
    active: [] as Listener[],
    list: [] as Listener[],
    secrets: [] as Listener[],
  };

  constructor(
    public profiles: Profile[],
    readonly sandboxProfile: Profile = { name: 'Sandbox', platformUrl: 'http://127.0.0.1:1/api', agents: [] },
  ) {}

  list(): Profile[] {
    return [...this.profiles, this.sandboxProfile];
  }
  storedProfiles(): Profile[] {
    return [...this.profiles];
  }
  get(name: string): Profile | undefined {
    if (this.isSandbox(name)) return this.sandboxProfile;
    return this.profiles.find((p) => p.name.toLowerCase() === name.toLowerCase());
  }
  isSandbox(name: string | undefined): boolean {
    return name?.toLowerCase() === 'sandbox';
  }
  scopeOf(name: string): 'user' | 'workspace' {
    return this.workspace.has(name) ? 'workspace' : 'user';
  }
  isTrusted(name: string): boolean {
    return this.trusted.has(name);
  }
  shadowsUserProfile(name: string): boolean {
    return this.shadowing.has(name);
  }
  active(): { profile: Profile; isSandbox: boolean } | undefined {
    const p = this.activeName === undefined ? undefined : this.get(this.activeName);
    return p && { profile: p, isSandbox: this.isSandbox(p.name) };
  }
  async save(profile: Profile, previousName?: string): Promise<void> {
    // As settings hold it (JSON: no keys of undefined values).
    const held = JSON.parse(JSON.stringify(profile)) as unknown;
    this.writes.push(previousName === undefined ? ['save', held] : ['save', held, previousName]);
    const at = this.profiles.findIndex((p) => p.name === (previousName ?? profile.name));
    if (at >= 0) this.profiles[at] = profile;
    else this.profiles.push(profile);
  }
  async switchTo(name: string): Promise<void> {
    this.writes.push(['switchTo', name]);
    this.activeName = name;
    for (const l of this.listeners.active) l();
  }
  async remove(name: string): Promise<void> {
    this.writes.push(['remove', name]);
    this.profiles = this.profiles.filter((p) => p.name !== name);
  }
  async clearSecrets(name: string): Promise<void> {
    this.writes.push(['clearSecrets', name]);
  }
  async setSecret(name: string, kind: SecretKind, value: string, ask: boolean): Promise<'secretStorage'> {
    if (this.secretFailure) throw this.secretFailure;
    this.writes.push(['setSecret', name, kind, value, ask]);
    this.stored.set(`${name}/${kind}`, value);
    return 'secretStorage';
  }
  setSessionSecret(name: string, kind: SecretKind, value: string): void {
    this.writes.push(['setSessionSecret', name, kind, value]);
  }
  async getSecret(kind: SecretKind, name?: string): Promise<{ value: string } | undefined> {
    const v = this.stored.get(`${name}/${kind}`);
    return v === undefined ? undefined : { value: v };
  }
  rememberSecret(value: string): void {
    this.remembered.push(value);
  }
  onDidChangeActiveProfile = (l: Listener) => this.on('active', l);
  onDidChangeProfiles = (l: Listener) => this.on('list', l);
  onDidChangeSecrets = (l: Listener) => this.on('secrets', l);
  fire(which: 'active' | 'list' | 'secrets'): void {
    for (const l of this.listeners[which]) l();
  }
  private on(which: 'active' | 'list' | 'secrets', l: Listener) {
    this.listeners[which].push(l);
    return { dispose: () => void this.listeners[which].splice(this.listeners[which].indexOf(l), 1) };
  }
}
