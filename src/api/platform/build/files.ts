// Data-model files of a branch: the source tree (read tolerantly: the published item is an open
// object, so the common spellings of path, name, content and children are all read), content
// hashes, create/overwrite, rename, delete, and validate.
import { z } from 'zod';
import { maybe, parseInput, type PlatformTransport } from '../transport';
import { BranchName, deploymentPath, WriteResponseSchema } from './common';

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

export async function listFiles(
  t: PlatformTransport,
  deploymentId: number,
  opts: { branchName?: string; withContent?: boolean; signal?: AbortSignal } = {},
): Promise<ModelFile[]> {
  const query: Record<string, string | boolean> = {};
  if (opts.withContent !== undefined) query.withContent = opts.withContent;
  if (opts.branchName !== undefined) query.branchName = parseInput(BranchName, opts.branchName, 'branch');
  const env = await t.get(`${deploymentPath(deploymentId)}/data-model/files`, TreeEnvelopeSchema, {
    query,
    signal: opts.signal,
  });
  return flattenTree(env.items ?? env.data ?? []);
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

export async function fileHashes(
  t: PlatformTransport,
  deploymentId: number,
  opts: { branchName?: string; signal?: AbortSignal } = {},
): Promise<Map<string, string>> {
  const query: Record<string, string> = {};
  if (opts.branchName !== undefined) query.branchName = parseInput(BranchName, opts.branchName, 'branch');
  return t.get(`${deploymentPath(deploymentId)}/data-model/file-hashes`, HashesSchema, {
    query,
    signal: opts.signal,
  });
}

const FilePath = z.string().min(1);
const branchFields = { branchName: BranchName.optional(), branchId: z.number().int().optional() };
export const UpdateFilesInputSchema = z.strictObject({
  ...branchFields,
  files: z.array(z.strictObject({ path: FilePath, content: z.string() })).min(1),
});
export const RemoveFilesInputSchema = z.strictObject({
  ...branchFields,
  files: z.array(z.strictObject({ path: FilePath })).min(1),
});
export const RenameFilesInputSchema = z.strictObject({
  ...branchFields,
  files: z.array(z.strictObject({ path: FilePath, newPath: FilePath })).min(1),
});

const check = (hint: string) => ({ hint });

export function updateFiles(
  t: PlatformTransport,
  deploymentId: number,
  input: z.input<typeof UpdateFilesInputSchema>,
  signal?: AbortSignal,
) {
  const body = parseInput(UpdateFilesInputSchema, input, 'Files not saved');
  return t.write('PUT', `${deploymentPath(deploymentId)}/data-model/files`, body, WriteResponseSchema, {
    signal,
    action: `Saving ${body.files.map((f) => f.path).join(', ')}`,
    check: check('Reopen the file from the server to see whether the change was saved.'),
  });
}

export function removeFiles(
  t: PlatformTransport,
  deploymentId: number,
  input: z.input<typeof RemoveFilesInputSchema>,
  signal?: AbortSignal,
) {
  const body = parseInput(RemoveFilesInputSchema, input, 'Files not deleted');
  return t.write('DELETE', `${deploymentPath(deploymentId)}/data-model/files`, body, WriteResponseSchema, {
    signal,
    action: `Deleting ${body.files.map((f) => f.path).join(', ')}`,
    check: check('Refresh the model folder to see whether the files are gone.'),
  });
}

export function renameFiles(
  t: PlatformTransport,
  deploymentId: number,
  input: z.input<typeof RenameFilesInputSchema>,
  signal?: AbortSignal,
) {
  const body = parseInput(RenameFilesInputSchema, input, 'Files not renamed');
  return t.write(
    'POST',
    `${deploymentPath(deploymentId)}/data-model/files/rename`,
    body,
    WriteResponseSchema,
    {
      signal,
      action: `Renaming ${body.files.map((f) => f.path).join(', ')}`,
      check: check('Refresh the model folder to see which names the files have now.'),
    },
  );
}

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

/** Compiles the branch's model; a broken model is a result (`valid: false`), not an error. */
export async function validate(
  t: PlatformTransport,
  deploymentId: number,
  opts: { branchName?: string; devMode?: boolean; signal?: AbortSignal } = {},
): Promise<Validation> {
  const query: Record<string, string | boolean> = {};
  if (opts.branchName !== undefined) query.branchName = parseInput(BranchName, opts.branchName, 'branch');
  else if (opts.devMode) query.devMode = true;
  const v = await t.get(`${deploymentPath(deploymentId)}/data-model/validate`, ValidationSchema, {
    query,
    signal: opts.signal,
  });
  const errors = v.errors.flatMap((e) => {
    const r = ValidationErrorSchema.safeParse(e);
    return r.success ? [{ message: r.data.message, fileName: r.data.fileName }] : [];
  });
  // A model said invalid with no readable error still needs one line to show.
  if (!v.valid && errors.length === 0)
    errors.push({ message: 'The model does not compile.', fileName: null });
  return { valid: v.valid, branchName: v.branchName, mode: v.mode, cubesCount: v.cubesCount, errors };
}
