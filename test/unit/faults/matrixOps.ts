// The fault matrix's newer operations (matrix.test.ts runs them in the same cells as the first
// ones): workspace folders, reports and workbooks, notification items, deployment ops,
// administration and the build API. Reads return what must stay the same under every fault that
// lets them succeed (a projection when the rest may move, like a job's progress); a write that
// consumes its target (a delete) gets a fresh one from `prepare`, run before the fault is set and
// not counted as the write's request.
import * as assert from 'node:assert/strict';
import type { BuildClient, PlatformClient } from '../../../src/api';

export type Family = 'platform' | 'data' | 'ai';
export interface Op {
  name: string;
  family: Family;
  write: boolean;
  /** The request's route, for fault rules (a substring of the family-relative path). */
  route: string;
  /** True when the answer is an NDJSON stream (the stream faults apply). */
  stream?: boolean;
  /** True when the answer has no body (204): a reset after the status is a known success. */
  noBody?: boolean;
  /** True when the answer's body is never read (a 200 whose body is ignored): an empty one is a success. */
  bodyIgnored?: boolean;
  /** Runs before the fault is set, uncounted: makes what the write consumes. */
  prepare?(): Promise<void>;
  run(): Promise<unknown>;
  /** What a success must equal (reads), or satisfy (writes). */
  check?(value: unknown): void;
}

const ids = (page: { items: { id: number | string }[] }) => page.items.map((i) => i.id);

/** The first platform reads: deployments, environments, workspace lists, notifications, dbt, users. */
export function platformReads(
  platform: PlatformClient,
  ctx: { reportId: number; notificationId: number; syncJobId: string },
): Op[] {
  const p = (name: string, route: string, run: () => Promise<unknown>): Op => ({
    name,
    family: 'platform',
    write: false,
    route,
    run,
  });
  return [
    p('listDeployments', '/v1/deployments', () => platform.listDeployments()),
    p('getDeployment', '/v1/deployments/1', () => platform.getDeployment(1)),
    p('listEnvironments', '/environments', () => platform.listEnvironments(1)),
    p('listEnvVars', '/env-vars', () => platform.listEnvVars(1)),
    p('listFolders', '/folders', () => platform.listFolders(1)),
    p('listReports', '/reports', () => platform.listReports(1, { first: 5 })),
    p('getReport', `/reports/${ctx.reportId}`, () => platform.getReport(1, ctx.reportId)),
    p('listWorkbooks', '/workbooks', () => platform.listWorkbooks(1, { first: 5 })),
    p('getWorkbook', '/workbooks/1002', () => platform.getWorkbook(1, 1002)),
    p('listNotifications', '/notifications', () => platform.listNotifications(1, { first: 5 })),
    p('listRecipients', '/recipients', () => platform.listRecipients(1, ctx.notificationId)),
    p('getDbtSyncJob', '/dbt-sync/', async () => (await platform.getDbtSyncJob(1, ctx.syncJobId)).syncJobId),
    p('getAppConfig', '/v1/app-config', () => platform.getAppConfig()),
    p('listUsers', '/scim/v2/Users', () => platform.listUsers()),
  ];
}

/** Reads: retried per the policy; each cell's success must equal the baseline. */
export function newerReads(platform: PlatformClient, build: BuildClient, ctx: { folderId: number }): Op[] {
  const p = (name: string, route: string, run: () => Promise<unknown>): Op => ({
    name,
    family: 'platform',
    write: false,
    route,
    run,
  });
  return [
    p(
      'listWorkspace',
      '/workspace',
      async () => (await platform.listWorkspace(1, { first: 20 })).items.length,
    ),
    p('getFolderAncestors', '/ancestors', () => platform.getFolderAncestors(1, ctx.folderId)),
    p('getNotification', '/notifications/', async () => {
      const first = (await platform.listNotifications(1, { first: 1 })).items[0]!;
      return (await platform.getNotification(1, first.id)).id;
    }),
    p('getEmbedAccess', '/embed-access', () => platform.getEmbedAccess(1, 1002)),
    p('ops.listDbtSyncs', '/dbt-sync', async () => (await platform.ops.listDbtSyncs(1)).items.length > 0),
    p('ops.getBuildStatus', '/build-status', async () => typeof (await platform.ops.getBuildStatus(1))),
    p('ops.listVersions', '/versions', async () =>
      (await platform.ops.listVersions(1)).items.map((v) => v.version),
    ),
    p('ops.listPods', '/pods', async () => (await platform.ops.listPods(1)).items.length),
    p('admin.listRoles', '/v1/roles', async () => ids(await platform.admin.listRoles())),
    p('admin.listScimGroups', '/Groups', async () => (await platform.admin.listScimGroups()).items.length),
    p('admin.getTenantSettings', '/tenant/settings', () => platform.admin.getTenantSettings()),
    p('admin.listRegions', '/v1/regions', async () => (await platform.admin.listRegions()).items.length),
    p('build.listFiles', '/data-model/files', async () => (await build.listFiles(1)).map((f) => f.path)),
    p('build.fileHashes', '/file-hashes', async () => [...(await build.fileHashes(1)).entries()]),
    p('build.listBranches', '/branches', async () => (await build.allBranches(1)).map((b) => b.name)),
  ];
}

/** Writes: never retried, sent exactly once; a failure after sending is an unknown outcome. */
export function newerWrites(
  platform: PlatformClient,
  build: BuildClient,
  ctx: { folderId: number; reportId: number; workbookId: number; roleId: number; userId: number },
): Op[] {
  let n = 0;
  const fresh = (kind: string) => `Matrix ${kind} ${++n}`;
  let target = 0;
  const w = (op: Omit<Op, 'family' | 'write'>): Op => ({ family: 'platform', write: true, ...op });
  const hasId = (v: unknown) => assert.ok((v as { id: number }).id > 0, 'the answer names the item');
  return [
    w({
      name: 'createFolder',
      route: '/folders',
      run: () => platform.createFolder(1, { name: fresh('folder') }),
      check: hasId,
    }),
    w({
      name: 'renameFolder',
      route: '/folders/',
      run: () => platform.renameFolder(1, ctx.folderId, { name: fresh('renamed') }),
      check: hasId,
    }),
    w({
      name: 'deleteFolder',
      bodyIgnored: true,
      route: '/folders/',
      prepare: async () => void (target = (await platform.createFolder(1, { name: fresh('doomed') })).id),
      run: () => platform.deleteFolder(1, target),
    }),
    w({
      name: 'createReport',
      route: '/reports',
      run: () => platform.createReport(1, { name: fresh('report'), sqlQuery: 'SELECT 1' }),
      check: hasId,
    }),
    w({
      name: 'updateReport',
      route: '/reports/',
      run: () => platform.updateReport(1, ctx.reportId, { title: fresh('title') }),
      check: hasId,
    }),
    w({
      name: 'deleteReport',
      bodyIgnored: true,
      route: '/reports/',
      prepare: async () =>
        void (target = (await platform.createReport(1, { name: fresh('doomed'), sqlQuery: 'SELECT 1' })).id),
      run: () => platform.deleteReport(1, target),
    }),
    w({
      name: 'createWorkbook',
      route: '/workbooks',
      run: () => platform.createWorkbook(1, { name: fresh('workbook') }),
      check: hasId,
    }),
    w({
      name: 'updateWorkbook',
      bodyIgnored: true,
      route: '/workbooks/',
      run: () => platform.updateWorkbook(1, ctx.workbookId, { name: fresh('workbook') }),
      check: (v) => assert.ok(typeof v === 'number' && v >= 200 && v < 300, 'a 2xx status'),
    }),
    w({
      name: 'deleteWorkbook',
      bodyIgnored: true,
      route: '/workbooks/',
      prepare: async () => void (target = (await platform.createWorkbook(1, { name: fresh('doomed') })).id),
      run: () => platform.deleteWorkbook(1, target),
    }),
    w({
      name: 'updateNotification',
      route: '/notifications/',
      prepare: async () =>
        void (target = (
          await platform.createNotification(1, {
            dashboardId: 1001,
            scheduleType: 'DAILY',
            hour: 9,
            minute: 0,
          })
        ).id),
      run: () => platform.updateNotification(1, target, { hour: 10 }),
      check: (v) => assert.equal((v as { id: number }).id, target),
    }),
    w({
      name: 'deleteNotification',
      route: '/notifications/',
      noBody: true,
      prepare: async () =>
        void (target = (
          await platform.createNotification(1, {
            dashboardId: 1001,
            scheduleType: 'DAILY',
            hour: 9,
            minute: 0,
          })
        ).id),
      run: () => platform.deleteNotification(1, target),
    }),
    w({
      name: 'admin.assignRole',
      route: '/v1/roles/',
      noBody: true,
      run: () => platform.admin.assignRole(ctx.roleId, ctx.userId),
    }),
    w({
      name: 'admin.removeRole',
      route: '/v1/roles/',
      noBody: true,
      run: () => platform.admin.removeRole(ctx.roleId, ctx.userId),
    }),
    w({
      name: 'build.createBranch',
      route: '/branches',
      run: () => build.createBranch(1, { name: `matrix-${++n}`, from: 'main' }),
      check: (v) => assert.equal((v as { parentBranch?: string }).parentBranch, 'main'),
    }),
  ];
}
