// Databricks Metric Views in the sandbox. Each deployment has two Databricks data sources: `default`
// (its warehouse) and `slow` (the same warehouse, so slow that a preview on it runs for hours, so tests can cancel a
// preview while it runs). Publication settings are saved with optimistic versioning (a stale
// `expectedConfigurationVersion` is a 409). A preview converts the cubes of the deploy branch's
// latest successful build into Metric View YAML: it is queued, runs a step per stage, then completes
// (or fails when the selection matches no view); its result is readable only once completed.
// Settings and previews are kept in the sandbox state, so they survive a restart.
import { createHash } from 'node:crypto';
import type {
  MetricViewPreviewInput,
  SaveMetricViewIntegrationInput,
} from '../../api/platform/databricksMetricViews';
import type { CubeDef, MemberDef } from '../data/modelTypes';
import type { RequestContext, Router } from '../http';
import type { MetricViewPreviewState } from '../state';
import { deploymentRoutes, type PlatformDeps } from './common';
import type { Row } from './seed';

const DATA_SOURCES = new Set(['default', 'slow']);
const RETAIN_MS = 7 * 86_400_000;
/** Queued, then three running steps (25, 50, 75 %), then done. */
const STEPS = 4;
const RUNNING_MESSAGES = ['Reading the build’s data model', 'Converting views', 'Validating Metric Views'];
const RUNTIME = {
  bridgeCommit: 'sandbox',
  bridgeVersion: '0.1.0',
  ossieCommit: 'sandbox',
  ossieCoreVersion: '0.1.0',
  databricksConverterVersion: '0.1.0',
  cubeConverterVersion: '0.1.0',
  templateName: 'sandbox',
  runnerVersion: '0.1.0',
  policyVersion: 1,
};

const iso = (ms: number) => new Date(ms).toISOString();
const sha256 = (text: string) => createHash('sha256').update(text).digest('hex');

type Stage = 'QUEUED' | 'RUNNING' | 'COMPLETED' | 'FAILED' | 'CANCELLED';

function stageOf(p: MetricViewPreviewState, step: number, now = Date.now()) {
  const end = Math.min(now, p.cancelledAt ?? Infinity);
  const k = Math.floor(Math.max(0, end - p.startedAt) / step);
  if (k >= STEPS) {
    const status: Stage = p.views.length > 0 ? 'COMPLETED' : 'FAILED';
    return { status, k: STEPS, at: p.startedAt + STEPS * step };
  }
  if (p.cancelledAt !== undefined) return { status: 'CANCELLED' as Stage, k, at: p.cancelledAt };
  return { status: (k === 0 ? 'QUEUED' : 'RUNNING') as Stage, k, at: now };
}

/** The view names a preview selects (the documents' safe regex subset: literals, ^, $, `.` and `.*`). */
function selects(input: MetricViewPreviewInput, name: string): boolean {
  if (input.selectionMode === 'selected') return (input.viewNames ?? []).includes(name);
  if (input.selectionMode === 'pattern' && input.viewNameRegex)
    return new RegExp(input.viewNameRegex).test(name);
  return true;
}

/** A cube as a Databricks Metric View: its dimensions, measures and joins in the Metric View YAML. */
function convert(cube: CubeDef, input: MetricViewPreviewInput): Record<string, unknown> {
  const metricViewName = input.targetNames?.[cube.name] ?? cube.name;
  const source = input.sourceOverrides?.[cube.name] ?? cube.table ?? cube.name;
  const expr = (m: MemberDef) => m.sql.replace(/\$\{CUBE\}\.|\{CUBE\}\./g, '');
  const measure = (m: MemberDef) =>
    m.agg === 'count' && !m.sql
      ? 'COUNT(1)'
      : m.agg
        ? `${m.agg === 'countDistinct' ? 'COUNT(DISTINCT ' : `${m.agg.toUpperCase()}(`}${expr(m)})`
        : expr(m);
  const joins = cube.joins ?? [];
  const yaml = [
    'version: 0.1',
    `source: ${source}`,
    ...(joins.length ? ['joins:', ...joins.map((j) => `  - name: ${j.name}\n    source: ${j.name}`)] : []),
    'dimensions:',
    ...cube.dimensions.map((d) => `  - name: ${d.name}\n    expr: ${expr(d)}`),
    'measures:',
    ...cube.measures.map((m) => `  - name: ${m.name}\n    expr: ${measure(m)}`),
    '',
  ].join('\n');
  return {
    cubeViewName: cube.name,
    metricViewName,
    outcome: 'success',
    eligibleForPublication: true,
    issues: [],
    datasetSources: [
      {
        dataset: cube.name,
        dataSource: input.dataSourceName,
        originalSource: source,
        resolvedSource: source,
      },
    ],
    counts: {
      dimensions: cube.dimensions.length,
      measures: cube.measures.length,
      joins: joins.length,
      warnings: 0,
      errors: 0,
    },
    metricViewYaml: yaml,
    metricViewSha256: sha256(yaml),
    source,
  };
}

export function registerDatabricksRoutes(router: Router, deps: PlatformDeps): void {
  const on = deploymentRoutes(router, deps);
  const state = (deps.state.databricks ??= { integrations: {}, previews: {} });
  const baseStep = deps.dbtStepMs ?? 500;
  // An hour a step on the slow source: its preview is still running whenever a test looks (a
  // timing-free way to reach cancel and the result's 409), however loaded the machine.
  const stepOf = (p: MetricViewPreviewState) => (p.dataSourceName === 'slow' ? 3_600_000 : baseStep);

  /** The data source of the path or body, or undefined after answering 404. */
  const dataSource = async (ctx: RequestContext, name: string) => {
    if (DATA_SOURCES.has(name)) return name;
    await ctx.error(404, `Data source "${name}" is not a Databricks data source of this deployment.`);
    return undefined;
  };

  const settingsPath = '/databricks-metric-view-integrations/:dataSourceName';
  on('GET', settingsPath, async (ctx, dep) => {
    const name = await dataSource(ctx, ctx.params.dataSourceName!);
    if (!name) return;
    const saved = state.integrations[`${dep.id}/${name}`];
    if (!saved) return ctx.error(404, `No Databricks Metric View settings saved for data source "${name}".`);
    await ctx.json(200, saved);
  });

  on('PUT', settingsPath, async (ctx, dep) => {
    const name = await dataSource(ctx, ctx.params.dataSourceName!);
    if (!name) return;
    // The body fits SaveDatabricksMetricViewIntegrationInput (the row's check).
    const { expectedConfigurationVersion, ...configuration } = ctx.body as SaveMetricViewIntegrationInput;
    const refused = selectionRefused(configuration);
    if (refused) return ctx.error(400, refused);
    const key = `${dep.id}/${name}`;
    const saved = state.integrations[key];
    const current = typeof saved?.configurationVersion === 'number' ? saved.configurationVersion : 0;
    if (expectedConfigurationVersion !== current)
      return ctx.error(
        409,
        `The settings are at configuration version ${current}, not ${expectedConfigurationVersion}: read them again.`,
      );
    const now = iso(Date.now());
    state.integrations[key] = {
      publicId: (saved?.publicId as string | undefined) ?? `dmv_${sha256(key).slice(0, 12)}`,
      deploymentId: dep.id,
      dataSourceName: name,
      configurationVersion: current + 1,
      configuration: { version: 1, deletionPolicy: 'retain', ...configuration },
      accessTest: null,
      createdAt: (saved?.createdAt as string | undefined) ?? now,
      updatedAt: now,
    };
    await ctx.json(200, state.integrations[key]);
  });

  const forget = () => {
    const old = Date.now() - RETAIN_MS;
    for (const [id, p] of Object.entries(state.previews)) if (p.startedAt < old) delete state.previews[id];
  };
  /** The preview of the path, or undefined after answering 404. */
  const preview = async (ctx: RequestContext, dep: Row) => {
    forget();
    const p = state.previews[ctx.params.previewId!];
    if (p && p.deploymentId === dep.id) return p;
    await ctx.error(404, `Databricks Metric View preview ${ctx.params.previewId} not found.`);
    return undefined;
  };
  const statusOf = (id: string, p: MetricViewPreviewState) => {
    const s = stageOf(p, stepOf(p));
    const percent =
      s.status === 'COMPLETED' ? 100 : s.status === 'QUEUED' ? 0 : Math.round((s.k / STEPS) * 100);
    const message =
      s.status === 'RUNNING'
        ? RUNNING_MESSAGES[s.k - 1]!
        : s.status === 'COMPLETED'
          ? `Converted ${p.views.length} view(s)`
          : s.status === 'FAILED'
            ? 'No view matches the selection'
            : s.status === 'CANCELLED'
              ? 'Cancelled'
              : 'Queued';
    return {
      previewId: id,
      deploymentId: p.deploymentId,
      dataSourceName: p.dataSourceName,
      status: s.status,
      progress: { stage: s.status, percentComplete: percent, message },
      resultAvailable: s.status === 'COMPLETED',
      error: s.status === 'FAILED' ? 'No view of the build matches the selection.' : null,
      startedAt: iso(p.startedAt),
      updatedAt: iso(s.at),
    };
  };

  const previews = '/databricks-metric-view-previews';
  on('POST', previews, async (ctx, dep) => {
    // The body fits DatabricksMetricViewPublicationPreviewInput (the row's check).
    const input = ctx.body as MetricViewPreviewInput;
    if (!(await dataSource(ctx, input.dataSourceName))) return;
    const refused = selectionRefused(input);
    if (refused) return ctx.error(400, refused);
    const build = await deps.buildStatus(dep.id);
    const cubes = build?.status === 'success' ? await deps.deployedCubes?.(dep.id) : undefined;
    if (!build || !cubes)
      return ctx.error(409, 'The deployment has no successful build to convert: fix its data model first.');
    const buildJobId = Number(build.buildJobId);
    const key = sha256(JSON.stringify([dep.id, buildJobId, input]));
    forget();
    const running = Object.entries(state.previews).find(
      ([, p]) => p.key === key && ['QUEUED', 'RUNNING'].includes(stageOf(p, stepOf(p)).status),
    );
    const [previewId, reused] = running
      ? [running[0], true]
      : [`mvp_${sha256(`${key}${Date.now()}${Math.random()}`).slice(0, 16)}`, false];
    if (!running)
      state.previews[previewId] = {
        deploymentId: dep.id,
        dataSourceName: input.dataSourceName,
        key,
        buildJobId,
        startedAt: Date.now(),
        views: cubes.filter((c) => selects(input, c.name)).map((c) => convert(c, input)),
      };
    const url = `/api/v1/deployments/${dep.id}${previews}/${previewId}`;
    await ctx.json(202, {
      previewId,
      deploymentId: dep.id,
      dataSourceName: input.dataSourceName,
      buildJobId,
      commit: null,
      reused,
      status: 'QUEUED',
      statusUrl: url,
      resultUrl: `${url}/result`,
    });
  });

  on('GET', `${previews}/:previewId`, async (ctx, dep) => {
    const p = await preview(ctx, dep);
    if (p) await ctx.json(200, statusOf(ctx.params.previewId!, p));
  });

  on('DELETE', `${previews}/:previewId`, async (ctx, dep) => {
    const p = await preview(ctx, dep);
    if (!p) return;
    const { status } = stageOf(p, stepOf(p));
    if (status !== 'QUEUED' && status !== 'RUNNING')
      return ctx.error(409, `The preview has already ended (${status}).`);
    p.cancelledAt = Date.now();
    await ctx.json(200, statusOf(ctx.params.previewId!, p));
  });

  on('GET', `${previews}/:previewId/result`, async (ctx, dep) => {
    const p = await preview(ctx, dep);
    if (!p) return;
    const s = stageOf(p, stepOf(p));
    if (s.status !== 'COMPLETED')
      return ctx.error(409, `The preview has no result: it is ${s.status.toLowerCase()}.`);
    await ctx.json(200, {
      previewId: ctx.params.previewId,
      deploymentId: p.deploymentId,
      dataSourceName: p.dataSourceName,
      buildJobId: p.buildJobId,
      commit: null,
      completedAt: iso(s.at),
      durationMs: s.at - p.startedAt,
      version: 2,
      outcome: 'success',
      sourceSha256: p.key,
      views: p.views,
      runtime: RUNTIME,
    });
  });
}

/** What the documents require beyond the schema: `selected` names views, `pattern` gives a safe regex. */
function selectionRefused(input: {
  selectionMode: string;
  viewNames?: string[] | null;
  viewNameRegex?: string | null;
}): string | undefined {
  if (input.selectionMode === 'selected' && !input.viewNames?.length)
    return 'selectionMode "selected" needs viewNames: name the views to publish.';
  if (input.selectionMode !== 'pattern') return undefined;
  const re = input.viewNameRegex;
  if (!re) return 'selectionMode "pattern" needs viewNameRegex.';
  // Literals, ^, $, dot and one .* wildcard; grouping, alternation, lookaround and backreferences are refused.
  if (/[()|[\]{}\\+?]/.test(re.replace(/\.\*/g, '')) || (re.match(/\.\*/g) ?? []).length > 1)
    return `viewNameRegex "${re}" is outside the supported subset: literals, ^, $, "." and one ".*".`;
  return undefined;
}
