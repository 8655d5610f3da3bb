// What the published documents make the sandbox do beyond shapes: per-deployment Data API hosts,
// cursor-paged recipients with {type, id} removal and created/updated/unchanged add results, SCIM
// users, nulls where the documents allow them.
import * as assert from 'node:assert/strict';
import { scimUserId } from '../../../src/sandbox/platform/admin/scimRoutes';
import { startSandbox, type SandboxHandle } from '../../../src/sandbox';

interface Recipient {
  type: string;
  userId: number | null;
  embedUserId: number | null;
  channelId: string | null;
  embedTenantName: string | null;
}

describe('sandbox: published behaviours', function () {
  this.timeout(60_000);
  let sb: SandboxHandle;
  before(async () => {
    sb = await startSandbox({ rows: 800 });
  });
  after(() => sb.close());

  const api = async (method: string, p: string, body?: unknown, token = sb.tokens.admin) => {
    const res = await fetch(`${sb.urls.platform}${p}`, {
      method,
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const text = await res.text();
    return { status: res.status, body: text ? (JSON.parse(text) as Record<string, unknown>) : undefined };
  };
  const mint = async (deploymentId: number) =>
    (await api('POST', `/v1/deployments/${deploymentId}/token`, {})).body!.cubeApiToken as string;
  const countOn = async (dataApi: string, token: string) => {
    const q = encodeURIComponent(JSON.stringify({ measures: ['orders.count'] }));
    const res = await fetch(`${dataApi}/v1/load?query=${q}&queryType=multi`, {
      headers: { authorization: token },
    });
    const body = (await res.json()) as { results?: { data: Record<string, string>[] }[]; error?: string };
    return {
      status: res.status,
      count: Number(body.results?.[0]?.data[0]?.['orders.count']),
      error: body.error,
    };
  };

  it('gives each deployment its own Data API host (deploymentUrl), its own data and its own tokens', async () => {
    const list = (await api('GET', '/v1/deployments')).body!.items as { id: number; deploymentUrl: string }[];
    assert.equal(list.length, 3);
    const urls = new Set(list.map((d) => d.deploymentUrl));
    assert.equal(urls.size, 3, 'distinct origins');
    const d2 = list.find((d) => d.id === 2)!;
    assert.match(d2.deploymentUrl, /^http:\/\/127\.0\.0\.1:\d+$/);
    assert.notEqual(new URL(d2.deploymentUrl).port, String(sb.port));
    const token2 = await mint(2);
    const token1 = await mint(1);
    const before = sb.state.dataQueries.length;
    const on2 = await countOn(`${d2.deploymentUrl}/cubejs-api`, token2);
    assert.equal(on2.status, 200);
    assert.equal(on2.count, 200, "deployment 2's own data (a quarter of the rows)");
    const q = sb.state.dataQueries.slice(before);
    assert.deepEqual(
      q.map((x) => [x.deploymentId, x.host, x.path]),
      [[2, new URL(d2.deploymentUrl).host, '/v1/load']],
    );
    // A token minted for deployment 1 is refused on deployment 2's host.
    const wrong = await countOn(`${d2.deploymentUrl}/cubejs-api`, token1);
    assert.equal(wrong.status, 403);
    assert.match(wrong.error!, /minted for deployment 1/);
    // The shared Data API URL still works, answering from the token's deployment.
    assert.equal((await countOn(sb.urls.dataApi, sb.tokens.dataApi)).count, 800);
    assert.equal((await countOn(sb.urls.dataApi, token2)).count, 200);
    // A deployment host serves the Data API only.
    assert.equal((await fetch(`${d2.deploymentUrl}/api/v1/deployments`)).status, 404);
    // The control endpoint exposes which host answered.
    const state = (await (await fetch(`${sb.urls.control}/state`)).json()) as {
      dataQueries: { deploymentId: number }[];
    };
    assert.ok(state.dataQueries.some((x) => x.deploymentId === 2));
    assert.deepEqual(
      sb.urls.deployments.map((d) => d.deploymentUrl),
      list.map((d) => d.deploymentUrl),
    );
  });

  it('pages recipients by cursor, adds with created/updated/unchanged lists and removes by {type, id}', async () => {
    const base = '/v1/deployments/1/notifications/100001/recipients';
    const all: Recipient[] = [];
    let after: string | null = null;
    let pages = 0;
    do {
      const page = await api('GET', `${base}?first=1${after ? `&after=${after}` : ''}`);
      assert.equal(page.status, 200);
      all.push(...(page.body!.items as Recipient[]));
      const info = page.body!.pageInfo as { hasNextPage: boolean; endCursor: string | null };
      after = info.hasNextPage ? info.endCursor : null;
      pages++;
    } while (after);
    assert.equal(pages, all.length);
    assert.deepEqual(all.map((r) => r.type).sort(), ['EMBED_USER', 'SLACK', 'USER']);
    assert.match(all.find((r) => r.type === 'SLACK')!.channelId!, /^C0/);

    const added = await api('POST', base, {
      recipients: [
        { type: 'USER', userId: 7 },
        { type: 'USER', userId: 1 },
        { type: 'SLACK', channelId: all.find((r) => r.type === 'SLACK')!.channelId, channelName: '#renamed' },
      ],
    });
    assert.equal(added.status, 200);
    const ids = (k: string) => (added.body![k] as Recipient[]).map((r) => r.userId ?? r.channelId);
    assert.deepEqual(ids('createdRecipients'), [7]);
    assert.deepEqual(ids('unchangedRecipients'), [1]);
    assert.equal((added.body!.updatedRecipients as unknown[]).length, 1);

    const embed = all.find((r) => r.type === 'EMBED_USER')!;
    const removed = await api('DELETE', base, {
      recipients: [
        { type: 'USER', id: 7 },
        { type: 'EMBED_USER', id: embed.embedUserId, embedTenantName: embed.embedTenantName },
      ],
    });
    assert.equal(removed.status, 204);
    const left = (await api('GET', `${base}?first=50`)).body!.items as Recipient[];
    assert.equal(left.length, 2);
    assert.ok(!left.some((r) => r.userId === 7 || r.type === 'EMBED_USER'));
    const old = await api('DELETE', base, { recipients: [{ type: 'USER', userId: 1 }] });
    assert.equal(old.status, 400, 'the old {type, userId} body is refused');
  });

  it('lists users through SCIM with startIndex, count and a userName filter; GET /v1/users is gone', async () => {
    const page = await api('GET', '/scim/v2/Users?startIndex=3&count=4');
    assert.equal(page.status, 200);
    assert.equal(page.body!.totalResults, 12);
    assert.equal(page.body!.startIndex, 3);
    assert.deepEqual(
      (page.body!.Resources as { userName: string }[]).map((u) => u.userName),
      ['user3@sandbox.example', 'user4@sandbox.example', 'user5@sandbox.example', 'user6@sandbox.example'],
    );
    const one = await api(
      'GET',
      `/scim/v2/Users?filter=${encodeURIComponent('userName eq "USER5@sandbox.example"')}`,
    );
    assert.deepEqual(
      (one.body!.Resources as { id: string }[]).map((u) => u.id),
      [scimUserId(5)],
    );
    // SCIM ids have the document's shape (a UUID), not the platform's numeric user ids.
    assert.match(scimUserId(5), /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-a[0-9a-f]{3}-[0-9a-f]{12}$/);
    // /v1/users is published for POST only (create): a GET is refused as a method, not served.
    assert.equal((await api('GET', '/v1/users')).status, 405);
  });

  it('serves nulls where the documents allow them and an is_empty filter', async () => {
    const reports = (await api('GET', '/v1/deployments/1/reports?first=50')).body!.items as Record<
      string,
      unknown
    >[];
    assert.ok(reports.some((r) => r.canEdit === null && r.canManage === null));
    assert.ok(reports.every((r) => typeof r.publicId === 'string' && r.type === 'REPORT' && r.user));
    const notes = (await api('GET', '/v1/deployments/1/notifications?first=20')).body!.items as {
      filters: { operator: string }[] | null;
    }[];
    assert.ok(notes.some((n) => n.filters?.some((f) => f.operator === 'is_empty')));
    const published = await api('POST', '/v1/deployments/1/workbooks/1002/publish', { workbookId: 1002 });
    assert.equal(published.status, 200);
    assert.equal(published.body!.restrictDataDownload, null);
    assert.equal(published.body!.fromSharedWorkspace, null);
    const wb = (await api('GET', '/v1/deployments/1/workbooks/1004')).body!;
    const config = wb.dashboardDraft as { kind: unknown; layout: { rowHeight: unknown } };
    assert.equal(config.kind, null);
    assert.equal(config.layout.rowHeight, null);
    const envs = (await api('GET', '/v1/deployments/1/environments')).body!.items as { id: unknown }[];
    assert.equal(typeof envs[0]!.id, 'string');
  });

  it('requires an AI session identity, as the document does', async () => {
    const res = await fetch(`${sb.urls.ai[0]!.url}/chat/stream-chat-state`, {
      method: 'POST',
      headers: { authorization: `Api-Key ${sb.tokens.aiApiKey}`, 'content-type': 'application/json' },
      body: JSON.stringify({ input: 'hello', sessionSettings: { email: 'a@b.c' } }),
    });
    assert.equal(res.status, 400);
    assert.match(((await res.json()) as { error: string }).error, /externalId.*internalId/);
  });
});
