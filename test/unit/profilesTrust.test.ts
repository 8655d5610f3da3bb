// Secrets bound to origins and profiles from a workspace's settings (issue 30, item 2): the pure
// rules (secretBinding.ts, settingScope.ts, the manifest), then ProfileService itself in plain Node
// with a small stand-in for `vscode` (settings at user and workspace level, SecretStorage, state,
// modal answers), so each decision is checked without a VS Code window.
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import Module from 'node:module';
import * as os from 'node:os';
import * as path from 'node:path';
import { forgetSecrets } from '../../src/api/log';
import { KnownSecrets } from '../../src/log';
import type { Profile } from '../../src/profiles/profileModel';
import type { ProfileService as ProfileServiceType } from '../../src/profiles/profileService';
import type * as ClientProviderModule from '../../src/profiles/clientProvider';
import type * as SafetySettingsModule from '../../src/config/safetySettings';
import {
  bindingOrigins,
  decodeSecret,
  encodeSecret,
  legacyDecision,
  originOf,
  scopedProfiles,
  targetOrigin,
  trustKey,
  withOrigin,
} from '../../src/profiles/secretBinding';
import { USER_ONLY_SETTINGS, userLevelValue, workspaceTried } from '../../src/config/settingScope';

const root = path.resolve(__dirname, '..', '..', '..');

const prof = (name: string, platformUrl: string, extra: Partial<Profile> = {}): Profile => ({
  name,
  platformUrl,
  agents: [],
  ...extra,
});

describe('profiles: secrets bound to origins (pure rules)', () => {
  it('an origin is scheme, host and port (the default port left out)', () => {
    assert.equal(originOf('https://acme.example.com/api'), 'https://acme.example.com');
    assert.equal(originOf('https://acme.example.com:443/api'), 'https://acme.example.com');
    assert.equal(originOf('https://acme.example.com:8443/api'), 'https://acme.example.com:8443');
    assert.equal(originOf('http://127.0.0.1:4000/api'), 'http://127.0.0.1:4000');
    assert.notEqual(originOf('http://127.0.0.1:4000/api'), originOf('http://127.0.0.1:4001/api'));
    assert.notEqual(originOf('http://acme.example.com/api'), originOf('https://acme.example.com/api'));
    assert.equal(originOf('not a url'), undefined);
  });

  it('stores {origin, value} and reads a plain value from before as legacy', () => {
    const raw = encodeSecret({ value: 'tok-1', origins: ['https://a.example.com', 'https://b.example.com'] });
    assert.deepEqual(JSON.parse(raw), {
      origin: 'https://a.example.com',
      value: 'tok-1',
      also: ['https://b.example.com'],
    });
    assert.deepEqual(decodeSecret(raw), {
      kind: 'bound',
      secret: { value: 'tok-1', origins: ['https://a.example.com', 'https://b.example.com'] },
    });
    assert.deepEqual(decodeSecret('plain-token'), { kind: 'legacy', value: 'plain-token' });
    // A token that merely starts with "{" is still a token.
    assert.deepEqual(decodeSecret('{weird'), { kind: 'legacy', value: '{weird' });
    assert.deepEqual(decodeSecret('{"value":"x"}'), { kind: 'legacy', value: '{"value":"x"}' });
    assert.deepEqual(withOrigin({ value: 'v', origins: ['https://a'] }, 'https://b').origins, [
      'https://a',
      'https://b',
    ]);
  });

  it('each secret is bound to the URL it is sent to', () => {
    const p = prof('P', 'https://acme.example.com/api', {
      agents: [
        { label: 'A', url: 'https://ai.example.com/api/v1/public/acme/agents/1' },
        { label: 'B', url: 'https://ai2.example.com/api/v1/public/acme/agents/2' },
      ],
    });
    assert.equal(targetOrigin(p, 'platformToken'), 'https://acme.example.com');
    assert.equal(targetOrigin(p, 'dataApiToken'), 'https://acme.example.com');
    assert.equal(
      targetOrigin({ ...p, dataApiUrl: 'https://gw.example.com/cubejs-api' }, 'dataApiToken'),
      'https://gw.example.com',
    );
    assert.equal(targetOrigin(p, 'aiApiKey'), 'https://ai.example.com');
    assert.equal(targetOrigin(p, 'aiApiKey', p.agents[1]!.url), 'https://ai2.example.com');
    assert.deepEqual(bindingOrigins(p, 'aiApiKey'), ['https://ai.example.com', 'https://ai2.example.com']);
    assert.deepEqual(bindingOrigins(p, 'platformToken'), ['https://acme.example.com']);
  });

  it('a legacy value is bound silently only for a profile of the user’s settings', () => {
    assert.equal(legacyDecision('user'), 'bind');
    assert.equal(legacyDecision('workspace'), 'ask');
  });

  it('lists user and workspace profiles; a workspace profile named like a user one takes its place, marked', () => {
    const user = [prof('Prod', 'https://prod.example.com/api'), prof('Dev', 'https://dev.example.com/api')];
    const ws = [prof('prod', 'https://evil.example.net/api'), prof('Team', 'https://team.example.com/api')];
    const r = scopedProfiles({ globalValue: user, workspaceValue: ws }, true);
    assert.deepEqual(
      r.profiles.map((p) => `${p.name} ${p.platformUrl}`),
      [
        'Dev https://dev.example.com/api',
        'prod https://evil.example.net/api',
        'Team https://team.example.com/api',
      ],
    );
    assert.deepEqual([...r.workspaceNames], ['prod', 'team']);
    assert.equal(r.shadowed.get('prod')?.platformUrl, 'https://prod.example.com/api');
    // A folder's value wins over the workspace's, as in VS Code.
    const folder = scopedProfiles({ workspaceValue: ws, workspaceFolderValue: [ws[1]] }, true);
    assert.deepEqual(
      folder.profiles.map((p) => p.name),
      ['Team'],
    );
    // Restricted Mode: the workspace's profiles are ignored, the user's all shown.
    const restricted = scopedProfiles({ globalValue: user, workspaceValue: ws }, false);
    assert.deepEqual(
      restricted.profiles.map((p) => p.name),
      ['Prod', 'Dev'],
    );
    assert.equal(restricted.workspaceNames.size, 0);
    const bad = scopedProfiles(
      { workspaceValue: [{ name: 'X', platformUrl: 'http://evil.example.net' }] },
      true,
    );
    assert.match(bad.problems[0]!, /^In this workspace's settings: Profile "X" is ignored/);
  });

  it('one trust decision per workspace, profile and origin', () => {
    const keys = new Set([
      trustKey('file:///a', 'Prod', 'https://x.example.com'),
      trustKey('file:///b', 'Prod', 'https://x.example.com'),
      trustKey('file:///a', 'Other', 'https://x.example.com'),
      trustKey('file:///a', 'Prod', 'https://y.example.com'),
    ]);
    assert.equal(keys.size, 4);
    assert.equal(
      trustKey('file:///a', 'PROD', 'https://x.example.com'),
      trustKey('file:///a', 'prod', 'https://x.example.com'),
    );
  });
});

describe('profiles: settings a workspace cannot set', () => {
  const manifest = JSON.parse(fs.readFileSync(path.join(root, 'package.json'), 'utf8')) as {
    capabilities?: {
      untrustedWorkspaces?: { supported: unknown; description?: string; restrictedConfigurations?: string[] };
    };
    contributes: { configuration: { properties: Record<string, { scope?: string }> } };
  };
  const props = manifest.contributes.configuration.properties;

  it('reads the user-level value and ignores a workspace value', () => {
    assert.equal(userLevelValue({ defaultValue: false, workspaceValue: true }, false), false);
    assert.equal(userLevelValue({ defaultValue: false, workspaceFolderValue: true }, false), false);
    assert.equal(
      userLevelValue({ defaultValue: false, globalValue: true, workspaceValue: false }, false),
      true,
    );
    assert.equal(userLevelValue<string[]>({ workspaceValue: ['/tmp/evil.pem'] }, []).length, 0);
    assert.equal(userLevelValue(undefined, 'x'), 'x');
    assert.equal(workspaceTried({ workspaceValue: true }), true);
    assert.equal(workspaceTried({ globalValue: true }), false);
  });

  it('declares every setting of ours that relaxes safety application- or machine-scoped', () => {
    const ours = Object.keys(USER_ONLY_SETTINGS).filter((k) => k.startsWith('dashboardPlatform.'));
    assert.ok(ours.length > 0, 'some settings of ours relax safety');
    for (const key of ours) {
      assert.ok(props[key], `${key} is contributed`);
      assert.ok(
        ['application', 'machine'].includes(props[key].scope ?? ''),
        `${key}: scope ${props[key].scope}`,
      );
    }
  });

  it('declares limited support for untrusted workspaces, restricting the profile settings', () => {
    const u = manifest.capabilities?.untrustedWorkspaces;
    assert.equal(u?.supported, 'limited');
    assert.match(u?.description ?? '', /queries, agent tools and MCP server writes are off/);
    for (const key of u?.restrictedConfigurations ?? []) assert.ok(props[key], `${key} is contributed`);
    for (const key of ['dashboardPlatform.profiles', 'dashboardPlatform.activeProfile'])
      assert.ok(u?.restrictedConfigurations?.includes(key), key);
  });
});

// ---- ProfileService with a stand-in vscode ----

interface Dialog {
  message: string;
  detail?: string;
  items: string[];
}

interface Stub {
  trusted: boolean;
  global: Record<string, unknown>;
  workspace: Record<string, unknown>;
  dialogs: Dialog[];
  /** The button the next modal answers with (undefined: Cancel). */
  answer: (d: Dialog) => string | undefined;
  input: () => string | undefined;
  grant?: () => void;
  configListeners: ((e: { affectsConfiguration(k: string): boolean }) => void)[];
}

const STUB_SOURCE = `
const s = globalThis.__dpTrustStub;
class EventEmitter {
  constructor() { this.listeners = new Set(); }
  get event() { return (fn) => { this.listeners.add(fn); return { dispose: () => this.listeners.delete(fn) }; }; }
  fire(v) { for (const f of [...this.listeners]) f(v); }
  dispose() { this.listeners.clear(); }
}
const level = { 1: 'global', 2: 'workspace', 3: 'workspace' };
module.exports = {
  EventEmitter,
  ConfigurationTarget: { Global: 1, Workspace: 2, WorkspaceFolder: 3 },
  workspace: {
    get isTrusted() { return s().trusted; },
    workspaceFile: undefined,
    get workspaceFolders() { return [{ uri: { toString: () => 'file:///repo' } }]; },
    getConfiguration: (section) => {
      const full = (k) => section + '.' + k;
      return {
        get: (k, d) => s().workspace[full(k)] ?? s().global[full(k)] ?? d,
        inspect: (k) => ({ key: full(k), globalValue: s().global[full(k)], workspaceValue: s().workspace[full(k)] }),
        update: async (k, v, target) => { s()[level[target]][full(k)] = v; },
      };
    },
    onDidChangeConfiguration: (fn) => { s().configListeners.push(fn); return { dispose() {} }; },
    onDidGrantWorkspaceTrust: (fn) => { s().grant = fn; return { dispose() {} }; },
  },
  window: {
    showWarningMessage: async (message, options, ...items) => {
      const d = { message, detail: options && options.detail, items };
      s().dialogs.push(d);
      return s().answer(d);
    },
    showInputBox: async () => s().input(),
  },
};
`;

function memento(): { get<T>(k: string): T | undefined; update(k: string, v: unknown): Promise<void> } {
  const m = new Map<string, unknown>();
  return {
    get: <T>(k: string) => m.get(k) as T | undefined,
    update: async (k, v) => {
      m.set(k, v);
    },
  };
}

describe('profiles: ProfileService keeps secrets to their origin and workspace profiles apart', () => {
  const USER_URL = 'https://prod.example.com/api';
  const EVIL_URL = 'http://127.0.0.1:9911/api';
  const TOKEN = 'user-prod-token-7f3a91c2';
  let stub: Stub;
  let secrets: Map<string, string>;
  let ProfileService: typeof ProfileServiceType;
  let ProfileClientProvider: typeof ClientProviderModule.ProfileClientProvider;
  let safety: typeof SafetySettingsModule;
  let dir: string;
  const mod = Module as unknown as { _resolveFilename: (request: string, ...rest: unknown[]) => string };
  const resolve = mod._resolveFilename;

  before(() => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'dp-trust-test-'));
    const file = path.join(dir, 'vscode.js');
    fs.writeFileSync(file, STUB_SOURCE);
    (globalThis as { __dpTrustStub?: () => Stub }).__dpTrustStub = () => stub;
    mod._resolveFilename = function (request: string, ...rest: unknown[]) {
      return request === 'vscode' ? file : resolve.call(this, request, ...rest);
    };
    /* eslint-disable @typescript-eslint/no-require-imports */
    ({ ProfileService } = require('../../src/profiles/profileService') as {
      ProfileService: typeof ProfileServiceType;
    });
    ({ ProfileClientProvider } = require('../../src/profiles/clientProvider') as typeof ClientProviderModule);
    safety = require('../../src/config/safetySettings') as typeof SafetySettingsModule;
    /* eslint-enable @typescript-eslint/no-require-imports */
  });

  after(() => {
    mod._resolveFilename = resolve;
    fs.rmSync(dir, { recursive: true, force: true });
    forgetSecrets();
  });

  beforeEach(() => {
    stub = {
      trusted: true,
      global: { 'dashboardPlatform.profiles': [{ name: 'Prod', platformUrl: USER_URL }] },
      workspace: {},
      dialogs: [],
      answer: () => undefined,
      input: () => undefined,
      configListeners: [],
    };
    secrets = new Map();
  });

  function service(env: Record<string, string | undefined> = {}): ProfileServiceType {
    const context = {
      secrets: {
        get: async (k: string) => secrets.get(k),
        store: async (k: string, v: string) => void secrets.set(k, v),
        delete: async (k: string) => void secrets.delete(k),
        onDidChange: () => ({ dispose() {} }),
      },
      workspaceState: memento(),
      globalState: memento(),
    };
    const log = { info: () => undefined, warn: () => undefined, debug: () => undefined };
    const sandbox = { current: undefined, onDidChange: () => ({ dispose() {} }) };
    return new ProfileService(context as never, log as never, sandbox as never, new KnownSecrets(), env);
  }

  /** The user's profile "Prod" with its token stored (bound to prod.example.com). */
  async function withUserToken(): Promise<ProfileServiceType> {
    const ps = service();
    await ps.setSecret('Prod', 'platformToken', TOKEN);
    return ps;
  }

  /** A repository's settings: a profile named like the user's, pointing elsewhere, made active. */
  function hostileWorkspace(): void {
    stub.workspace['dashboardPlatform.profiles'] = [{ name: 'Prod', platformUrl: EVIL_URL }];
    stub.workspace['dashboardPlatform.activeProfile'] = 'Prod';
  }

  it('stores a token bound to the profile’s origin', async () => {
    await withUserToken();
    const raw = secrets.get('dashboardPlatform.profile.Prod.platformToken')!;
    assert.deepEqual(JSON.parse(raw), { origin: 'https://prod.example.com', value: TOKEN });
  });

  it('a renamed profile keeps its token under its new name only, and a removed one leaves no secret', async () => {
    const ps = await withUserToken();
    await ps.save({ name: 'Prod EU', platformUrl: USER_URL } as Profile, 'Prod');
    assert.equal((await ps.getSecret('platformToken', 'Prod EU'))?.value, TOKEN);
    assert.equal(
      secrets.has('dashboardPlatform.profile.Prod.platformToken'),
      false,
      'none left under the old name',
    );
    await ps.remove('Prod EU');
    assert.equal(await ps.hasSecret('platformToken', 'Prod EU'), false);
    assert.deepEqual([...secrets.keys()], []);
  });

  it('a workspace profile named like the user’s never gets the user’s token: it is asked about, and has none', async () => {
    const first = await withUserToken();
    first.dispose();
    hostileWorkspace();
    const ps = service({
      DASHBOARD_PLATFORM_TOKEN_PROD: 'env-token-of-users-prod',
      DASHBOARD_PLATFORM_TOKEN: 'env-generic-token',
    });
    assert.equal(ps.active()?.profile.platformUrl, EVIL_URL);
    assert.equal(ps.scopeOf('Prod'), 'workspace');
    assert.ok(ps.shadowsUserProfile('Prod'));
    assert.equal(await ps.getSecret('platformToken'), undefined, 'nothing without asking');
    // Asked: the modal names the profile's host and the user's own profile's host.
    await assert.rejects(
      ps.secretForUse('platformToken', 'Prod'),
      /comes from this workspace's settings and is not trusted/,
    );
    assert.equal(stub.dialogs.length, 1);
    assert.match(stub.dialogs[0]!.message, /Profile "Prod" comes from this workspace's settings/);
    assert.match(stub.dialogs[0]!.detail!, /127\.0\.0\.1:9911/);
    assert.match(stub.dialogs[0]!.detail!, /prod\.example\.com/);
    // "Cancel" is remembered until the profile is chosen again.
    await assert.rejects(ps.secretForUse('platformToken', 'Prod'));
    assert.equal(stub.dialogs.length, 1, 'not asked twice');
    // Trusted: still none of the user's secrets (SecretStorage or environment).
    stub.answer = (d) => d.items[0];
    await ps.switchTo('Prod');
    assert.equal(await ps.secretForUse('platformToken', 'Prod'), undefined);
    assert.equal(await ps.getSecret('platformToken'), undefined);
    assert.equal(await ps.hasSecret('platformToken'), false);
    assert.ok(ps.isTrusted('Prod'));
    // A token given to the workspace profile is its own, under another key.
    await ps.setSecret('Prod', 'platformToken', 'workspace-prod-token-1');
    assert.equal((await ps.getSecret('platformToken'))?.value, 'workspace-prod-token-1');
    assert.equal(JSON.parse(secrets.get('dashboardPlatform.profile.Prod.platformToken')!).value, TOKEN);
  });

  it('trust is per origin: the repository moving the profile to another host asks again', async () => {
    stub.workspace['dashboardPlatform.profiles'] = [
      { name: 'Team', platformUrl: 'https://team.example.com/api' },
    ];
    stub.answer = (d) => d.items[0];
    const ps = service();
    await ps.setSecret('Team', 'platformToken', 'team-token-123456');
    assert.equal((await ps.secretForUse('platformToken', 'Team'))?.value, 'team-token-123456');
    assert.equal(stub.dialogs.length, 1);
    assert.equal((await ps.secretForUse('platformToken', 'Team'))?.value, 'team-token-123456');
    assert.equal(stub.dialogs.length, 1, 'remembered');
    stub.workspace['dashboardPlatform.profiles'] = [{ name: 'Team', platformUrl: EVIL_URL }];
    for (const l of stub.configListeners)
      l({ affectsConfiguration: (k) => k === 'dashboardPlatform.profiles' });
    stub.answer = () => undefined;
    assert.equal(await ps.getSecret('platformToken', 'Team'), undefined);
    await assert.rejects(ps.secretForUse('platformToken', 'Team'));
    assert.equal(stub.dialogs.length, 2, 'asked again for the new host');
  });

  it('a token stored for one host is not sent when the profile’s URL moves: send it, enter a new one, or cancel', async () => {
    const ps = await withUserToken();
    stub.global['dashboardPlatform.profiles'] = [
      { name: 'Prod', platformUrl: 'https://moved.example.org/api' },
    ];
    for (const l of stub.configListeners)
      l({ affectsConfiguration: (k) => k === 'dashboardPlatform.profiles' });
    assert.equal(await ps.getSecret('platformToken', 'Prod'), undefined, 'never sent without asking');
    await assert.rejects(
      ps.secretForUse('platformToken', 'Prod'),
      /stored for prod\.example\.com, not moved\.example\.org/,
    );
    const d = stub.dialogs[0]!;
    assert.match(
      d.message,
      /stored for prod\.example\.com, but the profile now sends requests to moved\.example\.org/,
    );
    assert.deepEqual(d.items, ['Send It to moved.example.org', 'Enter a New One']);
    // Enter a new one: bound to the new host only.
    await ps.switchTo('Prod');
    stub.answer = () => 'Enter a New One';
    stub.input = () => 'moved-token-4455667788';
    assert.equal((await ps.secretForUse('platformToken', 'Prod'))?.value, 'moved-token-4455667788');
    assert.deepEqual(JSON.parse(secrets.get('dashboardPlatform.profile.Prod.platformToken')!), {
      origin: 'https://moved.example.org',
      value: 'moved-token-4455667788',
    });
    // Back to the first host: asked again; "Send it" adds the host.
    stub.global['dashboardPlatform.profiles'] = [{ name: 'Prod', platformUrl: USER_URL }];
    for (const l of stub.configListeners)
      l({ affectsConfiguration: (k) => k === 'dashboardPlatform.profiles' });
    stub.answer = (x) => x.items[0];
    assert.equal((await ps.secretForUse('platformToken', 'Prod'))?.value, 'moved-token-4455667788');
    assert.deepEqual(JSON.parse(secrets.get('dashboardPlatform.profile.Prod.platformToken')!).also, [
      'https://prod.example.com',
    ]);
    assert.equal((await ps.getSecret('platformToken', 'Prod'))?.value, 'moved-token-4455667788');
  });

  it('an AI API key goes only to the agents’ hosts it was stored for', async () => {
    stub.global['dashboardPlatform.profiles'] = [
      {
        name: 'Prod',
        platformUrl: USER_URL,
        agents: [{ label: 'A', url: 'https://ai.example.com/api/v1/public/acme/agents/1' }],
      },
    ];
    const ps = service();
    await ps.setSecret('Prod', 'aiApiKey', 'ai-key-0011223344');
    assert.equal((await ps.getSecret('aiApiKey', 'Prod'))?.value, 'ai-key-0011223344');
    assert.equal(
      await ps.getSecret('aiApiKey', 'Prod', 'https://elsewhere.example.net/api/v1/public/acme/agents/9'),
      undefined,
    );
  });

  it('a plain token from before is bound to the user profile’s URL on first use', async () => {
    secrets.set('dashboardPlatform.profile.Prod.platformToken', TOKEN);
    const ps = service();
    assert.equal((await ps.getSecret('platformToken', 'Prod'))?.value, TOKEN);
    assert.equal(stub.dialogs.length, 0);
    assert.deepEqual(JSON.parse(secrets.get('dashboardPlatform.profile.Prod.platformToken')!), {
      origin: 'https://prod.example.com',
      value: TOKEN,
    });
  });

  it('a plain token from before, for a workspace profile, is sent only after asking', async () => {
    stub.global = {};
    stub.workspace['dashboardPlatform.profiles'] = [
      { name: 'Team', platformUrl: 'https://team.example.com/api' },
    ];
    secrets.set('dashboardPlatform.profile.Team.platformToken', 'old-team-token-998877');
    stub.answer = (d) => d.items[0];
    const ps = service();
    assert.equal(await ps.getSecret('platformToken', 'Team'), undefined);
    assert.ok(await ps.hasSecret('platformToken', 'Team'));
    assert.equal((await ps.secretForUse('platformToken', 'Team'))?.value, 'old-team-token-998877');
    assert.deepEqual(
      stub.dialogs.map((d) => d.message),
      [
        `Profile "Team" comes from this workspace's settings. Trust it?`,
        'Send the platform API token stored for "Team" to team.example.com?',
      ],
    );
    // Moved to the workspace profile's own key, bound; the old plain value is gone.
    assert.equal(secrets.get('dashboardPlatform.profile.Team.platformToken'), undefined);
    assert.deepEqual(JSON.parse(secrets.get('dashboardPlatform.workspaceProfile.Team.platformToken')!), {
      origin: 'https://team.example.com',
      value: 'old-team-token-998877',
    });
  });

  it('Restricted Mode ignores the workspace’s profiles until the workspace is trusted', async () => {
    await withUserToken();
    hostileWorkspace();
    stub.trusted = false;
    const ps = service();
    assert.equal(ps.scopeOf('Prod'), 'user');
    assert.equal(ps.active()?.profile.platformUrl, USER_URL, 'the user’s own profile');
    assert.equal((await ps.getSecret('platformToken'))?.value, TOKEN);
    let listChanged = 0;
    ps.onDidChangeProfiles(() => listChanged++);
    stub.trusted = true;
    stub.grant?.();
    assert.equal(listChanged, 1);
    assert.equal(ps.active()?.profile.platformUrl, EVIL_URL);
    assert.equal(await ps.getSecret('platformToken'), undefined);
  });

  it('edits go to the settings level the profile comes from', async () => {
    stub.workspace['dashboardPlatform.profiles'] = [
      { name: 'Team', platformUrl: 'https://team.example.com/api', x: 1 },
    ];
    const ps = service();
    await ps.save(prof('Team', 'https://team2.example.com/api'), 'Team');
    await ps.save(prof('Mine', 'https://mine.example.com/api'));
    assert.deepEqual(
      (stub.workspace['dashboardPlatform.profiles'] as { platformUrl: string }[]).map((p) => p.platformUrl),
      ['https://team2.example.com/api'],
    );
    assert.deepEqual(
      (stub.global['dashboardPlatform.profiles'] as { name: string }[]).map((p) => p.name),
      ['Prod', 'Mine'],
    );
  });

  /** The client provider over `ps`, recording the platform clients it builds. */
  function clientsOf(ps: ProfileServiceType) {
    const built: { baseUrl: string; token: () => Promise<string | undefined> }[] = [];
    const clients = new ProfileClientProvider({
      profiles: ps,
      logger: {
        debug: () => undefined,
        info: () => undefined,
        warn: () => undefined,
        error: () => undefined,
      },
      network: async () => ({}),
      createPlatform: (opts) => {
        built.push(opts);
        return {} as never;
      },
    });
    return { clients, built };
  }

  it('the client provider builds no client holding the user’s token for the repository’s profile', async () => {
    await withUserToken();
    hostileWorkspace();
    const ps = service();
    const { clients, built } = clientsOf(ps);
    await assert.rejects(clients.platform(), /not trusted/);
    stub.answer = (d) => d.items[0];
    await ps.switchTo('Prod');
    await assert.rejects(clients.platform(), /has no platform API token/);
    assert.equal(built.length, 0);
    clients.dispose();
  });

  it('the client provider sends a moved profile’s token only after "Send it", and only then', async () => {
    const ps = await withUserToken();
    stub.global['dashboardPlatform.profiles'] = [{ name: 'Prod', platformUrl: EVIL_URL }];
    for (const l of stub.configListeners)
      l({ affectsConfiguration: (k) => k === 'dashboardPlatform.profiles' });
    await ps.switchTo('Prod');
    const { clients, built } = clientsOf(ps);
    await assert.rejects(clients.platform(), /was not sent/);
    assert.equal(built.length, 0);
    await ps.switchTo('Prod');
    stub.answer = (d) => d.items[0];
    await clients.platform();
    assert.equal(built.length, 1);
    assert.equal(built[0]!.baseUrl, EVIL_URL);
    assert.equal(await built[0]!.token(), TOKEN);
    clients.dispose();
  });

  it('Restricted Mode: no queries, no MCP writes; safety settings come from user settings only', async () => {
    const ps = await withUserToken();
    const { clients } = clientsOf(ps);
    stub.trusted = false;
    await assert.rejects(clients.data(), /Queries are off in Restricted Mode/);
    await assert.rejects(clients.devData(1, 'dev'), /Restricted Mode/);
    assert.throws(
      () => safety.requireTrustedWorkspace('Agent tools'),
      /Agent tools are off in Restricted Mode/,
    );
    stub.global['dashboardPlatform.mcp.allowWrites'] = true;
    assert.equal(safety.mcpAllowWrites(), false, 'no MCP writes in Restricted Mode');
    stub.trusted = true;
    assert.equal(safety.mcpAllowWrites(), true, 'the user turned it on');
    assert.doesNotThrow(() => safety.requireTrustedWorkspace('Agent tools'));
    // A workspace value is ignored, whatever VS Code would make of it.
    stub.global = {};
    stub.workspace['dashboardPlatform.mcp.allowWrites'] = true;
    stub.workspace['dashboardPlatform.chat.allowRemoteImages'] = true;
    stub.workspace['http.proxyStrictSSL'] = false;
    assert.equal(safety.mcpAllowWrites(), false);
    assert.equal(safety.allowRemoteImages(), false);
    assert.equal(safety.userSetting('http', 'proxyStrictSSL', true), true);
    stub.global['dashboardPlatform.chat.allowRemoteImages'] = true;
    assert.equal(safety.allowRemoteImages(), true);
    clients.dispose();
  });
});
