// The fault matrix's cells of the operation rows (src/api/platform/*: every `declaredOperations()`
// row), built from the row alone, so a row is in the matrix the moment it is declared:
// - the base URL is that of the sandbox route serving the row, and the fault is set on that
//   route's shape and method only;
// - a path parameter is a live one: the first item of the list row of its collection (the path
//   before it), else one made by the collection's create row, else the same collection listed
//   elsewhere, else PARAMS below (with a reason);
// - the body (and a required query) is synthesized from the row's zod input schema, fresh per call,
//   with the live ids for fields named like them (FIELDS for the few named otherwise);
// - a destroy (or a write ROWS says consumes) gets a fresh target in `prepare`, uncounted: from
//   its collection's create row, the create row of its own path (a target named in its input),
//   the PUT that puts what it removes, or else the last listed item the matrix did not make;
// - a read returns what it returned without the fault (a stable projection where ROWS says the
//   data moves); a write's success has the shape of its success without the fault.
// A row none of this can serve is returned in `missing` with the reason, and a test fails on it.
import * as assert from 'node:assert/strict';
import type { z } from 'zod';
import { multipartBody } from '../../../src/api/platform/build/upload';
import { deploymentBody } from '../contract/caseChecks';
import { EMBED_DASHBOARD_USER } from '../../../src/api/platform/embedDashboards';
import { callOperation, declaredOperations, type Operation } from '../../../src/api/platform/operation';
import '../../../src/api/platform/rows';
import type { PlatformTransport } from '../../../src/api/platform/transport';
import type { PlatformClient } from '../../../src/api';
import type { Op } from './matrixOps';
import { synthesize, type SynthContext } from './synthesize';

export interface RowCellDeps {
  /** The sandbox's routes (`sb.routes()`), each with the row it checks. */
  routes: readonly { family: string; method: string; pattern: string; operation?: { name: string } }[];
  /** The platform API's base URL (`…/api`); the origin of the other bases. */
  platformUrl: string;
  /** The transport the cells run through (short deadlines, faults set), by base URL (and token). */
  cellTransport(baseUrl: string, token?: string): PlatformTransport;
  /** A transport for look-ups and `prepare`, by base URL (and token: the admin's unless given). */
  setupTransport(baseUrl: string, token?: string): PlatformTransport;
  /** The status of the last answer the cell transports read (a 204 has no body to cut). */
  lastStatus(): number | undefined;
  resetStatus(): void;
  /** For PARAMS whose values no row finds yet. */
  platform: PlatformClient;
}

/** A row's cell, and its last run: what it sent (path arguments, inputs: body, then query) and got. */
export type RowCell = Op & {
  row: string;
  op: Operation;
  last?: { args: unknown[]; inputs: unknown[]; value?: unknown };
};

export interface RowCells {
  cells: RowCell[];
  /** Rows without a cell: `name (METHOD path): why`. */
  missing: string[];
  /** PARAMS or ROWS entries no row used (a row now finds the value itself: delete the entry). */
  unused: string[];
  /** Calls a row as the look-ups do (its base URL and token, never faulted), with the inputs given. */
  call(op: Operation, args: readonly unknown[], inputs: readonly unknown[]): Promise<unknown>;
}

interface Lookup {
  /** A live value of a path parameter, from a row of the given collection path. */
  fromCollection(collection: string, param: string, prefixArgs: readonly unknown[]): Promise<unknown>;
  platform: PlatformClient;
  /** The collection path of the row asking (a parameter name may mean different things in two). */
  collection: string;
}

/**
 * Path parameters the rows cannot find by their collection, by parameter name, each with why and
 * how it is found instead.
 */
const PARAMS: Record<string, { why: string; find(l: Lookup): Promise<unknown> }> = {
  userId: {
    why: 'a role is given to a platform user (/v1/roles/{roleId}/users/{userId} is no collection): one made through /v1/users, which answers its numeric id',
    find: async (l) =>
      (
        await l.platform.admin.createUser({
          email: `matrix-${Date.now()}@example.com`,
          username: `matrix-${Date.now()}`,
        })
      ).id,
  },
  slug: {
    why: 'a workbook upserted by its slug is made under any slug it is given: a fresh one',
    find: async () => `matrix-slug-${Date.now()}`,
  },
  owner: {
    why: "a GitHub repository is named by its owner (an installation's login) and name in the path; no list row is at /v1/github/repositories: the first installation's login",
    find: async (l) => (await l.platform.listGithubInstallations({ first: 1 })).items[0]?.login,
  },
  repo: {
    why: "a GitHub repository's name, as the first installation lists its repositories",
    find: async (l) => {
      const i = (await l.platform.listGithubInstallations({ first: 1 })).items[0];
      return (
        i && (await l.platform.listGithubRepositories(Number(i.installationId), { first: 1 })).items[0]?.name
      );
    },
  },
  dataSourceName: {
    why: "a deployment's Databricks data sources are listed by no published operation: the sandbox's `default`, its Metric View settings saved first (version 0 creates them) so the read finds them",
    find: async (l) => {
      const d = Number(await l.fromCollection('/v1/deployments', 'deploymentId', []));
      await l.platform.ops
        .saveMetricViewIntegration(d, 'default', { ...MATRIX_METRIC_VIEWS, expectedConfigurationVersion: 0 })
        .catch(() => undefined);
      return 'default';
    },
  },
  publicId: {
    why: 'two things are named by a public id and no row lists either: a report upserted by its publicId is made under any 12-character id it is given (a fresh one); an embeddable dashboard is the published dashboard of deployment 1 holding the seeded python report',
    find: async (l) =>
      l.collection.includes('/reports/by-public-id')
        ? `mx${Date.now().toString(36)}`.padEnd(12, '0').slice(0, 12)
        : (await pythonSnapshot(l))?.publicId,
  },
};

/** Databricks Metric View settings the matrix saves (at the version the settings are at). */
const MATRIX_METRIC_VIEWS = {
  enabled: true,
  targetCatalog: 'main',
  targetSchema: 'matrix',
  selectionMode: 'all' as const,
};

/** A deployment the matrix creates (in a region the sandbox lists). */
const MATRIX_DEPLOYMENT = deploymentBody('matrix deployment');

/** Embed tenant names the matrix's sandbox seeds beside its own (see ROWS.deleteEmbedTenant). */
export const MATRIX_EMBED_TENANTS = Array.from({ length: 20 }, (_, i) => `matrix-tenant-${i + 1}`);

/**
 * Makes an item through its collection's create row (`/v1/deployments/{deploymentId}/folders`), or
 * through the row of `method` at that path with the input given.
 */
type Make = (
  collection: string,
  args: readonly unknown[],
  input?: { method: string; input: unknown },
) => Promise<Record<string, unknown>>;

const BUILD = '/build/api/v1/deployments/{deploymentId}';
/** A fresh branch of the deploy branch (no changes of its own), its name. */
const freshBranch = async (make: Make, live: Readonly<Record<string, unknown>>, activate = false) => {
  const name = `matrix-b${Date.now().toString(36)}${Math.random().toString(36).slice(2, 6)}`;
  await make(`${BUILD}/branches`, [live.deploymentId], {
    method: 'POST',
    input: { name, from: 'main', activate },
  });
  return name;
};
/** A fresh branch holding one file of its own (uncommitted), and the file's path. */
const branchWithFile = async (make: Make, live: Readonly<Record<string, unknown>>, activate = false) => {
  const branchName = await freshBranch(make, live, activate);
  const path = `model/cubes/${branchName}.yml`;
  await make(`${BUILD}/data-model/files`, [live.deploymentId], {
    method: 'PUT',
    input: { branchName, files: [{ path, content: 'cubes: []\n' }] },
  });
  return { branchName, path };
};

/** The build rows whose writes need a branch, file or transaction in a given state. */
const BUILD_ROWS: Record<string, (typeof ROWS)[string]> = {
  removeFiles: {
    why: "it deletes the files it names, not its path's deployment (kept): a fresh branch with a file of its own a cell",
    keeps: true,
    freshInput: async (make, live) => {
      const { branchName, path } = await branchWithFile(make, live);
      return { branchName, files: [{ path }] };
    },
  },
  renameFiles: {
    why: 'it renames files that must exist: a fresh branch with a file of its own a cell',
    freshInput: async (make, live) => {
      const { branchName, path } = await branchWithFile(make, live);
      return { branchName, files: [{ path, newPath: path.replace(/\.yml$/, '-renamed.yml') }] };
    },
  },
  commit: {
    why: "it commits the caller's dev-mode branch, which must have changes: a fresh branch entered in dev mode with a file a cell",
    freshInput: async (make, live) => {
      await branchWithFile(make, live, true);
      return { message: 'Matrix commit' };
    },
  },
  pull: {
    why: 'it pulls a branch that exists and has a parent: the seeded staging branch (of main)',
    input: () => ({ branchName: 'staging' }),
  },
  setBranchStagingEnvironment: {
    why: 'only a shared branch that exists has a staging environment: the seeded staging branch',
    input: () => ({ branchName: 'staging', enabled: true }),
  },
  mergeIntoParent: {
    why: 'a merge needs a branch with a parent and nothing uncommitted: a fresh branch of main a cell',
    freshInput: async (make, live) => ({ branchName: await freshBranch(make, live) }),
  },
  mergeToDefault: {
    why: 'a merge needs a branch other than the deploy branch with nothing uncommitted: a fresh branch a cell',
    freshInput: async (make, live) => ({
      branchName: await freshBranch(make, live),
      message: 'Matrix merge',
    }),
  },
  finishUpload: {
    why: 'it finishes an open transaction (once): a fresh one a cell, listing nothing and removing nothing',
    freshInput: async (make, live) => {
      const started = await make(`${BUILD}/data-model/upload/start`, [live.deploymentId]);
      return { transaction: started.transaction, files: {}, autoRemoveFiles: false };
    },
  },
  uploadFile: {
    why: 'its body is a multipart form (callForm), into an open transaction: a fresh one a cell',
    freshInput: async (make, live) => make(`${BUILD}/data-model/upload/start`, [live.deploymentId]),
    send: (t, op, args, started) => {
      const fields = {
        transaction: (started as { transaction: { id: string } }).transaction.id,
        fileName: 'model/cubes/matrix-upload.yml',
      };
      const form = {
        fields,
        ...multipartBody(fields, { name: fields.fileName, content: Buffer.from('cubes: []\n') }),
      };
      return callOperation(t, op, [...args, {}], undefined, form);
    },
  },
};

/** Rows that need more than the generic cell, each with why. */
const ROWS: Record<
  string,
  {
    why: string;
    /** The read's data moves between calls: compare this projection of it instead. */
    project?(value: unknown): unknown;
    /** The write consumes its target (as a destroy does): a fresh one per cell. */
    consumes?: true;
    /** The destroy leaves nothing a second call needs: every cell destroys the same target. */
    keeps?: true;
    /** The fresh target of a destroy that no row makes. */
    fresh?(): unknown;
    /** The body of the create row making a fresh target, where the synthesized one makes one unfit. */
    createInput?: unknown;
    /** The path of the create row making a fresh target, where it is not the target's collection. */
    createAt?: string;
    /** The input, from the live values, where its fields name items synthesis cannot know. */
    input?(live: Readonly<Record<string, unknown>>): unknown;
    /** The input made before each cell (uncounted), where what the write consumes is in its body. */
    freshInput?(make: Make, live: Readonly<Record<string, unknown>>): Promise<unknown>;
    /** How the row is sent, where its body is no JSON the row's schema makes (a multipart form). */
    send?(t: PlatformTransport, op: Operation, args: unknown[], input: unknown): Promise<unknown>;
  }
> = {
  ...BUILD_ROWS,
  deleteEmbedTenant: {
    why: 'no published operation makes an embed tenant: the sandbox seeds MATRIX_EMBED_TENANTS, one a cell',
    fresh: (() => {
      let i = 0;
      return () => MATRIX_EMBED_TENANTS[i++];
    })(),
  },
  upsertReportByPublicId: {
    why: 'a report is created under a fresh public id only with a name (every field of the published input is optional)',
    input: () => ({ name: 'Matrix report as code', sqlQuery: 'SELECT 1' }),
  },
  exchangeEmbedSession: {
    why: 'an embed session is redeemed once: a fresh one a cell, generated by the admin',
    freshInput: async (make, live) => ({
      sessionId: (
        await make('/v1/embed/generate-session', [], {
          method: 'POST',
          input: {
            deploymentId: live.deploymentId ?? 1,
            externalId: 'matrix-embed',
            embedTenantName: 'acme',
          },
        })
      ).sessionId,
    }),
  },
  runDashboardPython: {
    why: 'it re-runs a published python report: the seeded snapshot (FIELDS.reportVersionId, FIELDS.pythonReportId)',
    input: (live) => ({
      reportId: live.pythonReportId,
      reportVersionId: live.reportVersionId,
      sqlQuery: 'SELECT status, MEASURE(count) FROM orders GROUP BY 1',
    }),
  },
  revokeUserOAuthToken: {
    why: "no published operation makes a user's OAuth token (initiate only starts the browser flow), and a revoke of a token not held is answered as done",
    keeps: true,
  },
  cancelDbtSync: {
    why: 'a run is cancelled once (then it is "not running any more", 409), and only a run on the branch "slow" is still running when the cancel comes',
    consumes: true,
    createInput: { branchName: 'slow' },
  },
  getLogs: {
    why: 'the log tail grows while the matrix runs: the pods its lines come from, and that it has lines',
    project: (v) => {
      const lines = (v as { items: { pod?: string | null }[] }).items;
      return { lines: lines.length > 0, pods: [...new Set(lines.map((l) => l.pod))].sort() };
    },
  },
  moveWorkspaceItem: {
    why: 'an item is named by its type and id (no field says which live id): the live report, into the live folder',
    input: (live) => ({ type: 'REPORT', id: live.reportId, folderId: live.folderId }),
  },
  bulkMoveWorkspaceItems: {
    why: 'items are named by type and id (no field says which live id): the live report, into the live folder',
    input: (live) => ({ items: [{ type: 'REPORT', id: live.reportId }], folderId: live.folderId }),
  },
  saveMetricViewIntegration: {
    why: 'settings are saved with optimistic versioning: each cell sends the version the settings are at (read before it)',
    freshInput: async (make, live) => {
      const settings = '/v1/deployments/{deploymentId}/databricks-metric-view-integrations/{dataSourceName}';
      const read = await make(settings, [live.deploymentId, 'default'], { method: 'GET', input: undefined });
      return { ...MATRIX_METRIC_VIEWS, expectedConfigurationVersion: read.configurationVersion };
    },
  },
  getMetricViewIntegration: {
    why: 'the save cells move the settings’ version and timestamps: what they say, and that they are versioned',
    project: (v) => {
      const { configurationVersion, updatedAt: _u, ...rest } = v as Record<string, unknown>;
      return { ...rest, versioned: typeof configurationVersion === 'number' };
    },
  },
  cancelMetricViewPreview: {
    why: 'only a running preview can be cancelled: one on the sandbox’s slow data source, fresh a cell',
    createInput: { dataSourceName: 'slow', selectionMode: 'all' },
  },
  deleteDeployment: {
    why: 'it deletes the deployment every other row works in: a deployment created through the build API a cell',
    createAt: '/build/api/v1/deployments',
    createInput: MATRIX_DEPLOYMENT,
  },
  createDeployment: {
    why: 'a deployment is created in a region the account lists (synthesis cannot know one)',
    input: () => MATRIX_DEPLOYMENT,
  },
  connectGithub: {
    why: "connecting replaces the deployment's repository (the live one serves the build rows): a created deployment a cell, and a repository the linked GitHub account has",
    consumes: true,
    createAt: '/build/api/v1/deployments',
    createInput: MATRIX_DEPLOYMENT,
    input: () => ({ installationId: 41001, name: 'cube-models' }),
  },
  updateDeployment: {
    why: 'a synthesized setting may name a region, version or branch that does not exist: one setting any deployment takes, merged into its template variables',
    input: () => ({ templateVariables: { MATRIX: '1' } }),
  },
  listGithubBranches: {
    why: "the installation is a required query value (synthesis cannot know one): the first installation's",
    input: () => ({ installationId: 41001 }),
  },
  addEmbedGroupMembers: {
    why: 'a member is named by one of two fields (embedUserId or externalId, exactly one): an external id, which the add provisions',
    input: () => ({ members: [{ externalId: 'matrix-member' }] }),
  },
  removeEmbedGroupMembers: {
    why: 'a member is named by one of two fields (embedUserId or externalId, exactly one): the external id the add uses; removing a non-member is a no-op, so every cell removes the same one',
    input: () => ({ members: [{ externalId: 'matrix-member' }] }),
    keeps: true,
  },
  bulkDeleteWorkspaceItems: {
    why: 'it deletes the items in its body: a fresh folder a cell (the live ones serve the other rows)',
    freshInput: async (make, live) => ({
      items: [
        {
          type: 'FOLDER',
          id: (await make('/v1/deployments/{deploymentId}/folders', [live.deploymentId])).id,
        },
      ],
    }),
  },
};

/** The first published report snapshot with python code (of deployment 1). */
async function pythonSnapshot(
  l: Lookup,
): Promise<{ publicId: string; id: number; reportId: number } | undefined> {
  for (const w of (await l.platform.listWorkbooks(1, { first: 200 })).items) {
    const pub = w.publishedDashboard as {
      publicId: string;
      reportSnapshots?: Record<string, unknown>[];
    } | null;
    const s = pub?.reportSnapshots?.find((x) => typeof x.pythonCode === 'string');
    if (pub && s) return { publicId: pub.publicId, id: Number(s.id), reportId: Number(s.reportId) };
  }
  return undefined;
}

/** Body fields named otherwise than the path parameter whose live value they take, each with why. */
const FIELDS: Record<string, { why: string; find(l: Lookup): Promise<unknown> }> = {
  userAttributeId: {
    why: "a user's attribute value names the attribute: the first listed",
    find: (l) => l.fromCollection('/v1/user-attributes', 'id', []),
  },
  reportVersionId: {
    why: 'a python re-run names a published report snapshot holding python code: the one the sandbox seeds on the first published dashboard',
    find: async (l) => (await pythonSnapshot(l))?.id,
  },
  pythonReportId: {
    why: 'the same snapshot’s report (runDashboardPython takes it as reportId, which other rows take from the reports list)',
    find: async (l) => (await pythonSnapshot(l))?.reportId,
  },
  dataSourceName: {
    why: 'a preview names a Databricks data source in its body: the sandbox’s `default` (PARAMS.dataSourceName)',
    find: async () => 'default',
  },
  dashboardId: {
    why: 'a dashboard is a published workbook, named by its id: the first listed (a published one)',
    find: async (l) =>
      l.fromCollection('/v1/deployments/{deploymentId}/workbooks', 'id', [
        await l.fromCollection('/v1/deployments', 'deploymentId', []),
      ]),
  },
};

const PARAM = /\{([^}]+)\}/g;
const paramsOf = (path: string) => [...path.matchAll(PARAM)].map((m) => m[1]!);
const shapeOf = (path: string) => path.replace(PARAM, ':p').replace(/:[^/]+/g, ':p');

class CannotBuild extends Error {}

/** The fields of an object schema (none for another schema). */
const shapeKeys = (schema: z.ZodType | undefined): Record<string, unknown> =>
  (schema as unknown as { shape?: Record<string, unknown> } | undefined)?.shape ?? {};

const isItem = (v: unknown): v is Record<string, unknown> =>
  !!v && typeof v === 'object' && !Array.isArray(v);

/** The items of a list answer: a page's, an array's, or an envelope's (SCIM's `Resources`). */
function itemsOf(answer: unknown): Record<string, unknown>[] {
  const list = Array.isArray(answer)
    ? answer
    : isItem(answer)
      ? Object.values(answer).find((v): v is unknown[] => Array.isArray(v) && isItem(v[0]))
      : undefined;
  return (list ?? []).filter(isItem);
}
const firstItem = (answer: unknown) => itemsOf(answer)[0];

/** The field of an item that names it as `param`: the same name, else its id (or name for `…Name`). */
function pick(item: Record<string, unknown> | undefined, param: string): unknown {
  if (!item) return undefined;
  if (item[param] !== undefined) return item[param];
  if (/Name$/.test(param) && item.name !== undefined) return item.name;
  return item.id ?? item.name;
}

/** What a success looks like, to compare a write's success under a fault with the one without. */
function successShape(v: unknown): string {
  if (typeof v === 'number') return v >= 200 && v < 300 ? 'a 2xx status' : `status ${v}`;
  if (Array.isArray(v)) return 'array';
  if (v && typeof v === 'object') return `object {${Object.keys(v).sort().join(',')}}`;
  return typeof v;
}

export async function rowCells(deps: RowCellDeps): Promise<RowCells> {
  const rows = declaredOperations();
  const origin = new URL(deps.platformUrl).origin;
  const missing: string[] = [];
  const used = new Set<string>();
  let n = 0;
  const live: Record<string, unknown> = {};
  const synth: SynthContext = { live, fresh: () => ++n };

  /** The sandbox route serving a row, its base URL and the fault route of its shape. */
  function servedAt(op: Operation): { base: string; route: string } {
    const route = deps.routes.find(
      (r) => (r.operation as { op?: Operation } | undefined)?.op === op && r.method === op.method,
    );
    if (!route) throw new CannotBuild('no sandbox route checks and serves it');
    const rs = route.pattern.split('/').filter(Boolean);
    const os = op.path.split('/').filter(Boolean);
    const extra = rs.length - os.length;
    if (extra < 0 || shapeOf(`/${rs.slice(extra).join('/')}`) !== shapeOf(op.path))
      throw new CannotBuild(`its sandbox route ${route.pattern} is not its path`);
    const prefix = extra > 0 ? `/${rs.slice(0, extra).join('/')}` : '';
    const escaped = route.pattern.replace(/[.*+?^$()|[\]\\]/g, '\\$&').replace(/:[^/]+/g, '[^/]+');
    return {
      // Routes of the platform family are relative to its URL, but for the build rows, which carry
      // their published path whole and are sent from the tenant's root as BuildClient sends them;
      // another base keeps its whole path.
      base: prefix !== '' ? `${origin}${prefix}` : op.path.startsWith('/build/') ? origin : deps.platformUrl,
      route: `/^${escaped}$/`,
    };
  }

  const rowAt = (method: string, path: string) =>
    rows.find((r) => r.op.method === method && r.op.path === path);

  /**
   * The inputs the row takes after its path (its body, then its query), made fresh for each call
   * from its schemas; `target` names the item a destroy of a collection path removes.
   */
  function inputOf(op: Operation, target?: () => Readonly<Record<string, unknown>>): () => unknown[] {
    const ctx = (): SynthContext => {
      const made = target?.() ?? {};
      const fromTarget = (k: string) =>
        made[k] ?? (/Name$/.test(k) ? made.name : /Id$/.test(k) ? made.id : undefined);
      const keys = [...Object.keys(shapeKeys(op.body)), ...Object.keys(shapeKeys(op.query))];
      const own = Object.fromEntries(
        keys.map((k) => [k, fromTarget(k)] as const).filter(([, v]) => v !== undefined),
      );
      return { ...synth, live: { ...live, ...own } };
    };
    const make = (schema: z.ZodType, what: string, optional: boolean): (() => unknown) => {
      // A query is sent only where the row requires one (its optional parameters stay unsent).
      if (optional && !target && schema.safeParse({}).success) return () => ({});
      if (!synthesize(schema, ctx()))
        throw new CannotBuild(`no value its ${what} schema accepts could be made`);
      return () => synthesize(schema, ctx())!.value;
    };
    const parts = [
      ...(op.body ? [make(op.body, 'body', false)] : []),
      ...(op.query ? [make(op.query, 'query', true)] : []),
    ];
    return () => parts.map((p) => p());
  }

  /**
   * The embed user's rows need an embed token (an API key gets 403 there): one redeemed from a
   * creator-mode session, so the dashboard's signed-embedding flag (another row's cell) never hides it.
   */
  const embedRows = new Set<Operation>(Object.values(EMBED_DASHBOARD_USER));
  let embedToken: Promise<string> | undefined;
  const tokenFor = (op: Operation): Promise<string | undefined> | undefined =>
    !embedRows.has(op)
      ? undefined
      : (embedToken ??= (async () => {
          const { sessionId } = await deps.platform.admin.generateEmbedSession({
            deploymentId: 1,
            externalId: 'matrix-embed-user',
            embedTenantName: 'acme',
            creatorMode: true,
            tenantGroups: ['viewers'],
          });
          return (await deps.platform.exchangeEmbedSession({ sessionId })).token;
        })());

  const cache = new Map<string, Promise<unknown>>();
  async function call(op: Operation, args: unknown[], input = inputOf(op)): Promise<unknown> {
    const t = deps.setupTransport(servedAt(op).base, await tokenFor(op));
    return callOperation(t, op, [...args, ...input()]);
  }

  /** A live value for `param` from the rows of `collection` (list first, else create). */
  function fromCollection(
    collection: string,
    param: string,
    prefixArgs: readonly unknown[],
  ): Promise<unknown> {
    const key = `${collection} ${JSON.stringify(prefixArgs)} ${param}`;
    let p = cache.get(key);
    if (!p) {
      p = (async () => {
        const list = rowAt('GET', collection);
        if (list) {
          const value = pick(firstItem(await call(list.op, [...prefixArgs])), param);
          if (value !== undefined) return value;
        }
        // A create that refuses what is made for it (an upsert naming other items) leaves the
        // other ways to try.
        const create = rowAt('POST', collection);
        const made = create ? await call(create.op, [...prefixArgs]).catch(() => undefined) : undefined;
        if (made !== undefined) return pick(made as never, param);
        // The same collection listed elsewhere, under fewer parameters (a deployment's embed
        // tenants are the account's: /v1/embed-tenants).
        const name = collection.slice(collection.lastIndexOf('/'));
        const names = paramsOf(collection);
        const elsewhere = rows.find(
          (r) =>
            r.op.method === 'GET' &&
            r.op.path !== collection &&
            r.op.path.endsWith(name) &&
            paramsOf(r.op.path).every((p) => names.includes(p)),
        );
        if (!elsewhere) return undefined;
        const args = paramsOf(elsewhere.op.path).map((p) => prefixArgs[names.indexOf(p)]);
        return pick(firstItem(await call(elsewhere.op, args)), param);
      })();
      cache.set(key, p);
    }
    return p;
  }

  /** The path arguments of a row, each a live value (the last one left for `prepare` to make). */
  async function argsOf(op: Operation, skipLast: boolean): Promise<unknown[]> {
    const names = paramsOf(op.path);
    const args: unknown[] = [];
    for (const [i, param] of names.entries()) {
      if (skipLast && i === names.length - 1) {
        args.push(undefined);
        break;
      }
      const collection = op.path.slice(0, op.path.indexOf(`{${param}}`) - 1);
      let value = await fromCollection(collection, param, args);
      if (value === undefined && PARAMS[param]) {
        used.add(`PARAMS.${param}`);
        const key = `param ${param} of ${collection}`;
        if (!cache.has(key))
          cache.set(key, PARAMS[param].find({ fromCollection, platform: deps.platform, collection }));
        value = await cache.get(key);
      }
      if (value === undefined)
        throw new CannotBuild(`no live ${param}: no row lists or creates ${collection}, and PARAMS has none`);
      const text = op.text?.includes(param);
      // An id the list answers as text ("101", as environments' are) is the same id.
      if (!text && typeof value === 'string' && /^[1-9]\d*$/.test(value)) value = Number(value);
      if (!text && !(Number.isInteger(value) && (value as number) >= 1))
        throw new CannotBuild(`the live ${param} is not an id (${JSON.stringify(value)})`);
      // `id` names a different thing in each collection: no body field takes it by that name.
      if (param !== 'id') live[param] ??= value;
      args.push(text ? String(value) : value);
    }
    return args;
  }

  /**
   * What makes a fresh target for a row that consumes one: ROWS' `fresh`, else its collection's
   * create row (a new last path parameter), else the write that puts what it removes (a PUT of
   * the same path, as a role assignment: the same path arguments every cell).
   */
  function freshTarget(
    name: string,
    op: Operation,
  ): { whole: boolean; make(args: unknown[], target: Record<string, unknown>): Promise<void> } {
    // A destroy of a collection path names its target in its input: the create row of the same
    // path makes one, and the input takes its fields (`branchName` its name).
    const sibling = !op.path.endsWith('}') && !ROWS[name]?.createAt ? rowAt('POST', op.path) : undefined;
    if (sibling)
      return {
        whole: true,
        make: async (args, target) => {
          for (const k of Object.keys(target)) delete target[k];
          Object.assign(target, await call(sibling.op, args));
        },
      };
    const names = paramsOf(op.path);
    const last = names[names.length - 1];
    if (!last) throw new CannotBuild('it consumes its target but names none');
    const setLast = (args: unknown[], v: unknown) =>
      (args[args.length - 1] = op.text?.includes(last) ? String(v) : v);
    const fresh = ROWS[name]?.fresh;
    if (fresh) return { whole: false, make: async (args) => void setLast(args, fresh()) };
    const collection = op.path.slice(0, op.path.indexOf(`{${last}}`) - 1);
    const create = rowAt('POST', ROWS[name]?.createAt ?? collection);
    if (create) {
      const createInput = ROWS[name]?.createInput;
      const input = createInput !== undefined ? () => [createInput] : inputOf(create.op);
      return {
        whole: false,
        make: async (args) => {
          const made = pick((await call(create.op, args.slice(0, -1), input)) as never, last);
          if (made === undefined) throw new Error(`${create.name} answered no ${last}`);
          setLast(args, made);
        },
      };
    }
    const put = op.method !== 'PUT' ? rowAt('PUT', op.path) : undefined;
    if (put) {
      const input = inputOf(put.op);
      return { whole: true, make: async (args) => void (await call(put.op, args, input)) };
    }
    // Nothing makes one: each cell takes the last listed item that is neither the live one (the
    // first) nor one the matrix made (named "matrix…": other rows hold those), so the list must
    // hold one for each cell that consumes one.
    const list = rowAt('GET', collection);
    if (list) {
      return {
        whole: false,
        make: async (args) => {
          const items = itemsOf(await call(list.op, args.slice(0, -1)));
          const spare = items.slice(1).filter((i) => !/matrix/i.test(JSON.stringify(i)));
          const next = spare.length > 0 ? pick(spare[spare.length - 1], last) : undefined;
          if (next === undefined) throw new Error(`${list.name} lists no ${last} but the live one`);
          setLast(args, next);
        },
      };
    }
    throw new CannotBuild(
      `it consumes its ${last} and no row makes or lists one (POST or GET ${collection}, PUT ${op.path})`,
    );
  }

  const make: Make = async (collection, args, given) => {
    const create = rowAt(given?.method ?? 'POST', collection);
    if (!create) throw new Error(`no row creates ${collection}`);
    const input = given ? () => [given.input] : undefined;
    return (await call(create.op, [...args], input)) as Record<string, unknown>;
  };

  const cells: RowCell[] = [];
  // The fields' live values first: the bodies made while finding paths (a create) take them.
  for (const [field, { find }] of Object.entries(FIELDS)) {
    const value = await find({ fromCollection, platform: deps.platform, collection: '' }).catch(
      () => undefined,
    );
    if (value !== undefined) live[field] = value;
  }
  // Two passes: every row's path first (the live ids the bodies are made with), then the cells.
  const planned: {
    name: string;
    op: Operation;
    args: unknown[];
    fresh?: (args: unknown[], target: Record<string, unknown>) => Promise<void>;
  }[] = [];
  for (const { name, op } of rows) {
    try {
      const extra = ROWS[name];
      if (extra) used.add(`ROWS.${name}`);
      const consumes = (op.kind === 'destroy' && !extra?.keeps) || extra?.consumes === true;
      const target = consumes ? freshTarget(name, op) : undefined;
      const args = await argsOf(op, target ? !target.whole : false);
      planned.push({ name, op, args, ...(target ? { fresh: target.make } : {}) });
    } catch (e) {
      missing.push(`${name} (${op.method} ${op.path}): ${e instanceof CannotBuild ? e.message : String(e)}`);
    }
  }
  assert.ok(
    planned.length > 0 || missing.length > 0,
    'no operation row was planned: the tables did not load',
  );
  for (const { name, op, args, fresh } of planned) {
    try {
      const { base, route } = servedAt(op);
      const t = deps.cellTransport(base, await tokenFor(op));
      const extra = ROWS[name];
      let made: unknown;
      const target: Record<string, unknown> = {};
      const input = extra?.freshInput
        ? () => [made]
        : extra?.input
          ? () => [extra.input!(live)]
          : inputOf(op, fresh ? () => target : undefined);
      const prepare = async () => {
        if (fresh) await fresh(args, target);
        if (extra?.freshInput) made = await extra.freshInput(make, live);
      };
      const project = ROWS[name]?.project ?? ((v: unknown) => v);
      let shape: string | undefined;
      const cell: RowCell = {
        name,
        row: name,
        op,
        family: 'platform',
        write: op.kind !== 'read',
        route,
        method: op.method,
        ...(fresh || extra?.freshInput ? { prepare } : {}),
        run: async () => {
          deps.resetStatus();
          const inputs = input();
          const last: RowCell['last'] = { args: [...args], inputs };
          cell.last = last;
          const value = extra?.send
            ? await extra.send(t, op, args, inputs[0])
            : await callOperation(t, op, [...args, ...inputs]);
          last.value = value;
          // Learnt from the success without a fault (the first cell): a 204 has no body to cut or
          // empty, and an answer the row does not read may be empty.
          if (deps.lastStatus() === 204) cell.noBody = true;
          else if (!op.answer && !op.item) cell.bodyIgnored = true;
          return op.kind === 'read' ? project(value) : value;
        },
        ...(op.kind === 'read'
          ? {}
          : {
              check: (v: unknown) => {
                const s = successShape(v);
                if (shape === undefined) shape = s;
                else assert.equal(s, shape, 'the success has the shape of the one without a fault');
              },
            }),
      };
      cells.push(cell);
    } catch (e) {
      missing.push(`${name} (${op.method} ${op.path}): ${e instanceof CannotBuild ? e.message : String(e)}`);
    }
  }
  const unused = [
    ...Object.keys(PARAMS).map((k) => `PARAMS.${k}`),
    ...Object.keys(ROWS).map((k) => `ROWS.${k}`),
  ].filter((k) => !used.has(k));
  return { cells, missing, unused, call: (op, args, inputs) => call(op, [...args], () => [...inputs]) };
}
