// Data-model files of a branch: the source tree (paged by top-level node), create/overwrite,
// rename, delete, content hashes, and validate (compile, errors with file and line).
import type {
  RemoveFilesInputSchema,
  RenameFilesInputSchema,
  UpdateFilesInputSchema,
} from '../../api/platform/build/files';
import type { RequestContext, Router } from '../http';
import { sendPage } from '../platform/common';
import { bodyOf, branchOf, checkPath, queryBool, repoRoutes } from './common';
import { fileHash, type Files } from './merge';
import type { BuildService } from './service';
import { BuildError, errorLine, type DeploymentRepo } from './store';

interface TreeNode {
  name: string;
  path: string;
  type: 'directory' | 'file';
  children?: TreeNode[];
  hash?: string;
  size?: number;
  content?: string;
}

/** The files as a tree: directories first, then files, each by name. */
export function sourceTree(files: Files, withContent: boolean): TreeNode[] {
  const root: TreeNode = { name: '', path: '', type: 'directory', children: [] };
  for (const [path, content] of files) {
    const parts = path.split('/');
    let dir = root;
    parts.slice(0, -1).forEach((name, i) => {
      const p = parts.slice(0, i + 1).join('/');
      let next = dir.children!.find((c) => c.type === 'directory' && c.name === name);
      if (!next) dir.children!.push((next = { name, path: p, type: 'directory', children: [] }));
      dir = next;
    });
    dir.children!.push({
      name: parts[parts.length - 1]!,
      path,
      type: 'file',
      hash: fileHash(content),
      size: Buffer.byteLength(content),
      ...(withContent ? { content } : {}),
    });
  }
  const sort = (n: TreeNode) => {
    n.children?.sort((a, b) =>
      a.type === b.type ? a.name.localeCompare(b.name) : a.type === 'directory' ? -1 : 1,
    );
    n.children?.forEach(sort);
  };
  sort(root);
  return root.children!;
}

/** The branch a GET names in `branchName`, else the caller's current one. */
const queryBranch = (ctx: RequestContext, repo: DeploymentRepo, who: string) =>
  repo.resolve(who, ctx.query.get('branchName') || undefined);

export function registerFileRoutes(router: Router, svc: BuildService): void {
  const on = repoRoutes(router, svc);
  on('GET', '/data-model/files', async (ctx, repo, who) => {
    const b = queryBranch(ctx, repo, who);
    const tree = sourceTree(b.files, queryBool(ctx, 'withContent') === true);
    // Without `first` the whole tree; with it, top-level nodes page.
    await sendPage(ctx, tree, `files:${b.name}`, { first: Math.max(1, tree.length), data: true });
  });

  on('PUT', '/data-model/files', async (ctx, repo, who) => {
    const body = bodyOf<typeof UpdateFilesInputSchema>(ctx);
    const b = branchOf(repo, who, body);
    const files = body.files.map((f, i) => [checkPath(f.path, `files[${i}].path`), f.content] as const);
    // A fault: another user's write lands before this answer reaches the caller.
    const other = ctx.fault?.concurrentWrite?.map(
      (f, i) => [checkPath(f.path, `concurrentWrite[${i}].path`), f.content] as const,
    );
    const write = (set: typeof files, by = '') =>
      repo.write(
        b,
        (next) => set.forEach(([p, c]) => next.set(p, c)),
        `Update ${set.map(([p]) => p).join(', ')}${by}`,
      );
    write(files);
    if (other) write(other, ' (another user)');
    await ctx.json(200, { success: true });
  });

  on('DELETE', '/data-model/files', async (ctx, repo, who) => {
    const body = bodyOf<typeof RemoveFilesInputSchema>(ctx);
    const b = branchOf(repo, who, body);
    const paths = body.files.map((f, i) => checkPath(f.path, `files[${i}].path`));
    const missing = paths.filter((p) => !b.files.has(p));
    if (missing.length)
      throw new BuildError(404, `No such file on branch "${b.name}": ${missing.join(', ')}.`, undefined, {
        files: missing,
      });
    repo.write(b, (next) => paths.forEach((p) => next.delete(p)), `Delete ${paths.join(', ')}`);
    await ctx.json(200, { success: true });
  });

  on('POST', '/data-model/files/rename', async (ctx, repo, who) => {
    const body = bodyOf<typeof RenameFilesInputSchema>(ctx);
    const b = branchOf(repo, who, body);
    const moves = body.files.map(
      (f, i) => [checkPath(f.path, `files[${i}].path`), checkPath(f.newPath, `files[${i}].newPath`)] as const,
    );
    for (const [from, to] of moves) {
      if (!b.files.has(from)) throw new BuildError(404, `No such file on branch "${b.name}": ${from}.`);
      if (b.files.has(to) && !moves.some(([f]) => f === to))
        throw new BuildError(409, `${to} already exists on branch "${b.name}".`, 'file_exists');
    }
    repo.write(
      b,
      (next) => {
        const moved = moves.map(([from, to]) => [to, next.get(from)!] as const);
        moves.forEach(([from]) => next.delete(from));
        moved.forEach(([to, c]) => next.set(to, c));
      },
      `Rename ${moves.map(([f, t]) => `${f} to ${t}`).join(', ')}`,
    );
    await ctx.json(200, { success: true });
  });

  on('GET', '/data-model/file-hashes', async (ctx, repo, who) => {
    const b = queryBranch(ctx, repo, who);
    const out: Record<string, { hash: string }> = {};
    for (const path of [...b.files.keys()].sort()) out[path] = { hash: fileHash(b.files.get(path)!) };
    await ctx.json(200, out);
  });

  on('GET', '/data-model/validate', async (ctx, repo, who) => {
    // The row refuses a branch and devMode together.
    const b =
      queryBool(ctx, 'devMode') === true
        ? repo.activeBranch(who)
        : repo.branch(ctx.query.get('branchName') || repo.deployBranch);
    const { result } = await repo.compile(b.files);
    await ctx.json(200, {
      deploymentId: repo.deploymentId,
      branchName: b.name,
      mode: b.name === repo.deployBranch ? 'production' : 'dev_mode',
      valid: result.errors.length === 0,
      errors: result.errors.map((e) => ({ fileName: e.fileName, message: errorLine(e) })),
      cubesCount: result.cubes.length,
    });
  });
}
