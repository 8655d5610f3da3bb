// Notifications in a real VS Code against the sandbox (issue 14 item 4, issue 16): rows that name
// their dashboard and say when they are paused, a click that opens the details, pause and resume,
// edit through the prefilled multi-step input (with Back), delete after a modal naming schedule and
// dashboard; and the real quick inputs (searchable dashboard picker, timezones with the user's zone
// first, the summary step) in screenshots, light and dark.
import assert from 'node:assert/strict';
import * as vscode from 'vscode';
import { ScriptedPrompter, type Prompter } from '../../src/ui/prompter';
import { vscodePrompter } from '../../src/ui/vscodePrompter';
import { pressKeys, screenshot, waitFor, revertAndCloseAll, setTheme } from './harness';
import { explorerSuite, platformCall } from './sandboxSuite';

/* eslint-disable @typescript-eslint/no-explicit-any -- the nodes are the extension's own objects */
type Node = any;
const C = 'dashboardPlatform.explorer.';
const DEP = 1;

let ex: any;
let base: string;
let admin: string;

/** The served body; only the status when the call failed or answered nothing. */
async function platform(path: string, init?: RequestInit): Promise<any> {
  const { status, body } = await platformCall(base, admin, path, init);
  return status >= 200 && status < 300 && body !== undefined ? body : { status };
}

async function children(node?: Node): Promise<Node[]> {
  return ex.provider.getChildren(node);
}

async function notificationsList(): Promise<Node> {
  for (;;) {
    const kids = await children(ex.provider.roots.deployments);
    const d = kids.find((n: Node) => n.kind === 'deployment' && n.deploymentId === DEP);
    if (d) return d.list('notifications');
    const more = kids.find((n: Node) => n.kind === 'loadMore');
    if (!more) throw new Error('deployment not found');
    await vscode.commands.executeCommand(`${C}loadMore`, more);
  }
}

async function rows(): Promise<Node[]> {
  return (await children(await notificationsList())).filter((n: Node) => n.kind === 'notification');
}

/** Answers the first questions from a script, then shows the real quick input (for screenshots). */
function hybrid(answers: (string | string[])[], onReal: () => void): Prompter {
  const script = new ScriptedPrompter(answers);
  let left = answers.length;
  const real = <T>(f: () => Promise<T>) => {
    onReal();
    return f();
  };
  return {
    input: (q) => (left-- > 0 ? script.input(q) : real(() => vscodePrompter.input(q))),
    pick: (t, c, o) => (left-- > 0 ? script.pick(t, c, o) : real(() => vscodePrompter.pick(t, c, o))),
    pickMany: (t, c, o) =>
      left-- > 0 ? script.pickMany(t, c, o) : real(() => vscodePrompter.pickMany(t, c, o)),
    confirm: (m) => script.confirm(m),
  };
}

describe('notifications lifecycle', function () {
  this.timeout(180_000);

  explorerSuite((s) => ({ ex, base, admin } = s));

  it('names the dashboard, says paused, and a click opens the details with every recipient', async () => {
    const all = await rows();
    assert.ok(all.length > 0);
    const first = all[0].toTreeItem();
    const workbook = await platform(`/v1/deployments/${DEP}/workbooks/${all[0].data.dashboardId}`);
    const name = workbook.publishedDashboard?.title ?? workbook.name;
    assert.ok(String(first.description).includes(name), `${first.description} names ${name}`);
    assert.doesNotMatch(String(first.tooltip.value), /dashboard: \d+/);
    assert.equal(first.command.command, `${C}openNotification`);
    const paused = all.find((n: Node) => n.data.isEnabled === false);
    assert.ok(paused, 'the seed has paused notifications');
    assert.match(String(paused.toTreeItem().description), /paused/);
    assert.equal(paused.toTreeItem().contextValue, 'dp.notification.disabled');

    assert.equal(first.command.arguments[0], all[0], 'a click passes the row');
    await vscode.commands.executeCommand(first.command.command, ...first.command.arguments);
    // A seeded notification with more recipients than one sandbox page (2): all are shown.
    const recipientsOf = async (nid: number) => {
      let count = 0;
      for (let after: string | undefined; ;) {
        const page = await platform(
          `/v1/deployments/${DEP}/notifications/${nid}/recipients?first=1${after ? `&after=${encodeURIComponent(after)}` : ''}`,
        );
        count += page.items.length;
        if (!page.pageInfo.hasNextPage) return count;
        after = page.pageInfo.endCursor;
      }
    };
    let nid = 0;
    let count = 0;
    for (const candidate of [100_001, 100_016, 100_031, 100_046, 100_061]) {
      count = await recipientsOf(candidate);
      if (count > 2) {
        nid = candidate;
        break;
      }
    }
    assert.ok(nid > 0, 'a notification with more recipients than one page');
    const doc: vscode.TextDocument = await vscode.commands.executeCommand(`${C}openNotification`, {
      deploymentId: DEP,
      notificationId: nid,
    });
    const n = { data: await platform(`/v1/deployments/${DEP}/notifications/${nid}`) };
    const details = JSON.parse(doc.getText());
    assert.equal(details.dashboard.id, n.data.dashboardId);
    assert.ok(typeof details.dashboard.name === 'string' && !/^dashboard #/.test(details.dashboard.name));
    assert.equal(details.recipients.length, count);
    await revertAndCloseAll();
  });

  it('pauses and resumes a notification', async () => {
    const n = (await rows()).find((x: Node) => x.data.isEnabled === true);
    const id = n.data.id;
    await vscode.commands.executeCommand(`${C}pauseNotification`, n);
    assert.equal((await platform(`/v1/deployments/${DEP}/notifications/${id}`)).isEnabled, false);
    const row = (state: RegExp) =>
      waitFor(`the row ${state}`, async () => {
        const r = (await rows()).find((x: Node) => x.data.id === id);
        return r && state.test(String(r.toTreeItem().description)) ? r : undefined;
      });
    const after = await row(/paused/);
    await vscode.commands.executeCommand(`${C}resumeNotification`, after);
    assert.equal((await platform(`/v1/deployments/${DEP}/notifications/${id}`)).isEnabled, true);
    const resumed = await row(/^(?!.*paused)/);
    assert.equal(resumed.toTreeItem().contextValue, 'dp.notification.enabled');
  });

  it('edits through the prefilled multi-step input, with Back', async () => {
    // A daily one (whatever earlier suites created): its prefilled flow starts at 4 steps.
    const n = (await rows()).find((x: Node) => /^\S+ \S+ \* \* \*$/.test(String(x.data.cronExpression)));
    assert.ok(n, 'a daily notification is listed');
    const id = n.data.id;
    const p = ex.script([
      'MONTHLY',
      '40', // refused: a day is 1 to 31
      '15',
      '$back', // back to the day, answered again
      '14',
      '07:30',
      'Europe/Paris',
      'format',
      'PNG',
      'filters',
      'text',
      'orders.status equals returned',
      'done',
      'confirm',
    ]);
    await vscode.commands.executeCommand(`${C}editNotification`, n);
    assert.equal(p.refusals.length, 1, p.refusals.join(' | '));
    // The count follows the answers: MONTHLY adds the day of the month.
    assert.match(p.asked.at(-1), /summary \(Step 5 of 5\)/);
    assert.match(p.asked[0], /Edit Notification: schedule \(Step 1 of 4\)/);
    const after = await platform(`/v1/deployments/${DEP}/notifications/${id}`);
    assert.equal(after.cronExpression, '30 7 14 * *');
    assert.equal(after.timezone, 'Europe/Paris');
    assert.equal(after.notificationFormat, 'png');
    assert.deepEqual(after.filters, [{ member: 'orders.status', operator: 'equals', value: 'returned' }]);
    assert.equal(after.dashboardId, n.data.dashboardId, 'the dashboard is not changed by an edit');
  });

  it('deletes only after a modal naming the schedule and the dashboard', async () => {
    const n = (await rows())[2];
    const id = n.data.id;
    const declined = ex.script([], false);
    await vscode.commands.executeCommand(`${C}deleteNotification`, n);
    const message = declined.asked.at(-1);
    assert.ok(message.includes(n.data.humanReadableSchedule), message);
    const workbook = await platform(`/v1/deployments/${DEP}/workbooks/${n.data.dashboardId}`);
    assert.ok(message.includes(workbook.publishedDashboard?.title ?? workbook.name), message);
    assert.equal((await platform(`/v1/deployments/${DEP}/notifications/${id}`)).id, id, 'still there');
    ex.script([], true);
    await vscode.commands.executeCommand(`${C}deleteNotification`, n);
    assert.equal((await platform(`/v1/deployments/${DEP}/notifications/${id}`)).status, 404);
    await waitFor('the list without the deleted notification', async () =>
      (await rows()).some((x: Node) => x.data.id === id) ? undefined : true,
    );
  });

  for (const theme of ['Default Light Modern', 'Default Dark Modern']) {
    const tag = theme.includes('Dark') ? 'dark' : 'light';
    it(`shows the real pickers and the summary step (${tag})`, async () => {
      await setTheme(theme);
      const shots: [string, (string | string[])[]][] = [
        [`notification-dashboard-picker-${tag}`, []],
        [`notification-timezone-picker-${tag}`, ['1005', 'WEEKLY', 'Monday', '08:15']],
        [
          `notification-summary-${tag}`,
          [
            '1005',
            'WEEKLY',
            'Monday',
            '08:15',
            'Europe/Paris',
            ['user2@sandbox.example', 'user3@sandbox.example'],
          ],
        ],
      ];
      for (const [name, answers] of shots) {
        let shown = false;
        ex.usePrompter(hybrid(answers, () => (shown = true)));
        const run = Promise.resolve(
          vscode.commands.executeCommand(`${C}createNotification`, { deploymentId: DEP }),
        ).catch(() => undefined);
        await waitFor(`the ${name} quick input`, () => (shown ? true : undefined));
        await screenshot(name, 1500);
        await pressKeys(['Escape']);
        await run;
      }
      await setTheme('Default Dark Modern');
    });
  }
});
