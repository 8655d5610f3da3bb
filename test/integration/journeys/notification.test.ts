// Journey "schedule and edit a notification" (issue 25 item 7 and "Edit Notification silently
// clears filter flags"): from the Notifications row's context menu the user creates a daily
// notification with a filter picked from the deployment's members, sees it in the tree named by
// its dashboard; someone marks the filter case-sensitive in the web app; the user edits only the
// time from the row's context menu, and the filter keeps its flag. The questions are answered by a
// script (every validation still runs); the tree, its menus and its rows are the real ones.
import assert from 'node:assert/strict';
import { getApi, pressKeys, screenshot, waitFor, revertAndCloseAll } from '../harness';
import { useSandbox } from '../sandboxSuite';
import {
  chooseMenu,
  contextMenu,
  contextMenuOfSelected,
  expand,
  openExplorerFresh,
  row,
  rowText,
} from './explorerView';

/* eslint-disable @typescript-eslint/no-explicit-any -- the nodes are the extension's own objects */
type Node = any;

const DEP = 1;
const DASHBOARD = 1005;

let api: any;
let ex: any;
let base: string;
let admin: string;
let createdId: number | undefined;

async function server(path: string, init?: RequestInit): Promise<any> {
  const res = await fetch(`${base}/api${path}`, {
    ...init,
    headers: { authorization: `Bearer ${admin}`, 'content-type': 'application/json' },
  });
  const text = await res.text();
  return text ? JSON.parse(text) : undefined;
}

async function notificationNode(id: number): Promise<Node> {
  const dep = (await ex.provider.getChildren(ex.provider.roots.deployments)).find(
    (n: Node) => n.kind === 'deployment' && n.deploymentId === DEP,
  );
  return waitFor(`notification ${id} in the tree`, async () =>
    (await ex.provider.getChildren(dep.list('notifications'))).find(
      (n: Node) => n.kind === 'notification' && n.data?.id === id,
    ),
  );
}

describe('journey: schedule and edit a notification', function () {
  this.timeout(300_000);

  before(async function () {
    api = await getApi();
    ex = api.explorer;
    if (!(await pressKeys([]))) this.skip(); // the journey needs UI control (code-server route)
    await revertAndCloseAll();
    ({ base, admin } = await useSandbox(api));
  });

  after(async () => {
    ex.usePrompter(undefined);
    await pressKeys(['Escape']);
    if (createdId !== undefined)
      await fetch(`${base}/api/v1/deployments/${DEP}/notifications/${createdId}`, {
        method: 'DELETE',
        headers: { authorization: `Bearer ${admin}` },
      });
  });

  it('creates a daily notification with a filter picked from the members, listed by its dashboard', async () => {
    await openExplorerFresh();
    const dep = (await ex.provider.getChildren(ex.provider.roots.deployments)).find(
      (n: Node) => n.kind === 'deployment' && n.deploymentId === DEP,
    );
    await expand('Deployments');
    await expand(dep.name);
    const menu = await contextMenu(row('Notifications'));
    assert.match(menu, /Create Notification…/);
    const p = ex.script([
      String(DASHBOARD),
      'DAILY',
      '07:45',
      'Europe/Paris',
      ['user2@sandbox.example'],
      'filters',
      'add',
      'orders.status',
      'equals',
      'shipped',
      'done',
      'confirm',
    ]);
    await chooseMenu('Create Notification…');
    const created = await waitFor(
      'the notification created',
      async () => {
        const list = await server(`/v1/deployments/${DEP}/notifications?dashboardId=${DASHBOARD}&first=100`);
        return list.items.find(
          (n: any) => n.cronExpression === '45 7 * * *' && n.filters?.[0]?.value === 'shipped',
        );
      },
      60_000,
    );
    createdId = created.id;
    // The member was picked from the deployment's dimensions, offered by name.
    assert.ok(p.offered.get('Create Notification: filter member').includes('orders.status'));
    assert.match(p.asked[0], /dashboard \(Step 1 of 6\)/);
    assert.deepEqual(created.filters, [{ member: 'orders.status', operator: 'equals', value: 'shipped' }]);

    // The row names the dashboard (not "dashboard 1005") and reads the schedule in words.
    const workbook = await server(`/v1/deployments/${DEP}/workbooks/${DASHBOARD}`);
    const dashboardName = workbook.publishedDashboard?.title ?? workbook.name;
    const node = await notificationNode(created.id);
    const item = node.toTreeItem();
    assert.ok(String(item.description).includes(dashboardName), String(item.description));
    await expand('Notifications');
    const shown = await waitFor('the new row on screen', async () => {
      const t = await rowText(row(String(item.label)));
      return t.includes(dashboardName) ? t : undefined;
    });
    assert.doesNotMatch(shown, /dashboard \d+/);
    await screenshot('journeys/notification-created');
  });

  it('edits only the time; a flag set elsewhere on the filter is kept', async () => {
    assert.ok(createdId, 'the notification of the step before');
    // Someone marks the filter case-sensitive in the web app.
    await server(`/v1/deployments/${DEP}/notifications/${createdId}`, {
      method: 'PUT',
      body: JSON.stringify({
        filters: [{ member: 'orders.status', operator: 'equals', value: 'shipped', caseSensitive: true }],
      }),
    });
    ex.provider.refresh();
    const node = await notificationNode(createdId!);
    await expand('Notifications');
    const label = String(node.toTreeItem().label);
    // A click on the row would open the notification's details (its command), not select it.
    const menu = await contextMenuOfSelected(ex.view, node, row(label));
    assert.match(menu, /Edit Notification…/);
    const p = ex.script(['DAILY', '08:30', 'Europe/Paris', 'confirm']);
    await chooseMenu('Edit Notification…');
    const after = await waitFor(
      'the edit saved',
      async () => {
        const n = await server(`/v1/deployments/${DEP}/notifications/${createdId}`);
        return n.cronExpression === '30 8 * * *' ? n : undefined;
      },
      60_000,
    );
    assert.match(p.asked.at(-1), /summary/);
    assert.deepEqual(after.filters, [
      { member: 'orders.status', operator: 'equals', value: 'shipped', caseSensitive: true },
    ]);
    assert.equal(after.timezone, 'Europe/Paris');
    // The row reads the new time.
    ex.provider.refresh();
    const edited = await notificationNode(createdId!);
    const newLabel = String(edited.toTreeItem().label);
    assert.notEqual(newLabel, label);
    await expand('Deployments');
    await expand('Notifications');
    await waitFor(
      'the edited row on screen',
      async () => ((await rowText(row(newLabel))) !== '' ? true : undefined),
      30_000,
    );
    await screenshot('journeys/notification-edited');
  });
});
