// dbt sync jobs: start one, read its status, wait for it to finish; past runs (paged), a run's log,
// its result and generated files, and cancelling a running one on the server.
import { z } from 'zod';
import { ApiError } from '../errors';
import { sleep } from '../http';
import { call, table } from './operation';
import { maybe, PageQuery, readItems, type PlatformTransport } from './transport';

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
export async function waitForDbtSync(
  t: PlatformTransport,
  deploymentId: number,
  syncJobId: string,
  opts: WaitForDbtSyncOptions = {},
): Promise<DbtSyncJob> {
  const interval = opts.intervalMs ?? 1000;
  const end = Date.now() + (opts.timeoutMs ?? 30 * 60_000);
  for (;;) {
    const job = await call(t, DBT.getDbtSyncJob, deploymentId, syncJobId, opts.signal);
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

export const DbtGeneratedFileSchema = z.looseObject({ path: z.string(), content: z.string() });

export const DbtSyncCancelSchema = z.looseObject({ message: maybe(z.string()) });

const sync = '/v1/deployments/{deploymentId}/dbt-sync';
const job = `${sync}/{syncJobId}`;

export const DBT = table(
  { names: { syncJobId: 'A dbt sync job id' } },
  {
    startDbtSync: {
      method: 'POST',
      path: sync,
      body: StartDbtSyncInputSchema.default({}),
      answer: DbtSyncResponseSchema,
      refused: 'dbt sync not started',
      action: 'Starting the dbt sync',
      check: 'Look for a running dbt sync job of this deployment before starting another one.',
    },
    getDbtSyncJob: { method: 'GET', path: job, answer: DbtSyncJobSchema },
  },
);

/** Past runs and what they left (reached as `platform.ops`). */
export const DBT_RUNS = table(
  { names: { syncJobId: 'A dbt sync job id' } },
  {
    /** GET /dbt-sync: past and running syncs, newest first, one page. */
    listDbtSyncs: {
      method: 'GET',
      path: sync,
      // The filters take the published values only (anything else the service refuses).
      query: PageQuery.extend({
        status: z.enum(['RUNNING', 'COMPLETED', 'FAILED', 'CANCELLED', 'UNKNOWN']).optional(),
        trigger: z.enum(['manual', 'api', 'webhook', 'agent', 'unknown']).optional(),
      }),
      item: DbtSyncRunSchema,
      action: 'Listing dbt syncs',
    },
    /** DELETE /dbt-sync/{id}: asks the server to stop a running sync. */
    cancelDbtSync: {
      method: 'DELETE',
      path: job,
      kind: 'write',
      answer: DbtSyncCancelSchema,
      action: 'Cancelling the dbt sync',
      check: 'Look at the sync in the dbt syncs list: it says whether it is still running.',
    },
    getDbtSyncResult: {
      method: 'GET',
      path: `${job}/result`,
      answer: DbtSyncResultSchema,
      notFound: 'This dbt sync has no result (it did not complete, or it is too old).',
    },
    /** One page of the files a sync generated without committing them. */
    listDbtSyncGeneratedFiles: {
      method: 'GET',
      path: `${job}/generated-files`,
      query: PageQuery,
      item: DbtGeneratedFileSchema,
    },
  },
);
export type DbtSyncListQuery = z.input<typeof DBT_RUNS.listDbtSyncs.query>;

const LOGS = table(
  { names: { syncJobId: 'A dbt sync job id' } },
  {
    getDbtSyncLogs: {
      method: 'GET',
      path: `${job}/logs`,
      answer: LogEnvelopeSchema,
    },
  },
);

/** The whole log of a sync so far (the server sends it in one response). */
export async function getDbtSyncLogs(
  t: PlatformTransport,
  deploymentId: number,
  syncJobId: string,
  signal?: AbortSignal,
): Promise<DbtSyncLogEntry[]> {
  const env = await call(t, LOGS.getDbtSyncLogs, deploymentId, syncJobId, signal);
  return readItems(env.items, DbtSyncLogEntrySchema, 'dbt sync log', t.log).items;
}
