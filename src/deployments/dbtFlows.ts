// dbt sync from the tree and the palette: start one and stream its log into an output channel while
// it runs; show the log of any run (following it while it runs); cancel a running one on the server;
// open a finished run's result and generated files read-only.
import * as vscode from 'vscode';
import type { Branch } from '../api/platform/build/common';
import type { DbtSyncJob } from '../api/platform/dbtSync';
import { FINISHED } from '../api/platform/dbtSync';
import { withCheckCommand } from '../api/http';
import { isApiError } from '../api/errors';
import { COMMANDS } from '../commands';
import { plainText } from '../explorer/labels';
import type { Item } from '../explorer/loaders';
import { ListNode } from '../explorer/nodes/listNode';
import { ancestor, asArgs, asNode, resolveDeploymentId } from '../explorer/targets';
import { CancelRequests, dbtEnd } from './dbtOutcome';
import { abortOn, pause, type OpsContext } from './opsContext';
import { isRunningSync, relativeTime } from '../explorer/deployment/render';

export const DBT_CHANNEL = 'Dashboard Platform: dbt sync';
export const DBT_SCHEME = 'dashboard-platform-dbt';
const POLL_MS = 700;

/** Why a typed branch name cannot be sent (the documents take any non-empty name). */
function branchNameProblem(text: string): string | undefined {
  const t = text.trim();
  if (!t) return 'Enter a branch name, or pick "Default branch".';
  if (/\s/.test(t)) return 'A branch name has no spaces.';
  return undefined;
}

/** Read-only documents of generated files: `dashboard-platform-dbt:/<dep>/<job>/<path>`. */
export class GeneratedFiles implements vscode.TextDocumentContentProvider {
  private readonly files = new Map<string, string>();
  provideTextDocumentContent(uri: vscode.Uri): string {
    return this.files.get(uri.path) ?? '';
  }
  uriFor(deploymentId: number, jobId: string, path: string, content: string): vscode.Uri {
    const p = `/${deploymentId}/${encodeURIComponent(jobId)}/${path.replace(/^\/+/, '')}`;
    this.files.set(p, content);
    return vscode.Uri.from({ scheme: DBT_SCHEME, path: p });
  }
}

function line(e: Item): string {
  const t = typeof e['timestamp'] === 'string' ? e['timestamp'].slice(11, 19) : '--:--:--';
  const level = String(e['level'] ?? 'info').toUpperCase();
  const phase = e['phase'] ? ` [${plainText(e['phase'])}]` : '';
  return `${t} ${level.padEnd(5)}${phase} ${plainText(e['message'], 2000)}`;
}

export class DbtFlows {
  /** The runs this window cancelled: their FAILED is said as the cancel it is. */
  private readonly cancels = new CancelRequests();
  constructor(
    private readonly ops: OpsContext,
    private readonly files: GeneratedFiles,
  ) {}

  /**
   * The Cube branch the generated cubes go to, picked from the deployment's branches (build API;
   * the client has no GitHub branches call, and dbt sync names a Cube branch, not a dbt one): the
   * service's default first, then each branch by name, then "Other…" for a new one. A list that
   * cannot be read is said in the picker, which still offers the default and Other….
   */
  private async askBranch(deploymentId: number): Promise<string> {
    const o = this.ops;
    type Pick = { branch: string } | 'other';
    let branches: Branch[] = [];
    let problem: string | undefined;
    try {
      branches = await (await o.deps.services.clients.build()).allBranches(deploymentId);
    } catch (e) {
      problem = e instanceof Error ? e.message : String(e);
    }
    const picked = await o.prompter.pick<Pick>(
      'Start dbt Sync (1/2)',
      [
        {
          label: 'Default branch',
          description: 'the one the service picks (its answer names it)',
          ...(problem
            ? { detail: `The deployment's branches could not be listed: ${plainText(problem, 300)}` }
            : {}),
          id: '',
          value: { branch: '' },
        },
        ...branches.map((b) => ({
          label: plainText(b.name),
          description: [
            b.parentBranch ? `from ${plainText(b.parentBranch)}` : '',
            b.isStagingEnvironmentEnabled ? 'staging environment on' : '',
          ]
            .filter(Boolean)
            .join(' · '),
          id: b.name,
          value: { branch: b.name },
        })),
        { label: 'Other…', description: 'a new branch, named next', id: 'other', value: 'other' },
      ],
      {
        placeHolder: 'Cube branch to write the generated cubes to (type to search, or a new name)',
        typed: {
          validate: branchNameProblem,
          value: (text) => ({ branch: text.trim() }),
          hint: 'A new branch: the sync creates it',
        },
      },
    );
    if (picked !== 'other') return picked.branch;
    return (
      await o.prompter.input({
        title: 'Start dbt Sync (1/2): other branch',
        prompt: 'Name of the Cube branch to write the generated cubes to (the sync creates it).',
        placeHolder: 'dbt-sync/my-change',
        validate: branchNameProblem,
      })
    ).trim();
  }

  /** Start a dbt sync (branch, and where its files go), then follow it with its log streaming. */
  async start(arg?: unknown): Promise<DbtSyncJob> {
    const o = this.ops;
    const deploymentId = await resolveDeploymentId(o.targets, arg);
    const args = asArgs<{ branchName: string; output: 'branch' | 'files' }>(arg);
    const branch = args.branchName ?? (await this.askBranch(deploymentId));
    const output =
      args.output ??
      (args.branchName !== undefined
        ? 'branch'
        : await o.prompter.pick('Start dbt Sync (2/2)', [
            { label: 'Commit the generated files to the branch', value: 'branch' as const },
            { label: 'Keep the generated files for review (do not commit)', value: 'files' as const },
          ]));
    const name = await o.deploymentName(deploymentId);
    await o.confirmWrite(`Start a dbt sync of ${name}`);
    const client = await o.client();
    const started = await client
      .startDbtSync(deploymentId, {
        ...(branch.trim() ? { branchName: branch.trim() } : {}),
        ...(output === 'files' ? { output } : {}),
      })
      .catch((e: unknown) => {
        throw withCheckCommand(e, COMMANDS.explorerRefresh.id);
      });
    o.log.info(`dbt sync ${started.syncJobId} started on ${name}`);
    this.refreshRuns(deploymentId);
    const job = await this.follow(
      deploymentId,
      started.syncJobId,
      `${started.branchName ?? branch} of ${name}`,
    );
    this.refreshRuns(deploymentId);
    if (!FINISHED.has(job.status)) {
      void vscode.window.showInformationMessage(
        `Stopped following the dbt sync of ${name}; it keeps running on the server (Cancel dbt Sync stops it).`,
      );
      return job;
    }
    const end = dbtEnd(job, name, this.cancels.has(deploymentId, started.syncJobId), DBT_CHANNEL);
    if (end.error) throw new Error(end.error);
    // Cancelled from this window: Cancel dbt Sync has said so, once.
    if (end.job.status !== 'COMPLETED') return end.job;
    void vscode.window
      .showInformationMessage(`The dbt sync of ${name} completed.`, 'Open Result')
      .then((a) => (a ? this.openResult({ deploymentId, syncJobId: started.syncJobId }) : undefined));
    return job;
  }

  /**
   * Streams the run's log into the output channel until it ends (or the user stops following:
   * the run itself goes on). Returns the last status read.
   */
  async follow(deploymentId: number, syncJobId: string, title: string): Promise<DbtSyncJob> {
    const o = this.ops;
    const client = await o.client();
    o.channel(DBT_CHANNEL).show(true);
    o.append(DBT_CHANNEL, [`── dbt sync ${syncJobId}: ${title} ──`]);
    return vscode.window.withProgress(
      { location: vscode.ProgressLocation.Notification, title: `dbt sync ${title}`, cancellable: true },
      async (progress, token) => {
        const abort = abortOn(token);
        let seen = 0;
        let job: DbtSyncJob = { status: 'RUNNING' };
        try {
          for (;;) {
            // Status first: a run that ended before its log was read still gets its whole log.
            job = await client.getDbtSyncJob(deploymentId, syncJobId, abort.signal);
            const entries = await client.ops.getDbtSyncLogs(deploymentId, syncJobId, abort.signal);
            o.append(DBT_CHANNEL, entries.slice(seen).map(line));
            seen = Math.max(seen, entries.length);
            const p = job.progress;
            progress.report({ message: plainText(p?.message ?? p?.stage ?? job.status) });
            if (FINISHED.has(job.status)) {
              const end = dbtEnd(job, title, this.cancels.has(deploymentId, syncJobId), DBT_CHANNEL);
              o.append(DBT_CHANNEL, [end.line]);
              return end.job;
            }
            if (!(await pause(POLL_MS, token))) break;
          }
        } catch (e) {
          if (!token.isCancellationRequested) throw e;
        } finally {
          abort.dispose();
        }
        o.append(DBT_CHANNEL, ['── stopped following (the sync goes on) ──']);
        return job;
      },
    );
  }

  /** The log of a run: all of it when finished; followed while it runs. */
  async showLogs(arg?: unknown): Promise<string[]> {
    const { deploymentId, run } = await this.resolveRun(arg, false);
    const name = await this.ops.deploymentName(deploymentId);
    const id = String(run['syncJobId']);
    const before = this.ops.transcripts.get(DBT_CHANNEL)?.length ?? 0;
    if (isRunningSync(run)) {
      await this.follow(deploymentId, id, `${plainText(run['branchName'] ?? '')} of ${name}`);
      this.refreshRuns(deploymentId);
    } else {
      const entries = await (await this.ops.client()).ops.getDbtSyncLogs(deploymentId, id);
      this.ops.append(DBT_CHANNEL, [
        `── dbt sync ${id}: ${plainText(run['branchName'] ?? '')} of ${name}, ${plainText(run['status'])} ──`,
        ...entries.map(line),
      ]);
      this.ops.channel(DBT_CHANNEL).show(true);
    }
    return (this.ops.transcripts.get(DBT_CHANNEL) ?? []).slice(before);
  }

  /** Cancels a running sync on the server (asks first: the run stops where it is). */
  async cancel(arg?: unknown): Promise<string> {
    const { deploymentId, run } = await this.resolveRun(arg, true);
    const name = await this.ops.deploymentName(deploymentId);
    const what = `the dbt sync of branch ${plainText(run['branchName'] ?? '?')} on ${name}`;
    const ok = await this.ops.prompter.confirm(
      `Cancel ${what}?`,
      'The server stops the sync where it is; nothing it has not written yet is written.',
      'Cancel Sync',
    );
    if (!ok) return 'kept';
    await this.ops.confirmWrite(`Cancel ${what}`);
    const id = String(run['syncJobId']);
    // Marked before the request: a follow may read the run's end before the cancel's answer arrives.
    this.cancels.asked(deploymentId, id);
    await (await this.ops.client()).ops.cancelDbtSync(deploymentId, id).catch((e: unknown) => {
      if (isApiError(e) && e.kind !== 'unknownOutcome') this.cancels.refused(deploymentId, id);
      throw withCheckCommand(e, COMMANDS.explorerRefresh.id);
    });
    this.refreshRuns(deploymentId);
    // The one message of a cancel (a start that follows the run stays quiet), naming the run.
    void vscode.window.showInformationMessage(`Cancelled ${what}.`);
    return 'cancelled';
  }

  /** Opens the result of a completed run as read-only JSON. */
  async openResult(arg?: unknown): Promise<vscode.TextDocument> {
    const { deploymentId, run } = await this.resolveRun(arg, false);
    const id = String(run['syncJobId']);
    const result = await (await this.ops.client()).ops.getDbtSyncResult(deploymentId, id);
    return this.ops.deps.json.show(`dbt-result:${deploymentId}:${id}`, `dbt-sync-${id}-result`, result);
  }

  /** Opens the files a run generated (pick several) as read-only documents. */
  async openGeneratedFiles(arg?: unknown): Promise<vscode.TextDocument[]> {
    const { deploymentId, run } = await this.resolveRun(arg, false);
    const id = String(run['syncJobId']);
    const client = await this.ops.client();
    const files: { path: string; content: string }[] = [];
    let after: string | undefined;
    for (let i = 0; i < 50; i++) {
      const page = await client.ops.listDbtSyncGeneratedFiles(deploymentId, id, {
        first: 100,
        ...(after ? { after } : {}),
      });
      files.push(...page.items);
      after = page.pageInfo?.hasNextPage ? (page.pageInfo.endCursor ?? undefined) : undefined;
      if (!after) break;
    }
    if (files.length === 0) {
      const branch = plainText(run['branchName'] ?? 'its branch');
      throw new Error(
        `This dbt sync kept no files for review: it committed them to branch ${branch} (see Open dbt Sync Result for their paths).`,
      );
    }
    const args = asArgs<{ paths: string[] }>(arg);
    const wanted =
      args.paths ??
      (files.length === 1
        ? [files[0]!.path]
        : [
            await this.ops.prompter.pick(
              'Open Generated File',
              [
                { label: 'All files', value: '*' },
                ...files.map((f) => ({ label: plainText(f.path), value: f.path })),
              ],
              'Pick a generated file',
            ),
          ]);
    const chosen = wanted.includes('*') ? files : files.filter((f) => wanted.includes(f.path));
    const docs: vscode.TextDocument[] = [];
    for (const f of chosen) {
      let doc = await vscode.workspace.openTextDocument(
        this.files.uriFor(deploymentId, id, f.path, f.content),
      );
      if (/\.ya?ml$/i.test(f.path)) doc = await vscode.languages.setTextDocumentLanguage(doc, 'yaml');
      await vscode.window.showTextDocument(doc, { preview: chosen.length === 1 });
      docs.push(doc);
    }
    return docs;
  }

  /** The run a command acts on: the clicked row, `{deploymentId, syncJobId}`, or a pick. */
  private async resolveRun(arg: unknown, running: boolean): Promise<{ deploymentId: number; run: Item }> {
    const node = ancestor(asNode(arg), 'dbtSync');
    if (node?.data && node.deploymentId !== undefined)
      return { deploymentId: node.deploymentId, run: node.data };
    const deploymentId = await resolveDeploymentId(this.ops.targets, arg);
    const given = asArgs<{ syncJobId: string }>(arg).syncJobId;
    const client = await this.ops.client();
    const page = await client.ops.listDbtSyncs(deploymentId, { first: 50 });
    if (given !== undefined) {
      const found = page.items.find((r) => r.syncJobId === String(given));
      return { deploymentId, run: found ?? { syncJobId: String(given), status: 'RUNNING' } };
    }
    const runs = page.items.filter((r) => !running || isRunningSync(r));
    const name = await this.ops.deploymentName(deploymentId);
    if (runs.length === 0) throw new Error(`${name} has no ${running ? 'running ' : ''}dbt syncs.`);
    const run = await this.ops.prompter.pick(
      running ? 'Cancel dbt Sync' : 'dbt Sync',
      runs.map((r) => ({
        label: `${plainText(r.branchName ?? 'dbt sync')} · ${plainText(r.status).toLowerCase()}`,
        description: relativeTime(r.startedAt) ?? '',
        value: r as Item,
      })),
      'Pick a dbt sync',
    );
    return { deploymentId, run };
  }

  private refreshRuns(deploymentId: number): void {
    const dep = this.ops.deps.provider.loadedDeployments().find((d) => d.deploymentId === deploymentId);
    const runs = dep?.opsChild('dbtSyncs');
    if (runs instanceof ListNode) this.ops.deps.provider.refresh(runs);
  }
}
