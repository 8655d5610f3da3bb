// The upload transaction of a local model (what the CLI's deploy does): start, one multipart
// request per changed file, finish with the hashes of every file the model has (files the server
// already holds need not be sent; the others are pruned unless autoRemoveFiles is false), which
// writes the branch and builds it.
import { randomUUID } from 'node:crypto';
import type { FinishUploadInputSchema } from '../../api/platform/build/upload';
import type { RequestContext, Router } from '../http';
import { bodyOf, checkPath, queryBool, repoRoutes } from './common';
import { fileHash } from './merge';
import type { BuildService } from './service';
import { BuildError, type Branch, type DeploymentRepo } from './store';

interface Upload {
  branch: string;
  files: Map<string, string>;
}

/** The fields of a multipart/form-data body (text parts; data-model files are text). */
export function parseMultipart(raw: string, contentType: string): Map<string, string> {
  const boundary = /boundary="?([^";]+)"?/i.exec(contentType)?.[1];
  if (!boundary) throw new BuildError(400, 'A multipart/form-data body needs a boundary.');
  const fields = new Map<string, string>();
  for (const part of raw.split(`--${boundary}`).slice(1)) {
    if (part.startsWith('--')) break;
    const split = part.indexOf('\r\n\r\n');
    if (split < 0) continue;
    const name = /name="([^"]*)"/i.exec(part.slice(0, split))?.[1];
    if (name !== undefined) fields.set(name, part.slice(split + 4).replace(/\r\n$/, ''));
  }
  return fields;
}

/** The transaction id of a form's `transaction` field: the id itself, or the transaction as JSON (`{"id": ...}`). */
function transactionId(value: string | undefined): string | undefined {
  if (!value) return undefined;
  try {
    const parsed = JSON.parse(value) as { id?: unknown } | null;
    if (parsed && typeof parsed === 'object') return String(parsed.id ?? '') || undefined;
  } catch {
    // a plain id
  }
  return value;
}

export function registerUploadRoutes(router: Router, svc: BuildService): void {
  const on = repoRoutes(router, svc);
  const uploads = new Map<string, Upload>();
  /** branchName, else (live) the caller's dev-mode branch, else the deploy branch. */
  const target = (ctx: RequestContext, repo: DeploymentRepo, who: string): Branch => {
    const named = ctx.query.get('branchName');
    if (named && named !== 'null') return repo.branch(named);
    return queryBool(ctx, 'live') === true ? repo.activeBranch(who) : repo.branch(repo.deployBranch);
  };
  const open = (repo: DeploymentRepo, id: string | undefined): Upload => {
    const u = id === undefined ? undefined : uploads.get(`${repo.deploymentId}:${id}`);
    if (!u) throw new BuildError(404, `No open upload transaction "${id ?? ''}": start one first.`);
    return u;
  };

  on('POST', '/data-model/upload/start', async (ctx, repo, who) => {
    const b = target(ctx, repo, who);
    repo.checkWritable(b);
    const id = randomUUID();
    uploads.set(`${repo.deploymentId}:${id}`, { branch: b.name, files: new Map() });
    await ctx.json(200, { transaction: { id }, deploymentName: repo.deploymentName });
  });

  on('POST', '/data-model/upload/file', async (ctx, repo) => {
    const type = ctx.req.headers['content-type'] ?? '';
    if (!/^multipart\/form-data/i.test(type))
      throw new BuildError(400, 'Send the file as multipart/form-data (transaction, fileName, file).');
    const fields = parseMultipart(String(ctx.body ?? ''), type);
    const u = open(repo, transactionId(fields.get('transaction')));
    const path = checkPath(fields.get('fileName'), 'fileName');
    const content = fields.get('file');
    if (content === undefined) throw new BuildError(400, 'The "file" part is missing.');
    u.files.set(path, content);
    await ctx.json(200, { success: true });
  });

  on('POST', '/data-model/upload/finish', async (ctx, repo) => {
    const body = bodyOf<typeof FinishUploadInputSchema>(ctx);
    const id = body.transaction.id;
    const u = open(repo, id);
    const b = repo.branch(u.branch);
    const autoRemove = body.autoRemoveFiles !== false;
    const message = body.commitMessage ?? undefined;
    const next = new Map<string, string>();
    for (const [path, { hash }] of Object.entries(body.files)) {
      checkPath(path);
      const content = u.files.get(path) ?? b.files.get(path);
      if (content === undefined || fileHash(content) !== hash)
        throw new BuildError(
          400,
          `${path}: the server has no content with hash ${hash} (upload the file in this transaction).`,
        );
      next.set(path, content);
    }
    uploads.delete(`${repo.deploymentId}:${id}`);
    repo.write(
      b,
      (files) => {
        if (autoRemove) for (const p of [...files.keys()]) if (!next.has(p)) files.delete(p);
        for (const [p, c] of next) files.set(p, c);
      },
      message?.trim() || 'Upload',
    );
    if (message?.trim() && b.name !== repo.deployBranch) repo.commit(b, message.trim());
    await repo.compile(b.files);
    await ctx.json(200, { lastHash: b.lastHash });
  });
}
