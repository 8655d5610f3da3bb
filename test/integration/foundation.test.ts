// Foundation inside a real VS Code: activation, every contributed command registered, profiles
// (secrets only in SecretStorage, nothing secret in settings, http:// refused), the status bar
// following profile switches, and the built-in Sandbox profile.
import assert from 'node:assert/strict';
import * as vscode from 'vscode';
import type { ExtensionApi } from '../../src/extension';

const EXTENSION_ID = 'dashboard-platform.dashboard-platform';
const SECRETS = {
  platformToken: 'it-platform-token-5b7e1d',
  dataApiToken: 'it-data-token-9c2f40',
  aiApiKey: 'it-ai-key-31aa8e',
};
const NAMES = ['IT Dev', 'IT Prod', 'IT Insecure', 'IT Local'];

async function api(): Promise<ExtensionApi> {
  const ext = vscode.extensions.getExtension<ExtensionApi>(EXTENSION_ID);
  assert.ok(ext, `extension ${EXTENSION_ID} is installed`);
  return ext.activate();
}

async function waitFor<T>(
  what: string,
  fn: () => T | undefined | Promise<T | undefined>,
  ms = 10_000,
): Promise<T> {
  const end = Date.now() + ms;
  for (;;) {
    const v = await fn();
    if (v) return v;
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

function settingsText(): string {
  const c = vscode.workspace.getConfiguration('dashboardPlatform');
  return JSON.stringify([c.inspect('profiles'), c.inspect('activeProfile')]);
}

describe('foundation', function () {
  this.timeout(60_000);
  let ext: ExtensionApi;
  let previousActive: string | undefined;

  before(async () => {
    ext = await api();
    previousActive = ext.services.profiles.active()?.profile.name;
  });

  after(async () => {
    for (const name of NAMES) {
      if (ext.services.profiles.get(name)) {
        await vscode.commands.executeCommand('dashboardPlatform.profiles.remove', { name });
      }
    }
    await ext.services.profiles.switchTo(previousActive);
  });

  it('activates without errors and exports its API', async () => {
    const e = vscode.extensions.getExtension(EXTENSION_ID);
    assert.ok(e?.isActive);
    assert.equal(typeof ext.statusBarText, 'function');
    assert.ok(ext.services.log && ext.services.profiles && ext.services.clients);
    assert.ok(ext.statusBarText().length > 0);
  });

  it('registers every command contributed in package.json', async () => {
    const registered = new Set(await vscode.commands.getCommands(true));
    const contributed = (
      vscode.extensions.getExtension(EXTENSION_ID)?.packageJSON as {
        contributes: { commands: { command: string }[] };
      }
    ).contributes.commands.map((c) => c.command);
    const missing = contributed.filter((id) => !registered.has(id));
    assert.deepEqual(missing, [], `not registered: ${missing.join(', ')}`);
  });

  it('adding a profile keeps its secrets in SecretStorage and none in settings', async () => {
    const result = (await vscode.commands.executeCommand('dashboardPlatform.profiles.add', {
      name: 'IT Dev',
      platformUrl: 'https://it-dev.example.com/api',
      agents: [{ label: 'Agent', url: 'https://ai.example.com/api/v1/public/acme/agents/7' }],
      defaultDeploymentId: 3,
      session: { externalId: 'it-user', email: 'it@example.com' },
      ...SECRETS,
      sessionFallback: true,
    })) as { name: string; secrets: Record<string, string> } | undefined;
    assert.ok(result, 'the add command returned its result');
    assert.equal(result.name, 'IT Dev');

    const profiles = ext.services.profiles;
    for (const [kind, value] of Object.entries(SECRETS)) {
      const where: string | undefined = result.secrets[kind];
      const found = await profiles.getSecret(kind as keyof typeof SECRETS, 'IT Dev');
      assert.equal(found?.value, value, `${kind} is readable`);
      if (where === 'secretStorage') {
        const key = `dashboardPlatform.profile.${encodeURIComponent('IT Dev')}.${kind}`;
        // Stored with the origin it is for: {"origin": ..., "value": ...}.
        const stored = JSON.parse((await ext.services.context.secrets.get(key)) ?? '{}') as {
          value?: string;
        };
        assert.equal(stored.value, value, `${kind} is in SecretStorage`);
      } else {
        // Only when this VS Code has no working SecretStorage (e.g. no keyring).
        assert.equal(where, 'session');
        assert.ok(profiles.secretStorageProblem, 'a session-only secret comes with a stated reason');
      }
    }

    const stored = await waitFor('profile in settings', () =>
      settingsText().includes('it-dev.example.com') ? true : undefined,
    );
    assert.ok(stored);
    const text = settingsText();
    for (const value of Object.values(SECRETS)) assert.ok(!text.includes(value), 'no secret in settings');
    assert.equal(profiles.active()?.profile.name, 'IT Dev');
    assert.deepEqual(ext.services.clients.sessionSettings(), {
      externalId: 'it-user',
      email: 'it@example.com',
    });
  });

  it('refuses http:// URLs for non-loopback hosts', async () => {
    const result = await vscode.commands.executeCommand('dashboardPlatform.profiles.add', {
      name: 'IT Insecure',
      platformUrl: 'http://insecure.example.com/api',
    });
    assert.equal(result, undefined);
    assert.equal(ext.services.profiles.get('IT Insecure'), undefined);
  });

  it('switching profiles updates the status bar', async () => {
    await vscode.commands.executeCommand('dashboardPlatform.profiles.add', {
      name: 'IT Prod',
      platformUrl: 'https://it-prod.example.com/api',
      production: true,
      activate: false,
    });
    await vscode.commands.executeCommand('dashboardPlatform.profiles.switch', 'IT Prod');
    await waitFor('status bar shows IT Prod', () => ext.statusBarText().includes('IT Prod') || undefined);
    assert.match(ext.statusBarTooltip(), /it-prod\.example\.com/);
    assert.doesNotMatch(ext.statusBarTooltip(), /token/i);

    await vscode.commands.executeCommand('dashboardPlatform.profiles.switch', { name: 'IT Dev' });
    await waitFor('status bar shows IT Dev', () => ext.statusBarText().includes('IT Dev') || undefined);
    assert.ok(!ext.statusBarText().includes('IT Prod'));

    await vscode.commands.executeCommand('dashboardPlatform.profiles.switch', 'Sandbox');
    await waitFor('status bar shows Sandbox', () => ext.statusBarText().includes('Sandbox') || undefined);
  });

  it('the Sandbox profile starts the sandbox on first use and serves the clients', async function () {
    let handle;
    try {
      handle = await ext.sandbox();
    } catch (e) {
      if (/not available in this build/.test(String(e))) this.skip();
      throw e;
    }
    assert.match(handle.urls.platform, /^http:\/\/127\.0\.0\.1:\d+\/api$/);
    await ext.services.profiles.switchTo('Sandbox');
    const platform = await ext.services.clients.platform();
    const page = await platform.listDeployments();
    assert.ok(page.items.length > 0, 'the sandbox lists deployments');
    assert.ok(ext.services.profiles.get('Sandbox'), 'Sandbox is always listed');
    assert.ok(!settingsText().includes(handle.tokens.admin), 'sandbox tokens never reach settings');
  });

  it('mints a Data API token from the platform token when a profile has none', async () => {
    const handle = await ext.sandbox();
    // A stored profile pointing at the sandbox (http:// is allowed for loopback), platform token only.
    await vscode.commands.executeCommand('dashboardPlatform.profiles.add', {
      name: 'IT Local',
      platformUrl: handle.urls.platform,
      dataApiUrl: handle.urls.dataApi,
      defaultDeploymentId: 1,
      platformToken: handle.tokens.admin,
      sessionFallback: true,
    });
    assert.equal(ext.services.profiles.active()?.profile.name, 'IT Local');
    assert.equal(await ext.services.profiles.getSecret('dataApiToken'), undefined);
    const data = await ext.services.clients.data();
    const meta = await data.meta();
    assert.ok(meta.cubes.length > 0, 'the Data API answered with the minted token');
    assert.strictEqual(await ext.services.clients.data(), data, 'clients are cached per profile');
  });

  it('sandbox stop command stops it; the next use starts it again', async () => {
    await ext.services.profiles.switchTo('Sandbox');
    const first = await ext.sandbox();
    await vscode.commands.executeCommand('dashboardPlatform.sandbox.stop');
    assert.equal(ext.sandbox.current(), undefined);
    const platform = await ext.services.clients.platform();
    const page = await platform.listDeployments();
    assert.ok(page.items.length > 0);
    assert.ok(ext.sandbox.current(), 'restarted on use');
    assert.ok(first);
  });
});
