// The rest of the model folder's rules (src/model/branchFiles.ts) against the sandbox's build API
// over HTTP: what a save refuses before sending (a missing file without create, an existing one
// without overwrite), a new file and a file removed elsewhere, folders (exist through their files
// or as created-empty ones; deleted and renamed as a whole, with the exact requests), and the
// strict UTF-8 check byte by byte (overlong forms, surrogates, code points past U+10FFFF, cut
// sequences).
import * as assert from 'node:assert/strict';
import { BuildClient } from '../../../src/api';
import {
  BranchFiles,
  invalidUtf8At,
  ModelFileError,
  modelText,
  type Conflict,
} from '../../../src/model/branchFiles';
import { startSandbox, type SandboxHandle } from '../../../src/sandbox';

const fast = { retries: 0, baseDelayMs: 5, maxDelayMs: 20 };
const enc = new TextEncoder();
const FILE = 'model/cubes/orders.yml';

const kind = (k: string) => (e: unknown) => {
  assert.ok(e instanceof ModelFileError, `a ModelFileError, got ${String(e)}`);
  assert.equal(e.kind, k, e.message);
  return true;
};

describe('model folder: guards, folders and new files (sandbox over HTTP)', function () {
  this.timeout(60_000);
  let sb: SandboxHandle;
  let build: BuildClient;
  let n = 0;
  let branch: string;
  let files: BranchFiles;
  const count = (method: string, path: string) =>
    sb.state.requestCounts[`platform ${method} /build/api/v1/deployments/1/data-model/${path}`] ?? 0;
  const onServer = async () =>
    new Map(
      (await build.listFiles(1, { branchName: branch, withContent: true })).map((f) => [f.path, f.content]),
    );
  const conflicts: Conflict[] = [];
  const refuse = async (c: Conflict) => (conflicts.push(c), false);

  before(async () => {
    sb = await startSandbox({ rows: 50 });
    build = new BuildClient({
      platformUrl: sb.urls.platform,
      token: async () => sb.tokens.admin,
      retry: fast,
    });
  });
  beforeEach(async () => {
    sb.faults.clear();
    conflicts.length = 0;
    branch = `tree-rules-${++n}`;
    await build.createBranch(1, { name: branch, from: 'main' });
    files = new BranchFiles(1, branch);
    await files.load(async () => build);
  });
  after(async () => {
    await build?.close();
    await sb?.close();
  });

  it('loads every file with its content and a base hash, and reads the bytes back', async () => {
    const server = await onServer();
    assert.ok(server.size >= 2);
    assert.deepEqual([...files.files.keys()].sort(), [...server.keys()].sort());
    for (const [path, content] of server) {
      assert.equal(new TextDecoder().decode(files.read(path)), content, path);
      assert.ok(files.files.get(path)!.hash, `${path} has a base hash`);
    }
    assert.ok(files.hashKind, 'the digest is recognised');
    assert.throws(() => files.read('model/none.yml'), kind('notFound'));
  });

  it('refuses, before sending, to create what exists or to write what is not there', async () => {
    const puts = count('PUT', 'files');
    const ask = { create: false, overwrite: true };
    await assert.rejects(
      files.save(build, 'model/cubes/new.yml', enc.encode('cubes: []\n'), ask, refuse),
      (e) =>
        kind('notFound')(e) &&
        /model\/cubes\/new\.yml is not on branch "tree-rules-\d+"\./.test((e as Error).message),
    );
    await assert.rejects(
      files.save(build, FILE, enc.encode('cubes: []\n'), { create: true, overwrite: false }, refuse),
      (e) => kind('exists')(e) && /already exists on branch/.test((e as Error).message),
    );
    assert.equal(count('PUT', 'files'), puts, 'nothing was sent');
  });

  it('creates a new file (answered "created"), then changes it ("changed"), without asking', async () => {
    const path = 'model/cubes/new.yml';
    const opts = { create: true, overwrite: true };
    assert.equal(await files.save(build, path, enc.encode('cubes: []\n'), opts, refuse), 'created');
    assert.equal((await onServer()).get(path), 'cubes: []\n');
    assert.equal(await files.save(build, path, enc.encode('cubes: [] # 2\n'), opts, refuse), 'changed');
    assert.equal((await onServer()).get(path), 'cubes: [] # 2\n');
    assert.deepEqual(conflicts, []);
  });

  it('a new file someone else created meanwhile, or a file removed elsewhere, is a conflict', async () => {
    const path = 'model/cubes/race.yml';
    await build.updateFiles(1, { branchName: branch, files: [{ path, content: 'theirs: 1\n' }] });
    await assert.rejects(
      files.save(build, path, enc.encode('mine: 1\n'), { create: true, overwrite: true }, refuse),
      kind('conflict'),
    );
    assert.equal(conflicts[0]?.path, path);
    assert.ok(conflicts[0]?.theirs, 'their hash is named');
    assert.equal((await onServer()).get(path), 'theirs: 1\n');

    await build.removeFiles(1, { branchName: branch, files: [{ path: FILE }] });
    await assert.rejects(
      files.save(build, FILE, enc.encode('cubes: []\n'), { create: true, overwrite: true }, refuse),
      kind('conflict'),
    );
    assert.deepEqual(conflicts[1], { path: FILE, theirs: undefined }, 'the file is gone from the server');
  });

  it('knows folders through their files and the empty ones created here', () => {
    assert.equal(files.isDir(''), true, 'the root');
    assert.equal(files.isDir('model'), true);
    assert.equal(files.isDir('model/cubes'), true);
    assert.equal(files.isDir(FILE), false, 'a file is not a folder');
    assert.equal(files.isDir('model/cub'), false, 'a name prefix is not a folder');
    files.dirs.add('model/empty/inner');
    assert.equal(files.isDir('model/empty'), true, 'a parent of a created folder');
    assert.equal(files.isDir('model/empty/inner'), true);
    assert.equal(files.isDir('model/emp'), false);
  });

  it('deletes a file, or a folder with everything in it, in one request naming each file', async () => {
    const before = [...files.files.keys()];
    const inCubes = before.filter((p) => p.startsWith('model/cubes/'));
    assert.ok(inCubes.length >= 2);
    files.dirs.add('model/cubes/empty');
    const deletes = count('DELETE', 'files');
    assert.deepEqual(await files.remove(build, 'model/cubes'), inCubes);
    assert.equal(count('DELETE', 'files') - deletes, 1, 'one request');
    const server = await onServer();
    for (const p of inCubes) assert.equal(server.has(p), false, `${p} deleted on the server`);
    for (const p of before.filter((x) => !inCubes.includes(x))) assert.ok(server.has(p), `${p} kept`);
    assert.equal(files.isDir('model/cubes'), false, 'the folder and its empty child are gone');
    assert.deepEqual([...files.files.keys()].sort(), [...server.keys()].sort());

    // A name that is neither a file nor a folder's: nothing is sent, nothing is deleted.
    const again = count('DELETE', 'files');
    files.dirs.add('model/solo');
    assert.deepEqual(await files.remove(build, 'model/solo'), []);
    assert.equal(files.dirs.has('model/solo'), false, 'an empty folder is just forgotten');
    assert.equal(count('DELETE', 'files'), again);
  });

  it('renames a folder: every file under it moves, in one request; an existing target is refused', async () => {
    const inCubes = [...files.files.keys()].filter((p) => p.startsWith('model/cubes/'));
    const contents = new Map(inCubes.map((p) => [p, files.read(p)]));
    await assert.rejects(files.rename(build, 'model/cubes', 'model', false), kind('exists'));
    await assert.rejects(
      files.rename(build, inCubes[0]!, inCubes[1]!, false),
      (e) => kind('exists')(e) && (e as Error).message.startsWith(`${inCubes[1]} already exists`),
    );
    const renames = count('POST', 'files/rename');
    await files.rename(build, 'model/cubes', 'model/facts', false);
    assert.equal(count('POST', 'files/rename') - renames, 1, 'one request');
    const server = await onServer();
    for (const p of inCubes) {
      const moved = `model/facts/${p.slice('model/cubes/'.length)}`;
      assert.equal(server.has(p), false, `${p} left its old name`);
      assert.equal(
        server.get(moved),
        new TextDecoder().decode(contents.get(p)),
        `${moved} holds what ${p} held`,
      );
      assert.deepEqual(files.read(moved), contents.get(p));
      assert.equal(files.files.has(p), false);
    }
    // Nothing under the name: nothing sent.
    await files.rename(build, 'model/nothing', 'model/else', false);
    assert.equal(count('POST', 'files/rename') - renames, 1);
  });

  it('with overwrite, a rename onto an existing name is left to the server; its refusal changes nothing', async () => {
    const other = [...files.files.keys()].find((p) => p !== FILE)!;
    const renames = count('POST', 'files/rename');
    await assert.rejects(files.rename(build, FILE, other, true), (e: unknown) => {
      assert.equal((e as { kind?: string }).kind, 'conflict', String(e));
      return true;
    });
    assert.equal(count('POST', 'files/rename') - renames, 1, 'sent: the client did not refuse it');
    assert.ok(files.files.has(FILE) && files.files.has(other), 'both files held as they were');
  });

  it('runs the writes of a branch one after another, even when one fails', async () => {
    const order: string[] = [];
    const slow = async (tag: string, fail: boolean) => {
      order.push(`start ${tag}`);
      await new Promise((r) => setImmediate(r));
      order.push(`end ${tag}`);
      if (fail) throw new Error(tag);
      return tag;
    };
    const a = files.serial(() => slow('a', true));
    const b = files.serial(() => slow('b', false));
    await assert.rejects(a, /a/);
    assert.equal(await b, 'b');
    assert.deepEqual(order, ['start a', 'end a', 'start b', 'end b']);
  });
});

describe('model folder: strict UTF-8', () => {
  const at = (...bytes: number[]) => invalidUtf8At(Uint8Array.from(bytes));

  it('accepts every well-formed length, the first and last code point of each', () => {
    assert.equal(at(), -1);
    assert.equal(at(0x00, 0x7f), -1);
    assert.equal(at(0xc2, 0x80, 0xdf, 0xbf), -1);
    assert.equal(at(0xe0, 0xa0, 0x80, 0xef, 0xbf, 0xbf), -1);
    assert.equal(at(0xed, 0x9f, 0xbf), -1, 'U+D7FF, just below the surrogates');
    assert.equal(at(0xee, 0x80, 0x80), -1, 'U+E000, just above them');
    assert.equal(at(0xf0, 0x90, 0x80, 0x80, 0xf4, 0x8f, 0xbf, 0xbf), -1);
    assert.equal(invalidUtf8At(enc.encode('a é € 😀')), -1);
  });

  it('finds the first bad byte: lone continuation, overlong, surrogate, past U+10FFFF, cut off', () => {
    assert.equal(at(0x61, 0x80), 1, 'a continuation byte alone');
    assert.equal(at(0x61, 0xc0, 0x80), 1, 'C0: overlong by definition');
    assert.equal(at(0xc1, 0xbf), 0);
    assert.equal(at(0xe0, 0x80, 0x80), 0, 'overlong three-byte form');
    assert.equal(at(0xe0, 0x9f, 0xbf), 0, 'overlong U+07FF');
    assert.equal(at(0xf0, 0x8f, 0xbf, 0xbf), 0, 'overlong U+FFFF');
    assert.equal(at(0xed, 0xa0, 0x80), 0, 'U+D800');
    assert.equal(at(0xed, 0xbf, 0xbf), 0, 'U+DFFF');
    assert.equal(at(0xf4, 0x90, 0x80, 0x80), 0, 'U+110000');
    assert.equal(at(0xf5, 0x80, 0x80, 0x80), 0);
    assert.equal(at(0xff), 0);
    assert.equal(at(0x61, 0x62, 0xe2, 0x82), 2, 'cut at the end');
    assert.equal(at(0xe2, 0x41, 0x82), 0, 'an ASCII byte inside a sequence');
    assert.equal(at(0xc3, 0xa9, 0xe9), 2, 'the first bad byte after a good one');
  });

  it('names the byte and its offset, or the NUL, in the message; keeps a BOM as U+FEFF', () => {
    assert.equal(modelText('a.yml', Uint8Array.from([0xef, 0xbb, 0xbf, 0x61])), '\uFEFFa');
    assert.equal(
      modelText('a.yml', Uint8Array.from([0x61, 0x0a, 0x09])),
      'a\n\t',
      'tabs and newlines are text',
    );
    assert.throws(
      () => modelText('m/x.yml', Uint8Array.from([0x61, 0x62, 0xfe])),
      (e) =>
        kind('encoding')(e) &&
        (e as Error).message.startsWith(
          'm/x.yml was not saved: byte 0xFE at offset 2 is not UTF-8 (Latin-1, UTF-16 or binary content?). ',
        ),
    );
    assert.throws(
      () => modelText('m/x.yml', Uint8Array.from([0x61, 0x00, 0x62])),
      (e) =>
        kind('encoding')(e) &&
        (e as Error).message.startsWith('m/x.yml was not saved: it has a NUL byte at offset 1 ('),
    );
    assert.throws(
      () => modelText('m/x.yml', Uint8Array.from([0x00, 0xc3])),
      (e) => /byte 0xC3 at offset 1 is not UTF-8/.test((e as Error).message),
      'a bad byte is named before a NUL',
    );
  });
});
