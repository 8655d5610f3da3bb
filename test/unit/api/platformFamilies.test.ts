// The resource families' own rules: the Data API host a deployment publishes, recipient removals
// and add results, SCIM users mapped onto cursor pages, the strict publish body, the load body,
// and the AI identity refusal; SCIM PatchOps keep their own words when their answer is lost.
import * as assert from 'node:assert/strict';
import {
  ApiError,
  DataClient,
  PlatformClient,
  dataApiUrlOfDeployment,
  describeAddResult,
  explainSessionRefusal,
  loadBody,
  publishBody,
  recipientRemoval,
} from '../../../src/api';
import { FAST_RETRY, sendJson, startServer } from './helpers';

describe('api/platform families', () => {
  it('derives the Data API URL from a deployment URL', () => {
    assert.equal(
      dataApiUrlOfDeployment({ deploymentUrl: 'https://acme.aws-us-east-1.cubecloudapp.dev' }),
      'https://acme.aws-us-east-1.cubecloudapp.dev/cubejs-api',
    );
    assert.equal(
      dataApiUrlOfDeployment({ deploymentUrl: 'https://acme.example.dev/custom-base/' }),
      'https://acme.example.dev/custom-base',
      'a URL with a path is used as it is',
    );
    assert.equal(
      dataApiUrlOfDeployment({ deploymentUrl: 'acme.example.dev' }),
      'https://acme.example.dev/cubejs-api',
    );
    assert.equal(dataApiUrlOfDeployment({ deploymentUrl: '' }), undefined);
    assert.equal(dataApiUrlOfDeployment({ deploymentUrl: null }), undefined);
    assert.equal(dataApiUrlOfDeployment({ deploymentUrl: 'http://[bad' }), undefined);
  });

  it('names a recipient for removal as {type, id}', () => {
    assert.deepEqual(recipientRemoval({ type: 'USER', userId: 4, email: 'a@b.c' }), { type: 'USER', id: 4 });
    assert.deepEqual(
      recipientRemoval({ type: 'EMBED_USER', embedUserId: 12, embedTenantName: 'acme', externalId: 'x' }),
      { type: 'EMBED_USER', id: 12, embedTenantName: 'acme' },
    );
    assert.deepEqual(recipientRemoval({ type: 'SLACK', channelId: 'C1', channelName: 'n' }), {
      type: 'SLACK',
      id: 'C1',
    });
    assert.throws(() => recipientRemoval({ type: 'USER', email: 'a@b.c' }), /did not send its userId/);
    assert.throws(() => recipientRemoval({ type: 'EMBED_USER', embedUserId: 3 }), /embedTenantName/);
    assert.throws(() => recipientRemoval({ type: 'TEAMS', id: 1 }), /"TEAMS" cannot be removed/);
  });

  it('counts an add result from its arrays', () => {
    assert.equal(
      describeAddResult({ createdRecipients: [{}, {}], updatedRecipients: [{}], unchangedRecipients: [] }),
      '2 added, 1 updated, 0 unchanged',
    );
  });

  it('sends only the declared publish fields, and names an undeclared one inside the config', () => {
    const body = publishBody({
      workbookId: 3,
      title: 'T',
      description: 'Weekly numbers',
      config: { title: 'T', description: 'Weekly numbers', layout: { rowHeight: null }, widgets: null },
    });
    // The documents' PublishDashboardInput and DashboardConfigInput both take the description.
    assert.deepEqual(body, {
      workbookId: 3,
      title: 'T',
      description: 'Weekly numbers',
      config: { title: 'T', description: 'Weekly numbers', layout: { rowHeight: null }, widgets: null },
    });
    assert.throws(
      () => publishBody({ workbookId: 3, config: { layout: { rowHeight: 10, gap: 2 } } as never }),
      (e: unknown) => e instanceof ApiError && e.kind === 'validation' && /config\.layout/.test(e.message),
    );
    assert.throws(
      () =>
        publishBody({
          workbookId: 3,
          config: { widgets: [{ id: 'w', position: { x: 0, y: 0, w: 1, h: 1 } }] },
        }),
      /config\.widgets\.0\.type/,
      'the documents require a widget type',
    );
  });

  it('sends order as pairs and refuses a query field the Data API does not publish', () => {
    assert.deepEqual(loadBody({ measures: ['o.c'], order: { 'o.c': 'desc' } }), {
      queryType: 'multi',
      query: { measures: ['o.c'], order: [['o.c', 'desc']] },
    });
    assert.throws(
      () => loadBody({ measures: ['o.c'], total: true }),
      /total is not a field the Data API publishes/,
    );
  });

  it('names the profile setting when the AI API refuses the session identity', () => {
    assert.match(
      explainSessionRefusal('sessionSettings.externalId or internalId is required'),
      /session\.externalId .* session\.internalId .* Edit Profile/,
    );
    assert.equal(explainSessionRefusal('The model is overloaded'), 'The model is overloaded');
  });

  it('maps SCIM startIndex/count paging onto cursor pages', async () => {
    const users = Array.from({ length: 5 }, (_, i) => ({ id: `u${i + 1}`, userName: `user${i + 1}@x.dev` }));
    const s = await startServer((req, res) => {
      const u = new URL(req.url ?? '/', 'http://x');
      const start = Number(u.searchParams.get('startIndex'));
      const count = Number(u.searchParams.get('count'));
      sendJson(res, 200, {
        schemas: ['urn:ietf:params:scim:api:messages:2.0:ListResponse'],
        totalResults: users.length,
        startIndex: start,
        itemsPerPage: count,
        Resources: users.slice(start - 1, start - 1 + count),
      });
    });
    const client = new PlatformClient({ baseUrl: `${s.url}/api`, token: async () => 't', retry: FAST_RETRY });
    try {
      const seen: string[] = [];
      let after: string | undefined;
      for (;;) {
        const page = await client.listUsers({ first: 2, ...(after ? { after } : {}) });
        seen.push(...page.items.map((x) => x.userName ?? ''));
        assert.equal(page.total, 5);
        after = page.pageInfo?.hasNextPage ? (page.pageInfo.endCursor ?? undefined) : undefined;
        if (!after) break;
      }
      assert.deepEqual(
        seen,
        users.map((x) => x.userName),
      );
      assert.deepEqual(
        s.requests.map((r) => r.url),
        [
          '/api/scim/v2/Users?startIndex=1&count=2',
          '/api/scim/v2/Users?startIndex=3&count=2',
          '/api/scim/v2/Users?startIndex=5&count=2',
        ],
      );
      await assert.rejects(client.listUsers({ after: 'zero' }), /Not a users page cursor/);
    } finally {
      await client.close();
      await s.close();
    }
  });

  it('a SCIM PatchOp whose answer is lost says what it was doing and how to check, sent once', async () => {
    // One PATCH row serves members, renames and (de)activation: each keeps its own words.
    const s = await startServer((req) => req.socket.destroy());
    const client = new PlatformClient({ baseUrl: `${s.url}/api`, token: async () => 't', retry: FAST_RETRY });
    try {
      const lost = async (p: Promise<unknown>) => {
        const e = await p.then(
          () => assert.fail('the write settled'),
          (x: unknown) => x,
        );
        assert.ok(e instanceof ApiError && e.kind === 'unknownOutcome', String(e));
        return e.message;
      };
      const renamed = await lost(client.admin.renameScimGroup('g-1', 'Analysts'));
      assert.match(renamed, /^Renaming a group: the outcome is unknown/);
      assert.match(renamed, /Refresh the Groups list to see whether the name changed\.$/);
      const members = await lost(client.admin.changeGroupMembers('g-1', { add: ['u-7'] }));
      assert.match(
        members,
        /^Changing group members: .*Refresh the group to see whether its members changed\.$/,
      );
      assert.match(await lost(client.admin.setScimUserActive('u-7', false)), /^Deactivating a user: /);
      assert.match(await lost(client.admin.setScimUserActive('u-7', true)), /^Activating a user: /);
      assert.deepEqual(
        s.requests.map((r) => `${r.method} ${r.url}`),
        [
          'PATCH /api/scim/v2/Groups/g-1',
          'PATCH /api/scim/v2/Groups/g-1',
          'PATCH /api/scim/v2/Users/u-7',
          'PATCH /api/scim/v2/Users/u-7',
        ],
      );
    } finally {
      await client.close();
      await s.close();
    }
  });

  it('never sends a cubesql field the documents do not declare', async () => {
    const s = await startServer((_req, res) => {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end('{"schema":[{"name":"a","column_type":"Int64"}],"data":[["1"]]}\n');
    });
    const data = new DataClient({
      baseUrl: `${s.url}/cubejs-api`,
      token: async () => 't',
      retry: FAST_RETRY,
    });
    try {
      const chunks = [];
      for await (const c of data.cubesql('SELECT 1', { timezone: 'UTC', cache: 'no-cache' })) chunks.push(c);
      assert.deepEqual(JSON.parse(s.requests[0]!.body), {
        query: 'SELECT 1',
        timezone: 'UTC',
        cache: 'no-cache',
      });
      // One line with schema and data gives both, schema first.
      assert.deepEqual(
        chunks.map((c) => c.type),
        ['schema', 'rows'],
      );
    } finally {
      await data.close();
      await s.close();
    }
  });
});
