// A notification as the create/edit flow holds it (the draft): read back from a stored
// notification (to prefill "Edit Notification"), said in words for the flow's summary, and
// compared with where an edit started so that only what changed is sent.
import type { NOTIFICATION_FORMATS, SCHEDULE_TYPES } from '../api/schemas/platform';
import type { Item } from '../explorer/loaders';

export type ScheduleType = (typeof SCHEDULE_TYPES)[number];

/**
 * A filter of the draft. `stored`: the filter exactly as the service sent it, kept while the user
 * leaves it as it is, so an edit sends it back with its flags and unknown operator.
 */
export interface DraftFilter {
  member: string;
  operator?: string;
  value?: unknown;
  stored?: Record<string, unknown>;
}

export interface NotificationDraft {
  dashboardId?: number;
  dashboardPublicId?: string;
  scheduleType?: ScheduleType;
  hour?: number;
  minute?: number;
  dayOfWeek?: number;
  dayOfMonth?: number;
  customCron?: string;
  timezone?: string;
  notificationFormat?: (typeof NOTIFICATION_FORMATS)[number];
  filters?: DraftFilter[];
  timeGrains?: { member: string; grain: string }[];
}

export const DAYS = ['Sunday', 'Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday', 'Saturday'];

/** The schedule fields of a stored cron: one of the four simple shapes, else CUSTOM. */
export function scheduleOfCron(cron: string): NotificationDraft {
  const f = cron.trim().split(/\s+/);
  const n = (s: string | undefined) => (s !== undefined && /^\d+$/.test(s) ? Number(s) : undefined);
  const [m, h, dom, , dow] = f.map(n);
  if (f.length === 5 && m !== undefined && f[3] === '*') {
    if (f[1] === '*' && f[2] === '*' && f[4] === '*') return { scheduleType: 'HOURLY', minute: m };
    if (h !== undefined && f[2] === '*' && f[4] === '*') return { scheduleType: 'DAILY', minute: m, hour: h };
    if (h !== undefined && f[2] === '*' && dow !== undefined && dow <= 6)
      return { scheduleType: 'WEEKLY', minute: m, hour: h, dayOfWeek: dow };
    if (h !== undefined && dom !== undefined && f[4] === '*')
      return { scheduleType: 'MONTHLY', minute: m, hour: h, dayOfMonth: dom };
  }
  return { scheduleType: 'CUSTOM', customCron: cron };
}

/** What "Edit Notification" starts from: the notification as the service describes it. */
export function draftOf(n: Item): NotificationDraft {
  const d: NotificationDraft =
    typeof n['cronExpression'] === 'string' ? scheduleOfCron(n['cronExpression']) : {};
  if (typeof n['timezone'] === 'string') d.timezone = n['timezone'];
  if (n['notificationFormat'] === 'pdf' || n['notificationFormat'] === 'png')
    d.notificationFormat = n['notificationFormat'];
  // An entry that is not an object (null from a hostile or broken answer) holds no filter.
  const objects = (v: unknown[]) => v.filter((x): x is Item => typeof x === 'object' && x !== null);
  if (Array.isArray(n['filters']))
    d.filters = objects(n['filters']).map((f) => ({
      member: String(f['member']),
      ...(typeof f['operator'] === 'string' ? { operator: f['operator'] } : {}),
      ...(f['value'] !== undefined && f['value'] !== null ? { value: f['value'] } : {}),
      stored: f,
    }));
  if (Array.isArray(n['timeGrains']))
    d.timeGrains = objects(n['timeGrains']).map((g) => ({
      member: String(g['member']),
      grain: String(g['grain']),
    }));
  return d;
}

const hhmm = (h: number | undefined, m: number | undefined) =>
  `${String(h ?? 0).padStart(2, '0')}:${String(m ?? 0).padStart(2, '0')}`;

/** "Every Monday at 08:15" */
export function describeSchedule(d: NotificationDraft): string {
  switch (d.scheduleType) {
    case 'HOURLY':
      return `Every hour at minute ${d.minute ?? 0}`;
    case 'DAILY':
      return `Every day at ${hhmm(d.hour, d.minute)}`;
    case 'WEEKLY':
      return `Every ${DAYS[d.dayOfWeek ?? 1]} at ${hhmm(d.hour, d.minute)}`;
    case 'MONTHLY':
      return `Every month on day ${d.dayOfMonth ?? 1} at ${hhmm(d.hour, d.minute)}`;
    case 'CUSTOM':
      return `Custom schedule (${d.customCron ?? ''})`;
    default:
      return 'No schedule';
  }
}

/** Filters as the flow's box shows them: `member operator value; …` */
export function filtersText(filters: NotificationDraft['filters']): string {
  return (filters ?? [])
    .map((f) =>
      [
        f.member,
        f.operator,
        f.value === undefined ? undefined : typeof f.value === 'string' ? f.value : JSON.stringify(f.value),
      ]
        .filter((x) => x !== undefined)
        .join(' '),
    )
    .join('; ');
}

export function grainsText(grains: NotificationDraft['timeGrains']): string {
  return (grains ?? []).map((g) => `${g.member} ${g.grain}`).join(', ');
}

const SCHEDULE_FIELDS: (keyof NotificationDraft)[] = [
  'scheduleType',
  'hour',
  'minute',
  'dayOfWeek',
  'dayOfMonth',
  'customCron',
];

const DRAFT_KEYS: (keyof NotificationDraft)[] = [
  ...SCHEDULE_FIELDS,
  'timezone',
  'notificationFormat',
  'filters',
  'timeGrains',
];

const same = (a: unknown, b: unknown) => JSON.stringify(a ?? null) === JSON.stringify(b ?? null);

/**
 * What an edit sends: only what changed from `start` (the notification as read). The schedule goes
 * as a whole when any part of it changed; a filter set that changed replaces the stored one, with
 * every filter the user left as it was sent back as stored (`{ kept }`), so its flags and unknown
 * operator survive; an unchanged set is not sent at all.
 */
export function editChanges(start: NotificationDraft, draft: NotificationDraft): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  if (SCHEDULE_FIELDS.some((k) => !same(start[k], draft[k]))) {
    for (const k of SCHEDULE_FIELDS) if (draft[k] !== undefined) out[k] = draft[k];
  }
  if (!same(start.timezone, draft.timezone) && draft.timezone !== undefined) out.timezone = draft.timezone;
  if (!same(start.notificationFormat, draft.notificationFormat) && draft.notificationFormat !== undefined)
    out.notificationFormat = draft.notificationFormat;
  const before = start.filters ?? [];
  const after = draft.filters ?? [];
  const unchanged =
    before.length === after.length && before.every((f, i) => after[i] === f || same(after[i], f));
  if (!unchanged)
    out.filters = after.map((f) =>
      f.stored
        ? { kept: f.stored }
        : {
            member: f.member,
            ...(f.operator !== undefined ? { operator: f.operator } : {}),
            ...(f.value !== undefined ? { value: f.value } : {}),
          },
    );
  if (!same(start.timeGrains, draft.timeGrains) && draft.timeGrains !== undefined)
    out.timeGrains = draft.timeGrains;
  return out;
}

/** The draft fields given in a command's arguments (the dashboard too, unless an edit). */
export function pickDraft(args: Partial<NotificationDraft>, withDashboard = true): NotificationDraft {
  const keys: (keyof NotificationDraft)[] = withDashboard
    ? ['dashboardId', 'dashboardPublicId', ...DRAFT_KEYS]
    : DRAFT_KEYS;
  const out: NotificationDraft = {};
  for (const k of keys) if (args[k] !== undefined) (out as Record<string, unknown>)[k] = args[k];
  return out;
}
