// A deployment's health from the tree and the palette: its build status (read-only JSON), and its
// runtime logs tailed into an output channel, optionally followed (polling with the log's cursor)
// until the user stops it (the notification's Cancel, or Stop Following Logs).
import * as vscode from 'vscode';
import type { DeploymentLogLine } from '../api/platform/health';
import { plainText } from '../explorer/labels';
import { ancestor, asArgs, asNode, resolveDeploymentId } from '../explorer/targets';
import { abortOn, pause, type OpsContext } from './opsContext';

export const LOGS_CHANNEL = 'Dashboard Platform: Deployment Logs';
const FOLLOW_MS = 1500;
const TAIL = 200;

const format = (l: DeploymentLogLine) =>
  `${plainText(l.date ?? '')} [${plainText(l.pod ?? '?')}] ${plainText(l.message, 4000)}`;

export class HealthFlows implements vscode.Disposable {
  /** Follows in progress; Stop Following Logs cancels them all. */
  private readonly follows = new Set<vscode.CancellationTokenSource>();

  constructor(private readonly ops: OpsContext) {}

  async showBuildStatus(arg?: unknown): Promise<vscode.TextDocument> {
    const deploymentId = await resolveDeploymentId(this.ops.targets, arg);
    const status = await (await this.ops.client()).ops.getBuildStatus(deploymentId);
    return this.ops.deps.json.show(`build-status:${deploymentId}`, `build-status-${deploymentId}`, status);
  }

  /** The last lines of the deployment's logs (of one pod when a pod row was clicked). */
  async showLogs(arg?: unknown): Promise<number> {
    const { deploymentId, pod, follow } = await this.target(arg);
    if (follow) return this.follow(arg);
    const client = await this.ops.client();
    const name = await this.ops.deploymentName(deploymentId);
    const page = await client.ops.getLogs(deploymentId, { first: TAIL, ...(pod ? { pod } : {}) });
    this.ops.append(LOGS_CHANNEL, [
      `── logs of ${name}${pod ? `, pod ${pod}` : ''} ──`,
      ...page.items.map(format),
    ]);
    this.ops.channel(LOGS_CHANNEL).show(true);
    return page.items.length;
  }

  /** Tails, then keeps appending new lines until stopped; returns the number of lines written. */
  async follow(arg?: unknown): Promise<number> {
    const { deploymentId, pod } = await this.target(arg);
    const client = await this.ops.client();
    const name = await this.ops.deploymentName(deploymentId);
    const source = new vscode.CancellationTokenSource();
    this.follows.add(source);
    this.ops.channel(LOGS_CHANNEL).show(true);
    this.ops.append(LOGS_CHANNEL, [`── following logs of ${name}${pod ? `, pod ${pod}` : ''} ──`]);
    let written = 0;
    try {
      await vscode.window.withProgress(
        {
          location: vscode.ProgressLocation.Notification,
          title: `Following the logs of ${name} (Cancel stops following)`,
          cancellable: true,
        },
        async (_progress, token) => {
          const sub = token.onCancellationRequested(() => source.cancel());
          const abort = abortOn(source.token);
          let after: string | undefined;
          try {
            let first = true;
            while (!source.token.isCancellationRequested) {
              const page = await client.ops.getLogs(
                deploymentId,
                { first: TAIL, ...(pod ? { pod } : {}), ...(after ? { after } : {}) },
                abort.signal,
              );
              this.ops.append(LOGS_CHANNEL, page.items.map(format));
              written += page.items.length;
              after = page.pageInfo?.endCursor ?? after;
              // A full page means more is waiting: read on at once; else wait for new lines.
              if (!first && page.pageInfo?.hasNextPage) continue;
              first = false;
              if (!(await pause(FOLLOW_MS, source.token))) break;
            }
          } catch (e) {
            if (!source.token.isCancellationRequested) throw e;
          } finally {
            abort.dispose();
            sub.dispose();
          }
        },
      );
    } finally {
      this.follows.delete(source);
      source.dispose();
      this.ops.append(LOGS_CHANNEL, [`── stopped following logs of ${name} ──`]);
    }
    return written;
  }

  /** Stops every follow in progress; returns how many were stopped. */
  stopFollowing(): number {
    const n = this.follows.size;
    for (const s of this.follows) s.cancel();
    if (n === 0) void vscode.window.showInformationMessage('No deployment logs are being followed.');
    return n;
  }

  dispose(): void {
    for (const s of this.follows) s.cancel();
  }

  private async target(arg: unknown): Promise<{ deploymentId: number; pod?: string; follow?: boolean }> {
    const podNode = ancestor(asNode(arg), 'pod');
    const deploymentId = await resolveDeploymentId(this.ops.targets, arg);
    const args = asArgs<{ pod: string; follow: boolean }>(arg);
    const pod = podNode?.data ? String(podNode.data['name']) : args.pod;
    return { deploymentId, ...(pod ? { pod } : {}), ...(args.follow ? { follow: true } : {}) };
  }
}
