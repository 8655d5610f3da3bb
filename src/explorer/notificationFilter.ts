// The notification list filter: what a user typed (or a command's arguments) turned into the query
// of GET .../notifications, refusing the combinations spec 4.1 forbids with a sentence naming them.
// No `vscode` here; notificationFilterFlow.ts asks the questions.
import { notificationQueryProblems, type NotificationListQuery } from '../api/notificationQuery';
import { plainText } from './labels';

/** The filter part of the list query (paging is the list's business). */
export type NotificationFilter = Omit<NotificationListQuery, 'first' | 'after'>;

/** Arguments a command accepts: the exact query fields, or free text for either dimension. */
export interface NotificationFilterArgs extends NotificationFilter {
  /** A dashboard id (digits) or public id. */
  dashboard?: string;
  /** A user id (digits), an e-mail (has "@"), or `tenant/externalId` for an embed user. */
  recipient?: string;
}

export const FILTER_KEYS: (keyof NotificationFilter)[] = [
  'dashboardId',
  'dashboardPublicId',
  'recipientUserId',
  'recipientEmail',
  'recipientEmbedTenantName',
  'recipientExternalId',
];

export type Parsed<T> = { ok: true; value: T } | { ok: false; message: string };

type DashboardPart = Pick<NotificationFilter, 'dashboardId' | 'dashboardPublicId'>;
type RecipientPart = Pick<
  NotificationFilter,
  'recipientUserId' | 'recipientEmail' | 'recipientEmbedTenantName' | 'recipientExternalId'
>;

function tokens(text: string): string[] {
  return text
    .split(/[\s,]+/)
    .map((t) => t.trim())
    .filter((t) => t !== '');
}

function positiveInt(t: string): number | undefined {
  if (!/^-?\d+$/.test(t)) return undefined;
  const n = Number(t);
  return Number.isSafeInteger(n) ? n : undefined;
}

/**
 * The dashboard field: an id (digits) or a public id; empty means any dashboard. Several values are
 * refused with the 4.1 rule they break (one identifier per dimension).
 */
export function parseDashboard(text: string): Parsed<DashboardPart> {
  const value: DashboardPart = {};
  const problems: string[] = [];
  for (const t of tokens(text)) {
    const n = positiveInt(t);
    if (n !== undefined) {
      if (value.dashboardId !== undefined) problems.push('Only one dashboardId can be given.');
      value.dashboardId = n;
    } else {
      if (value.dashboardPublicId !== undefined) problems.push('Only one dashboardPublicId can be given.');
      value.dashboardPublicId = t;
    }
  }
  problems.push(...notificationQueryProblems(value));
  return problems.length > 0 ? { ok: false, message: unique(problems).join(' ') } : { ok: true, value };
}

/**
 * The recipient field: a user id (digits), an e-mail (has "@"), or an embed user as
 * `tenant/externalId`; empty means any recipient. Refuses what 4.1 forbids, naming the parameters.
 */
export function parseRecipient(text: string): Parsed<RecipientPart> {
  const value: RecipientPart = {};
  const problems: string[] = [];
  for (const t of tokens(text)) {
    const n = positiveInt(t);
    const slash = t.indexOf('/');
    if (n !== undefined) {
      if (value.recipientUserId !== undefined) problems.push('Only one recipientUserId can be given.');
      value.recipientUserId = n;
    } else if (slash >= 0) {
      const tenant = t.slice(0, slash);
      const externalId = t.slice(slash + 1);
      if (value.recipientEmbedTenantName !== undefined || value.recipientExternalId !== undefined)
        problems.push('Only one embed user (recipientEmbedTenantName/recipientExternalId) can be given.');
      if (tenant !== '') value.recipientEmbedTenantName = tenant;
      if (externalId !== '') value.recipientExternalId = externalId;
    } else if (t.includes('@')) {
      if (value.recipientEmail !== undefined) problems.push('Only one recipientEmail can be given.');
      value.recipientEmail = t;
    } else {
      problems.push(
        `"${t}" is not a recipient: give a user id (digits), an e-mail, or an embed user as tenant/externalId.`,
      );
    }
  }
  problems.push(...notificationQueryProblems(value));
  return problems.length > 0 ? { ok: false, message: unique(problems).join(' ') } : { ok: true, value };
}

function unique(a: string[]): string[] {
  return [...new Set(a)];
}

/**
 * Turns command arguments into a filter, or the reasons it is refused. Free text and exact fields
 * are merged first, so giving a dashboard twice is refused like any other conflict.
 */
export function buildNotificationFilter(args: NotificationFilterArgs): Parsed<NotificationFilter> {
  const filter: NotificationFilter = {};
  const problems: string[] = [];
  const put = <K extends keyof NotificationFilter>(key: K, value: NotificationFilter[K] | undefined) => {
    if (value === undefined || value === null || (value as unknown) === '') return;
    if (filter[key] !== undefined && filter[key] !== value)
      problems.push(`${key} was given twice with different values.`);
    filter[key] = value;
  };
  for (const key of FILTER_KEYS) put(key, args[key] as never);
  if (args.dashboard !== undefined) {
    const d = parseDashboard(args.dashboard);
    if (!d.ok) problems.push(d.message);
    else for (const [k, v] of Object.entries(d.value)) put(k as keyof NotificationFilter, v as never);
  }
  if (args.recipient !== undefined) {
    const r = parseRecipient(args.recipient);
    if (!r.ok) problems.push(r.message);
    else for (const [k, v] of Object.entries(r.value)) put(k as keyof NotificationFilter, v as never);
  }
  problems.push(...notificationQueryProblems(filter));
  if (problems.length > 0) return { ok: false, message: unique(problems).join(' ') };
  return { ok: true, value: filter };
}

export function isEmptyFilter(f: NotificationFilter | undefined): boolean {
  return !f || FILTER_KEYS.every((k) => f[k] === undefined);
}

/**
 * Short text for the view description, e.g. `dashboard “Sales Overview”, recipient ann@example.com`
 * (`dashboardName` when known; the id otherwise).
 */
export function describeFilter(f: NotificationFilter, dashboardName?: string): string {
  const parts: string[] = [];
  const dash = f.dashboardId ?? f.dashboardPublicId;
  if (dashboardName !== undefined) parts.push(`dashboard “${plainText(dashboardName, 60)}”`);
  else if (dash !== undefined) parts.push(`dashboard ${dash}`);
  const who =
    f.recipientUserId ??
    f.recipientEmail ??
    (f.recipientEmbedTenantName !== undefined
      ? `${f.recipientEmbedTenantName}/${f.recipientExternalId ?? ''}`
      : undefined);
  if (who !== undefined) parts.push(`recipient ${who}`);
  return parts.join(', ');
}
