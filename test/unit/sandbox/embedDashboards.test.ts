// Embeddable dashboards end to end against the sandbox: the admin turns signed embedding on and off
// (a signed session's dashboard read follows it), an embed session is redeemed once for a token,
// and with that token an embed user reads the seeded threads, posts, replies (one level), edits and
// deletes only their own comments, resolves their thread, lists whom to mention and re-runs the
// python report. An API key is refused on comments with what to do; refusals are the user's words.
import * as assert from 'node:assert/strict';
import { ApiError, PlatformClient } from '../../../src/api';
import type { EmbedUserClient } from '../../../src/api/platform/embedDashboards';
import { startSandbox, type SandboxHandle } from '../../../src/sandbox';

describe('sandbox: embeddable dashboards (signed embedding, session token, comments, python run)', function () {
  this.timeout(60_000);
  let sb: SandboxHandle;
  let c: PlatformClient;
  const open: { close(): Promise<void> }[] = [];
  const dashboard = 'pub1x0000001';

  before(async () => {
    sb = await startSandbox({ rows: 20 });
    c = new PlatformClient({ baseUrl: sb.urls.platform, token: async () => sb.tokens.admin });
  });
  after(async () => {
    await Promise.all(open.map((x) => x.close()));
    await c?.close();
    await sb?.close();
  });

  const session = (externalId: string, extra: Record<string, unknown> = {}) =>
    c.admin.generateEmbedSession({
      deploymentId: 1,
      externalId,
      embedTenantName: 'acme',
      publicDashboardId: dashboard,
      ...extra,
    });
  const asUser = async (externalId: string, extra?: Record<string, unknown>) => {
    const { sessionId } = await session(externalId, extra);
    const e = c.asEmbedUser((await c.exchangeEmbedSession({ sessionId })).token);
    open.push(e);
    return e as EmbedUserClient;
  };
  const refusal = async (p: Promise<unknown>) => {
    try {
      await p;
    } catch (e) {
      assert.ok(e instanceof ApiError, String(e));
      return e;
    }
    assert.fail('it was not refused');
  };

  it('redeems a session once, and says so (not "check the token") when it is used again', async () => {
    const { sessionId } = await session('acme-ext-1');
    const { token } = await c.exchangeEmbedSession({ sessionId });
    assert.match(token, /^[\w-]+\.[\w-]+\.[\w-]+$/);
    const again = await refusal(c.exchangeEmbedSession({ sessionId }));
    assert.equal(again.kind, 'auth');
    assert.match(again.message, /embed session is unknown, revoked or already used/);
    assert.doesNotMatch(again.message, /profile/);
  });

  it('refuses comments to an API key (403) with what to do', async () => {
    const e = await refusal(c.asEmbedUser(sb.tokens.admin).listDashboardComments(dashboard));
    assert.equal(e.kind, 'forbidden');
    assert.match(e.message, /signed embed session scoped to an embed tenant: use the Dashboard Comments/);
  });

  it('lists open threads newest first with their replies, resolved ones on request, and who can be mentioned', async () => {
    const ann = await asUser('acme-ext-1');
    const openOnly = (await ann.listDashboardComments(dashboard)).items;
    assert.ok(openOnly.length > 0, 'the seeded open threads are listed');
    assert.ok(openOnly.every((t) => !t.resolvedAt));
    const first = openOnly.find((t) => /refund filter/.test(t.root.body));
    assert.ok(first, 'the seeded open thread');
    assert.equal(first.root.isOwn, true, 'acme-ext-1 started it');
    assert.deepEqual(
      first.replies.map((r) => r.isOwn),
      [false],
    );
    const all = (await ann.listDashboardComments(dashboard, { includeResolved: true })).items;
    assert.ok(
      all.some((t) => t.resolvedAt),
      'the resolved thread is shown on request',
    );
    const only = (await ann.listDashboardComments(dashboard, { resolvedOnly: true })).items;
    assert.ok(only.length > 0 && only.every((t) => t.resolvedAt));
    const who = (await ann.listMentionableEmbedUsers(dashboard)).items.map((u) => u.username);
    assert.deepEqual(who, ['acme-user2', 'acme-user3'], 'fellow embed users by username, not the caller');
  });

  it('posts, replies one level deep, edits and deletes only its own, and resolves its thread', async () => {
    const ann = await asUser('acme-ext-1');
    const bob = await asUser('acme-ext-2');
    const root = await ann.createDashboardComment(dashboard, { body: 'Is <b>this</b> right?' });
    assert.equal(root.body, 'Is <b>this</b> right?', 'kept as text');
    const reply = await bob.createDashboardComment(dashboard, { body: 'Yes', parentId: root.id });
    const nested = await refusal(bob.createDashboardComment(dashboard, { body: 'x', parentId: reply.id }));
    assert.equal(nested.status, 400);
    const notYours = await refusal(bob.updateDashboardComment(dashboard, root.id, { body: 'hijack' }));
    assert.equal(notYours.kind, 'forbidden');
    assert.match(notYours.message, /Only the author can edit a comment/);
    const edited = await ann.updateDashboardComment(dashboard, root.id, { body: 'Is this right now?' });
    assert.ok(edited.editedAt, 'edits are stamped');
    const resolved = await ann.setDashboardCommentResolved(dashboard, root.id, { resolved: true });
    assert.ok(resolved.resolvedAt);
    assert.ok(!(await ann.listDashboardComments(dashboard)).items.some((t) => t.root.id === root.id));
    const reopened = await ann.setDashboardCommentResolved(dashboard, root.id, { resolved: false });
    assert.equal(reopened.resolvedAt, null);
    const replyResolve = await refusal(
      bob.setDashboardCommentResolved(dashboard, reply.id, { resolved: true }),
    );
    assert.equal(replyResolve.status, 400);
    await bob.deleteDashboardComment(dashboard, reply.id);
    const after = (await ann.listDashboardComments(dashboard)).items.find((t) => t.root.id === root.id)!;
    assert.deepEqual(
      after.replies.map((r) => [r.body, r.removedAt !== null]),
      [['', true]],
      'a deleted reply keeps its place, emptied',
    );
    await ann.deleteDashboardComment(dashboard, root.id);
    assert.ok(!(await ann.listDashboardComments(dashboard)).items.some((t) => t.root.id === root.id));
    const gone = await refusal(ann.updateDashboardComment(dashboard, root.id, { body: 'late' }));
    assert.equal(gone.kind, 'notFound');
    assert.match(gone.message, /refresh the comments/);
  });

  it('refuses an empty or too long comment before sending, in plain words', async () => {
    const ann = await asUser('acme-ext-1');
    const empty = await refusal(ann.createDashboardComment(dashboard, { body: '' }));
    assert.equal(empty.kind, 'validation');
    assert.match(empty.message, /a comment needs some text/);
    const long = await refusal(ann.createDashboardComment(dashboard, { body: 'x'.repeat(10_001) }));
    assert.match(long.message, /at most 10000 characters/);
  });

  it('turns signed embedding off and on: a signed session reads the dashboard only while it is on', async () => {
    const off = await c.setDashboardEmbedding(dashboard, { allowEmbed: false });
    assert.deepEqual(off, { publicId: dashboard, allowEmbed: false });
    const viewer = await asUser('acme-ext-3');
    const refused = await refusal(viewer.getEmbedDashboard(dashboard));
    assert.equal(refused.kind, 'forbidden');
    assert.match(refused.message, /turn Signed Embedding on/);
    const wb = (await c.listWorkbooks(1, { first: 50 })).items.find(
      (w) => (w.publishedDashboard as { publicId?: string } | null)?.publicId === dashboard,
    );
    assert.equal((wb!.publishedDashboard as { allowEmbed: boolean }).allowEmbed, false, 'read back');
    await c.setDashboardEmbedding(dashboard, { allowEmbed: true });
    assert.equal((await viewer.getEmbedDashboard(dashboard)).publicId, dashboard);
    const member = new PlatformClient({ baseUrl: sb.urls.platform, token: async () => sb.tokens.member });
    open.push(member);
    const e = await refusal(member.setDashboardEmbedding(dashboard, { allowEmbed: false }));
    assert.match(e.message, /needs the admin role/);
  });

  it('re-runs the seeded python report for the embed user, and refuses a report not on the dashboard', async () => {
    const wb = (await c.listWorkbooks(1, { first: 50 })).items
      .map(
        (w) =>
          w.publishedDashboard as { publicId: string; reportSnapshots?: Record<string, unknown>[] } | null,
      )
      .find((p) => p?.reportSnapshots?.some((s) => typeof s.pythonCode === 'string'))!;
    const snap = wb.reportSnapshots!.find((s) => typeof s.pythonCode === 'string')!;
    const u = await asUser('acme-ext-1', { creatorMode: true, tenantGroups: ['viewers'] });
    const run = await u.runDashboardPython(wb.publicId, {
      reportId: Number(snap.reportId),
      reportVersionId: Number(snap.id),
      sqlQuery: String(snap.sqlQuery),
    });
    assert.match(run.stdout, /ran Revenue forecast/);
    const e = await refusal(
      u.runDashboardPython(wb.publicId, { reportId: 1, reportVersionId: 2, sqlQuery: 'SELECT 1' }),
    );
    assert.equal(e.kind, 'forbidden');
  });
});
