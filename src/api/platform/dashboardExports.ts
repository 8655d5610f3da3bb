// Dashboard exports: submit a PNG/PDF render of a published dashboard, poll the job (with backoff)
// until it completes or fails, then download the file. The job and its file expire after minutes,
// so the download follows the poll at once.
import { z } from 'zod';
import { ApiError } from '../errors';
import { sleep } from '../http';
import { mediaType } from '../net/answer';
import { call, fillPath, table } from './operation';
import { maybe, type PlatformTransport } from './transport';

export const ExportFormatSchema = z.enum(['png', 'pdf']);
export type ExportFormat = z.infer<typeof ExportFormatSchema>;

/**
 * The published StartDashboardExportInput without the render options the extension does not send:
 * the dashboard by numeric or public id (exactly one), and the format (saved defaults otherwise).
 */
export const StartExportInputSchema = z
  .strictObject({
    dashboardId: z.number().int().min(1).optional(),
    dashboardPublicId: z.string().min(1).optional(),
    format: ExportFormatSchema,
  })
  .refine((b) => (b.dashboardId === undefined) !== (b.dashboardPublicId === undefined), {
    path: ['dashboardId'],
    message: 'supply exactly one of dashboardId and dashboardPublicId',
  });
export type StartExportInput = z.input<typeof StartExportInputSchema>;

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

const exportsPath = '/v1/deployments/{deploymentId}/dashboard-exports';
const NAMES = { names: { jobId: 'An export job id' } };
const EXPIRED = 'The export job has expired (jobs last 5 minutes): start the export again.';

/** Start and status (reached as `platform.ops`); the wait and the download are functions below. */
export const EXPORTS = table(NAMES, {
  startDashboardExport: {
    method: 'POST',
    path: exportsPath,
    body: StartExportInputSchema,
    answer: ExportJobSchema,
    refused: 'Export not started',
    action: 'Starting the dashboard export',
    check: 'An export that did start expires on its own after a few minutes; start a new one.',
  },
  getDashboardExportStatus: {
    method: 'GET',
    path: `${exportsPath}/{jobId}`,
    answer: ExportStatusSchema,
    notFound: EXPIRED,
  },
});

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
    const s = await call(t, EXPORTS.getDashboardExportStatus, deploymentId, jobId, opts.signal);
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

/** The media type each export format is served as. */
export const EXPORT_TYPES: Record<ExportFormat, string> = { pdf: 'application/pdf', png: 'image/png' };

const PNG_SIGNATURE = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
// The last chunk of every PNG: length 0, "IEND", its CRC.
const PNG_END = Buffer.from([0, 0, 0, 0, 0x49, 0x45, 0x4e, 0x44, 0xae, 0x42, 0x60, 0x82]);

/**
 * What is wrong with a downloaded export, or undefined for a whole file of the asked format: its
 * declared type (PDF or PNG, and the one asked for), its first bytes (the format's signature, not an
 * HTML page) and its end (a PDF's %%EOF marker, a PNG's IEND chunk: a cut file lacks them).
 */
export function exportFileProblem(
  bytes: Uint8Array,
  contentType: string,
  expected?: ExportFormat,
): string | undefined {
  const type = mediaType(contentType);
  const format = (Object.keys(EXPORT_TYPES) as ExportFormat[]).find((f) => EXPORT_TYPES[f] === type);
  if (!format) return `the service sent ${type ?? 'a file of no declared type'}, not a PDF or PNG`;
  if (expected && format !== expected)
    return `the service sent a ${format.toUpperCase()} file where a ${expected.toUpperCase()} was asked for`;
  const buf = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  if (buf.length === 0) return 'the file is empty';
  const head = buf.subarray(0, 64).toString('latin1').trimStart();
  const signed = format === 'pdf' ? head.startsWith('%PDF-') : buf.subarray(0, 8).equals(PNG_SIGNATURE);
  if (!signed)
    return /^</.test(head)
      ? `the service sent a web page (a sign-in page or an error) labelled as ${format.toUpperCase()}`
      : `the content is not a ${format.toUpperCase()} file (it does not start like one)`;
  const whole =
    format === 'pdf'
      ? buf.subarray(Math.max(0, buf.length - 1024)).includes('%%EOF')
      : buf.subarray(buf.length - PNG_END.length).equals(PNG_END);
  if (!whole) return `the ${format.toUpperCase()} file is cut off (${buf.length} bytes, no end marker)`;
  return undefined;
}

export interface DownloadExportOptions {
  filename?: string;
  signal?: AbortSignal;
  /** The format the export was started with: a file of another format is refused. */
  format?: ExportFormat;
}

/**
 * GET …/download: the rendered file, verified (exportFileProblem) before it is returned, so a
 * caller saves only a whole PDF or PNG. Anything else is an error that says what was wrong.
 */
export async function downloadDashboardExport(
  t: PlatformTransport,
  deploymentId: number,
  jobId: string,
  opts: DownloadExportOptions = {},
): Promise<{ bytes: Uint8Array; contentType: string }> {
  const action = 'Downloading the export';
  const file = await t.http.file({
    method: 'GET',
    // The job's path, its ids checked as the status row checks them.
    path: `${fillPath(EXPORTS.getDashboardExportStatus, [deploymentId, jobId], NAMES)}/download`,
    ...(opts.filename ? { query: { filename: opts.filename } } : {}),
    signal: opts.signal,
    // The document serves only these two types here: asking for JSON would be refused (406).
    accept: opts.format ? [EXPORT_TYPES[opts.format]] : Object.values(EXPORT_TYPES),
    action,
    messages: {
      notFound: EXPIRED,
      conflict: 'The export is still rendering.',
      validation: 'The export could not be rendered; check the dashboard, then start a new export.',
    },
  });
  const problem = exportFileProblem(file.bytes, file.contentType, opts.format);
  if (problem)
    throw new ApiError(
      'protocol',
      `${action}: nothing was saved, ${problem}. Start the export again; if it keeps happening, check the profile's URL.`,
      { code: 'BAD_FILE', ...(file.requestId ? { requestId: file.requestId } : {}) },
    );
  return { bytes: file.bytes, contentType: file.contentType };
}
