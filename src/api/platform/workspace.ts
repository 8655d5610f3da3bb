// Folders, reports and workbooks of a deployment's workspace.
import { z } from 'zod';
import { ApiError } from '../errors';
import type { PageParams } from '../paging';
import { id, maybe, parseInput, positiveId, type PlatformTransport } from './transport';

export const FolderSchema = z.looseObject({
  id,
  name: z.string(),
  parentId: maybe(z.number().int()),
});
export type Folder = z.infer<typeof FolderSchema>;

export const ReportPlacementSchema = z.looseObject({
  workbookId: maybe(z.union([z.string(), z.number()])),
  resultLocation: maybe(z.string()),
  endResultCell: maybe(z.string()),
});

export const ReportSchema = z.looseObject({
  id,
  name: z.string(),
  publicId: maybe(z.string()),
  title: maybe(z.string()),
  folderId: maybe(z.number().int()),
  sqlQuery: maybe(z.string()),
  canEdit: maybe(z.boolean()),
  canManage: maybe(z.boolean()),
  externalWorkbookId: maybe(z.string()),
  externalWorkbookPlacements: maybe(z.array(ReportPlacementSchema)),
});
export type Report = z.infer<typeof ReportSchema>;

export const WorkbookSchema = z.looseObject({
  id,
  name: z.string(),
  slug: maybe(z.string()),
  // The dashboard editor reads these through its own tolerant file model.
  dashboardDraft: z.unknown().optional(),
  dashboardPublished: z.unknown().optional(),
  publishedDashboard: z.unknown().optional(),
});
export type Workbook = z.infer<typeof WorkbookSchema>;

// The workbook shape helpers are zod-free (the explorer's tree loads them at activation).
export { dashboardConfigOf, publishedDashboardOf } from './workbookShapes';

/** The published ConnectReportToWorkbookInput, the fields the extension sets. */
export const ConnectReportToWorkbookInputSchema = z.strictObject({
  externalWorkbookId: z.string().min(1),
  resultLocation: z.string().min(1),
  endResultCell: z.string().optional(),
});
export type ConnectReportToWorkbookInput = z.infer<typeof ConnectReportToWorkbookInputSchema>;

export const DuplicateWorkbookInputSchema = z.strictObject({ shared: z.boolean().optional() });

export type ReportSort = 'name' | 'createdAt' | 'updatedAt' | 'lastViewedAt';
/** The query parameters of getReports the extension uses (all published). */
export interface ReportListQuery extends PageParams {
  search?: string;
  folderId?: number;
  externalWorkbookId?: string;
  sortBy?: ReportSort;
  /** Published with sortBy; the service's default is ascending names and newest dates first. */
  sortDirection?: 'ASC' | 'DESC';
}

const deploymentPath = (deploymentId: number) =>
  `/v1/deployments/${positiveId(deploymentId, 'deploymentId')}`;

export async function listFolders(
  t: PlatformTransport,
  deploymentId: number,
  p: PageParams & { parentId?: number } = {},
  signal?: AbortSignal,
) {
  return t.list(`${deploymentPath(deploymentId)}/folders`, FolderSchema, { ...p }, { signal });
}

export async function listReports(
  t: PlatformTransport,
  deploymentId: number,
  q: ReportListQuery = {},
  signal?: AbortSignal,
) {
  if (q.sortBy === 'lastViewedAt' && q.after) {
    throw new ApiError(
      'validation',
      'Reports sorted by lastViewedAt cannot be paged with a cursor: only the first page is available. Sort by name, createdAt or updatedAt to page.',
    );
  }
  const { first, after, search, folderId, externalWorkbookId, sortBy, sortDirection } = q;
  return t.list(
    `${deploymentPath(deploymentId)}/reports`,
    ReportSchema,
    { first, after, search, folderId, externalWorkbookId, sortBy, sortDirection },
    { signal },
  );
}

export async function getReport(
  t: PlatformTransport,
  deploymentId: number,
  reportId: number,
  signal?: AbortSignal,
) {
  return t.get(`${deploymentPath(deploymentId)}/reports/${positiveId(reportId, 'reportId')}`, ReportSchema, {
    signal,
  });
}

export async function connectReportToWorkbook(
  t: PlatformTransport,
  deploymentId: number,
  reportId: number,
  input: ConnectReportToWorkbookInput,
  signal?: AbortSignal,
) {
  const body = parseInput(ConnectReportToWorkbookInputSchema, input, 'Report not connected');
  return t.write(
    'PUT',
    `${deploymentPath(deploymentId)}/reports/${positiveId(reportId, 'reportId')}/connect-workbook`,
    body,
    ReportSchema,
    { signal },
  );
}

export async function listWorkbooks(
  t: PlatformTransport,
  deploymentId: number,
  p: PageParams = {},
  signal?: AbortSignal,
) {
  return t.list(`${deploymentPath(deploymentId)}/workbooks`, WorkbookSchema, { ...p }, { signal });
}

export async function getWorkbook(
  t: PlatformTransport,
  deploymentId: number,
  workbookId: number,
  signal?: AbortSignal,
) {
  return t.get(
    `${deploymentPath(deploymentId)}/workbooks/${positiveId(workbookId, 'workbookId')}`,
    WorkbookSchema,
    { signal },
  );
}

export async function duplicateWorkbook(
  t: PlatformTransport,
  deploymentId: number,
  workbookId: number,
  input: { shared?: boolean } = {},
  signal?: AbortSignal,
) {
  const body = parseInput(
    DuplicateWorkbookInputSchema,
    input.shared === undefined ? {} : { shared: input.shared },
    'Workbook not duplicated',
  );
  return t.write(
    'POST',
    `${deploymentPath(deploymentId)}/workbooks/${positiveId(workbookId, 'workbookId')}/duplicate`,
    body,
    WorkbookSchema,
    { signal },
  );
}
