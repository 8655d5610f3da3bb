// The upload transaction: start, one multipart request per file, finish (which prunes the files
// not listed and triggers a build). `planUpload` is the hash diff that decides what is sent.
import { randomBytes } from 'node:crypto';
import { z } from 'zod';
import { callForm, table } from '../operation';
import { maybe, parseInput, type PlatformTransport } from '../transport';
import { BranchName, DEPLOYMENT } from './common';
import { contentHash, hashKindOf, type HashKind } from './hashes';

export const StartUploadResponseSchema = z.looseObject({
  transaction: z.looseObject({ id: z.string() }),
  deploymentName: z.string().optional(),
});
export const FinishUploadResponseSchema = z.looseObject({ lastHash: maybe(z.string()) });

export const FinishUploadInputSchema = z.strictObject({
  transaction: z.strictObject({ id: z.string().min(1) }),
  files: z.record(z.string(), z.strictObject({ hash: z.string() })),
  commitMessage: maybe(z.string().min(1)),
  autoRemoveFiles: maybe(z.boolean()),
  awaitGitOperations: maybe(z.boolean()),
});

const UploadFileFieldsSchema = z.strictObject({
  transaction: z.string().min(1),
  fileName: z.string().min(1),
});

export interface LocalFile {
  path: string;
  content: Uint8Array;
}

export interface UploadPlan {
  /** Files whose content differs from the branch's (or that it does not have). */
  changed: LocalFile[];
  added: string[];
  /** On the branch but not in the folder: pruned by finish when `autoRemoveFiles`. */
  removed: string[];
  unchanged: number;
  /** path -> hash of every local file, in the server's hash kind where it could be told. */
  manifest: Record<string, { hash: string }>;
}

/**
 * The hash diff of a folder against the branch's file hashes. The documents do not say which
 * digest the server uses, so a file counts as unchanged when any of the usual ones (SHA-256,
 * SHA-1, MD5, git blob id) equals the server's; the kind that matched names the manifest's hashes.
 */
export function planUpload(local: readonly LocalFile[], remote: ReadonlyMap<string, string>): UploadPlan {
  let kind: HashKind | undefined;
  const changed: LocalFile[] = [];
  const added: string[] = [];
  let unchanged = 0;
  const localPaths = new Set<string>();
  for (const f of local) {
    localPaths.add(f.path);
    const theirs = remote.get(f.path);
    const match = theirs === undefined ? undefined : hashKindOf(f.content, theirs);
    if (match) {
      kind ??= match;
      unchanged++;
    } else {
      changed.push(f);
      if (theirs === undefined) added.push(f.path);
    }
  }
  const manifest: Record<string, { hash: string }> = {};
  for (const f of local) {
    const theirs = remote.get(f.path);
    const same = !changed.includes(f) && theirs !== undefined;
    manifest[f.path] = { hash: same ? theirs : contentHash(kind ?? 'sha256', f.content) };
  }
  const removed = [...remote.keys()].filter((p) => !localPaths.has(p)).sort();
  return { changed, added, removed, unchanged, manifest };
}

/** Where an upload goes: `branchName`, else with `live` the caller's dev branch, else the deploy branch. */
const UploadQuery = z.object({
  branchName: BranchName.optional(),
  live: z.boolean().optional(),
  useDeployProjectRoot: z.boolean().optional(),
});

const again = (what: string) => `Nothing changes until the upload is finished; ${what}.`;

export const UPLOAD = table(
  {},
  {
    startUpload: {
      method: 'POST',
      path: `${DEPLOYMENT}/data-model/upload/start`,
      query: UploadQuery,
      answer: StartUploadResponseSchema,
      action: 'Starting the upload',
      check: again('start it again'),
    },
    finishUpload: {
      method: 'POST',
      path: `${DEPLOYMENT}/data-model/upload/finish`,
      body: FinishUploadInputSchema,
      query: UploadQuery,
      answer: FinishUploadResponseSchema,
      refused: 'Upload not finished',
      action: 'Finishing the upload',
      check:
        'Compare the folder with the branch again (Upload Data Model from Folder…): it lists what still differs.',
    },
  },
);

/** The file of a transaction: a multipart form, so it is sent by `uploadFile` rather than derived. */
const FORM = table(
  {},
  {
    uploadFile: {
      method: 'POST',
      path: `${DEPLOYMENT}/data-model/upload/file`,
      query: UploadQuery,
      answer: z.unknown(),
      refused: 'File not uploaded',
      action: (f: { fileName: string }) => `Uploading ${f.fileName}`,
      check: again('run the upload again'),
    },
  },
);

/** A multipart/form-data body: the text fields, then the file. */
export function multipartBody(
  fields: Record<string, string>,
  file: { name: string; content: Uint8Array },
): { body: Uint8Array; contentType: string } {
  const boundary = `----dp${randomBytes(12).toString('hex')}`;
  const enc = new TextEncoder();
  const parts: Uint8Array[] = [];
  const quote = (s: string) => s.replace(/["\r\n]/g, (c) => encodeURIComponent(c));
  for (const [k, v] of Object.entries(fields)) {
    parts.push(
      enc.encode(`--${boundary}\r\nContent-Disposition: form-data; name="${quote(k)}"\r\n\r\n${v}\r\n`),
    );
  }
  parts.push(
    enc.encode(
      `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="${quote(file.name)}"\r\nContent-Type: application/octet-stream\r\n\r\n`,
    ),
    file.content,
    enc.encode(`\r\n--${boundary}--\r\n`),
  );
  return { body: Buffer.concat(parts), contentType: `multipart/form-data; boundary=${boundary}` };
}

export function uploadFile(
  t: PlatformTransport,
  deploymentId: number,
  transaction: string,
  file: LocalFile,
  opts: { branchName?: string; signal?: AbortSignal } = {},
) {
  const fields = parseInput(
    UploadFileFieldsSchema,
    { transaction, fileName: file.path },
    'File not uploaded',
  );
  const form = { fields, ...multipartBody(fields, { name: file.path, content: file.content }) };
  const query = opts.branchName === undefined ? {} : { branchName: opts.branchName };
  return callForm(t, FORM.uploadFile, form, deploymentId, query, opts.signal);
}
