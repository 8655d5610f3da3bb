// The workspace writes' words and waits: what a write whose outcome is unknown names (signed
// embedding on or off, a setup step, a comment posted or a reply, a thread resolved or re-opened),
// the refusals made before sending (a notification's CUSTOM schedule on update, the list rules'
// sentences together, a publish body), a wait whose deadline has passed asking no second time,
// recipients paged to the last page, a dashboard's unreadable snapshots dropped, log lines.
import assert from 'node:assert/strict';
import { type PlatformClient } from '../../../src/api';
import { publishBody } from '../../../src/api/platform/dashboards';
import { signInUrl } from '../../../src/api/platform/me';
import { recipientRemoval } from '../../../src/api/platform/notifications';
import { dashboardConfigOf, publishedDashboardOf } from '../../../src/api/platform/workbookShapes';
import { apiFailure, collect, sendJson, type Handler, type TestServer, withPlatformClient } from './helpers';

const withClient = (
  handler: Handler,
  fn: (c: PlatformClient, s: TestServer, warnings: string[]) => Promise<void>,
) => withPlatformClient(handler, fn, 'tok-ws');
const lost: Handler = (_q, res) => sendJson(res, 502, { message: 'bad gateway' });
const nothingSent: Handler = () => assert.fail('nothing is sent');

describe('workspace words: unknown outcomes name what was being done', () => {
  it('signed embedding on and off; a setup step', async () => {
    await withClient(lost, async (c, s) => {
      const on = await apiFailure(c.setDashboardEmbedding('pub-1', { allowEmbed: true }));
      assert.equal(on.kind, 'unknownOutcome');
      assert.match(on.message, /^Turning signed embedding on: the outcome is unknown/);
      const off = await apiFailure(c.setDashboardEmbedding('pub-1', { allowEmbed: false }));
      assert.match(off.message, /^Turning signed embedding off: the outcome is unknown/);
      const step = await apiFailure(c.advanceCreationStep(4, { creationStep: 'upload' }));
      assert.match(step.message, /^Moving the deployment's setup to "upload": the outcome is unknown/);
      assert.equal(s.requests.length, 3);
    });
  });

  it('a comment or a reply; a thread resolved or re-opened (as an embed user)', async () => {
    await withClient(lost, async (c, s) => {
      const embed = c.asEmbedUser('embed-tok');
      try {
        const post = await apiFailure(embed.createDashboardComment('pub-1', { body: 'hi' }));
        assert.match(post.message, /^Posting a comment: the outcome is unknown/);
        const reply = await apiFailure(embed.createDashboardComment('pub-1', { body: 'hi', parentId: 3 }));
        assert.match(reply.message, /^Replying: the outcome is unknown/);
        const resolve = await apiFailure(embed.setDashboardCommentResolved('pub-1', 3, { resolved: true }));
        assert.match(resolve.message, /^Resolving a thread: the outcome is unknown/);
        const reopen = await apiFailure(embed.setDashboardCommentResolved('pub-1', 3, { resolved: false }));
        assert.match(reopen.message, /^Re-opening a thread: the outcome is unknown/);
      } finally {
        await embed.close();
      }
      assert.equal(s.requests.length, 4);
      assert.equal(s.requests[0]!.headers.authorization, 'Bearer embed-tok');
    });
  });
});

describe('workspace words: refused before sending', () => {
  it('a notification updated to a CUSTOM schedule needs its cron', async () => {
    await withClient(nothingSent, async (c, s) => {
      const e = await apiFailure(c.updateNotification(1, 2, { scheduleType: 'CUSTOM' }));
      assert.equal(e.kind, 'validation');
      assert.match(e.message, /customCron: A CUSTOM schedule needs customCron\./);
      assert.equal(s.requests.length, 0);
    });
  });

  it('a notification list query breaking two rules names both, in one message', async () => {
    await withClient(nothingSent, async (c, s) => {
      const e = await apiFailure(c.listNotifications(1, { dashboardId: 0, recipientUserId: 0 }));
      assert.equal(e.kind, 'validation');
      assert.match(
        e.message,
        /dashboardId must be a whole number of at least 1 \(got 0\)\. recipientUserId must be a whole number of at least 1 \(got 0\)\./,
      );
      assert.equal(s.requests.length, 0);
    });
  });

  it('a publish body the service would refuse is refused as "Dashboard not published"', () => {
    let thrown: unknown;
    try {
      publishBody({ config: 'not a config' } as never);
    } catch (e) {
      thrown = e;
    }
    assert.ok(thrown instanceof Error);
    assert.match(thrown.message, /^Dashboard not published: /);
  });
});

describe('workspace words: waits, pages, reads', () => {
  it('a wait whose deadline has passed asks once and says what the job is still doing', async () => {
    await withClient(
      (q, res) =>
        sendJson(
          res,
          200,
          q.url?.includes('dbt') ? { syncJobId: 'j', status: 'RUNNING' } : { status: 'rendering' },
        ),
      async (c, s) => {
        const dbt = await apiFailure(c.waitForDbtSync(1, 'j', { timeoutMs: 500, intervalMs: 1000 }));
        assert.equal(dbt.kind, 'timeout');
        assert.equal(dbt.message, 'The dbt sync job j did not finish in time; it is still RUNNING.');
        assert.equal(s.requests.length, 1);
        const exp = await apiFailure(
          c.ops.waitForDashboardExport(1, 'e', { timeoutMs: 500, intervalMs: 1000 }),
        );
        assert.equal(exp.kind, 'timeout');
        assert.equal(s.requests.length, 2);
      },
    );
  });

  it('every recipient, page after page, 200 at a time', async () => {
    await withClient(
      (q, res) =>
        sendJson(
          res,
          200,
          q.url?.includes('after=')
            ? { items: [{ type: 'SLACK', channelId: 'C2' }], pageInfo: { hasNextPage: false } }
            : { items: [{ type: 'USER', userId: 1 }], pageInfo: { hasNextPage: true, endCursor: 'c1' } },
        ),
      async (c, s) => {
        const all = await collect(c.iterateRecipients(1, 2));
        assert.deepEqual(
          all.map((r) => r.type),
          ['USER', 'SLACK'],
        );
        assert.deepEqual(
          s.requests.map((q) => q.url),
          [
            '/api/v1/deployments/1/notifications/2/recipients?first=200',
            '/api/v1/deployments/1/notifications/2/recipients?first=200&after=c1',
          ],
        );
      },
    );
  });

  it('an embedded dashboard keeps its readable snapshots, and has none when none are sent', async () => {
    let snapshots: unknown = [{ id: 1, reportId: 2 }, { id: 'x' }];
    await withClient(
      (_q, res) =>
        sendJson(res, 200, {
          id: 5,
          publicId: 'pub-1',
          ...(snapshots ? { reportSnapshots: snapshots } : {}),
        }),
      async (c) => {
        const embed = c.asEmbedUser('embed-tok');
        try {
          const d = await embed.getEmbedDashboard('pub-1');
          assert.deepEqual(d.reportSnapshots, [{ id: 1, reportId: 2 }]);
          snapshots = undefined;
          assert.deepEqual((await embed.getEmbedDashboard('pub-1')).reportSnapshots, []);
        } finally {
          await embed.close();
        }
      },
    );
  });

  it('a dbt sync log entry that cannot be read is set aside and logged', async () => {
    await withClient(
      (_q, res) => sendJson(res, 200, { items: [{ level: 'info' }, { message: 'done' }] }),
      async (c, _s, warnings) => {
        const logs = await c.ops.getDbtSyncLogs(1, 'j');
        assert.deepEqual(
          logs.map((l) => l.message),
          ['done'],
        );
        assert.equal(warnings.length, 1);
        assert.match(warnings[0]!, /^dbt sync log: item 0 skipped/);
      },
    );
  });

  it('reading my settings is an empty change, told as a read when its answer is lost', async () => {
    let status = 200;
    await withClient(
      (_q, res) => sendJson(res, status, status === 200 ? { id: 1, email: 'jo@x.dev' } : { message: 'x' }),
      async (c, s) => {
        const me = await c.me.readMySettings();
        assert.equal(me.email, 'jo@x.dev');
        assert.equal(s.requests[0]!.body, '{}');
        status = 502;
        const e = await apiFailure(c.me.readMySettings());
        assert.match(e.message, /^Reading your settings: /);
      },
    );
  });
});

describe('workspace words: readers refuse what only looks right', () => {
  it('a sign-in URL sent as a list is no URL', () => {
    assert.equal(signInUrl({ url: ['https://evil.example.com/'] }), undefined);
  });

  it('a recipient of no type or an unknown type cannot be removed, in words', () => {
    for (const [r, type] of [
      [{}, ''],
      [{ type: 'EMAIL' }, 'EMAIL'],
    ] as const) {
      let thrown: unknown;
      try {
        recipientRemoval(r as never);
      } catch (e) {
        thrown = e;
      }
      assert.ok(thrown instanceof Error);
      assert.equal((thrown as { kind?: string }).kind, 'validation');
      assert.equal(
        thrown.message,
        `Recipients of type "${type}" cannot be removed by this version of the extension.`,
      );
    }
  });

  it('a dashboard whose config is null is not the older shape', () => {
    assert.equal(publishedDashboardOf({ dashboardPublished: { id: 1, config: null } }), undefined);
    assert.deepEqual(dashboardConfigOf({ dashboardDraft: { config: null, a: 1 } }, 'draft'), {
      config: null,
      a: 1,
    });
  });
});
