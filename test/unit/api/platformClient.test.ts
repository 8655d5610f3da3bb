// PlatformClient against a local HTTP server: spec 4.1 rules refused before any request, paths and
// auth header, paging, 403 wording, and writes never retried.
import * as assert from 'node:assert/strict';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import {
  ApiError,
  PlatformClient,
  notificationQueryProblems,
  type NotificationListQuery,
} from '../../../src/api';

interface Seen {
  method: string;
  url: string;
  auth: string | undefined;
  body: string;
}

describe('PlatformClient', () => {
  let server: Server;
  let seen: Seen[];
  let reply: (s: Seen) => { status: number; body?: unknown };
  let client: PlatformClient;

  beforeEach(async () => {
    seen = [];
    reply = () => ({ status: 200, body: { items: [], pageInfo: null } });
    server = createServer((req, res) => {
      let body = '';
      req.on('data', (c: Buffer) => (body += c.toString()));
      req.on('end', () => {
        const s = { method: req.method!, url: req.url!, auth: req.headers.authorization, body };
        seen.push(s);
        const r = reply(s);
        res.writeHead(r.status, { 'content-type': 'application/json' });
        res.end(r.body === undefined ? '' : JSON.stringify(r.body));
      });
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    const { port } = server.address() as AddressInfo;
    client = new PlatformClient({
      baseUrl: `http://127.0.0.1:${port}/api`,
      token: () => Promise.resolve('tok-abc'),
      retry: { retries: 2, baseDelayMs: 1, maxDelayMs: 2 },
    });
  });

  afterEach(async () => {
    await client.close();
    server.closeAllConnections();
    await new Promise((r) => server.close(r));
  });

  const violations: [string, NotificationListQuery, RegExp][] = [
    ['page size above 200', { first: 201 }, /first must be a whole number from 1 to 200/],
    ['page size 0', { first: 0 }, /first must be/],
    ['dashboardId below 1', { dashboardId: 0 }, /dashboardId must be a whole number of at least 1/],
    ['recipientUserId below 1', { recipientUserId: -3 }, /recipientUserId must be/],
    [
      'two dashboard identifiers',
      { dashboardId: 4, dashboardPublicId: 'abc' },
      /either dashboardId or dashboardPublicId/,
    ],
    [
      'user id and e-mail',
      { recipientUserId: 2, recipientEmail: 'a@b.c' },
      /recipientUserId and recipientEmail/,
    ],
    [
      'e-mail and embed user',
      { recipientEmail: 'a@b.c', recipientEmbedTenantName: 't', recipientExternalId: 'x' },
      /recipientEmail and recipientEmbedTenantName \+ recipientExternalId/,
    ],
    ['embed tenant without external id', { recipientEmbedTenantName: 't' }, /go together/],
    ['external id without embed tenant', { recipientExternalId: 'x' }, /go together/],
  ];
  for (const [what, query, message] of violations) {
    it(`refuses ${what} before any request`, async () => {
      await assert.rejects(client.listNotifications(1, query), (e: unknown) => {
        assert.ok(e instanceof ApiError);
        assert.equal(e.kind, 'validation');
        assert.match(e.message, message);
        return true;
      });
      assert.equal(seen.length, 0, 'no request was sent');
    });
  }

  it('accepts a dashboard filter combined with a recipient filter', async () => {
    assert.deepEqual(
      notificationQueryProblems({ dashboardPublicId: 'p1', recipientEmail: 'a@b.c', first: 200 }),
      [],
    );
    await client.listNotifications(7, { dashboardPublicId: 'p1', recipientEmail: 'a@b.c', first: 200 });
    assert.equal(seen.length, 1);
    const url = new URL(seen[0]!.url, 'http://x');
    assert.equal(url.pathname, '/api/v1/deployments/7/notifications');
    assert.equal(url.searchParams.get('dashboardPublicId'), 'p1');
    assert.equal(url.searchParams.get('recipientEmail'), 'a@b.c');
    assert.equal(seen[0]!.auth, 'Bearer tok-abc');
  });

  it('says the admin role is needed when notifications answer 403', async () => {
    reply = () => ({ status: 403, body: { error: 'Forbidden' } });
    await assert.rejects(client.listNotifications(1), (e: unknown) => {
      assert.ok(e instanceof ApiError);
      assert.equal(e.kind, 'forbidden');
      assert.match(e.message, /admin role/);
      return true;
    });
  });

  it('pages through notifications with the end cursor until pageInfo says no more', async () => {
    reply = (s) => {
      const after = new URL(s.url, 'http://x').searchParams.get('after');
      const n = after ? Number(after) : 0;
      const item = (id: number) => ({
        id,
        dashboardId: 1,
        deploymentId: 1,
        cronExpression: '0 9 * * *',
        timezone: 'UTC',
        isEnabled: true,
        humanReadableSchedule: 'Every day at 09:00',
        notificationEnabled: true,
        notificationFormat: 'pdf',
        extraField: 'kept',
      });
      return {
        status: 200,
        body: {
          items: [item(n * 2 + 1), item(n * 2 + 2)],
          pageInfo: n < 2 ? { hasNextPage: true, hasPreviousPage: n > 0, endCursor: String(n + 1) } : null,
        },
      };
    };
    const ids: number[] = [];
    for await (const n of client.iterateNotifications(1, { first: 2 })) {
      ids.push(n.id);
      assert.equal((n as Record<string, unknown>).extraField, 'kept');
    }
    assert.deepEqual(ids, [1, 2, 3, 4, 5, 6]);
    assert.equal(seen.length, 3, 'one request a page');
  });

  it('keeps the page when one item is unreadable, naming its field; refuses a list without items', async () => {
    reply = () => ({
      status: 200,
      body: { items: [{ id: 1, dashboardId: 1 }, { dashboardId: 2 }, { id: 3 }], pageInfo: null },
    });
    const page = await client.listNotifications(1);
    assert.deepEqual(
      page.items.map((n) => n.id),
      [1, 3],
    );
    assert.equal(page.invalid?.length, 1);
    assert.equal(page.invalid?.[0]?.index, 1);
    assert.match(page.invalid?.[0]?.problem ?? '', /^id: /);
    reply = () => ({ status: 200, body: { pageInfo: null } });
    await assert.rejects(client.listNotifications(1), /missing required field "items"/);
    reply = () => ({ status: 200, body: { items: 'nope', pageInfo: null } });
    await assert.rejects(client.listNotifications(1), /"items"/);
  });

  it('reads the deprecated data/count when items/pageInfo are absent (spec 9.3)', async () => {
    reply = () => ({ status: 200, body: { data: [{ id: 4, name: 'Ops' }], count: 1 } });
    const page = await client.listFolders(1);
    assert.deepEqual(
      page.items.map((f) => f.name),
      ['Ops'],
    );
    assert.equal(page.pageInfo, null);
    assert.equal(page.total, 1);
  });

  it('refuses a lastViewedAt sort with a cursor, and sends search and sort', async () => {
    await assert.rejects(
      client.listReports(1, { sortBy: 'lastViewedAt', after: 'c1' }),
      /lastViewedAt cannot be paged/,
    );
    assert.equal(seen.length, 0);
    await client.listReports(1, { search: 'rev', sortBy: 'name', folderId: 3 });
    const url = new URL(seen[0]!.url, 'http://x');
    assert.equal(url.searchParams.get('search'), 'rev');
    assert.equal(url.searchParams.get('sortBy'), 'name');
    assert.equal(url.searchParams.get('folderId'), '3');
  });

  it('never retries a publish, even on 503', async () => {
    reply = () => ({ status: 503, body: { error: 'busy' } });
    await assert.rejects(client.publishDashboard(1, 2, { workbookId: 2, title: 'T' }), (e: unknown) => {
      assert.ok(e instanceof ApiError);
      assert.equal(e.kind, 'unknownOutcome');
      assert.equal((e.cause as ApiError).kind, 'server');
      return true;
    });
    assert.equal(seen.length, 1, 'exactly one POST');
    assert.equal(seen[0]!.method, 'POST');
    assert.equal(new URL(seen[0]!.url, 'http://x').pathname, '/api/v1/deployments/1/workbooks/2/publish');
  });

  it('retries a GET on 503', async () => {
    let calls = 0;
    reply = () =>
      ++calls < 2
        ? { status: 503, body: { error: 'busy' } }
        : { status: 200, body: { items: [], pageInfo: null } };
    await client.listDeployments({ first: 10 });
    assert.equal(seen.length, 2);
  });

  it('polls a dbt sync job until it completes', async () => {
    const states = ['QUEUED', 'RUNNING', 'SOMETHING_NEW', 'COMPLETED'];
    reply = (s) =>
      s.method === 'POST'
        ? { status: 200, body: { syncJobId: 17, workflowId: 'w', branchName: 'main' } }
        : { status: 200, body: { status: states.shift() } };
    const started = await client.startDbtSync(1, { branchName: 'main' });
    assert.equal(started.syncJobId, '17');
    const seenStates: string[] = [];
    const job = await client.waitForDbtSync(1, started.syncJobId, {
      intervalMs: 1,
      onStatus: (j) => seenStates.push(j.status),
    });
    assert.equal(job.status, 'COMPLETED');
    assert.deepEqual(seenStates, ['QUEUED', 'RUNNING', 'SOMETHING_NEW', 'COMPLETED']);
  });

  it('creates a notification only with exactly one dashboard identifier', async () => {
    await assert.rejects(
      client.createNotification(1, { scheduleType: 'DAILY' }),
      /exactly one of dashboardId or dashboardPublicId/,
    );
    await assert.rejects(
      client.createNotification(1, { scheduleType: 'DAILY', dashboardId: 1, dashboardPublicId: 'x' }),
      /exactly one/,
    );
    assert.equal(seen.length, 0);
  });

  it('mints a Data API token', async () => {
    reply = () => ({ status: 200, body: { cubeApiToken: 'jwt.x.y' } });
    assert.equal(await client.mintDataApiToken(3, { expiresIn: 600 }), 'jwt.x.y');
    assert.deepEqual(JSON.parse(seen[0]!.body), { expiresIn: 600 });
    await assert.rejects(client.mintDataApiToken(3, { expiresIn: 5 }), /60 to 86400/);
  });
});
