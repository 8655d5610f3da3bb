// The startup bundle's activation, in plain Node with a recording stand-in for `vscode`: activate()
// returns before the features register (VS Code times only that part), and its promise resolves
// only once every contributed command is registered, since VS Code runs a command that activated
// the extension as soon as that promise resolves. Needs the build (`node esbuild.mjs`).
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import Module from 'node:module';
import * as os from 'node:os';
import * as path from 'node:path';
import { ANY_MEMBER } from '../../bench/vscodeStub';

const root = path.resolve(__dirname, '..', '..', '..');
const bundle = path.join(root, 'dist', 'extension.js');
const manifest = JSON.parse(fs.readFileSync(path.join(root, 'package.json'), 'utf8')) as {
  activationEvents: string[];
  contributes: { commands: { command: string }[] };
};

/**
 * Any member is a callable, constructible no-op whose members are the same; lists are empty;
 * settings answer their defaults; `commands.registerCommand` records into `globalThis.__registered`.
 */
const STUB = `${ANY_MEMBER}
const config = { get: (key, d) => d, inspect: () => undefined, update: () => Promise.resolve(), has: () => false };
const registered = (globalThis.__registered = new Set());
module.exports = {
  window: f,
  workspace: new Proxy(function () {}, { ...handler, get: (t, k) => (k === 'getConfiguration' ? () => config : handler.get(t, k)) }),
  commands: {
    registerCommand: (id) => {
      // As VS Code does: two features claiming one command id is an error.
      if (registered.has(id)) throw new Error('command ' + id + ' already exists');
      registered.add(id);
      return { dispose: () => registered.delete(id) };
    },
    executeCommand: () => Promise.resolve(undefined),
  },
  chat: f, lm: f, l10n: f, env: f, languages: f, notebooks: f, extensions: f, debug: f, tasks: f, tests: f, scm: f, comments: f, authentication: f,
  EventEmitter: f, Disposable: f, Uri: f, ThemeIcon: f, ThemeColor: f, TreeItem: f, MarkdownString: f, StatusBarAlignment: f, TreeItemCollapsibleState: f,
};
`;

describe('activation (startup bundle)', function () {
  this.timeout(20_000);
  let dir: string;
  const mod = Module as unknown as { _resolveFilename: (request: string, ...rest: unknown[]) => string };
  const resolve = mod._resolveFilename;

  before(function () {
    if (!fs.existsSync(bundle)) this.skip();
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'dp-activation-test-'));
    const stub = path.join(dir, 'vscode.js');
    fs.writeFileSync(stub, STUB);
    mod._resolveFilename = function (request: string, ...rest: unknown[]) {
      return request === 'vscode' ? stub : resolve.call(this, request, ...rest);
    };
  });

  after(() => {
    mod._resolveFilename = resolve;
    if (dir) fs.rmSync(dir, { recursive: true, force: true });
  });

  it('returns before registering the features and resolves once every contributed command is registered', async () => {
    // eslint-disable-next-line @typescript-eslint/no-require-imports
    const ext = require(bundle) as { activate(ctx: unknown): unknown };
    const registered = (globalThis as unknown as { __registered: Set<string> }).__registered;
    const memento = { get: (_k: string, d?: unknown) => d, update: () => Promise.resolve(), keys: () => [] };
    const subscriptions: { dispose(): void }[] = [];
    const context = {
      subscriptions,
      workspaceState: memento,
      globalState: memento,
      secrets: { get: () => Promise.resolve(undefined), onDidChange: () => ({ dispose() {} }) },
      extension: { packageJSON: manifest },
      extensionUri: {},
    };
    const contributed = manifest.contributes.commands.map((c) => c.command);
    assert.ok(contributed.length > 50, 'the manifest contributes the commands');

    const result = ext.activate(context);
    assert.ok(result instanceof Promise, 'activate() returns a promise');
    const missingAtReturn = contributed.filter((id) => !registered.has(id));
    assert.ok(
      missingAtReturn.length > 0,
      'the features register after activate() returns (otherwise VS Code counts them)',
    );

    const api = (await result) as { statusBarText(): string; explorer: unknown };
    const missing = contributed.filter((id) => !registered.has(id));
    assert.deepEqual(missing, [], `not registered when activation resolved: ${missing.join(', ')}`);
    assert.equal(typeof api.statusBarText, 'function');
    assert.ok(api.explorer);

    for (const s of subscriptions.splice(0)) s.dispose();
    const left = contributed.filter((id) => registered.has(id));
    assert.deepEqual(left, [], 'disposing the subscriptions unregisters every command');
  });

  it('requires vscode once (one namespace for the whole bundle)', () => {
    const text = fs.readFileSync(bundle, 'utf8');
    assert.equal(text.match(/require\("vscode"\)/g)?.length, 1);
  });

  it('loads neither the explorer tree nor node:tls or worker_threads when the bundle is required', () => {
    const text = fs.readFileSync(bundle, 'utf8');
    assert.doesNotMatch(
      text,
      /^\/\/ src\/explorer\/(nodes|deployment|admin)\//m,
      'the tree is in dist/tree.js',
    );
    // A require at the top level of the bundle (column 0 or a module's top-level `var`) runs at load.
    assert.doesNotMatch(text, /^(var \w+ = )?(__toESM\()?require\("node:(tls|worker_threads)"\)/m);
    assert.ok(fs.existsSync(path.join(root, 'dist', 'tree.js')));
  });
});

describe('activation events (package.json)', () => {
  it('never activates at startup for every window: no "*" or onStartupFinished', () => {
    // onStartupFinished activates in one burst with the built-in extensions that use it, and VS Code
    // counts the code loading of those before ours in our activation time.
    for (const e of ['*', 'onStartupFinished']) assert.ok(!manifest.activationEvents.includes(e), e);
  });

  it('activates for a folder holding notebooks or dashboard files, and for restored model folders and chats', () => {
    for (const e of [
      'workspaceContains:**/*.dpnb',
      'workspaceContains:**/*.dashboard.json',
      'onFileSystem:dpmodel',
      'onWebviewPanel:dashboardPlatform.chat',
    ])
      assert.ok(manifest.activationEvents.includes(e), e);
  });
});
