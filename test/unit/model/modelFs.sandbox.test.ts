// The `dpmodel:` file system (src/model/modelFs.ts) in plain Node with a stand-in for `vscode`,
// against the sandbox's build API over HTTP: the read-only default branch refuses every write
// before anything is sent; a confirmed save tells VS Code the file changed (created or changed)
// and runs validate; a refused, unknown or non-UTF-8 save is an error VS Code shows (the editor
// stays dirty), logged with the file, and nothing is announced; a change made on the server is
// offered as a diff or overwritten only on the user's say; a branch gone from the server is
// named in the error and reported lost.
import assert from 'node:assert/strict';
import { BuildClient, PlatformClient } from '../../../src/api';
import type * as ModelFsModule from '../../../src/model/modelFs';
import type * as MountsModule from '../../../src/model/mounts';
import { startSandbox, type SandboxHandle } from '../../../src/sandbox';
import { installModelStandIn, ScriptedUi, useUi } from './modelStandIn';

const fast = { retries: 0, baseDelayMs: 5, maxDelayMs: 20 };
const FILE = 'model/cubes/orders.yml';
const enc = new TextEncoder();
const dec = new TextDecoder();
const PUT = 'platform PUT /build/api/v1/deployments/1/data-model/files';

interface FsErr {
  code?: string;
  message: string;
}

describe('model: the dpmodel file system saves only what the server confirms (sandbox over HTTP)', function () {
  this.timeout(60_000);
  let restore: () => void;
  let sb: SandboxHandle;
  let build: BuildClient;
  let platform: PlatformClient;
  let Mounts: typeof MountsModule.Mounts;
  let ModelFileSystem: typeof ModelFsModule.ModelFileSystem;
  let n = 0;

  before(async () => {
    restore = installModelStandIn();
    /* eslint-disable @typescript-eslint/no-require-imports */
    ({ Mounts } = require('../../../src/model/mounts') as typeof MountsModule);
    ({ ModelFileSystem } = require('../../../src/model/modelFs') as typeof ModelFsModule);
    /* eslint-enable @typescript-eslint/no-require-imports */
    sb = await startSandbox({ rows: 300 });
    build = new BuildClient({
      platformUrl: sb.urls.platform,
      token: async () => sb.tokens.admin,
      retry: fast,
    });
    platform = new PlatformClient({
      baseUrl: sb.urls.platform,
      token: async () => sb.tokens.admin,
      retry: fast,
    });
  });

  after(async () => {
    await build?.close();
    await platform?.close();
    await sb?.close();
    restore();
  });

  /** A file system over a fresh branch (or the default one), with what it announced and logged. */
  async function setup(opts: { branch?: 'main' | 'fresh'; ui?: ScriptedUi } = {}) {
    sb.faults.clear();
    const ui = useUi(opts.ui ?? new ScriptedUi());
    let branch = 'main';
    if (opts.branch !== 'main') {
      branch = `fs-rules-${++n}`;
      await build.createBranch(1, { name: branch, from: 'main' });
    }
    const services = { clients: { build: async () => build, platform: async () => platform } };
    const mounts = new Mounts(services as never);
    const lost: string[] = [];
    mounts.lost = (m) => lost.push(m.branch);
    const written: string[] = [];
    const warned: string[] = [];
    const fs = new ModelFileSystem(mounts, (m, p) => written.push(`${m.branch}:${p}`), {
      warn: (m) => warned.push(m),
    });
    const events: string[] = [];
    fs.onDidChangeFile((es) => {
      for (const e of es) events.push(`${['', 'changed', 'created', 'deleted'][e.type]} ${e.uri.path}`);
    });
    const mount = await mounts.resolve(1, branch);
    const uri = (p = FILE) => mount.uri(p);
    const writes = () => sb.state.requestCounts[PUT] ?? 0;
    const serverText = async (p = FILE) =>
      (await build.listFiles(1, { branchName: branch, withContent: true })).find((f) => f.path === p)
        ?.content;
    return { ui, fs, mounts, mount, uri, branch, lost, written, warned, events, writes, serverText };
  }

  const fsError = (code: string, message?: RegExp) => (e: unknown) => {
    const err = e as FsErr;
    assert.equal(err.code, code, err.message);
    if (message) assert.match(err.message, message);
    return true;
  };
  const save = { create: true, overwrite: true };

  it('the default branch is read-only: save, create, delete, rename and new folders are refused, nothing sent', async () => {
    const s = await setup({ branch: 'main' });
    const readonly = fsError(
      'NoPermissions',
      /^"main" is the default branch of Analytics, read-only here\. Pick or create a branch to edit, or run "Unlock Default Branch for Editing"\. \(\/main\/model\/cubes\/orders\.yml\)$/,
    );
    const before = s.writes();
    await assert.rejects(s.fs.writeFile(s.uri(), enc.encode('cubes: []\n'), save), readonly);
    await assert.rejects(s.fs.delete(s.uri()), readonly);
    await assert.rejects(s.fs.rename(s.uri(), s.uri('model/cubes/o2.yml'), { overwrite: false }), readonly);
    await assert.rejects(s.fs.createDirectory(s.uri('model/new')), fsError('NoPermissions'));
    assert.equal(s.writes(), before);
    assert.equal(
      sb.state.requestCounts['platform DELETE /build/api/v1/deployments/1/data-model/files'] ?? 0,
      0,
    );
    assert.deepEqual([s.events, s.written], [[], []]);
    assert.equal(s.mount.isDir('model/new'), false);
    // stat says so too, so the editor opens the file read-only.
    assert.equal((await s.fs.stat(s.uri())).permissions, 1);
    assert.equal((await s.fs.stat(s.uri('model'))).permissions, 1);
  });

  it('once unlocked, the default branch saves', async () => {
    const s = await setup({ branch: 'main' });
    s.mount.unlocked = true;
    const text = `${dec.decode(await s.fs.readFile(s.uri()))}# unlocked edit\n`;
    await s.fs.writeFile(s.uri(), enc.encode(text), save);
    assert.equal(await s.serverText(), text);
    assert.equal((await s.fs.stat(s.uri())).permissions, undefined);
  });

  it('a confirmed save sends one write, announces the change and runs validate; a new file is "created"', async () => {
    const s = await setup();
    const before = s.writes();
    const text = `${dec.decode(await s.fs.readFile(s.uri()))}# edited\n`;
    await s.fs.writeFile(s.uri(), enc.encode(text), save);
    await s.fs.writeFile(s.uri('model/cubes/new.yml'), enc.encode('cubes: []\n'), save);
    assert.equal(s.writes() - before, 2);
    assert.equal(await s.serverText(), text);
    assert.equal(await s.serverText('model/cubes/new.yml'), 'cubes: []\n');
    assert.deepEqual(s.events, [`changed /${s.branch}/${FILE}`, `created /${s.branch}/model/cubes/new.yml`]);
    assert.deepEqual(s.written, [`${s.branch}:${FILE}`, `${s.branch}:model/cubes/new.yml`]);
    assert.deepEqual(s.warned, []);
    const st = await s.fs.stat(s.uri());
    assert.deepEqual([st.type, st.size, st.permissions], [1, enc.encode(text).byteLength, undefined]);
  });

  const failures: { what: string; fault?: object; bytes?: Uint8Array; message: RegExp; sent: number }[] = [
    {
      what: 'refused (200 success: false)',
      fault: { route: '/data-model/files', method: 'PUT', status: 200, body: { success: false } },
      message: /success: false/,
      sent: 1,
    },
    {
      what: 'answered without success (unknown outcome)',
      fault: { route: '/data-model/files', method: 'PUT', status: 200, body: {} },
      message: /./,
      sent: 1,
    },
    {
      what: 'not UTF-8 (Latin-1 bytes)',
      bytes: Uint8Array.from([0x63, 0x75, 0x62, 0x65, 0xe9, 0x0a]),
      message: /byte 0xE9 at offset 4 is not UTF-8/,
      sent: 0,
    },
  ];
  for (const f of failures) {
    it(`a save ${f.what} is an error VS Code shows, logged with the file; nothing announced`, async () => {
      const s = await setup();
      const held = await s.serverText();
      const before = s.writes();
      if (f.fault) sb.faults.add({ family: 'platform', times: 1, ...f.fault } as never);
      await assert.rejects(
        s.fs.writeFile(s.uri(), f.bytes ?? enc.encode('cubes: []\n'), save),
        fsError('Unavailable', f.message),
      );
      assert.equal(s.writes() - before, f.sent);
      assert.deepEqual([s.events, s.written], [[], []]);
      assert.equal(s.warned.length, 1);
      assert.ok(s.warned[0]!.startsWith(`Saving /${s.branch}/${FILE} failed: `), s.warned[0]);
      if (!f.fault) assert.equal(await s.serverText(), held);
    });
  }

  it('a change made on the server: "Compare" opens a diff with the server text and does not save', async () => {
    const s = await setup({ ui: new ScriptedUi([], [], ['Compare']) });
    await s.fs.readFile(s.uri());
    await build.updateFiles(1, { branchName: s.branch, files: [{ path: FILE, content: 'theirs: 1\n' }] });
    const before = s.writes();
    await assert.rejects(s.fs.writeFile(s.uri(), enc.encode('mine: 1\n'), save), fsError('Unavailable'));
    assert.equal(s.writes(), before);
    assert.equal(await s.serverText(), 'theirs: 1\n');
    assert.deepEqual(s.ui.shown, [
      `warn: ${FILE} was changed on the server (branch "${s.branch}") since you opened it. [Compare, Overwrite] (modal)`,
    ]);
    assert.equal(s.ui.commands.length, 1);
    const [command, left, right, title] = s.ui.commands[0] as [
      string,
      { scheme: string; query: string },
      unknown,
      string,
    ];
    assert.equal(command, 'vscode.diff');
    assert.equal(left.scheme, 'dpmodel-server');
    assert.match(left.query, new RegExp(`^d=1&b=${s.branch}&h=[0-9a-f]+$`));
    assert.equal(String(right), String(s.uri()));
    assert.equal(title, `${FILE}: server ↔ yours (${s.branch})`);
    assert.equal(s.fs.provideTextDocumentContent(left as never), 'theirs: 1\n');
    assert.equal(s.fs.provideTextDocumentContent({ toString: () => 'dpmodel-server:/other' } as never), '');
  });

  it('a change made on the server: "Overwrite" saves over it; dismissing keeps the server text', async () => {
    const s = await setup({ ui: new ScriptedUi([], [], [undefined, 'Overwrite']) });
    await s.fs.readFile(s.uri());
    await build.updateFiles(1, { branchName: s.branch, files: [{ path: FILE, content: 'theirs: 2\n' }] });
    await assert.rejects(s.fs.writeFile(s.uri(), enc.encode('mine: 2\n'), save), fsError('Unavailable'));
    assert.equal(await s.serverText(), 'theirs: 2\n');
    assert.deepEqual(s.ui.commands, []);
    await s.fs.writeFile(s.uri(), enc.encode('mine: 2\n'), save);
    assert.equal(await s.serverText(), 'mine: 2\n');
    assert.deepEqual(s.events, [`changed /${s.branch}/${FILE}`]);
  });

  it('reads: a missing file is not found, a file is not a folder, a folder lists its children', async () => {
    const s = await setup();
    await assert.rejects(s.fs.readFile(s.uri('model/none.yml')), fsError('FileNotFound'));
    await assert.rejects(s.fs.stat(s.uri('model/none.yml')), fsError('FileNotFound'));
    await assert.rejects(s.fs.readDirectory(s.uri()), fsError('FileNotADirectory'));
    const listed = await s.fs.readDirectory(s.uri('model/cubes'));
    assert.ok(
      listed.some(([name, type]) => name === 'orders.yml' && type === 1),
      JSON.stringify(listed),
    );
    assert.deepEqual((await s.fs.stat(s.uri('model'))).type, 2);
    await assert.rejects(
      s.fs.readFile({ scheme: 'dpmodel', authority: 'x', path: '/main/a.yml' } as never),
      fsError('FileNotFound'),
    );
  });

  it('a new folder exists once made; a delete and a rename are announced and run validate', async () => {
    const s = await setup();
    await s.fs.createDirectory(s.uri('model/views'));
    assert.equal(s.mount.isDir('model/views'), true);
    await s.fs.rename(s.uri(), s.uri('model/cubes/orders2.yml'), { overwrite: false });
    assert.equal(await s.serverText(), undefined);
    assert.ok((await s.serverText('model/cubes/orders2.yml'))?.length);
    await s.fs.delete(s.uri('model/cubes/orders2.yml'));
    assert.equal(await s.serverText('model/cubes/orders2.yml'), undefined);
    assert.deepEqual(s.events, [
      `created /${s.branch}/model/views`,
      `deleted /${s.branch}/${FILE}`,
      `created /${s.branch}/model/cubes/orders2.yml`,
      `deleted /${s.branch}/model/cubes/orders2.yml`,
    ]);
    assert.deepEqual(s.written, [
      `${s.branch}:model/cubes/orders2.yml`,
      `${s.branch}:model/cubes/orders2.yml`,
    ]);
  });

  it('a refused delete or rename is an error naming the file, logged; a rename onto a file is refused; files move only within a branch', async () => {
    const s = await setup();
    await s.fs.readFile(s.uri());
    const refuse = (method: string, route: string) =>
      sb.faults.add({
        family: 'platform',
        times: 1,
        route,
        method,
        status: 200,
        body: { success: false },
      } as never);
    refuse('DELETE', '/data-model/files');
    await assert.rejects(s.fs.delete(s.uri()), fsError('Unavailable', /was not deleted/));
    assert.ok(s.warned[0]!.startsWith(`Deleting /${s.branch}/${FILE} failed: `), s.warned[0]);
    refuse('POST', '/data-model/files/rename');
    await assert.rejects(
      s.fs.rename(s.uri(), s.uri('model/x.yml'), { overwrite: false }),
      fsError('Unavailable', /was not renamed/),
    );
    assert.ok(s.warned[1]!.startsWith(`Renaming /${s.branch}/${FILE} failed: `), s.warned[1]);
    await assert.rejects(s.fs.rename(s.uri(), s.uri(FILE), { overwrite: false }), fsError('FileExists'));
    const other = await s.mounts.resolve(1, 'main');
    await assert.rejects(
      s.fs.rename(s.uri(), other.uri('model/cubes/x.yml'), { overwrite: false }),
      fsError('NoPermissions', /^Files move only within one branch\.$/),
    );
    assert.deepEqual([s.events, s.written], [[], []]);
    assert.ok(await s.serverText());
  });

  it('a branch gone from the server: reads fail naming it, and the feature is told it is lost', async () => {
    const s = await setup();
    await build.removeBranch(1, { branchName: s.branch });
    // A mount created for a branch the server does not list is lost at once.
    const gone = await s.mounts.resolve(1, 'never-there');
    assert.equal(gone.missing, true);
    await assert.rejects(
      s.fs.readFile(gone.uri(FILE)),
      fsError(
        'FileNotFound',
        /^The branch "never-there" of Analytics is not on the server any more: switch the folder to another branch or create it again\.$/,
      ),
    );
    // Known lost: told once, and the read does not ask the server again.
    assert.deepEqual(s.lost, ['never-there']);
    // A mount whose branch vanished after it loaded: the next read finds out.
    const fresh = new (s.mount.constructor as typeof MountsModule.Mount)(1, 'Analytics', s.branch, 'main');
    const m2 = new Mounts({ clients: { build: async () => build, platform: async () => platform } } as never);
    const lost2: string[] = [];
    m2.lost = (m) => lost2.push(m.branch);
    m2.add(fresh);
    const fs2 = new ModelFileSystem(m2, () => undefined, { warn: () => undefined });
    await assert.rejects(fs2.stat(fresh.uri(FILE)), fsError('FileNotFound', /is not on the server any more/));
    assert.deepEqual(lost2, [s.branch]);
    assert.equal(fresh.missing, true);
  });

  it('announce tells VS Code the root and every file of a branch may have changed', async () => {
    const s = await setup();
    await s.fs.readFile(s.uri());
    s.fs.announce(s.mount);
    assert.equal(s.events[0], `changed /${s.branch}`);
    assert.equal(s.events.length, s.mount.files.size + 1);
    assert.ok(s.events.includes(`changed /${s.branch}/${FILE}`));
  });
});
