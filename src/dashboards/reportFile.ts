// A report kept as a workspace file (`*.report.json`, reports as code): a JSON object with the
// published CreateReportInput's fields under their documented names, keyed by `publicId`. Fields
// the document does not declare are the user's: they stay in the file (a pull keeps them) and are
// never sent. vscode-free, so it is unit-tested in plain Node.
import { isApiError } from '../api/errors';
import { REPORT_PUBLIC_ID, UPSERT_REPORT_FIELDS, type UpsertReportInput } from '../api/platform/reports';

export const REPORT_FILE_SUFFIX = '.report.json';

/** The report fields a pull writes into the file (what defines a report; its folder is per deployment). */
export const PULLED_FIELDS = [
  'publicId',
  'name',
  'title',
  'sqlQuery',
  'jsonQuery',
  'meta',
  'pivotItems',
  'source',
] as const;

export interface ReportFile {
  /** Everything in the file, in its order. */
  fields: Record<string, unknown>;
  /** The declared fields: what a push sends. */
  body: UpsertReportInput;
  /** Fields the document does not declare (kept in the file, not sent). */
  unknown: string[];
  publicId?: string;
}

export type ParsedReportFile = { ok: true; file: ReportFile } | { ok: false; message: string };

/** Parses a report file's text; a problem is said in words that say what to fix. */
export function parseReportFile(text: string): ParsedReportFile {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (e) {
    return { ok: false, message: `the file is not valid JSON (${(e as Error).message}).` };
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value))
    return { ok: false, message: 'the file must hold one JSON object with the report’s fields.' };
  const fields = value as Record<string, unknown>;
  const body: Record<string, unknown> = {};
  const unknown: string[] = [];
  for (const [k, v] of Object.entries(fields)) {
    if (UPSERT_REPORT_FIELDS.includes(k)) body[k] = v;
    else unknown.push(k);
  }
  const publicId = fields.publicId;
  if (publicId !== undefined && publicId !== null) {
    if (typeof publicId !== 'string' || !REPORT_PUBLIC_ID.test(publicId))
      return {
        ok: false,
        message: `publicId ${JSON.stringify(publicId)} is not a public id: it must be 12 letters or digits.`,
      };
  }
  return {
    ok: true,
    file: {
      fields,
      body: body as UpsertReportInput,
      unknown,
      ...(typeof publicId === 'string' ? { publicId } : {}),
    },
  };
}

const isEmpty = (v: unknown) => v === undefined || v === null;

/**
 * The file a pull writes: the existing file's fields in their order (its undeclared fields kept),
 * the pulled fields replaced by the server's (removed where the server has none), new ones after.
 */
export function reportFileFromServer(
  report: Record<string, unknown>,
  existing: Record<string, unknown> = {},
): Record<string, unknown> {
  const out: Record<string, unknown> = { ...existing };
  for (const f of PULLED_FIELDS) {
    if (isEmpty(report[f])) delete out[f];
    else out[f] = report[f];
  }
  return out;
}

export function formatReportFile(fields: Record<string, unknown>): string {
  return `${JSON.stringify(fields, null, 2)}\n`;
}

/** Deep equality of JSON values, object key order ignored. */
function same(a: unknown, b: unknown): boolean {
  if (isEmpty(a) && isEmpty(b)) return true;
  if (typeof a !== 'object' || typeof b !== 'object' || a === null || b === null) return a === b;
  if (Array.isArray(a) !== Array.isArray(b)) return false;
  const ka = Object.keys(a).filter((k) => !isEmpty((a as Record<string, unknown>)[k]));
  const kb = Object.keys(b).filter((k) => !isEmpty((b as Record<string, unknown>)[k]));
  if (ka.length !== kb.length) return false;
  return ka.every((k) => same((a as Record<string, unknown>)[k], (b as Record<string, unknown>)[k]));
}

/**
 * The fields a push would change on the server's report: the ones the file sends whose value
 * differs (a missing and a null value are the same; `source` is create-only, so never a change).
 */
export function pushChanges(body: UpsertReportInput, server: Record<string, unknown>): string[] {
  return Object.keys(body).filter(
    (k) => k !== 'source' && !same((body as Record<string, unknown>)[k], server[k]),
  );
}

/** The fields a pull would change in the file. */
export function pullChanges(current: Record<string, unknown>, next: Record<string, unknown>): string[] {
  const keys = new Set([...Object.keys(current), ...Object.keys(next)]);
  return [...keys].filter((k) => !same(current[k], next[k]));
}

/**
 * What a push did, as its answer tells: a report with another id than the one holding the public
 * id before (or none before) was created; the same report was updated, or left as it was when its
 * `updatedAt` did not move.
 */
export function upsertOutcome(
  before: { id: number; updatedAt?: unknown } | undefined,
  answer: { id: number; updatedAt?: unknown },
): 'created' | 'updated' | 'unchanged' {
  if (!before || before.id !== answer.id) return 'created';
  if (answer.updatedAt !== undefined && answer.updatedAt === before.updatedAt) return 'unchanged';
  return 'updated';
}

const ALPHABET = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';

/** A new public id: 12 letters or digits, minted client-side as the document asks. */
export function mintPublicId(random: (n: number) => Uint8Array): string {
  // 248 is the largest multiple of 62 below 256: bytes above it are drawn again (no bias).
  let out = '';
  while (out.length < 12) for (const b of random(16)) if (b < 248 && out.length < 12) out += ALPHABET[b % 62];
  return out;
}

/** A file name for a report: `<slug>.report.json`. */
export function reportFileName(name: string): string {
  const slug = name
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '');
  return `${slug || 'report'}${REPORT_FILE_SUFFIX}`;
}

/**
 * The upsert's 409s, told apart by the answer's `code` as the document does: each says whether
 * trying again can help. Anything else is left to the transport's own message.
 */
export function conflictError(e: unknown, publicId: string): Error | undefined {
  if (!isApiError(e) || e.status !== 409) return undefined;
  const code = e.code;
  if (code === 'upsert_branch_changed')
    return new Error(
      `Report not pushed: another push created or deleted the report with publicId ${publicId} at the same moment, so the server applied nothing. Push Report again.`,
      { cause: e },
    );
  if (code === 'ambiguous_legacy_id')
    return new Error(
      `Report not pushed: ${publicId} is an id made up for older reports and several reports share it, so nothing was changed. Give the report you mean a publicId of your own (Pull Report to File, set a new 12-character publicId, push), then use that.`,
      { cause: e },
    );
  if (code === undefined || code === '')
    return new Error(
      `Report not pushed: the publicId ${publicId} belongs to a report in another deployment (public ids are unique across the account). Pushing again will not help: give this file another publicId.`,
      { cause: e },
    );
  return undefined;
}
