// The files of one branch as the editor holds them, and the rules of writing them back (no vscode,
// so the rules are tested against the sandbox over HTTP):
// - a write counts only when the server confirms it (`success: true`); `success: false` is a
//   refusal and a missing `success` an unknown outcome, both reported, the editor's text kept;
// - the base a later save compares with is the hash of the bytes actually sent, computed here in
//   the server's digest (recognised at load), so another user's write that lands after ours is a
//   conflict at our next save; with no recognised digest the base is the content itself;
// - text is strict UTF-8: Latin-1 or binary bytes are refused, never sent as U+FFFD; a BOM is
//   kept as sent and as read;
// - a file listed without its content cannot be opened or overwritten.
import type { BuildClient, HashKind, WriteResponse } from '../api/buildClient';
import { contentHash, hashKindOf, writeOutcome } from '../api/buildClient';
import { ApiError } from '../api/errors';

export interface BranchFile {
  /** The bytes as last confirmed by the server; undefined: it listed the file without content. */
  content?: Uint8Array;
  /** The server's hash of `content` (undefined: unknown, the content is compared instead). */
  hash?: string;
  mtime: number;
}

/** The build API calls the files need (a BuildClient, or a test's wrapper of one). */
export type FilesClient = Pick<
  BuildClient,
  'listFiles' | 'fileHashes' | 'updateFiles' | 'removeFiles' | 'renameFiles'
>;

export type FileErrorKind =
  /** The server answered `success: false`: nothing was written. */
  | 'refused'
  /** The answer did not say whether the write was applied. */
  | 'unknown'
  /** The file changed on the server since it was read, and the user did not overwrite it. */
  | 'conflict'
  /** The bytes are not UTF-8 text. */
  | 'encoding'
  /** The server listed the file without its content. */
  | 'unreadable'
  | 'notFound'
  | 'exists';

export class ModelFileError extends Error {
  override readonly name = 'ModelFileError';
  constructor(
    readonly kind: FileErrorKind,
    message: string,
  ) {
    super(message);
  }
}

/** What a save found on the server instead of the version it was based on. */
export interface Conflict {
  path: string;
  /** The server's hash now (undefined: the file is gone from the server). */
  theirs: string | undefined;
}

const utf8 = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true });
const encoder = new TextEncoder();

/** Offset of the first byte that is not part of well-formed UTF-8, or -1. */
export function invalidUtf8At(b: Uint8Array): number {
  let i = 0;
  while (i < b.length) {
    const c = b[i]!;
    let n: number;
    let min: number;
    if (c < 0x80) {
      i++;
      continue;
    } else if (c >= 0xc2 && c <= 0xdf) [n, min] = [1, 0x80];
    else if (c >= 0xe0 && c <= 0xef) [n, min] = [2, 0x800];
    else if (c >= 0xf0 && c <= 0xf4) [n, min] = [3, 0x10000];
    else return i;
    let cp = c & (0x3f >> n);
    for (let k = 1; k <= n; k++) {
      const x = b[i + k];
      if (x === undefined || (x & 0xc0) !== 0x80) return i;
      cp = (cp << 6) | (x & 0x3f);
    }
    if (cp < min || cp > 0x10ffff || (cp >= 0xd800 && cp <= 0xdfff)) return i;
    i += n + 1;
  }
  return -1;
}

/**
 * The text of a model file as the build API takes it (a JSON string): strict UTF-8, a leading BOM
 * kept as U+FEFF so the server stores the bytes the editor has. Refused: bytes that are not UTF-8
 * (Latin-1, UTF-16, binary) and NUL characters (no model file has them; UTF-16 text does).
 */
export function modelText(path: string, bytes: Uint8Array): string {
  let text: string | undefined;
  try {
    text = utf8.decode(bytes);
  } catch {
    // Not UTF-8: the scan finds where, for the message.
  }
  const nul = bytes.indexOf(0);
  if (text !== undefined && nul < 0) return text;
  const bad = text === undefined ? Math.max(0, invalidUtf8At(bytes)) : -1;
  const at = bad >= 0 ? bad : nul;
  const what =
    bad >= 0
      ? `byte 0x${bytes[bad]!.toString(16).toUpperCase().padStart(2, '0')} at offset ${at} is not UTF-8`
      : `it has a NUL byte at offset ${at}`;
  throw new ModelFileError(
    'encoding',
    `${path} was not saved: ${what} (Latin-1, UTF-16 or binary content?). The data model stores UTF-8 text only: switch the file's encoding to UTF-8 (Change File Encoding in the status bar, "Save with Encoding"), or remove the character, and save again.`,
  );
}

const sameBytes = (a: Uint8Array, b: Uint8Array) =>
  a.byteLength === b.byteLength && a.every((v, i) => v === b[i]);

export class BranchFiles {
  readonly files = new Map<string, BranchFile>();
  /** Folders the user created that hold no file yet (the server has no empty folders). */
  readonly dirs = new Set<string>();
  /** The server's digest, once recognised from a file whose content and hash it gave together. */
  hashKind: HashKind | undefined;
  /** Hashes of writes whose outcome is unknown, by path: seen on the server later, they are ours. */
  private readonly unconfirmed = new Map<string, string>();
  private loading: Promise<void> | undefined;
  /** Writes of one branch run one after another, so hashes are compared in order. */
  private queue: Promise<unknown> = Promise.resolve();

  constructor(
    readonly deploymentId: number,
    readonly branch: string,
  ) {}

  /** Reads every file with its content and the hashes (again when `refresh`). */
  load(build: () => Promise<FilesClient>, refresh = false): Promise<void> {
    if (!this.loading || refresh) {
      this.loading = (async () => {
        const client = await build();
        const [files, hashes] = await Promise.all([
          client.listFiles(this.deploymentId, { branchName: this.branch, withContent: true }),
          client.fileHashes(this.deploymentId, { branchName: this.branch }),
        ]);
        const now = Date.now();
        const before = new Map(this.files);
        const read = files.map((f) => ({
          path: f.path,
          content: typeof f.content === 'string' ? encoder.encode(f.content) : undefined,
          // The tree's own hash came with the content; the separate hash read may be newer.
          listed: f.hash,
          hash: f.hash ?? hashes.get(f.path),
        }));
        for (const f of read) {
          if (this.hashKind || !f.content || !f.hash) continue;
          this.hashKind = hashKindOf(f.content, f.hash);
        }
        this.files.clear();
        for (const f of read) {
          // The base is the hash of the content held: computed when the digest is known, else
          // the one the same answer gave with it; a hash from the other read could be newer
          // than the content, so it is not trusted as a base.
          const hash =
            f.content && this.hashKind
              ? contentHash(this.hashKind, f.content)
              : f.content
                ? f.listed
                : undefined;
          this.files.set(f.path, {
            content: f.content,
            hash,
            mtime: before.get(f.path)?.mtime ?? now,
          });
        }
        this.unconfirmed.clear();
      })();
      this.loading.catch(() => (this.loading = undefined));
    }
    return this.loading;
  }

  serial<T>(fn: () => Promise<T>): Promise<T> {
    const run = this.queue.then(fn, fn);
    this.queue = run.catch(() => undefined);
    return run;
  }

  isDir(path: string): boolean {
    if (path === '' || this.dirs.has(path)) return true;
    const prefix = `${path}/`;
    for (const p of this.files.keys()) if (p.startsWith(prefix)) return true;
    for (const d of this.dirs) if (d.startsWith(prefix)) return true;
    return false;
  }

  /** The bytes of a file; a file listed without content is an error, never an empty file. */
  read(path: string): Uint8Array {
    const file = this.files.get(path);
    if (!file) throw new ModelFileError('notFound', `${path} is not on branch "${this.branch}".`);
    if (!file.content) throw this.unreadable(path);
    return file.content;
  }

  private unreadable(path: string): ModelFileError {
    return new ModelFileError(
      'unreadable',
      `${path}: the server listed this file on branch "${this.branch}" without its content, so it cannot be shown or saved here (saving would replace what it holds, unseen). Reload the model (Pull Data Model Branch, or open the branch again) to read it again.`,
    );
  }

  private hashOf(bytes: Uint8Array): string | undefined {
    return this.hashKind ? contentHash(this.hashKind, bytes) : undefined;
  }

  /** Whether the server's copy of `path` (hash `theirs`) is still the version `known` holds. */
  private async unchanged(
    client: FilesClient,
    path: string,
    known: BranchFile,
    theirs: string,
  ): Promise<boolean> {
    if (known.hash !== undefined) return theirs === known.hash;
    // No base hash (no digest recognised): compare the content itself.
    const listed = await client.listFiles(this.deploymentId, { branchName: this.branch, withContent: true });
    const server = listed.find((f) => f.path === path);
    if (typeof server?.content !== 'string' || !known.content) return false;
    const bytes = encoder.encode(server.content);
    if (!sameBytes(bytes, known.content)) return false;
    this.hashKind ??= hashKindOf(bytes, theirs);
    return true;
  }

  /**
   * Writes a file to the server. `overwrite` is asked when the server's copy changed since it was
   * read (true: write anyway). Answers whether the file is new; throws ModelFileError (or the
   * ApiError of a failed request) when nothing is known to be saved.
   */
  async save(
    client: FilesClient,
    path: string,
    bytes: Uint8Array,
    options: { create: boolean; overwrite: boolean },
    overwrite: (c: Conflict) => Promise<boolean>,
  ): Promise<'created' | 'changed'> {
    const known = this.files.get(path);
    if (!known && !options.create)
      throw new ModelFileError('notFound', `${path} is not on branch "${this.branch}".`);
    if (known && !options.overwrite)
      throw new ModelFileError('exists', `${path} already exists on branch "${this.branch}".`);
    if (known && !known.content) throw this.unreadable(path);
    const text = modelText(path, bytes);
    const mine = this.hashOf(bytes);
    return this.serial(async () => {
      const hashes = await client.fileHashes(this.deploymentId, { branchName: this.branch });
      const theirs = hashes.get(path);
      // The server has exactly these bytes already (our own write of unknown outcome, say):
      // nothing of anyone else's would be overwritten.
      const ours = theirs !== undefined && (theirs === mine || theirs === this.unconfirmed.get(path));
      const changed = ours
        ? false
        : known
          ? theirs === undefined || !(await this.unchanged(client, path, known, theirs))
          : theirs !== undefined;
      if (changed && !(await overwrite({ path, theirs }))) {
        throw new ModelFileError(
          'conflict',
          `${path} changed on the server since it was opened; not saved. Compare the two versions in the diff, then save again (or choose Overwrite).`,
        );
      }
      const answer = await this.confirmed(path, mine, () =>
        client.updateFiles(this.deploymentId, { branchName: this.branch, files: [{ path, content: text }] }),
      );
      this.check(answer, `${path} was not saved`, `whether ${path} was saved`);
      this.unconfirmed.delete(path);
      // The base of the next save: the hash of what was sent (not a later read, which another
      // user's write could have overtaken); unknown digest: the content itself.
      // A copy: the caller's buffer is not ours to keep.
      this.files.set(path, { content: bytes.slice(), hash: mine, mtime: Date.now() });
      this.dirs.delete(path);
      return known ? 'changed' : 'created';
    });
  }

  /** Runs a write; an unknown outcome remembers the hash sent, so the next save knows it as ours. */
  private async confirmed(
    path: string,
    mine: string | undefined,
    write: () => Promise<WriteResponse>,
  ): Promise<WriteResponse> {
    try {
      const r = await write();
      if (writeOutcome(r) === 'unknown' && mine) this.unconfirmed.set(path, mine);
      return r;
    } catch (e) {
      if (e instanceof ApiError && e.kind === 'unknownOutcome' && mine) this.unconfirmed.set(path, mine);
      throw e;
    }
  }

  /** Throws unless the answer confirms the write. */
  private check(r: WriteResponse, refused: string, unknown: string): void {
    const outcome = writeOutcome(r);
    if (outcome === 'refused') {
      throw new ModelFileError(
        'refused',
        `${refused}: the server answered "success: false" (branch "${this.branch}"). Your text is still in the editor; try again, and if it keeps failing, check the branch (is it still there, is it writable?).`,
      );
    }
    if (outcome === 'unknown') {
      throw new ModelFileError(
        'unknown',
        `The server answered without saying ${unknown} (branch "${this.branch}"); the outcome is unknown. Your text is still in the editor: save again to compare with what the server has now.`,
      );
    }
  }

  /** Deletes a file or every file under a folder; answers the paths deleted. */
  async remove(client: FilesClient, path: string): Promise<string[]> {
    const paths = this.files.has(path)
      ? [path]
      : [...this.files.keys()].filter((p) => p.startsWith(`${path}/`));
    if (paths.length > 0) {
      await this.serial(async () => {
        const files = paths.map((p) => ({ path: p }));
        const r = await client.removeFiles(this.deploymentId, { branchName: this.branch, files });
        this.check(r, `${path} was not deleted`, `whether ${path} was deleted`);
        for (const p of paths) this.files.delete(p);
      });
    }
    for (const d of [...this.dirs]) if (d === path || d.startsWith(`${path}/`)) this.dirs.delete(d);
    return paths;
  }

  /** Renames a file or a folder's files. */
  async rename(client: FilesClient, from: string, to: string, overwrite: boolean): Promise<void> {
    if (!overwrite && (this.files.has(to) || (this.isDir(to) && to !== '')))
      throw new ModelFileError('exists', `${to} already exists on branch "${this.branch}".`);
    const moves = this.files.has(from)
      ? [{ path: from, newPath: to }]
      : [...this.files.keys()]
          .filter((p) => p.startsWith(`${from}/`))
          .map((p) => ({ path: p, newPath: `${to}${p.slice(from.length)}` }));
    if (moves.length === 0) return;
    await this.serial(async () => {
      const r = await client.renameFiles(this.deploymentId, { branchName: this.branch, files: moves });
      this.check(r, `${from} was not renamed`, `whether ${from} was renamed`);
      for (const m of moves) {
        const f = this.files.get(m.path);
        this.files.delete(m.path);
        if (f) this.files.set(m.newPath, f);
      }
    });
  }
}
