// The build API's content hashes (`GET …/data-model/file-hashes`, and `hash` on source-tree items).
// The published documents call them "content hashes" without naming the digest, so the kind is
// recognised from a file whose content and hash the server gave together: SHA-256, SHA-1, MD5 or
// a git blob id over the file's UTF-8 bytes. Once known, the hash of bytes we send is computed
// here, so a save's base never depends on a second read that another user's write could overtake.
import { createHash } from 'node:crypto';

export type HashKind = 'sha256' | 'sha1' | 'md5' | 'gitBlob';
export const HASH_KINDS: readonly HashKind[] = ['sha256', 'sha1', 'md5', 'gitBlob'];

export function contentHash(kind: HashKind, content: Uint8Array): string {
  if (kind === 'gitBlob') {
    return createHash('sha1').update(`blob ${content.byteLength}\0`).update(content).digest('hex');
  }
  return createHash(kind).update(content).digest('hex');
}

/** The digest `hash` was made with over `content`, if it is one of the usual ones. */
export function hashKindOf(content: Uint8Array, hash: string): HashKind | undefined {
  const h = hash.trim().toLowerCase();
  return HASH_KINDS.find((k) => contentHash(k, content) === h);
}
