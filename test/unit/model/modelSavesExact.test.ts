// The model folder's save rules and the build API pieces they stand on, case by case (written from
// the surviving mutants of `npm run mutation -- model-saves`, docs/mutation-triage.md): which bytes
// are UTF-8, what a refused or unknown save leaves behind, when a save is a conflict, what a
// reload keeps and drops, how the source tree and the hashes are read, and how branches are paged.
// BranchFiles runs against an in-memory FilesClient here, so each rule is isolated from the
// sandbox (branchFiles.sandbox.test.ts runs the same rules over HTTP).
import * as assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import {
  ApiError,
  BuildClient,
  buildApiUrlOf,
  contentHash,
  devModeDataApiUrl,
  flattenTree,
  hashKindOf,
  planUpload,
  writeOutcome,
  type WriteResponse,
} from '../../../src/api';
import { allBranches } from '../../../src/api/platform/build/branches';
import {
  BranchFiles,
  invalidUtf8At,
  ModelFileError,
  modelText,
  type Conflict,
  type FilesClient,
} from '../../../src/model/branchFiles';
import { rejection, sendJson, startServer, type TestServer } from '../api/helpers';

const enc = new TextEncoder();
const dec = new TextDecoder();
const sha256 = (s: string | Uint8Array) => createHash('sha256').update(s).digest('hex');
const bytes = (...b: number[]) => Uint8Array.from(b);

/** A branch held in memory, speaking the FilesClient calls; `next` shapes the next write's answer. */
class MemoryBranch implements FilesClient {
  readonly files = new Map<string, string>();
  /** The next write answers this instead of applying (`{}` unknown, `{success: false}` refused). */
  next: WriteResponse | Error | undefined;
  /** When set, the next write is applied and then this error is thrown (an answer lost on the way). */
  lostAfterApplying: Error | undefined;
  /** Listings answer without content for these paths. */
  readonly withoutContent = new Set<string>();
  /** Hashes are answered in this digest (`other`: one no client can recognise). */
  digest: 'sha256' | 'other' = 'sha256';
  /** Listings carry no hashes (only the separate hash read has them). */
  listHashes = true;
  /** Listings give their hashes in capitals (the hash read gives them as they are). */
  listHashesUpper = false;
  /** Listings leave these paths out (the hash read still names them). */
  readonly unlisted = new Set<string>();
  listFails: Error | undefined;
  readonly calls: { op: string; arg: unknown }[] = [];

  constructor(init: Record<string, string> = {}) {
    for (const [k, v] of Object.entries(init)) this.files.set(k, v);
  }
  private hash(text: string) {
    return this.digest === 'sha256' ? sha256(text) : `other-${text.length}-${sha256(text).slice(0, 6)}`;
  }
  listFiles: FilesClient['listFiles'] = async (_d, q) => {
    this.calls.push({ op: 'listFiles', arg: q });
    if (this.listFails) {
      const e = this.listFails;
      this.listFails = undefined;
      throw e;
    }
    return [...this.files]
      .filter(([path]) => !this.unlisted.has(path))
      .map(([path, content]) => {
        if (this.withoutContent.has(path)) return { path };
        const hash = this.hash(content);
        if (!this.listHashes) return { path, content };
        return { path, content, hash: this.listHashesUpper ? hash.toUpperCase() : hash };
      });
  };
  fileHashes: FilesClient['fileHashes'] = async (_d, q) => {
    this.calls.push({ op: 'fileHashes', arg: q });
    return new Map([...this.files].map(([p, c]) => [p, this.hash(c)]));
  };
  private async write(op: string, arg: unknown, apply: () => void): Promise<WriteResponse> {
    this.calls.push({ op, arg });
    const next = this.next;
    this.next = undefined;
    if (next instanceof Error) throw next;
    if (next) return next;
    apply();
    const lost = this.lostAfterApplying;
    this.lostAfterApplying = undefined;
    if (lost) throw lost;
    return { success: true };
  }
  updateFiles: FilesClient['updateFiles'] = (_d, b) =>
    this.write('updateFiles', b, () => {
      for (const f of b.files) this.files.set(f.path, f.content);
    });
  removeFiles: FilesClient['removeFiles'] = (_d, b) =>
    this.write('removeFiles', b, () => {
      for (const f of b.files) this.files.delete(f.path);
    });
  renameFiles: FilesClient['renameFiles'] = (_d, b) =>
    this.write('renameFiles', b, () => {
      for (const f of b.files) {
        const c = this.files.get(f.path)!;
        this.files.delete(f.path);
        this.files.set(f.newPath, c);
      }
    });
  writes() {
    return this.calls.filter((c) => c.op === 'updateFiles').length;
  }
}

const FILE = 'model/cubes/orders.yml';
const unknownOutcome = () => new ApiError('unknownOutcome', 'Saving: the outcome is unknown.');

async function opened(server: MemoryBranch): Promise<BranchFiles> {
  const files = new BranchFiles(1, 'dev-ann');
  await files.load(async () => server);
  return files;
}
function recorder(answer: boolean) {
  const seen: Conflict[] = [];
  return { seen, fn: async (c: Conflict) => (seen.push(c), answer) };
}
const save = (
  files: BranchFiles,
  server: MemoryBranch,
  text: string | Uint8Array,
  conflict = recorder(false),
) =>
  files.save(
    server,
    FILE,
    typeof text === 'string' ? enc.encode(text) : text,
    { create: true, overwrite: true },
    conflict.fn,
  );
const kindOf = (kind: string) => (e: unknown) => {
  assert.ok(e instanceof ModelFileError, String(e));
  assert.equal(e.kind, kind, e.message);
  return true;
};

describe('model saves: UTF-8, exactly', () => {
  it('finds the first byte that is not UTF-8, at each lead byte range and at a cut sequence', () => {
    assert.equal(invalidUtf8At(enc.encode('plain ascii')), -1);
    assert.equal(invalidUtf8At(enc.encode('é € 𝄞')), -1, 'two, three and four byte sequences');
    // 0xC0 and 0xC1 can only start overlong forms; 0xF5 and up are beyond U+10FFFF.
    assert.equal(invalidUtf8At(bytes(0x61, 0xc0, 0x80)), 1);
    assert.equal(invalidUtf8At(bytes(0x61, 0xc1, 0xbf)), 1);
    assert.equal(invalidUtf8At(bytes(0xc2, 0xa9)), -1, 'U+00A9, the lowest two-byte lead');
    assert.equal(invalidUtf8At(bytes(0xdf, 0xbf)), -1, 'U+07FF, the highest two-byte lead');
    assert.equal(invalidUtf8At(bytes(0xe0, 0xa0, 0x80)), -1, 'U+0800');
    assert.equal(invalidUtf8At(bytes(0xef, 0xbf, 0xbd)), -1, 'U+FFFD');
    assert.equal(invalidUtf8At(bytes(0xf0, 0x90, 0x80, 0x80)), -1, 'U+10000');
    assert.equal(invalidUtf8At(bytes(0xf4, 0x8f, 0xbf, 0xbf)), -1, 'U+10FFFF');
    assert.equal(invalidUtf8At(bytes(0x61, 0xf5, 0x80, 0x80, 0x80)), 1);
    assert.equal(invalidUtf8At(bytes(0x61, 0x62, 0xff)), 2);
    assert.equal(invalidUtf8At(bytes(0x61, 0x80)), 1, 'a continuation byte without a lead');
    assert.equal(invalidUtf8At(bytes(0x61, 0xe2, 0x82)), 1, 'a sequence cut at the end');
    assert.equal(invalidUtf8At(bytes(0xe0, 0x80, 0x80)), 0, 'overlong three-byte form');
    assert.equal(invalidUtf8At(bytes(0xed, 0xa0, 0x80)), 0, 'a UTF-16 surrogate');
    assert.equal(invalidUtf8At(bytes(0xf4, 0x90, 0x80, 0x80)), 0, 'beyond U+10FFFF');
    // Bytes that are no lead at all, though their bits would decode to a code point in range.
    assert.equal(invalidUtf8At(bytes(0xbf, 0xbf)), 0);
    assert.equal(invalidUtf8At(bytes(0xbf, 0xbf, 0xbf)), 0);
    assert.equal(invalidUtf8At(bytes(0x81, 0x90, 0x80, 0x80)), 0);
    assert.equal(invalidUtf8At(bytes(0xf8, 0x90, 0x80, 0x80)), 0);
  });

  it('refuses bytes that are not UTF-8 or hold a NUL, naming the byte and its offset, even at offset 0', () => {
    assert.equal(modelText('a.yml', enc.encode('\uFEFFcubes: []\n')), '\uFEFFcubes: []\n', 'a BOM is kept');
    assert.throws(
      () => modelText('a.yml', bytes(0xff, 0x61)),
      (e) => {
        kindOf('encoding')(e);
        assert.match((e as Error).message, /^a\.yml was not saved: byte 0xFF at offset 0 is not UTF-8 /);
        return true;
      },
    );
    assert.throws(
      () => modelText('a.yml', bytes(0x61, 0x62, 0xe9, 0x63)),
      /byte 0xE9 at offset 2 is not UTF-8 \(Latin-1, UTF-16 or binary content\?\)/,
    );
    assert.throws(
      () => modelText('a.yml', bytes(0x00, 0x61)),
      (e) => {
        kindOf('encoding')(e);
        assert.match((e as Error).message, /^a\.yml was not saved: it has a NUL byte at offset 0 /);
        return true;
      },
    );
    assert.throws(() => modelText('a.yml', enc.encode('ab\0')), /it has a NUL byte at offset 2/);
    const e = new ModelFileError('refused', 'x');
    assert.equal(e.name, 'ModelFileError');
  });
});

describe('model saves: what a save leaves behind (in-memory branch)', () => {
  it('an unknown outcome (no "success") remembers what was sent: the next save of other bytes over it is no conflict', async () => {
    const server = new MemoryBranch({ [FILE]: 'cubes: []\n' });
    const files = await opened(server);
    server.next = {};
    await assert.rejects(save(files, server, 'cubes: [a]\n'), kindOf('unknown'));
    // The write did land after all (a real server may have applied it).
    server.files.set(FILE, 'cubes: [a]\n');
    const conflict = recorder(false);
    assert.equal(await save(files, server, 'cubes: [a, b]\n', conflict), 'changed');
    assert.deepEqual(conflict.seen, [], "our own bytes are not somebody else's change");
    assert.equal(server.files.get(FILE), 'cubes: [a, b]\n');
  });

  it('an answer lost after the write (unknownOutcome error) is remembered the same way', async () => {
    const server = new MemoryBranch({ [FILE]: 'cubes: []\n' });
    const files = await opened(server);
    server.lostAfterApplying = unknownOutcome();
    await assert.rejects(save(files, server, 'cubes: [a]\n'), (e) => e instanceof ApiError);
    const conflict = recorder(false);
    assert.equal(await save(files, server, 'cubes: [a, b]\n', conflict), 'changed');
    assert.deepEqual(conflict.seen, []);
  });

  it("another failure of the write (a refusal error) is not remembered: the server's other bytes are a conflict", async () => {
    const server = new MemoryBranch({ [FILE]: 'cubes: []\n' });
    const files = await opened(server);
    server.next = new ApiError('validation', 'Saving: refused.');
    await assert.rejects(save(files, server, 'cubes: [a]\n'), (e) => e instanceof ApiError);
    server.files.set(FILE, 'cubes: [a]\n'); // somebody else wrote the same text meanwhile
    const conflict = recorder(false);
    await assert.rejects(save(files, server, 'cubes: [a, b]\n', conflict), kindOf('conflict'));
    assert.deepEqual(conflict.seen, [{ path: FILE, theirs: sha256('cubes: [a]\n') }]);
  });

  it('a confirmed save forgets the unknown one: the same bytes written later by someone else are a conflict', async () => {
    const server = new MemoryBranch({ [FILE]: 'cubes: []\n' });
    const files = await opened(server);
    server.next = {};
    await assert.rejects(save(files, server, 'v1\n'), kindOf('unknown'));
    assert.equal(await save(files, server, 'v2\n'), 'changed');
    server.files.set(FILE, 'v1\n'); // another user writes what our lost write once held
    const conflict = recorder(false);
    await assert.rejects(save(files, server, 'v3\n', conflict), kindOf('conflict'));
    assert.equal(conflict.seen.length, 1);
    assert.equal(server.files.get(FILE), 'v1\n', 'nothing overwritten');
  });

  it('a refused save ("success: false") is not remembered as ours: the same bytes written by someone else are a conflict', async () => {
    const server = new MemoryBranch({ [FILE]: 'cubes: []\n' });
    const files = await opened(server);
    server.next = { success: false };
    await assert.rejects(save(files, server, 'v1\n'), kindOf('refused'));
    server.files.set(FILE, 'v1\n');
    const conflict = recorder(false);
    await assert.rejects(save(files, server, 'v2\n', conflict), kindOf('conflict'));
    assert.equal(server.files.get(FILE), 'v1\n');
  });

  it('someone else saving exactly the bytes we save is no conflict, and a known digest needs no second listing', async () => {
    const server = new MemoryBranch({ [FILE]: 'cubes: []\n' });
    const files = await opened(server);
    server.files.set(FILE, 'cubes: [a]\n');
    const conflict = recorder(false);
    const from = server.calls.length;
    assert.equal(await save(files, server, 'cubes: [a]\n', conflict), 'changed');
    assert.deepEqual(conflict.seen, []);
    assert.deepEqual(
      server.calls.slice(from).map((c) => c.op),
      ['fileHashes', 'updateFiles'],
    );
    // Unchanged on the server: compared by hash alone, no listing either.
    const again = server.calls.length;
    await save(files, server, 'cubes: [b]\n');
    assert.deepEqual(
      server.calls.slice(again).map((c) => c.op),
      ['fileHashes', 'updateFiles'],
    );
  });

  it('a file deleted on the server since it was opened is a conflict with no hash; Overwrite writes it back', async () => {
    const server = new MemoryBranch({ [FILE]: 'cubes: []\n' });
    const files = await opened(server);
    server.files.delete(FILE);
    const no = recorder(false);
    await assert.rejects(save(files, server, 'cubes: [a]\n', no), (e) => {
      kindOf('conflict')(e);
      assert.equal(
        (e as Error).message,
        `${FILE} changed on the server since it was opened; not saved. Compare the two versions in the diff, then save again (or choose Overwrite).`,
      );
      return true;
    });
    assert.deepEqual(no.seen, [{ path: FILE, theirs: undefined }]);
    assert.equal(server.writes(), 0);
    assert.equal(await save(files, server, 'cubes: [a]\n', recorder(true)), 'changed');
    assert.equal(server.files.get(FILE), 'cubes: [a]\n');
  });

  it('keeps a copy of the bytes saved: the caller reusing its buffer does not change the base', async () => {
    const server = new MemoryBranch({ [FILE]: 'cubes: []\n' });
    const files = await opened(server);
    const buf = enc.encode('cubes: [a]\n');
    await save(files, server, buf);
    buf.fill(0x78);
    assert.equal(dec.decode(files.read(FILE)), 'cubes: [a]\n');
  });

  it('a saved path is no longer an empty folder of its own', async () => {
    const server = new MemoryBranch({});
    const files = await opened(server);
    files.dirs.add(FILE);
    assert.equal(await save(files, server, 'cubes: []\n'), 'created');
    assert.equal(files.dirs.has(FILE), false);
  });

  it('says exactly what was refused and what is unknown, for saves, deletes and renames', async () => {
    const server = new MemoryBranch({ [FILE]: 'cubes: []\n' });
    const files = await opened(server);
    server.next = { success: false };
    await assert.rejects(save(files, server, 'x: 1\n'), {
      message: `${FILE} was not saved: the server answered "success: false" (branch "dev-ann"). Your text is still in the editor; try again, and if it keeps failing, check the branch (is it still there, is it writable?).`,
    });
    server.next = {};
    await assert.rejects(save(files, server, 'x: 1\n'), {
      message: `The server answered without saying whether ${FILE} was saved (branch "dev-ann"); the outcome is unknown. Your text is still in the editor: save again to compare with what the server has now.`,
    });
    server.next = {};
    await assert.rejects(files.remove(server, FILE), {
      message: `The server answered without saying whether ${FILE} was deleted (branch "dev-ann"); the outcome is unknown. Your text is still in the editor: save again to compare with what the server has now.`,
    });
    server.next = { success: false };
    await assert.rejects(files.remove(server, 'model'), {
      message: /^model was not deleted: the server answered/,
    });
    server.next = { success: false };
    await assert.rejects(files.rename(server, FILE, 'model/x.yml', false), {
      message: /^model\/cubes\/orders\.yml was not renamed: the server answered/,
    });
    server.next = {};
    await assert.rejects(files.rename(server, 'model', 'schema', false), {
      message: /^The server answered without saying whether model was renamed \(branch "dev-ann"\)/,
    });
    assert.throws(() => files.read('model/nope.yml'), {
      message: 'model/nope.yml is not on branch "dev-ann".',
    });
    await assert.rejects(
      files.save(
        server,
        'model/nope.yml',
        enc.encode('x'),
        { create: false, overwrite: true },
        async () => true,
      ),
      { message: 'model/nope.yml is not on branch "dev-ann".' },
    );
    await assert.rejects(
      files.save(server, FILE, enc.encode('x'), { create: true, overwrite: false }, async () => true),
      { message: `${FILE} already exists on branch "dev-ann".` },
    );
  });

  it('removing a folder removes the empty folders under it and no other', async () => {
    const server = new MemoryBranch({ 'model/cubes/a.yml': 'a', 'model/views/v.yml': 'v' });
    const files = await opened(server);
    for (const d of ['model/cubes', 'model/cubes/new', 'model/cubesque', 'other']) files.dirs.add(d);
    assert.deepEqual(await files.remove(server, 'model/cubes'), ['model/cubes/a.yml']);
    assert.deepEqual([...files.dirs].sort(), ['model/cubesque', 'other']);
    assert.deepEqual(server.calls.at(-1), {
      op: 'removeFiles',
      arg: { branchName: 'dev-ann', files: [{ path: 'model/cubes/a.yml' }] },
    });
  });

  it('a rename onto an existing folder is refused unless overwriting; a folder rename moves its files', async () => {
    const server = new MemoryBranch({ 'model/cubes/a.yml': 'a', 'model/views/v.yml': 'v' });
    const files = await opened(server);
    await assert.rejects(files.rename(server, 'model/cubes', 'model/views', false), kindOf('exists'));
    await assert.rejects(
      files.rename(server, 'model/cubes/a.yml', 'model/views/v.yml', false),
      kindOf('exists'),
    );
    await files.rename(server, 'model/cubes', 'model/facts', false);
    assert.deepEqual(server.calls.at(-1), {
      op: 'renameFiles',
      arg: { branchName: 'dev-ann', files: [{ path: 'model/cubes/a.yml', newPath: 'model/facts/a.yml' }] },
    });
    assert.deepEqual([...files.files.keys()].sort(), ['model/facts/a.yml', 'model/views/v.yml']);
    assert.equal(dec.decode(files.read('model/facts/a.yml')), 'a');
  });
});

describe('model saves: loading and reloading a branch', () => {
  it('reads the branch it was given, once, until asked to refresh', async () => {
    const server = new MemoryBranch({ [FILE]: 'a' });
    const files = new BranchFiles(1, 'dev-ann');
    await files.load(async () => server);
    await files.load(async () => server);
    assert.deepEqual(server.calls, [
      { op: 'listFiles', arg: { branchName: 'dev-ann', withContent: true } },
      { op: 'fileHashes', arg: { branchName: 'dev-ann' } },
    ]);
    await files.load(async () => server, true);
    assert.equal(server.calls.length, 4);
  });

  it('a failed load is tried again by the next call', async () => {
    const server = new MemoryBranch({ [FILE]: 'a' });
    const files = new BranchFiles(1, 'dev-ann');
    server.listFails = new ApiError('network', 'down');
    await assert.rejects(
      files.load(async () => server),
      /down/,
    );
    await files.load(async () => server);
    assert.equal(dec.decode(files.read(FILE)), 'a');
  });

  it("a refresh drops files deleted on the server, keeps each file's time, and forgets unknown writes", async () => {
    const server = new MemoryBranch({ [FILE]: 'a', 'model/gone.yml': 'g' });
    const files = await opened(server);
    const mtime = files.files.get(FILE)!.mtime;
    assert.ok(mtime > 0, 'a file read has the time it was read');
    server.files.delete('model/gone.yml');
    server.next = {};
    await assert.rejects(save(files, server, 'mine'), kindOf('unknown'));
    await new Promise((r) => setTimeout(r, 5));
    await files.load(async () => server, true);
    assert.deepEqual([...files.files.keys()], [FILE]);
    assert.equal(files.files.get(FILE)!.mtime, mtime, 'a file seen before keeps its time');
    // After the refresh the held base is the server's text: bytes we once sent, found there now,
    // are somebody else's write like any other.
    server.files.set(FILE, 'mine');
    const conflict = recorder(false);
    await assert.rejects(save(files, server, 'other', conflict), kindOf('conflict'));
  });

  it('recognises the digest from a file given with its hash, and bases saves on it', async () => {
    const server = new MemoryBranch({ 'a.yml': 'a', 'b.yml': 'b' });
    server.withoutContent.add('a.yml');
    const files = await opened(server);
    assert.equal(files.hashKind, 'sha256');
    assert.equal(files.files.get('b.yml')!.hash, sha256('b'));
    // Hashes only from the separate read: the digest is still recognised.
    const bare = new MemoryBranch({ 'a.yml': 'a' });
    bare.listHashes = false;
    assert.equal((await opened(bare)).hashKind, 'sha256');
    assert.equal(files.files.get('a.yml')!.hash, undefined, 'no base without content');
    assert.throws(() => files.read('a.yml'), kindOf('unreadable'));
  });

  it('without a digest it knows, a save compares the content itself: same text is no conflict, other text is', async () => {
    const server = new MemoryBranch({ [FILE]: 'cubes: []\n' });
    server.digest = 'other';
    const files = await opened(server);
    assert.equal(files.hashKind, undefined);
    const conflict = recorder(false);
    assert.equal(await save(files, server, 'cubes: [a]\n', conflict), 'changed');
    assert.deepEqual(conflict.seen, []);
    // The server's text changed under us (same length, so only the bytes tell).
    server.files.set(FILE, 'cubes: [b]\n');
    await assert.rejects(save(files, server, 'cubes: [c]\n', conflict), kindOf('conflict'));
    assert.equal(conflict.seen.length, 1);
    // After a save the base is the content sent; a server file listed without content cannot be
    // compared with it: a conflict, never a blind write.
    const other = new MemoryBranch({ [FILE]: 'x' });
    other.digest = 'other';
    const held = await opened(other);
    await save(held, other, 'y');
    other.withoutContent.add(FILE);
    await assert.rejects(save(held, other, 'z', recorder(false)), kindOf('conflict'));
    assert.equal(other.files.get(FILE), 'y');
  });

  it('the base is the hash computed in the server digest, not the listing spelling of it', async () => {
    const server = new MemoryBranch({ [FILE]: 'cubes: []\n' });
    server.listHashesUpper = true;
    const files = await opened(server);
    assert.equal(files.files.get(FILE)!.hash, sha256('cubes: []\n'));
    const conflict = recorder(false);
    assert.equal(await save(files, server, 'cubes: [a]\n', conflict), 'changed');
    assert.deepEqual(conflict.seen, [], 'the same version in two spellings is no conflict');
  });

  it('without a digest, a server text that is the start of ours, or one not listed (an empty file) is a conflict', async () => {
    for (const [held, theirs, unlisted] of [
      ['cubes: [a]\nmore: 1\n', 'cubes: [a]\n', false],
      ['', '', true],
    ] as const) {
      const server = new MemoryBranch({ [FILE]: 'cubes: []\n' });
      server.digest = 'other';
      const files = await opened(server);
      await save(files, server, held);
      server.files.set(FILE, theirs);
      if (unlisted) server.unlisted.add(FILE);
      const conflict = recorder(false);
      await assert.rejects(save(files, server, 'next\n', conflict), kindOf('conflict'));
      assert.equal(conflict.seen.length, 1);
      assert.equal(server.files.get(FILE), theirs);
    }
  });

  it("with no digest, learns it from the server's hash when the content matches", async () => {
    const server = new MemoryBranch({ [FILE]: 'cubes: []\n' });
    server.withoutContent.add(FILE); // listed without content: no digest learnt at load
    const files = await opened(server);
    server.withoutContent.clear();
    files.files.set(FILE, { content: enc.encode('cubes: []\n'), mtime: 0 });
    assert.equal(files.hashKind, undefined);
    await save(files, server, 'cubes: [a]\n');
    assert.equal(files.hashKind, 'sha256');
  });
});

describe('model saves: the build API pieces', () => {
  it('hashKindOf reads a hash in any case and with spaces; contentHash makes each digest', () => {
    const c = enc.encode('x: 1\n');
    assert.equal(hashKindOf(c, ` ${sha256(c).toUpperCase()} `), 'sha256');
    assert.equal(contentHash('gitBlob', c), createHash('sha1').update('blob 5\0x: 1\n').digest('hex'));
    assert.equal(hashKindOf(c, createHash('md5').update(c).digest('hex')), 'md5');
    assert.equal(hashKindOf(c, 'nope'), undefined);
  });

  it('writeOutcome: applied, refused, unknown', () => {
    assert.equal(writeOutcome({ success: true }), 'applied');
    assert.equal(writeOutcome({ success: false }), 'refused');
    assert.equal(writeOutcome({}), 'unknown');
  });

  it('flattens the source tree in each spelling, skipping what has no usable name', () => {
    const files = flattenTree([
      null,
      'text',
      { name: '', content: 'x' },
      { type: 'Directory', name: 'model', children: [{ name: 'a.yml', content: 'a', sha: 's1' }] },
      { type: 'DIR', path: 'model/views', files: [{ name: 'v.yml', hash: '', content: 'v' }] },
      { type: 'folder', name: 'empty' },
      { type: 'file', path: '\\model\\b.yml', children: [], content: 7, hash: 'h2' },
      { name: 'c.yml', items: [{ name: 'inner.yml' }] },
      { fileName: 'top.yml' },
      { path: '/lead/slash.yml' },
      { type: 'dir', name: 'no-children' },
      { type: 'directory', name: 'none-either' },
      { name: 42, fileName: 7 },
      { path: '', name: 'named.yml' },
      { path: '//two/leading.yml' },
    ]);
    assert.deepEqual(files, [
      { path: 'model/a.yml', content: 'a', hash: 's1' },
      { path: 'model/views/v.yml', content: 'v' },
      { path: 'model/b.yml', hash: 'h2' },
      { path: 'c.yml/inner.yml' },
      { path: 'top.yml' },
      { path: 'lead/slash.yml' },
      { path: 'named.yml' },
      { path: 'two/leading.yml' },
    ]);
    assert.deepEqual(flattenTree([{ name: 'a.yml' }], 'dir//'), [{ path: 'dir/a.yml' }]);
  });

  it("plans an upload: changed, added and removed (sorted), the manifest in the server's digest", () => {
    const a = enc.encode('a');
    const b = enc.encode('b2');
    const c = enc.encode('c');
    const remote = new Map([
      ['a.yml', sha256(a)],
      ['b.yml', sha256('b1')],
      ['z.yml', 'zz'],
      ['m.yml', 'mm'],
    ]);
    const plan = planUpload(
      [
        { path: 'a.yml', content: a },
        { path: 'b.yml', content: b },
        { path: 'c.yml', content: c },
      ],
      remote,
    );
    assert.deepEqual(
      plan.changed.map((f) => f.path),
      ['b.yml', 'c.yml'],
    );
    assert.deepEqual(plan.added, ['c.yml']);
    assert.deepEqual(plan.removed, ['m.yml', 'z.yml']);
    assert.equal(plan.unchanged, 1);
    assert.deepEqual(plan.manifest, {
      'a.yml': { hash: sha256(a) },
      'b.yml': { hash: sha256(b) },
      'c.yml': { hash: sha256(c) },
    });
    // An unchanged file keeps the server's own spelling of its hash.
    const upper = planUpload([{ path: 'a.yml', content: a }], new Map([['a.yml', sha256(a).toUpperCase()]]));
    assert.deepEqual(upper.manifest, { 'a.yml': { hash: sha256(a).toUpperCase() } });
    assert.equal(upper.unchanged, 1);
    // Nothing on the server to tell the digest by: SHA-256.
    const fresh = planUpload([{ path: 'a.yml', content: a }], new Map());
    assert.deepEqual(fresh.manifest, { 'a.yml': { hash: sha256(a) } });
    assert.deepEqual(fresh.added, ['a.yml']);
  });

  it("the Data API of a dev branch: scheme added, the deployment path's /cubejs-api and trailing slashes dropped", () => {
    assert.equal(
      devModeDataApiUrl(' acme.cubecloud.dev/cubejs-api/v1/ ', 'dev ann'),
      'https://acme.cubecloud.dev/dev-mode/dev%20ann/cubejs-api',
    );
    assert.equal(
      devModeDataApiUrl('HTTP://h:8080/base/cubejs-api?x=1#f', 'b'),
      'http://h:8080/base/dev-mode/b/cubejs-api',
    );
    assert.equal(devModeDataApiUrl('https://h/', 'b'), 'https://h/dev-mode/b/cubejs-api');
    assert.equal(devModeDataApiUrl('https://h/base//', 'b'), 'https://h/base/dev-mode/b/cubejs-api');
    assert.equal(
      devModeDataApiUrl('https://h/cubejs-api-old', 'b'),
      'https://h/cubejs-api-old/dev-mode/b/cubejs-api',
      'only a path ending in /cubejs-api is the Data API',
    );
    assert.equal(
      devModeDataApiUrl('acme.dev/cubejs-api?next=https://x', 'b'),
      'https://acme.dev/dev-mode/b/cubejs-api',
      'a scheme counts only at the start',
    );
  });

  it('the build API lives beside the platform API: trailing slashes and only a final /api dropped', () => {
    assert.equal(buildApiUrlOf('https://t.example.com/api//'), 'https://t.example.com/build/api');
    assert.equal(buildApiUrlOf('https://h/tenant/api?x=1'), 'https://h/tenant/build/api');
    assert.equal(buildApiUrlOf('https://h/apis'), 'https://h/apis/build/api');
  });

  it('every branch, page after page: stops at the last page, at a repeated cursor, and after 50 pages', async () => {
    const asked: unknown[] = [];
    const pages = [
      { items: [{ name: 'a' }], pageInfo: { hasNextPage: true, endCursor: 'c1' } },
      { items: [{ name: 'b' }], pageInfo: { hasNextPage: true, endCursor: 'c2' } },
      { items: [{ name: 'c' }], pageInfo: { hasNextPage: false, endCursor: 'c3' } },
    ];
    const list = async (_d: number, p?: unknown) => (asked.push(p), pages[asked.length - 1]!);
    const all = await allBranches(list as never, 1);
    assert.deepEqual(
      all.map((b) => b.name),
      ['a', 'b', 'c'],
    );
    assert.deepEqual(asked, [{ first: 100 }, { first: 100, after: 'c1' }, { first: 100, after: 'c2' }]);

    let n = 0;
    const stuck = async () => (
      n++,
      { items: [{ name: `b${n}` }], pageInfo: { hasNextPage: true, endCursor: 'same' } }
    );
    assert.equal((await allBranches(stuck as never, 1)).length, 2, 'a cursor answered twice ends it');
    let m = 0;
    const endless = async () => (
      m++,
      { items: [{ name: `b${m}` }], pageInfo: { hasNextPage: true, endCursor: `c${m}` } }
    );
    assert.equal((await allBranches(endless as never, 1)).length, 50);
    const noInfo = async () => ({ items: [{ name: 'only' }] });
    assert.equal((await allBranches(noInfo as never, 1)).length, 1);
  });
});

describe('model saves: reading the build API over HTTP', () => {
  let s: TestServer;
  let build: BuildClient;
  let answer: unknown = {};
  before(async () => {
    s = await startServer((_req, res) => sendJson(res, 200, answer));
    build = new BuildClient({
      platformUrl: `${s.url}/api`,
      token: () => Promise.resolve('tok'),
      retry: { retries: 0, baseDelayMs: 1, maxDelayMs: 2 },
    });
  });
  after(async () => {
    await build.close();
    await s.close();
  });

  it('reads the hashes in both spellings, paths cleaned, entries without a hash string left out', async () => {
    answer = {
      '/model/a.yml': { hash: 'h1' },
      'model\\b.yml': 'h2',
      'c.yml': { hash: 3 },
      'd.yml': null,
      'e.yml': {},
    };
    const hashes = await build.fileHashes(4, { branchName: 'dev-ann' });
    assert.deepEqual(
      [...hashes],
      [
        ['model/a.yml', 'h1'],
        ['model/b.yml', 'h2'],
      ],
    );
    assert.equal(
      s.requests.at(-1)!.url,
      '/build/api/v1/deployments/4/data-model/file-hashes?branchName=dev-ann',
    );
  });

  it('reads a source tree sent in the deprecated "data" envelope', async () => {
    answer = { data: [{ path: 'a.yml', content: 'a' }] };
    assert.deepEqual(await build.listFiles(4, { withContent: true }), [{ path: 'a.yml', content: 'a' }]);
  });

  it('a model said invalid without readable errors still gets one line; readable ones are kept', async () => {
    answer = { valid: false, errors: [{ nope: 1 }] };
    assert.deepEqual((await build.validate(4, { branchName: 'dev-ann' })).errors, [
      { message: 'The model does not compile.', fileName: null },
    ]);
    answer = { valid: false, errors: [{ message: 'bad', fileName: 'a.yml' }, 5] };
    assert.deepEqual((await build.validate(4, { branchName: 'dev-ann' })).errors, [
      { message: 'bad', fileName: 'a.yml' },
    ]);
    answer = { valid: true, errors: [] };
    assert.deepEqual((await build.validate(4, { devMode: true })).errors, []);
  });

  it('refuses a validation that names a branch and devMode together, before sending', async () => {
    const from = s.requests.length;
    const e = await rejection(() => build.validate(4, { branchName: 'dev-ann', devMode: true }));
    assert.ok(e instanceof ApiError);
    assert.match(e.message, /name a branch or devMode, not both/);
    assert.equal(s.requests.length, from);
  });
});
