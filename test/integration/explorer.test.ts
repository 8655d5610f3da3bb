// The explorer inside a real VS Code against the sandbox: every node kind, cursor paging with
// "Load more", reports search and sort, the 4.1 filter rules, every action with its effect read back
// from the sandbox, and an injected 500 turned into an error node whose Retry succeeds.
import assert from 'node:assert/strict';
import * as vscode from 'vscode';
import { screenshot, waitFor } from './harness';
import { deploymentNode } from './explorerTree';
import { openSandboxView } from './sandboxSuite';

/* eslint-disable @typescript-eslint/no-explicit-any -- the nodes are the extension's own objects */
type Node = any;

const C = 'dashboardPlatform.explorer.';
const DEP = 1;

let ex: any; // ExplorerApi
let base: string; // http://127.0.0.1:PORT of the sandbox
let admin: string;

async function control(path: string, init?: RequestInit): Promise<any> {
  const res = await fetch(`${base}${path}`, {
    ...init,
    headers: { 'content-type': 'application/json', ...(init?.headers ?? {}) },
  });
  const text = await res.text();
  return text ? JSON.parse(text) : undefined;
}

/** A platform API read with the admin token (independent of the explorer). */
async function platform(path: string): Promise<any> {
  const res = await fetch(`${base}/api${path}`, { headers: { authorization: `Bearer ${admin}` } });
  assert.equal(res.status, 200, `GET ${path} -> ${res.status}`);
  return res.json();
}

async function allPages(path: string): Promise<any[]> {
  const out: any[] = [];
  let after: string | undefined;
  for (;;) {
    const sep = path.includes('?') ? '&' : '?';
    const page = await platform(
      `${path}${sep}first=200${after ? `&after=${encodeURIComponent(after)}` : ''}`,
    );
    out.push(...page.items);
    if (!page.pageInfo?.hasNextPage) return out;
    after = page.pageInfo.endCursor;
  }
}

async function counts(): Promise<Record<string, number>> {
  return (await control('/__sandbox/state')).requestCounts ?? {};
}

/** Requests to platform paths matching `re` between two count snapshots. */
function delta(before: Record<string, number>, after: Record<string, number>, re: RegExp): number {
  let n = 0;
  for (const [k, v] of Object.entries(after)) if (re.test(k)) n += v - (before[k] ?? 0);
  return n;
}

/**
 * The clipboard as the workbench hands it back, or undefined when it does not within 5 s (headless
 * Chromium without clipboard permissions never answers reads; desktop VS Code does).
 */
async function clipboard(): Promise<string | undefined> {
  await new Promise((r) => setTimeout(r, 300));
  return Promise.race([
    vscode.env.clipboard.readText(),
    new Promise<undefined>((resolve) => setTimeout(() => resolve(undefined), 5000)),
  ]);
}

async function children(node?: Node): Promise<Node[]> {
  return ex.provider.getChildren(node);
}

function kinds(nodes: Node[]): string[] {
  return nodes.map((n) => n.kind);
}

const deployment = (id = DEP): Promise<Node> => deploymentNode(ex, id);

async function list(kind: string, id = DEP): Promise<Node> {
  return (await deployment(id)).list(kind);
}

/** Clicks "Load more" until the list ends; returns the item nodes and the pages it took. */
async function loadAll(node: Node): Promise<{ items: Node[]; pages: number }> {
  let kids = await children(node);
  let pages = 1;
  for (;;) {
    const more = kids.find((n) => n.kind === 'loadMore');
    if (!more) break;
    await vscode.commands.executeCommand(`${C}loadMore`, more);
    pages++;
    kids = await children(node);
  }
  return { items: kids.filter((n) => !['loadMore', 'error', 'empty', 'info'].includes(n.kind)), pages };
}

async function setPageSize(n: number | undefined): Promise<void> {
  const cfg = () => vscode.workspace.getConfiguration('dashboardPlatform.explorer');
  await cfg().update('pageSize', n, vscode.ConfigurationTarget.Global);
  await waitFor('the page size setting', () => (cfg().get('pageSize') === (n ?? 50) ? true : undefined));
  // The configuration event resets the tree too; let it pass, then start from a known state.
  await new Promise((r) => setTimeout(r, 300));
  ex.provider.refresh();
}

describe('explorer', function () {
  this.timeout(120_000);

  before(async () => {
    ({ ex, base, admin } = await openSandboxView());
    assert.ok(ex, 'the extension API exposes the explorer');
    await setPageSize(undefined);
  });

  afterEach(async () => {
    ex.usePrompter(undefined);
    await vscode.commands.executeCommand(`${C}clearReportsQuery`);
    await vscode.commands.executeCommand(`${C}clearNotificationFilter`);
    await control('/__sandbox/faults', { method: 'DELETE' });
  });

  it('expands every node kind', async () => {
    const root = await children();
    assert.deepEqual(kinds(root), ['group', 'appConfig', 'adminSection']);
    const deps = (await children(ex.provider.roots.deployments)).filter((n: Node) => n.kind === 'deployment');
    assert.equal(deps.length, (await allPages('/v1/deployments')).length);
    const all = await children(await deployment());
    assert.deepEqual(
      all.map((l: Node) => l.listSpec?.kind ?? l.kind),
      [
        'workspace',
        'sharedWorkspace',
        'environments',
        'folders',
        'reports',
        'workbooks',
        'notifications',
        'envVars',
        'dbtSyncs',
        'health',
      ],
    );
    // Health (deployOps.test.ts drives it) is not a list.
    const lists = all.filter((l: Node) => l.listSpec);
    const expect: Record<string, string> = {
      workspace: 'folder',
      sharedWorkspace: 'folder',
      environments: 'environment',
      folders: 'folder',
      reports: 'report',
      workbooks: 'workbook',
      notifications: 'notification',
      envVars: 'envVar',
      dbtSyncs: 'dbtSync',
    };
    for (const l of lists) {
      const kids = await children(l);
      assert.ok(
        kids.some((n: Node) => n.kind === expect[l.listSpec.kind]),
        `${l.listSpec.kind}: ${kinds(kids).join(',')}`,
      );
      // Every row renders with an id, an icon and a contextValue.
      for (const k of kids) {
        const t = k.toTreeItem();
        assert.ok(t.id && t.iconPath && t.contextValue, `${k.kind} renders fully`);
      }
    }
    // Nested folders: a folder lists its subfolders (or says it has none).
    const folder = (await children(await list('folders'))).find((n: Node) => n.kind === 'folder');
    const sub = await children(folder);
    assert.ok(
      sub.length > 0 &&
        sub.every((n: Node) => n.kind === 'folder' || n.kind === 'empty' || n.kind === 'loadMore'),
    );
    // A notification lists its recipients.
    const notification = (await children(await list('notifications'))).find(
      (n: Node) => n.kind === 'notification',
    );
    const recipients = await children(notification);
    assert.ok(
      recipients.length > 0 && recipients.every((n: Node) => n.kind === 'recipient' || n.kind === 'empty'),
      'recipients, or a line saying there are none',
    );
    const nt = notification.toTreeItem();
    assert.equal(nt.label, notification.data.humanReadableSchedule);
    assert.ok(String(nt.description).includes(notification.data.timezone));
    assert.equal(nt.iconPath.id, notification.data.isEnabled ? 'bell' : 'bell-slash');
    // App-level nodes.
    const users = await children(ex.provider.roots.users);
    assert.ok(users.some((n: Node) => n.kind === 'user'));
  });

  it('pages a long list to the end with "Load more": items, order, one request a page, siblings untouched', async () => {
    await setPageSize(40);
    const expected = (await allPages(`/v1/deployments/${DEP}/notifications`)).map((n) => n.id);
    assert.ok(expected.length > 120, `the sandbox has several pages of notifications (${expected.length})`);
    const node = await list('notifications');
    const before = await counts();
    const firstKids = await children(node);
    assert.equal(firstKids.filter((n: Node) => n.kind === 'notification').length, 40);
    assert.equal(firstKids.at(-1).kind, 'loadMore');
    const { items, pages } = await loadAll(node);
    const after = await counts();
    assert.deepEqual(
      items.map((n: Node) => n.data.id),
      expected,
    );
    assert.equal(pages, Math.ceil(expected.length / 40));
    assert.equal(delta(before, after, /notifications/), pages, 'exactly one request a page');
    assert.equal(
      delta(before, after, /reports|workbooks|folders|environments|env-vars/),
      0,
      'no sibling refetched',
    );
    // Item nodes keep their identity (so VS Code keeps expansion and selection).
    assert.equal(items[0], firstKids[0]);
    // Refreshing one list refetches that list only.
    const b2 = await counts();
    await vscode.commands.executeCommand(`${C}refresh`, await list('reports'));
    await children(await list('reports'));
    const a2 = await counts();
    assert.equal(delta(b2, a2, /reports/), 1);
    assert.equal(delta(b2, a2, /notifications/), 0);
    await setPageSize(undefined);
  });

  it('a refresh while a list loads shows the refreshed list, never an expanded list with no rows', async () => {
    const node = await list('reports');
    node.reset();
    const pending = children(node);
    // What a refresh or a profile switch does while the first page is on its way.
    node.reset();
    const kids = await pending;
    const rows = kids.filter((n: Node) => !['loadMore', 'error', 'empty', 'info'].includes(n.kind));
    assert.ok(rows.length > 0, `the reports are shown (got ${JSON.stringify(kinds(kids))})`);
    assert.equal(node.paging.snapshot().status, 'ready');
  });

  it('searches and sorts reports on the server and shows the query in the view description', async () => {
    const all = await allPages(`/v1/deployments/${DEP}/reports`);
    const word = String(all[3].name).split(/\s+/)[0];
    await vscode.commands.executeCommand(`${C}searchReports`, { deploymentId: DEP, search: word });
    const found = (await loadAll(await list('reports'))).items.map((n: Node) => n.data.id);
    const server = (await allPages(`/v1/deployments/${DEP}/reports?search=${encodeURIComponent(word)}`)).map(
      (r) => r.id,
    );
    assert.deepEqual(found, server);
    assert.ok(found.length > 0 && found.length < all.length);
    assert.match(String(ex.view.description), new RegExp(`search "${word}"`));

    await vscode.commands.executeCommand(`${C}sortReports`, { deploymentId: DEP, sortBy: 'name' });
    const names = (await loadAll(await list('reports'))).items.map((n: Node) => String(n.data.name));
    assert.deepEqual(
      names,
      [...names].sort((a, b) => a.localeCompare(b)),
    );
    assert.match(String(ex.view.description), /sorted by name \(A→Z\)/);

    // The picker reads in words, with a direction; Z→A reaches the server as sortDirection DESC.
    const p = ex.script(['Name (Z→A)']);
    await vscode.commands.executeCommand(`${C}sortReports`, { deploymentId: DEP });
    assert.ok(p.offered.get('Sort Reports').includes('Updated (newest first)'));
    assert.ok(!p.offered.get('Sort Reports').some((l: string) => /^(createdAt|updatedAt|name)$/.test(l)));
    const desc = (await loadAll(await list('reports'))).items.map((n: Node) => String(n.data.name));
    assert.deepEqual(
      desc,
      [...desc].sort((a, b) => b.localeCompare(a)),
    );
    assert.match(String(ex.view.description), /sorted by name \(Z→A\)/);

    await vscode.commands.executeCommand(`${C}clearReportsQuery`, { deploymentId: DEP });
    assert.equal(ex.view.description, undefined);

    // lastViewedAt: one page, and a node saying why there is no "Load more".
    await vscode.commands.executeCommand(`${C}sortReports`, { deploymentId: DEP, sortBy: 'lastViewedAt' });
    const kids = await children(await list('reports'));
    assert.equal(kids.at(-1).kind, 'info');
    assert.match(kids.at(-1).label, /cannot page/);
    assert.ok(!kids.some((n: Node) => n.kind === 'loadMore'));
    await vscode.commands.executeCommand(`${C}clearReportsQuery`);
  });

  it('refuses each notification filter rule of spec 4.1 in the input flow, naming the conflict', async () => {
    const node = await list('notifications');
    const before = await counts();
    // Typed into the flow: each wrong answer is refused under the box, then a valid one accepted.
    const p = ex.script(['12 dash-x', '1001', '42 ann@example.com', 'ann@example.com acme/u1', 'acme/', '1']);
    const filter = await vscode.commands.executeCommand(`${C}filterNotifications`, node);
    assert.deepEqual(filter, { dashboardId: 1001, recipientUserId: 1 });
    assert.equal(p.refusals.length, 4, p.refusals.join(' | '));
    assert.match(p.refusals[0], /dashboardId/);
    assert.match(p.refusals[0], /dashboardPublicId/);
    assert.match(p.refusals[1], /recipientUserId/);
    assert.match(p.refusals[1], /recipientEmail/);
    assert.match(p.refusals[2], /recipientEmail/);
    assert.match(p.refusals[2], /recipientEmbedTenantName|recipientExternalId/);
    assert.match(p.refusals[3], /recipientExternalId/);
    assert.equal(delta(before, await counts(), /notifications/), 0, 'refusals send nothing');
    // Rule 2: the accepted combination filters on the server.
    const items = (await children(node)).filter((n: Node) => n.kind === 'notification');
    const expected = await allPages(
      `/v1/deployments/${DEP}/notifications?dashboardId=1001&recipientUserId=1`,
    );
    assert.ok(expected.length > 0);
    assert.deepEqual(
      items.map((n: Node) => n.data.id),
      expected.map((n) => n.id),
    );
    // The dashboard by its name, never "dashboard 1001".
    const wb1001 = (await platform(`/v1/deployments/${DEP}/workbooks/1001`)) as any;
    const title = wb1001.publishedDashboard?.title ?? wb1001.name;
    assert.ok(String(ex.view.description).includes(`dashboard “${title}”, recipient 1`), ex.view.description);
    assert.doesNotMatch(String(ex.view.description), /dashboard 1001/);
    // Arguments are held to the same rules: refused, list unchanged.
    const r = await vscode.commands.executeCommand(`${C}filterNotifications`, {
      deploymentId: DEP,
      dashboardId: 3,
      dashboardPublicId: 'x',
    });
    assert.equal(r, undefined);
    assert.deepEqual(node.listSpec.notificationFilter, { dashboardId: 1001, recipientUserId: 1 });
    await vscode.commands.executeCommand(`${C}clearNotificationFilter`, { deploymentId: DEP });
    assert.equal(ex.view.description, undefined);
  });

  it('shows one node saying the admin role is needed when notifications are forbidden', async () => {
    await control('/__sandbox/faults', {
      method: 'POST',
      body: JSON.stringify({ family: 'platform', route: '/notifications', status: 403, times: 1 }),
    });
    const node = await list('notifications');
    await vscode.commands.executeCommand(`${C}refresh`, node);
    const kids = await children(node);
    assert.equal(kids.length, 1);
    assert.equal(kids[0].kind, 'error');
    assert.match(kids[0].message, /admin/);
    assert.equal(kids[0].toTreeItem().command, undefined, 'no retry for a missing role');
    await vscode.commands.executeCommand(`${C}refresh`, node);
  });

  it('turns an injected 500 into an error node whose Retry succeeds', async () => {
    const node = await list('workbooks');
    await control('/__sandbox/faults', {
      method: 'POST',
      body: JSON.stringify({ family: 'platform', route: '/workbooks', status: 500, times: 1 }),
    });
    await vscode.commands.executeCommand(`${C}refresh`, node);
    const failed = await children(node);
    assert.deepEqual(kinds(failed), ['error']);
    assert.equal(failed[0].toTreeItem().command.command, `${C}retry`);
    await vscode.commands.executeCommand(`${C}retry`, failed[0]);
    const ok = await children(node);
    assert.ok(ok.length > 0 && ok.every((n: Node) => n.kind === 'workbook' || n.kind === 'loadMore'));
  });

  describe('actions', () => {
    it('opens any item as read-only formatted JSON and copies ids', async () => {
      const report = (await children(await list('reports'))).find((n: Node) => n.kind === 'report');
      const doc: vscode.TextDocument = await vscode.commands.executeCommand(`${C}openJson`, report);
      assert.equal(doc.uri.scheme, 'dashboard-platform-json');
      assert.equal(doc.languageId, 'json');
      assert.deepEqual(JSON.parse(doc.getText()), report.data);
      assert.ok(doc.getText().includes('\n  "'), 'pretty-printed');
      const id = await vscode.commands.executeCommand(`${C}copyId`, report);
      assert.equal(id, String(report.data.id));
      const copied = await clipboard();
      if (copied !== undefined) assert.equal(copied, String(report.data.id));
      const workbook = (await children(await list('workbooks'))).find(
        (n: Node) => n.kind === 'workbook' && n.data.publishedDashboard?.publicId,
      );
      assert.equal(workbook.toTreeItem().contextValue, 'dp.workbook.public');
      const pub = await vscode.commands.executeCommand(`${C}copyPublicId`, workbook);
      assert.equal(pub, workbook.data.publishedDashboard.publicId);
      const copiedPub = await clipboard();
      if (copiedPub !== undefined) assert.equal(copiedPub, pub);
      const dep: vscode.TextDocument = await vscode.commands.executeCommand(
        `${C}openJson`,
        await deployment(),
      );
      assert.equal(JSON.parse(dep.getText()).id, DEP);
    });

    it('shows the app config', async () => {
      const doc: vscode.TextDocument = await vscode.commands.executeCommand(`${C}showAppConfig`);
      assert.deepEqual(JSON.parse(doc.getText()), await platform('/v1/app-config'));
    });

    it('starts a dbt sync and follows it to its end', async () => {
      const job: any = await vscode.commands.executeCommand(`${C}dbtSync`, {
        deploymentId: DEP,
        branchName: 'main',
      });
      assert.equal(job?.status, 'COMPLETED');
      const state = await control('/__sandbox/state');
      assert.ok(
        Object.values(state.dbtJobs).some((j: any) => j.deploymentId === DEP && j.branchName === 'main'),
        'the sandbox recorded the sync on branch main',
      );
      // A failing job is reported as a failure (the command's one catch shows it; no result).
      const failed = await vscode.commands.executeCommand(`${C}dbtSync`, {
        deploymentId: DEP,
        branchName: 'fail',
      });
      assert.equal(failed, undefined);
      assert.ok(
        Object.values((await control('/__sandbox/state')).dbtJobs).some((j: any) => j.branchName === 'fail'),
      );
    });

    it('duplicates a workbook (shared flag) and the copy appears in the list', async () => {
      const wbList = await list('workbooks');
      const wb = (await children(wbList)).find((n: Node) => n.kind === 'workbook');
      const ex1 = ex.script([]);
      const copy: any = await vscode.commands.executeCommand(`${C}duplicateWorkbook`, wb);
      assert.equal(copy, undefined, 'a palette-style call with no answer is cancelled');
      assert.ok(ex1.asked[0].includes('Duplicate'));
      ex.usePrompter(undefined);
      const made: any = await vscode.commands.executeCommand(`${C}duplicateWorkbook`, {
        deploymentId: DEP,
        workbookId: wb.data.id,
        shared: true,
      });
      assert.ok(made?.id && made.id !== wb.data.id);
      const all = await allPages(`/v1/deployments/${DEP}/workbooks`);
      assert.ok(all.some((w) => w.id === made.id));
      const shown = (await loadAll(wbList)).items.map((n: Node) => n.data.id);
      assert.ok(shown.includes(made.id), 'the workbooks list was refreshed');
    });

    it('connects a report to a workbook', async () => {
      const report = (await children(await list('reports'))).find((n: Node) => n.kind === 'report');
      ex.script(['ext-wb-42', 'Sheet2!B3', 'F30']);
      await vscode.commands.executeCommand(`${C}connectReportToWorkbook`, report);
      const after = await platform(`/v1/deployments/${DEP}/reports/${report.data.id}`);
      assert.ok(
        after.externalWorkbookPlacements.some(
          (p: any) =>
            p.workbookId === 'ext-wb-42' && p.resultLocation === 'Sheet2!B3' && p.endResultCell === 'F30',
        ),
        JSON.stringify(after.externalWorkbookPlacements),
      );
    });

    it('creates a notification through the short multi-step input and its summary form', async () => {
      const node = await list('notifications');
      const p = ex.script([
        '0',
        '1005',
        'WEEKLY',
        'Monday',
        '25:00',
        '08:15',
        'Mars/Base',
        'Europe/Paris',
        ['user2@sandbox.example'],
        '$back', // Back from the summary to the recipients, which are asked again.
        ['user2@sandbox.example'],
        'format',
        'PNG',
        'format',
        'PDF',
        'filters',
        'add',
        'orders.statuss', // refused: not a member, with the closest one suggested
        'orders.status',
        'equals',
        'shipped',
        'done',
        'grains',
        'orders.createdAt week',
        'emails',
        'not-an-email',
        'ann@example.com',
        'confirm',
      ]);
      const created: any = await vscode.commands.executeCommand(`${C}createNotification`, node);
      assert.ok(created?.id, `created (asked ${p.asked.join(' / ')}; refused ${p.refusals.join(' / ')})`);
      assert.equal(p.refusals.length, 5, p.refusals.join(' | '));
      assert.match(
        p.refusals[3],
        /"orders\.statuss" is not a member of this deployment\. Did you mean orders\.status\?/,
      );
      assert.match(p.asked[0], /dashboard \(Step 1 of 6\)/);
      // The schedule reads in words.
      assert.ok(p.offered.get('Create Notification: schedule').includes('Every day at…'));
      assert.ok(!p.offered.get('Create Notification: schedule').includes('DAILY'));
      assert.equal(
        p.asked.filter((a: string) => /: recipients/.test(a)).length,
        2,
        'recipients asked again after Back',
      );
      assert.match(p.asked.at(-1), /summary \(Step 7 of 7\)/);
      const listed = (await allPages(`/v1/deployments/${DEP}/notifications?dashboardId=1005`)).find(
        (n) => n.id === created.id,
      );
      assert.ok(listed, 'the new notification is listed by the server');
      assert.equal(listed.timezone, 'Europe/Paris');
      assert.equal(listed.notificationFormat, 'pdf');
      assert.deepEqual(listed.filters?.[0]?.member, 'orders.status');
      assert.deepEqual(listed.timeGrains, [{ member: 'orders.createdAt', grain: 'week' }]);
      const recipients = (
        await platform(`/v1/deployments/${DEP}/notifications/${created.id}/recipients?first=200`)
      ).items.map((r: any) => r.email);
      assert.deepEqual(recipients.sort(), ['ann@example.com', 'user2@sandbox.example']);
      const first = (await children(node)).filter((n: Node) => n.kind === 'notification');
      assert.equal(first[0].data.id, created.id, 'newest first, and the list was refreshed');
    });

    it('manages recipients: list, add, remove', async () => {
      const notification = (await children(await list('notifications'))).find(
        (n: Node) => n.kind === 'notification',
      );
      const nid = notification.data.id;
      const listed = async () =>
        (await platform(`/v1/deployments/${DEP}/notifications/${nid}/recipients?first=200`)).items;
      // A USER recipient is a user of the tenant: the documents remove it by its userId.
      const users = (await platform('/scim/v2/Users?count=100')).Resources as any[];
      const before = await listed();
      const email = users
        .map((u) => u.emails?.[0]?.value ?? u.userName)
        .find((e) => e && !before.some((r: any) => r.email === e));
      assert.ok(email, 'a tenant user who is not a recipient yet');
      ex.script(['User', email]);
      await vscode.commands.executeCommand(`${C}addRecipient`, notification);
      assert.ok((await listed()).some((r: any) => r.email === email));
      const shown = await children(notification);
      const added = shown.find((n: Node) => n.kind === 'recipient' && n.data.email === email);
      assert.ok(added, 'the recipients under the notification were refreshed');
      await vscode.commands.executeCommand(`${C}removeRecipient`, added);
      assert.ok(!(await listed()).some((r: any) => r.email === email));
    });

    it('deletes an embed tenant after a modal confirmation naming it', async () => {
      const declined = ex.script(['acme'], false);
      const r1 = await vscode.commands.executeCommand(`${C}deleteEmbedTenant`);
      assert.equal(r1, undefined);
      assert.match(declined.asked.at(-1), /"acme"/);
      ex.script([], true);
      const r2 = await vscode.commands.executeCommand(`${C}deleteEmbedTenant`, { name: 'acme' });
      assert.equal(r2, true);
      const state = await control('/__sandbox/state');
      assert.deepEqual(state.deletedEmbedTenants, ['acme'], 'declined once, deleted once');
    });
  });

  it('screenshot: the explorer with several lists expanded', async () => {
    await setPageSize(8);
    const dep = await deployment();
    await ex.view.reveal(dep, { expand: true, focus: false, select: false });
    for (const kind of ['reports', 'notifications', 'folders']) {
      const l = dep.list(kind);
      await children(l);
      await ex.view.reveal(l, { expand: true, focus: false, select: false });
    }
    const report = (await children(dep.list('reports'))).find((n: Node) => n.kind === 'report');
    await vscode.commands.executeCommand(`${C}openJson`, report);
    await vscode.commands.executeCommand('workbench.action.closeAuxiliaryBar');
    await vscode.commands.executeCommand('notifications.clearAll');
    await ex.view.reveal(report, { select: true, focus: true });
    await new Promise((r) => setTimeout(r, 1500));
    await screenshot('explorer');
    await setPageSize(undefined);
  });
});
