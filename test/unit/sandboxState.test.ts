// The sandbox keeps its data in a state file (issue 25: a window reload restarted the sandbox and
// the branch just created was gone, 404, with a notification made earlier). Each test changes the
// sandbox through its HTTP API as clients do, stops it, starts another on the same file, and looks.
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
/* eslint-disable @typescript-eslint/no-explicit-any -- JSON answers walked by path in assertions */
import { silentLogger } from '../../src/api/log';
import { loadSandbox } from '../../src/profiles/sandboxLoader';
import { SandboxManager } from '../../src/profiles/sandboxProfile';
import { startSandbox, type SandboxHandle } from '../../src/sandbox';
import { STATE_FORMAT } from '../../src/sandbox/stateFile';

const ROWS = 300;

interface Answer {
  status: number;
  body: any;
}

function client(sb: SandboxHandle) {
  const origin = `http://127.0.0.1:${sb.port}`;
  const call = async (method: string, url: string, body?: unknown, auth = `Bearer ${sb.tokens.admin}`) => {
    const res = await fetch(url, {
      method,
      headers: { authorization: auth, ...(body !== undefined ? { 'content-type': 'application/json' } : {}) },
      body: body !== undefined ? JSON.stringify(body) : undefined,
    });
    const text = await res.text();
    let parsed: unknown = text;
    try {
      parsed = text ? JSON.parse(text) : undefined;
    } catch {
      // NDJSON (the AI stream) stays text
    }
    return { status: res.status, body: parsed as any } satisfies Answer;
  };
  return {
    platform: (method: string, p: string, body?: unknown) => call(method, `${sb.urls.platform}${p}`, body),
    build: (method: string, p: string, body?: unknown) =>
      call(method, `${origin}/build/api/v1/deployments/1${p}`, body),
    ai: (body: unknown) =>
      call('POST', `${sb.urls.ai[0]!.url}/chat/stream-chat-state`, body, `Api-Key ${sb.tokens.aiApiKey}`),
    devMeta: (branch: string) =>
      call(
        'GET',
        `${sb.urls.deployments[0]!.deploymentUrl}/dev-mode/${branch}/cubejs-api/v1/meta`,
        undefined,
        sb.tokens.dataApi,
      ),
    state: async () => (await call('GET', `${sb.urls.control}/state`)).body,
  };
}

const ORDERS = 'model/cubes/orders.yml';
const tmpDirs: string[] = [];
function stateFile(): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'dp-sandbox-state-'));
  tmpDirs.push(dir);
  return path.join(dir, 'sandbox', 'state.json');
}

describe('the sandbox keeps its data in a state file', function () {
  this.timeout(120_000);
  const running: SandboxHandle[] = [];
  const start = async (file: string) => {
    const sb = await startSandbox({ rows: ROWS, aiEventDelayMs: 0, stateFile: file });
    running.push(sb);
    return sb;
  };
  const stop = async (sb: SandboxHandle) => {
    running.splice(running.indexOf(sb), 1);
    await sb.close();
  };
  afterEach(async () => {
    for (const sb of running.splice(0)) await sb.close();
  });
  after(() => {
    for (const d of tmpDirs) fs.rmSync(d, { recursive: true, force: true });
  });

  it('every family survives a stop and a start: model branch and edit, notifications, publishes, workspace, chats, administration', async () => {
    const file = stateFile();
    let sb = await start(file);
    assert.deepEqual(sb.persistence, { file, restored: false });
    let c = client(sb);

    // Data model: a branch in dev mode with an edited file (the flow of issue 25's 404).
    assert.equal((await c.build('POST', '/branches', { name: 'dev-kept', activate: true })).status, 200);
    const main = await c.build('GET', `/data-model/files?branchName=dev-kept&withContent=true`);
    const orders = JSON.stringify(main.body).includes('orders.yml');
    assert.ok(orders);
    const edited = `# edited before the restart\n${
      (await c.build('GET', `/data-model/files?branchName=main&withContent=true`)).body.items
        .find((n: any) => n.name === 'model')
        .children.find((n: any) => n.name === 'cubes')
        .children.find((n: any) => n.path === ORDERS).content
    }`;
    assert.equal(
      (
        await c.build('PUT', '/data-model/files', {
          branchName: 'dev-kept',
          files: [{ path: ORDERS, content: edited }],
        })
      ).status,
      200,
    );
    // Platform: a notification, a publish, a folder.
    const wb = (await c.platform('GET', '/v1/deployments/1/workbooks?first=1')).body.items[0];
    const note = await c.platform('POST', '/v1/deployments/1/notifications', {
      dashboardId: wb.id,
      scheduleType: 'DAILY',
      hour: 7,
    });
    assert.equal(note.status, 200, JSON.stringify(note.body));
    const pub = await c.platform('POST', `/v1/deployments/1/workbooks/${wb.id}/publish`, {
      workbookId: wb.id,
    });
    assert.equal(pub.status, 200, JSON.stringify(pub.body));
    const folder = await c.platform('POST', '/v1/deployments/1/folders', { name: 'Kept across restarts' });
    assert.equal(folder.status, 200, JSON.stringify(folder.body));
    // Administration: a SCIM group, a user attribute, a tenant setting, a deactivated user, env vars.
    const group = await c.platform('POST', '/scim/v2/Groups', { displayName: 'Restart crew' });
    assert.equal(group.status, 201, JSON.stringify(group.body));
    const attr = await c.platform('POST', '/v1/user-attributes', { name: 'kept_attr', type: 'string' });
    assert.equal(attr.status, 200, JSON.stringify(attr.body));
    assert.equal(
      (await c.platform('PUT', '/v1/tenant/settings', { maintenanceWindowDay: 'Friday' })).status,
      200,
    );
    assert.equal((await c.platform('PUT', '/v1/users/5', { isDeactivated: true })).status, 200);
    const envs = await c.platform('PUT', '/v1/deployments/1/env-vars', {
      env_variables: [
        { name: 'KEPT_PLAIN', value: 'plain-value' },
        { name: 'KEPT_API_TOKEN', value: 'sk-live-do-not-save' },
      ],
    });
    assert.equal(envs.status, 200, JSON.stringify(envs.body));
    // A chat thread.
    const chatId = 'kept-chat';
    const turn = await c.ai({
      chatId,
      input: 'Top product categories?',
      sessionSettings: { externalId: 'ada' },
    });
    assert.equal(turn.status, 200);
    const turnsBefore = (await c.state()).aiTurns.length;

    await stop(sb);
    const saved = fs.readFileSync(file, 'utf8');
    assert.equal(JSON.parse(saved).format, STATE_FORMAT);
    assert.doesNotMatch(saved, /sk-live-do-not-save/, 'a secret env variable value never reaches the file');

    sb = await start(file);
    assert.equal(sb.persistence?.restored, true);
    c = client(sb);
    const branches = (await c.build('GET', '/branches')).body.items.map((b: any) => b.name);
    assert.ok(branches.includes('dev-kept'), `branches after the restart: ${branches.join(', ')}`);
    const after = await c.build('GET', `/data-model/files?branchName=dev-kept&withContent=true`);
    assert.match(JSON.stringify(after.body), /edited before the restart/);
    assert.equal(
      (await c.devMeta('dev-kept')).status,
      200,
      'dev mode on the branch is kept, so it is served',
    );
    const notes = (await c.platform('GET', '/v1/deployments/1/notifications?first=200')).body.items;
    assert.ok(
      notes.some((n: any) => n.id === note.body.id),
      'the notification is kept',
    );
    const wbAfter = (await c.platform('GET', `/v1/deployments/1/workbooks/${wb.id}`)).body;
    assert.equal(
      wbAfter.publishedDashboard?.versionNumber ?? wbAfter.data?.publishedDashboard?.versionNumber,
      pub.body.versionNumber ?? pub.body.data?.versionNumber,
      'the published version is kept',
    );
    const st = await c.state();
    assert.ok(st.publishes.some((p: any) => p.workbookId === wb.id));
    assert.ok(
      st.admin.groups.some((g: any) => g.displayName === 'Restart crew'),
      'the SCIM group is kept',
    );
    assert.ok(st.admin.attributes.definitions.some((a: any) => a.name === 'kept_attr'));
    assert.equal(st.admin.tenantSettings.maintenanceWindowDay, 'Friday');
    assert.ok(st.admin.deactivated.includes(5));
    const folders = (await c.platform('GET', '/v1/deployments/1/workspace?first=200')).body.items;
    assert.ok(
      folders.some((f: any) => f.name === 'Kept across restarts'),
      'the folder is kept',
    );
    const vars = (await c.platform('GET', '/v1/deployments/1/env-vars')).body;
    assert.match(JSON.stringify(vars), /plain-value/);
    assert.match(JSON.stringify(vars), /"KEPT_API_TOKEN","value":"\[ENCRYPTED\]"/);
    const thread = await c.ai({ chatId, sessionSettings: { externalId: 'ada' } });
    assert.equal(thread.status, 200, 'the chat thread is kept');
    assert.match(String(thread.body), /Top product categories\?/);
    assert.equal(st.aiTurns.length, turnsBefore);

    // Ids handed out before the restart are not handed out again.
    const group2 = await c.platform('POST', '/scim/v2/Groups', { displayName: 'Second crew' });
    assert.notEqual(group2.body.id, group.body.id);
    const attr2 = await c.platform('POST', '/v1/user-attributes', { name: 'kept_attr_2', type: 'string' });
    assert.notEqual(attr2.body.id, attr.body.id);
    const folder2 = await c.platform('POST', '/v1/deployments/1/folders', { name: 'After the restart' });
    assert.ok(folder2.body.id > folder.body.id, `${folder2.body.id} after ${folder.body.id}`);
  });

  it('in the worker the extension runs: a branch made just before a stop is there after the start', async () => {
    const file = stateFile();
    const manager = new SandboxManager(
      () => loadSandbox({ stateFile: file }),
      () => ({ rows: ROWS }),
      silentLogger,
    );
    try {
      const first = await manager.start();
      assert.deepEqual(first.persistence, { file, restored: false });
      const made = await fetch(`http://127.0.0.1:${first.port}/build/api/v1/deployments/1/branches`, {
        method: 'POST',
        headers: { authorization: `Bearer ${first.tokens.admin}`, 'content-type': 'application/json' },
        body: JSON.stringify({ name: 'dev-before-reload', activate: true }),
      });
      assert.equal(made.status, 200);
      // Stopped at once, as a window reload does: the close saves what the debounce had not yet.
      await manager.stop();
      const second = await manager.start();
      assert.equal(second.persistence?.restored, true);
      const res = await fetch(`http://127.0.0.1:${second.port}/build/api/v1/deployments/1/branches`, {
        headers: { authorization: `Bearer ${second.tokens.admin}` },
      });
      const names = ((await res.json()) as any).items.map((b: any) => b.name);
      assert.ok(names.includes('dev-before-reload'), names.join(', '));
    } finally {
      await manager.stop();
    }
  });

  it('keeps an unreadable file aside, says why, and starts from the sample data', async () => {
    for (const [content, reason] of [
      ['{"format": "dashboard-platform-sandbox-state", "version": 1, "roo', /not JSON/],
      [
        JSON.stringify({ format: STATE_FORMAT, version: 99, savedAt: 'x', shape: [], roots: {} }),
        /newer version/,
      ],
      [
        JSON.stringify({
          format: STATE_FORMAT,
          version: 1,
          savedAt: 'x',
          shape: [],
          roots: {
            repos: { $: 'Map', v: [[1, { $: 'Data', class: 'DeploymentRepo', v: { branches: [] } }]] },
          },
        }),
        /does not fit.*repos\.1\.branches is saved as a list where the sandbox keeps a Map/,
      ],
    ] as const) {
      const file = stateFile();
      fs.mkdirSync(path.dirname(file), { recursive: true });
      fs.writeFileSync(file, content);
      const sb = await start(file);
      const kept = sb.persistence?.keptAside;
      assert.ok(kept, 'reported');
      assert.match(kept.reason, reason);
      assert.equal(fs.readFileSync(kept.file, 'utf8'), content, 'kept byte for byte');
      assert.notEqual(kept.file, file);
      // Beside the file, named for it and the time (no ':' or '.' but the extension's), same extension.
      assert.equal(path.dirname(kept.file), path.dirname(file));
      assert.match(
        path.basename(kept.file),
        /^state\.unreadable-\d{4}-\d\d-\d\dT\d\d-\d\d-\d\d-\d{3}Z\.json$/,
      );
      assert.ok(!fs.existsSync(file), 'not replaced in place');
      const c = client(sb);
      const branches = (await c.build('GET', '/branches')).body.items.map((b: any) => b.name);
      assert.deepEqual(branches, ['main', 'staging'], 'the sample data, not a half-restored state');
      // Changes are saved to a new file; the kept copy stays as it was.
      await c.build('POST', '/branches', { name: 'after-reset' });
      sb.saveState();
      assert.match(fs.readFileSync(file, 'utf8'), /after-reset/);
      assert.equal(fs.readFileSync(kept.file, 'utf8'), content);
      await stop(sb);
    }
  });

  it('starts from the sample data once the file is removed (reset), also in a sandbox that is running', async () => {
    const file = stateFile();
    const a = await start(file);
    const ca = client(a);
    await ca.build('POST', '/branches', { name: 'to-be-reset' });
    a.saveState();
    // Another window's sandbox on the same file, then Reset Sandbox Data there removes the file.
    const b = await start(file);
    assert.ok(
      (await client(b).build('GET', '/branches')).body.items.some((x: any) => x.name === 'to-be-reset'),
    );
    await stop(b);
    fs.rmSync(file);
    const names = (await ca.build('GET', '/branches')).body.items.map((x: any) => x.name);
    assert.deepEqual(names, ['main', 'staging'], 'the running sandbox went back to its sample data');
    a.saveState();
    assert.doesNotMatch(fs.readFileSync(file, 'utf8'), /to-be-reset/, 'the removed data is not written back');
    await stop(a);
    const fresh = await start(file);
    const names2 = (await client(fresh).build('GET', '/branches')).body.items.map((x: any) => x.name);
    assert.deepEqual(names2, ['main', 'staging']);
  });

  it('two windows on one file see each other’s changes, and both sides’ changes are kept', async () => {
    const file = stateFile();
    const a = await start(file);
    const b = await start(file);
    const [ca, cb] = [client(a), client(b)];
    await ca.build('POST', '/branches', { name: 'from-window-a' });
    a.saveState();
    // B's next request takes in what A saved.
    const seen = (await cb.build('GET', '/branches')).body.items.map((x: any) => x.name);
    assert.ok(seen.includes('from-window-a'), seen.join(', '));
    // Both change something before either saves: both changes end up everywhere.
    await cb.platform('POST', '/v1/deployments/1/folders', { name: 'From window B' });
    await ca.build('POST', '/branches', { name: 'from-window-a-2' });
    a.saveState();
    b.saveState();
    await stop(a);
    await stop(b);
    const c = client(await start(file));
    const branches = (await c.build('GET', '/branches')).body.items.map((x: any) => x.name);
    assert.ok(branches.includes('from-window-a-2'), branches.join(', '));
    const items = (await c.platform('GET', '/v1/deployments/1/workspace?first=200')).body.items;
    assert.ok(items.some((f: any) => f.name === 'From window B'));
  });

  it('CLI: --state keeps the data between runs, --reset starts afresh', async () => {
    const file = stateFile();
    const cli = path.join(__dirname, '..', '..', 'src', 'sandbox', 'cli.js');
    const run = async (args: string[], act?: (info: any) => Promise<void>) => {
      const child = spawn(process.execPath, [cli, '--port', '0', '--rows', String(ROWS), ...args], {
        stdio: ['ignore', 'pipe', 'pipe'],
      });
      let out = '';
      let err = '';
      child.stderr.on('data', (d: Buffer) => (err += d.toString()));
      const info = await new Promise<any>((resolve, reject) => {
        child.stdout.on('data', (d: Buffer) => {
          out += d.toString();
          if (out.includes('\n')) resolve(JSON.parse(out.split('\n')[0]!));
        });
        child.once('exit', (code) => reject(new Error(`exited ${code}: ${err}`)));
      });
      const exited = new Promise((r) => child.once('exit', r));
      try {
        await act?.(info);
      } finally {
        child.kill('SIGTERM');
        await exited;
      }
      return { info, err };
    };
    const branches = async (info: any) => {
      const res = await fetch(`http://127.0.0.1:${info.port}/build/api/v1/deployments/1/branches`, {
        headers: { authorization: `Bearer ${info.tokens.admin}` },
      });
      return ((await res.json()) as any).items.map((b: any) => b.name) as string[];
    };
    await run(['--state', file], async (info) => {
      const res = await fetch(`http://127.0.0.1:${info.port}/build/api/v1/deployments/1/branches`, {
        method: 'POST',
        headers: { authorization: `Bearer ${info.tokens.admin}`, 'content-type': 'application/json' },
        body: JSON.stringify({ name: 'cli-kept' }),
      });
      assert.equal(res.status, 200);
    });
    const second = await run(['--state', file], async (info) => {
      assert.equal(info.persistence.restored, true);
      assert.ok((await branches(info)).includes('cli-kept'));
    });
    assert.match(second.err, /restored from/);
    await run(['--state', file, '--reset'], async (info) => {
      assert.equal(info.persistence.restored, false);
      assert.deepEqual(await branches(info), ['main', 'staging']);
    });
  });
});
