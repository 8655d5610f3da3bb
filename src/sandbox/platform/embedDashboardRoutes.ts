// Embeddable dashboards as the sandbox plays them: the "Allow signed embedding" flag (admin), the
// exchange of an embed session for an embed token (single use, unauthenticated), and what the embed
// user holding that token does: read the dashboard, its comment threads (one level of replies, author
// only edits and deletes, the thread's author resolves), the users a comment can mention, and a
// python report re-run. Comments live in one tenant's partition, so a credential naming no tenant
// (an API key) is refused with 403, as published. Kept in SandboxState (`embedComments`), so they
// survive a restart.
import type { Method, RequestContext, Router } from '../http';
import { signJwt } from '../jwt';
import { issueId } from '../state';
import { found, isAdmin, publicView, sendPage, type PlatformDeps } from './common';
import type { EmbedCommentRow, EmbedCommentState } from './embedCommentState';
import { claimsOf, TOKEN_SECONDS, type EmbedClaims } from './embedTokens';
import type { Row } from './seed';

/** A comment as written: not edited, removed or resolved. */
const comment = (
  c: Pick<EmbedCommentRow, 'id' | 'publicId' | 'tenant' | 'userId' | 'body' | 'parentId' | 'createdAt'>,
): EmbedCommentRow => ({ ...c, editedAt: null, removedAt: null, resolvedAt: null, resolvedBy: null });

/** Two threads on the first published dashboard of deployment 1, in the first tenant: one resolved. */
function seedComments(deps: PlatformDeps): EmbedCommentRow[] {
  const tenant = [...deps.data.embedTenants][0];
  const users = tenant ? deps.state.admin?.embedTenants[tenant]?.users : undefined;
  const pub = (deps.data.workbooks.get(1) ?? []).map((w) => w.publishedDashboard as Row | null).find(Boolean);
  if (!tenant || !users || users.length < 2 || !pub) return [];
  const [a, b] = [users[0]!.id, users[1]!.id];
  const row = (id: number, userId: number, body: string, createdAt: string, parentId: number | null = null) =>
    comment({ id, publicId: String(pub.publicId), tenant, userId, body, parentId, createdAt });
  return [
    row(1, a, 'Revenue for March looks low: is the refund filter applied twice?', '2026-02-02T09:15:00.000Z'),
    row(2, b, 'Checked: the filter is fine, March had a holiday.', '2026-02-02T11:40:00.000Z', 1),
    {
      ...row(3, b, 'Could the chart use weeks instead of days?', '2026-02-01T16:05:00.000Z'),
      resolvedAt: '2026-02-03T08:00:00.000Z',
      resolvedBy: b,
    },
  ];
}

/** The python report a user can re-run: a snapshot on the last published dashboard of deployment 1. */
export const PYTHON_SNAPSHOT_ID = 9_000_001;
function seedPythonReport(deps: PlatformDeps): void {
  const pub = (deps.data.workbooks.get(1) ?? [])
    .map((w) => w.publishedDashboard as Row | null)
    .filter(Boolean)
    .at(-1);
  const report = (deps.data.reports.get(1) ?? [])[0];
  if (!pub || !report) return;
  pub.reportSnapshots = [
    ...((pub.reportSnapshots as Row[] | undefined) ?? []),
    {
      id: PYTHON_SNAPSHOT_ID,
      reportId: report.id,
      versionNumber: 1,
      name: 'Revenue forecast',
      title: 'Revenue forecast (python)',
      description: null,
      kind: 'table',
      meta: null,
      preferences: null,
      spec: null,
      sqlQuery: 'SELECT status, MEASURE(count) FROM orders GROUP BY 1',
      fillMissingRows: null,
      isSourceReport: null,
      periodComparisons: null,
      pythonCode: 'import pandas as pd\nresult = df.groupby("status").sum()\nprint(result)\n',
    },
  ];
}

export function registerEmbedDashboardRoutes(router: Router, deps: PlatformDeps): void {
  seedPythonReport(deps);
  const st: EmbedCommentState = { comments: seedComments(deps), exchanged: [] };
  deps.state.embedComments = st;
  // Seeded ids are below the first id handed out.
  const nextId = () => issueId(deps.state, 'embedComment', 1001);
  const now = () => new Date().toISOString();

  /** The published dashboard with this public id (any deployment) and its workbook. */
  const dashboardOf = (publicId: string) => {
    for (const dep of deps.data.deployments)
      for (const w of deps.data.workbooks.get(dep.id) ?? []) {
        const pub = w.publishedDashboard as Row | null;
        if (pub?.publicId === publicId) return { w, pub };
      }
    return undefined;
  };

  /** The embed user of the request scoped to a tenant, else answers 403 and returns undefined. */
  const embedUser = async (ctx: RequestContext): Promise<(EmbedClaims & { tenant: string }) | undefined> => {
    const c = claimsOf(ctx.credential, deps.jwtSecret);
    if (c?.tenant) return c as EmbedClaims & { tenant: string };
    await ctx.error(
      403,
      'Forbidden: this needs a signed embed session scoped to an embed tenant (an API key or console session has none).',
    );
    return undefined;
  };

  /** The dashboard an embed user may see (404 unknown; 403 when signed embedding is off for it). */
  const visible = async (ctx: RequestContext, c: EmbedClaims, needsEmbedFlag: boolean) => {
    const d = await found(
      ctx,
      dashboardOf(ctx.params.publicId!),
      `Dashboard ${ctx.params.publicId} not found.`,
    );
    if (!d) return undefined;
    if (needsEmbedFlag && d.pub.allowEmbed !== true && !c.creator) {
      await ctx.error(403, 'Forbidden: signed embedding is not allowed for this dashboard.');
      return undefined;
    }
    return d;
  };

  const dto = (r: EmbedCommentRow, c: EmbedClaims) => ({
    id: r.id,
    dashboardId: r.publicId,
    body: r.removedAt ? '' : r.body,
    createdAt: r.createdAt,
    editedAt: r.editedAt,
    removedAt: r.removedAt,
    userId: r.userId,
    isOwn: r.userId === c.userId,
  });
  const thread = (root: EmbedCommentRow, c: EmbedClaims) => ({
    root: dto(root, c),
    replies: st.comments
      .filter((r) => r.parentId === root.id)
      .sort((x, y) => x.createdAt.localeCompare(y.createdAt))
      .map((r) => dto(r, c)),
    resolvedAt: root.resolvedAt,
    resolvedBy: root.resolvedBy,
  });
  /** A comment of this dashboard in the caller's tenant that was not deleted. */
  const liveComment = (ctx: RequestContext, c: EmbedClaims & { tenant: string }, id: number) =>
    st.comments.find(
      (x) => x.id === id && x.publicId === ctx.params.publicId && x.tenant === c.tenant && !x.removedAt,
    );
  /** The comment the path names, else 404. */
  const commentOf = (ctx: RequestContext, c: EmbedClaims & { tenant: string }) =>
    found(
      ctx,
      liveComment(ctx, c, Number(ctx.params.commentId)),
      `Comment ${ctx.params.commentId} not found on this dashboard.`,
    );

  const base = '/v1/embed/dashboard/:publicId';
  type Visible = NonNullable<Awaited<ReturnType<typeof visible>>>;
  type EmbedHandler = (ctx: RequestContext, c: EmbedClaims & { tenant: string }, d: Visible) => Promise<void>;
  /** Adds a route of a tenant's embed user on a dashboard they may see (see `visible`). */
  const embedRoute = (method: Method, path: string, needsEmbedFlag: boolean, fn: EmbedHandler) =>
    router.add('platform', method, `${base}${path}`, async (ctx) => {
      const c = await embedUser(ctx);
      const d = c && (await visible(ctx, c, needsEmbedFlag));
      if (c && d) await fn(ctx, c, d);
    });
  embedRoute('GET', '', true, (ctx, _c, d) => ctx.json(200, publicView(d.pub)));
  router.add('platform', 'PATCH', base, async (ctx) => {
    if (!isAdmin(ctx, deps))
      return ctx.error(403, 'Forbidden: changing signed embedding needs the admin role.');
    const d = await found(
      ctx,
      dashboardOf(ctx.params.publicId!),
      `Dashboard ${ctx.params.publicId} not found.`,
    );
    if (!d) return;
    d.w.publishedDashboard = { ...d.pub, allowEmbed: (ctx.body as { allowEmbed: boolean }).allowEmbed };
    await ctx.json(200, { publicId: d.pub.publicId, allowEmbed: (d.w.publishedDashboard as Row).allowEmbed });
  });

  router.add('platform', 'POST', '/v1/embed/session/token', async (ctx) => {
    const sid = (ctx.body as { sessionId: string }).sessionId;
    const s = deps.state.admin?.embedSessions[sid];
    if (!s || s.revoked || st.exchanged.includes(sid))
      return ctx.error(401, 'The embed session is unknown, revoked or already redeemed: generate a new one.');
    st.exchanged.push(sid);
    // The session's end user, provisioned in the tenant on first use as the service does.
    const t = s.embedTenantName ? deps.state.admin?.embedTenants[s.embedTenantName] : undefined;
    let user = t?.users.find((u) => u.externalId === s.externalId);
    if (t && !user) {
      user = {
        id: issueId(deps.state, 'embedUser', 5001),
        username: s.externalId,
        email: null,
        externalId: s.externalId,
        firstName: null,
      };
      t.users.push(user);
    }
    const claims: EmbedClaims = {
      typ: 'embed',
      sid,
      tenant: s.embedTenantName,
      userId: user?.id ?? 0,
      deploymentId: s.deploymentId,
      creator: s.tenantGroups.length > 0,
    };
    await ctx.json(200, { token: signJwt({ ...claims }, deps.jwtSecret, TOKEN_SECONDS) });
  });

  embedRoute('GET', '/comments', false, async (ctx, c) => {
    const resolvedOnly = ctx.query.get('resolvedOnly') === 'true';
    const includeResolved = ctx.query.get('includeResolved') === 'true';
    const roots = st.comments
      .filter((r) => r.publicId === ctx.params.publicId && r.tenant === c.tenant && r.parentId === null)
      .filter((r) => !r.removedAt)
      .filter((r) => (resolvedOnly ? r.resolvedAt : includeResolved || !r.resolvedAt))
      .sort((x, y) => y.createdAt.localeCompare(x.createdAt));
    const view = (r: EmbedCommentRow) => thread(r, c);
    await sendPage(ctx, roots, `embed-comments-${ctx.params.publicId}-${c.tenant}`, { first: 50, view });
  });
  embedRoute('POST', '/comments', false, async (ctx, c) => {
    const b = ctx.body as { body: string; parentId?: number | null };
    const parentId = b.parentId ?? null;
    if (parentId !== null) {
      const parent = liveComment(ctx, c, parentId);
      if (!parent) return ctx.error(404, `Comment ${parentId} not found on this dashboard.`);
      if (parent.parentId !== null)
        return ctx.error(400, 'Replies nest one level deep: reply to the thread’s first comment.');
    }
    const r = comment({
      id: nextId(),
      publicId: ctx.params.publicId!,
      tenant: c.tenant,
      userId: c.userId,
      body: b.body,
      parentId,
      createdAt: now(),
    });
    st.comments.push(r);
    await ctx.json(200, dto(r, c));
  });
  embedRoute('GET', '/comments/mentionable-users', false, async (ctx, c) => {
    const q = (ctx.query.get('search') ?? '').toLowerCase();
    const rows = (deps.state.admin?.embedTenants[c.tenant]?.users ?? [])
      .filter((u) => u.id !== c.userId)
      .filter((u) => !q || u.username.toLowerCase().includes(q) || (u.email ?? '').toLowerCase().includes(q))
      .sort((x, y) => x.username.localeCompare(y.username))
      .map((u) => ({ id: u.id, username: u.username, email: u.email, firstName: u.firstName }));
    await sendPage(ctx, rows, `embed-mentionable-${c.tenant}-${q}`, { first: 50 });
  });
  router.add('platform', 'PATCH', `${base}/comments/:commentId`, async (ctx) => {
    const c = await embedUser(ctx);
    const r = c && (await commentOf(ctx, c));
    if (!c || !r) return;
    if (r.userId !== c.userId) return ctx.error(403, 'Forbidden: only the author can edit a comment.');
    r.body = (ctx.body as { body: string }).body;
    r.editedAt = now();
    await ctx.json(200, dto(r, c));
  });
  router.add('platform', 'DELETE', `${base}/comments/:commentId`, async (ctx) => {
    const c = await embedUser(ctx);
    const r = c && (await commentOf(ctx, c));
    if (!c || !r) return;
    if (r.userId !== c.userId) return ctx.error(403, 'Forbidden: only the author can delete a comment.');
    const at = now();
    // A thread's root takes its replies with it.
    for (const x of st.comments)
      if (x === r || (r.parentId === null && x.parentId === r.id)) x.removedAt ??= at;
    await ctx.json(200, {});
  });
  router.add('platform', 'POST', `${base}/comments/:commentId/resolve`, async (ctx) => {
    const c = await embedUser(ctx);
    const r = c && (await commentOf(ctx, c));
    if (!c || !r) return;
    if (r.parentId !== null)
      return ctx.error(400, 'A reply has no resolved state: resolve the thread’s first comment.');
    if (r.userId !== c.userId)
      return ctx.error(403, 'Forbidden: only the embed user who started the thread can resolve it.');
    const resolved = (ctx.body as { resolved: boolean }).resolved;
    r.resolvedAt = resolved ? (r.resolvedAt ?? now()) : null;
    r.resolvedBy = resolved ? (r.resolvedBy ?? c.userId) : null;
    await ctx.json(200, thread(r, c));
  });

  embedRoute('POST', '/python-run', true, async (ctx, _c, d) => {
    const b = ctx.body as { reportId: number; reportVersionId: number; sqlQuery: string };
    const snap = ((d.pub.reportSnapshots as Row[] | undefined) ?? []).find(
      (s) => s.id === b.reportVersionId && s.reportId === b.reportId,
    );
    if (!snap?.pythonCode)
      return ctx.error(403, 'Forbidden: not a python report of this dashboard’s published version.');
    await ctx.json(200, {
      at: now(),
      stdout: `ran ${String(snap.name ?? `report ${b.reportId}`)} over ${b.sqlQuery.length} characters of SQL\n`,
      stderr: '',
      inputRowCount: 0,
      executionError: null,
      outputData: null,
    });
  });
}
