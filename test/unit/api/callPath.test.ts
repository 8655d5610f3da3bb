// The one call path every operation row goes through (operation.ts, transport.ts), on the rules a
// row's own tests do not reach: path ids refused before sending (numbers and text), what a refused
// input is reported as when the row names no refusal, how a write with no check of its own tells
// the user to check (by what it does, from the family's place; nothing invented without one), the
// log line of a set-aside list item, and the page's `invalid` and `total` only when there are some.
import assert from 'node:assert/strict';
import { type PlatformClient } from '../../../src/api';
import { apiFailure, sendJson, type Handler, type TestServer, withPlatformClient } from './helpers';

const withClient = (
  handler: Handler,
  fn: (c: PlatformClient, s: TestServer, warnings: string[]) => Promise<void>,
) => withPlatformClient(handler, fn, 'tok-call');

const nothingSent: Handler = () => assert.fail('nothing is sent');

describe('the call path: path ids and refused inputs', () => {
  it('a numeric path id must be a whole number of at least 1, named as the row names it', async () => {
    await withClient(nothingSent, async (c, s) => {
      for (const [bad, shown] of [
        [0, '0'],
        [-2, '-2'],
        [1.5, '1.5'],
      ] as const) {
        const e = await apiFailure(c.admin.getRole(bad));
        assert.equal(e.kind, 'validation');
        assert.equal(e.message, `Role id must be a whole number of at least 1 (got ${shown}).`);
      }
      assert.equal(s.requests.length, 0);
    });
  });

  it('a text path id is required and sent encoded', async () => {
    await withClient(
      (_q, res) => sendJson(res, 200, { id: 'a/b c', userName: 'x' }),
      async (c, s) => {
        for (const missing of [undefined, '']) {
          const e = await apiFailure(c.admin.getScimUser(missing as never));
          assert.equal(e.kind, 'validation');
          assert.equal(e.message, 'SCIM id is required.');
        }
        assert.equal(s.requests.length, 0);
        await c.admin.getScimUser('a/b c');
        assert.deepEqual(
          s.requests.map((q) => q.url),
          ['/api/scim/v2/Users/a%2Fb%20c'],
        );
      },
    );
  });

  it('a refused input is reported as the row’s method and path when it names no action', async () => {
    await withClient(nothingSent, async (c, s) => {
      const e = await apiFailure(c.listFolders(1, { after: 5 as never }));
      assert.equal(e.kind, 'validation');
      assert.equal(e.code, 'INPUT');
      assert.match(e.message, /^GET \/v1\/deployments\/\{deploymentId\}\/folders: after: /);
      assert.equal(s.requests.length, 0);
    });
  });

  it('a refused input is reported as the method and path when the row’s action is made from the input', async () => {
    await withClient(nothingSent, async (c, s) => {
      const e = await apiFailure(c.setDashboardEmbedding('pub-1', { allowEmbed: 'yes' as never }));
      assert.equal(e.kind, 'validation');
      assert.match(e.message, /^PATCH \/v1\/embed\/dashboard\/\{publicId\}: allowEmbed: /);
      assert.equal(s.requests.length, 0);
    });
  });
});

describe('the call path: how a write with an unknown outcome says to check', () => {
  const lost: Handler = (_q, res) => sendJson(res, 502, { message: 'bad gateway' });

  it('from the family’s place, by what the write does: created, deleted, saved', async () => {
    await withClient(lost, async (c, s) => {
      const created = await apiFailure(c.admin.createRole({ name: 'team-a', policies: [] }));
      assert.equal(created.kind, 'unknownOutcome');
      assert.match(
        created.message,
        /Refresh Roles to see whether it was created before creating it again\.$/,
      );
      const deleted = await apiFailure(c.admin.deleteRole(9));
      assert.equal(deleted.kind, 'unknownOutcome');
      assert.match(deleted.message, /Refresh Roles to see whether it was deleted\.$/);
      const saved = await apiFailure(c.admin.updateRole(9, { description: 'x' }));
      assert.match(saved.message, /Refresh Roles to see whether the change was saved\.$/);
      assert.deepEqual(
        s.requests.map((q) => `${q.method} ${q.url}`),
        ['POST /api/v1/roles', 'DELETE /api/v1/roles/9', 'PUT /api/v1/roles/9'],
      );
    });
  });

  it('a family without a place invents no list to refresh', async () => {
    await withClient(lost, async (c, s) => {
      const e = await apiFailure(
        c.connectReportToWorkbook(1, 2, { externalWorkbookId: 'wb-1', resultLocation: 'Sheet1!A1' }),
      );
      assert.equal(e.kind, 'unknownOutcome');
      assert.doesNotMatch(e.message, /undefined/);
      assert.doesNotMatch(e.message, /Refresh .* to see whether/);
      assert.equal(s.requests.length, 1);
    });
  });
});

describe('the call path: list pages', () => {
  it('a page without bad items or a count has neither `invalid` nor `total`', async () => {
    await withClient(
      (_q, res) => sendJson(res, 200, { items: [{ id: 1, name: 'a' }], pageInfo: null }),
      async (c, _s, warnings) => {
        const page = await c.listFolders(1);
        assert.deepEqual(page, { items: [{ id: 1, name: 'a' }], pageInfo: null });
        assert.equal('invalid' in page, false);
        assert.equal('total' in page, false);
        assert.deepEqual(warnings, []);
      },
    );
  });

  it('the deprecated `data`/`count` envelope gives the total', async () => {
    await withClient(
      (_q, res) => sendJson(res, 200, { data: [{ id: 1, name: 'a' }], count: 7 }),
      async (c) => {
        const page = await c.listFolders(1);
        assert.deepEqual(page, { items: [{ id: 1, name: 'a' }], pageInfo: null, total: 7 });
      },
    );
  });

  it('a set-aside item is logged with the row’s action, else its method and path', async () => {
    await withClient(
      (_q, res) => sendJson(res, 200, { items: [{ id: 1 }, { id: 2, name: 'b' }] }),
      async (c, _s, warnings) => {
        const folders = await c.listFolders(1);
        assert.deepEqual(
          folders.invalid?.map((i) => i.index),
          [0],
        );
        await c.admin.listRoles();
        assert.equal(warnings.length, 2);
        assert.match(warnings[0]!, /^GET \/v1\/deployments\/1\/folders: item 0 skipped \(name: /);
        assert.match(warnings[1]!, /^Listing roles: item 0 skipped \(name: /);
      },
    );
  });

  it('an unpaged list logs a set-aside item with the row’s action', async () => {
    await withClient(
      (_q, res) => sendJson(res, 200, [{ id: 1 }, { id: 2, name: 'ok' }]),
      async (c, _s, warnings) => {
        const page = await c.admin.listOAuthIntegrations();
        assert.deepEqual(
          page.items.map((i) => i.id),
          [2],
        );
        assert.equal(warnings.length, 1);
        assert.match(warnings[0]!, /^Listing OAuth integrations: item 0 skipped/);
      },
    );
  });

  it('an answer that is no list says the list is missing', async () => {
    await withClient(
      (_q, res) => sendJson(res, 200, { something: 'else' }),
      async (c) => {
        const e = await apiFailure(c.listFolders(1));
        assert.equal(e.kind, 'protocol');
        assert.equal(
          e.message,
          'Unexpected response from GET /v1/deployments/1/folders: missing required field "items". The service may be newer than this extension.',
        );
      },
    );
  });
});
