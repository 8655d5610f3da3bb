// Export a published dashboard as PNG or PDF: pick it by name (or right-click its workbook), pick
// the format, pick where to save (a name is suggested), then the render runs with progress (polled
// with backoff, cancellable), the file is written and opened. Only a verified file is written: a
// download that is not a whole PDF/PNG of the asked format is an error and the target is untouched.
import * as os from 'node:os';
import * as vscode from 'vscode';
import type { ExportFormat } from '../api/platform/dashboardExports';
import { publishedDashboardOf } from '../api/platform/workbookShapes';
import { UserCancelled } from '../log';
import { displayName, plainText } from '../explorer/labels';
import type { Item } from '../explorer/loaders';
import { ancestor, asArgs, asNode, resolveDeploymentId } from '../explorer/targets';
import { abortOn, type OpsContext } from './opsContext';

/** A file name from a dashboard title: letters, digits, dashes. */
export function suggestedFileName(title: string, format: ExportFormat): string {
  const stem = title
    .normalize('NFKD')
    .replace(/[^\w\s-]/g, '')
    .trim()
    .replace(/\s+/g, '-')
    .toLowerCase();
  return `${stem || 'dashboard'}.${format}`;
}

export class ExportFlow {
  constructor(private readonly ops: OpsContext) {}

  async exportDashboard(arg?: unknown): Promise<vscode.Uri | undefined> {
    const o = this.ops;
    const args = asArgs<{ dashboardId: number; format: ExportFormat; target: string; open: boolean }>(arg);
    const deploymentId = await resolveDeploymentId(o.targets, arg);
    const { dashboardId, title } = await this.dashboard(deploymentId, arg);
    const format =
      args.format ??
      (await o.prompter.pick(`Export "${title}"`, [
        { label: 'PNG image', description: 'png', value: 'png' as const },
        { label: 'PDF document', description: 'pdf', value: 'pdf' as const },
      ]));
    const name = suggestedFileName(title, format);
    const folder = vscode.workspace.workspaceFolders?.[0]?.uri ?? vscode.Uri.file(os.homedir());
    const target = args.target
      ? vscode.Uri.file(args.target)
      : await vscode.window.showSaveDialog({
          title: `Save "${title}" as ${format.toUpperCase()}`,
          defaultUri: vscode.Uri.joinPath(folder, name),
          filters: format === 'png' ? { 'PNG image': ['png'] } : { 'PDF document': ['pdf'] },
        });
    if (!target) throw new UserCancelled();
    const client = await o.client();
    const depName = await o.deploymentName(deploymentId);
    const bytes = await vscode.window.withProgress(
      {
        location: vscode.ProgressLocation.Notification,
        title: `Exporting "${title}" of ${depName} as ${format.toUpperCase()}`,
        cancellable: true,
      },
      async (progress, token) => {
        const abort = abortOn(token);
        try {
          const job = await client.ops.startDashboardExport(
            deploymentId,
            { dashboardId, format },
            abort.signal,
          );
          let last = 0;
          await client.ops.waitForDashboardExport(deploymentId, job.jobId, {
            signal: abort.signal,
            onStatus: (s) => {
              const pct = typeof s.progress === 'number' ? Math.max(0, Math.min(100, s.progress)) : undefined;
              progress.report({
                message: plainText(s.status),
                ...(pct !== undefined && pct > last ? { increment: pct - last } : {}),
              });
              if (pct !== undefined) last = Math.max(last, pct);
            },
          });
          progress.report({ message: 'downloading' });
          const stem = target.path
            .split('/')
            .pop()!
            .replace(/\.[^.]+$/, '');
          return (
            // Verified there (type, signature, whole file) before anything is written here.
            (
              await client.ops.downloadDashboardExport(deploymentId, job.jobId, {
                filename: stem,
                signal: abort.signal,
                format,
              })
            ).bytes
          );
        } catch (e) {
          if (token.isCancellationRequested) throw new UserCancelled();
          throw e;
        } finally {
          abort.dispose();
        }
      },
    );
    await vscode.workspace.fs.writeFile(target, bytes);
    o.log.info(`Exported "${title}" of ${depName} to ${target.fsPath} (${bytes.length} bytes)`);
    if (args.open !== false) await vscode.commands.executeCommand('vscode.open', target);
    else
      void vscode.window
        .showInformationMessage(`Saved "${title}" to ${target.fsPath}.`, 'Open')
        .then((a) => (a ? vscode.commands.executeCommand('vscode.open', target) : undefined));
    return target;
  }

  /** The published dashboard: the clicked workbook's, the given id, or a pick by name. */
  private async dashboard(
    deploymentId: number,
    arg: unknown,
  ): Promise<{ dashboardId: number; title: string }> {
    const node = ancestor(asNode(arg), 'workbook');
    const args = asArgs<{ dashboardId: number }>(arg);
    const fromWorkbook = (w: Item) => {
      const pub = publishedDashboardOf(w);
      return pub && typeof pub['id'] === 'number'
        ? { dashboardId: pub['id'], title: displayName(pub, 'title', 'name') }
        : undefined;
    };
    if (node?.data) {
      const d = fromWorkbook(node.data);
      if (!d)
        throw new Error(`Workbook ${displayName(node.data)} has no published dashboard: publish it first.`);
      return d;
    }
    const client = await this.ops.client();
    const published: { dashboardId: number; title: string; workbook: string }[] = [];
    let after: string | undefined;
    for (let i = 0; i < 20; i++) {
      const page = await client.listWorkbooks(deploymentId, { first: 200, ...(after ? { after } : {}) });
      for (const w of page.items) {
        const d = fromWorkbook(w as Item);
        if (d) published.push({ ...d, workbook: displayName(w as Item) });
      }
      after = page.pageInfo?.hasNextPage ? (page.pageInfo.endCursor ?? undefined) : undefined;
      if (!after) break;
    }
    if (args.dashboardId !== undefined) {
      const found = published.find((p) => p.dashboardId === Number(args.dashboardId));
      return found ?? { dashboardId: Number(args.dashboardId), title: `dashboard-${args.dashboardId}` };
    }
    const name = await this.ops.deploymentName(deploymentId);
    if (published.length === 0) throw new Error(`${name} has no published dashboards.`);
    const pick = await this.ops.prompter.pick(
      'Export Dashboard',
      published.map((p) => ({
        label: p.title,
        ...(p.workbook !== p.title ? { description: `workbook ${p.workbook}` } : {}),
        value: p,
      })),
      'Pick a published dashboard',
    );
    return pick;
  }
}
