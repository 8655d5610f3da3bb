// Upload Data Model from Folder…: a local checkout of the model is compared with a branch by
// content hash, only the changed files are sent in one upload transaction, whose finish prunes
// what the folder no longer has and triggers a build; then the build's model is validated and
// the outcome shown.
import * as vscode from 'vscode';
import type { LocalFile, UploadPlan, Validation } from '../api/buildClient';
import { lazyModule } from '../lazy';
import type { Services } from '../services';
import type * as Api from '../api';
import { defaultBranchOf } from './modelPaths';
import type { Mounts } from './mounts';

const api = () => lazyModule<typeof Api>('src/api/index.ts');

/** Folders never part of a model upload. */
const SKIP = new Set(['.git', 'node_modules', '.vscode', '.idea', 'dist', 'out']);
const MAX_FILES = 5000;

export interface UploadArgs {
  folder?: vscode.Uri;
  deploymentId?: number;
  branch?: string;
  /** Skips the confirmation (tests). */
  confirm?: boolean;
}

export interface UploadOutcome {
  plan: UploadPlan;
  sent: number;
  lastHash?: string | null;
  validation?: Validation;
}

async function readFolder(root: vscode.Uri, token: vscode.CancellationToken): Promise<LocalFile[]> {
  const out: LocalFile[] = [];
  const walk = async (dir: vscode.Uri, rel: string): Promise<void> => {
    for (const [name, type] of await vscode.workspace.fs.readDirectory(dir)) {
      if (token.isCancellationRequested) throw new vscode.CancellationError();
      if (name.startsWith('.') || SKIP.has(name)) continue;
      const uri = vscode.Uri.joinPath(dir, name);
      const path = rel ? `${rel}/${name}` : name;
      if (type & vscode.FileType.Directory) await walk(uri, path);
      else if (type & vscode.FileType.File) {
        if (out.length >= MAX_FILES)
          throw new Error(`The folder has more than ${MAX_FILES} files; pick the model's own folder.`);
        out.push({ path, content: await vscode.workspace.fs.readFile(uri) });
      }
    }
  };
  await walk(root, '');
  return out;
}

export class UploadFlow {
  constructor(
    private readonly services: Services,
    private readonly mounts: Mounts,
  ) {}

  async run(args: UploadArgs = {}): Promise<UploadOutcome | undefined> {
    const folder =
      args.folder ??
      (
        await vscode.window.showOpenDialog({
          canSelectFolders: true,
          canSelectFiles: false,
          openLabel: 'Upload This Folder',
          title: 'Upload Data Model from Folder: the model folder (with model/ inside)',
        })
      )?.[0];
    if (!folder) return undefined;
    const platform = await this.services.clients.platform();
    let deploymentId = args.deploymentId;
    if (deploymentId === undefined) {
      const page = await platform.listDeployments({ first: 100 });
      const picked = await vscode.window.showQuickPick(
        page.items.map((d) => ({ label: d.name, d })),
        { title: 'Upload to which deployment?' },
      );
      if (!picked) return undefined;
      deploymentId = picked.d.id;
    }
    const build = await this.mounts.build();
    const branches = await build.allBranches(deploymentId);
    let branch = args.branch;
    if (branch === undefined) {
      const def = defaultBranchOf(branches);
      const picked = await vscode.window.showQuickPick(
        branches.map((b) => ({ label: b.name, description: b.name === def ? 'default' : '' })),
        { title: 'Upload to which branch?' },
      );
      if (!picked) return undefined;
      branch = picked.label;
    }
    const target = branch;
    const id = deploymentId;
    return vscode.window.withProgress(
      { location: vscode.ProgressLocation.Notification, title: `Upload to ${target}`, cancellable: true },
      async (progress, token) => {
        progress.report({ message: 'comparing the folder with the branch…' });
        const [local, remote] = await Promise.all([
          readFolder(folder, token),
          build.fileHashes(id, { branchName: target }),
        ]);
        const plan = api().planUpload(local, remote);
        if (plan.changed.length === 0 && plan.removed.length === 0) {
          void vscode.window.showInformationMessage(
            `${target} already has this folder's ${plan.unchanged} files; nothing to upload.`,
          );
          return { plan, sent: 0 };
        }
        if (args.confirm !== true) {
          const ok = await vscode.window.showWarningMessage(
            `Upload to ${target}: ${plan.changed.length - plan.added.length} changed, ${plan.added.length} new, ${plan.removed.length} removed (${plan.unchanged} unchanged).`,
            {
              modal: true,
              detail: [...plan.changed.map((f) => `~ ${f.path}`), ...plan.removed.map((p) => `- ${p}`)]
                .slice(0, 30)
                .join('\n'),
            },
            'Upload',
          );
          if (ok !== 'Upload') return undefined;
        }
        if (token.isCancellationRequested) throw new vscode.CancellationError();
        const abort = new AbortController();
        const sub = token.onCancellationRequested(() => abort.abort());
        try {
          const opts = { branchName: target, signal: abort.signal };
          const { transaction } = await build.startUpload(id, { branchName: target }, abort.signal);
          const step = 90 / Math.max(1, plan.changed.length);
          for (const [i, f] of plan.changed.entries()) {
            progress.report({ message: `${i + 1}/${plan.changed.length} ${f.path}`, increment: step });
            await build.uploadFile(id, transaction.id, f, opts);
          }
          // Past this point the upload is no longer cancellable: finish is one write.
          progress.report({ message: 'finishing, the build starts…' });
          const done = await build.finishUpload(
            id,
            { transaction, files: plan.manifest, autoRemoveFiles: true },
            {
              branchName: target,
            },
          );
          progress.report({ message: 'validating the built model…' });
          const validation = await build.validate(id, { branchName: target });
          const summary = `Uploaded ${plan.changed.length} file(s) to ${target}${plan.removed.length ? `, removed ${plan.removed.length}` : ''}`;
          if (validation.valid) {
            void vscode.window.showInformationMessage(
              `${summary}. The model compiles${validation.cubesCount != null ? ` (${validation.cubesCount} cubes)` : ''}.`,
            );
          } else {
            void vscode.window.showWarningMessage(
              `${summary}, but the model does not compile: ${validation.errors[0]?.message ?? 'see the log'}${validation.errors.length > 1 ? ` (+${validation.errors.length - 1} more)` : ''}`,
            );
          }
          for (const m of this.mounts.all())
            if (m.deploymentId === id && m.branch === target) await m.load(this.mounts.build, true);
          return { plan, sent: plan.changed.length, lastHash: done.lastHash, validation };
        } finally {
          sub.dispose();
        }
      },
    );
  }
}
