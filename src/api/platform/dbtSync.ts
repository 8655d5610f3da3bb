// dbt sync jobs: start one, read its status, wait for it to finish.
import { z } from 'zod';
import { ApiError } from '../errors';
import { sleep } from '../http';
import { maybe, parseInput, positiveId, type PlatformTransport } from './transport';

export const StartDbtSyncInputSchema = z.strictObject({ branchName: z.string().min(1).optional() });

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

const FINISHED = new Set(['COMPLETED', 'FAILED']);
const syncPath = (deploymentId: number) =>
  `/v1/deployments/${positiveId(deploymentId, 'deploymentId')}/dbt-sync`;

export async function startDbtSync(
  t: PlatformTransport,
  deploymentId: number,
  input: { branchName?: string } = {},
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
