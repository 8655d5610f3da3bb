// The schedule of a notification, both ways: the create/update fields into a cron expression and
// a human-readable summary, and a stored cron back into those fields (so that an update of one
// field keeps the others, as the published document says).

export interface ScheduleFields {
  scheduleType?: unknown;
  minute?: unknown;
  hour?: unknown;
  dayOfWeek?: unknown;
  dayOfMonth?: unknown;
  customCron?: unknown;
}

const DAYS = ['Sunday', 'Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday', 'Saturday'];

/**
 * Fields (their ranges already checked against the operation's row) -> `{cron, human}`, or a
 * message when a custom cron is not one of five fields, which the service refuses.
 */
export function buildSchedule(b: ScheduleFields): { cron: string; human: string } | string {
  const minute = Number(b.minute ?? 0);
  const hour = Number(b.hour ?? 9);
  const hhmm = `${String(hour).padStart(2, '0')}:${String(minute).padStart(2, '0')}`;
  switch (b.scheduleType) {
    case 'HOURLY':
      return { cron: `${minute} * * * *`, human: `Every hour at minute ${minute}` };
    case 'DAILY':
      return { cron: `${minute} ${hour} * * *`, human: `Every day at ${hhmm}` };
    case 'WEEKLY': {
      const dow = Number(b.dayOfWeek ?? 1);
      return { cron: `${minute} ${hour} * * ${dow}`, human: `Every ${DAYS[dow]} at ${hhmm}` };
    }
    case 'MONTHLY': {
      const dom = Number(b.dayOfMonth ?? 1);
      return { cron: `${minute} ${hour} ${dom} * *`, human: `Every month on day ${dom} at ${hhmm}` };
    }
    default: {
      const cron = String(b.customCron);
      if (cron.trim().split(/\s+/).length !== 5) return 'customCron must be a 5-field cron expression.';
      return { cron, human: `Custom schedule (${cron})` };
    }
  }
}

/** A stored cron back into fields: one of the four simple shapes, else CUSTOM. */
export function fieldsOfCron(cron: string): ScheduleFields {
  const f = cron.trim().split(/\s+/);
  const num = (s: string | undefined) => (s !== undefined && /^\d+$/.test(s) ? Number(s) : undefined);
  const [m, h, dom, mon, dow] = f.map(num);
  if (f.length === 5 && m !== undefined && f[3] === '*' && mon === undefined) {
    if (f[1] === '*' && f[2] === '*' && f[4] === '*') return { scheduleType: 'HOURLY', minute: m };
    if (h !== undefined && f[2] === '*' && f[4] === '*') return { scheduleType: 'DAILY', minute: m, hour: h };
    if (h !== undefined && f[2] === '*' && dow !== undefined)
      return { scheduleType: 'WEEKLY', minute: m, hour: h, dayOfWeek: dow };
    if (h !== undefined && dom !== undefined && f[4] === '*')
      return { scheduleType: 'MONTHLY', minute: m, hour: h, dayOfMonth: dom };
  }
  return { scheduleType: 'CUSTOM', customCron: cron };
}
