// The secret store of profiles (src/profiles/profileSecrets.ts) on its own, in plain Node with a
// stand-in for `vscode`: where each secret is looked for (session, SecretStorage, environment, the
// sandbox), when it may be sent and what is asked first, what is stored, moved and cleared, what
// is registered for redaction, and what the user is told when SecretStorage fails or a question is
// answered no. profilesTrust.test.ts checks the same rules through ProfileService; this suite pins
// the exact keys, values, sentences and events.
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import Module from 'node:module';
import * as os from 'node:os';
import * as path from 'node:path';
import type { Profile, SecretKind } from '../../src/profiles/profileModel';
import type * as ProfileSecretsModule from '../../src/profiles/profileSecrets';
import type { ProfileScope } from '../../src/profiles/secretBinding';
import { forgetVscodeDependents } from './vscodeStandIn';

interface Dialog {
  message: string;
  detail?: string;
  items: string[];
}

interface Stub {
  trusted: boolean;
  workspaceFile?: { toString(): string };
  folders?: { uri: { toString(): string } }[];
  dialogs: Dialog[];
  inputs: number;
  /** The button the next modal answers with (undefined: Cancel). */
  answer: (d: Dialog) => string | undefined;
  input: () => string | undefined;
}

const STUB_SOURCE = `
const s = () => globalThis.__dpSecretsStub;
class EventEmitter {
  constructor() { this.listeners = new Set(); }
  get event() { return (fn) => { this.listeners.add(fn); return { dispose: () => this.listeners.delete(fn) }; }; }
  fire(v) { for (const f of [...this.listeners]) f(v); }
  dispose() { this.listeners.clear(); }
}
module.exports = {
  EventEmitter,
  workspace: {
    get isTrusted() { return s().trusted; },
    get workspaceFile() { return s().workspaceFile; },
    get workspaceFolders() { return s().folders; },
  },
  window: {
    showWarningMessage: async (message, options, ...items) => {
      const d = { message, detail: options && options.detail, items };
      s().dialogs.push(d);
      await new Promise((r) => setTimeout(r, 5));
      return s().answer(d);
    },
    showInputBox: async () => { s().inputs++; return s().input(); },
  },
};
`;

const USER_URL = 'https://prod.example.com/api';
const USER_ORIGIN = 'https://prod.example.com';
const WS_URL = 'https://repo.example.com/api';
const WS_ORIGIN = 'https://repo.example.com';
const userKey = (name: string, kind: SecretKind = 'platformToken'): string =>
  `dashboardPlatform.profile.${encodeURIComponent(name)}.${kind}`;
const wsKey = (name: string, kind: SecretKind = 'platformToken'): string =>
  `dashboardPlatform.workspaceProfile.${encodeURIComponent(name)}.${kind}`;
const bound = (value: string, ...origins: string[]): string =>
  JSON.stringify({ origin: origins[0], value, ...(origins.length > 1 ? { also: origins.slice(1) } : {}) });

interface Entry {
  profile: Profile;
  scope: ProfileScope;
}

/** What the secrets were given, and what they did with it. */
interface World {
  secrets: Map<string, string>;
  state: Map<string, unknown>;
  info: string[];
  warn: string[];
  known: string[];
  changed: string[];
  /** Make SecretStorage fail: get, store or delete throws an Error of this message (or `raw`, as is). */
  fail: Partial<Record<'get' | 'store' | 'delete', string | { raw: unknown }>>;
  storageListeners: ((e: { key: string }) => void)[];
  storageDisposed: number;
  sandbox: { current?: { tokens: { admin: string; dataApi: string; aiApiKey: string } } };
  entries: Entry[];
  /** Names (lower case) of user profiles a workspace profile of the same name hides. */
  shadowed: Set<string>;
  active?: string;
  sandboxName: string;
}

describe('profile secrets: where each is kept, when it is sent, what is asked first (exact)', () => {
  const mod = Module as unknown as { _resolveFilename: (request: string, ...rest: unknown[]) => string };
  const resolve = mod._resolveFilename;
  let dir: string;
  let M: typeof ProfileSecretsModule;
  let stub: Stub;
  let w: World;

  before(() => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'dp-secrets-test-'));
    const file = path.join(dir, 'vscode.js');
    fs.writeFileSync(file, STUB_SOURCE);
    Object.defineProperty(globalThis, '__dpSecretsStub', { get: () => stub, configurable: true });
    mod._resolveFilename = function (request: string, ...rest: unknown[]) {
      return request === 'vscode' ? file : resolve.call(this, request, ...rest);
    };
    forgetVscodeDependents();
    // eslint-disable-next-line @typescript-eslint/no-require-imports
    M = require('../../src/profiles/profileSecrets') as typeof ProfileSecretsModule;
  });

  after(() => {
    mod._resolveFilename = resolve;
    delete (globalThis as { __dpSecretsStub?: unknown }).__dpSecretsStub;
    forgetVscodeDependents();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  beforeEach(() => {
    stub = {
      trusted: true,
      folders: [{ uri: { toString: () => 'file:///repo' } }],
      dialogs: [],
      inputs: 0,
      answer: () => undefined,
      input: () => undefined,
    };
    w = {
      secrets: new Map(),
      state: new Map(),
      info: [],
      warn: [],
      known: [],
      changed: [],
      fail: {},
      storageListeners: [],
      storageDisposed: 0,
      sandbox: {},
      entries: [{ profile: { name: 'Prod', platformUrl: USER_URL, agents: [] }, scope: 'user' }],
      shadowed: new Set(),
      active: 'Prod',
      sandboxName: 'Sandbox',
    };
  });

  const find = (name: string): Entry | undefined =>
    w.entries.find((e) => e.profile.name.toLowerCase() === name.toLowerCase());

  function make(env: Record<string, string | undefined> = {}): ProfileSecretsModule.ProfileSecrets {
    const failing = (op: 'get' | 'store' | 'delete'): void => {
      const f = w.fail[op];
      if (typeof f === 'string') throw new Error(f);
      if (f) throw f.raw;
    };
    const context = {
      secrets: {
        get: async (k: string) => (failing('get'), w.secrets.get(k)),
        store: async (k: string, v: string) => (failing('store'), void w.secrets.set(k, v)),
        delete: async (k: string) => (failing('delete'), void w.secrets.delete(k)),
        onDidChange: (fn: (e: { key: string }) => void) => {
          w.storageListeners.push(fn);
          return { dispose: () => void w.storageDisposed++ };
        },
      },
      globalState: {
        get: (k: string) => w.state.get(k),
        update: async (k: string, v: unknown) => void w.state.set(k, v),
      },
    };
    const log = { info: (m: string) => void w.info.push(m), warn: (m: string) => void w.warn.push(m) };
    const known = { add: (...s: (string | undefined)[]) => void w.known.push(...(s as string[])) };
    const directory = {
      get: (name: string) => find(name)?.profile,
      storedProfiles: () => w.entries.map((e) => e.profile),
      isSandbox: (name: string | undefined) => name === w.sandboxName,
      scopeOf: (name: string) => find(name)?.scope ?? 'user',
      shadowedUserProfile: (name: string) =>
        w.shadowed.has(name.toLowerCase()) ? { name, platformUrl: USER_URL, agents: [] } : undefined,
      activeName: () => w.active,
    };
    const s = new M.ProfileSecrets(
      context as never,
      log as never,
      w.sandbox as never,
      known as never,
      env,
      directory,
    );
    s.onDidChange((name) => w.changed.push(name));
    return s;
  }

  /** A workspace profile "Repo" at WS_URL (optionally hiding a user profile of the same name). */
  function workspaceProfile(name = 'Repo', url = WS_URL, hidesUserProfile = false): void {
    w.entries.push({ profile: { name, platformUrl: url, agents: [] }, scope: 'workspace' });
    if (hidesUserProfile) w.shadowed.add(name.toLowerCase());
  }
  const trustOf = (name: string, origin: string, workspace = 'file:///repo'): string =>
    `${workspace}|${name.toLowerCase()}|${origin}`;

  describe('where a secret is found', () => {
    it('a secret stored for the profile’s origin is handed out, registered for redaction, from SecretStorage', async () => {
      w.secrets.set(userKey('Prod'), bound('tok-prod-1', USER_ORIGIN));
      const s = make();
      assert.deepEqual(await s.getSecret('platformToken'), { value: 'tok-prod-1', source: 'secretStorage' });
      assert.deepEqual(w.known, ['tok-prod-1']);
      assert.equal(await s.hasSecret('platformToken'), true);
      assert.equal(await s.hasSecret('dataApiToken'), false);
    });

    it('the session store comes first and is keyed by the profile’s name in lower case', async () => {
      w.secrets.set(userKey('Prod'), bound('tok-stored', USER_ORIGIN));
      const s = make();
      s.setSessionSecret('PROD', 'platformToken', '  tok-session  ');
      assert.deepEqual(await s.getSecret('platformToken', 'Prod'), {
        value: 'tok-session',
        source: 'session',
      });
      assert.deepEqual(w.known, ['tok-session', 'tok-session']);
      assert.deepEqual(w.changed, ['PROD']);
      // Nothing was written for it.
      assert.equal(w.secrets.get(userKey('Prod')), bound('tok-stored', USER_ORIGIN));
      assert.equal(w.secrets.get(userKey('PROD')), undefined);
    });

    it('environment variables: the profile’s own for any profile, the generic one only for the active profile', async () => {
      w.entries.push({
        profile: { name: 'Staging EU', platformUrl: 'https://stg.example.com/api', agents: [] },
        scope: 'user',
      });
      const env = { DASHBOARD_PLATFORM_TOKEN: 'tok-generic', DASHBOARD_PLATFORM_TOKEN_STAGING_EU: 'tok-stg' };
      const s = make(env);
      assert.deepEqual(await s.getSecret('platformToken', 'Staging EU'), {
        value: 'tok-stg',
        source: 'environment',
        variable: 'DASHBOARD_PLATFORM_TOKEN_STAGING_EU',
      });
      assert.deepEqual(await s.getSecret('platformToken', 'prod'), {
        value: 'tok-generic',
        source: 'environment',
        variable: 'DASHBOARD_PLATFORM_TOKEN',
      });
      w.active = 'Staging EU';
      assert.equal(await s.getSecret('platformToken', 'Prod'), undefined);
      w.active = 'PROD';
      assert.equal((await s.getSecret('platformToken', 'Prod'))?.value, 'tok-generic');
      w.active = undefined;
      assert.equal(await s.getSecret('platformToken'), undefined);
      assert.equal(await s.hasSecret('platformToken'), false);
      // A named profile while none is active: its own variable only.
      assert.equal((await s.getSecret('platformToken', 'Staging EU'))?.value, 'tok-stg');
      assert.equal(await s.getSecret('platformToken', 'Prod'), undefined);
    });

    it('no profile, an unknown one or one without a valid URL has no secret, and nothing is asked', async () => {
      w.secrets.set(userKey('Broken'), bound('tok-b', USER_ORIGIN));
      w.entries.push({ profile: { name: 'Broken', platformUrl: 'not a url', agents: [] }, scope: 'user' });
      const s = make({ DASHBOARD_PLATFORM_TOKEN: 'tok-generic' });
      assert.equal(await s.getSecret('platformToken', 'Nobody'), undefined);
      assert.equal(await s.secretForUse('platformToken', 'Nobody'), undefined);
      assert.equal(await s.getSecret('platformToken', 'Broken'), undefined);
      assert.equal(await s.secretForUse('platformToken', 'Broken'), undefined);
      assert.equal(await s.hasSecret('platformToken', 'Nobody'), false);
      assert.deepEqual(stub.dialogs, []);
      assert.deepEqual(w.known, []);
    });

    it('the Sandbox profile gets the running sandbox’s own tokens, each of its kind, and none when it is stopped', async () => {
      w.sandbox.current = { tokens: { admin: 'sbx-admin-1', dataApi: 'sbx-data-1', aiApiKey: 'sbx-ai-1' } };
      const s = make();
      assert.deepEqual(await s.getSecret('platformToken', 'Sandbox'), {
        value: 'sbx-admin-1',
        source: 'sandbox',
      });
      assert.deepEqual(await s.getSecret('dataApiToken', 'Sandbox'), {
        value: 'sbx-data-1',
        source: 'sandbox',
      });
      assert.deepEqual(await s.secretForUse('aiApiKey', 'Sandbox'), { value: 'sbx-ai-1', source: 'sandbox' });
      assert.deepEqual(w.known, ['sbx-admin-1', 'sbx-data-1', 'sbx-ai-1']);
      assert.equal(await s.hasSecret('platformToken', 'Sandbox'), true);
      w.sandbox.current = undefined;
      assert.equal(await s.getSecret('platformToken', 'Sandbox'), undefined);
      assert.equal(await s.hasSecret('platformToken', 'Sandbox'), false);
      await assert.rejects(s.setSecret('Sandbox', 'platformToken', 'x-token'), {
        message: 'The Sandbox profile has its own tokens.',
      });
    });
  });

  describe('workspace profiles', () => {
    it('trust is asked once, stored per workspace, profile and origin, and announced', async () => {
      workspaceProfile();
      w.secrets.set(wsKey('Repo'), bound('tok-repo', WS_ORIGIN));
      stub.answer = (d) => d.items[0];
      const s = make();
      assert.equal(s.isTrusted('Repo'), false);
      assert.equal(await s.getSecret('platformToken', 'Repo'), undefined, 'never sent before the decision');
      assert.equal(await s.hasSecret('platformToken', 'Repo'), true);
      const [a, b] = await Promise.all([
        s.secretForUse('platformToken', 'Repo'),
        s.secretForUse('platformToken', 'Repo'),
      ]);
      assert.deepEqual(a, { value: 'tok-repo', source: 'secretStorage' });
      assert.deepEqual(b, a);
      assert.equal(stub.dialogs.length, 1, 'concurrent requests share one question');
      assert.deepEqual(stub.dialogs[0]!.items, ['Trust This Workspace Profile']);
      assert.deepEqual(w.state.get(M.TRUSTED_PROFILES_KEY), [trustOf('Repo', WS_ORIGIN)]);
      assert.equal(M.TRUSTED_PROFILES_KEY, 'dashboardPlatform.trustedWorkspaceProfiles');
      assert.deepEqual(w.info, [`Trusted workspace profile "Repo" for ${WS_ORIGIN} in this workspace`]);
      assert.deepEqual(w.changed, ['Repo']);
      assert.equal(s.isTrusted('Repo'), true);
      assert.equal(s.isTrusted('Nobody'), false);
      assert.equal(s.isTrusted('Prod'), true, 'a user profile needs no trust');
      assert.equal(s.isTrustedFor('Repo', 'https://other.example.com'), false, 'trust is per origin');
    });

    it('the workspace is named by its .code-workspace file when it has one, else by its first folder', async () => {
      workspaceProfile();
      stub.workspaceFile = { toString: () => 'file:///home/u/team.code-workspace' };
      w.state.set(M.TRUSTED_PROFILES_KEY, [trustOf('Repo', WS_ORIGIN)]);
      const s = make();
      assert.equal(
        s.isTrustedFor('Repo', WS_ORIGIN),
        false,
        'trusted for the folder, not for the workspace file',
      );
      w.state.set(M.TRUSTED_PROFILES_KEY, [trustOf('repo', WS_ORIGIN, 'file:///home/u/team.code-workspace')]);
      assert.equal(s.isTrustedFor('Repo', WS_ORIGIN), true);
      stub.workspaceFile = undefined;
      stub.folders = undefined;
      w.state.set(M.TRUSTED_PROFILES_KEY, [trustOf('Repo', WS_ORIGIN, '')]);
      assert.equal(s.isTrustedFor('Repo', WS_ORIGIN), true, 'no folder: the empty workspace id');
      stub.folders = [];
      assert.equal(s.isTrustedFor('Repo', WS_ORIGIN), true, 'an empty folder list: the empty workspace id');
    });

    it('a workspace profile counts as trusted for its platform URL, whatever hosts its agents are on', () => {
      workspaceProfile();
      w.entries[1]!.profile.agents = [
        { label: 'A', url: 'https://ai.example.com/api/v1/public/acme/agents/1' },
      ];
      w.state.set(M.TRUSTED_PROFILES_KEY, [trustOf('Repo', 'https://ai.example.com')]);
      const s = make();
      assert.equal(s.isTrusted('Repo'), false);
      w.state.set(M.TRUSTED_PROFILES_KEY, [trustOf('Repo', WS_ORIGIN)]);
      assert.equal(s.isTrusted('Repo'), true);
    });

    it('Restricted Mode: a trusted workspace profile is untrusted again; a decision there is stored once and asked at most three times', async () => {
      workspaceProfile();
      w.secrets.set(wsKey('Repo'), bound('tok-repo', WS_ORIGIN));
      w.state.set(M.TRUSTED_PROFILES_KEY, [
        'file:///other|x|https://x.example.com',
        trustOf('Repo', WS_ORIGIN),
      ]);
      stub.trusted = false;
      stub.answer = (d) => d.items[0];
      const s = make();
      assert.equal(s.isTrustedFor('Repo', WS_ORIGIN), false);
      assert.equal(s.isTrustedFor('Prod', USER_ORIGIN), true);
      assert.equal(await s.secretForUse('platformToken', 'Repo'), undefined);
      assert.equal(stub.dialogs.length, 3, 'each round asks again, three rounds at most');
      assert.deepEqual(w.state.get(M.TRUSTED_PROFILES_KEY), [
        'file:///other|x|https://x.example.com',
        trustOf('Repo', WS_ORIGIN),
      ]);
    });

    it('“Cancel” refuses with a sentence and is not asked again until the profile is chosen again (that profile only)', async () => {
      workspaceProfile();
      workspaceProfile('Other', 'https://other.example.com/api');
      w.secrets.set(wsKey('Repo'), bound('tok-repo', WS_ORIGIN));
      w.secrets.set(wsKey('Other'), bound('tok-other', 'https://other.example.com'));
      const s = make();
      const refused = (name: string, host: string) => ({
        name: 'ApiError',
        kind: 'auth',
        code: 'PROFILE_NOT_TRUSTED',
        message: `Profile "${name}" comes from this workspace's settings and is not trusted, so no platform API token is sent to ${host}. Choose the profile again to be asked, or pick one of your own profiles.`,
      });
      await assert.rejects(s.secretForUse('platformToken', 'Repo'), refused('Repo', 'repo.example.com'));
      await assert.rejects(s.secretForUse('platformToken', 'Other'), refused('Other', 'other.example.com'));
      assert.equal(stub.dialogs.length, 2);
      await assert.rejects(s.secretForUse('platformToken', 'Repo'), refused('Repo', 'repo.example.com'));
      assert.equal(stub.dialogs.length, 2, 'a declined question is not asked again');
      s.forgetDeclined('REPO');
      stub.answer = (d) => d.items[0];
      await assert.rejects(s.secretForUse('platformToken', 'Other'), refused('Other', 'other.example.com'));
      assert.equal(stub.dialogs.length, 2, 'forgetting one profile’s answers keeps the others’');
      assert.equal((await s.secretForUse('platformToken', 'Repo'))?.value, 'tok-repo');
      assert.equal(stub.dialogs.length, 3);
    });

    it('a workspace profile named like the user’s never reads the user’s key nor the environment', async () => {
      workspaceProfile('Repo', WS_URL, true);
      w.state.set(M.TRUSTED_PROFILES_KEY, [trustOf('Repo', WS_ORIGIN)]);
      w.secrets.set(userKey('Repo'), 'tok-user-plain');
      const s = make({ DASHBOARD_PLATFORM_TOKEN_REPO: 'tok-env' });
      w.active = 'Repo';
      assert.equal(await s.getSecret('platformToken', 'Repo'), undefined);
      assert.equal(await s.hasSecret('platformToken', 'Repo'), false);
      assert.deepEqual(stub.dialogs, []);
    });

    it('a workspace profile with no user profile of its name may use the environment and is asked about a plain user token', async () => {
      workspaceProfile();
      w.state.set(M.TRUSTED_PROFILES_KEY, [trustOf('Repo', WS_ORIGIN)]);
      const s = make({ DASHBOARD_PLATFORM_TOKEN_REPO: 'tok-env' });
      assert.deepEqual(await s.getSecret('platformToken', 'Repo'), {
        value: 'tok-env',
        source: 'environment',
        variable: 'DASHBOARD_PLATFORM_TOKEN_REPO',
      });
      w.secrets.set(userKey('Repo'), 'tok-user-plain');
      assert.equal(
        await s.getSecret('platformToken', 'Repo'),
        undefined,
        'a plain user token is asked about first',
      );
      stub.answer = (d) => d.items[0];
      assert.deepEqual(await s.secretForUse('platformToken', 'Repo'), {
        value: 'tok-user-plain',
        source: 'secretStorage',
      });
      assert.equal(
        stub.dialogs[0]!.message,
        'Send the platform API token stored for "Repo" to repo.example.com?',
      );
      assert.deepEqual(stub.dialogs[0]!.items, ['Send It to repo.example.com', 'Enter a New One']);
      // Moved to the workspace profile's own key, bound to the host chosen; the user's key is removed.
      assert.equal(w.secrets.get(wsKey('Repo')), bound('tok-user-plain', WS_ORIGIN));
      assert.equal(w.secrets.has(userKey('Repo')), false);
      assert.deepEqual(w.info, [`The platformToken of "Repo" may now be sent to ${WS_ORIGIN}`]);
      assert.deepEqual(w.changed, ['Repo']);
    });

    it('a bound token under the user’s key belongs to the user’s profile: a workspace profile never takes it', async () => {
      workspaceProfile();
      w.state.set(M.TRUSTED_PROFILES_KEY, [trustOf('Repo', WS_ORIGIN)]);
      w.secrets.set(userKey('Repo'), bound('tok-user-bound', WS_ORIGIN));
      const s = make();
      assert.equal(await s.getSecret('platformToken', 'Repo'), undefined);
      assert.equal(await s.secretForUse('platformToken', 'Repo'), undefined);
      assert.deepEqual(stub.dialogs, []);
    });

    it('a plain value under the workspace profile’s own key is asked about too, and left where it is', async () => {
      workspaceProfile();
      w.state.set(M.TRUSTED_PROFILES_KEY, [trustOf('Repo', WS_ORIGIN)]);
      w.secrets.set(wsKey('Repo'), 'tok-ws-plain');
      stub.answer = (d) => d.items[0];
      const s = make();
      assert.equal(await s.getSecret('platformToken', 'Repo'), undefined);
      assert.equal((await s.secretForUse('platformToken', 'Repo'))?.value, 'tok-ws-plain');
      assert.equal(w.secrets.get(wsKey('Repo')), bound('tok-ws-plain', WS_ORIGIN));
      assert.equal(stub.dialogs.length, 1);
    });

    it('“Cancel” on a plain token says it was stored before tokens were tied to a host, and that the profile is the workspace’s', async () => {
      workspaceProfile();
      w.state.set(M.TRUSTED_PROFILES_KEY, [trustOf('Repo', WS_ORIGIN)]);
      w.secrets.set(userKey('Repo'), 'tok-user-plain');
      const s = make();
      await assert.rejects(s.secretForUse('platformToken', 'Repo'), {
        code: 'SECRET_ORIGIN',
        message:
          'The platform API token stored for "Repo" before tokens were tied to a host was not sent to repo.example.com (the profile comes from this workspace\'s settings). Choose the profile again to be asked, or run "Dashboard Platform: Set Token…".',
      });
      assert.equal(w.secrets.get(userKey('Repo')), 'tok-user-plain', 'nothing moved');
    });
  });

  describe('a user profile’s token from before tokens were tied to a host', () => {
    it('is bound silently to the profile’s URL on first use, logged, and registered', async () => {
      w.secrets.set(userKey('Prod'), 'tok-plain-1');
      const s = make();
      assert.deepEqual(await s.getSecret('platformToken'), { value: 'tok-plain-1', source: 'secretStorage' });
      assert.equal(w.secrets.get(userKey('Prod')), bound('tok-plain-1', USER_ORIGIN));
      assert.deepEqual(w.info, [`Bound the stored platformToken of "Prod" to ${USER_ORIGIN}`]);
      assert.deepEqual(w.known, ['tok-plain-1']);
      assert.deepEqual(stub.dialogs, []);
    });

    it('an AI API key is bound to every agent host of the profile', async () => {
      w.entries[0]!.profile.agents = [
        { label: 'A', url: 'https://ai.example.com/api/v1/public/acme/agents/1' },
        { label: 'B', url: 'https://ai2.example.com/api/v1/public/acme/agents/2' },
      ];
      w.secrets.set(userKey('Prod', 'aiApiKey'), 'key-plain');
      const s = make();
      assert.equal((await s.getSecret('aiApiKey', 'Prod', 'https://ai2.example.com/x'))?.value, 'key-plain');
      assert.deepEqual(w.info, [
        'Bound the stored aiApiKey of "Prod" to https://ai.example.com, https://ai2.example.com',
      ]);
    });

    it('when SecretStorage cannot store the binding, the token is kept for the session and the failure noted once', async () => {
      w.secrets.set(userKey('Prod'), 'tok-plain-2');
      w.fail.store = 'no keyring';
      const s = make();
      assert.equal(s.secretStorageProblem, undefined);
      assert.deepEqual(await s.getSecret('platformToken'), { value: 'tok-plain-2', source: 'secretStorage' });
      assert.equal(s.secretStorageProblem, 'no keyring');
      assert.deepEqual(w.warn, ['SecretStorage is unavailable: no keyring']);
      w.secrets.delete(userKey('Prod'));
      assert.deepEqual(await s.getSecret('platformToken'), { value: 'tok-plain-2', source: 'session' });
    });
  });

  describe('a token stored for another host', () => {
    const MOVED = 'https://new.example.com/api';
    it('is not sent: “Send It” adds the new host to the old ones', async () => {
      w.secrets.set(userKey('Prod'), bound('tok-old', USER_ORIGIN));
      w.entries[0]!.profile.platformUrl = MOVED;
      stub.answer = (d) => d.items[0];
      const s = make();
      assert.equal(await s.getSecret('platformToken'), undefined);
      assert.deepEqual(await s.secretForUse('platformToken', 'Prod'), {
        value: 'tok-old',
        source: 'secretStorage',
      });
      assert.equal(
        stub.dialogs[0]!.message,
        'The platform API token of "Prod" was stored for prod.example.com, but the profile now sends requests to new.example.com.',
      );
      assert.equal(w.secrets.get(userKey('Prod')), bound('tok-old', USER_ORIGIN, 'https://new.example.com'));
      assert.deepEqual(w.info, ['The platformToken of "Prod" may now be sent to https://new.example.com']);
      assert.deepEqual(w.changed, ['Prod']);
      assert.deepEqual(w.known, ['tok-old', 'tok-old']);
    });

    it('“Enter a New One” stores the new token for the new host only, and says so in the log', async () => {
      w.secrets.set(userKey('Prod'), bound('tok-old', USER_ORIGIN));
      w.entries[0]!.profile.platformUrl = MOVED;
      stub.answer = (d) => d.items[1];
      stub.input = () => '  tok-new-9  ';
      const s = make();
      assert.deepEqual(await s.secretForUse('platformToken', 'Prod'), {
        value: 'tok-new-9',
        source: 'secretStorage',
      });
      assert.equal(w.secrets.get(userKey('Prod')), bound('tok-new-9', 'https://new.example.com'));
      assert.deepEqual(w.info, [
        'The platformToken of "Prod" may now be sent to https://new.example.com (a new one was entered)',
      ]);
      assert.ok(w.known.includes('tok-new-9'));
    });

    it('a session token stays in the session when the user sends it to the new host', async () => {
      w.entries[0]!.profile.platformUrl = USER_URL;
      const s = make();
      s.setSessionSecret('Prod', 'platformToken', 'tok-sess');
      w.entries[0]!.profile.platformUrl = MOVED;
      stub.answer = (d) => d.items[0];
      assert.deepEqual(await s.secretForUse('platformToken', 'Prod'), {
        value: 'tok-sess',
        source: 'session',
      });
      assert.equal(w.secrets.size, 0, 'nothing written to SecretStorage');
      w.entries[0]!.profile.platformUrl = USER_URL;
      assert.deepEqual(await s.getSecret('platformToken'), { value: 'tok-sess', source: 'session' });
    });

    it('“Cancel” names the hosts it was stored for and the command to enter one', async () => {
      w.secrets.set(userKey('Prod'), bound('tok-old', USER_ORIGIN, 'https://eu.example.com'));
      w.entries[0]!.profile.platformUrl = MOVED;
      const s = make();
      await assert.rejects(s.secretForUse('platformToken', 'Prod'), {
        code: 'SECRET_ORIGIN',
        message:
          'The platform API token of "Prod" was stored for prod.example.com, eu.example.com, not new.example.com, so it was not sent. Choose the profile again to be asked, or run "Dashboard Platform: Set Token…" to enter one for new.example.com.',
      });
      assert.equal(w.secrets.get(userKey('Prod')), bound('tok-old', USER_ORIGIN, 'https://eu.example.com'));
    });

    it('a plain token moved to a workspace profile’s key: a failing delete of the old key is noted, not thrown', async () => {
      workspaceProfile();
      w.state.set(M.TRUSTED_PROFILES_KEY, [trustOf('Repo', WS_ORIGIN)]);
      w.secrets.set(userKey('Repo'), 'tok-user-plain');
      w.fail.delete = 'locked';
      stub.answer = (d) => d.items[0];
      const s = make();
      assert.equal((await s.secretForUse('platformToken', 'Repo'))?.value, 'tok-user-plain');
      assert.equal(s.secretStorageProblem, 'locked');
      assert.deepEqual(w.warn, ['SecretStorage is unavailable: locked']);
    });
  });

  describe('storing, moving and clearing', () => {
    it('setSecret stores the trimmed token bound to the profile’s origin, forgets the session copy and “Cancel” answers', async () => {
      const s = make();
      s.setSessionSecret('Prod', 'platformToken', 'tok-sess');
      assert.equal(await s.setSecret('Prod', 'platformToken', '  tok-set-1 \n'), 'secretStorage');
      assert.deepEqual(w.known, ['tok-sess', 'tok-set-1'], 'registered for redaction as it is stored');
      assert.equal(w.secrets.get(userKey('Prod')), bound('tok-set-1', USER_ORIGIN));
      assert.deepEqual(await s.getSecret('platformToken'), { value: 'tok-set-1', source: 'secretStorage' });
      assert.ok(w.known.includes('tok-set-1'));
      assert.deepEqual(w.changed, ['Prod', 'Prod']);
    });

    it('setSecret after a “Cancel” asks again', async () => {
      w.secrets.set(userKey('Prod'), bound('tok-old', USER_ORIGIN));
      w.entries[0]!.profile.platformUrl = 'https://new.example.com/api';
      const s = make();
      await assert.rejects(s.secretForUse('platformToken', 'Prod'));
      w.entries[0]!.profile.platformUrl = USER_URL;
      await s.setSecret('Prod', 'platformToken', 'tok-2');
      w.entries[0]!.profile.platformUrl = 'https://new.example.com/api';
      stub.answer = (d) => d.items[0];
      assert.equal((await s.secretForUse('platformToken', 'Prod'))?.value, 'tok-2');
      assert.equal(stub.dialogs.length, 2);
    });

    it('setSessionSecret after a “Cancel” asks again', async () => {
      w.secrets.set(userKey('Prod'), bound('tok-old', USER_ORIGIN));
      w.entries[0]!.profile.platformUrl = 'https://new.example.com/api';
      const s = make();
      await assert.rejects(s.secretForUse('platformToken', 'Prod'));
      w.entries[0]!.profile.platformUrl = USER_URL;
      s.setSessionSecret('Prod', 'platformToken', 'tok-s2');
      w.entries[0]!.profile.platformUrl = 'https://new.example.com/api';
      stub.answer = (d) => d.items[0];
      assert.equal((await s.secretForUse('platformToken', 'Prod'))?.value, 'tok-s2');
      assert.equal(stub.dialogs.length, 2);
    });

    it('SecretStorage failing: refused with what to do, or kept for the session when the user accepted that', async () => {
      w.fail.store = 'org.freedesktop.secrets was not provided';
      const s = make();
      await assert.rejects(s.setSecret('Prod', 'platformToken', 'tok-x'), (e: Error) => {
        assert.equal(e.name, 'SecretStorageUnavailableError');
        assert.ok(e instanceof M.SecretStorageUnavailableError);
        assert.equal(
          (e as ProfileSecretsModule.SecretStorageUnavailableError).reason,
          'org.freedesktop.secrets was not provided',
        );
        assert.equal(
          e.message,
          'VS Code cannot store secrets on this machine (org.freedesktop.secrets was not provided). On Linux this usually means no keyring is running. You can keep the token for this session only.',
        );
        return true;
      });
      assert.equal(await s.getSecret('platformToken'), undefined, 'nothing kept without the user’s say');
      assert.deepEqual(w.changed, []);
      assert.equal(await s.setSecret('Prod', 'platformToken', 'tok-x', true), 'session');
      assert.deepEqual(await s.getSecret('platformToken'), { value: 'tok-x', source: 'session' });
      assert.deepEqual(w.changed, ['Prod']);
      assert.deepEqual(w.warn, ['SecretStorage is unavailable: org.freedesktop.secrets was not provided']);
      w.fail.store = 'second reason';
      await assert.rejects(s.setSecret('Prod', 'platformToken', 'tok-y'));
      assert.equal(s.secretStorageProblem, 'second reason', 'the latest reason is kept');
      assert.equal(w.warn.length, 1, 'warned once');
    });

    it('a non-Error failure is reported by its text', async () => {
      w.fail.store = { raw: 'plain failure' };
      const s = make();
      assert.equal(await s.setSecret('Prod', 'platformToken', 'tok-z', true), 'session');
      assert.equal(s.secretStorageProblem, 'plain failure');
      assert.deepEqual(w.warn, ['SecretStorage is unavailable: plain failure']);
    });

    it('a profile with no valid URL or unknown is refused with a sentence, nothing stored', async () => {
      w.entries.push({ profile: { name: 'Broken', platformUrl: 'not a url', agents: [] }, scope: 'user' });
      const s = make();
      await assert.rejects(s.setSecret('Broken', 'platformToken', 'tok-b'), {
        message: 'Profile "Broken" has no valid URL for its platformToken.',
      });
      await assert.rejects(s.setSecret('Ghost', 'platformToken', 'tok-g'), {
        message: 'There is no profile named "Ghost".',
      });
      assert.throws(() => s.setSessionSecret('Ghost', 'dataApiToken', 'tok-g'), {
        message: 'There is no profile named "Ghost".',
      });
      assert.equal(w.secrets.size, 0);
    });

    it('rememberSecret registers the trimmed value for redaction only', () => {
      const s = make();
      s.rememberSecret('  pasted-token-1 ');
      assert.deepEqual(w.known, ['pasted-token-1']);
      assert.equal(w.secrets.size, 0);
      assert.deepEqual(w.changed, []);
    });

    it('clearSecrets removes every kind from the session and SecretStorage, at the profile’s own level', async () => {
      workspaceProfile('Prod2');
      w.secrets.set(userKey('Prod', 'dataApiToken'), bound('d', USER_ORIGIN));
      w.secrets.set(userKey('Prod', 'aiApiKey'), bound('a', USER_ORIGIN));
      w.secrets.set(userKey('Other'), bound('o', USER_ORIGIN));
      w.secrets.set(wsKey('Prod'), bound('ws', USER_ORIGIN));
      const s = make();
      s.setSessionSecret('Prod', 'platformToken', 'tok-sess');
      w.changed.length = 0;
      await s.clearSecrets('Prod');
      assert.deepEqual([...w.secrets.keys()].sort(), [userKey('Other'), wsKey('Prod')].sort());
      assert.equal(await s.getSecret('platformToken'), undefined);
      assert.deepEqual(w.changed, ['Prod']);
      await s.clearSecrets('Prod', 'workspace');
      assert.deepEqual([...w.secrets.keys()], [userKey('Other')]);
    });

    it('clearSecrets with SecretStorage failing still clears the session copy and notes the failure', async () => {
      const s = make();
      s.setSessionSecret('Prod', 'platformToken', 'tok-sess');
      w.fail.delete = 'gone';
      await s.clearSecrets('Prod');
      assert.equal(await s.getSecret('platformToken'), undefined);
      assert.equal(s.secretStorageProblem, 'gone');
    });

    it('moveSecrets moves stored and session secrets to the new name and leaves none under the old', async () => {
      w.entries.push({ profile: { name: 'Renamed', platformUrl: USER_URL, agents: [] }, scope: 'user' });
      w.secrets.set(userKey('Prod'), bound('tok-p', USER_ORIGIN));
      const s = make();
      s.setSessionSecret('Prod', 'dataApiToken', 'tok-d');
      await s.moveSecrets('Prod', 'Renamed', 'user');
      assert.deepEqual([...w.secrets.keys()], [userKey('Renamed')]);
      assert.equal(w.secrets.get(userKey('Renamed')), bound('tok-p', USER_ORIGIN));
      assert.deepEqual(await s.getSecret('dataApiToken', 'Renamed'), { value: 'tok-d', source: 'session' });
      assert.equal(await s.getSecret('dataApiToken', 'Prod'), undefined);
      assert.equal(await s.getSecret('platformToken', 'Prod'), undefined);
    });

    it('moveSecrets with SecretStorage failing notes it and moves what it can', async () => {
      w.entries.push({ profile: { name: 'Renamed', platformUrl: USER_URL, agents: [] }, scope: 'user' });
      const s = make();
      s.setSessionSecret('Prod', 'platformToken', 'tok-s');
      w.fail.get = 'cannot read';
      await s.moveSecrets('Prod', 'Renamed', 'user');
      assert.equal(s.secretStorageProblem, 'cannot read');
      w.fail.get = undefined;
      assert.deepEqual(await s.getSecret('platformToken', 'Renamed'), { value: 'tok-s', source: 'session' });
    });

    it('a SecretStorage read failing is noted and the environment still answers', async () => {
      w.fail.get = 'dbus down';
      const s = make({ DASHBOARD_PLATFORM_TOKEN: 'tok-env' });
      assert.equal((await s.getSecret('platformToken'))?.source, 'environment');
      assert.equal(s.secretStorageProblem, 'dbus down');
    });
  });

  describe('events and disposal', () => {
    it('a change in SecretStorage names the profile whose key it is, and only such keys', () => {
      workspaceProfile();
      make();
      assert.equal(w.storageListeners.length, 1);
      const fire = (key: string) => w.storageListeners[0]!({ key });
      fire(userKey('Prod', 'dataApiToken'));
      fire(wsKey('Repo', 'aiApiKey'));
      fire(userKey('Repo'));
      fire('someone.else.key');
      assert.deepEqual(w.changed, ['Prod', 'Repo']);
    });

    it('dispose stops the SecretStorage listener, the events and forgets session secrets', async () => {
      const s = make();
      s.setSessionSecret('Prod', 'platformToken', 'tok-s');
      w.changed.length = 0;
      s.dispose();
      assert.equal(w.storageDisposed, 1);
      assert.equal(await s.getSecret('platformToken'), undefined);
      s.setSessionSecret('Prod', 'platformToken', 'tok-t');
      assert.deepEqual(w.changed, [], 'no event after dispose');
    });
  });
});
