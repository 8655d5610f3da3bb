// Where an agent may read and write files: inside the allowed root folders, compared by REAL path.
// A path is resolved with fs.realpath (the file when it exists, else its nearest existing parent
// plus the rest), so a symlinked file or folder that leads out of the root is refused, however the
// path is spelled; text comparison of paths is not enough (a cloned repository can carry a link).
// Every place an agent tool or the MCP server touches a file goes through resolveInside().
// vscode-free: the language model tools and the MCP server share it.
import { constants as fsConstants } from 'node:fs';
import * as fs from 'node:fs/promises';
import * as path from 'node:path';

/** A path refused because it leaves the allowed folders (the message says which and why). */
export class PathRefusedError extends Error {
  override readonly name = 'PathRefusedError';
}

export interface ResolvedPath {
  /** The real path (links resolved) that reads and writes must use. */
  real: string;
  /** The path as the user knows it, relative to its root, with '/' separators. */
  display: string;
  /** Whether the file exists (false: `real` is its nearest real parent plus the missing rest). */
  exists: boolean;
}

/** Windows and macOS compare paths case-insensitively by default. */
const FOLD = process.platform === 'win32' || process.platform === 'darwin';

/** Whether `child` is `parent` or inside it (both absolute, normalised). */
export function isInside(parent: string, child: string): boolean {
  const rel = path.relative(FOLD ? parent.toLowerCase() : parent, FOLD ? child.toLowerCase() : child);
  if (rel === '') return true;
  if (path.isAbsolute(rel)) return false;
  // '..' as the first segment leaves; a name that merely starts with '..' ("..notes") does not.
  return rel !== '..' && !rel.startsWith(`..${path.sep}`);
}

const code = (e: unknown) => (e as NodeJS.ErrnoException | undefined)?.code;

/**
 * The real path of `full`: realpath of the file, or (when it does not exist) realpath of its nearest
 * existing parent joined with the missing rest. A link whose target is missing is refused: writing
 * through it would create the target wherever it points.
 */
async function realPathOf(full: string, shown: string): Promise<{ real: string; exists: boolean }> {
  try {
    return { real: await fs.realpath(full), exists: true };
  } catch (e) {
    if (code(e) !== 'ENOENT' && code(e) !== 'ENOTDIR') throw e;
  }
  const missing: string[] = [];
  let at = full;
  for (;;) {
    const parent = path.dirname(at);
    // lstat succeeds on a dangling link (stat and realpath do not).
    const link = await fs.lstat(at).catch(() => undefined);
    if (link?.isSymbolicLink()) {
      throw new PathRefusedError(
        `${shown} is refused: it goes through a link whose target does not exist (${path.basename(at)}).`,
      );
    }
    missing.unshift(path.basename(at));
    if (parent === at) throw new PathRefusedError(`${shown} is refused: no part of the path exists.`);
    at = parent;
    try {
      return { real: path.join(await fs.realpath(at), ...missing), exists: false };
    } catch (e) {
      if (code(e) !== 'ENOENT' && code(e) !== 'ENOTDIR') throw e;
    }
  }
}

/**
 * Resolves `file` (relative to the first root, or absolute) and checks that its real path lies
 * inside the real path of one of `roots`. Throws PathRefusedError otherwise, without reading the
 * file, so nothing of an outside file reaches the caller.
 */
export async function resolveInside(roots: readonly string[], file: string): Promise<ResolvedPath> {
  if (roots.length === 0) {
    throw new PathRefusedError('Open a folder first: files are read and written inside the workspace only.');
  }
  if (file.includes('\0')) throw new PathRefusedError('The file name contains a NUL character.');
  const lexical = path.isAbsolute(file) ? path.resolve(file) : path.resolve(roots[0]!, file);
  const shown = JSON.stringify(file);
  const { real, exists } = await realPathOf(lexical, shown);
  for (const root of roots) {
    const realRoot = await fs.realpath(root).catch(() => undefined);
    if (realRoot === undefined || !isInside(realRoot, real)) continue;
    // Display the name the user gave when it is spelled inside the root; else the real one.
    const base = isInside(path.resolve(root), lexical)
      ? path.relative(root, lexical)
      : path.relative(realRoot, real);
    return { real, exists, display: base.split(path.sep).join('/') };
  }
  const viaLink = !roots.some((r) => isInside(path.resolve(r), lexical)) ? '' : ' through a link';
  throw new PathRefusedError(
    `${shown} is refused: it leads outside the folder${roots.length === 1 ? '' : 's'} agents may use${viaLink} (${roots.join(', ')}). Nothing was read or written.`,
  );
}

/**
 * Reads a file inside the roots as UTF-8 text. The path is checked first and the REAL path is read,
 * so a link swapped in afterwards cannot redirect the read to the original spelling's new target.
 */
export async function readInside(
  roots: readonly string[],
  file: string,
): Promise<{ text: string; display: string; real: string }> {
  const r = await resolveInside(roots, file);
  if (!r.exists) throw new Error(`Cannot read ${r.display}: it does not exist.`);
  const st = await fs.stat(r.real);
  if (!st.isFile()) throw new Error(`Cannot read ${r.display}: it is not a file.`);
  return { text: await fs.readFile(r.real, 'utf8'), display: r.display, real: r.real };
}

/**
 * Writes text to a file inside the roots: the path is checked again right before the write (it may
 * have changed since it was read), and the real path is written, never the link.
 */
export async function writeInside(
  roots: readonly string[],
  file: string,
  text: string,
): Promise<{ display: string; real: string }> {
  const r = await resolveInside(roots, file);
  if (r.exists && !(await fs.stat(r.real)).isFile()) {
    throw new Error(`Cannot write ${r.display}: it is not a file.`);
  }
  // O_NOFOLLOW: a link put in place of the checked file since the check is not followed either.
  const { O_WRONLY, O_TRUNC, O_CREAT, O_EXCL, O_NOFOLLOW = 0 } = fsConstants;
  const flags = r.exists ? O_WRONLY | O_TRUNC | O_NOFOLLOW : O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW;
  const handle = await fs.open(r.real, flags, 0o666);
  try {
    await handle.writeFile(text, 'utf8');
  } finally {
    await handle.close();
  }
  return { display: r.display, real: r.real };
}
