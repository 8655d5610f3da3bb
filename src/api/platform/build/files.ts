// Data-model files of a branch: the source tree (read tolerantly: the published item is an open
// object, so the common spellings of path, name, content and children are all read, and the tree
// is answered flattened to files), content hashes, create/overwrite, rename, delete, and validate
// (a broken model is a result, not an error).
import { z } from 'zod';
import { table } from '../operation';
import { maybe, PageQuery } from '../transport';
import { BranchFields, BranchName, DEPLOYMENT, WriteResponseSchema } from './common';

export interface ModelFile {
  /** Project-relative path with forward slashes (`model/cubes/orders.yml`). */
  path: string;
  content?: string;
  hash?: string;
}

const TreeEnvelopeSchema = z.looseObject({
  items: z.array(z.unknown()).optional(),
  data: z.array(z.unknown()).optional(),
});

const str = (v: unknown): string | undefined => (typeof v === 'string' && v !== '' ? v : undefined);
const join = (dir: string, name: string) => (dir ? `${dir.replace(/\/+$/, '')}/${name}` : name);
const clean = (p: string) => p.replace(/\\/g, '/').replace(/^\/+/, '');

/** Flattens source-tree nodes into files; nodes without a usable name are skipped, not fatal. */
export function flattenTree(nodes: readonly unknown[], dir = '', out: ModelFile[] = []): ModelFile[] {
  for (const node of nodes) {
    if (!node || typeof node !== 'object') continue;
    const n = node as Record<string, unknown>;
    const name = str(n.name) ?? str(n.fileName);
    const path = clean(str(n.path) ?? str(n.fileName) ?? (name ? join(dir, name) : ''));
    const children = [n.children, n.files, n.items].find(Array.isArray) as unknown[] | undefined;
    const type = str(n.type)?.toLowerCase();
    const isDir =
      type === 'directory' || type === 'dir' || type === 'folder' || (children && type !== 'file');
    if (isDir) {
      flattenTree(children ?? [], path, out);
      continue;
    }
    if (!path) continue;
    const file: ModelFile = { path };
    if (typeof n.content === 'string') file.content = n.content;
    const hash = str(n.hash) ?? str(n.sha);
    if (hash) file.hash = hash;
    out.push(file);
  }
  return out;
}

/** `{path: {hash}}`; an entry without a hash string is left out (and so counts as changed). */
const HashesSchema = z.record(z.string(), z.unknown()).transform((m) => {
  const out = new Map<string, string>();
  for (const [k, v] of Object.entries(m)) {
    const h = typeof v === 'string' ? v : (v as { hash?: unknown } | null)?.hash;
    if (typeof h === 'string') out.set(clean(k), h);
  }
  return out;
});

const FilePath = z.string().min(1);
export const UpdateFilesInputSchema = z.strictObject({
  ...BranchFields,
  files: z.array(z.strictObject({ path: FilePath, content: z.string() })).min(1),
});
export const RemoveFilesInputSchema = z.strictObject({
  ...BranchFields,
  files: z.array(z.strictObject({ path: FilePath })).min(1),
});
export const RenameFilesInputSchema = z.strictObject({
  ...BranchFields,
  files: z.array(z.strictObject({ path: FilePath, newPath: FilePath })).min(1),
});

export const ValidationErrorSchema = z.looseObject({ message: z.string(), fileName: maybe(z.string()) });

export const ValidationSchema = z.looseObject({
  deploymentId: z.number().optional(),
  branchName: z.string().optional(),
  /** `production` or `dev_mode`; an unknown mode is kept as sent. */
  mode: z.string().optional(),
  valid: z.boolean(),
  cubesCount: maybe(z.number()),
  errors: z.array(z.unknown()).default([]),
});

export interface Validation {
  valid: boolean;
  branchName?: string;
  mode?: string;
  cubesCount?: number | null;
  errors: { message: string; fileName?: string | null }[];
}

/** `valid: false` with every readable error; a model said invalid with none still gets one line. */
function validation(v: z.output<typeof ValidationSchema>): Validation {
  const errors = v.errors.flatMap((e) => {
    const r = ValidationErrorSchema.safeParse(e);
    return r.success ? [{ message: r.data.message, fileName: r.data.fileName }] : [];
  });
  if (!v.valid && errors.length === 0)
    errors.push({ message: 'The model does not compile.', fileName: null });
  return { valid: v.valid, branchName: v.branchName, mode: v.mode, cubesCount: v.cubesCount, errors };
}

const paths = (b: { files: { path: string }[] }) => b.files.map((f) => f.path).join(', ');
type Files = { files: { path: string }[] };
/** The query of reads that name a branch (else the deploy branch, or with `live` the caller's). */
const BranchQuery = z.object({
  branchName: BranchName.optional(),
  live: z.boolean().optional(),
  useDeployProjectRoot: z.boolean().optional(),
});

export const FILES = table(
  {},
  {
    /** The branch's source tree, flattened to files (`withContent` to have their text). */
    listFiles: {
      method: 'GET',
      path: `${DEPLOYMENT}/data-model/files`,
      query: PageQuery.extend({
        branchName: BranchName.optional(),
        withContent: z.boolean().optional(),
        showLastCLIUpload: z.boolean().optional(),
      }),
      answer: TreeEnvelopeSchema.transform((env) => flattenTree(env.items ?? env.data ?? [])),
      refused: 'Files not listed',
    },
    /** path -> content hash of every file of the branch. */
    fileHashes: {
      method: 'GET',
      path: `${DEPLOYMENT}/data-model/file-hashes`,
      query: BranchQuery,
      answer: HashesSchema,
      refused: 'File hashes not read',
    },
    updateFiles: {
      method: 'PUT',
      path: `${DEPLOYMENT}/data-model/files`,
      body: UpdateFilesInputSchema,
      answer: WriteResponseSchema,
      refused: 'Files not saved',
      action: (b: Files) => `Saving ${paths(b)}`,
      check: 'Reopen the file from the server to see whether the change was saved.',
    },
    removeFiles: {
      method: 'DELETE',
      path: `${DEPLOYMENT}/data-model/files`,
      body: RemoveFilesInputSchema,
      answer: WriteResponseSchema,
      refused: 'Files not deleted',
      action: (b: Files) => `Deleting ${paths(b)}`,
      check: 'Refresh the model folder to see whether the files are gone.',
    },
    renameFiles: {
      method: 'POST',
      path: `${DEPLOYMENT}/data-model/files/rename`,
      body: RenameFilesInputSchema,
      answer: WriteResponseSchema,
      refused: 'Files not renamed',
      action: (b: Files) => `Renaming ${paths(b)}`,
      check: 'Refresh the model folder to see which names the files have now.',
    },
    /** Compiles a branch's model: `branchName`, or `devMode` for the caller's dev branch (not both). */
    validate: {
      method: 'GET',
      path: `${DEPLOYMENT}/data-model/validate`,
      query: z
        .object({ branchName: BranchName.optional(), devMode: z.boolean().optional() })
        .refine((q) => !(q.branchName !== undefined && q.devMode), 'name a branch or devMode, not both'),
      answer: ValidationSchema.transform(validation),
      refused: 'Model not validated',
    },
  },
);
