// The sandbox's saved state: one JSON file (in the extension's global storage, or --state for the
// CLI) that a sandbox loads when it starts and writes after changes, so a restart of the extension
// host, a window reload or a new window finds what the user did. Runs where the sandbox runs (its
// worker thread in the extension), so its synchronous file work never stalls the editor.
//
// - Written atomically (a temporary file renamed over the old one), debounced, and only when the
//   data changed; flushed when the sandbox closes.
// - Versioned. A file that cannot be read (not JSON, another format, a newer version, data that
//   does not fit) is renamed aside, never replaced, and reported; the sandbox then starts from
//   its sample data.
// - Several windows share the file: before each request a sandbox checks whether another one saved
//   since, and takes that in (a three-way merge when both changed something, see merge3). A
//   removed file (Reset Sandbox Data in another window) puts the sandbox back to its sample data.
import * as fs from 'node:fs';
import * as path from 'node:path';
import { threadId } from 'node:worker_threads';
import type { ApiLogger } from '../api/log';
import { encode, merge3, restoreInto, same, shapeOf, type CodecOptions, type Json } from './persistence';

export const STATE_FORMAT = 'dashboard-platform-sandbox-state';
export const STATE_VERSION = 1;

export interface StateFileOptions {
  file: string;
  logger?: ApiLogger;
  /** Quiet time after a change before saving (default 250 ms). */
  debounceMs?: number;
  /** Longest a change waits while changes keep coming (default 1000 ms). */
  maxWaitMs?: number;
}

/** What a start found, for the host to tell the user. */
export interface StateFileStatus {
  file: string;
  /** A saved state was loaded. */
  restored: boolean;
  savedAt?: string;
  /** The file could not be read: where it was kept and why (the sandbox started from its sample data). */
  keptAside?: { file: string; reason: string };
}

interface Saved {
  format: typeof STATE_FORMAT;
  version: number;
  savedAt: string;
  shape: string[];
  roots: { [k: string]: Json };
}

interface FileId {
  ino: number;
  size: number;
  mtimeMs: number;
}

const sameFile = (a: FileId | undefined, b: FileId | undefined) =>
  a !== undefined && b !== undefined && a.ino === b.ino && a.size === b.size && a.mtimeMs === b.mtimeMs;

class Unreadable extends Error {}

export class StateFile {
  readonly file: string;
  private readonly logger: ApiLogger | undefined;
  private readonly debounceMs: number;
  private readonly maxWaitMs: number;
  /** The sample data as it was before anything was loaded (what a reset goes back to). */
  private baseline: { [k: string]: Json } = {};
  private shape: string[] = [];
  /** The saved data this sandbox last read or wrote (the common base of a three-way merge). */
  private base: { [k: string]: Json } = {};
  /** The text of `base`, to skip writes that would change nothing. */
  private baseText = '';
  /** The file as last read or written by this sandbox; undefined when there was none. */
  private seen: FileId | undefined;
  private timer: NodeJS.Timeout | undefined;
  private firstTouch: number | undefined;
  private settle: NodeJS.Timeout | undefined;
  private lastWriteError: string | undefined;
  private closed = false;

  constructor(
    opts: StateFileOptions,
    /** The live state's parts by name (each merged in place on restore). */
    private readonly roots: () => Record<string, unknown>,
    private readonly codec: CodecOptions = {},
    /** Called after saved data was merged into the live state (to put back what belongs to this run). */
    private readonly afterRestore: () => void = () => undefined,
  ) {
    this.file = path.resolve(opts.file);
    this.logger = opts.logger;
    this.debounceMs = opts.debounceMs ?? 250;
    this.maxWaitMs = opts.maxWaitMs ?? 1000;
  }

  /** Loads the file into the live state (call once, after the sample data is made). */
  open(): StateFileStatus {
    const live = this.roots();
    this.baseline = encode(live, this.codec) as { [k: string]: Json };
    this.shape = shapeOf(live, this.codec);
    this.setBase(this.baseline);
    const status: StateFileStatus = { file: this.file, restored: false };
    let saved: Saved | undefined;
    let id: FileId | undefined;
    try {
      [saved, id] = this.read() ?? [];
      if (!saved) return status;
      this.apply(saved.roots, saved.shape);
    } catch (e) {
      status.keptAside = this.keepAside(e);
      return status;
    }
    this.setBase(saved.roots);
    this.seen = id;
    status.restored = true;
    status.savedAt = saved.savedAt;
    this.logger?.info(`Sandbox data restored from ${this.file} (saved ${saved.savedAt})`);
    return status;
  }

  /** Something may have changed: save soon. */
  touch(): void {
    if (this.closed) return;
    const now = Date.now();
    this.firstTouch ??= now;
    clearTimeout(this.timer);
    const wait = Math.max(0, Math.min(this.debounceMs, this.firstTouch + this.maxWaitMs - now));
    this.timer = setTimeout(() => this.save(), wait);
    this.timer.unref?.();
  }

  /**
   * Takes in what another sandbox saved since this one last read or wrote the file (call before
   * serving a request, so a request sees the other window's changes).
   */
  sync(): void {
    if (this.closed) return;
    let id: FileId | undefined;
    try {
      id = this.stat();
    } catch (e) {
      this.logger?.warn(`Sandbox data: cannot check ${this.file}: ${(e as Error).message}`);
      return;
    }
    if (id === undefined) {
      if (this.seen === undefined) return;
      // The file went away after this sandbox had read or written it: a reset elsewhere.
      this.seen = undefined;
      this.resetLive();
      this.logger?.info(`Sandbox data was reset (${this.file} was removed): back to the sample data.`);
      return;
    }
    if (sameFile(id, this.seen)) return;
    let saved: Saved;
    try {
      const read = this.read();
      if (!read) return;
      [saved, id] = read;
    } catch (e) {
      this.keepAside(e);
      this.seen = undefined;
      this.touch();
      return;
    }
    const ours = encode(this.roots(), this.codec) as { [k: string]: Json };
    const conflicts: string[] = [];
    const merged = same(ours, this.base)
      ? saved.roots
      : (merge3(this.base, ours, saved.roots, conflicts) as { [k: string]: Json });
    try {
      this.apply(merged, saved.shape);
    } catch (e) {
      this.logger?.error(
        `Sandbox data: what another window saved does not fit (${(e as Error).message}); keeping this window's data.`,
      );
      this.restoreLive(ours, this.shape);
      this.seen = id;
      this.touch();
      return;
    }
    if (conflicts.length)
      this.logger?.warn(
        `Sandbox data: this window and another changed the same things; this window's version kept for ${conflicts.slice(0, 5).join(', ')}${conflicts.length > 5 ? ` and ${conflicts.length - 5} more` : ''}.`,
      );
    this.setBase(saved.roots);
    this.seen = id;
    if (!same(merged, saved.roots)) this.touch();
  }

  /** Writes the state now if it changed since it was last read or written. */
  save(): void {
    clearTimeout(this.timer);
    this.timer = undefined;
    this.firstTouch = undefined;
    this.sync();
    const roots = encode(this.roots(), this.codec) as { [k: string]: Json };
    const rootsText = JSON.stringify(roots);
    if (rootsText === this.baseText && this.seen !== undefined) return;
    if (rootsText === this.baseText && same(roots, this.baseline)) return; // nothing to keep yet
    const savedAt = new Date().toISOString();
    const text = `{"format":${JSON.stringify(STATE_FORMAT)},"version":${STATE_VERSION},"savedAt":${JSON.stringify(savedAt)},"writer":${JSON.stringify({ pid: process.pid, thread: threadId })},"shape":${JSON.stringify(this.shape)},"roots":${rootsText}}\n`;
    const tmp = `${this.file}.${process.pid}-${threadId}.tmp`;
    try {
      fs.mkdirSync(path.dirname(this.file), { recursive: true });
      const fd = fs.openSync(tmp, 'w', 0o600);
      try {
        fs.writeFileSync(fd, text);
        fs.fsyncSync(fd);
      } finally {
        fs.closeSync(fd);
      }
      fs.renameSync(tmp, this.file);
      this.seen = this.stat();
      this.setBase(roots, rootsText);
      this.lastWriteError = undefined;
    } catch (e) {
      fs.rmSync(tmp, { force: true });
      const message = (e as Error).message;
      // Said once per distinct failure; the next change tries again.
      if (message !== this.lastWriteError)
        this.logger?.error(`Sandbox data could not be saved to ${this.file}: ${message}`);
      this.lastWriteError = message;
      return;
    }
    // Work that goes on after a request (a chat turn finishing) changes the state later: look again
    // once things have settled.
    clearTimeout(this.settle);
    this.settle = setTimeout(() => {
      if (!this.timer) this.save();
    }, 2_000);
    this.settle.unref?.();
  }

  /** Saves what is pending and stops. */
  close(): void {
    if (this.closed) return;
    clearTimeout(this.settle);
    this.save();
    clearTimeout(this.timer);
    this.closed = true;
  }

  /** What this sandbox last read or wrote (the base of the next merge and of "changed?"). */
  private setBase(roots: { [k: string]: Json }, text = JSON.stringify(roots)): void {
    this.base = roots;
    this.baseText = text;
  }

  private stat(): FileId | undefined {
    try {
      const s = fs.statSync(this.file);
      return { ino: s.ino, size: s.size, mtimeMs: s.mtimeMs };
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
      throw e;
    }
  }

  /** The file's content, checked; undefined when there is no file. Throws Unreadable. */
  private read(): [Saved, FileId] | undefined {
    let text: string;
    let id: FileId | undefined;
    try {
      id = this.stat();
      if (!id) return undefined;
      text = fs.readFileSync(this.file, 'utf8');
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
      throw new Unreadable(`it cannot be read: ${(e as Error).message}`);
    }
    let saved: unknown;
    try {
      saved = JSON.parse(text);
    } catch (e) {
      throw new Unreadable(`it is not JSON (${(e as Error).message})`);
    }
    const s = saved as Partial<Saved> | null;
    if (typeof s !== 'object' || s === null || s.format !== STATE_FORMAT)
      throw new Unreadable(`it is not a saved sandbox state (no "format": "${STATE_FORMAT}")`);
    if (typeof s.version !== 'number' || !Number.isInteger(s.version) || s.version < 1)
      throw new Unreadable(`its version is not a positive whole number (${JSON.stringify(s.version)})`);
    if (s.version > STATE_VERSION)
      throw new Unreadable(
        `it was saved by a newer version of the extension (state version ${s.version}; this one reads up to ${STATE_VERSION})`,
      );
    if (typeof s.roots !== 'object' || s.roots === null || Array.isArray(s.roots))
      throw new Unreadable('it has no "roots" object');
    if (!Array.isArray(s.shape) || !s.shape.every((x) => typeof x === 'string'))
      throw new Unreadable('it has no "shape" list');
    return [
      {
        format: STATE_FORMAT,
        version: s.version,
        savedAt: typeof s.savedAt === 'string' ? s.savedAt : 'at an unknown time',
        shape: s.shape,
        roots: s.roots,
      },
      id,
    ];
  }

  /** Merges saved data into the live state; on failure puts the sample data back and throws Unreadable. */
  private apply(roots: { [k: string]: Json }, shape: readonly string[]): void {
    try {
      restoreInto(this.roots(), roots, { ...this.codec, shape });
    } catch (e) {
      this.resetLive();
      throw new Unreadable(`its data does not fit the sandbox: ${(e as Error).message}`);
    } finally {
      this.afterRestore();
    }
  }

  private restoreLive(roots: { [k: string]: Json }, shape?: readonly string[]): void {
    restoreInto(this.roots(), roots, { ...this.codec, shape });
    this.afterRestore();
  }

  private resetLive(): void {
    // Exact (no shape): every field the sample data does not have goes.
    this.restoreLive(this.baseline);
    this.setBase(this.baseline);
  }

  /** Renames the unreadable file aside (never replaced) and says so. */
  private keepAside(e: unknown): { file: string; reason: string } {
    const reason = e instanceof Unreadable ? e.message : `it could not be loaded: ${(e as Error).message}`;
    const stamp = new Date().toISOString().replace(/[:.]/g, '-');
    const ext = path.extname(this.file);
    const aside = `${this.file.slice(0, this.file.length - ext.length)}.unreadable-${stamp}${ext}`;
    try {
      fs.renameSync(this.file, aside);
    } catch (err) {
      const why = `${reason}; it could not be renamed aside either (${(err as Error).message}), so it is left as it is and changes are not saved`;
      this.logger?.error(`Sandbox data in ${this.file} was not loaded: ${why}.`);
      this.closed = true;
      return { file: this.file, reason: why };
    }
    this.logger?.warn(
      `Sandbox data in ${this.file} was not loaded: ${reason}. It was kept as ${aside}; the sandbox starts from its sample data.`,
    );
    return { file: aside, reason };
  }
}
