// What the workspace and notification unit tests share: a stand-in for `vscode` (a file in a temp
// folder resolved through Module._resolveFilename, as in admin/userRoles.test.ts) that records what
// the user is told, a client that records every call a flow makes (the exact arguments of each
// write), tree nodes of the kinds the commands take, and an explorer host whose production profile
// can be switched on. `useFeatureStandIn()` registers mocha's before/after hooks; require the
// modules under test through its `load` inside a `before`.
import * as fs from 'node:fs';
import Module from 'node:module';
import * as os from 'node:os';
import * as path from 'node:path';
import type * as ContextModule from '../../src/explorer/context';
import type { Item } from '../../src/explorer/loaders';
import { ExplorerNode, type NodeKind } from '../../src/explorer/nodes/types';
import type * as PrompterModule from '../../src/ui/prompter';
import { forgetVscodeDependents } from './vscodeStandIn';

/** What the stand-in records, and what a test sets for the code to read (the active editor…). */
export interface Sink {
  info: string[];
  status: string[];
  commands: { id: string; args: unknown[] }[];
  opened: { uri: string; language?: string; preview?: boolean }[];
  activeTextEditor: unknown;
  textDocuments: unknown[];
  /** Commands registered through `vscode.commands.registerCommand`, by id. */
  registered: Map<string, (...args: unknown[]) => unknown>;
  errors: string[];
  /** Where progress was shown (withProgress options). */
  progress: unknown[];
  /** Documents whose language was set, by URI; what openTextDocument then reports for them. */
  languages: Map<string, string>;
  /** How many times a document's language was set. */
  languageSets: number;
}

// Names the loaded modules read and the tests do not care about are classes (icons, tree items).
const STUB_SOURCE = `
const sink = () => globalThis.__dpFeatureSink;
const cls = () => class { constructor(...a) { this.args = a; } };
const ns = (extra) => new Proxy(extra, { get: (t, k) => (k in t ? t[k] : cls()) });
class Uri {
  constructor(scheme, path, query) { this.scheme = scheme; this.path = path; this.query = query; }
  static from(c) { return new Uri(c.scheme, c.path ?? '', c.query ?? ''); }
  toString() { return this.scheme + ':' + this.path + (this.query ? '?' + this.query : ''); }
}
class FileSystemError extends Error {
  constructor(m, code) { super(typeof m === 'string' ? m : String(m)); this.code = code; }
  static Unavailable(m) { return new FileSystemError(m, 'Unavailable'); }
  static FileNotFound(m) { return new FileSystemError(m, 'FileNotFound'); }
  static NoPermissions(m) { return new FileSystemError(m, 'NoPermissions'); }
}
class EventEmitter {
  constructor() { this.listeners = []; this.event = (l) => { this.listeners.push(l); return { dispose() {} }; }; }
  fire(e) { for (const l of this.listeners) l(e); }
  dispose() { this.listeners = []; }
}
class Disposable { constructor(f) { this.f = f; } dispose() { this.f?.(); } }
module.exports = ns({
  Uri, FileSystemError, EventEmitter, Disposable,
  FileChangeType: { Changed: 1, Created: 2, Deleted: 3 },
  FileType: { File: 1, Directory: 2 },
  FilePermission: { Readonly: 1 },
  TreeItemCollapsibleState: { None: 0, Collapsed: 1, Expanded: 2 },
  window: ns({
    showInformationMessage: async (m) => { sink().info.push(m); return undefined; },
    showErrorMessage: async (m) => { sink().errors.push(m); return undefined; },
    setStatusBarMessage: (m) => { sink().status.push(m); return { dispose() {} }; },
    withProgress: (o, f) => { sink().progress.push(o); return f({ report() {} }); },
    showTextDocument: async (doc, o) => { sink().opened.push({ uri: String(doc.uri), language: doc.languageId, preview: o?.preview }); return {}; },
    get activeTextEditor() { return sink().activeTextEditor; },
  }),
  workspace: ns({
    get textDocuments() { return sink().textDocuments; },
    openTextDocument: async (uri) => ({ uri, languageId: sink().languages.get(String(uri)) ?? 'sql' }),
    registerFileSystemProvider: (scheme, provider, options) => {
      sink().providers = { ...(sink().providers ?? {}), [scheme]: { provider, options } };
      return new Disposable();
    },
  }),
  languages: ns({
    setTextDocumentLanguage: async (doc, language) => {
      sink().languages.set(String(doc.uri), language);
      sink().languageSets += 1;
      return { ...doc, languageId: language };
    },
  }),
  commands: ns({
    executeCommand: async (id, ...args) => { sink().commands.push({ id, args }); return 'ran ' + id; },
    registerCommand: (id, fn) => { sink().registered.set(id, fn); return new Disposable(); },
  }),
});`;

export interface StandIn {
  sink: Sink;
  /** Requires a module of src/ bound to the stand-in (call inside `before`). */
  load<T>(fromTestUnit: string): T;
}

export function useFeatureStandIn(): StandIn {
  const mod = Module as unknown as { _resolveFilename: (request: string, ...rest: unknown[]) => string };
  const resolve = mod._resolveFilename;
  let dir = '';
  const sink: Sink = {
    info: [],
    status: [],
    commands: [],
    opened: [],
    activeTextEditor: undefined,
    textDocuments: [],
    registered: new Map(),
    errors: [],
    progress: [],
    languages: new Map(),
    languageSets: 0,
  };
  before(() => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'dp-feature-test-'));
    const file = path.join(dir, 'vscode.js');
    fs.writeFileSync(file, STUB_SOURCE);
    (globalThis as { __dpFeatureSink?: Sink }).__dpFeatureSink = sink;
    mod._resolveFilename = function (request: string, ...rest: unknown[]) {
      return request === 'vscode' ? file : resolve.call(this, request, ...rest);
    };
    forgetVscodeDependents();
  });
  beforeEach(() => {
    sink.info.length = 0;
    sink.status.length = 0;
    sink.commands.length = 0;
    sink.opened.length = 0;
    sink.activeTextEditor = undefined;
    sink.textDocuments = [];
    sink.registered.clear();
    sink.errors.length = 0;
    sink.progress.length = 0;
    sink.languages.clear();
    sink.languageSets = 0;
  });
  after(() => {
    mod._resolveFilename = resolve;
    fs.rmSync(dir, { recursive: true, force: true });
  });
  return {
    sink,
    // eslint-disable-next-line @typescript-eslint/no-require-imports
    load: <T>(p: string) => require(path.join(__dirname, p)) as T,
  };
}

/** One call the flow made to the platform client. */
export interface Call {
  name: string;
  args: unknown[];
}

const WRITE =
  /^(create|update|rename|move|bulk|delete|refresh|disconnect|connect|duplicate|upsert|add|remove)/;

/**
 * A platform client that records every call and answers from `handlers` (an unexpected call
 * fails the flow, naming the method). `writes()`: the calls that change something, in order.
 */
export function recordingClient(handlers: Record<string, (...args: never[]) => unknown>) {
  const calls: Call[] = [];
  const client = new Proxy(
    {},
    {
      get(_t, name) {
        // Awaiting the client (targets.client() resolves to it) must not see a thenable.
        if (typeof name !== 'string' || name === 'then') return undefined;
        return (...args: unknown[]) => {
          calls.push({ name, args });
          const h = handlers[name];
          if (!h) throw new Error(`unexpected client call ${name}`);
          return (h as (...a: unknown[]) => unknown)(...args);
        };
      },
    },
  );
  return {
    client,
    calls,
    writes: () => calls.filter((c) => WRITE.test(c.name)).map((c) => [c.name, ...c.args]),
  };
}

/** A tree row of `kind` showing `data`, under a deployment row (for deploymentId). */
export class TestNode extends ExplorerNode {
  constructor(
    readonly kind: NodeKind,
    private readonly item: Item | undefined,
    parent?: ExplorerNode,
    private readonly dep?: number,
  ) {
    super(`${parent?.id ?? ''}/${kind}:${String(item?.['id'] ?? '')}`, parent);
  }
  override get data(): Item | undefined {
    return this.item;
  }
  override get deploymentId(): number | undefined {
    return this.dep ?? super.deploymentId;
  }
  toTreeItem(): never {
    throw new Error('not rendered in these tests');
  }
}

export const deploymentRow = (id: number) => new TestNode('deployment', { id }, undefined, id);

/** A deployment's lists as the provider hands them out (one object per kind, for identity). */
export function fakeDeployment(deploymentId: number) {
  const lists = new Map<string, { kind: string; deploymentId: number; listSpec: Record<string, unknown> }>();
  return {
    deploymentId,
    lists,
    list(kind: string) {
      let l = lists.get(kind);
      if (!l) {
        const made = {
          kind,
          deploymentId,
          listSpec: {} as Record<string, unknown>,
          setSpec(spec: Record<string, unknown>) {
            made.listSpec = spec;
          },
        };
        l = made;
        lists.set(kind, made);
      }
      return l;
    },
  };
}

export interface HostOptions {
  client: object;
  prompter: PrompterModule.Prompter;
  production?: boolean;
  deployments?: number[];
  selection?: ExplorerNode[];
  /** The deployment's /v1/meta, for the flows that pick members. */
  meta?: unknown;
  /** The tree view (selection, reveal, selection events) when a test drives it. */
  view?: { selection: readonly ExplorerNode[] };
}

/** An explorer host (the real explorerContext is built on it) recording refreshes and JSON shown. */
export function fakeHost(load: StandIn['load'], o: HostOptions) {
  const { explorerContext } = load<typeof ContextModule>('../../src/explorer/context');
  const deployments = (o.deployments ?? [5]).map(fakeDeployment);
  const refreshed: unknown[] = [];
  const changed: unknown[] = [];
  const shown: { key: string; title: string; value: unknown }[] = [];
  const provider = {
    loadedDeployments: () => deployments,
    refresh: (n: unknown) => void refreshed.push(n),
    changedRow: (n: unknown) => void changed.push(n),
    roots: {},
  };
  const view = o.view ?? { selection: o.selection ?? [] };
  const host = {
    services: {
      log: { debug() {}, error() {}, trace() {}, info() {}, warn() {}, show() {} },
      context: { subscriptions: [] as unknown[] },
      profiles: { active: () => ({ profile: { name: 'Live', production: o.production === true } }) },
      clients: {
        platform: async () => o.client,
        data: async () => ({
          meta: async () => o.meta ?? { cubes: [] },
        }),
      },
    },
    view,
    json: {
      show: async (key: string, title: string, value: unknown) => {
        shown.push({ key, title, value });
        return { key };
      },
    },
    provider: () => provider,
    prompterOverride: () => o.prompter,
  };
  const ctx = explorerContext(host as unknown as ContextModule.ExplorerHost);
  /** The refreshed lists, as `deploymentId:kind`, and tree rows as `node <id>`. */
  const refreshedLists = () =>
    refreshed.map((n) => {
      if (n instanceof ExplorerNode) return `node ${n.id}`;
      const l = n as { kind: string; deploymentId: number };
      return `${l.deploymentId}:${l.kind}`;
    });
  return { ctx, host, deployments, refreshed, refreshedLists, changed, shown, view };
}

/** A question as the user saw it (title, the prompt under the box, the prefilled value). */
export interface Asked {
  title: string;
  prompt?: string;
  value?: string;
  placeHolder?: string;
}

/**
 * A ScriptedPrompter whose confirmations answer in turn from `confirms` (true when they run out)
 * and that keeps every input question and every confirmation it was shown.
 */
export function scripted(
  P: typeof PrompterModule.ScriptedPrompter,
  answers: (string | string[] | undefined)[],
  confirms: boolean[] = [],
) {
  const p = new P(answers);
  const inputs: Asked[] = [];
  const confirmations: { message: string; detail: string; action: string }[] = [];
  /** Each pick as shown: its placeholder and the rows it opened on (`active`, or checked rows). */
  const picks: { title: string; placeHolder?: string; hint?: string; active: string[] }[] = [];
  const pick = p.pick.bind(p);
  p.pick = async <T>(
    title: string,
    choices: PrompterModule.Choice<T>[],
    o?: string | PrompterModule.PickOptions<T>,
  ) => {
    const opts = typeof o === 'string' ? { placeHolder: o } : (o ?? {});
    picks.push({
      title,
      ...(opts.placeHolder !== undefined ? { placeHolder: opts.placeHolder } : {}),
      ...(opts.typed ? { hint: opts.typed.hint } : {}),
      active: choices.filter((c) => opts.active?.(c.value)).map((c) => c.label),
    });
    return pick(title, choices, o);
  };
  const pickMany = p.pickMany.bind(p);
  p.pickMany = async <T>(
    title: string,
    choices: PrompterModule.Choice<T>[],
    opts: PrompterModule.PickOptions<T> = {},
  ) => {
    picks.push({
      title,
      ...(opts.placeHolder !== undefined ? { placeHolder: opts.placeHolder } : {}),
      active: choices.filter((c) => opts.selected?.(c.value)).map((c) => c.label),
    });
    return pickMany(title, choices, opts);
  };
  const input = p.input.bind(p);
  p.input = async (q) => {
    inputs.push({
      title: q.title ?? '',
      ...(q.prompt !== undefined ? { prompt: q.prompt } : {}),
      ...(q.value !== undefined ? { value: q.value } : {}),
      ...(q.placeHolder !== undefined ? { placeHolder: q.placeHolder } : {}),
    });
    return input(q);
  };
  (p as { confirm: PrompterModule.Prompter['confirm'] }).confirm = async (message, detail, action) => {
    confirmations.push({ message, detail, action });
    return confirms.length > 0 ? confirms.shift()! : true;
  };
  return Object.assign(p, { inputs, confirmations, picks });
}

/** The error a promise rejected with, or undefined when it resolved. */
export async function failure(p: Promise<unknown>): Promise<Error | undefined> {
  return p.then(
    () => undefined,
    (e: Error) => e,
  );
}
