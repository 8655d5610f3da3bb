// Three-way merges of file sets (path → content), as git merges a branch: a file changed on one
// side only takes that side; changed the same way on both is fine; changed differently is a
// conflict. Deletions are changes too.
import { createHash } from 'node:crypto';

export type Files = Map<string, string>;

/** The content hash the build API reports per file (SHA-1 of the UTF-8 content, hex). */
export const fileHash = (content: string) => createHash('sha1').update(content, 'utf8').digest('hex');

/** A stable key of a whole file set (for the compile cache and commit hashes). */
export function filesKey(files: Files): string {
  const h = createHash('sha1');
  for (const path of [...files.keys()].sort()) h.update(`${path}\0${fileHash(files.get(path)!)}\0`);
  return h.digest('hex');
}

export function sameFiles(a: Files, b: Files): boolean {
  if (a.size !== b.size) return false;
  for (const [k, v] of a) if (b.get(k) !== v) return false;
  return true;
}

/** Merges `theirs` into `ours` from their common `base`; the paths in conflict when it cannot. */
export function merge3(base: Files, ours: Files, theirs: Files): { files: Files; conflicts: string[] } {
  const out: Files = new Map(ours);
  const conflicts: string[] = [];
  for (const path of new Set([...base.keys(), ...ours.keys(), ...theirs.keys()])) {
    const b = base.get(path);
    const o = ours.get(path);
    const t = theirs.get(path);
    if (t === b || t === o) continue; // they did not change it, or changed it as we did
    if (o === b) {
      if (t === undefined) out.delete(path);
      else out.set(path, t);
      continue;
    }
    conflicts.push(path);
  }
  return { files: out, conflicts: conflicts.sort() };
}

/** The paths whose content differs between two file sets. */
export function changedPaths(a: Files, b: Files): string[] {
  return [...new Set([...a.keys(), ...b.keys()])].filter((p) => a.get(p) !== b.get(p)).sort();
}
