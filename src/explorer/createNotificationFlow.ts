// The multi-step input of "Create Notification": dashboard, schedule, time, timezone, format, then
// optional filters and time grains. Arguments given by the caller skip their step.
import { DASHBOARD_FILTER_OPERATORS, NOTIFICATION_FORMATS, SCHEDULE_TYPES } from '../api/schemas/platform';
import { parseDashboard } from './notificationFilter';
import type { Prompter } from './prompter';

// The API's own enumerations (one source of truth with the zod schemas the client validates with).
export type ScheduleType = (typeof SCHEDULE_TYPES)[number];
const FORMATS = NOTIFICATION_FORMATS;
const FILTER_OPERATORS = DASHBOARD_FILTER_OPERATORS;
/** Operators that compare against nothing. */
const VALUELESS = new Set(['is_null', 'is_not_null', 'is_empty', 'is_not_empty']);

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
  notificationFormat?: (typeof FORMATS)[number];
  filters?: { member: string; operator?: string; value?: unknown }[];
  timeGrains?: { member: string; grain: string }[];
}

const DAYS = ['Sunday', 'Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday', 'Saturday'];

/** "HH:MM" (24 h) -> hour and minute, or a message. */
export function parseTime(text: string): { hour: number; minute: number } | string {
  const m = /^\s*(\d{1,2}):(\d{2})\s*$/.exec(text);
  if (!m) return 'Write the time as HH:MM, 24-hour, e.g. 09:30.';
  const hour = Number(m[1]);
  const minute = Number(m[2]);
  if (hour > 23 || minute > 59) return 'Hours go from 00 to 23 and minutes from 00 to 59.';
  return { hour, minute };
}

export function validateTimezone(tz: string): string | undefined {
  const t = tz.trim();
  if (t === '') return 'Enter an IANA timezone such as UTC or Europe/Paris.';
  try {
    new Intl.DateTimeFormat('en-US', { timeZone: t });
    return undefined;
  } catch {
    return `"${t}" is not a timezone this system knows. Use an IANA name such as Europe/Paris.`;
  }
}

/** `member operator value` -> a DashboardFilter, or a message. */
export function parseFilter(text: string): { member: string; operator: string; value?: unknown } | string {
  const m = /^\s*(\S+)\s+(\S+)(?:\s+(.+))?$/.exec(text);
  if (!m) return 'Write a filter as: member operator value, e.g. orders.status equals shipped.';
  const [, member, operator, raw] = m;
  if (!(FILTER_OPERATORS as readonly string[]).includes(operator!))
    return `Unknown operator "${operator}". Use one of: ${FILTER_OPERATORS.join(', ')}.`;
  if (raw === undefined) {
    if (VALUELESS.has(operator!)) return { member: member!, operator: operator! };
    return `The operator ${operator} needs a value.`;
  }
  let value: unknown = raw.trim();
  if (/^[[{"]|^-?\d+(\.\d+)?$|^(true|false|null)$/.test(raw.trim())) {
    try {
      value = JSON.parse(raw.trim());
    } catch {
      value = raw.trim();
    }
  }
  return { member: member!, operator: operator!, value };
}

export async function askNotificationDraft(
  p: Prompter,
  given: NotificationDraft,
): Promise<NotificationDraft> {
  const d: NotificationDraft = { ...given };
  const t = (step: string) => `Create Notification: ${step}`;
  if (d.dashboardId === undefined && d.dashboardPublicId === undefined) {
    const text = await p.input({
      title: t('dashboard'),
      prompt: 'The dashboard to send: its id or its public id.',
      validate: (v) => {
        if (v.trim() === '') return 'Enter a dashboard id or public id.';
        const r = parseDashboard(v);
        return r.ok ? undefined : r.message;
      },
    });
    const r = parseDashboard(text);
    if (r.ok) Object.assign(d, r.value);
  }
  d.scheduleType ??= await p.pick(
    t('schedule'),
    SCHEDULE_TYPES.map((s) => ({ label: s, value: s })),
    'How often to send it',
  );
  if (d.scheduleType === 'CUSTOM') {
    d.customCron ??= await p.input({
      title: t('cron'),
      prompt: 'A cron expression with five fields: minute hour day-of-month month day-of-week.',
      placeHolder: '0 9 * * 1-5',
      validate: (v) =>
        v.trim().split(/\s+/).length === 5 ? undefined : 'A cron expression has five fields.',
    });
  } else {
    if (d.scheduleType === 'WEEKLY' && d.dayOfWeek === undefined)
      d.dayOfWeek = await p.pick(
        t('day of week'),
        DAYS.map((label, value) => ({ label, value })),
      );
    if (d.scheduleType === 'MONTHLY' && d.dayOfMonth === undefined) {
      const day = await p.input({
        title: t('day of month'),
        prompt: 'Day of the month, 1 to 31.',
        validate: (v) =>
          /^\d+$/.test(v.trim()) && +v >= 1 && +v <= 31 ? undefined : 'Enter a day from 1 to 31.',
      });
      d.dayOfMonth = Number(day);
    }
    if (d.minute === undefined || (d.scheduleType !== 'HOURLY' && d.hour === undefined)) {
      const time = await p.input({
        title: t('time'),
        prompt:
          d.scheduleType === 'HOURLY' ? 'Minute past each hour, as 00:MM.' : 'Time of day, HH:MM (24-hour).',
        value: '09:00',
        validate: (v) => {
          const r = parseTime(v);
          return typeof r === 'string' ? r : undefined;
        },
      });
      const r = parseTime(time);
      if (typeof r !== 'string') {
        d.minute ??= r.minute;
        if (d.scheduleType !== 'HOURLY') d.hour ??= r.hour;
      }
    }
  }
  d.timezone ??= await p.input({
    title: t('timezone'),
    prompt: 'The timezone the schedule runs in (IANA name).',
    value: Intl.DateTimeFormat().resolvedOptions().timeZone || 'UTC',
    validate: validateTimezone,
  });
  d.notificationFormat ??= await p.pick(
    t('format'),
    FORMATS.map((f) => ({ label: f.toUpperCase(), value: f })),
  );
  if (given.filters === undefined) {
    const filters: NonNullable<NotificationDraft['filters']> = [];
    for (;;) {
      const text = await p.input({
        title: t(`filter ${filters.length + 1} (optional)`),
        prompt: 'A filter as "member operator value"; leave empty to continue.',
        placeHolder: 'orders.status equals shipped',
        validate: (v) => {
          if (v.trim() === '') return undefined;
          const r = parseFilter(v);
          return typeof r === 'string' ? r : undefined;
        },
      });
      if (text.trim() === '') break;
      const r = parseFilter(text);
      if (typeof r !== 'string') filters.push(r);
    }
    if (filters.length > 0) d.filters = filters;
  }
  if (given.timeGrains === undefined) {
    const grains: NonNullable<NotificationDraft['timeGrains']> = [];
    for (;;) {
      const text = await p.input({
        title: t(`time grain ${grains.length + 1} (optional)`),
        prompt: 'A time grain override as "member grain"; leave empty to finish.',
        placeHolder: 'orders.createdAt month',
        validate: (v) =>
          v.trim() === '' || /^\S+\s+\S+$/.test(v.trim()) ? undefined : 'Write it as: member grain.',
      });
      if (text.trim() === '') break;
      const [member, grain] = text.trim().split(/\s+/);
      grains.push({ member: member!, grain: grain! });
    }
    if (grains.length > 0) d.timeGrains = grains;
  }
  return d;
}
