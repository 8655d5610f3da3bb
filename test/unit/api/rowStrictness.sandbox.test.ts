// Rules the published documents state beyond a field's type (an order with no cursor, the enums of
// a query, what each recipient type needs, the 4.1 filter rules) live in the operation rows'
// schemas, so they hold both ways: the client refuses such a request before sending anything, and
// the sandbox, which checks every request against the same row, refuses it when sent by hand.
import * as assert from 'node:assert/strict';
import { ApiError, PlatformClient } from '../../../src/api';
import { startSandbox, type SandboxHandle } from '../../../src/sandbox';

interface Case {
  what: string;
  /** The client call that must be refused before sending. */
  call: (c: PlatformClient) => Promise<unknown>;
  /** The same request sent by hand. */
  send: { method: string; path: string; body?: unknown };
  message: RegExp;
}

const D = 1;
const N = '/v1/deployments/1/notifications';

describe('rules the documents publish hold in the client and in the sandbox alike', function () {
  this.timeout(60_000);
  let sb: SandboxHandle;
  let client: PlatformClient;
  let notificationId: number;

  before(async () => {
    sb = await startSandbox({ rows: 20 });
    client = new PlatformClient({ baseUrl: sb.urls.platform, token: async () => sb.tokens.admin });
    notificationId = (await client.listNotifications(D, { first: 1 })).items[0]!.id;
  });
  after(async () => {
    await client.close();
    await sb.close();
  });

  const sent = () => Object.values(sb.state.requestCounts).reduce((a, b) => a + b, 0);
  async function byHand(method: string, path: string, body?: unknown) {
    const res = await fetch(`${sb.urls.platform}${path}`, {
      method,
      headers: {
        authorization: `Bearer ${sb.tokens.admin}`,
        ...(body === undefined ? {} : { 'content-type': 'application/json' }),
      },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    });
    return { status: res.status, error: String(((await res.json()) as { error?: unknown }).error) };
  }

  const recipients = (list: unknown[]) => ({ recipients: list });
  const cases: Case[] = [
    {
      what: 'a cursor with the lastViewedAt order (getReports: no stable cursor column)',
      call: (c) => c.listReports(D, { sortBy: 'lastViewedAt', after: 'abc' }),
      send: { method: 'GET', path: '/v1/deployments/1/reports?sortBy=lastViewedAt&after=abc' },
      message: /lastViewedAt cannot be paged with a cursor/,
    },
    {
      what: 'a report order the document does not list',
      call: (c) => c.listReports(D, { sortBy: 'views' as never }),
      send: { method: 'GET', path: '/v1/deployments/1/reports?sortBy=views' },
      message: /sortBy/,
    },
    {
      what: 'a workspace item type the document does not list',
      call: (c) => c.listWorkspace(D, { types: ['BOARD' as never] }),
      send: { method: 'GET', path: '/v1/deployments/1/workspace?types=BOARD' },
      message: /types/,
    },
    {
      what: 'an environment type the document does not list',
      call: (c) => c.listEnvironments(D, { type: 'qa' as never }),
      send: { method: 'GET', path: '/v1/deployments/1/environments?type=qa' },
      message: /type/,
    },
    {
      what: 'two dashboard identifiers in a notification filter (spec 4.1)',
      call: (c) => c.listNotifications(D, { dashboardId: 1, dashboardPublicId: 'p' }),
      send: { method: 'GET', path: `${N}?dashboardId=1&dashboardPublicId=p` },
      message: /either dashboardId or dashboardPublicId, not both/,
    },
    {
      what: 'an embed tenant without its external id in a notification filter (spec 4.1)',
      call: (c) => c.listNotifications(D, { recipientEmbedTenantName: 'acme' }),
      send: { method: 'GET', path: `${N}?recipientEmbedTenantName=acme` },
      message: /go together/,
    },
    {
      what: 'a USER recipient with neither userId nor email',
      call: (c) => c.addRecipients(D, notificationId, [{ type: 'USER' }]),
      send: { method: 'POST', path: '', body: recipients([{ type: 'USER' }]) },
      message: /A USER recipient needs userId or email/,
    },
    {
      what: 'an EMBED_USER recipient without its external id',
      call: (c) => c.addRecipients(D, notificationId, [{ type: 'EMBED_USER', embedTenantName: 'acme' }]),
      send: { method: 'POST', path: '', body: recipients([{ type: 'EMBED_USER', embedTenantName: 'acme' }]) },
      message: /EMBED_USER recipient needs embedTenantName and externalId/,
    },
    {
      what: 'a SLACK recipient without its channel',
      call: (c) => c.addRecipients(D, notificationId, [{ type: 'SLACK', channelName: 'ops' }]),
      send: { method: 'POST', path: '', body: recipients([{ type: 'SLACK', channelName: 'ops' }]) },
      message: /SLACK recipient needs channelId/,
    },
    {
      what: 'an EMBED_USER removal without its tenant',
      call: (c) => c.removeRecipients(D, notificationId, [{ type: 'EMBED_USER', id: 5 }]),
      send: { method: 'DELETE', path: '', body: recipients([{ type: 'EMBED_USER', id: 5 }]) },
      message: /EMBED_USER entry also needs embedTenantName/,
    },
  ];

  for (const c of cases) {
    it(`refuses ${c.what}: the client before sending, the sandbox when sent`, async () => {
      const before = sent();
      await assert.rejects(c.call(client), (e: unknown) => {
        assert.ok(e instanceof ApiError, String(e));
        assert.equal(e.kind, 'validation');
        assert.match(e.message, c.message);
        return true;
      });
      assert.equal(sent(), before, 'the client sent nothing');
      const path = c.send.path || `${N}/${notificationId}/recipients`;
      const res = await byHand(c.send.method, path, c.send.body);
      assert.equal(res.status, 400, res.error);
      assert.match(res.error, c.message);
    });
  }

  it('adds nothing when one recipient of a batch breaks its type’s rule', async () => {
    const list = async () =>
      (await client.listRecipients(D, notificationId, { first: 200 })).items.map((r) => r.email);
    const was = await list();
    const res = await byHand(
      'POST',
      `${N}/${notificationId}/recipients`,
      recipients([{ type: 'USER', email: 'new.person@example.com' }, { type: 'SLACK' }]),
    );
    assert.equal(res.status, 400);
    assert.deepEqual(await list(), was, 'the valid recipient before the bad one was not added');
  });
});
