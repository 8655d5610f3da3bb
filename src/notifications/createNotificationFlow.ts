// The multi-step input of "Create Notification" and "Edit Notification": dashboard (a searchable,
// paged picker), schedule in words ("Every day at…"), day, time, timezone (the IANA list, the
// user's own first), then (create only) the recipients, and a summary that is a small form: the
// format, the filters (members picked from the deployment's /v1/meta, a typed member checked
// against them), time grains and other e-mails are rows to change there, defaults otherwise.
// Each step shows "n of m", validates what is typed, and has Back. Arguments given skip their step.
import { DASHBOARD_FILTER_OPERATORS, NOTIFICATION_FORMATS, SCHEDULE_TYPES } from '../api/schemas/platform';
import type { PageOfChoices } from '../ui/quickInputTypes';
import type { DashboardRef, UserRef } from '../ui/pickerSources';
import {
  DAYS,
  describeSchedule,
  filtersText,
  grainsText,
  type DraftFilter,
  type NotificationDraft,
  type ScheduleType,
} from './notificationDraft';

import { runSteps, type Step } from '../ui/steps';
import type { Prompter } from '../ui/prompter';

const FORMATS = NOTIFICATION_FORMATS;
const FILTER_OPERATORS = DASHBOARD_FILTER_OPERATORS;
/** Operators that compare against nothing. */
const VALUELESS = new Set(['is_null', 'is_not_null', 'is_empty', 'is_not_empty']);

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

/** The closest of `names` to `typed` (edit distance at most 3), for "did you mean". */
export function closestMember(typed: string, names: Iterable<string>): string | undefined {
  const dist = (a: string, b: string) => {
    const row = Array.from({ length: b.length + 1 }, (_, j) => j);
    for (let i = 1; i <= a.length; i++) {
      let prev = row[0]!;
      row[0] = i;
      for (let j = 1; j <= b.length; j++) {
        const keep = row[j]!;
        row[j] = Math.min(row[j]! + 1, row[j - 1]! + 1, prev + (a[i - 1] === b[j - 1] ? 0 : 1));
        prev = keep;
      }
    }
    return row[b.length]!;
  };
  let best: string | undefined;
  let bestD = 4;
  for (const n of names) {
    const d = dist(typed.toLowerCase(), n.toLowerCase());
    if (d < bestD) [best, bestD] = [n, d];
  }
  return best;
}

/** Why `member` is not one of the deployment's members (with the closest), or undefined. */
export function memberProblem(member: string, members: ReadonlySet<string> | undefined): string | undefined {
  if (!members || members.size === 0 || members.has(member)) return undefined;
  const near = closestMember(member, members);
  return `"${member}" is not a member of this deployment.${near ? ` Did you mean ${near}?` : ''}`;
}

/** `member operator value` -> a DashboardFilter, or a message; `members`: the deployment's. */
export function parseFilter(
  text: string,
  members?: ReadonlySet<string>,
): { member: string; operator: string; value?: unknown } | string {
  const m = /^\s*(\S+)\s+(\S+)(?:\s+(.+))?$/.exec(text);
  if (!m) return 'Write a filter as: member operator value, e.g. orders.status equals shipped.';
  const [, member, operator, raw] = m;
  const unknownMember = memberProblem(member!, members);
  if (unknownMember) return unknownMember;
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

/**
 * `f1; f2` -> filters, or the message of the first bad one. A part written exactly as one of
 * `known` (the filters the notification has) is that filter, as stored (flags, unknown operator).
 */
export function parseFilters(
  text: string,
  known: readonly DraftFilter[] = [],
  members?: ReadonlySet<string>,
): NonNullable<NotificationDraft['filters']> | string {
  const out: NonNullable<NotificationDraft['filters']> = [];
  const unused = [...known];
  for (const part of text.split(';').map((s) => s.trim())) {
    if (part === '') continue;
    const same = unused.findIndex((k) => filtersText([k]) === part);
    if (same >= 0) {
      out.push(unused.splice(same, 1)[0]!);
      continue;
    }
    const f = parseFilter(part, members);
    if (typeof f === 'string') return `${part}: ${f}`;
    out.push(f);
  }
  return out;
}

export function parseGrains(text: string): NonNullable<NotificationDraft['timeGrains']> | string {
  const out: NonNullable<NotificationDraft['timeGrains']> = [];
  for (const part of text.split(',').map((s) => s.trim())) {
    if (part === '') continue;
    const m = /^(\S+\.\S+)\s+(\S+)$/.exec(part);
    if (!m) return `${part}: write a time grain as "member grain", e.g. orders.created_at month.`;
    out.push({ member: m[1]!, grain: m[2]! });
  }
  return out;
}

const EMAIL = /^[^@\s,;]+@[^@\s,;]+\.[^@\s,;]+$/;
export function parseEmails(text: string): string[] | string {
  const out: string[] = [];
  for (const part of text.split(/[,;\s]+/).map((s) => s.trim())) {
    if (part === '') continue;
    if (!EMAIL.test(part)) return `"${part}" is not an e-mail address.`;
    out.push(part);
  }
  return out;
}

/** What the flow reads from the platform (real pickers in the product, the same in tests). */
export interface DraftSources {
  dashboards?: () => Promise<PageOfChoices<DashboardRef>>;
  users?: () => Promise<PageOfChoices<UserRef>>;
  timezones: (current?: string) => { label: string; description?: string; value: string }[];
  /** The deployment's dimensions (from /v1/meta), to pick filters from and check typed ones. */
  members?: () => Promise<MemberChoice[]>;
}

export interface MemberChoice {
  name: string;
  title?: string;
  type?: string;
}

export interface DraftResult {
  draft: NotificationDraft;
  /** The dashboard's name when picked (for messages). */
  dashboardName?: string;
  /** E-mails of the recipients chosen (create only). */
  recipients: string[];
}

interface State {
  d: NotificationDraft;
  dashboardName?: string;
  users: string[];
  emails: string[];
}

export async function askNotificationDraft(
  p: Prompter,
  given: NotificationDraft,
  sources: DraftSources,
  mode: 'create' | 'edit' = 'create',
  start: NotificationDraft = {},
  dashboardName?: string,
): Promise<DraftResult> {
  const verb = mode === 'create' ? 'Create Notification' : 'Edit Notification';
  const t = (step: string) => `${verb}: ${step}`;
  const has = (k: keyof NotificationDraft) => given[k] !== undefined;
  const s: State = { d: { ...start, ...given }, users: [], emails: [], dashboardName };
  const scheduleGiven = has('scheduleType');
  // The filters the notification has (edit): left in the set, they stay as stored.
  const known = start.filters ?? [];
  const steps: Step<State>[] = [
    {
      applies: () => mode === 'create' && !has('dashboardId') && !has('dashboardPublicId'),
      run: async (st, step) => {
        const first = await sources.dashboards!();
        const picked = await p.pick(t('dashboard'), first.choices, {
          placeHolder: 'Search the deployment’s published dashboards by name, public id or workbook',
          step,
          ...(first.more ? { more: first.more } : {}),
          active: (v) => v.dashboardId === st.d.dashboardId,
          typed: {
            hint: 'A dashboard id (digits) or public id',
            validate: (v) =>
              /^\d+$/.test(v.trim())
                ? Number(v) >= 1
                  ? undefined
                  : 'A dashboard id is a whole number of at least 1.'
                : /^[\w-]+$/.test(v.trim())
                  ? undefined
                  : 'Pick a dashboard, or type its id or public id.',
            value: (v) =>
              /^\d+$/.test(v.trim())
                ? { dashboardId: Number(v), name: `#${v.trim()}` }
                : { dashboardId: NaN, name: v.trim() },
          },
        });
        if (Number.isNaN(picked.dashboardId)) {
          delete st.d.dashboardId;
          st.d.dashboardPublicId = picked.name;
        } else {
          delete st.d.dashboardPublicId;
          st.d.dashboardId = picked.dashboardId;
        }
        st.dashboardName = picked.name;
      },
    },
    {
      applies: () => !scheduleGiven,
      run: async (st, step) => {
        st.d.scheduleType = await p.pick(
          t('schedule'),
          SCHEDULE_TYPES.map((v) => ({
            label: SCHEDULE_WORDS[v],
            description: SCHEDULE_HINTS[v],
            id: v,
            value: v,
          })),
          { placeHolder: 'How often to send it', step, active: (v) => v === st.d.scheduleType },
        );
      },
    },
    {
      applies: (st) => st.d.scheduleType === 'WEEKLY' && !has('dayOfWeek'),
      run: async (st, step) => {
        st.d.dayOfWeek = await p.pick(
          t('day of week'),
          DAYS.map((label, value) => ({ label, value })),
          { step, active: (v) => v === (st.d.dayOfWeek ?? 1) },
        );
      },
    },
    {
      applies: (st) => st.d.scheduleType === 'MONTHLY' && !has('dayOfMonth'),
      run: async (st, step) => {
        const day = await p.input({
          title: t('day of month'),
          prompt: 'Day of the month, 1 to 31.',
          value: String(st.d.dayOfMonth ?? 1),
          step,
          validate: (v) =>
            /^\d+$/.test(v.trim()) && +v >= 1 && +v <= 31 ? undefined : 'Enter a day from 1 to 31.',
        });
        st.d.dayOfMonth = Number(day);
      },
    },
    {
      applies: (st) => st.d.scheduleType === 'CUSTOM' && !has('customCron'),
      run: async (st, step) => {
        st.d.customCron = (
          await p.input({
            title: t('cron'),
            prompt: 'A cron expression with five fields: minute hour day-of-month month day-of-week.',
            placeHolder: '0 9 * * 1-5',
            value: st.d.customCron ?? '',
            step,
            validate: (v) =>
              v.trim().split(/\s+/).length === 5 ? undefined : 'A cron expression has five fields.',
          })
        ).trim();
      },
    },
    {
      applies: (st) =>
        st.d.scheduleType !== 'CUSTOM' && !(has('minute') && (has('hour') || st.d.scheduleType === 'HOURLY')),
      run: async (st, step) => {
        const hourly = st.d.scheduleType === 'HOURLY';
        const time = await p.input({
          title: t('time'),
          prompt: hourly ? 'Minute past each hour, as 00:MM.' : 'Time of day, HH:MM (24-hour).',
          value: `${String(hourly ? 0 : (st.d.hour ?? 9)).padStart(2, '0')}:${String(st.d.minute ?? 0).padStart(2, '0')}`,
          step,
          validate: (v) => {
            const r = parseTime(v);
            return typeof r === 'string' ? r : undefined;
          },
        });
        const r = parseTime(time);
        if (typeof r === 'string') return;
        st.d.minute = r.minute;
        if (hourly) delete st.d.hour;
        else st.d.hour = r.hour;
      },
    },
    {
      applies: () => !has('timezone'),
      run: async (st, step) => {
        st.d.timezone = await p.pick(t('timezone'), sources.timezones(st.d.timezone), {
          placeHolder: 'The timezone the schedule runs in (type to search, e.g. Paris)',
          step,
          active: (v) => v === st.d.timezone,
          typed: { validate: validateTimezone, value: (v) => v.trim(), hint: 'An IANA timezone name' },
        });
      },
    },
    {
      applies: () => mode === 'create' && sources.users !== undefined,
      run: async (st, step) => {
        const first = await sources.users!();
        const picked = await p.pickMany(t('recipients'), first.choices, {
          placeHolder: 'Check the users who receive it (type to search); other e-mails can be added next',
          step,
          ...(first.more ? { more: first.more } : {}),
          selected: (u) => st.users.includes(u.email),
        });
        st.users = picked.map((u) => u.email);
      },
    },
    {
      // The summary is a small form: confirm, or change the optional parts and come back here.
      run: async (st, step) => {
        for (;;) {
          const recipients = [...new Set([...st.users, ...st.emails])];
          const lines = summaryLines(st, recipients, mode);
          type Row = 'confirm' | 'format' | 'filters' | 'grains' | 'emails';
          const row = await p.pick<Row>(
            t('summary'),
            [
              {
                label: mode === 'create' ? '$(check) Create the notification' : '$(check) Save the changes',
                description: lines[0],
                detail: lines.slice(1).join(' · '),
                id: 'confirm',
                value: 'confirm',
              },
              ...optionalRow(
                !has('notificationFormat'),
                'Format',
                (st.d.notificationFormat ?? 'pdf').toUpperCase(),
                'format',
              ),
              ...optionalRow(!has('filters'), 'Filters', filtersText(st.d.filters) || 'none', 'filters'),
              ...optionalRow(
                !has('timeGrains'),
                'Time grains',
                grainsText(st.d.timeGrains) || 'none',
                'grains',
              ),
              ...optionalRow(mode === 'create', 'Other e-mails', st.emails.join(', ') || 'none', 'emails'),
            ],
            { placeHolder: 'Review, change a row, then confirm (or go Back)', step },
          );
          if (row === 'confirm') return;
          if (row === 'format') {
            st.d.notificationFormat = await p.pick(
              t('format'),
              FORMATS.map((f) => ({ label: f.toUpperCase(), value: f })),
              { active: (v) => v === (st.d.notificationFormat ?? 'pdf') },
            );
          } else if (row === 'filters') await editFilters(p, st, t, known, sources);
          else if (row === 'grains') {
            const text = await p.input({
              title: t('time grains'),
              prompt: 'Time grain overrides as "member grain", separated by ",". Leave empty for none.',
              placeHolder: 'orders.created_at month',
              value: grainsText(st.d.timeGrains),
              validate: (v) => {
                const r = parseGrains(v);
                return typeof r === 'string' ? r : undefined;
              },
            });
            const r = parseGrains(text);
            if (typeof r !== 'string') st.d.timeGrains = r;
          } else {
            const text = await p.input({
              title: t('other e-mails'),
              prompt: 'More recipients by e-mail, separated by commas. Leave empty for none.',
              placeHolder: 'ann@example.com, bob@example.com',
              value: st.emails.join(', '),
              validate: (v) => {
                const r = parseEmails(v);
                return typeof r === 'string' ? r : undefined;
              },
            });
            const r = parseEmails(text);
            if (typeof r !== 'string') st.emails = r;
          }
        }
      },
    },
  ];
  await runSteps(s, steps);
  const recipients = [...new Set([...s.users, ...s.emails])];
  return {
    draft: s.d,
    ...(s.dashboardName !== undefined ? { dashboardName: s.dashboardName } : {}),
    recipients,
  };
}

const SCHEDULE_WORDS: Record<ScheduleType, string> = {
  HOURLY: 'Every hour',
  DAILY: 'Every day at…',
  WEEKLY: 'Every week on…',
  MONTHLY: 'Every month on…',
  CUSTOM: 'Custom (cron)…',
};
const SCHEDULE_HINTS: Record<ScheduleType, string> = {
  HOURLY: 'at a minute past each hour',
  DAILY: 'at a time of day',
  WEEKLY: 'one day a week, at a time',
  MONTHLY: 'one day a month, at a time',
  CUSTOM: 'a cron expression',
};

/** Operators in words (their API names stay the values). */
const OPERATOR_WORDS: Record<string, string> = {
  equals: 'equals',
  not_equals: 'does not equal',
  greater_than: 'is greater than',
  greater_than_or_equal: 'is at least',
  less_than: 'is less than',
  less_than_or_equal: 'is at most',
  contains: 'contains',
  not_contains: 'does not contain',
  starts_with: 'starts with',
  not_starts_with: 'does not start with',
  ends_with: 'ends with',
  not_ends_with: 'does not end with',
  is_null: 'is not set',
  is_not_null: 'is set',
  is_empty: 'is empty',
  is_not_empty: 'is not empty',
  between: 'is between',
  custom: 'custom',
};

/**
 * The filters of the draft: a list to add to (member picked from the deployment's dimensions, or
 * typed and checked against them; operator in words; value) or remove from, until Done.
 */
async function editFilters(
  p: Prompter,
  st: State,
  t: (step: string) => string,
  known: readonly DraftFilter[],
  sources: DraftSources,
): Promise<void> {
  const members = sources.members ? await sources.members().catch(() => []) : [];
  const names = new Set(members.map((m) => m.name));
  type Row = { kind: 'add' | 'done' | 'text' } | { kind: 'remove'; index: number };
  for (;;) {
    const filters = st.d.filters ?? [];
    const row = await p.pick<Row>(
      t('filters'),
      [
        { label: '$(check) Done', id: 'done', value: { kind: 'done' } },
        { label: '$(add) Add a filter…', id: 'add', value: { kind: 'add' } },
        ...filters.map((f, index) => ({
          label: `$(close) ${filtersText([f])}`,
          description: 'remove',
          id: `remove:${filtersText([f])}`,
          value: { kind: 'remove' as const, index },
        })),
        { label: 'Write the filters as text…', id: 'text', value: { kind: 'text' } },
      ],
      {
        placeHolder: filters.length
          ? `${filters.length} filter(s): add, remove, or Done`
          : 'No filters: add one, or Done',
      },
    );
    if (row.kind === 'done') return;
    if (row.kind === 'remove') {
      st.d.filters = filters.filter((_, i) => i !== row.index);
      continue;
    }
    if (row.kind === 'text') {
      const text = await p.input({
        title: t('filters'),
        prompt: 'Filters as "member operator value", separated by ";". Leave empty for none.',
        placeHolder: 'orders.status equals shipped; orders.total greater_than 100',
        value: filtersText(st.d.filters),
        validate: (v) => {
          const r = parseFilters(v, known, names);
          return typeof r === 'string' ? r : undefined;
        },
      });
      const r = parseFilters(text, known, names);
      if (typeof r !== 'string') st.d.filters = r;
      continue;
    }
    const member = await p.pick<string>(
      t('filter member'),
      members.map((m) => ({
        label: m.name,
        ...(m.title || m.type ? { description: [m.title, m.type].filter(Boolean).join(' · ') } : {}),
        value: m.name,
      })),
      {
        placeHolder: members.length
          ? 'The dimension to filter on (type to search)'
          : 'The member to filter on, as cube.member (the deployment’s members could not be read)',
        typed: {
          hint: 'A member as cube.member',
          validate: (v) =>
            /^\S+\.\S+$/.test(v.trim()) ? memberProblem(v.trim(), names) : 'Write a member as cube.member.',
          value: (v) => v.trim(),
        },
      },
    );
    const operator = await p.pick<string>(
      t(`filter on ${member}`),
      FILTER_OPERATORS.filter((o) => o !== 'custom').map((o) => ({
        label: OPERATOR_WORDS[o] ?? o,
        id: o,
        value: o,
      })),
      { placeHolder: 'How to compare' },
    );
    let value: unknown;
    if (!VALUELESS.has(operator)) {
      const text = await p.input({
        title: t(`${member} ${OPERATOR_WORDS[operator] ?? operator}`),
        prompt:
          operator === 'between'
            ? 'The two bounds, separated by a comma (e.g. 2026-01-01, 2026-03-31).'
            : 'The value to compare with.',
        validate: (v) => (v.trim() === '' ? 'Enter a value.' : undefined),
      });
      const parsed = parseFilter(
        `${member} ${operator} ${operator === 'between' ? JSON.stringify(text.split(',').map((x) => x.trim())) : text}`,
      );
      value = typeof parsed === 'string' ? text.trim() : parsed.value;
    }
    st.d.filters = [...filters, { member, operator, ...(value !== undefined ? { value } : {}) }];
  }
}

function summaryLines(st: State, recipients: string[], mode: 'create' | 'edit'): string[] {
  const d = st.d;
  const lines = [`${describeSchedule(d)} (${d.timezone ?? 'UTC'})`];
  const dash = st.dashboardName ?? (d.dashboardId !== undefined ? `#${d.dashboardId}` : d.dashboardPublicId);
  if (dash) lines.push(`${(d.notificationFormat ?? 'pdf').toUpperCase()} of “${dash}”`);
  else lines.push((d.notificationFormat ?? 'pdf').toUpperCase());
  const nf = d.filters?.length ?? 0;
  if (nf > 0) lines.push(`${nf} filter${nf === 1 ? '' : 's'}`);
  const ng = d.timeGrains?.length ?? 0;
  if (ng > 0) lines.push(`${ng} time grain${ng === 1 ? '' : 's'}`);
  if (mode === 'create')
    lines.push(
      recipients.length === 0
        ? 'no recipients yet'
        : `to ${recipients.length <= 3 ? recipients.join(', ') : `${recipients.length} recipients`}`,
    );
  return lines;
}

/** A row of the summary form, offered only when `shown` (its part was not already asked for). */
function optionalRow<R extends string>(shown: boolean, label: string, description: string, value: R) {
  return shown ? [{ label, description, id: value, value }] : [];
}
