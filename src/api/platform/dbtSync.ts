// dbt sync jobs: start one, read its status, wait for it to finish; past runs (paged), a run's log,
// its result and generated files, and cancelling a running one on the server.
import { z } from 'zod';
import { ApiError } from '../errors';
import { sleep } from '../http';
import type { PageParams } from '../paging';
import { definedQuery, maybe, parseInput, positiveId, readItems, type PlatformTransport } from './transport';

export const StartDbtSyncInputSchema = z.strictObject({
  branchName: z.string().min(1).optional(),
  /** `files`: keep the generated files for review instead of committing them to the branch. */
  output: z.enum(['branch', 'files']).optional(),
});
export type StartDbtSyncInput = z.infer<typeof StartDbtSyncInputSchema>;

export const DbtSyncResponseSchema = z.looseObject({
  syncJobId: z.union([z.string(), z.number()]).transform(String),
  workflowId: maybe(z.string()),
  branchName: maybe(z.string()),
});
export type DbtSyncResponse = z.infer<typeof DbtSyncResponseSchema>;

export const DbtSyncJobSchema = z.looseObject({
  status: z.string(),
  error: maybe(z.string()),
  progress: maybe(
    z.looseObject({
      stage: z.string().optional(),
      percentComplete: z.number().optional(),
      message: maybe(z.string()),
    }),
  ),
});
export type DbtSyncJob = z.infer<typeof DbtSyncJobSchema>;

export interface WaitForDbtSyncOptions {
  intervalMs?: number;
  timeoutMs?: number;
  signal?: AbortSignal;
  onStatus?(job: DbtSyncJob): void;
}

// CANCELLED is not a published status value, but a server that says it means the run is over.
export const FINISHED = new Set(['COMPLETED', 'FAILED', 'CANCELLED']);
const syncPath = (deploymentId: number) =>
  `/v1/deployments/${positiveId(deploymentId, 'deploymentId')}/dbt-sync`;

export async function startDbtSync(
  t: PlatformTransport,
  deploymentId: number,
  input: StartDbtSyncInput = {},
  signal?: AbortSignal,
) {
  const body = parseInput(StartDbtSyncInputSchema, input, 'dbt sync not started');
  return t.write('POST', syncPath(deploymentId), body, DbtSyncResponseSchema, {
    signal,
    action: 'Starting the dbt sync',
    check: { hint: 'Look for a running dbt sync job of this deployment before starting another one.' },
  });
}

export async function getDbtSyncJob(
  t: PlatformTransport,
  deploymentId: number,
  syncJobId: string,
  signal?: AbortSignal,
) {
  return t.get(`${syncPath(deploymentId)}/${encodeURIComponent(syncJobId)}`, DbtSyncJobSchema, { signal });
}

/** Polls the job until COMPLETED or FAILED (unknown states count as running). */
export async function waitForDbtSync(
  t: PlatformTransport,
  deploymentId: number,
  syncJobId: string,
  opts: WaitForDbtSyncOptions = {},
): Promise<DbtSyncJob> {
  const interval = opts.intervalMs ?? 1000;
  const end = Date.now() + (opts.timeoutMs ?? 30 * 60_000);
  for (;;) {
    const job = await getDbtSyncJob(t, deploymentId, syncJobId, opts.signal);
    opts.onStatus?.(job);
    if (FINISHED.has(job.status)) return job;
    if (Date.now() + interval > end) {
      throw new ApiError(
        'timeout',
        `The dbt sync job ${syncJobId} did not finish in time; it is still ${job.status}.`,
      );
    }
    await sleep(interval, opts.signal);
  }
}

/** One past or running sync (`DbtSyncRun`); only the id and status are needed to show it. */
export const DbtSyncRunSchema = z.looseObject({
  syncJobId: z.union([z.string(), z.number()]).transform(String),
  status: z.string(),
  trigger: maybe(z.string()),
  source: maybe(z.string()),
  branchName: maybe(z.string()),
  startedAt: maybe(z.string()),
  completedAt: maybe(z.string()),
  durationMs: maybe(z.number()),
  errorMessage: maybe(z.string()),
  failedPhase: maybe(z.string()),
  lastStage: maybe(z.string()),
});
export type DbtSyncRun = z.infer<typeof DbtSyncRunSchema>;

export const DbtSyncLogEntrySchema = z.looseObject({
  timestamp: maybe(z.string()),
  level: maybe(z.string()),
  stream: maybe(z.string()),
  message: z.string(),
  phase: maybe(z.string()),
  durationMs: maybe(z.number()),
});
export type DbtSyncLogEntry = z.infer<typeof DbtSyncLogEntrySchema>;

const LogEnvelopeSchema = z.looseObject({ items: z.array(z.unknown()) });

export const DbtSyncResultSchema = z.looseObject({
  syncJobId: z.union([z.string(), z.number()]).transform(String).optional(),
  generatedFiles: z.array(z.looseObject({ path: z.string() })).catch([]),
  cubeCount: maybe(z.number()),
  durationMs: maybe(z.number()),
  completedAt: maybe(z.string()),
  manifestStats: maybe(z.looseObject({})),
});
export type DbtSyncResult = z.infer<typeof DbtSyncResultSchema>;

export const DbtGeneratedFileSchema = z.looseObject({ path: z.string(), content: z.string() });
export type DbtGeneratedFile = z.infer<typeof DbtGeneratedFileSchema>;

export const DbtSyncCancelSchema = z.looseObject({ message: maybe(z.string()) });

export interface DbtSyncListQuery extends PageParams {
  status?: string;
  trigger?: string;
}

const jobPath = (deploymentId: number, syncJobId: string) => {
  if (!syncJobId) throw new ApiError('validation', 'A dbt sync job id is required.');
  return `${syncPath(deploymentId)}/${encodeURIComponent(syncJobId)}`;
};

/** GET /dbt-sync: past and running syncs, newest first, one page. */
export async function listDbtSyncs(
  t: PlatformTransport,
  deploymentId: number,
  q: DbtSyncListQuery = {},
  signal?: AbortSignal,
) {
  return t.list(syncPath(deploymentId), DbtSyncRunSchema, definedQuery({ ...q }), {
    signal,
    action: 'Listing dbt syncs',
  });
}

/** DELETE /dbt-sync/{id}: asks the server to stop a running sync. */
export async function cancelDbtSync(
  t: PlatformTransport,
  deploymentId: number,
  syncJobId: string,
  signal?: AbortSignal,
) {
  return t.write('DELETE', jobPath(deploymentId, syncJobId), undefined, DbtSyncCancelSchema, {
    signal,
    action: 'Cancelling the dbt sync',
    check: { hint: 'Look at the sync in the dbt syncs list: it says whether it is still running.' },
  });
}

/** The whole log of a sync so far (the server sends it in one response). */
export async function getDbtSyncLogs(
  t: PlatformTransport,
  deploymentId: number,
  syncJobId: string,
  signal?: AbortSignal,
): Promise<DbtSyncLogEntry[]> {
  const env = await t.get(`${jobPath(deploymentId, syncJobId)}/logs`, LogEnvelopeSchema, { signal });
  return readItems(env.items, DbtSyncLogEntrySchema, 'dbt sync log', t.log).items;
}

export async function getDbtSyncResult(
  t: PlatformTransport,
  deploymentId: number,
  syncJobId: string,
  signal?: AbortSignal,
) {
  return t.get(`${jobPath(deploymentId, syncJobId)}/result`, DbtSyncResultSchema, {
    signal,
    messages: { notFound: 'This dbt sync has no result (it did not complete, or it is too old).' },
  });
}

/** One page of the files a sync generated without committing them. */
export async function listDbtSyncGeneratedFiles(
  t: PlatformTransport,
  deploymentId: number,
  syncJobId: string,
  p: PageParams = {},
  signal?: AbortSignal,
) {
  return t.list(
    `${jobPath(deploymentId, syncJobId)}/generated-files`,
    DbtGeneratedFileSchema,
    { ...p },
    {
      signal,
    },
  );
}
