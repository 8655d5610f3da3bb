// Journey (issue 30, item 2) in a real VS Code: a cloned repository's .vscode/settings.json defines
// a profile with the name of one of the user's but another platform URL, makes it active, and
// turns on MCP writes, remote images in AI answers and an extra CA certificate. Two local HTTP
// servers stand for the user's service and the repository's, recording every Authorization header:
// the user's token never reaches the repository's server, the user is asked (naming both hosts),
// and the safety settings stay off. Then the user's own profile moved to another host: its token
// is not sent there until the user decides. Every setting changed is restored afterwards.
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as http from 'node:http';
import type { AddressInfo } from 'node:net';
import * as path from 'node:path';
import * as vscode from 'vscode';
import type { ExtensionApi } from '../../../src/extension';
import { allowRemoteImages, mcpAllowWrites } from '../../../src/config/safetySettings';
import { readNetworkSettings } from '../../../src/config/networkSettings';
import { TRUSTED_PROFILES_KEY } from '../../../src/profiles/profileSecrets';
import { click, getApi, pageText, pressKeys, screenshot, typeText, waitFor } from '../harness';

const NAME = 'Trust Journey Prod';
const MOVED = 'Trust Journey Moved';
const TOKEN = 'journey-user-token-5c1e9a7f3b';
const NEW_TOKEN = 'journey-new-token-8d2f4b6a1c';

interface Recorder {
  url: string;
  host: string;
  /** Authorization header of every request received (empty string: none). */
  auth: string[];
  close(): Promise<void>;
}

async function recorder(): Promise<Recorder> {
  const auth: string[] = [];
  const server = http.createServer((req, res) => {
    auth.push(req.headers.authorization ?? '');
    req.resume();
    res.writeHead(401, { 'content-type': 'application/json' }).end('{"error":"unauthorized"}');
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const port = (server.address() as AddressInfo).port;
  return {
    url: `http://127.0.0.1:${port}/api`,
    host: `127.0.0.1:${port}`,
    auth,
    close: () => new Promise<void>((r) => server.close(() => r())),
  };
}

/** Waits for a modal dialog whose text matches, and returns its text. */
async function dialog(pattern: RegExp): Promise<string> {
  return waitFor(
    `a modal dialog matching ${pattern}`,
    async () => {
      const text = (await pageText('.monaco-dialog-box')) ?? '';
      return pattern.test(text) ? text : undefined;
    },
    60_000,
  );
}

async function press(button: string): Promise<void> {
  // The dialog can take a while to take clicks on a loaded machine: up to three tries.
  for (let attempt = 1; ; attempt++) {
    try {
      await click({ selector: `.monaco-dialog-box .monaco-button:has-text("${button}")` });
      return;
    } catch (e) {
      if (attempt === 3) throw e;
    }
  }
}

/** A request as the explorer, a notebook or the chat would make it; its error, if any. */
async function request(api: ExtensionApi): Promise<unknown> {
  try {
    await (await api.services.clients.platform()).listDeployments();
    return undefined;
  } catch (e) {
    return e;
  }
}

describe('Journey: a repository cannot redirect your token or switch safety off', function () {
  this.timeout(300_000);
  let api: ExtensionApi;
  let user: Recorder;
  let repo: Recorder;
  let settingsFile: string;
  let originalSettings: string | undefined;
  let previousActive: string | undefined;
  let previousTrust: unknown;

  before(async () => {
    api = await getApi();
    const { profiles, context } = api.services;
    previousActive = profiles.active()?.profile.name;
    previousTrust = context.globalState.get(TRUSTED_PROFILES_KEY);
    user = await recorder();
    repo = await recorder();
    const folder = vscode.workspace.workspaceFolders![0]!.uri.fsPath;
    settingsFile = path.join(folder, '.vscode', 'settings.json');
    originalSettings = fs.existsSync(settingsFile) ? fs.readFileSync(settingsFile, 'utf8') : undefined;
    // The user's own profile (user settings) and its token, stored for the user's service.
    await profiles.save({ name: NAME, platformUrl: user.url, agents: [] });
    await profiles.setSecret(NAME, 'platformToken', TOKEN, true);
  });

  after(async () => {
    const { profiles, context } = api.services;
    await pressKeys(['Escape']).catch(() => undefined);
    if (originalSettings === undefined) fs.rmSync(settingsFile, { force: true });
    else fs.writeFileSync(settingsFile, originalSettings);
    await waitFor(
      'the workspace settings restored',
      () =>
        vscode.workspace.getConfiguration('dashboardPlatform').inspect('profiles')?.workspaceValue ===
        undefined,
      30_000,
    ).catch(() => undefined);
    await profiles.switchTo(previousActive && profiles.get(previousActive) ? previousActive : 'Sandbox');
    for (const name of [NAME, MOVED]) if (profiles.get(name)) await profiles.remove(name);
    await context.globalState.update(TRUSTED_PROFILES_KEY, previousTrust);
    await vscode.commands.executeCommand('notifications.clearAll');
    await Promise.all([user.close(), repo.close()]);
  });

  it('a workspace profile named like yours never receives your token; you are asked; MCP writes, remote images and extra CAs stay off', async () => {
    const { profiles } = api.services;
    const base = originalSettings ? (JSON.parse(originalSettings) as Record<string, unknown>) : {};
    // What a cloned repository can carry.
    fs.mkdirSync(path.dirname(settingsFile), { recursive: true });
    fs.writeFileSync(
      settingsFile,
      JSON.stringify(
        {
          ...base,
          'dashboardPlatform.profiles': [{ name: NAME, platformUrl: repo.url }],
          'dashboardPlatform.activeProfile': NAME,
          'dashboardPlatform.mcp.enabled': true,
          'dashboardPlatform.mcp.allowWrites': true,
          'dashboardPlatform.chat.allowRemoteImages': true,
          'dashboardPlatform.extraCaCertificates': [path.join(path.dirname(settingsFile), 'evil-ca.pem')],
        },
        null,
        2,
      ),
    );
    await waitFor(
      "the repository's profile active",
      () => profiles.active()?.profile.platformUrl === repo.url || undefined,
      30_000,
    );
    assert.equal(profiles.scopeOf(NAME), 'workspace');
    await waitFor(
      'the status bar tooltip marking it',
      () =>
        /Defined in this workspace's settings[\s\S]*Not trusted yet/.test(api.statusBarTooltip()) ||
        undefined,
    );

    // The safety settings: the same file that made its profile active (so VS Code read it) turned
    // them on; VS Code ignores them there (application/machine scope) and so does the extension.
    const c = vscode.workspace.getConfiguration('dashboardPlatform');
    for (const key of ['mcp.allowWrites', 'chat.allowRemoteImages']) {
      assert.equal(c.inspect(key)?.workspaceValue, undefined, `${key}: not applied from the workspace`);
      assert.equal(c.get(key), false, key);
    }
    assert.deepEqual(c.get('extraCaCertificates'), []);
    assert.equal(mcpAllowWrites(), false, 'MCP writes stay off');
    assert.equal(allowRemoteImages(), false, 'remote images stay off');
    const warnings: string[] = [];
    const net = await readNetworkSettings((m) => warnings.push(m));
    assert.equal(net.extraCaCerts, undefined, 'no CA from the workspace');
    assert.deepEqual(warnings, [], 'the workspace’s CA path is not even read');
    const defs = await waitFor('the MCP server offered (the workspace turned it on)', () => {
      const d = api.agents.mcpProvider.provideMcpServerDefinitions();
      return d.length ? d : undefined;
    });
    assert.equal(defs[0]!.env.DASHBOARD_PLATFORM_MCP_ALLOW_WRITES, '0', 'offered read-only');

    // The first request asks, naming the repository's host and the user's own profile's host.
    const first = request(api);
    const text = await dialog(/comes from this workspace's settings/);
    assert.ok(text.includes(repo.host), text);
    assert.ok(text.includes(user.host), text);
    await screenshot('journeys/trust-workspace-profile', 300);
    await press('Cancel');
    const refused = await first;
    assert.match(String((refused as Error)?.message), /not trusted/);
    assert.equal(repo.auth.length, 0, 'nothing reached the repository’s server');

    // Trusted: the workspace profile is another profile, without any of the user's tokens.
    await profiles.switchTo(NAME);
    const second = request(api);
    await dialog(/comes from this workspace's settings/);
    await press('Trust This Workspace Profile');
    const none = await second;
    assert.match(String((none as Error)?.message), /has no platform API token/);
    await waitFor(
      'the tooltip saying it is trusted',
      () => /Trusted in this workspace/.test(api.statusBarTooltip()) || undefined,
    );
    assert.ok(!repo.auth.some((a) => a.includes(TOKEN)), `the user's token reached ${repo.host}`);
    assert.equal(user.auth.length, 0, 'and the user’s own service was not called either');
  });

  it('your own profile moved to another host does not send its token there until you decide', async () => {
    const { profiles } = api.services;
    // The repository's settings gone; a user profile whose token was stored for the user's service.
    if (originalSettings === undefined) fs.rmSync(settingsFile, { force: true });
    else fs.writeFileSync(settingsFile, originalSettings);
    await waitFor(
      'the workspace profile gone',
      () => (profiles.get(NAME) && profiles.scopeOf(NAME) === 'user') || undefined,
      30_000,
    );
    await profiles.save({ name: MOVED, platformUrl: user.url, agents: [] });
    await profiles.setSecret(MOVED, 'platformToken', TOKEN, true);
    await profiles.switchTo(MOVED);
    const before = repo.auth.length;
    // Its URL changed in the user's settings (by hand, or by Settings Sync from another machine).
    await profiles.save({ name: MOVED, platformUrl: repo.url, agents: [] }, MOVED);

    const first = request(api);
    const text = await dialog(/was stored for/);
    assert.ok(text.includes(`stored for ${user.host}`), text);
    assert.ok(text.includes(repo.host), text);
    await screenshot('journeys/trust-moved-host', 300);
    await press('Cancel');
    assert.match(String(((await first) as Error)?.message), /was not sent/);
    assert.equal(repo.auth.length, before, 'nothing sent to the new host');

    // Choosing the profile again asks again; a new token is entered, and only it is sent there.
    await profiles.switchTo(MOVED);
    const second = request(api);
    await dialog(/was stored for/);
    await press('Enter a New One');
    await waitFor(
      'the token input',
      async () => /for .+ at /.test((await pageText('.quick-input-widget')) ?? '') || undefined,
    );
    await typeText(NEW_TOKEN);
    await pressKeys(['Enter']);
    await second;
    const sent = repo.auth.slice(before);
    assert.ok(sent.length > 0, 'the request went out with the new token');
    assert.ok(
      sent.every((a) => a.includes(NEW_TOKEN)),
      sent.join(', '),
    );
    assert.ok(!repo.auth.some((a) => a.includes(TOKEN)), `the old token reached ${repo.host}`);
  });
});
