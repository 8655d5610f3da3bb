// The client provider (src/profiles/clientProvider.ts) in plain Node with a stand-in for `vscode`:
// which host each client talks to and which secret it sends (the profile's own Data API token only
// to its override host or its default deployment, a token minted from the platform token for any
// other deployment, reused until a minute before it expires), what is asked first, what the user
// is told when a profile, token, agent or deployment URL is missing, and that a profile switch,
// edit or secret change drops and closes every cached client.
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import Module from 'node:module';
import * as os from 'node:os';
import * as path from 'node:path';
import type { Profile, SecretKind } from '../../src/profiles/profileModel';
import type * as ClientProviderModule from '../../src/profiles/clientProvider';
import { forgetVscodeDependents } from './vscodeStandIn';

const STUB_SOURCE = `
const s = () => globalThis.__dpClientsStub;
class EventEmitter {
  constructor() { this.listeners = new Set(); }
  get event() { return (fn) => { this.listeners.add(fn); return { dispose: () => this.listeners.delete(fn) }; }; }
  fire(v) { for (const f of [...this.listeners]) f(v); }
  dispose() { this.listeners.clear(); s().emitterDisposed++; }
}
module.exports = {
  EventEmitter,
  workspace: { get isTrusted() { return s().trusted; } },
  env: { machineId: 'machine-1234' },
};
`;

const PLATFORM_URL = 'https://acme.example.com/api';
const FALLBACK_DATA = 'https://acme.example.com/cubejs-api';
const SBX_PLATFORM = 'http://127.0.0.1:4100/api';
const SBX_DATA = 'http://127.0.0.1:4100/cubejs-api';

/** A JWT whose `exp` is `secondsFromNow` away (signature not checked by the provider). */
function jwt(secondsFromNow: number, tag: string): string {
  const b64 = (o: object) => Buffer.from(JSON.stringify(o)).toString('base64url');
  return `${b64({ alg: 'HS256' })}.${b64({ exp: Math.floor(Date.now() / 1000) + secondsFromNow, tag })}.sig`;
}

interface Stub {
  trusted: boolean;
  emitterDisposed: number;
}

interface FakePlatform {
  opts: ClientProviderModule.PlatformClientOptions;
  closed: number;
  getDeployment(id: number): Promise<{ id: number; name: string; deploymentUrl?: string }>;
  mintDataApiToken(id: number): Promise<string>;
  close(): Promise<void>;
}

interface World {
  profiles: Profile[];
  active?: string;
  sandboxName: string;
  secrets: Map<string, string>;
  /** secretForUse calls: kind|profile|agentUrl. */
  asked: string[];
  /** Make secretForUse refuse (the user said no). */
  refuse?: Error;
  deployments: Map<number, { id: number; name: string; deploymentUrl?: string }>;
  deploymentLookups: number[];
  failLookup: number;
  mints: number[];
  mintToken: (id: number) => string;
  platforms: FakePlatform[];
  networkCalls: number;
  logs: string[];
  listeners: Record<'active' | 'profiles' | 'secrets', Set<() => void>>;
  sandboxStarts: number;
}

describe('profiles: the client provider sends each secret only where it belongs (exact)', () => {
  const mod = Module as unknown as { _resolveFilename: (request: string, ...rest: unknown[]) => string };
  const resolve = mod._resolveFilename;
  let dir: string;
  let M: typeof ClientProviderModule;
  let stub: Stub;
  let w: World;

  before(() => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'dp-clients-test-'));
    const file = path.join(dir, 'vscode.js');
    fs.writeFileSync(file, STUB_SOURCE);
    Object.defineProperty(globalThis, '__dpClientsStub', { get: () => stub, configurable: true });
    mod._resolveFilename = function (request: string, ...rest: unknown[]) {
      return request === 'vscode' ? file : resolve.call(this, request, ...rest);
    };
    forgetVscodeDependents();
    // eslint-disable-next-line @typescript-eslint/no-require-imports
    M = require('../../src/profiles/clientProvider') as typeof ClientProviderModule;
  });

  after(() => {
    mod._resolveFilename = resolve;
    delete (globalThis as { __dpClientsStub?: unknown }).__dpClientsStub;
    forgetVscodeDependents();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  beforeEach(() => {
    stub = { trusted: true, emitterDisposed: 0 };
    w = {
      profiles: [{ name: 'Prod', platformUrl: PLATFORM_URL, agents: [], defaultDeploymentId: 1 }],
      active: 'Prod',
      sandboxName: 'Sandbox',
      secrets: new Map([['platformToken|Prod', 'plat-tok-1']]),
      asked: [],
      deployments: new Map([
        [1, { id: 1, name: 'Main', deploymentUrl: 'https://main.example.com' }],
        [7, { id: 7, name: 'Seven', deploymentUrl: 'seven.example.com/cubejs-api/' }],
        [8, { id: 8, name: 'Eight' }],
      ]),
      deploymentLookups: [],
      failLookup: 0,
      mints: [],
      mintToken: (id) => `minted-opaque-${id}-${w.mints.length}`,
      platforms: [],
      networkCalls: 0,
      logs: [],
      listeners: { active: new Set(), profiles: new Set(), secrets: new Set() },
      sandboxStarts: 0,
    };
  });

  const profileOf = (name: string): Profile | undefined =>
    w.profiles.find((p) => p.name.toLowerCase() === name.toLowerCase());
  const secret = (kind: SecretKind, name: string): string | undefined => w.secrets.get(`${kind}|${name}`);
  const on = (set: Set<() => void>) => (fn: () => void) => {
    set.add(fn);
    return { dispose: () => void set.delete(fn) };
  };

  function provider(): ClientProviderModule.ProfileClientProvider {
    const profiles = {
      active: () => {
        const p = w.active === undefined ? undefined : profileOf(w.active);
        return p ? { profile: p, isSandbox: p.name === w.sandboxName } : undefined;
      },
      // As ProfileService: the Sandbox profile carries the running sandbox's URLs.
      get: (name: string) =>
        name === w.sandboxName && w.sandboxStarts > 0
          ? { ...profileOf(name)!, platformUrl: SBX_PLATFORM, dataApiUrl: SBX_DATA }
          : profileOf(name),
      isSandbox: (name: string) => name === w.sandboxName,
      sandbox: {
        start: async () => {
          w.sandboxStarts++;
          return {
            urls: { platform: SBX_PLATFORM, dataApi: SBX_DATA },
          };
        },
      },
      secretForUse: async (kind: SecretKind, name: string, agentUrl?: string) => {
        w.asked.push(`${kind}|${name}${agentUrl ? `|${agentUrl}` : ''}`);
        if (w.refuse) throw w.refuse;
        const v = secret(kind, name);
        return v === undefined ? undefined : { value: v, source: 'secretStorage' };
      },
      getSecret: async (kind: SecretKind, name: string, agentUrl?: string) => {
        const v = secret(kind, agentUrl ? `${name}|${agentUrl}` : name) ?? secret(kind, name);
        return v === undefined ? undefined : { value: v, source: 'secretStorage' };
      },
      hasSecret: async (kind: SecretKind, name: string) => secret(kind, name) !== undefined,
      onDidChangeActiveProfile: on(w.listeners.active),
      onDidChangeProfiles: on(w.listeners.profiles),
      onDidChangeSecrets: on(w.listeners.secrets),
    };
    const logger = {
      debug: (m: string) => void w.logs.push(`debug: ${m}`),
      info: (m: string) => void w.logs.push(`info: ${m}`),
      warn: (m: string) => void w.logs.push(`warn: ${m}`),
      error: (m: string) => void w.logs.push(`error: ${m}`),
    };
    return new M.ProfileClientProvider({
      profiles: profiles as never,
      logger: logger as never,
      network: async () => {
        w.networkCalls++;
        return { timeoutMs: 1000 + w.networkCalls } as never;
      },
      createPlatform: (opts) => {
        const p: FakePlatform = {
          opts,
          closed: 0,
          getDeployment: async (id) => {
            w.deploymentLookups.push(id);
            if (w.failLookup > 0) {
              w.failLookup--;
              throw new Error('lookup failed');
            }
            const d = w.deployments.get(id);
            if (!d) throw new Error(`no deployment ${id}`);
            return d;
          },
          mintDataApiToken: async (id) => {
            w.mints.push(id);
            return w.mintToken(id);
          },
          close: async () => void p.closed++,
        };
        w.platforms.push(p);
        return p as never;
      },
    });
  }

  /** What a Data API client was built with. */
  const dataOpts = (c: unknown) =>
    (c as { opts: { baseUrl: string; token: () => Promise<string | undefined>; cacheKey: string } }).opts;

  describe('profiles and tokens', () => {
    it('no active profile, or a named one that does not exist: a sentence saying what to do', async () => {
      w.active = undefined;
      const p = provider();
      await assert.rejects(p.platform(), {
        message:
          'No Dashboard Platform profile is active. Add a profile or choose "Sandbox" from the status bar.',
      });
      await assert.rejects(p.data(undefined, 'Ghost'), {
        name: 'ApiError',
        kind: 'validation',
        code: 'NO_PROFILE',
        message:
          'There is no profile named "Ghost" here. Pick a profile for the notebook, or add one with that name.',
      });
      assert.equal(w.platforms.length, 0);
      p.dispose();
    });

    it('the platform client: asked for first, built once on the profile’s URL, reading the token at each request', async () => {
      const p = provider();
      const a = await p.platform();
      const b = await p.platform('PROD');
      assert.equal(a, b, 'one client per profile, whatever the case of its name');
      assert.equal(w.platforms.length, 1);
      assert.deepEqual(w.asked, ['platformToken|Prod']);
      const opts = w.platforms[0]!.opts;
      assert.equal(opts.baseUrl, PLATFORM_URL);
      assert.deepEqual(opts.network, { timeoutMs: 1001 });
      assert.ok(opts.logger, 'the provider’s logger');
      assert.equal(await opts.token(), 'plat-tok-1');
      w.secrets.set('platformToken|Prod', 'plat-tok-2');
      assert.equal(await opts.token(), 'plat-tok-2', 'read again, never copied');
      w.secrets.delete('platformToken|Prod');
      assert.equal(await opts.token(), undefined);
      p.dispose();
    });

    it('no platform token: refused as signed out, with the command to add one, and nothing built', async () => {
      w.secrets.clear();
      const p = provider();
      await assert.rejects(p.platform(), {
        name: 'ApiError',
        kind: 'auth',
        code: 'SIGNED_OUT',
        message: 'Profile "Prod" has no platform API token. Run "Dashboard Platform: Set Token…" to add one.',
      });
      await assert.rejects(p.build(), { code: 'SIGNED_OUT' });
      assert.equal(w.platforms.length, 0);
      p.dispose();
    });

    it('the user’s “no” to sending a token reaches the caller as is', async () => {
      w.refuse = new Error('not trusted');
      const p = provider();
      await assert.rejects(p.platform(), { message: 'not trusted' });
      assert.equal(w.platforms.length, 0);
      p.dispose();
    });

    it('the build client: on the tenant’s root of the profile’s URL, with the platform token, built once', async () => {
      const p = provider();
      const a = await p.build();
      assert.equal(await p.build(), a);
      assert.deepEqual(w.asked, ['platformToken|Prod']);
      const http = (
        a as unknown as { t: { http: { baseUrl: string; opts: { auth: () => Promise<string> } } } }
      ).t.http;
      assert.equal(http.baseUrl, 'https://acme.example.com');
      assert.equal(await http.opts.auth(), 'plat-tok-1');
      w.secrets.delete('platformToken|Prod');
      assert.equal(await http.opts.auth(), undefined, 'a token removed since: none sent');
      p.dispose();
    });

    it('the build client without a platform token: signed out, with the command to add one', async () => {
      w.secrets.clear();
      const p = provider();
      await assert.rejects(p.build(), {
        code: 'SIGNED_OUT',
        message: 'Profile "Prod" has no platform API token. Run "Dashboard Platform: Set Token…" to add one.',
      });
      p.dispose();
    });
  });

  describe('the Data API', () => {
    it('the default deployment with the profile’s own Data API token: the deployment’s published host', async () => {
      w.secrets.set('dataApiToken|Prod', 'data-tok-1');
      const p = provider();
      const c = await p.data();
      const o = dataOpts(c);
      assert.equal(o.baseUrl, 'https://main.example.com/cubejs-api');
      assert.equal(await o.token(), 'data-tok-1');
      assert.equal(o.cacheKey, 'https://main.example.com/cubejs-api|1');
      assert.deepEqual(w.mints, []);
      assert.deepEqual(
        w.asked,
        ['dataApiToken|Prod', 'platformToken|Prod'],
        'the data token is asked for first',
      );
      assert.ok(
        w.logs.includes(
          `debug: Data API of deployment 1: https://main.example.com/cubejs-api (profile's token)`,
        ),
        w.logs.join('\n'),
      );
      assert.equal(await p.data(1), c, 'cached');
      assert.deepEqual(w.deploymentLookups, [1]);
      assert.ok(!w.logs.some((l) => l.includes('publishes no Data API URL')), 'the deployment publishes one');
      w.secrets.delete('dataApiToken|Prod');
      assert.equal(await o.token(), undefined, 'a token removed since: none sent');
      p.dispose();
    });

    it('another deployment gets a token minted for it (never the profile’s own), on its own host', async () => {
      w.secrets.set('dataApiToken|Prod', 'data-tok-1');
      const p = provider();
      const c = await p.data(7);
      const o = dataOpts(c);
      assert.equal(o.baseUrl, 'https://seven.example.com/cubejs-api');
      assert.equal(o.cacheKey, 'https://seven.example.com/cubejs-api|7');
      assert.equal(await o.token(), 'minted-opaque-7-1');
      assert.equal(await o.token(), 'minted-opaque-7-1', 'an opaque token is kept (ten minutes)');
      assert.deepEqual(w.mints, [7]);
      assert.ok(w.logs.includes('debug: Minted a Data API token for deployment 7'));
      assert.ok(
        w.logs.includes(
          'debug: Data API of deployment 7: https://seven.example.com/cubejs-api (minted token)',
        ),
      );
      assert.notEqual(await p.data(1), c);
      p.dispose();
    });

    it('a minted JWT is reused until a minute before it expires, then minted again', async () => {
      const p = provider();
      w.mintToken = (id) => jwt(3600, `long-${id}-${w.mints.length}`);
      const long = dataOpts(await p.data(7));
      const first = await long.token();
      assert.equal(await long.token(), first);
      assert.deepEqual(w.mints, [7]);
      w.mintToken = (id) => jwt(30, `short-${id}-${w.mints.length}`);
      const short = dataOpts(await p.data(1));
      const s1 = await short.token();
      const s2 = await short.token();
      assert.notEqual(s1, s2, 'expires within the margin: minted again');
      assert.deepEqual(w.mints, [7, 1, 1]);
      p.dispose();
    });

    it('the profile’s Data API URL overrides every host, and its own token goes there for any deployment', async () => {
      w.profiles[0]!.dataApiUrl = 'https://gw.example.com/cubejs-api';
      w.secrets.set('dataApiToken|Prod', 'data-tok-1');
      const p = provider();
      const o = dataOpts(await p.data(7));
      assert.equal(o.baseUrl, 'https://gw.example.com/cubejs-api');
      assert.equal(await o.token(), 'data-tok-1');
      assert.deepEqual(w.deploymentLookups, [], 'no lookup of the deployment’s host');
      assert.deepEqual(w.mints, []);
      p.dispose();
    });

    it('no default deployment: the profile’s own token on the URL made from the platform URL', async () => {
      delete w.profiles[0]!.defaultDeploymentId;
      w.secrets.set('dataApiToken|Prod', 'data-tok-1');
      const p = provider();
      const o = dataOpts(await p.data());
      assert.equal(o.baseUrl, FALLBACK_DATA);
      assert.equal(o.cacheKey, `${FALLBACK_DATA}|Prod`);
      assert.ok(w.logs.includes(`debug: Data API of profile "Prod": ${FALLBACK_DATA} (profile's token)`));
      p.dispose();
    });

    it('no Data API token and no deployment to mint one for: says which to set', async () => {
      delete w.profiles[0]!.defaultDeploymentId;
      const p = provider();
      await assert.rejects(p.data(), {
        kind: 'validation',
        message:
          'Profile "Prod" has no Data API token and no default deployment to mint one for. Set a Data API token or a default deployment in the profile.',
      });
      p.dispose();
    });

    it('no platform token to mint with: says what it was needed for; the own token still works on the fallback host', async () => {
      w.secrets.clear();
      const p = provider();
      await assert.rejects(p.data(7), {
        code: 'SIGNED_OUT',
        message:
          'Profile "Prod" has no platform API token (needed to mint a Data API token for deployment 7). Run "Dashboard Platform: Set Token…" to add one.',
      });
      w.secrets.set('dataApiToken|Prod', 'data-tok-1');
      const o = dataOpts(await p.data());
      assert.equal(o.baseUrl, FALLBACK_DATA, 'no platform token: the deployment’s host cannot be looked up');
      assert.deepEqual(w.deploymentLookups, []);
      p.dispose();
    });

    it('a deployment that publishes no URL uses the profile’s, and says so', async () => {
      const p = provider();
      const o = dataOpts(await p.data(8));
      assert.equal(o.baseUrl, FALLBACK_DATA);
      assert.ok(w.logs.includes("info: Deployment 8 publishes no Data API URL; using the profile's."));
      p.dispose();
    });

    it('two deployments on the same host each get their own client and their own minted token', async () => {
      w.deployments.set(9, { id: 9, name: 'Nine' });
      const p = provider();
      const eight = dataOpts(await p.data(8));
      const nine = dataOpts(await p.data(9));
      assert.equal(eight.baseUrl, FALLBACK_DATA);
      assert.equal(nine.baseUrl, FALLBACK_DATA);
      assert.notEqual(eight, nine);
      assert.equal(await eight.token(), 'minted-opaque-8-1');
      assert.equal(await nine.token(), 'minted-opaque-9-2');
      assert.deepEqual(w.mints, [8, 9]);
      p.dispose();
    });

    it('a failed lookup of a deployment’s host is not remembered: the next query asks again', async () => {
      w.failLookup = 1;
      const p = provider();
      await assert.rejects(p.data(7), { message: 'lookup failed' });
      const o = dataOpts(await p.data(7));
      assert.equal(o.baseUrl, 'https://seven.example.com/cubejs-api');
      assert.deepEqual(w.deploymentLookups, [7, 7]);
      p.dispose();
    });

    it('Restricted Mode: no Data API client at all', async () => {
      stub.trusted = false;
      const p = provider();
      await assert.rejects(p.data(), /Queries are off in Restricted Mode/);
      await assert.rejects(p.devData(1, 'dev-a'), /Queries are off in Restricted Mode/);
      assert.deepEqual(w.asked, []);
      p.dispose();
    });
  });

  describe('a branch in dev mode', () => {
    it('the default deployment’s branch: its dev-mode URL, the profile’s own token, cached per branch', async () => {
      w.secrets.set('dataApiToken|Prod', 'data-tok-1');
      const p = provider();
      const c = await p.devData(undefined, 'dev-a');
      const o = dataOpts(c);
      assert.equal(o.baseUrl, 'https://main.example.com/dev-mode/dev-a/cubejs-api');
      assert.equal(o.cacheKey, 'https://main.example.com/dev-mode/dev-a/cubejs-api|dev');
      assert.equal(await o.token(), 'data-tok-1');
      assert.equal(await p.devData(1, 'dev-a'), c);
      assert.notEqual(await p.devData(1, 'dev-b'), c);
      w.secrets.delete('dataApiToken|Prod');
      assert.equal(await o.token(), undefined, 'a token removed since: none sent');
      p.dispose();
    });

    it('the default deployment’s branch without a Data API token: a minted one', async () => {
      const p = provider();
      const o = dataOpts(await p.devData(1, 'dev-a'));
      assert.equal(await o.token(), 'minted-opaque-1-1');
      p.dispose();
    });

    it('another deployment’s branch gets a minted token', async () => {
      w.secrets.set('dataApiToken|Prod', 'data-tok-1');
      const p = provider();
      const o = dataOpts(await p.devData(7, 'dev-a'));
      assert.equal(await o.token(), 'minted-opaque-7-1');
      p.dispose();
    });

    it('no deployment, or one without a URL: says what to do', async () => {
      delete w.profiles[0]!.defaultDeploymentId;
      const p = provider();
      await assert.rejects(p.devData(undefined, 'dev-a'), {
        kind: 'validation',
        message:
          "A dev branch belongs to a deployment: pick the notebook's deployment first (Select Notebook Deployment…).",
      });
      await assert.rejects(p.devData(8, 'dev-a'), {
        kind: 'validation',
        message: 'Deployment "Eight" publishes no URL, so its branches in dev mode cannot be queried.',
      });
      p.dispose();
    });
  });

  describe('the AI API', () => {
    const AGENT_1 = 'https://ai.example.com/api/v1/public/acme/agents/1';
    const AGENT_2 = 'https://ai.example.com/api/v1/public/acme/agents/2';

    it('the first agent by default, its key asked for with its URL, one client per agent', async () => {
      w.profiles[0]!.agents = [
        { label: 'One', url: AGENT_1 },
        { label: 'Two', url: AGENT_2 },
      ];
      w.secrets.set('aiApiKey|Prod', 'ai-key-1');
      w.secrets.set(`aiApiKey|Prod|${AGENT_2}`, 'ai-key-2');
      const p = provider();
      const a = await p.ai();
      assert.equal(await p.ai(AGENT_1), a);
      const b = await p.ai(AGENT_2);
      assert.notEqual(b, a);
      assert.deepEqual(w.asked, [`aiApiKey|Prod|${AGENT_1}`, `aiApiKey|Prod|${AGENT_2}`]);
      const http = (c: unknown) =>
        (c as { http: { baseUrl: string; opts: { auth: () => Promise<string | undefined> } } }).http;
      assert.equal(http(a).baseUrl, AGENT_1);
      assert.equal(await http(a).opts.auth(), 'ai-key-1');
      assert.equal(await http(b).opts.auth(), 'ai-key-2', 'the key read for that agent');
      w.secrets.clear();
      assert.equal(await http(a).opts.auth(), undefined, 'a key removed since: none sent');
      p.dispose();
    });

    it('no agent: says to add one; no key: signed out', async () => {
      const p = provider();
      await assert.rejects(p.ai(), {
        kind: 'validation',
        message: 'Profile "Prod" has no AI agent. Edit the profile to add an agent URL.',
      });
      await assert.rejects(p.ai(AGENT_1), {
        code: 'SIGNED_OUT',
        message: 'Profile "Prod" has no AI API key. Run "Dashboard Platform: Set Token…" to add one.',
      });
      p.dispose();
    });

    it('the session identity: the profile’s, else this machine’s', () => {
      const p = provider();
      const user = os
        .userInfo()
        .username.toLowerCase()
        .replace(/[^a-z0-9]+/g, '-')
        .replace(/^-+|-+$/g, '');
      assert.deepEqual(p.sessionSettings(), { externalId: `vscode-${user || 'user'}-machine1234` });
      assert.equal(M.machineExternalId(), `vscode-${user || 'user'}-machine1234`);
      w.profiles[0]!.session = { externalId: 'ext-user-9', email: ' a@b.example ' };
      assert.deepEqual(p.sessionSettings(), { externalId: 'ext-user-9', email: 'a@b.example' });
      w.active = undefined;
      assert.deepEqual(p.sessionSettings(), { externalId: `vscode-${user || 'user'}-machine1234` });
      p.dispose();
    });
  });

  describe('the sandbox', () => {
    it('starts the sandbox and talks to its hosts; its deployments’ published hosts win over its Data API', async () => {
      w.profiles.push({ name: 'Sandbox', platformUrl: 'http://127.0.0.1/api', agents: [] });
      w.active = 'Sandbox';
      w.secrets.set('platformToken|Sandbox', 'sbx-admin');
      w.secrets.set('dataApiToken|Sandbox', 'sbx-data');
      const p = provider();
      await p.platform();
      assert.equal(w.sandboxStarts, 1);
      assert.equal(w.platforms[0]!.opts.baseUrl, 'http://127.0.0.1:4100/api');
      const o = dataOpts(await p.data());
      assert.equal(
        o.baseUrl,
        'http://127.0.0.1:4100/cubejs-api',
        'no default deployment: the sandbox’s Data API',
      );
      const seven = dataOpts(await p.data(7));
      assert.equal(seven.baseUrl, 'https://seven.example.com/cubejs-api');
      p.dispose();
    });
  });

  describe('dropping clients', () => {
    for (const event of ['active', 'profiles', 'secrets'] as const) {
      it(`a change of ${event} drops and closes every client, forgets the network settings and tells listeners`, async () => {
        w.secrets.set('dataApiToken|Prod', 'data-tok-1');
        const p = provider();
        let fired = 0;
        p.onDidChange(() => fired++);
        const plat = await p.platform();
        const data = await p.data();
        assert.equal(w.networkCalls, 1, 'the network settings are read once');
        assert.equal(w.listeners[event].size, 1);
        for (const l of w.listeners[event]) l();
        await new Promise((r) => setImmediate(r));
        assert.equal(fired, 1);
        assert.equal(w.platforms[0]!.closed, 1);
        assert.notEqual(await p.platform(), plat);
        assert.notEqual(await p.data(), data);
        assert.equal(w.networkCalls, 2);
        assert.deepEqual(w.deploymentLookups, [1, 1], 'the deployment’s host is looked up again');
        p.dispose();
      });
    }

    it('a change closes the Data API clients of a profile that has no platform client', async () => {
      delete w.profiles[0]!.defaultDeploymentId;
      w.secrets.clear();
      w.secrets.set('dataApiToken|Prod', 'data-tok-1');
      const p = provider();
      const data = await p.data();
      assert.equal(w.platforms.length, 0);
      const http = (data as unknown as { http: { closed: boolean } }).http;
      assert.equal(http.closed, false);
      p.reset();
      await new Promise((r) => setImmediate(r));
      assert.equal(http.closed, true);
      p.dispose();
    });

    it('dispose stops listening and closes every client', async () => {
      const p = provider();
      await p.platform();
      p.dispose();
      await new Promise((r) => setImmediate(r));
      assert.equal(w.platforms[0]!.closed, 1);
      assert.equal(w.listeners.active.size + w.listeners.profiles.size + w.listeners.secrets.size, 0);
      assert.equal(stub.emitterDisposed, 1);
    });
  });
});
