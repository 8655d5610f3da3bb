// The notifications feature as VS Code loads it (every command reaches the action it names), the
// dimensions a filter is picked from (the deployment's /v1/meta, dimensions only, by name), and the
// "Filter Notifications" flow: the current filter is where each picker opens, what is typed is
// refused as spec 4.1 forbids.
import assert from 'node:assert/strict';
import type * as CommandsModule from '../../../src/commands';
import type { ExplorerHost } from '../../../src/explorer/context';
import { memberChoices } from '../../../src/notifications/members';
import { askNotificationFilter } from '../../../src/notifications/notificationFilterFlow';
import type * as IndexModule from '../../../src/notifications/index';
import type * as FeatureModule from '../../../src/notifications/notificationsFeature';
import type { Services } from '../../../src/services';
import type * as PrompterModule from '../../../src/ui/prompter';
import { ScriptedPrompter as PlainScriptedPrompter } from '../../../src/ui/prompter';
import { fakeHost, recordingClient, scripted, useFeatureStandIn } from '../featureHarness';

const ROUTES: [string, string, unknown[]][] = [
  ['notificationsCreate', 'create', []],
  ['notificationsOpen', 'open', []],
  ['notificationsEdit', 'edit', []],
  ['notificationsPause', 'setEnabled', [false]],
  ['notificationsResume', 'setEnabled', [true]],
  ['notificationsDelete', 'remove', []],
  ['notificationsAddRecipient', 'addRecipient', []],
  ['notificationsRemoveRecipient', 'removeRecipient', []],
  ['notificationsFilter', 'filter', []],
  ['notificationsClearFilter', 'clearFilter', []],
];

describe('notifications: the feature’s commands', () => {
  const s = useFeatureStandIn();
  let Feature: typeof FeatureModule;
  let Index: typeof IndexModule;
  let COMMANDS: typeof CommandsModule.COMMANDS;
  let ScriptedPrompter: typeof PrompterModule.ScriptedPrompter;

  before(() => {
    Feature = s.load<typeof FeatureModule>('../../src/notifications/notificationsFeature');
    Index = s.load<typeof IndexModule>('../../src/notifications/index');
    ({ COMMANDS } = s.load<typeof CommandsModule>('../../src/commands'));
    ({ ScriptedPrompter } = s.load<typeof PrompterModule>('../../src/ui/prompter'));
  });

  it('every command runs its action with the row or arguments it was given', async () => {
    const h = fakeHost(s.load, {
      client: recordingClient({}).client,
      prompter: scripted(ScriptedPrompter, []),
    });
    const { feature, disposables } = Feature.createNotificationsFeature(h.host as unknown as ExplorerHost);
    const ran: unknown[][] = [];
    for (const [, method] of ROUTES)
      (feature as unknown as Record<string, unknown>)[method] = (...a: unknown[]) => {
        ran.push([method, ...a]);
        return `done ${method}`;
      };
    assert.equal(disposables.length, ROUTES.length);
    for (const [key, method, extra] of ROUTES) {
      const run = s.sink.registered.get((COMMANDS as Record<string, { id: string }>)[key]!.id);
      assert.ok(run, key);
      assert.equal(await run('row', 'ignored'), `done ${method}`);
      assert.deepEqual(ran.pop(), [method, 'row', ...extra], key);
    }
    assert.equal(s.sink.registered.size, ROUTES.length);
  });

  it('activation registers a shim per command; the first use loads the feature', () => {
    const h = fakeHost(s.load, {
      client: recordingClient({}).client,
      prompter: scripted(ScriptedPrompter, []),
    });
    const registered = Index.register(h.host as unknown as ExplorerHost);
    const ids = ROUTES.map(([key]) => (COMMANDS as Record<string, { id: string }>)[key]!.id);
    assert.deepEqual([...s.sink.registered.keys()].sort(), [...new Set(ids)].sort());
    const subscriptions = (h.host.services.context as { subscriptions: unknown[] }).subscriptions;
    assert.equal(subscriptions.length, 0);
    assert.equal(typeof registered.feature.create, 'function');
    assert.equal(subscriptions.length, ROUTES.length, 'the loaded feature’s commands are kept');
  });
});

describe('notifications: the dimensions a filter is picked from', () => {
  it('dimensions only, by name, with their title and type when the model gives them', async () => {
    const asked: number[] = [];
    const meta = {
      cubes: [
        {
          name: 'orders',
          measures: [{ name: 'orders.count', type: 'number' }],
          dimensions: [
            { name: 'orders.status', type: 'string', title: 'Status' },
            { name: 'orders.created_at', type: 'time' },
          ],
          segments: [{ name: 'orders.big' }],
        },
        { name: 'customers', measures: [], dimensions: [{ name: 'customers.city' }] },
      ],
    };
    const services = {
      clients: { data: async (id: number) => (asked.push(id), { meta: async () => meta }) },
    } as unknown as Services;
    assert.deepEqual(await memberChoices(services, 5), [
      { name: 'customers.city' },
      { name: 'orders.created_at', type: 'time' },
      { name: 'orders.status', title: 'Status', type: 'string' },
    ]);
    assert.deepEqual(asked, [5]);
  });
});

describe('notifications: the Filter Notifications flow', () => {
  const sources = {
    dashboards: async () => ({
      choices: [{ label: 'Sales', value: { dashboardId: 7, name: 'Sales' } }],
      more: async () => ({ choices: [{ label: 'Ops', value: { dashboardId: 8, name: 'Ops' } }] }),
    }),
    users: async () => ({
      choices: [{ label: 'ann@x.io', value: { email: 'ann@x.io' } }],
      more: async () => ({ choices: [{ label: 'bob@x.io', value: { email: 'bob@x.io' } }] }),
    }),
  };

  it('opens on the current filter, every page offered; picks make the filter', async () => {
    const p = scripted(PlainScriptedPrompter, ['Ops', 'bob@x.io']);
    const f = await askNotificationFilter(p, { dashboardId: 7, recipientEmail: 'ann@x.io' }, sources);
    assert.deepEqual(f, { dashboardId: 8, recipientEmail: 'bob@x.io' });
    assert.deepEqual(p.asked, [
      'Filter Notifications: dashboard (Step 1 of 2)',
      'Filter Notifications: recipient (Step 2 of 2)',
    ]);
    assert.deepEqual(p.picks, [
      {
        title: 'Filter Notifications: dashboard',
        placeHolder: 'Search dashboards by name or public id, or type an id',
        hint: 'A dashboard id or public id',
        active: ['Sales'],
      },
      {
        title: 'Filter Notifications: recipient',
        placeHolder: 'Search users, or type a user id, an e-mail, or an embed user as tenant/externalId',
        hint: 'A user id, an e-mail, or tenant/externalId',
        active: ['ann@x.io'],
      },
    ]);
    assert.deepEqual(p.offered.get('Filter Notifications: dashboard'), [
      '$(list-flat) Every dashboard',
      'Sales',
      'Ops',
    ]);
    assert.deepEqual(p.offered.get('Filter Notifications: recipient'), [
      '$(list-flat) Every recipient',
      'ann@x.io',
      'bob@x.io',
    ]);
  });

  it('no filter yet: "every" is where both open; typed values are checked and trimmed', async () => {
    const p = scripted(PlainScriptedPrompter, ['7 abc', ' pub-1 ', 'nobody', 'acme/e1 ']);
    const f = await askNotificationFilter(p, undefined, sources);
    assert.deepEqual(f, {
      dashboardPublicId: 'pub-1',
      recipientEmbedTenantName: 'acme',
      recipientExternalId: 'e1',
    });
    assert.deepEqual(
      p.picks.map((x) => x.active),
      [['$(list-flat) Every dashboard'], ['$(list-flat) Every recipient']],
    );
    assert.equal(p.refusals.length, 2);
    assert.match(p.refusals[0]!, /dashboardId/);
    assert.match(p.refusals[1]!, /"nobody" is not a recipient/);
    const byPublicId = scripted(PlainScriptedPrompter, [
      '$(list-flat) Every dashboard',
      '$(list-flat) Every recipient',
    ]);
    assert.deepEqual(await askNotificationFilter(byPublicId, { dashboardPublicId: 'pub-1' }, sources), {});
    assert.deepEqual(byPublicId.picks[0]?.active, []);
  });
});
