// A deployment's operations in the sandbox: dashboard exports (jobs that render over time, then a
// real PNG/PDF), env variable writes, health (build status, versions, pods, a log tail that grows
// over time) and environment tokens. Health follows the build side: a deployment whose deploy
// branch does not compile (the seeded "Marketing Sandbox", deployment 3, until its campaigns cube
// is fixed) shows a failed build, a crashing API pod and the compile error in its logs.
import type { StartExportInput } from '../../api/platform/dashboardExports';
import type { CreateEnvironmentTokenInput } from '../../api/platform/environmentTokens';
import { ENV_NAME_PATTERN, type EnvVariableInput } from '../../api/platform/envVars';
import { signJwt } from '../jwt';
import { negotiate, type RequestContext, type Router } from '../http';
import { decodeCursor, deploymentRoutes, encodeCursor, found, sendPage, type PlatformDeps } from './common';
import { renderPdf, renderPng } from './exportFiles';
import type { Row } from './seed';

const EXPORT_TTL_MS = 5 * 60_000;
const SECRET_NAME = /PASS|SECRET|TOKEN|KEY|CREDENTIAL/i;
/** The deployment held on an older release (its version, not its build, is the point). */
const HELD_DEPLOYMENT = 3;
const LOG_EVERY_MS = 1000;
/** The releases a deployment can run: `[version, channel, the channel's latest]`, tagged `v<version>`. */
export const VERSIONS = (
  [
    ['1.3.21', 'latest', true],
    ['1.2.33', 'release', true],
    ['1.1.18', 'release', false],
  ] as const
).map(([version, releaseChannel, isLatestInChannel]) => ({
  version,
  releaseChannelVersion: `v${version}`,
  releaseChannel,
  isLatestInChannel,
}));

/** The version a deployment runs: one is held on an older release. */
export const currentVersion = (depId: number) => (depId === HELD_DEPLOYMENT ? '1.1.18' : '1.3.21');

/** The first compile error of a failed build, as the API server logs it. */
function failureOf(build: Record<string, unknown> | undefined): string | undefined {
  if (build?.status !== 'error') return undefined;
  const lines = String(build.errorText ?? '').split('\n');
  return `Error: Compile errors: ${lines.find((l, i) => i > 0 && l.trim()) ?? lines[0] ?? ''}`;
}

/** A deployment's pods (`[name, type, restarts]`): all running, but the first API pod of a failed build. */
function pods(depId: number, failed: boolean) {
  const rows = [
    [`cube-api-${depId}-0`, 'api', failed ? 7 : 0],
    [`cube-api-${depId}-1`, 'api', 0],
    [`refresh-worker-${depId}-0`, 'refresh-worker', 1],
    [`dev-mode-${depId}-0`, 'dev', 0],
  ] as const;
  return rows.map(([name, type, restartCount], i) => ({
    name,
    type,
    status: failed && i === 0 ? 'CrashLoopBackOff' : 'Running',
    ready: !(failed && i === 0),
    restartCount,
    containers: ['cubejs-server', 'vector', 'api-proxy'],
  }));
}

const LINES = [
  (v: string) => `🚀 Cube API server (${v}) is listening on 4000`,
  () => 'Performing query: scheduler-3f2a',
  () => 'Query completed: orders.count by orders.status (42 ms)',
  () => 'Refresh scheduler: 3 pre-aggregations up to date',
  () => 'Load Request Success: orders (118 ms)',
];

/** Log line `n` of a deployment: every LOG_EVERY_MS one line, round-robin over its pods. */
function logLine(depId: number, n: number, t0: number, failure: string | undefined) {
  const ps = pods(depId, failure !== undefined);
  const pod = ps[n % ps.length]!;
  const message =
    failure !== undefined && pod.status === 'CrashLoopBackOff'
      ? failure
      : LINES[n % LINES.length]!(`v${currentVersion(depId)}`);
  return { date: new Date(t0 + n * LOG_EVERY_MS).toISOString(), pod: pod.name, message, _type: pod.type };
}

export function registerOpsRoutes(router: Router, deps: PlatformDeps): void {
  const d = deps.data;
  const state = deps.state;
  const step = deps.dbtStepMs ?? 500;
  const started = Date.now();
  const logStart = started - 60 * LOG_EVERY_MS;
  const on = deploymentRoutes(router, deps);

  // ---- dashboard exports
  const dashboardOf = (depId: number, b: StartExportInput): Row | undefined =>
    (d.workbooks.get(depId) ?? [])
      .map((w) => w.publishedDashboard as Row | null)
      .find(
        (pd) =>
          !!pd && (b.dashboardId != null ? pd.id === b.dashboardId : pd.publicId === b.dashboardPublicId),
      ) ?? undefined;
  const exportState = (j: (typeof state.exports)[string]) => {
    const t = Date.now() - j.startedAt;
    if (t < step) return { status: 'pending', progress: null };
    if (t < 3 * step) return { status: 'processing', progress: Math.round(((t - step) / (2 * step)) * 100) };
    return { status: 'completed', progress: 100 };
  };
  const exportJob = (ctx: RequestContext, depId: number) => {
    const j = state.exports[ctx.params.jobId!];
    const live = j && j.deploymentId === depId && Date.now() - j.startedAt <= EXPORT_TTL_MS;
    return found(ctx, live ? j : undefined, `Export job ${ctx.params.jobId} not found or expired.`);
  };
  on('POST', '/dashboard-exports', async (ctx, dp) => {
    // The body fits the row (a format, exactly one of the two ids): what is left is what it names.
    const b = ctx.body as StartExportInput;
    const dash = dashboardOf(dp.id, b);
    if (!dash) return ctx.error(404, 'No published dashboard with that id in this deployment.');
    const jobId = `exp-${d.nextId()}`;
    const startedAt = Date.now();
    state.exports[jobId] = {
      deploymentId: dp.id,
      dashboardId: dash.id,
      title: String(dash.title ?? 'Dashboard'),
      format: b.format,
      startedAt,
    };
    await ctx.json(200, { jobId, expiresAt: new Date(startedAt + EXPORT_TTL_MS).toISOString() });
  });
  on('GET', '/dashboard-exports/:jobId', async (ctx, dp) => {
    const j = await exportJob(ctx, dp.id);
    if (!j) return;
    const s = exportState(j);
    await ctx.json(200, {
      ...s,
      contentType: s.status === 'completed' ? (j.format === 'png' ? 'image/png' : 'application/pdf') : null,
      error: null,
    });
  });
  on('GET', '/dashboard-exports/:jobId/download', async (ctx, dp) => {
    const j = await exportJob(ctx, dp.id);
    if (!j) return;
    if (exportState(j).status !== 'completed') return ctx.error(409, 'The export is still rendering.');
    const type = j.format === 'png' ? 'image/png' : 'application/pdf';
    // The job's format is fixed: a request that does not accept it is refused, not sent the other.
    if (negotiate(ctx.req.headers.accept, [type]) === null)
      return ctx.error(406, `This export is ${type}; the request does not accept it (Accept header).`);
    const stem = (ctx.query.get('filename') || 'dashboard').replace(/[^\w.-]+/g, '_');
    const bytes = j.format === 'png' ? renderPng(j.dashboardId) : renderPdf(j.title);
    j.downloaded = (j.downloaded ?? 0) + 1;
    // Through the context, so the fault rules (a reset mid-body) reach files too.
    await ctx.bytes(200, bytes, {
      'content-type': type,
      'content-disposition': `attachment; filename="${stem}.${j.format}"`,
    });
  });

  // ---- env variables: PUT upserts by name (GET is in catalogRoutes)
  on('PUT', '/env-vars', async (ctx, dp) => {
    const list = (ctx.body as { env_variables: EnvVariableInput[] }).env_variables;
    const stored = d.envVars.get(dp.id) ?? [];
    // A name already stored may be resent as it is; a new one must be an identifier.
    const bad = list.find((v) => !ENV_NAME_PATTERN.test(v.name) && !stored.some((s) => s.name === v.name));
    if (bad)
      return ctx.error(
        400,
        `${bad.name} is not a valid name (letters, digits and _; not starting with a digit).`,
      );
    for (const v of list) {
      const at = stored.find((s) => s.name === v.name);
      if (at) at.value = v.value;
      else stored.push({ name: v.name, value: v.value });
    }
    d.envVars.set(dp.id, stored);
    state.envVarWrites.push({
      deploymentId: dp.id,
      names: list.map((v) => v.name),
    });
    const items = stored.map(maskEnvVar);
    await ctx.json(200, { items, data: items, pageInfo: null });
  });

  // ---- health
  on('GET', '/build-status', async (ctx, dp) => {
    const branchName = ctx.query.get('branchName') || undefined;
    const build = await deps.buildStatus(dp.id, branchName);
    if (!build) return ctx.error(404, `No branch named "${branchName}" in deployment ${dp.id}.`);
    const failed = build.status === 'error';
    // The compiled build, with the deployment's state: a failed deploy branch degrades it.
    await ctx.json(200, {
      ...build,
      deploymentStatus: failed && build.mode === 'production' ? 'degraded' : 'running',
    });
  });
  on('GET', '/versions', async (ctx, dp) => {
    const rows = VERSIONS.map((v) => ({ ...v, isCurrent: v.version === currentVersion(dp.id) }));
    await sendPage(ctx, rows, `versions:${dp.id}`);
  });
  on('GET', '/pods', async (ctx, dp) => {
    const failure = failureOf(await deps.buildStatus(dp.id));
    await sendPage(ctx, pods(dp.id, failure !== undefined), `pods:${dp.id}`);
  });
  on('GET', '/logs', async (ctx, dp) => {
    const source = ctx.query.get('source');
    const podName = ctx.query.get('pod');
    const firstText = ctx.query.get('first');
    const first = firstText === null ? 100 : Number(firstText);
    if (!Number.isInteger(first) || first < 1 || first > 500)
      return ctx.error(400, `first must be an integer from 1 to 500 (got ${firstText}).`);
    const key = `logs:${dp.id}`;
    const after = ctx.query.get('after');
    const available = Math.floor((Date.now() - logStart) / LOG_EVERY_MS) + 1;
    let from: number;
    if (after) {
      const o = decodeCursor(after, key);
      if (o === undefined) return ctx.error(400, 'after is not a cursor of this log.');
      from = o;
    } else from = Math.max(0, available - first);
    const failure = failureOf(await deps.buildStatus(dp.id));
    const lines = [];
    let n = from;
    for (; n < available && lines.length < first; n++) {
      const l = logLine(dp.id, n, logStart, failure);
      if (podName && l.pod !== podName) continue;
      if (source === 'dev' && l._type !== 'dev') continue;
      if (source === 'production' && l._type === 'dev') continue;
      lines.push({ date: l.date, pod: l.pod, message: l.message });
    }
    await ctx.json(200, {
      items: lines,
      pageInfo: {
        hasNextPage: n < available,
        hasPreviousPage: from > 0,
        startCursor: encodeCursor(from, key),
        endCursor: encodeCursor(n, key),
      },
    });
  });

  // ---- environment tokens
  const environment = (ctx: RequestContext, depId: number) =>
    found(
      ctx,
      (d.environments.get(depId) ?? []).find((e) => e.id === ctx.params.environmentId),
      `Environment ${ctx.params.environmentId} not found in this deployment.`,
    );
  const tokensOf = (depId: number, envId: string) => {
    const key = `${depId}/${envId}`;
    state.environmentTokens[key] ??= [
      {
        token: signJwt({ deploymentId: depId, environmentId: envId, seeded: true }, deps.jwtSecret, 3600),
        security_context: { role: 'analyst' },
        created_at: new Date(started - 86_400_000).toISOString(),
        expires_at: new Date(started + 3_600_000).toISOString(),
      },
    ];
    return state.environmentTokens[key]!;
  };
  on('GET', '/environments/:environmentId/tokens', async (ctx, dp) => {
    if (!(await environment(ctx, dp.id))) return;
    const rows = tokensOf(dp.id, ctx.params.environmentId!);
    await sendPage(ctx, rows, `tokens:${dp.id}:${ctx.params.environmentId}`, { data: true });
  });
  on('POST', '/environments/:environmentId/tokens', async (ctx, dp) => {
    if (!(await environment(ctx, dp.id))) return;
    // The body fits CreateDeploymentEnvironmentTokenInput (the row's check).
    const b = ctx.body as CreateEnvironmentTokenInput;
    const expiresIn = b.expires_in ?? 3600;
    const now = Date.now();
    const token = {
      token: signJwt({ ...b.security_context, deploymentId: dp.id }, deps.jwtSecret, expiresIn),
      security_context: b.security_context,
      created_at: new Date(now).toISOString(),
      expires_at: new Date(now + expiresIn * 1000).toISOString(),
    };
    tokensOf(dp.id, ctx.params.environmentId!).push(token);
    await ctx.json(200, { data: token });
  });
}

/** What GET/PUT /env-vars send: secret-named values masked, as the documents say. */
export function maskEnvVar(v: { name: string; value: string }): { name: string; value: string } {
  return { name: v.name, value: SECRET_NAME.test(v.name) ? '[ENCRYPTED]' : v.value };
}
