// The notification lifecycle from the tree and the palette (create with its recipients, edit,
// pause, resume, delete, add and remove recipients, open, filter the list), in plain Node with a
// stand-in for `vscode` and a client that records each call: the exact request, what the user is
// asked and told on success, refusal and an unknown outcome (a "Check" that refreshes the list
// instead of inviting a duplicate), and that a declined flow sends nothing.
import assert from 'node:assert/strict';
import { ApiError } from '../../../src/api/errors';
import { UserCancelled } from '../../../src/log';
import type * as NotificationActionsModule from '../../../src/notifications/notificationActions';
import type * as PrompterModule from '../../../src/ui/prompter';
import {
  deploymentRow,
  failure,
  fakeHost,
  recordingClient,
  scripted,
  TestNode,
  useFeatureStandIn,
} from '../featureHarness';

const CHECK = 'dashboardPlatform.explorer.refresh';
const dep5 = deploymentRow(5);
const list = new TestNode('group', { id: 'notifications' }, dep5);
const row = new TestNode('notification', { id: 41, dashboardId: 7 }, list);
const STORED = {
  id: 41,
  dashboardId: 7,
  cronExpression: '0 9 * * *',
  humanReadableSchedule: 'Every day at 09:00',
  timezone: 'Europe/Paris',
  notificationFormat: 'pdf',
  isEnabled: true,
  filters: [{ member: 'orders.status', operator: 'equals', value: 'shipped', caseSensitive: true }],
};
const WORKBOOKS = {
  items: [{ id: 70, name: 'Sales WB', publishedDashboard: { id: 7, title: 'Sales' } }],
  pageInfo: { hasNextPage: false },
};
const unknownOutcome = () =>
  new ApiError('unknownOutcome', 'The platform did not answer: the change may have been made.', {
    check: { hint: 'Refresh the list.' },
  });
const rejects = (e: unknown) => async () => {
  throw e;
};

describe('notifications: the lifecycle sends exactly what the user chose', () => {
  const s = useFeatureStandIn();
  let NotificationActions: typeof NotificationActionsModule.NotificationActions;
  let ScriptedPrompter: typeof PrompterModule.ScriptedPrompter;

  before(() => {
    ({ NotificationActions } = s.load<typeof NotificationActionsModule>(
      '../../src/notifications/notificationActions',
    ));
    ({ ScriptedPrompter } = s.load<typeof PrompterModule>('../../src/ui/prompter'));
  });

  interface Setup {
    handlers?: Record<string, (...a: never[]) => unknown>;
    answers?: (string | string[] | undefined)[];
    confirms?: boolean[];
    production?: boolean;
    stored?: Record<string, unknown>;
    deployments?: number[];
    meta?: unknown;
  }

  function setup(o: Setup = {}) {
    const rec = recordingClient({
      getNotification: async () => ({ ...(o.stored ?? STORED) }),
      listWorkbooks: async () => WORKBOOKS,
      updateNotification: async (_d: number, _id: number, body: object) => ({
        ...STORED,
        ...body,
        humanReadableSchedule: 'Every day at 10:00',
      }),
      deleteNotification: async () => undefined,
      createNotification: async () => ({ id: 90, humanReadableSchedule: 'Every day at 09:30' }),
      addRecipients: async (_d: number, _n: number, r: unknown[]) => ({
        createdRecipients: r,
        updatedRecipients: [],
        unchangedRecipients: [],
      }),
      removeRecipients: async () => undefined,
      getDeployment: async () => ({ id: 5, name: 'Prod' }),
      listDeployments: async () => ({ items: [{ id: 5, name: 'Prod' }] }),
      listUsers: async () => ({
        items: [
          {
            userName: 'ann@x.io',
            emails: [{ value: 'ann@x.io', primary: true }],
            name: { givenName: 'Ann' },
          },
          { userName: 'bob@x.io' },
        ],
      }),
      ...o.handlers,
    });
    const prompter = scripted(ScriptedPrompter, o.answers ?? [], o.confirms ?? []);
    const host = fakeHost(s.load, {
      client: rec.client,
      prompter,
      production: o.production ?? false,
      ...(o.deployments ? { deployments: o.deployments } : {}),
      ...(o.meta ? { meta: o.meta } : {}),
    });
    return { n: new NotificationActions(host.ctx), rec, prompter, host };
  }

  describe('Pause and Resume', () => {
    for (const enabled of [false, true])
      it(`${enabled ? 'Resume' : 'Pause'}: isEnabled ${enabled}, said in the status bar with the dashboard’s name`, async () => {
        const { n, rec, host } = setup();
        await n.setEnabled(row, enabled);
        assert.deepEqual(rec.writes(), [['updateNotification', 5, 41, { isEnabled: enabled }]]);
        assert.deepEqual(s.sink.status, [`${enabled ? 'Resumed' : 'Paused'}: Every day at 09:00 · Sales`]);
        assert.deepEqual(host.refreshedLists(), ['node /deployment:5/group:notifications']);
      });

    it('asks on production naming the schedule; declined, nothing is sent', async () => {
      const { n, rec, prompter } = setup({ production: true, confirms: [false] });
      assert.ok((await failure(n.setEnabled(row, false))) instanceof UserCancelled);
      assert.deepEqual(rec.writes(), []);
      assert.equal(
        prompter.confirmations[0]?.message,
        'Pause the notification "Every day at 09:00" on the production profile "Live"?',
      );
      const resume = setup({ production: true, confirms: [false] });
      await failure(resume.n.setEnabled(row, true));
      assert.match(resume.prompter.confirmations[0]!.message, /^Resume the notification/);
    });

    it('an unknown outcome offers Check (refresh), not a retry; nothing is said to have happened', async () => {
      const { n, host } = setup({ handlers: { updateNotification: rejects(unknownOutcome()) } });
      const e = (await failure(n.setEnabled(row, false))) as ApiError;
      assert.equal(e.kind, 'unknownOutcome');
      assert.equal(e.check?.command, CHECK);
      assert.equal(e.check?.hint, 'Refresh the list.');
      assert.deepEqual(s.sink.status, []);
      assert.deepEqual(host.refreshed, []);
      const refused = new ApiError('forbidden', 'You may not.', { status: 403 });
      const other = setup({ handlers: { updateNotification: rejects(refused) } });
      assert.equal(await failure(other.n.setEnabled(row, true)), refused);
    });
  });

  describe('Delete', () => {
    it('a modal names the schedule and dashboard; confirmed, one delete and the user is told', async () => {
      const { n, rec, prompter, host } = setup();
      assert.equal(await n.remove(row), true);
      assert.deepEqual(prompter.confirmations, [
        {
          message: 'Delete the notification "Every day at 09:00" of Sales?',
          detail: 'Its recipients are unsubscribed too. This cannot be undone.',
          action: 'Delete',
        },
      ]);
      assert.deepEqual(rec.writes(), [['deleteNotification', 5, 41]]);
      assert.deepEqual(s.sink.info, ['Deleted the notification "Every day at 09:00" of Sales.']);
      assert.deepEqual(host.refreshedLists(), ['node /deployment:5/group:notifications']);
    });

    it('declined (modal or production): nothing is sent', async () => {
      for (const o of [{ confirms: [false] }, { production: true, confirms: [true, false] }]) {
        const { n, rec } = setup(o);
        assert.ok((await failure(n.remove(row))) instanceof UserCancelled);
        assert.deepEqual(rec.writes(), []);
      }
    });

    it('without the workbooks, the dashboard is named by id; an unknown outcome offers Check', async () => {
      const { n } = setup({
        handlers: {
          listWorkbooks: rejects(new Error('no right')),
          deleteNotification: rejects(unknownOutcome()),
        },
      });
      const e = (await failure(n.remove({ deploymentId: 5, notificationId: 41 }))) as ApiError;
      assert.equal(e.check?.command, CHECK);
      assert.deepEqual(s.sink.info, []);
      const named = setup({ handlers: { listWorkbooks: rejects(new Error('no right')) } });
      await named.n.remove({ deploymentId: 5, notificationId: 41 });
      assert.deepEqual(s.sink.info, ['Deleted the notification "Every day at 09:00" of dashboard #7.']);
      assert.deepEqual(named.host.refreshedLists(), ['5:notifications']);
    });
  });

  describe('Edit', () => {
    it('sends only what changed, and says when it now runs', async () => {
      const { n, rec, prompter, host } = setup({ answers: ['confirm'] });
      await n.edit({
        deploymentId: 5,
        notificationId: 41,
        scheduleType: 'DAILY',
        hour: 10,
        minute: 0,
        timezone: 'Europe/Paris',
      });
      assert.deepEqual(rec.writes(), [
        ['updateNotification', 5, 41, { scheduleType: 'DAILY', hour: 10, minute: 0 }],
      ]);
      assert.deepEqual(s.sink.info, ['Notification of Sales now runs: Every day at 10:00.']);
      assert.deepEqual(prompter.asked, ['Edit Notification: summary (Step 1 of 1)']);
      assert.deepEqual(host.refreshedLists(), ['5:notifications']);
    });

    it('the flow prefilled with the notification; nothing changed, nothing sent', async () => {
      const { n, rec, prompter } = setup({ answers: ['DAILY', '09:00', 'Europe/Paris', 'confirm'] });
      await n.edit(row);
      assert.deepEqual(rec.writes(), []);
      assert.deepEqual(s.sink.info, ['Nothing changed: the notification is as it was.']);
      assert.equal(prompter.inputs[0]?.value, '09:00');
    });

    it('declined on production: nothing sent; an unknown outcome offers Check', async () => {
      const args = { deploymentId: 5, notificationId: 41, notificationFormat: 'png', timezone: 'UTC' };
      const prod = setup({ answers: ['DAILY', '09:00', 'confirm'], production: true, confirms: [false] });
      assert.ok((await failure(prod.n.edit(args))) instanceof UserCancelled);
      assert.deepEqual(prod.rec.writes(), []);
      assert.equal(
        prod.prompter.confirmations[0]?.message,
        'Change the notification "Every day at 09:00" on the production profile "Live"?',
      );
      const lost = setup({
        answers: ['DAILY', '09:00', 'confirm'],
        handlers: { updateNotification: rejects(unknownOutcome()) },
      });
      const e = (await failure(lost.n.edit(args))) as ApiError;
      assert.equal(e.check?.command, CHECK);
      assert.deepEqual(lost.rec.writes(), [
        ['updateNotification', 5, 41, { timezone: 'UTC', notificationFormat: 'png' }],
      ]);
      assert.deepEqual(s.sink.info, []);
    });
  });

  describe('Create', () => {
    const given = {
      deploymentId: 5,
      dashboardId: 7,
      scheduleType: 'DAILY',
      hour: 9,
      minute: 30,
      timezone: 'UTC',
    };

    it('the notification, then its recipients; the user is told both', async () => {
      const { n, rec, host } = setup({ answers: ['confirm'] });
      await n.create({ ...given, recipients: ['a@x.io', 'b@x.io'] });
      assert.deepEqual(rec.writes(), [
        [
          'createNotification',
          5,
          {
            dashboardId: 7,
            scheduleType: 'DAILY',
            hour: 9,
            minute: 30,
            timezone: 'UTC',
            notificationEnabled: true,
          },
        ],
        [
          'addRecipients',
          5,
          90,
          [
            { type: 'USER', email: 'a@x.io' },
            { type: 'USER', email: 'b@x.io' },
          ],
        ],
      ]);
      assert.deepEqual(s.sink.info, [
        'Notification created: Every day at 09:30 of the dashboard, 2 recipients.',
      ]);
      assert.deepEqual(host.refreshedLists(), ['5:notifications']);
    });

    it('through the flow: dashboard, schedule, day, time, timezone and recipients picked', async () => {
      const { n, rec, prompter } = setup({
        answers: ['Sales', 'WEEKLY', 'Monday', '08:15', 'UTC', ['ann@x.io'], 'confirm'],
        handlers: {
          createNotification: async () => ({ id: 90, humanReadableSchedule: 'Every Monday at 08:15' }),
        },
      });
      await n.create({ deploymentId: 5 });
      assert.deepEqual(rec.writes(), [
        [
          'createNotification',
          5,
          {
            dashboardId: 7,
            scheduleType: 'WEEKLY',
            dayOfWeek: 1,
            hour: 8,
            minute: 15,
            timezone: 'UTC',
            notificationEnabled: true,
          },
        ],
        ['addRecipients', 5, 90, [{ type: 'USER', email: 'ann@x.io' }]],
      ]);
      assert.deepEqual(s.sink.info, ['Notification created: Every Monday at 08:15 of “Sales”, 1 recipient.']);
      assert.deepEqual(prompter.offered.get('Create Notification: recipients'), ['ann@x.io', 'bob@x.io']);
    });

    it('no recipients: one write, "no recipients yet"', async () => {
      const { n, rec } = setup({ answers: ['confirm'] });
      await n.create({ ...given, recipients: [] });
      assert.deepEqual(
        rec.writes().map((w) => w[0]),
        ['createNotification'],
      );
      assert.deepEqual(s.sink.info, [
        'Notification created: Every day at 09:30 of the dashboard, no recipients yet.',
      ]);
    });

    it('asks on production naming the deployment; declined, nothing is sent', async () => {
      const { n, rec, prompter } = setup({ answers: ['confirm'], production: true, confirms: [false] });
      assert.ok((await failure(n.create({ ...given, recipients: ['a@x.io'] }))) instanceof UserCancelled);
      assert.deepEqual(rec.writes(), []);
      assert.equal(
        prompter.confirmations[0]?.message,
        'Create a notification of the dashboard in "Prod" on the production profile "Live"?',
      );
      const unnamed = setup({
        answers: ['confirm'],
        production: true,
        confirms: [false],
        handlers: { getDeployment: rejects(new Error('gone')) },
      });
      await failure(unnamed.n.create({ ...given, recipients: [] }));
      assert.equal(
        unnamed.prompter.confirmations[0]?.message,
        'Create a notification of the dashboard in This deployment on the production profile "Live"?',
      );
    });

    it('an unknown outcome offers Check and adds no recipients to a notification that may not exist', async () => {
      const { n, rec } = setup({
        answers: ['confirm'],
        handlers: { createNotification: rejects(unknownOutcome()) },
      });
      const e = (await failure(n.create({ ...given, recipients: ['a@x.io'] }))) as ApiError;
      assert.equal(e.check?.command, CHECK);
      assert.deepEqual(
        rec.writes().map((w) => w[0]),
        ['createNotification'],
      );
      assert.deepEqual(s.sink.info, []);
    });

    it('recipients refused after the creation: says the notification exists and what to do', async () => {
      const boom = new ApiError('validation', 'The e-mail is not a user of this tenant.');
      const { n, rec, host } = setup({ answers: ['confirm'], handlers: { addRecipients: rejects(boom) } });
      const e = await failure(n.create({ ...given, recipients: ['a@x.io'] }));
      assert.equal(
        e?.message,
        'The notification (Every day at 09:30) was created, but its recipients were not added: The e-mail is not a user of this tenant. Use "Add Recipient…" on it.',
      );
      assert.equal((e as Error & { cause?: unknown }).cause, boom);
      assert.deepEqual(
        rec.writes().map((w) => w[0]),
        ['createNotification', 'addRecipients'],
      );
      assert.deepEqual(host.refreshedLists(), ['5:notifications'], 'the created notification is shown');
      const plain = setup({ answers: ['confirm'], handlers: { addRecipients: rejects('text') } });
      assert.match(
        (await failure(plain.n.create({ ...given, recipients: ['a@x.io'] })))?.message ?? '',
        /added: text Use/,
      );
    });
  });

  describe('Add Recipient', () => {
    const cases: { answers: string[]; sent: unknown; refusals?: string[] }[] = [
      {
        answers: ['User', 'bob', ' bob@x.io '],
        sent: { type: 'USER', email: 'bob@x.io' },
        refusals: ['Enter an e-mail or a user id.'],
      },
      { answers: ['User', '42'], sent: { type: 'USER', userId: 42 } },
      { answers: ['User', 'ann@x.io'], sent: { type: 'USER', email: 'ann@x.io' } },
      {
        answers: ['Embed user', ' ', ' acme ', '', ' e1 '],
        sent: { type: 'EMBED_USER', embedTenantName: 'acme', externalId: 'e1' },
        refusals: ['Enter the embed tenant name.', 'Enter the external id.'],
      },
      {
        answers: ['Slack channel', '', ' C123 '],
        sent: { type: 'SLACK', channelId: 'C123' },
        refusals: ['Enter the channel id.'],
      },
    ];
    for (const c of cases)
      it(`${c.answers[0]} ${c.answers.at(-1)!.trim()}: sends ${JSON.stringify(c.sent)}`, async () => {
        const { n, rec, prompter, host } = setup({ answers: c.answers });
        await n.addRecipient(row);
        assert.deepEqual(rec.writes(), [['addRecipients', 5, 41, [c.sent]]]);
        assert.deepEqual(prompter.refusals, c.refusals ?? []);
        assert.deepEqual(s.sink.info, ['Recipients of notification 41: 1 added, 0 updated, 0 unchanged.']);
        assert.deepEqual(host.refreshedLists(), ['node /deployment:5/group:notifications/notification:41']);
      });

    it('a recipient in the arguments: nothing asked; declined on production, nothing sent', async () => {
      const recipient = { type: 'SLACK', channelId: 'C1' };
      const { n, rec, prompter } = setup();
      await n.addRecipient({ deploymentId: 5, notificationId: 41, recipient });
      assert.deepEqual(rec.writes(), [['addRecipients', 5, 41, [recipient]]]);
      assert.deepEqual(prompter.asked, []);
      const prod = setup({ production: true, confirms: [false] });
      assert.ok(
        (await failure(prod.n.addRecipient({ deploymentId: 5, notificationId: 41, recipient }))) instanceof
          UserCancelled,
      );
      assert.deepEqual(prod.rec.writes(), []);
      assert.equal(
        prod.prompter.confirmations[0]?.message,
        'Add a recipient to notification 41 on the production profile "Live"?',
      );
    });
  });

  describe('Remove Recipient', () => {
    const notif = new TestNode('notification', { id: 41 }, list);
    it('a recipient row: removed by its identity from its notification', async () => {
      const recipient = new TestNode(
        'recipient',
        { id: 'r', type: 'USER', userId: 42, email: 'bob@x.io' },
        notif,
      );
      const { n, rec, host } = setup();
      assert.deepEqual(await n.removeRecipient(recipient), { type: 'USER', id: 42 });
      assert.deepEqual(rec.writes(), [['removeRecipients', 5, 41, [{ type: 'USER', id: 42 }]]]);
      assert.deepEqual(host.refreshedLists(), ['node /deployment:5/group:notifications/notification:41']);
    });

    it('from the palette: the recipients listed by who they are, the one picked removed', async () => {
      const recipients = [
        { type: 'USER', userId: 42, email: 'bob@x.io' },
        { type: 'EMBED_USER', embedUserId: 3, embedTenantName: 'acme', externalId: 'e1', username: 'eve' },
        { type: 'SLACK', channelId: 'C1', channelName: '#ops' },
        { type: 'SLACK', channelId: 'C2' },
        { type: 'USER', userId: 43 },
        { type: 'EMBED_USER', embedUserId: 4, embedTenantName: 'acme', externalId: 'e2' },
      ];
      const { n, rec, prompter } = setup({
        answers: ['eve'],
        handlers: {
          iterateRecipients: async function* () {
            yield* recipients;
          },
        },
      });
      await n.removeRecipient({ deploymentId: 5, notificationId: 41 });
      assert.deepEqual(prompter.rows.get('Remove Recipient'), [
        { label: 'bob@x.io', description: 'USER', detail: undefined },
        { label: 'eve', description: 'EMBED_USER', detail: undefined },
        { label: '#ops', description: 'SLACK', detail: undefined },
        { label: 'C2', description: 'SLACK', detail: undefined },
        { label: '43', description: 'USER', detail: undefined },
        { label: 'e2', description: 'EMBED_USER', detail: undefined },
      ]);
      assert.deepEqual(rec.writes(), [
        ['removeRecipients', 5, 41, [{ type: 'EMBED_USER', id: 3, embedTenantName: 'acme' }]],
      ]);
    });

    it('none to remove, or declined: nothing sent', async () => {
      const empty = setup({ handlers: { iterateRecipients: async function* () {} } });
      const e = await failure(empty.n.removeRecipient({ deploymentId: 5, notificationId: 41 }));
      assert.equal(e?.message, 'Notification 41 has no recipients.');
      assert.deepEqual(empty.rec.writes(), []);
      const prod = setup({ production: true, confirms: [false] });
      const args = { deploymentId: 5, notificationId: 41, recipient: { type: 'SLACK', channelId: 'C1' } };
      assert.ok((await failure(prod.n.removeRecipient(args))) instanceof UserCancelled);
      assert.deepEqual(prod.rec.writes(), []);
      assert.equal(
        prod.prompter.confirmations[0]?.message,
        'Remove a recipient from notification 41 on the production profile "Live"?',
      );
      const ok = setup();
      await ok.n.removeRecipient(args);
      assert.deepEqual(ok.rec.writes(), [['removeRecipients', 5, 41, [{ type: 'SLACK', id: 'C1' }]]]);
    });
  });

  it('Open: the details with names, the state and every recipient', async () => {
    const { n, host } = setup({
      stored: { ...STORED, isEnabled: false },
      handlers: {
        iterateRecipients: async function* () {
          yield { type: 'USER', userId: 42, email: 'bob@x.io' };
          yield { type: 'EMBED_USER', embedTenantName: 'acme', externalId: 'e1' };
          yield { type: 'SLACK', channelName: '#ops', channelId: 'C1' };
          yield { type: 'USER', userId: 43 };
        },
      },
    });
    await n.open(row);
    assert.equal(host.shown.length, 1);
    const { key, title, value } = host.shown[0]!;
    assert.deepEqual([key, title], ['notification:5:41', 'notification-41']);
    const v = value as Record<string, unknown>;
    assert.deepEqual(
      { ...v, notification: undefined },
      {
        schedule: 'Every day at 09:00',
        dashboard: { name: 'Sales', id: 7 },
        timezone: 'Europe/Paris',
        format: 'pdf',
        state: 'paused',
        filters: 'orders.status equals "shipped"',
        recipients: [
          { who: 'bob@x.io', type: 'USER' },
          { who: 'e1', type: 'EMBED_USER', tenant: 'acme' },
          { who: '#ops', type: 'SLACK' },
          { who: 43, type: 'USER' },
        ],
        notification: undefined,
      },
    );
    const active = setup({ stored: { id: 41 }, handlers: { iterateRecipients: async function* () {} } });
    await active.n.open({ deploymentId: 5, notificationId: 41 });
    const d = active.host.shown[0]!.value as Record<string, unknown>;
    assert.deepEqual(
      [d['state'], d['filters'], d['dashboard']],
      ['active', 'none', { name: 'a dashboard', id: undefined }],
    );
  });

  describe('Filter the list', () => {
    it('arguments: the list’s filter set and its row described by the dashboard’s name', async () => {
      const { n, host, rec } = setup();
      const filter = await n.filter({ deploymentId: 5, dashboardId: 7, recipient: 'ann@x.io' });
      assert.deepEqual(filter, { dashboardId: 7, recipientEmail: 'ann@x.io' });
      const l = host.deployments[0]!.list('notifications');
      assert.deepEqual(l.listSpec, {
        notificationFilter: { dashboardId: 7, recipientEmail: 'ann@x.io' },
        notificationFilterText: 'dashboard “Sales”, recipient ann@x.io',
      });
      assert.deepEqual(host.changed, [l]);
      assert.deepEqual(rec.writes(), []);
    });

    it('what 4.1 forbids is refused before any request, the list left as it was', async () => {
      const { n, host, rec } = setup();
      const e = await failure(n.filter({ deploymentId: 5, dashboardId: 7, dashboardPublicId: 'abc' }));
      assert.match(e?.message ?? '', /dashboardId/);
      assert.deepEqual(host.deployments[0]!.list('notifications').listSpec, {});
      assert.deepEqual(host.changed, []);
      assert.deepEqual(rec.calls, []);
    });

    it('the flow: every dashboard and a typed recipient; an empty filter has no text', async () => {
      const { n, host, prompter } = setup({ answers: ['$(list-flat) Every dashboard', '42'] });
      assert.deepEqual(await n.filter({ deploymentId: 5 }), { recipientUserId: 42 });
      assert.deepEqual(prompter.offered.get('Filter Notifications: dashboard'), [
        '$(list-flat) Every dashboard',
        'Sales',
      ]);
      const l = host.deployments[0]!.list('notifications');
      assert.equal(l.listSpec['notificationFilterText'], 'recipient 42');
      const none = setup({ answers: ['$(list-flat) Every dashboard', '$(list-flat) Every recipient'] });
      await none.n.filter({ deploymentId: 5 });
      assert.deepEqual(none.host.deployments[0]!.list('notifications').listSpec, {
        notificationFilter: {},
        notificationFilterText: undefined,
      });
    });

    it('Clear Filter: on a row or a deployment that list only; from the palette every list', async () => {
      const { n, host } = setup();
      const l = host.deployments[0]!.list('notifications');
      l.listSpec = { notificationFilter: { dashboardId: 7 }, notificationFilterText: 'x', other: 1 };
      await n.clearFilter({ deploymentId: 5 });
      assert.deepEqual(l.listSpec, {
        notificationFilter: undefined,
        notificationFilterText: undefined,
        other: 1,
      });
      assert.deepEqual(host.changed, [l]);
      const all = setup();
      await all.n.clearFilter();
      assert.deepEqual(all.host.changed, [all.host.deployments[0]!.list('notifications')]);
    });
  });
  describe('the rules a survivor showed were untested', () => {
    const META = {
      cubes: [
        {
          name: 'orders',
          measures: [{ name: 'orders.count', type: 'number' }],
          dimensions: [
            { name: 'orders.status', type: 'string' },
            { name: 'orders.region', type: 'string' },
          ],
        },
      ],
    };

    it('the list refreshed is the deployment’s own; a deployment not shown refreshes nothing', async () => {
      const six = setup({ deployments: [5, 6] });
      await six.n.setEnabled({ deploymentId: 6, notificationId: 41 }, false);
      assert.deepEqual(six.host.refreshedLists(), ['6:notifications']);
      const seven = setup({ deployments: [5, 6] });
      await seven.n.remove({ deploymentId: 7, notificationId: 41 });
      assert.deepEqual(seven.rec.writes(), [['deleteNotification', 7, 41]]);
      assert.deepEqual(seven.host.refreshed, []);
    });

    it('Delete on production names the schedule and dashboard', async () => {
      const { n, prompter } = setup({ production: true, confirms: [true, false] });
      await failure(n.remove(row));
      assert.equal(
        prompter.confirmations[1]?.message,
        'Delete the notification "Every day at 09:00" of Sales on the production profile "Live"?',
      );
    });

    it('a notification without a dashboard reads no workbooks', async () => {
      const { n, rec } = setup({ stored: { id: 41, humanReadableSchedule: 'Hourly' } });
      await n.setEnabled({ deploymentId: 5, notificationId: 41 }, true);
      assert.deepEqual(
        rec.calls.map((c) => c.name),
        ['getNotification', 'updateNotification'],
      );
      assert.deepEqual(s.sink.status, ['Resumed: Hourly · a dashboard']);
    });

    it('Edit: a filter added from the deployment’s dimensions is sent with the stored one kept', async () => {
      const { n, rec, prompter } = setup({
        meta: META,
        answers: ['filters', 'add', 'orders.region', 'is_null', 'done', 'confirm'],
      });
      await n.edit({
        deploymentId: 5,
        notificationId: 41,
        scheduleType: 'DAILY',
        hour: 9,
        minute: 0,
        timezone: 'Europe/Paris',
      });
      assert.deepEqual(prompter.offered.get('Edit Notification: filter member'), [
        'orders.region',
        'orders.status',
      ]);
      assert.deepEqual(rec.writes(), [
        [
          'updateNotification',
          5,
          41,
          { filters: [{ kept: STORED.filters[0] }, { member: 'orders.region', operator: 'is_null' }] },
        ],
      ]);
    });

    it('Edit: the stored filters written back as they were change nothing', async () => {
      const stored = {
        ...STORED,
        filters: [{ member: 'orders.created_at', operator: 'in_date_range', value: ['a', 'b'] }],
      };
      const { n, rec } = setup({
        stored,
        answers: ['filters', 'text', 'orders.created_at in_date_range ["a","b"]', 'done', 'confirm'],
      });
      await n.edit({
        deploymentId: 5,
        notificationId: 41,
        scheduleType: 'DAILY',
        hour: 9,
        minute: 0,
        timezone: 'Europe/Paris',
      });
      assert.deepEqual(rec.writes(), []);
      assert.deepEqual(s.sink.info, ['Nothing changed: the notification is as it was.']);
    });

    it('Create: a filter picked from the deployment’s dimensions goes in the body', async () => {
      const { n, rec } = setup({
        meta: META,
        answers: ['filters', 'add', 'orders.status', 'equals', 'shipped', 'done', 'confirm'],
      });
      await n.create({
        deploymentId: 5,
        dashboardId: 7,
        scheduleType: 'HOURLY',
        minute: 0,
        timezone: 'UTC',
        recipients: [],
      });
      assert.deepEqual((rec.writes()[0]![2] as { filters: unknown }).filters, [
        { member: 'orders.status', operator: 'equals', value: 'shipped' },
      ]);
    });

    it('Remove Recipient on a notification row: its recipients offered; arguments refresh no row', async () => {
      const notif = new TestNode('notification', { id: 41 }, list);
      const { n, rec, host } = setup({
        answers: ['carl'],
        handlers: {
          iterateRecipients: async function* () {
            yield { type: 'USER', userId: 44, username: 'carl' };
          },
        },
      });
      await n.removeRecipient(notif);
      assert.deepEqual(rec.writes(), [['removeRecipients', 5, 41, [{ type: 'USER', id: 44 }]]]);
      assert.deepEqual(host.refreshedLists(), ['node /deployment:5/group:notifications/notification:41']);
      const args = setup();
      await args.n.removeRecipient({
        deploymentId: 5,
        notificationId: 41,
        recipient: { type: 'USER', userId: 44 },
      });
      assert.deepEqual(args.host.refreshed, []);
      const open = setup({
        handlers: {
          iterateRecipients: async function* () {
            yield { type: 'USER', userId: 44, username: 'carl' };
          },
        },
      });
      await open.n.open(row);
      assert.deepEqual((open.host.shown[0]!.value as { recipients: unknown }).recipients, [
        { who: 'carl', type: 'USER' },
      ]);
    });

    it('Add Recipient: users are offered from every page', async () => {
      const { n, rec, prompter } = setup({
        answers: ['User', 'zed@x.io'],
        handlers: {
          listUsers: async (p: { after?: string }) =>
            p.after === 'c3'
              ? { items: [{ userName: 'zed@x.io' }] }
              : p.after === 'c2'
                ? { items: [{ userName: 'yan@x.io' }], pageInfo: { hasNextPage: true, endCursor: 'c3' } }
                : { items: [{ userName: 'ann@x.io' }], pageInfo: { hasNextPage: true, endCursor: 'c2' } },
        },
      });
      await n.addRecipient(row);
      assert.deepEqual(prompter.offered.get('Add Recipient: user'), ['ann@x.io', 'yan@x.io', 'zed@x.io']);
      assert.deepEqual(rec.writes(), [['addRecipients', 5, 41, [{ type: 'USER', email: 'zed@x.io' }]]]);
      assert.deepEqual(
        rec.calls.filter((c) => c.name === 'listUsers').map((c) => c.args),
        [[{ first: 50 }], [{ first: 50, after: 'c2' }], [{ first: 50, after: 'c3' }]],
      );
    });

    it('Filter by the recipient or the dashboard alone (arguments); no dashboard, no workbooks read', async () => {
      const who = setup();
      assert.deepEqual(await who.n.filter({ deploymentId: 5, recipient: 'ann@x.io' }), {
        recipientEmail: 'ann@x.io',
      });
      assert.deepEqual(who.rec.calls, []);
      const dash = setup();
      assert.deepEqual(await dash.n.filter({ deploymentId: 5, dashboard: '7' }), { dashboardId: 7 });
      assert.equal(
        dash.host.deployments[0]!.list('notifications').listSpec['notificationFilterText'],
        'dashboard “Sales”',
      );
    });

    it('Clear Filter on a row or for a deployment: that list only; from the palette: every list', async () => {
      const filtered = (h: ReturnType<typeof setup>['host']) =>
        h.deployments.map((d) => {
          const l = d.list('notifications');
          l.listSpec = { notificationFilter: { dashboardId: 7 }, notificationFilterText: 'x' };
          return l;
        });
      const onRow = setup({ deployments: [5, 6] });
      const [l5, l6] = filtered(onRow.host);
      await onRow.n.clearFilter(row);
      assert.deepEqual(onRow.host.changed, [l5]);
      assert.equal(l6!.listSpec['notificationFilterText'], 'x');
      const byArgs = setup({ deployments: [5, 6] });
      const [, m6] = filtered(byArgs.host);
      await byArgs.n.clearFilter({ deploymentId: 6 });
      assert.deepEqual(byArgs.host.changed, [m6]);
      const all = setup({ deployments: [5, 6] });
      const both = filtered(all.host);
      await all.n.clearFilter();
      assert.deepEqual(all.host.changed, both);
      assert.deepEqual(
        both.map((l) => l.listSpec['notificationFilter']),
        [undefined, undefined],
      );
    });
  });
});
