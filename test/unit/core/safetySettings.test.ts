// The settings that relax safety or route traffic are read from the user's own settings only, and
// the ones that let tools write are off in Restricted Mode: a repository's .vscode/settings.json
// (workspace or folder level) must switch none of them on. Network settings: the proxy, TLS checks,
// hosts without proxy and extra CA files, as the API clients receive them.
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import type * as NetworkModule from '../../../src/config/networkSettings';
import type * as SafetyModule from '../../../src/config/safetySettings';
import * as scope from '../../../src/config/settingScope';
import { useCoreStandIn } from './coreStandIn';

describe('core: settings that relax safety come from user settings only', () => {
  const stand = useCoreStandIn();
  let safety: typeof SafetyModule;
  let network: typeof NetworkModule;
  let dir: string;
  before(() => {
    safety = stand.load('../../../src/config/safetySettings');
    network = stand.load('../../../src/config/networkSettings');
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'dp-ca-test-'));
  });
  after(() => fs.rmSync(dir, { recursive: true, force: true }));

  it('mcp.allowWrites: on only when the user set it to true in a trusted workspace', () => {
    const K = 'dashboardPlatform.mcp.allowWrites';
    // [trusted, user, workspace, folder, expected]
    const cases: [boolean, unknown, unknown, unknown, boolean][] = [
      [true, true, undefined, undefined, true],
      [false, true, undefined, undefined, false],
      [true, undefined, true, undefined, false],
      [true, undefined, undefined, true, false],
      [true, false, true, true, false],
      [true, 'true', undefined, undefined, false],
      [true, undefined, undefined, undefined, false],
      [true, true, false, false, true],
    ];
    for (const [trusted, user, workspace, folder, want] of cases) {
      const s = stand.reset();
      s.trusted = trusted;
      s.user[K] = user;
      s.workspace[K] = workspace;
      s.folder[K] = folder;
      assert.equal(safety.mcpAllowWrites(), want, JSON.stringify({ trusted, user, workspace, folder }));
    }
  });

  it('chat.allowRemoteImages: the user value, never the workspace one; Restricted Mode does not matter', () => {
    const K = 'dashboardPlatform.chat.allowRemoteImages';
    const cases: [unknown, unknown, boolean][] = [
      [true, undefined, true],
      [undefined, true, false],
      [false, true, false],
      [1, undefined, false],
    ];
    for (const [user, workspace, want] of cases) {
      const s = stand.reset();
      s.trusted = false;
      s.user[K] = user;
      s.workspace[K] = workspace;
      assert.equal(safety.allowRemoteImages(), want, JSON.stringify({ user, workspace }));
    }
  });

  it('userSetting: the user value, else the default, else the fallback; the section and key are the ones asked', () => {
    const s = stand.reset();
    s.workspace['http.proxy'] = 'http://evil:8080';
    assert.equal(safety.userSetting('http', 'proxy', 'none'), 'none');
    s.defaults['http.proxy'] = '';
    assert.equal(safety.userSetting('http', 'proxy', 'none'), '');
    s.user['http.proxy'] = 'http://corp:3128';
    assert.equal(safety.userSetting('http', 'proxy', 'none'), 'http://corp:3128');
    assert.equal(safety.userSetting('http', 'noProxy', 'fallback'), 'fallback');
  });

  it('Restricted Mode: the error says what is off and how to trust the workspace; nothing thrown when trusted', () => {
    stand.reset().trusted = true;
    assert.doesNotThrow(() => safety.requireTrustedWorkspace('Agent writes'));
    stand.sink().trusted = false;
    assert.throws(
      () => safety.requireTrustedWorkspace('Agent writes'),
      (e: Error & { kind?: string; code?: string }) => {
        assert.equal(
          e.message,
          'Agent writes are off in Restricted Mode. Trust this workspace (command "Workspaces: Manage Workspace Trust") to use them.',
        );
        assert.equal(e.kind, 'validation');
        assert.equal(e.code, 'RESTRICTED_MODE');
        return true;
      },
    );
  });

  it('network: the proxy trimmed (blank is none), TLS checks on unless the user turns them off', async () => {
    const cases: [Record<string, unknown>, Record<string, unknown>, object][] = [
      [{}, {}, { proxy: undefined, proxyStrictSSL: true, noProxy: undefined, extraCaCerts: undefined }],
      [{ 'http.proxy': '  http://corp:3128 ' }, {}, { proxy: 'http://corp:3128', proxyStrictSSL: true }],
      [{ 'http.proxy': '   ' }, {}, { proxy: undefined }],
      [{ 'http.proxyStrictSSL': false }, {}, { proxyStrictSSL: false }],
      [{ 'http.proxyStrictSSL': 'no' }, {}, { proxyStrictSSL: true }],
      // A workspace can neither add a proxy nor turn the checks off.
      [
        {},
        { 'http.proxy': 'http://evil:1', 'http.proxyStrictSSL': false },
        { proxy: undefined, proxyStrictSSL: true },
      ],
      [
        { 'http.noProxy': [' a.example ', '', '   ', 7, 'b.example'] },
        {},
        { noProxy: ['a.example', 'b.example'] },
      ],
      [{ 'http.noProxy': 'a.example, b.example' }, {}, { noProxy: ['a.example', 'b.example'] }],
      [{ 'http.noProxy': [] }, {}, { noProxy: undefined }],
      [{ 'http.noProxy': 5 }, {}, { noProxy: undefined }],
      [{}, { 'http.noProxy': ['internal.example'] }, { noProxy: undefined }],
    ];
    for (const [user, workspace, want] of cases) {
      const s = stand.reset();
      s.user = user;
      s.workspace = workspace;
      const warned: string[] = [];
      const got = await network.readNetworkSettings((m) => warned.push(m));
      for (const [k, v] of Object.entries(want))
        assert.deepEqual(got[k as keyof typeof got], v, `${k} of ${JSON.stringify({ user, workspace })}`);
      assert.deepEqual(warned, []);
    }
  });

  it('network: CA files read as PEM text; a file without a certificate or unreadable is said and skipped', async () => {
    const pem = '-----BEGIN CERTIFICATE-----\nMIIB\n-----END CERTIFICATE-----\n';
    const good = path.join(dir, 'corp.pem');
    const notPem = path.join(dir, 'notes.txt');
    fs.writeFileSync(good, pem);
    fs.writeFileSync(notPem, 'just text');
    const missing = path.join(dir, 'missing.pem');
    const K = 'dashboardPlatform.extraCaCertificates';
    const s = stand.reset();
    s.user[K] = [` ${good} `, notPem, missing, '', '   ', 3];
    const warned: string[] = [];
    const got = await network.readNetworkSettings((m) => warned.push(m));
    assert.deepEqual(got.extraCaCerts, [pem]);
    assert.equal(warned.length, 2);
    assert.equal(
      warned[0],
      `dashboardPlatform.extraCaCertificates: ${notPem} holds no PEM certificate; ignored.`,
    );
    assert.match(
      warned[1]!,
      new RegExp(`^dashboardPlatform\\.extraCaCertificates: cannot read ${missing}: ENOENT`),
    );
    // One path as a string; a workspace's CA is not read at all.
    const one = stand.reset();
    one.user[K] = good;
    assert.deepEqual((await network.readNetworkSettings(() => undefined)).extraCaCerts, [pem]);
    const ws = stand.reset();
    ws.workspace[K] = [good];
    const w2: string[] = [];
    assert.equal((await network.readNetworkSettings((m) => w2.push(m))).extraCaCerts, undefined);
    assert.deepEqual(w2, []);
  });

  it('workspaceTried: a value at workspace or folder level, and nothing else, is a try', () => {
    assert.equal(scope.workspaceTried({ workspaceValue: false }), true);
    assert.equal(scope.workspaceTried({ workspaceFolderValue: 'x' }), true);
    assert.equal(scope.workspaceTried({ globalValue: true, defaultValue: false }), false);
    assert.equal(scope.workspaceTried(undefined), false);
  });

  it('network: a configuration change matters when it touches one of the four keys', () => {
    const event = (keys: string[]) => ({ affectsConfiguration: (k: string) => keys.includes(k) });
    assert.deepEqual(network.NETWORK_SETTING_KEYS, [
      'http.proxy',
      'http.proxyStrictSSL',
      'http.noProxy',
      'dashboardPlatform.extraCaCertificates',
    ]);
    for (const k of network.NETWORK_SETTING_KEYS)
      assert.equal(network.affectsNetwork(event([k]) as never), true, k);
    assert.equal(
      network.affectsNetwork(event(['editor.fontSize', 'dashboardPlatform.profiles']) as never),
      false,
    );
  });
});
