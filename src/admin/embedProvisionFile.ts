// Bulk provisioning of embed users from a file the user picks (no `vscode`): a CSV with a header
// row or JSON (an array of users, or `{users: [...]}`), each entry checked against the published
// ProvisionEmbedUserInput before anything is sent, so one bad line is named and left out rather
// than refusing the whole batch; the valid entries go in requests of at most 100; the answers are
// merged into one report naming every failure.
import {
  PROVISION_BATCH,
  ProvisionEmbedUserInputSchema,
  type AnsweredEmbedUser,
  type ProvisionEmbedUserInput,
  type ProvisionFailure,
} from '../api/platform/admin/embed';

/** An entry of the file that is not sent, and why (line of a CSV, position of a JSON entry). */
export interface Unsendable {
  where: string;
  externalId?: string;
  reason: string;
}

export interface ProvisionPlan {
  users: ProvisionEmbedUserInput[];
  /** Where each user came from in the file (same order as `users`). */
  where: string[];
  unsendable: Unsendable[];
}

/** The CSV columns read (case-insensitive); list columns separate values with `;` or `|`. */
export const CSV_COLUMNS = ['externalId', 'email', 'displayName', 'tenantGroups', 'groups'] as const;

/** Splits CSV text into rows of fields (RFC 4180 quoting; CRLF or LF). */
export function csvRows(text: string): string[][] {
  const rows: string[][] = [];
  let row: string[] = [];
  let field = '';
  let quoted = false;
  for (let i = 0; i < text.length; i++) {
    const c = text[i]!;
    if (quoted) {
      if (c === '"' && text[i + 1] === '"') {
        field += '"';
        i++;
      } else if (c === '"') quoted = false;
      else field += c;
    } else if (c === '"' && field === '') quoted = true;
    else if (c === ',') {
      row.push(field);
      field = '';
    } else if (c === '\n' || c === '\r') {
      if (c === '\r' && text[i + 1] === '\n') i++;
      row.push(field);
      rows.push(row);
      row = [];
      field = '';
    } else field += c;
  }
  if (field !== '' || row.length > 0) {
    row.push(field);
    rows.push(row);
  }
  return rows;
}

const list = (v: string | undefined) =>
  v === undefined || v.trim() === ''
    ? undefined
    : v
        .split(/[;|]/)
        .map((s) => s.trim())
        .filter(Boolean);

/** Why a value is not a user to provision, in plain words (the field and the rule). */
function problem(value: unknown): string | undefined {
  const r = ProvisionEmbedUserInputSchema.safeParse(value);
  if (r.success) return undefined;
  const i = r.error.issues[0]!;
  const field = i.path.join('.');
  if (i.code === 'unrecognized_keys') {
    // The form and the CSV say displayName; a JSON entry has the published shape, where it is nested.
    const nested =
      i.path.length === 0 && i.keys.includes('displayName') ? ' (in JSON: userProfile.displayName)' : '';
    return `unknown field ${i.keys.map((k) => `"${k}"`).join(', ')}${nested}`;
  }
  if (i.code === 'invalid_type' && i.path.length > 0) return `${field} has the wrong type`;
  return field ? `${field}: ${i.message}` : i.message;
}

function entry(plan: ProvisionPlan, where: string, value: unknown): void {
  const why = problem(value);
  const externalId =
    value && typeof value === 'object' && typeof (value as { externalId?: unknown }).externalId === 'string'
      ? (value as { externalId: string }).externalId
      : undefined;
  if (why) plan.unsendable.push({ where, ...(externalId ? { externalId } : {}), reason: why });
  else {
    plan.users.push(ProvisionEmbedUserInputSchema.parse(value));
    plan.where.push(where);
  }
}

/**
 * The users of a file: JSON when it starts with `[` or `{`, else CSV with a header row naming
 * CSV_COLUMNS. Throws (with what to do) when the file as a whole cannot be read.
 */
export function planProvisioning(text: string, fileName = 'the file'): ProvisionPlan {
  const plan: ProvisionPlan = { users: [], where: [], unsendable: [] };
  const body = text.replace(/^\uFEFF/, '').trim();
  if (body === '')
    throw new Error(`${fileName} is empty: it needs a CSV header row or a JSON list of users.`);
  if (body.startsWith('[') || body.startsWith('{')) {
    let json: unknown;
    try {
      json = JSON.parse(body);
    } catch (e) {
      throw new Error(`${fileName} is not valid JSON (${(e as Error).message}).`, { cause: e });
    }
    const users = Array.isArray(json) ? json : (json as { users?: unknown }).users;
    if (!Array.isArray(users))
      throw new Error(`${fileName} holds no list of users: use [ {...}, ... ] or {"users": [ ... ]}.`);
    users.forEach((u, i) => entry(plan, `entry ${i + 1}`, u));
    return plan;
  }
  const rows = csvRows(body);
  const header = (rows[0] ?? []).map((h) => h.trim().toLowerCase());
  const col = (name: string) => header.indexOf(name.toLowerCase());
  if (col('externalId') < 0) {
    // A spreadsheet saved with another list separator (";" in many locales) reads as one column.
    const separator = /;|\t/.test(rows[0]?.[0] ?? '') ? ' separated by commas' : '';
    throw new Error(
      `${fileName} has no externalId column: its first line must name the columns${separator} (${CSV_COLUMNS.join(', ')}).`,
    );
  }
  const unknown = header.filter((h) => h && !CSV_COLUMNS.some((c) => c.toLowerCase() === h));
  if (unknown.length > 0)
    throw new Error(
      `${fileName} has columns this command does not read (${unknown.join(', ')}): the columns are ${CSV_COLUMNS.join(', ')}.`,
    );
  rows.slice(1).forEach((cells, i) => {
    if (cells.every((c) => c.trim() === '')) return;
    const get = (name: string) => {
      const v = col(name) < 0 ? undefined : cells[col(name)];
      return v === undefined || v.trim() === '' ? undefined : v.trim();
    };
    const displayName = get('displayName');
    const tenantGroups = list(get('tenantGroups'));
    const groups = list(get('groups'));
    const email = get('email');
    entry(plan, `line ${i + 2}`, {
      externalId: get('externalId') ?? '',
      ...(email ? { email } : {}),
      ...(displayName ? { userProfile: { displayName } } : {}),
      ...(tenantGroups ? { tenantGroups } : {}),
      ...(groups ? { groups } : {}),
    });
  });
  return plan;
}

/** The users in requests of at most PROVISION_BATCH. */
export function batches<T>(users: readonly T[], size = PROVISION_BATCH): T[][] {
  const out: T[][] = [];
  for (let i = 0; i < users.length; i += size) out.push(users.slice(i, i + size));
  return out;
}

export interface ProvisionReport {
  tenant: string;
  succeeded: { externalId?: string | null; email?: string | null; id?: number }[];
  failed: { externalId: string; status?: number | null; message?: string | null }[];
  notSent: Unsendable[];
  /** Users of batches never sent (cancelled) or whose outcome is unknown, with why. */
  unknown: { externalIds: string[]; reason: string }[];
}

export function emptyReport(tenant: string, notSent: Unsendable[]): ProvisionReport {
  return { tenant, succeeded: [], failed: [], notSent, unknown: [] };
}

/** Adds one answer to the report. */
export function addAnswer(
  report: ProvisionReport,
  answer: { succeeded: AnsweredEmbedUser[]; failed: ProvisionFailure[] },
): void {
  for (const u of answer.succeeded)
    report.succeeded.push({
      ...(u.externalId !== undefined ? { externalId: u.externalId } : {}),
      ...(u.email !== undefined ? { email: u.email } : {}),
      ...(u.id !== undefined ? { id: u.id } : {}),
    });
  for (const f of answer.failed)
    report.failed.push({ externalId: f.externalId, status: f.error?.status, message: f.error?.message });
}

/** One sentence for the notification: counts, then the failures by external id (a few). */
export function reportSummary(r: ProvisionReport, total: number): string {
  const parts = [
    `Provisioned ${r.succeeded.length} of ${total} embed user${total === 1 ? '' : 's'} in ${r.tenant}.`,
  ];
  const named = (ids: string[]) =>
    `${ids.slice(0, 5).join(', ')}${ids.length > 5 ? ` and ${ids.length - 5} more` : ''}`;
  // One full stop at the end of each part, whether or not a reason ends with one.
  const end = (t: string) => t.replace(/\.?$/, '.');
  if (r.failed.length > 0)
    parts.push(
      end(
        `${r.failed.length} failed: ${named(r.failed.map((f) => `${f.externalId} (${f.message ?? `status ${f.status ?? '?'}`})`))}`,
      ),
    );
  if (r.notSent.length > 0)
    parts.push(
      end(`${r.notSent.length} not sent: ${named(r.notSent.map((u) => `${u.where}: ${u.reason}`))}`),
    );
  for (const u of r.unknown) parts.push(`${u.externalIds.length} ${u.reason}.`);
  return parts.join(' ');
}
