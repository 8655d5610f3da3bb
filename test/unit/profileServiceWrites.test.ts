// What ProfileService (src/profiles/profileService.ts) writes: a profile saved, renamed or removed
// in the settings level it is defined in (user, workspace or folder; unknown fields of the other
// entries kept), secrets moved or deleted with it, the active profile kept in workspace state and
// never in settings; the built-in Sandbox refused; settings problems told once. Plain Node, with a
// stand-in for `vscode` holding the settings of each level.
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import Module from 'node:module';
import * as os from 'node:os';
import * as path from 'node:path';
import { forgetSecrets } from '../../src/api/log';
import { KnownSecrets } from '../../src/log';
import type { Profile } from '../../src/profiles/profileModel';
import type * as ServiceModule from '../../src/profiles/profileService';
import { forgetVscodeDependents } from './vscodeStandIn';

interface Stub {
  global: Record<string, unknown>;
  workspace: Record<string, unknown>;
  folder: Record<string, unknown>;
  updates: [string, unknown, string][];
  warnings: string[];
  configListeners: ((e: { affectsConfiguration(k: string): boolean }) => void)[];
}

const STUB_SOURCE = `
const s = () => globalThis.__dpServiceStub();
class EventEmitter {
  constructor() { this.listeners = new Set(); }
  get event() { return (fn) => { this.listeners.add(fn); return { dispose: () => this.listeners.delete(fn) }; }; }
  fire(v) { for (const f of [...this.listeners]) f(v); }
  dispose() { this.listeners.clear(); }
}
const level = { 1: 'global', 2: 'workspace', 3: 'folder' };
module.exports = {
  EventEmitter,
  ConfigurationTarget: { Global: 1, Workspace: 2, WorkspaceFolder: 3 },
  workspace: {
    isTrusted: true,
    workspaceFile: undefined,
    get workspaceFolders() { return [{ uri: { toString: () => 'file:///repo' } }]; },
    getConfiguration: (section) => {
      const full = (k) => section + '.' + k;
      return {
        get: (k, d) => s().folder[full(k)] ?? s().workspace[full(k)] ?? s().global[full(k)] ?? d,
        inspect: (k) => ({
          key: full(k),
          globalValue: s().global[full(k)],
          workspaceValue: s().workspace[full(k)],
          workspaceFolderValue: s().folder[full(k)],
        }),
        update: async (k, v, target) => { s().updates.push([full(k), v, level[target]]); s()[level[target]][full(k)] = v; },
      };
    },
    onDidChangeConfiguration: (fn) => { s().configListeners.push(fn); return { dispose() {} }; },
    onDidGrantWorkspaceTrust: () => ({ dispose() {} }),
  },
  window: {
    showWarningMessage: async (m) => { s().warnings.push(m); return undefined; },
    showInputBox: async () => undefined,
  },
};
`;

const KEY = 'dashboardPlatform.profiles';
const ACTIVE = 'dashboardPlatform.activeProfile';

describe('ProfileService: what saving, renaming, removing and switching write', () => {
  let stub: Stub;
  let secrets: Map<string, string>;
  let state: Map<string, unknown>;
  let Service: typeof ServiceModule.ProfileService;
  let dir: string;
  const mod = Module as unknown as { _resolveFilename: (request: string, ...rest: unknown[]) => string };
  const resolve = mod._resolveFilename;

  before(() => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'dp-service-test-'));
    const file = path.join(dir, 'vscode.js');
    fs.writeFileSync(file, STUB_SOURCE);
    (globalThis as { __dpServiceStub?: () => Stub }).__dpServiceStub = () => stub;
    mod._resolveFilename = function (request: string, ...rest: unknown[]) {
      return request === 'vscode' ? file : resolve.call(this, request, ...rest);
    };
    forgetVscodeDependents();
    // eslint-disable-next-line @typescript-eslint/no-require-imports
    ({ ProfileService: Service } = require('../../src/profiles/profileService') as typeof ServiceModule);
  });
  after(() => {
    mod._resolveFilename = resolve;
    forgetVscodeDependents();
    fs.rmSync(dir, { recursive: true, force: true });
    forgetSecrets();
  });
  beforeEach(() => {
    stub = { global: {}, workspace: {}, folder: {}, updates: [], warnings: [], configListeners: [] };
    secrets = new Map();
    state = new Map();
  });

  function service() {
    const logged: string[] = [];
    const context = {
      secrets: {
        get: async (k: string) => secrets.get(k),
        store: async (k: string, v: string) => void secrets.set(k, v),
        delete: async (k: string) => void secrets.delete(k),
        onDidChange: () => ({ dispose() {} }),
      },
      workspaceState: {
        get: <T>(k: string) => state.get(k) as T | undefined,
        update: async (k: string, v: unknown) => void state.set(k, v),
      },
      globalState: { get: () => undefined, update: async () => undefined },
    };
    const at = (l: string) => (m: string) => void logged.push(`${l}: ${m}`);
    const log = { info: at('info'), warn: at('warn'), debug: at('debug') };
    const sandbox = { current: undefined, onDidChange: () => ({ dispose() {} }) };
    const ps = new Service(context as never, log as never, sandbox as never, new KnownSecrets(), {});
    const events: string[] = [];
    ps.onDidChangeProfiles(() => events.push('list'));
    ps.onDidChangeActiveProfile((a) => events.push(`active:${a?.profile.name ?? ''}`));
    return { ps, logged, events };
  }

  const p = (
    name: string,
    platformUrl = 'https://a.example.com/api',
    extra: Partial<Profile> = {},
  ): Profile => ({
    name,
    platformUrl,
    agents: [],
    ...extra,
  });

  it('a new profile goes to the user settings, the other entries kept as they were', async () => {
    stub.global[KEY] = [{ name: 'Old', platformUrl: 'https://o.example.com/api', custom: { x: 1 } }];
    const { ps, events } = service();
    await ps.save(p('New', 'https://n.example.com/api', { dataApiUrl: undefined, production: true }));
    assert.deepEqual(stub.updates, [
      [
        KEY,
        [
          { name: 'Old', platformUrl: 'https://o.example.com/api', custom: { x: 1 } },
          { name: 'New', platformUrl: 'https://n.example.com/api', agents: [], production: true },
        ],
        'global',
      ],
    ]);
    assert.deepEqual(events, ['list']);
    assert.deepEqual(
      ps.list().map((x) => x.name),
      ['Old', 'New', 'Sandbox'],
    );
  });

  it('refuses the Sandbox and a name another profile has, writing nothing', async () => {
    stub.global[KEY] = [p('A'), p('B')];
    const { ps } = service();
    await assert.rejects(ps.save(p('sandbox')), /"Sandbox" is built in and cannot be saved\./);
    await assert.rejects(ps.save(p('b'), 'A'), /A profile named "b" already exists\./);
    await assert.rejects(ps.remove(' Sandbox '), /"Sandbox" is built in and cannot be removed\./);
    assert.deepEqual(stub.updates, []);
    // Its own name in another case is no clash: the entry is replaced in place.
    await ps.save(p('a', 'https://a2.example.com/api'), 'A');
    assert.deepEqual(stub.updates[0]?.[1], [
      { name: 'a', platformUrl: 'https://a2.example.com/api', agents: [] },
      { name: 'B', platformUrl: 'https://a.example.com/api', agents: [] },
    ]);
  });

  it('a workspace profile is written back to the workspace (or its folder) settings', async () => {
    stub.global[KEY] = [p('Mine')];
    stub.workspace[KEY] = [{ name: 'Team', platformUrl: 'https://t.example.com/api', note: 'kept' }];
    const { ps } = service();
    assert.equal(ps.scopeOf(' team '), 'workspace');
    await ps.save(p('Team', 'https://t2.example.com/api'));
    assert.deepEqual(stub.updates, [
      [KEY, [{ name: 'Team', platformUrl: 'https://t2.example.com/api', agents: [] }], 'workspace'],
    ]);

    stub.updates = [];
    stub.workspace = {};
    stub.folder[KEY] = [{ name: 'Team', platformUrl: 'https://t.example.com/api' }];
    const second = service().ps;
    await second.remove('Team');
    assert.deepEqual(stub.updates, [[KEY, [], 'folder']]);
  });

  it('renaming moves the stored secrets and the active choice to the new name', async () => {
    stub.global[KEY] = [p('Prod')];
    const { ps, logged } = service();
    await ps.switchTo('prod');
    await ps.setSecret('Prod', 'platformToken', 'tok-rename-1');
    await ps.save(p('Prod EU'), 'Prod');
    assert.equal((await ps.getSecret('platformToken', 'Prod EU'))?.value, 'tok-rename-1');
    assert.deepEqual([...secrets.keys()], ['dashboardPlatform.profile.Prod%20EU.platformToken']);
    assert.equal(state.get(ACTIVE), 'Prod EU');
    assert.equal(ps.active()?.profile.name, 'Prod EU');
    assert.ok(logged.includes('info: Active profile: Prod'));
    // Settings hold no active profile: the choice is this workspace's state.
    assert.deepEqual(
      stub.updates.map((u) => u[0]),
      [KEY],
    );
  });

  it('removing deletes its secrets and, when it was active, leaves no active profile', async () => {
    stub.global[KEY] = [p('One'), p('Two')];
    const { ps, events } = service();
    await ps.switchTo('Two');
    await ps.setSecret('Two', 'aiApiKey', 'key-remove-1');
    events.length = 0;
    await ps.remove('Two');
    assert.deepEqual(stub.updates, [
      [KEY, [{ name: 'One', platformUrl: 'https://a.example.com/api', agents: [] }], 'global'],
    ]);
    assert.deepEqual([...secrets.keys()], []);
    assert.equal(state.get(ACTIVE), '');
    assert.equal(ps.active(), undefined);
    assert.deepEqual(events, ['list', 'active:']);

    // A name given in another case and with spaces removes the stored profile's secrets too.
    stub.global[KEY] = [p('One'), p('Four')];
    const cased = service().ps;
    await cased.switchTo('Four');
    await cased.setSecret('Four', 'aiApiKey', 'key-remove-4');
    assert.deepEqual([...secrets.keys()].length, 1);
    await cased.remove(' four ');
    assert.deepEqual([...secrets.keys()], [], 'no secret left behind');
    assert.equal(state.get(ACTIVE), '');

    // Removing another profile keeps the active one.
    await ps.switchTo('One');
    stub.global[KEY] = [p('One'), p('Three')];
    const again = service().ps;
    await again.remove('Three');
    assert.equal(state.get(ACTIVE), 'One');
    assert.equal(again.active()?.profile.name, 'One');
  });

  it('switching refuses an unknown name, and switching to none says so', async () => {
    stub.global[KEY] = [p('One')];
    const { ps, logged, events } = service();
    await assert.rejects(ps.switchTo('Nope'), /There is no profile named "Nope"\./);
    assert.equal(state.get(ACTIVE), '');
    await ps.switchTo('Sandbox');
    assert.equal(ps.active()?.isSandbox, true);
    await ps.switchTo(undefined);
    assert.equal(ps.active(), undefined);
    assert.deepEqual(
      logged.filter((l) => l.startsWith('info')),
      ['info: Active profile: Sandbox', 'info: No active profile'],
    );
    assert.deepEqual(events, ['active:Sandbox', 'active:']);
    assert.deepEqual(stub.updates, []);
  });

  it('takes over an older activeProfile setting once, warns of an unknown one, and tells each settings problem once', async () => {
    stub.global[KEY] = [p('One'), { name: 'Bad', platformUrl: 'http://bad.example.com/api' }];
    stub.global[ACTIVE] = ' One ';
    const first = service();
    assert.equal(first.ps.active()?.profile.name, 'One');
    assert.equal(state.get(ACTIVE), 'One');
    assert.equal(first.ps.settingsProblems().length, 1);
    assert.ok(first.logged.some((l) => l.startsWith('warn: ') && l.includes('Bad')));
    // At start the problem is logged, not shown; an edit of the settings shows a new one once.
    assert.deepEqual(stub.warnings, []);
    stub.global[KEY] = [
      p('One'),
      { name: 'Bad', platformUrl: 'http://bad.example.com/api' },
      { name: 'Worse' },
    ];
    for (const l of stub.configListeners) l({ affectsConfiguration: (k) => k === KEY });
    assert.equal(stub.warnings.length, 1);
    assert.match(stub.warnings[0]!, /Worse/);
    // A change of another setting reads nothing again.
    stub.global[KEY] = [p('One'), p('Later')];
    for (const l of stub.configListeners) l({ affectsConfiguration: (k) => k === 'dashboardPlatform.other' });
    assert.equal(first.ps.get('Later'), undefined);
    stub.global[KEY] = [
      p('One'),
      { name: 'Bad', platformUrl: 'http://bad.example.com/api' },
      { name: 'Worse' },
    ];
    // An entry that is ignored does not change the list.
    assert.deepEqual(first.events, []);

    // The setting edited by hand becomes this workspace's choice; a name not defined is warned of.
    stub.global[ACTIVE] = 'Ghost';
    for (const l of stub.configListeners) l({ affectsConfiguration: (k) => k === ACTIVE });
    await new Promise((r) => setImmediate(r));
    assert.equal(state.get(ACTIVE), 'Ghost');
    assert.equal(first.ps.active(), undefined);
    assert.ok(
      first.logged.includes('warn: Active profile "Ghost" is not defined in dashboardPlatform.profiles.'),
    );
    assert.deepEqual(first.events, ['active:']);
  });

  it('finds profiles by name whatever the case and spaces; the Sandbox is built in', () => {
    stub.global[KEY] = [p('Prod EU')];
    stub.workspace[KEY] = [p('Prod EU', 'https://w.example.com/api')];
    const { ps } = service();
    assert.equal(ps.get('  prod eu ')?.platformUrl, 'https://w.example.com/api');
    assert.equal(ps.shadowsUserProfile(' PROD EU'), true);
    assert.equal(ps.shadowedUserProfile('prod eu ')?.platformUrl, 'https://a.example.com/api');
    assert.equal(ps.isSandbox(' sandbox '), true);
    assert.equal(ps.isSandbox('Sandboxes'), false);
    assert.equal(ps.isSandbox(undefined), false);
    // Before the sandbox runs its URLs are not known: a loopback placeholder, no Data API.
    assert.deepEqual(ps.get('SANDBOX'), {
      name: 'Sandbox',
      platformUrl: 'http://127.0.0.1/api',
      dataApiUrl: undefined,
      agents: [],
      environment: 'local',
      session: { externalId: 'sandbox-user', email: 'sandbox@example.com' },
    });
    assert.deepEqual(
      ps.storedProfiles().map((x) => x.platformUrl),
      ['https://w.example.com/api'],
    );
    assert.equal(ps.scopeOf('Other'), 'user');
  });
});
