// The save rules of the model folder (src/model/branchFiles.ts) against the sandbox's build API
// over HTTP: only a confirmed write is saved; the base of the next
// save is the hash of the bytes sent, so another user's write that lands right after ours is a
// conflict; a failed read after a write costs nothing; text is strict UTF-8 (a BOM kept); a file
// listed without content is never shown empty nor saved over. Faults come from the sandbox's
// fault rules (a 200 `{success: false}`, a concurrent write, a listing without content).
// Through the validating proxy when ../shared/reference is there.
import * as assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { BuildClient } from '../../../src/api';
import { BranchFiles, ModelFileError, type Conflict, type FilesClient } from '../../../src/model/branchFiles';
import { startSandbox, type FaultRule, type SandboxHandle } from '../../../src/sandbox';
import { startValidatingProxy, type RecordingServer } from '../../contract/contractServers';
import { loadReference } from '../../contract/openapiDocs';

const fast = { retries: 0, baseDelayMs: 5, maxDelayMs: 20 };
const FILE = 'model/cubes/orders.yml';
const enc = new TextEncoder();
const sha1 = (b: Uint8Array) => createHash('sha1').update(b).digest('hex');

/** A save's conflict callback that records each conflict and answers `answer`. */
function asked(answer = false): { conflicts: Conflict[]; fn: (c: Conflict) => Promise<boolean> } {
  const conflicts: Conflict[] = [];
  return { conflicts, fn: async (c) => (conflicts.push(c), answer) };
}

const rejectsWith = (kind: string) => (e: unknown) => {
  assert.ok(e instanceof ModelFileError, `a ModelFileError, got ${String(e)}`);
  assert.equal(e.kind, kind, e.message);
  return true;
};

describe('model folder: saves trust only what the server confirms (sandbox over HTTP)', function () {
  this.timeout(60_000);
  let sb: SandboxHandle;
  let proxy: RecordingServer | undefined;
  let build: BuildClient;
  let n = 0;
  /** A fresh branch per test, so each starts from the seed model. */
  let branch: string;

  const fault = (rule: FaultRule) => sb.faults.add({ family: 'platform', times: 1, ...rule });
  const serverText = async (path = FILE) =>
    (await build.listFiles(1, { branchName: branch, withContent: true })).find((f) => f.path === path)
      ?.content;
  const writes = () =>
    sb.state.requestCounts['platform PUT /build/api/v1/deployments/1/data-model/files'] ?? 0;
  /** Another user's save, straight through the API. */
  const theirWrite = (content: string, path = FILE) =>
    build.updateFiles(1, { branchName: branch, files: [{ path, content }] });
  const open = async (client: FilesClient = build) => {
    const files = new BranchFiles(1, branch);
    await files.load(async () => client);
    return files;
  };
  const save = (
    files: BranchFiles,
    text: string | Uint8Array,
    conflict = asked(),
    client: FilesClient = build,
  ) =>
    files.save(
      client,
      FILE,
      typeof text === 'string' ? enc.encode(text) : text,
      { create: true, overwrite: true },
      conflict.fn,
    );

  before(async () => {
    sb = await startSandbox({ rows: 300 });
    // Through the validating proxy when the published documents are at hand; the rules are
    // tested either way.
    const ref = loadReference();
    const origin = new URL(sb.urls.platform).origin;
    proxy = ref ? await startValidatingProxy(ref, origin) : undefined;
    build = new BuildClient({
      platformUrl: `${proxy?.url ?? origin}${new URL(sb.urls.platform).pathname}`,
      token: async () => sb.tokens.admin,
      retry: fast,
    });
  });

  beforeEach(async () => {
    sb.faults.clear();
    branch = `save-rules-${++n}`;
    await build.createBranch(1, { name: branch, from: 'main' });
  });

  afterEach(() => {
    // What we send validates against the published documents (the faults' answers need not).
    assert.deepEqual(
      (proxy?.violations ?? []).filter((v) => v.kind !== 'response'),
      [],
    );
  });

  after(async () => {
    await build?.close();
    await proxy?.close();
    await sb?.close();
  });

  it('a write answered 200 {"success": false} is refused: nothing counts as saved, the next save works', async () => {
    const files = await open();
    const before = files.files.get(FILE)!;
    fault({ route: '/data-model/files', method: 'PUT', status: 200, body: { success: false } });
    await assert.rejects(save(files, 'cubes: []\n'), (e) => {
      rejectsWith('refused')(e);
      assert.match((e as Error).message, /success: false/);
      return true;
    });
    assert.equal(files.files.get(FILE), before, 'the held version and its base are unchanged');
    assert.notEqual(await serverText(), 'cubes: []\n');
    // Saving again (the user's choice) goes through, with no conflict raised.
    const conflict = asked();
    assert.equal(await save(files, 'cubes: []\n', conflict), 'changed');
    assert.equal(await serverText(), 'cubes: []\n');
    assert.deepEqual(conflict.conflicts, []);
  });

  it('a write answer without "success" is an unknown outcome; saving again sees our own bytes, no conflict', async () => {
    const files = await open();
    fault({ route: '/data-model/files', method: 'PUT', body: {}, status: 200 });
    await assert.rejects(save(files, 'cubes: []\n'), rejectsWith('unknown'));
    // The fault answered before the write: the server still has the old text; a real server may
    // have applied it, so simulate that too and save again: our own bytes are no conflict.
    await theirWrite('cubes: []\n');
    const conflict = asked();
    assert.equal(await save(files, 'cubes: []\n', conflict), 'changed');
    assert.deepEqual(conflict.conflicts, []);
  });

  it('deletes and renames answered {"success": false} are refused and change nothing', async () => {
    const files = await open();
    fault({ route: '/data-model/files', method: 'DELETE', status: 200, body: { success: false } });
    await assert.rejects(files.remove(build, FILE), rejectsWith('refused'));
    assert.ok(files.files.has(FILE));
    fault({ route: '/files/rename', method: 'POST', status: 200, body: { success: false } });
    await assert.rejects(files.rename(build, FILE, 'model/cubes/renamed.yml', false), rejectsWith('refused'));
    assert.ok(files.files.has(FILE) && !files.files.has('model/cubes/renamed.yml'));
    assert.ok(await serverText(), 'the file is still on the server under its name');
  });

  it("another user's write landing right after ours is a conflict at our next save", async () => {
    const files = await open();
    const mine = 'cubes: [] # mine\n';
    fault({
      route: '/data-model/files',
      method: 'PUT',
      concurrentWrite: [{ path: FILE, content: 'cubes: [] # theirs\n' }],
    });
    await save(files, mine);
    assert.equal(await serverText(), 'cubes: [] # theirs\n', 'their write landed after ours');
    assert.equal(files.files.get(FILE)!.hash, sha1(enc.encode(mine)), 'the base is the hash of what we sent');
    const conflict = asked(false);
    await assert.rejects(save(files, 'cubes: [] # mine, again\n', conflict), rejectsWith('conflict'));
    assert.equal(conflict.conflicts.length, 1, 'the user was asked');
    assert.equal(await serverText(), 'cubes: [] # theirs\n', 'their change is not overwritten');
  });

  it('a failed hash read after a confirmed write leaves the save saved, and the next save raises no conflict', async () => {
    const files = await open();
    // Every hash read after our write fails (as if the network dropped right after it).
    const client: FilesClient = Object.assign(Object.create(build) as BuildClient, {
      updateFiles: async (...a: Parameters<BuildClient['updateFiles']>) => {
        const r = await build.updateFiles(...a);
        fault({ route: '/file-hashes', method: 'GET', status: 503, times: 5 });
        return r;
      },
    });
    assert.equal(await save(files, 'cubes: []\n', asked(), client), 'changed');
    sb.faults.clear();
    const conflict = asked();
    assert.equal(await save(files, 'cubes: [] # next\n', conflict), 'changed');
    assert.deepEqual(conflict.conflicts, [], 'no false conflict');
  });

  it('with a digest it cannot recognise, the base is the content: their write is still a conflict, ours is not', async () => {
    // The same server, its hashes in an unknown digest (a keyed hash, say).
    const opaque = (h: string) => `k1:${createHash('sha256').update(`key:${h}`).digest('hex')}`;
    const client: FilesClient = Object.assign(Object.create(build) as BuildClient, {
      fileHashes: async (...a: Parameters<BuildClient['fileHashes']>) =>
        new Map([...(await build.fileHashes(...a))].map(([p, h]) => [p, opaque(h)])),
      listFiles: async (...a: Parameters<BuildClient['listFiles']>) =>
        (await build.listFiles(...a)).map((f) => ({ ...f, hash: f.hash && opaque(f.hash) })),
    });
    const files = await open(client);
    assert.equal(files.hashKind, undefined);
    const quiet = asked();
    await save(files, 'cubes: [] # one\n', quiet, client);
    await save(files, 'cubes: [] # two\n', quiet, client);
    assert.deepEqual(quiet.conflicts, [], 'our own writes are no conflict');
    fault({
      route: '/data-model/files',
      method: 'PUT',
      concurrentWrite: [{ path: FILE, content: 'cubes: [] # theirs\n' }],
    });
    await save(files, 'cubes: [] # three\n', quiet, client);
    const conflict = asked(false);
    await assert.rejects(save(files, 'cubes: [] # four\n', conflict, client), rejectsWith('conflict'));
    assert.equal(conflict.conflicts.length, 1);
  });

  it('a change made elsewhere before our save is a conflict; Overwrite writes', async () => {
    const files = await open();
    await theirWrite('cubes: [] # theirs\n');
    const refuse = asked(false);
    await assert.rejects(save(files, 'cubes: [] # mine\n', refuse), rejectsWith('conflict'));
    assert.equal(refuse.conflicts[0]?.theirs, sha1(enc.encode('cubes: [] # theirs\n')));
    await save(files, 'cubes: [] # mine\n', asked(true));
    assert.equal(await serverText(), 'cubes: [] # mine\n');
  });

  it('refuses Latin-1 and UTF-16 bytes with a clear message and sends nothing', async () => {
    const files = await open();
    const sent = writes();
    const latin1 = Uint8Array.from([...enc.encode('cubes: [] # caf'), 0xe9, 0x0a]);
    await assert.rejects(save(files, latin1), (e) => {
      rejectsWith('encoding')(e);
      assert.match((e as Error).message, /byte 0xE9 at offset 15 is not UTF-8.*UTF-8/);
      return true;
    });
    const utf16 = Uint8Array.from([0xff, 0xfe, 0x63, 0x00, 0x75, 0x00]);
    await assert.rejects(save(files, utf16), rejectsWith('encoding'));
    const nul = enc.encode('c\0ubes: []\n');
    await assert.rejects(save(files, nul), rejectsWith('encoding'));
    assert.equal(writes(), sent, 'no write was sent');
    assert.doesNotMatch((await serverText()) ?? '', /\uFFFD/);
  });

  it('keeps a byte order mark: sent as is, read back as the same bytes', async () => {
    const files = await open();
    const bytes = Uint8Array.from([0xef, 0xbb, 0xbf, ...enc.encode('cubes: [] # café\n')]);
    await save(files, bytes);
    assert.equal(await serverText(), '\uFEFFcubes: [] # café\n');
    const again = await open();
    assert.deepEqual([...again.read(FILE)], [...bytes]);
    assert.equal(again.files.get(FILE)!.hash, sha1(bytes));
  });

  it('a file listed without content is an error to open and is never saved over', async () => {
    const listed = await build.listFiles(1, { branchName: branch, withContent: true });
    const items = listed.map((f) =>
      f.path === FILE
        ? { name: 'orders.yml', path: f.path, type: 'file' }
        : { ...f, name: f.path.split('/').pop(), type: 'file' },
    );
    fault({ route: '/data-model/files', method: 'GET', status: 200, body: { items, data: items } });
    const files = await open();
    assert.throws(
      () => files.read(FILE),
      (e) => {
        rejectsWith('unreadable')(e);
        assert.match((e as Error).message, /without its content/);
        return true;
      },
    );
    assert.ok(files.read('model/cubes/customers.yml').byteLength > 0, 'the other files read');
    const sent = writes();
    await assert.rejects(save(files, ''), rejectsWith('unreadable'));
    assert.equal(writes(), sent, 'nothing was written over the real file');
    assert.ok((await serverText())?.includes('orders'), 'the real file is intact');
  });
});
