// dbt sync in the sandbox: a run moves through the published stages over time (dbtStepMs each),
// writing log lines as it goes; a branch named "fail" fails in dbt compile; DELETE cancels a running
// one. Each deployment starts with a few past runs so the list has history.
import type { StartDbtSyncInput } from '../../api/platform/dbtSync';
import type { Method, RequestContext, Router } from '../http';
import type { DbtJobState } from '../state';
import { deploymentRoutes, found, sendPage, type PlatformDeps } from './common';

const STAGES = [
  ['INITIALIZING', 'init'],
  ['CREATING_SANDBOX', 'sandbox'],
  ['RUNNING_DBT_DEPS', 'dbt-deps'],
  ['COMPILING_DBT', 'dbt-compile'],
  ['PROCESSING_MANIFEST', 'manifest'],
  ['WRITING_CUBE_FILES', 'write-cubes'],
  ['FINALIZING', 'finalize'],
] as const;
const FAIL_STAGE = 3;
const CUBES = ['orders', 'customers', 'line_items', 'products', 'suppliers'];
const STATS = { models: 14, sources: 6, macros: 112 };

function stageLines(k: number, job: DbtJobState): string[] {
  switch (STAGES[k]![1]) {
    case 'init':
      return [`Sync accepted for Cube branch ${job.branchName}`, 'Reading the dbt git integration'];
    case 'sandbox':
      return ['Creating an isolated build sandbox', 'Cloning the dbt repository (depth 1)'];
    case 'dbt-deps':
      return ['Running dbt deps', 'Installed 2 packages: dbt_utils 1.1.1, dbt_expectations 0.10.1'];
    case 'dbt-compile':
      return [
        'Running dbt compile',
        `Found ${STATS.models} models, ${STATS.sources} sources, ${STATS.macros} macros`,
      ];
    case 'manifest':
      return ['Reading target/manifest.json', `Converting ${STATS.models} models into ${CUBES.length} cubes`];
    case 'write-cubes':
      return CUBES.map((c) => `Wrote model/cubes/dbt/${c}.yml`);
    default:
      return job.output === 'files'
        ? [`Keeping ${CUBES.length} generated files for download`]
        : [`Committed ${CUBES.length} files to branch ${job.branchName}`];
  }
}

interface Timeline {
  /** Index of the current stage; STAGES.length once completed. */
  stage: number;
  status: 'RUNNING' | 'COMPLETED' | 'FAILED' | 'CANCELLED';
  /** When the state was last reached (ms). */
  at: number;
}

function timeline(job: DbtJobState, step: number, now = Date.now()): Timeline {
  const end = Math.min(now, job.cancelledAt ?? Infinity);
  const k = Math.floor(Math.max(0, end - job.startedAt) / step);
  const fails = job.fails === true || job.branchName === 'fail';
  if (fails && k > FAIL_STAGE)
    return { stage: FAIL_STAGE, status: 'FAILED', at: job.startedAt + (FAIL_STAGE + 1) * step };
  if (k >= STAGES.length)
    return { stage: STAGES.length, status: 'COMPLETED', at: job.startedAt + STAGES.length * step };
  if (job.cancelledAt !== undefined) return { stage: k, status: 'CANCELLED', at: job.cancelledAt };
  return { stage: k, status: 'RUNNING', at: now };
}

const iso = (ms: number) => new Date(ms).toISOString();

function logs(job: DbtJobState, step: number): Record<string, unknown>[] {
  const tl = timeline(job, step);
  const out: Record<string, unknown>[] = [];
  /** A line of the system stream; `phase` null: the run's own. */
  const line = (
    at: number,
    message: string,
    phase: string | null,
    durationMs: number | null,
    level = 'info',
  ) => out.push({ timestamp: iso(at), level, stream: 'system', message, phase, durationMs });
  const last = Math.min(tl.stage, STAGES.length - 1);
  for (let k = 0; k <= last; k++) {
    const [, phase] = STAGES[k]!;
    const t0 = job.startedAt + k * step;
    const lines = stageLines(k, job);
    const finished = k < tl.stage || tl.status === 'COMPLETED';
    const inStage = tl.at - t0;
    // A running stage shows the lines it has reached so far.
    const shown = finished
      ? lines.length
      : Math.min(lines.length, 1 + Math.floor((inStage / step) * lines.length));
    lines
      .slice(0, shown)
      .forEach((message, i) => line(t0 + Math.floor((i * step) / lines.length), message, phase, null));
    if (tl.status === 'FAILED' && k === FAIL_STAGE) {
      const message = 'dbt compile failed: model "orders" references a missing column "amount_usd"';
      line(tl.at, message, phase, step, 'error');
    } else if (finished) line(t0 + step, `${phase} finished`, phase, step);
  }
  if (tl.status === 'CANCELLED') line(tl.at, 'Cancelled on request', null, null);
  if (tl.status === 'COMPLETED') line(tl.at, 'Sync completed', null, null);
  return out;
}

function fileContent(cube: string): string {
  const title = cube.replace(/_/g, ' ').replace(/\b\w/g, (c) => c.toUpperCase());
  return [
    'cubes:',
    `  - name: ${cube}`,
    `    sql_table: analytics.${cube}`,
    `    title: ${title}`,
    '    meta:',
    `      dbt_model: model.shop.${cube}`,
    '    dimensions:',
    '      - name: id',
    '        sql: id',
    '        type: number',
    '        primary_key: true',
    '      - name: created_at',
    '        sql: created_at',
    '        type: time',
    '    measures:',
    '      - name: count',
    '        type: count',
    '',
  ].join('\n');
}

export function registerDbtRoutes(router: Router, deps: PlatformDeps): void {
  const d = deps.data;
  const jobs = deps.state.dbtJobs;
  const baseStep = deps.dbtStepMs ?? 500;
  // A branch named "slow" runs a thousand times slower, so tests can cancel it while it runs;
  // "steady" runs eight times slower, a sync one can watch (the README's picture).
  const stepOf = (j: DbtJobState) =>
    j.branchName === 'slow' ? baseStep * 1000 : j.branchName === 'steady' ? baseStep * 8 : baseStep;
  // History: three past runs a deployment (one failed on the first), finished long ago.
  const now = Date.now();
  for (const dep of d.deployments) {
    [
      { days: 9, branchName: 'dbt-nightly', trigger: 'webhook', output: 'branch', fails: false },
      { days: 5, branchName: 'dbt-nightly', trigger: 'manual', output: 'branch', fails: dep.id === 1 },
      { days: 2, branchName: 'dbt-preview', trigger: 'api', output: 'files', fails: false },
    ].forEach((r) => {
      jobs[String(d.nextId())] = {
        deploymentId: dep.id,
        branchName: r.branchName,
        trigger: r.trigger,
        output: r.output,
        fails: r.fails,
        startedAt: now - r.days * 86_400_000,
      };
    });
  }

  const run = (id: string, job: DbtJobState) => {
    const tl = timeline(job, stepOf(job));
    const done = tl.status !== 'RUNNING';
    return {
      syncJobId: id,
      deploymentId: job.deploymentId,
      status: tl.status,
      trigger: job.trigger ?? 'api',
      source: 'git',
      branchName: job.branchName,
      startedAt: iso(job.startedAt),
      completedAt: done ? iso(tl.at) : null,
      durationMs: done ? tl.at - job.startedAt : null,
      errorMessage: tl.status === 'FAILED' ? 'dbt compile failed' : null,
      failedPhase: tl.status === 'FAILED' ? 'dbt-compile' : null,
      lastStage: STAGES[Math.min(tl.stage, STAGES.length - 1)]![0],
      gitRef: null,
      phases: null,
      stats:
        tl.status === 'COMPLETED'
          ? { ...STATS, cubeCount: CUBES.length, generatedFileCount: CUBES.length }
          : null,
      triggerContext: null,
      userId: job.trigger === 'webhook' ? null : 1,
    };
  };
  const job = (ctx: RequestContext, depId: number) => {
    const j = jobs[ctx.params.syncJobId!];
    return found(
      ctx,
      j?.deploymentId === depId ? j : undefined,
      `dbt sync job ${ctx.params.syncJobId} not found.`,
    );
  };

  const on = deploymentRoutes(router, deps);
  on('POST', '/dbt-sync', async (ctx, dep) => {
    const b = (ctx.body ?? {}) as StartDbtSyncInput;
    const syncJobId = String(d.nextId());
    const branchName = b.branchName ?? 'main';
    jobs[syncJobId] = {
      deploymentId: dep.id,
      branchName,
      startedAt: Date.now(),
      trigger: 'api',
      output: b.output ?? 'branch',
    };
    await ctx.json(200, { syncJobId, workflowId: `wf-${syncJobId}`, branchName });
  });
  on('GET', '/dbt-sync', async (ctx, dep) => {
    const status = ctx.query.get('status');
    const trigger = ctx.query.get('trigger');
    const rows = Object.entries(jobs)
      .filter(([, j]) => j.deploymentId === dep.id)
      .sort(([, a], [, b]) => b.startedAt - a.startedAt)
      .map(([id, j]) => run(id, j))
      .filter((r) => (!status || r.status === status) && (!trigger || r.trigger === trigger));
    await sendPage(ctx, rows, `dbt:${dep.id}:${status ?? ''}:${trigger ?? ''}`, { first: 20 });
  });
  /** Adds a route of the sync job the path names (404 when the deployment has none). */
  const jobRoute = (
    method: Method,
    path: string,
    fn: (ctx: RequestContext, j: DbtJobState) => Promise<void>,
  ) =>
    on(method, `/dbt-sync/:syncJobId${path}`, async (ctx, dep) => {
      const j = await job(ctx, dep.id);
      if (j) await fn(ctx, j);
    });
  jobRoute('GET', '', async (ctx, j) => {
    const tl = timeline(j, stepOf(j));
    // The status API knows only COMPLETED and FAILED as ends: a cancelled run reads FAILED.
    const status =
      tl.status === 'RUNNING' ? STAGES[tl.stage]![0] : tl.status === 'CANCELLED' ? 'FAILED' : tl.status;
    const percentComplete = Math.round((Math.min(tl.stage, STAGES.length) / STAGES.length) * 100);
    await ctx.json(200, {
      syncJobId: ctx.params.syncJobId,
      status,
      progress: {
        stage: status,
        percentComplete: tl.status === 'COMPLETED' ? 100 : percentComplete,
        message: tl.status === 'RUNNING' ? stageLines(tl.stage, j)[0]! : null,
      },
      updatedAt: iso(tl.at),
      error:
        tl.status === 'FAILED'
          ? 'dbt compile failed: model "orders" references a missing column "amount_usd".'
          : tl.status === 'CANCELLED'
            ? 'Cancelled on request.'
            : null,
    });
  });
  jobRoute('DELETE', '', async (ctx, j) => {
    if (timeline(j, stepOf(j)).status !== 'RUNNING')
      return ctx.error(409, 'This dbt sync is not running any more.');
    j.cancelledAt = Date.now();
    await ctx.json(200, { message: `dbt sync ${ctx.params.syncJobId} cancelled.` });
  });
  jobRoute('GET', '/logs', async (ctx, j) => {
    const items = logs(j, stepOf(j));
    await ctx.json(200, {
      items,
      pageInfo: { hasNextPage: false, hasPreviousPage: false, startCursor: null, endCursor: null },
    });
  });
  jobRoute('GET', '/result', async (ctx, j) => {
    const tl = timeline(j, stepOf(j));
    if (tl.status !== 'COMPLETED')
      return ctx.error(404, `dbt sync ${ctx.params.syncJobId} has no result: it is ${tl.status}.`);
    await ctx.json(200, {
      syncJobId: ctx.params.syncJobId,
      generatedFiles: CUBES.map((c) => ({ path: `model/cubes/dbt/${c}.yml` })),
      manifestStats: STATS,
      cubeCount: CUBES.length,
      completedAt: iso(tl.at),
      durationMs: tl.at - j.startedAt,
    });
  });
  jobRoute('GET', '/generated-files', async (ctx, j) => {
    // Only a sync that kept its files (output: files) serves them; others committed them.
    const done = timeline(j, stepOf(j)).status === 'COMPLETED';
    const rows =
      done && j.output === 'files'
        ? CUBES.map((c) => ({ path: `model/cubes/dbt/${c}.yml`, content: fileContent(c) }))
        : [];
    await sendPage(ctx, rows, `dbtfiles:${ctx.params.syncJobId}`);
  });
}
