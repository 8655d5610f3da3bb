// Dashboard exports: submit a PNG/PDF render of a published dashboard, poll the job (with backoff)
// until it completes or fails, then download the file. The job and its file expire after minutes,
// so the download follows the poll at once.
import { z } from 'zod';
import { ApiError } from '../errors';
import { sleep } from '../http';
import { maybe, parseInput, positiveId, type PlatformTransport } from './transport';

export const ExportFormatSchema = z.enum(['png', 'pdf']);
export type ExportFormat = z.infer<typeof ExportFormatSchema>;

/** What the extension sends: the dashboard by numeric id, and the format (saved defaults otherwise). */
export const StartExportInputSchema = z.strictObject({
  dashboardId: z.number().int().min(1),
  format: ExportFormatSchema,
});
export type StartExportInput = z.infer<typeof StartExportInputSchema>;

export const ExportJobSchema = z.looseObject({
  jobId: z.union([z.string(), z.number()]).transform(String),
  expiresAt: maybe(z.string()),
});

export const ExportStatusSchema = z.looseObject({
  /** pending | processing | completed | failed; any other value counts as still running. */
  status: z.string(),
  progress: maybe(z.number()),
  error: maybe(z.string()),
  contentType: maybe(z.string()),
});
export type ExportStatus = z.infer<typeof ExportStatusSchema>;

const exportsPath = (deploymentId: number) =>
  `/v1/deployments/${positiveId(deploymentId, 'deploymentId')}/dashboard-exports`;
const jobPath = (deploymentId: number, jobId: string) => {
  if (!jobId) throw new ApiError('validation', 'An export job id is required.');
  return `${exportsPath(deploymentId)}/${encodeURIComponent(jobId)}`;
};

export async function startDashboardExport(
  t: PlatformTransport,
  deploymentId: number,
  input: StartExportInput,
  signal?: AbortSignal,
) {
  const body = parseInput(StartExportInputSchema, input, 'Export not started');
  return t.write('POST', exportsPath(deploymentId), body, ExportJobSchema, {
    signal,
    action: 'Starting the dashboard export',
    check: { hint: 'An export that did start expires on its own after a few minutes; start a new one.' },
  });
}

export async function getDashboardExportStatus(
  t: PlatformTransport,
  deploymentId: number,
  jobId: string,
  signal?: AbortSignal,
) {
  return t.get(jobPath(deploymentId, jobId), ExportStatusSchema, {
    signal,
    messages: { notFound: 'The export job has expired (jobs last 5 minutes): start the export again.' },
  });
}

export interface WaitForExportOptions {
  signal?: AbortSignal;
  /** First pause between polls; it doubles up to maxIntervalMs. */
  intervalMs?: number;
  maxIntervalMs?: number;
  timeoutMs?: number;
  onStatus?(s: ExportStatus): void;
}

/** Polls with backoff until `completed` or `failed` (a failed render is an error with its reason). */
export async function waitForDashboardExport(
  t: PlatformTransport,
  deploymentId: number,
  jobId: string,
  opts: WaitForExportOptions = {},
): Promise<ExportStatus> {
  let interval = opts.intervalMs ?? 250;
  const max = opts.maxIntervalMs ?? 4000;
  const end = Date.now() + (opts.timeoutMs ?? 5 * 60_000);
  for (;;) {
    const s = await getDashboardExportStatus(t, deploymentId, jobId, opts.signal);
    opts.onStatus?.(s);
    if (s.status === 'completed') return s;
    if (s.status === 'failed')
      throw new ApiError('server', `The export failed: ${s.error ?? 'the server gave no reason'}.`);
    if (Date.now() + interval > end)
      throw new ApiError('timeout', `The export did not finish in time; it is still ${s.status}.`);
    await sleep(interval, opts.signal);
    interval = Math.min(max, interval * 2);
  }
}

/** GET …/download: the rendered file's bytes and content type. */
export async function downloadDashboardExport(
  t: PlatformTransport,
  deploymentId: number,
  jobId: string,
  opts: { filename?: string; signal?: AbortSignal } = {},
): Promise<{ bytes: Uint8Array; contentType: string }> {
  const res = await t.http.request({
    method: 'GET',
    path: `${jobPath(deploymentId, jobId)}/download`,
    ...(opts.filename ? { query: { filename: opts.filename } } : {}),
    signal: opts.signal,
    action: 'Downloading the export',
    messages: {
      notFound: 'The export job has expired (jobs last 5 minutes): start the export again.',
      conflict: 'The export is still rendering.',
    },
  });
  const chunks: Uint8Array[] = [];
  for await (const c of res.body) chunks.push(c);
  return {
    bytes: Buffer.concat(chunks),
    contentType: res.headers.get('content-type') ?? 'application/octet-stream',
  };
}
