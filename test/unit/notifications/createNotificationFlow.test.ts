// The "Create Notification" / "Edit Notification" flow answered by a script (no `vscode` needed):
// which steps are asked ("n of m"), what each refuses where it is typed, what the summary form
// says and changes (format, filters added and removed, time grains, other e-mails), and the draft
// it hands to the write. The draft's rules (schedule in words, cron read back, what an edit sends).
import assert from 'node:assert/strict';
import {
  askNotificationDraft,
  closestMember,
  parseEmails,
  parseFilters,
  parseFilter,
  parseGrains,
  parseTime,
  validateTimezone,
  type DraftSources,
} from '../../../src/notifications/createNotificationFlow';
import {
  describeSchedule,
  draftOf,
  editChanges,
  filtersText,
  grainsText,
  pickDraft,
  scheduleOfCron,
} from '../../../src/notifications/notificationDraft';
import { BACK, ScriptedPrompter } from '../../../src/ui/prompter';
import { scripted } from '../featureHarness';

const sources: DraftSources = {
  dashboards: async () => ({
    choices: [{ label: 'Sales', id: '7', value: { dashboardId: 7, name: 'Sales' } }],
    more: async () => ({ choices: [{ label: 'Ops', id: '8', value: { dashboardId: 8, name: 'Ops' } }] }),
  }),
  users: async () => ({
    choices: [
      { label: 'ann@x.io', value: { email: 'ann@x.io' } },
      { label: 'bob@x.io', value: { email: 'bob@x.io' } },
    ],
  }),
  timezones: (current) =>
    [...new Set([current, 'UTC', 'Europe/Paris'].filter((z): z is string => !!z))].map((z) => ({
      label: z,
      value: z,
    })),
  members: async () => [
    { name: 'orders.status', title: 'Status', type: 'string' },
    { name: 'orders.total', type: 'number' },
    { name: 'orders.region' },
  ],
};

const SUMMARY = 'Create Notification: summary';

async function run(
  answers: (string | string[])[],
  given = {},
  mode: 'create' | 'edit' = 'create',
  start = {},
) {
  const p = scripted(ScriptedPrompter, answers);
  const r = await askNotificationDraft(p, given, sources, mode, start, mode === 'edit' ? 'Sales' : undefined);
  return { ...r, p };
}

describe('notifications: the create and edit flow', () => {
  it('asks each step with its count, and hands over the draft and recipients', async () => {
    const { draft, dashboardName, recipients, p } = await run([
      'Ops',
      'DAILY',
      '7:05',
      'Europe/Paris',
      ['ann@x.io', 'bob@x.io'],
      'emails',
      'ann@x.io, carl@y.org',
      'confirm',
    ]);
    assert.deepEqual(p.asked, [
      'Create Notification: dashboard (Step 1 of 6)',
      'Create Notification: schedule (Step 2 of 6)',
      'Create Notification: time (Step 3 of 6)',
      'Create Notification: timezone (Step 4 of 6)',
      'Create Notification: recipients (Step 5 of 6)',
      `${SUMMARY} (Step 6 of 6)`,
      'Create Notification: other e-mails',
      `${SUMMARY} (Step 6 of 6)`,
    ]);
    assert.deepEqual(draft, {
      dashboardId: 8,
      scheduleType: 'DAILY',
      hour: 7,
      minute: 5,
      timezone: 'Europe/Paris',
    });
    assert.equal(dashboardName, 'Ops');
    assert.deepEqual(recipients, ['ann@x.io', 'bob@x.io', 'carl@y.org']);
    assert.deepEqual(p.rows.get(SUMMARY)?.[0], {
      label: '$(check) Create the notification',
      description: 'Every day at 07:05 (Europe/Paris)',
      detail: 'PDF of “Ops” · to ann@x.io, bob@x.io, carl@y.org',
    });
    assert.deepEqual(p.offered.get(SUMMARY), [
      '$(check) Create the notification',
      'Format',
      'Filters',
      'Time grains',
      'Other e-mails',
    ]);
    assert.deepEqual(p.picks.slice(0, 5), [
      {
        title: 'Create Notification: dashboard',
        placeHolder: 'Search the deployment’s published dashboards by name, public id or workbook',
        hint: 'A dashboard id (digits) or public id',
        active: [],
      },
      { title: 'Create Notification: schedule', placeHolder: 'How often to send it', active: [] },
      {
        title: 'Create Notification: timezone',
        placeHolder: 'The timezone the schedule runs in (type to search, e.g. Paris)',
        hint: 'An IANA timezone name',
        active: [],
      },
      {
        title: 'Create Notification: recipients',
        placeHolder: 'Check the users who receive it (type to search); other e-mails can be added next',
        active: [],
      },
      { title: SUMMARY, placeHolder: 'Review, change a row, then confirm (or go Back)', active: [] },
    ]);
    assert.deepEqual(p.picks[5]?.active, [], 'the summary again');
    assert.deepEqual(
      p.rows
        .get(SUMMARY)
        ?.slice(1)
        .map((r) => r.description),
      ['PDF', 'none', 'none', 'ann@x.io, carl@y.org'],
    );
    assert.deepEqual(p.inputs, [
      { title: 'Create Notification: time', prompt: 'Time of day, HH:MM (24-hour).', value: '09:00' },
      {
        title: 'Create Notification: other e-mails',
        prompt: 'More recipients by e-mail, separated by commas. Leave empty for none.',
        value: '',
        placeHolder: 'ann@example.com, bob@example.com',
      },
    ]);
    assert.deepEqual(p.rows.get('Create Notification: schedule'), [
      { label: 'Every hour', description: 'at a minute past each hour', detail: undefined },
      { label: 'Every day at…', description: 'at a time of day', detail: undefined },
      { label: 'Every week on…', description: 'one day a week, at a time', detail: undefined },
      { label: 'Every month on…', description: 'one day a month, at a time', detail: undefined },
      { label: 'Custom (cron)…', description: 'a cron expression', detail: undefined },
    ]);
  });

  it('hourly asks the minute only; weekly the day; monthly a day from 1 to 31; custom five cron fields', async () => {
    const hourly = await run(['Sales', 'HOURLY', '00:15', 'UTC', [], 'confirm']);
    assert.deepEqual(hourly.draft, { dashboardId: 7, scheduleType: 'HOURLY', minute: 15, timezone: 'UTC' });
    assert.equal(hourly.p.rows.get(SUMMARY)?.[0]?.detail, 'PDF of “Sales” · no recipients yet');
    assert.deepEqual(hourly.p.inputs, [
      { title: 'Create Notification: time', prompt: 'Minute past each hour, as 00:MM.', value: '00:00' },
    ]);
    const weekly = await run(['7', 'WEEKLY', 'Friday', '18:00', 'UTC', [], 'confirm']);
    assert.deepEqual(weekly.draft, {
      dashboardId: 7,
      scheduleType: 'WEEKLY',
      dayOfWeek: 5,
      hour: 18,
      minute: 0,
      timezone: 'UTC',
    });
    const monthly = await run(['pub-1', 'MONTHLY', '0', '32', 'x', '15', '06:30', 'UTC', [], 'confirm']);
    assert.deepEqual(monthly.p.refusals, [
      'Enter a day from 1 to 31.',
      'Enter a day from 1 to 31.',
      'Enter a day from 1 to 31.',
    ]);
    assert.deepEqual(monthly.draft, {
      dashboardPublicId: 'pub-1',
      scheduleType: 'MONTHLY',
      dayOfMonth: 15,
      hour: 6,
      minute: 30,
      timezone: 'UTC',
    });
    assert.equal(monthly.dashboardName, 'pub-1');
    assert.deepEqual(monthly.p.inputs[0], {
      title: 'Create Notification: day of month',
      prompt: 'Day of the month, 1 to 31.',
      value: '1',
    });
    const custom = await run(['Sales', 'CUSTOM', '0 9 * *', ' 0 9 * * 1-5 ', 'UTC', [], 'confirm']);
    assert.deepEqual(custom.p.refusals, ['A cron expression has five fields.']);
    assert.deepEqual(custom.draft, {
      dashboardId: 7,
      scheduleType: 'CUSTOM',
      customCron: '0 9 * * 1-5',
      timezone: 'UTC',
    });
    assert.equal(custom.p.rows.get(SUMMARY)?.[0]?.description, 'Custom schedule (0 9 * * 1-5) (UTC)');
    assert.deepEqual(custom.p.inputs[0], {
      title: 'Create Notification: cron',
      prompt: 'A cron expression with five fields: minute hour day-of-month month day-of-week.',
      value: '',
      placeHolder: '0 9 * * 1-5',
    });
    assert.deepEqual(weekly.p.picks[2], { title: 'Create Notification: day of week', active: ['Monday'] });
  });

  it('refuses where it is typed: a dashboard id below 1, a bad time, an unknown timezone', async () => {
    const { p, draft } = await run([
      '0',
      'a b',
      '12',
      'DAILY',
      '9',
      '24:00',
      '23:60',
      ' 23:59 ',
      'Mars/Base',
      ' ',
      'Asia/Tokyo',
      [],
      'confirm',
    ]);
    assert.deepEqual(p.refusals, [
      'A dashboard id is a whole number of at least 1.',
      'Pick a dashboard, or type its id or public id.',
      'Write the time as HH:MM, 24-hour, e.g. 09:30.',
      'Hours go from 00 to 23 and minutes from 00 to 59.',
      'Hours go from 00 to 23 and minutes from 00 to 59.',
      '"Mars/Base" is not a timezone this system knows. Use an IANA name such as Europe/Paris.',
      'Enter an IANA timezone such as UTC or Europe/Paris.',
    ]);
    assert.deepEqual(draft, {
      dashboardId: 12,
      scheduleType: 'DAILY',
      hour: 23,
      minute: 59,
      timezone: 'Asia/Tokyo',
    });
  });

  it('Back returns to the step before, its answer as the default', async () => {
    const weekly = await run([
      'Sales',
      'WEEKLY',
      'Monday',
      BACK,
      'Tuesday',
      '10:00',
      BACK,
      '11:00',
      'UTC',
      [],
      'confirm',
    ]);
    assert.deepEqual(weekly.draft, {
      dashboardId: 7,
      scheduleType: 'WEEKLY',
      dayOfWeek: 2,
      hour: 11,
      minute: 0,
      timezone: 'UTC',
    });
    assert.equal(weekly.p.asked.filter((a) => a.startsWith('Create Notification: day of week')).length, 2);
    // Asked again, each step opens on the answer given before.
    assert.deepEqual(
      weekly.p.picks.filter((x) => x.title === 'Create Notification: day of week').map((x) => x.active),
      [['Monday'], ['Monday']],
    );
    assert.deepEqual(
      weekly.p.inputs.map((q) => q.value),
      ['09:00', '09:00', '10:00'],
    );
    // Back through the time and the day to the schedule, then on with another schedule.
    const { p, draft } = await run([
      'Sales',
      'WEEKLY',
      'Monday',
      '10:30',
      BACK,
      BACK,
      BACK,
      'DAILY',
      '12:00',
      'UTC',
      [],
      'confirm',
    ]);
    assert.deepEqual([draft.scheduleType, draft.hour, draft.minute], ['DAILY', 12, 0]);
    const times = (what: string) =>
      p.asked.filter((a) => a.startsWith(`Create Notification: ${what} (`)).length;
    assert.deepEqual(
      [times('schedule'), times('day of week'), times('time'), times('timezone')],
      [2, 2, 3, 2],
    );
  });

  it('what the arguments give is not asked; the summary offers only what is left', async () => {
    const given = {
      dashboardId: 7,
      scheduleType: 'HOURLY' as const,
      minute: 5,
      timezone: 'UTC',
      notificationFormat: 'png' as const,
      filters: [],
    };
    const p = new ScriptedPrompter(['confirm']);
    const r = await askNotificationDraft(p, given, { timezones: sources.timezones });
    assert.deepEqual(p.asked, ['Create Notification: summary (Step 1 of 1)']);
    assert.deepEqual(p.offered.get(SUMMARY), [
      '$(check) Create the notification',
      'Time grains',
      'Other e-mails',
    ]);
    assert.deepEqual(r.draft, given);
    assert.equal(p.rows.get(SUMMARY)?.[0]?.detail, 'PNG of “#7” · no recipients yet');
  });

  it('the summary form: format, filters added by member and operator, grains, e-mails', async () => {
    const { draft, recipients, p } = await run([
      'Sales',
      'DAILY',
      '09:00',
      'UTC',
      [],
      'format',
      'PNG',
      'filters',
      'add',
      'orders.status',
      'equals',
      ' shipped ',
      'add',
      'orders.totl',
      'orders.total',
      'between',
      '10, 20',
      'add',
      'orders.region',
      'is_null',
      'remove:orders.status equals shipped',
      'done',
      'grains',
      'orders.created_at',
      'orders.created_at month, orders.shipped_at week',
      'emails',
      'dan',
      'dan@x.io dan@x.io',
      'confirm',
    ]);
    assert.deepEqual(draft.filters, [
      { member: 'orders.total', operator: 'between', value: ['10', '20'] },
      { member: 'orders.region', operator: 'is_null' },
    ]);
    assert.equal(draft.notificationFormat, 'png');
    assert.deepEqual(draft.timeGrains, [
      { member: 'orders.created_at', grain: 'month' },
      { member: 'orders.shipped_at', grain: 'week' },
    ]);
    assert.deepEqual(recipients, ['dan@x.io']);
    assert.deepEqual(p.refusals, [
      '"orders.totl" is not a member of this deployment. Did you mean orders.total?',
      'orders.created_at: write a time grain as "member grain", e.g. orders.created_at month.',
      '"dan" is not an e-mail address.',
    ]);
    assert.deepEqual(p.rows.get('Create Notification: filter member'), [
      { label: 'orders.status', description: 'Status · string', detail: undefined },
      { label: 'orders.total', description: 'number', detail: undefined },
      { label: 'orders.region', description: undefined, detail: undefined },
    ]);
    assert.deepEqual(p.rows.get(SUMMARY)?.slice(1), [
      { label: 'Format', description: 'PNG', detail: undefined },
      {
        label: 'Filters',
        description: 'orders.total between ["10","20"]; orders.region is_null',
        detail: undefined,
      },
      {
        label: 'Time grains',
        description: 'orders.created_at month, orders.shipped_at week',
        detail: undefined,
      },
      { label: 'Other e-mails', description: 'dan@x.io, dan@x.io', detail: undefined },
    ]);
    assert.equal(
      p.rows.get(SUMMARY)?.[0]?.detail,
      'PNG of “Sales” · 2 filters · 2 time grains · to dan@x.io',
    );
    assert.ok(p.asked.includes('Create Notification: orders.total is between'));
    const placeHolders = (title: string) =>
      p.picks.filter((x) => x.title === title).map((x) => x.placeHolder);
    assert.deepEqual(placeHolders('Create Notification: filters'), [
      'No filters: add one, or Done',
      '1 filter(s): add, remove, or Done',
      '2 filter(s): add, remove, or Done',
      '3 filter(s): add, remove, or Done',
      '2 filter(s): add, remove, or Done',
    ]);
    assert.deepEqual(placeHolders('Create Notification: filter member'), [
      'The dimension to filter on (type to search)',
      'The dimension to filter on (type to search)',
      'The dimension to filter on (type to search)',
    ]);
    assert.deepEqual(placeHolders('Create Notification: filter on orders.status'), ['How to compare']);
    assert.deepEqual(p.picks.find((x) => x.title === 'Create Notification: format')?.active, ['PDF']);
    assert.deepEqual(p.offered.get('Create Notification: format'), ['PNG', 'PDF']);
    assert.deepEqual(p.offered.get('Create Notification: filter on orders.status'), [
      'equals',
      'does not equal',
      'is greater than',
      'is at least',
      'is less than',
      'is at most',
      'contains',
      'does not contain',
      'starts with',
      'does not start with',
      'ends with',
      'does not end with',
      'is not set',
      'is set',
      'is empty',
      'is not empty',
      'is between',
    ]);
    assert.deepEqual(p.rows.get('Create Notification: filters'), [
      { label: '$(check) Done', description: undefined, detail: undefined },
      { label: '$(add) Add a filter…', description: undefined, detail: undefined },
      { label: '$(close) orders.total between ["10","20"]', description: 'remove', detail: undefined },
      { label: '$(close) orders.region is_null', description: 'remove', detail: undefined },
      { label: 'Write the filters as text…', description: undefined, detail: undefined },
    ]);
    const asked = (title: string) => p.inputs.filter((q) => q.title === title);
    assert.deepEqual(asked('Create Notification: orders.status equals'), [
      { title: 'Create Notification: orders.status equals', prompt: 'The value to compare with.' },
    ]);
    assert.deepEqual(asked('Create Notification: orders.total is between'), [
      {
        title: 'Create Notification: orders.total is between',
        prompt: 'The two bounds, separated by a comma (e.g. 2026-01-01, 2026-03-31).',
      },
    ]);
    assert.deepEqual(asked('Create Notification: time grains'), [
      {
        title: 'Create Notification: time grains',
        prompt: 'Time grain overrides as "member grain", separated by ",". Leave empty for none.',
        value: '',
        placeHolder: 'orders.created_at month',
      },
    ]);
  });

  it('filters written as text; a value that reads as JSON is kept as such', async () => {
    const { draft, p } = await run([
      'Sales',
      'DAILY',
      '09:00',
      'UTC',
      [],
      'filters',
      'text',
      'orders.status equals',
      'orders.status equals shipped; orders.total greater_than 100; orders.region equals [1,2]',
      'done',
      'confirm',
    ]);
    assert.deepEqual(p.refusals, ['orders.status equals: The operator equals needs a value.']);
    assert.deepEqual(p.inputs.at(-1), {
      title: 'Create Notification: filters',
      prompt: 'Filters as "member operator value", separated by ";". Leave empty for none.',
      value: '',
      placeHolder: 'orders.status equals shipped; orders.total greater_than 100',
    });
    assert.deepEqual(draft.filters, [
      { member: 'orders.status', operator: 'equals', value: 'shipped' },
      { member: 'orders.total', operator: 'greater_than', value: 100 },
      { member: 'orders.region', operator: 'equals', value: [1, 2] },
    ]);
    assert.equal(p.rows.get(SUMMARY)?.[0]?.detail, 'PDF of “Sales” · 3 filters · no recipients yet');
  });

  it('members unreadable: any cube.member is accepted, the placeholder says why', async () => {
    const p = scripted(ScriptedPrompter, [
      'filters',
      'add',
      'status',
      'x.y',
      'contains',
      'ab',
      'done',
      'confirm',
    ]);
    const r = await askNotificationDraft(
      p,
      { dashboardId: 7, scheduleType: 'HOURLY', minute: 0, timezone: 'UTC' },
      { timezones: sources.timezones, members: async () => Promise.reject(new Error('no meta')) },
    );
    assert.deepEqual(p.refusals, ['Write a member as cube.member.']);
    assert.deepEqual(r.draft.filters, [{ member: 'x.y', operator: 'contains', value: 'ab' }]);
    assert.deepEqual(p.offered.get('Create Notification: filter member'), []);
    assert.equal(
      p.picks.find((x) => x.title === 'Create Notification: filter member')?.placeHolder,
      'The member to filter on, as cube.member (the deployment’s members could not be read)',
    );
  });

  it('edit: starts from the notification, asks no dashboard nor recipients, says "Save the changes"', async () => {
    const start = draftOf({ cronExpression: '30 8 * * 1', timezone: 'UTC', notificationFormat: 'png' });
    const { p, draft, recipients } = await run(
      ['WEEKLY', 'Wednesday', '08:30', 'UTC', 'confirm'],
      {},
      'edit',
      start,
    );
    assert.deepEqual(p.asked.slice(0, 2), [
      'Edit Notification: schedule (Step 1 of 5)',
      'Edit Notification: day of week (Step 2 of 5)',
    ]);
    assert.deepEqual(editChanges(start, draft), {
      scheduleType: 'WEEKLY',
      hour: 8,
      minute: 30,
      dayOfWeek: 3,
    });
    assert.deepEqual(recipients, []);
    assert.deepEqual(p.rows.get('Edit Notification: summary')?.[0], {
      label: '$(check) Save the changes',
      description: 'Every Wednesday at 08:30 (UTC)',
      detail: 'PNG of “Sales”',
    });
    assert.ok(!p.offered.get('Edit Notification: summary')!.includes('Other e-mails'));
    assert.deepEqual(
      p.picks.slice(0, 3).map((x) => x.active),
      [['Every week on…'], ['Monday'], ['UTC']],
    );
    assert.equal(p.inputs[0]?.value, '08:30');
  });
});

describe('notifications: the flow’s rules a survivor showed were untested', () => {
  it('what the arguments give is not asked: the day, the day of month, the cron, the public id', async () => {
    const cases: [object, string[]][] = [
      [{ dashboardId: 7, scheduleType: 'WEEKLY', dayOfWeek: 3, hour: 8, minute: 0, timezone: 'UTC' }, []],
      [{ dashboardId: 7, scheduleType: 'MONTHLY', dayOfMonth: 3, hour: 8, minute: 0, timezone: 'UTC' }, []],
      [{ dashboardPublicId: 'pub-1', scheduleType: 'CUSTOM', customCron: '0 9 * * *', timezone: 'UTC' }, []],
      [{ dashboardId: 7, scheduleType: 'DAILY', hour: 8, minute: 0, timezone: 'UTC' }, []],
      [
        { dashboardId: 7, scheduleType: 'DAILY', minute: 0, timezone: 'UTC' },
        ['Create Notification: time (Step 1 of 2)'],
      ],
    ];
    for (const [given, asked] of cases) {
      const p = scripted(ScriptedPrompter, asked.length > 0 ? ['10:00', 'confirm'] : ['confirm']);
      const r = await askNotificationDraft(p, given, { timezones: sources.timezones });
      assert.deepEqual(p.asked.slice(0, -1), asked, JSON.stringify(given));
      assert.equal(r.draft.scheduleType, (given as { scheduleType: string }).scheduleType);
    }
    assert.equal(cases.length, 5);
  });

  it('a dashboard typed: digits are an id (1 and up), anything else of letters, digits and dashes a public id', async () => {
    const cases: [string, object, string][] = [
      [' 12 ', { dashboardId: 12 }, '#12'],
      ['1', { dashboardId: 1 }, '#1'],
      ['12a', { dashboardPublicId: '12a' }, '12a'],
      [' pub-2 ', { dashboardPublicId: 'pub-2' }, 'pub-2'],
    ];
    for (const [typed, want, name] of cases) {
      const p = scripted(ScriptedPrompter, [typed, 'confirm']);
      const r = await askNotificationDraft(
        p,
        { scheduleType: 'HOURLY', minute: 0, timezone: 'UTC' },
        { dashboards: sources.dashboards, timezones: sources.timezones },
      );
      assert.deepEqual(
        { ...r.draft, scheduleType: undefined, minute: undefined, timezone: undefined },
        {
          ...want,
          scheduleType: undefined,
          minute: undefined,
          timezone: undefined,
        },
      );
      assert.equal(r.dashboardName, name, typed);
    }
    assert.equal(cases.length, 4);
  });

  it('Back to the dashboard opens on the one picked; the day of month takes 1 and 31; cron fields split on any spaces', async () => {
    const { p } = await run([
      'Sales',
      'MONTHLY',
      BACK,
      BACK,
      'Sales',
      'MONTHLY',
      '31',
      '00:00',
      'UTC',
      [],
      'confirm',
    ]);
    assert.deepEqual(
      p.picks.filter((x) => x.title === 'Create Notification: dashboard').map((x) => x.active),
      [[], ['Sales']],
    );
    const one = await run(['Sales', 'MONTHLY', ' 1 ', '00:00', 'UTC', [], 'confirm']);
    assert.equal(one.draft.dayOfMonth, 1);
    const cron = await run(['Sales', 'CUSTOM', '0  9 * *\t1', 'UTC', [], 'confirm']);
    assert.deepEqual(cron.p.refusals, []);
    assert.equal(cron.draft.customCron, '0  9 * *\t1');
  });

  it('the summary counts one filter, one grain, and names at most three recipients', async () => {
    const one = await run([
      'Sales',
      'HOURLY',
      '00:00',
      'UTC',
      ['ann@x.io', 'bob@x.io'],
      'filters',
      'text',
      'orders.status equals x',
      'done',
      'grains',
      'orders.created_at day',
      'emails',
      'c@x.io d@x.io',
      'confirm',
    ]);
    assert.equal(
      one.p.rows.get(SUMMARY)?.[0]?.detail,
      'PDF of “Sales” · 1 filter · 1 time grain · to 4 recipients',
    );
    const three = await run([
      'Sales',
      'HOURLY',
      '00:00',
      'UTC',
      ['ann@x.io', 'bob@x.io'],
      'emails',
      'c@x.io',
      'confirm',
    ]);
    assert.equal(three.p.rows.get(SUMMARY)?.[0]?.detail, 'PDF of “Sales” · to ann@x.io, bob@x.io, c@x.io');
    const p = scripted(ScriptedPrompter, ['confirm']);
    await askNotificationDraft(
      p,
      { scheduleType: 'HOURLY', minute: 0, timezone: 'UTC' },
      { timezones: sources.timezones },
      'edit',
    );
    assert.deepEqual(p.rows.get('Edit Notification: summary')?.[0], {
      label: '$(check) Save the changes',
      description: 'Every hour at minute 0 (UTC)',
      detail: 'PDF',
    });
  });

  it('a value that is only spaces is refused; a value that is not JSON is kept as text', async () => {
    const { draft, p } = await run([
      'Sales',
      'HOURLY',
      '00:00',
      'UTC',
      [],
      'filters',
      'add',
      'orders.total',
      'equals',
      '  ',
      ' 7 ',
      'done',
      'confirm',
    ]);
    assert.deepEqual(p.refusals, ['Enter a value.']);
    assert.deepEqual(draft.filters, [{ member: 'orders.total', operator: 'equals', value: 7 }]);
    const bad = await run([
      'Sales',
      'HOURLY',
      '00:00',
      'UTC',
      [],
      'filters',
      'add',
      'orders.x',
      'orders.total',
      'equals',
      ' {x ',
      'done',
      'confirm',
    ]);
    assert.deepEqual(bad.draft.filters, [{ member: 'orders.total', operator: 'equals', value: '{x' }]);
  });

  it('parsers: the edges of each rule', () => {
    assert.equal(parseTime('09:30x'), 'Write the time as HH:MM, 24-hour, e.g. 09:30.');
    assert.equal(closestMember('a.bz', ['a.bx', 'a.by']), 'a.bx');
    assert.equal(closestMember('orders.statuz', ['orders.status', 'orders.total']), 'orders.status');
    assert.equal(closestMember('abcd', ['abce']), 'abce');
    assert.equal(closestMember('zzzz', ['abcd']), undefined);
    assert.equal(closestMember('abcq', ['abcqq', 'abc']), 'abcqq');
    assert.deepEqual(parseFilter('a.b  equals  x '), { member: 'a.b', operator: 'equals', value: 'x' });
    assert.equal(
      parseFilter('a.b foo x'),
      `Unknown operator "foo". Use one of: ${[
        'equals',
        'not_equals',
        'greater_than',
        'greater_than_or_equal',
        'less_than',
        'less_than_or_equal',
        'contains',
        'not_contains',
        'starts_with',
        'not_starts_with',
        'ends_with',
        'not_ends_with',
        'is_null',
        'is_not_null',
        'is_empty',
        'is_not_empty',
        'between',
        'custom',
      ].join(', ')}.`,
    );
    const values: [string, unknown][] = [
      ['1.25', 1.25],
      ['1e5', '1e5'],
      ['7 ', 7],
      ['{bad ', '{bad'],
      ['-3', -3],
    ];
    for (const [raw, value] of values)
      assert.deepEqual(parseFilter(`a.b equals ${raw}`), { member: 'a.b', operator: 'equals', value }, raw);
    assert.equal(values.length, 5);
    assert.deepEqual(parseFilters('a.b equals x;'), [{ member: 'a.b', operator: 'equals', value: 'x' }]);
    assert.equal(
      parseGrains('foo a.b day'),
      'foo a.b day: write a time grain as "member grain", e.g. orders.created_at month.',
    );
    assert.deepEqual(parseGrains('a.b  day'), [{ member: 'a.b', grain: 'day' }]);
  });
});

describe('notifications: the flow’s last rules', () => {
  it('the summary’s rows before any change; given grains leave their row out', async () => {
    const p = scripted(ScriptedPrompter, ['confirm']);
    await askNotificationDraft(
      p,
      { dashboardId: 7, scheduleType: 'HOURLY', minute: 0, timezone: 'UTC', timeGrains: [] },
      { timezones: sources.timezones },
    );
    assert.deepEqual(p.rows.get(SUMMARY)?.slice(1), [
      { label: 'Format', description: 'PDF', detail: undefined },
      { label: 'Filters', description: 'none', detail: undefined },
      { label: 'Other e-mails', description: 'none', detail: undefined },
    ]);
  });

  it('Back from the summary: the users checked stay checked', async () => {
    const { p, recipients } = await run([
      'Sales',
      'HOURLY',
      '00:00',
      'UTC',
      ['bob@x.io'],
      BACK,
      ['bob@x.io'],
      'confirm',
    ]);
    assert.deepEqual(
      p.picks.filter((x) => x.title === 'Create Notification: recipients').map((x) => x.active),
      [[], ['bob@x.io']],
    );
    assert.deepEqual(recipients, ['bob@x.io']);
  });

  it('typed values are trimmed; a dashboard id of 0 is refused however it is written', async () => {
    const { p, draft } = await run([
      ' 0 ',
      '00',
      'Sales',
      'HOURLY',
      '00:00',
      ' Asia/Tokyo ',
      [],
      'filters',
      'add',
      ' orders.total ',
      'is_null',
      'done',
      'confirm',
    ]);
    assert.deepEqual(p.refusals, [
      'A dashboard id is a whole number of at least 1.',
      'A dashboard id is a whole number of at least 1.',
    ]);
    assert.equal(draft.timezone, 'Asia/Tokyo');
    assert.deepEqual(draft.filters, [{ member: 'orders.total', operator: 'is_null' }]);
  });
});

describe('notifications: the draft’s rules', () => {
  it('reads a stored cron back as one of the four shapes, else custom', () => {
    const cases: [string, object][] = [
      ['15 * * * *', { scheduleType: 'HOURLY', minute: 15 }],
      ['0 9 * * *', { scheduleType: 'DAILY', minute: 0, hour: 9 }],
      ['30 8 * * 6', { scheduleType: 'WEEKLY', minute: 30, hour: 8, dayOfWeek: 6 }],
      ['30 8 * * 7', { scheduleType: 'CUSTOM', customCron: '30 8 * * 7' }],
      ['0 6 1 * *', { scheduleType: 'MONTHLY', minute: 0, hour: 6, dayOfMonth: 1 }],
      ['0 9 * * 1-5', { scheduleType: 'CUSTOM', customCron: '0 9 * * 1-5' }],
      ['0 9 * 1 *', { scheduleType: 'CUSTOM', customCron: '0 9 * 1 *' }],
      ['*/5 * * * *', { scheduleType: 'CUSTOM', customCron: '*/5 * * * *' }],
      ['0 9 * *', { scheduleType: 'CUSTOM', customCron: '0 9 * *' }],
      ['0 9 1 * 1', { scheduleType: 'CUSTOM', customCron: '0 9 1 * 1' }],
      ['0 * 1 * *', { scheduleType: 'CUSTOM', customCron: '0 * 1 * *' }],
      ['5 * * * 1', { scheduleType: 'CUSTOM', customCron: '5 * * * 1' }],
      ['5 * 1 * 1', { scheduleType: 'CUSTOM', customCron: '5 * 1 * 1' }],
      ['0 x * * *', { scheduleType: 'CUSTOM', customCron: '0 x * * *' }],
      ['0 9 1x * *', { scheduleType: 'CUSTOM', customCron: '0 9 1x * *' }],
      ['0 9 * * * *', { scheduleType: 'CUSTOM', customCron: '0 9 * * * *' }],
      [' 0  9 * * * ', { scheduleType: 'DAILY', minute: 0, hour: 9 }],
      ['0 9 * * 1x', { scheduleType: 'CUSTOM', customCron: '0 9 * * 1x' }],
    ];
    for (const [cron, want] of cases) assert.deepEqual(scheduleOfCron(cron), want, cron);
    assert.equal(cases.length, 18);
  });

  it('says the schedule in words', () => {
    assert.deepEqual(
      [
        describeSchedule({ scheduleType: 'HOURLY' }),
        describeSchedule({ scheduleType: 'HOURLY', minute: 7 }),
        describeSchedule({ scheduleType: 'DAILY', hour: 7, minute: 5 }),
        describeSchedule({ scheduleType: 'DAILY' }),
        describeSchedule({ scheduleType: 'WEEKLY', dayOfWeek: 0, hour: 18, minute: 30 }),
        describeSchedule({ scheduleType: 'WEEKLY' }),
        describeSchedule({ scheduleType: 'MONTHLY', dayOfMonth: 28, hour: 6 }),
        describeSchedule({ scheduleType: 'MONTHLY' }),
        describeSchedule({ scheduleType: 'CUSTOM', customCron: '0 9 * * 1-5' }),
        describeSchedule({ scheduleType: 'CUSTOM' }),
        describeSchedule({}),
      ],
      [
        'Every hour at minute 0',
        'Every hour at minute 7',
        'Every day at 07:05',
        'Every day at 00:00',
        'Every Sunday at 18:30',
        'Every Monday at 00:00',
        'Every month on day 28 at 06:00',
        'Every month on day 1 at 00:00',
        'Custom schedule (0 9 * * 1-5)',
        'Custom schedule ()',
        'No schedule',
      ],
    );
  });

  it('reads a stored notification, ignoring what is not a filter or grain', () => {
    assert.deepEqual(
      draftOf({
        cronExpression: '0 9 * * *',
        timezone: 'UTC',
        notificationFormat: 'csv',
        filters: [null, 'x', { member: 'a.b', value: null }, { member: 'a.c', operator: 'equals', value: 0 }],
        timeGrains: [null, { member: 'a.d', grain: 'day' }],
      }),
      {
        scheduleType: 'DAILY',
        minute: 0,
        hour: 9,
        timezone: 'UTC',
        filters: [
          { member: 'a.b', stored: { member: 'a.b', value: null } },
          {
            member: 'a.c',
            operator: 'equals',
            value: 0,
            stored: { member: 'a.c', operator: 'equals', value: 0 },
          },
        ],
        timeGrains: [{ member: 'a.d', grain: 'day' }],
      },
    );
    assert.deepEqual(draftOf({ cronExpression: 5, timezone: 3, filters: 'x', timeGrains: {} }), {});
    assert.deepEqual(draftOf({ notificationFormat: 'png' }), { notificationFormat: 'png' });
    assert.deepEqual(draftOf({ notificationFormat: 'pdf', filters: [{ member: 'a.e' }] }), {
      notificationFormat: 'pdf',
      filters: [{ member: 'a.e', stored: { member: 'a.e' } }],
    });
  });

  it('an edit sends the timezone, format and grains only when they changed', () => {
    const start = {
      scheduleType: 'DAILY' as const,
      hour: 9,
      minute: 0,
      timezone: 'UTC',
      notificationFormat: 'pdf' as const,
    };
    assert.deepEqual(editChanges(start, { ...start, timezone: 'Asia/Tokyo', notificationFormat: 'png' }), {
      timezone: 'Asia/Tokyo',
      notificationFormat: 'png',
    });
    assert.deepEqual(
      editChanges(start, { ...start, timezone: undefined, notificationFormat: undefined }),
      {},
    );
    assert.deepEqual(editChanges(start, { ...start, timeGrains: [{ member: 'a.b', grain: 'day' }] }), {
      timeGrains: [{ member: 'a.b', grain: 'day' }],
    });
    assert.deepEqual(editChanges({ ...start, timeGrains: [] }, { ...start, timeGrains: [] }), {});
    assert.deepEqual(
      editChanges({ ...start, timeGrains: [{ member: 'a.b', grain: 'day' }] }, { ...start }),
      {},
    );
    assert.deepEqual(editChanges(start, { ...start, filters: [{ member: 'a.b' }] }), {
      filters: [{ member: 'a.b' }],
    });
    assert.deepEqual(editChanges(start, { ...start, minute: 30, dayOfWeek: undefined }), {
      scheduleType: 'DAILY',
      hour: 9,
      minute: 30,
    });
    assert.deepEqual(editChanges(start, { ...start, filters: [{ member: 'a.b', operator: 'is_null' }] }), {
      filters: [{ member: 'a.b', operator: 'is_null' }],
    });
    const f = { member: 'a.b', operator: 'equals', value: 1 };
    const g = { member: 'a.c', operator: 'equals', value: 2 };
    assert.deepEqual(editChanges({ ...start, filters: [f] }, { ...start, filters: [g] }), { filters: [g] });
    assert.deepEqual(editChanges({ ...start, filters: [f] }, { ...start, filters: [{ ...f }] }), {});
    assert.deepEqual(editChanges({ ...start, filters: [f] }, { ...start, filters: [f, f] }), {
      filters: [f, f],
    });
  });

  it('takes only draft fields from arguments, the dashboard only when asked to', () => {
    const args = {
      deploymentId: 5,
      dashboardId: 7,
      dashboardPublicId: 'p',
      hour: 9,
      minute: undefined,
      recipients: ['a'],
    };
    assert.deepEqual(pickDraft(args as never), { dashboardId: 7, dashboardPublicId: 'p', hour: 9 });
    assert.deepEqual(pickDraft(args as never, false), { hour: 9 });
  });

  it('texts and parsers of the summary', () => {
    assert.equal(
      filtersText([
        { member: 'a.b', operator: 'equals', value: 'x' },
        { member: 'a.c', operator: 'in', value: [1] },
        { member: 'a.d' },
      ]),
      'a.b equals x; a.c in [1]; a.d',
    );
    assert.equal(filtersText(undefined), '');
    assert.equal(
      grainsText([
        { member: 'a.b', grain: 'day' },
        { member: 'a.c', grain: 'week' },
      ]),
      'a.b day, a.c week',
    );
    assert.equal(grainsText(undefined), '');
    assert.deepEqual(parseTime(' 7:05 '), { hour: 7, minute: 5 });
    assert.deepEqual(parseTime('23:59'), { hour: 23, minute: 59 });
    assert.equal(parseTime('7:5'), 'Write the time as HH:MM, 24-hour, e.g. 09:30.');
    assert.equal(parseTime('123:00'), 'Write the time as HH:MM, 24-hour, e.g. 09:30.');
    assert.equal(validateTimezone(' Europe/Paris '), undefined);
    assert.deepEqual(parseGrains(' , a.b day'), [{ member: 'a.b', grain: 'day' }]);
    assert.equal(
      parseGrains('ab day'),
      'ab day: write a time grain as "member grain", e.g. orders.created_at month.',
    );
    assert.equal(
      parseGrains('a.b day week'),
      'a.b day week: write a time grain as "member grain", e.g. orders.created_at month.',
    );
    assert.deepEqual(parseEmails(' a@x.io;b@y.org  c@z.co '), ['a@x.io', 'b@y.org', 'c@z.co']);
    assert.equal(parseEmails('a@b'), '"a@b" is not an e-mail address.');
    assert.equal(parseEmails('a@@b.c'), '"a@@b.c" is not an e-mail address.');
    const values: [string, unknown][] = [
      ['a.b equals 100', 100],
      ['a.b equals -1.5', -1.5],
      ['a.b equals true', true],
      ['a.b equals null', null],
      ['a.b equals "q"', 'q'],
      ['a.b equals {bad', '{bad'],
      ['a.b equals 1.2.3', '1.2.3'],
      ['a.b equals two words', 'two words'],
    ];
    for (const [text, value] of values)
      assert.deepEqual(parseFilter(text), { member: 'a.b', operator: 'equals', value }, text);
    assert.equal(values.length, 8);
    assert.equal(
      parseFilter('a.b'),
      'Write a filter as: member operator value, e.g. orders.status equals shipped.',
    );
    assert.deepEqual(parseFilter('a.b is_not_empty'), { member: 'a.b', operator: 'is_not_empty' });
  });
});
