// Folders, reports and workbooks of a deployment's workspace.
import { z } from 'zod';
import { table } from './operation';
import { id, maybe, PageQuery } from './transport';

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

export const REPORT_SORTS = ['name', 'createdAt', 'updatedAt', 'lastViewedAt'] as const;
export type ReportSort = (typeof REPORT_SORTS)[number];
/**
 * The query parameters of getReports the extension uses (all published). The document says a
 * lastViewedAt order has no stable cursor, so a cursor with it is refused before sending.
 */
export const ReportListQuerySchema = PageQuery.extend({
  search: z.string().optional(),
  folderId: z.number().int().optional(),
  externalWorkbookId: z.string().optional(),
  sortBy: z.enum(REPORT_SORTS).optional(),
  /** Published with sortBy; the service's default is ascending names and newest dates first. */
  sortDirection: z.enum(['ASC', 'DESC']).optional(),
}).refine((q) => !(q.sortBy === 'lastViewedAt' && q.after), {
  message:
    'Reports sorted by lastViewedAt cannot be paged with a cursor: only the first page is available. Sort by name, createdAt or updatedAt to page.',
});
export type ReportListQuery = z.input<typeof ReportListQuerySchema>;

const dep = '/v1/deployments/{deploymentId}';

export const WORKSPACE = table(
  {},
  {
    listFolders: {
      method: 'GET',
      path: `${dep}/folders`,
      query: PageQuery.extend({ parentId: z.number().int().optional() }),
      item: FolderSchema,
    },
    listReports: {
      method: 'GET',
      path: `${dep}/reports`,
      query: ReportListQuerySchema,
      item: ReportSchema,
      refused: 'Reports not listed',
    },
    getReport: { method: 'GET', path: `${dep}/reports/{reportId}`, answer: ReportSchema },
    connectReportToWorkbook: {
      method: 'PUT',
      path: `${dep}/reports/{reportId}/connect-workbook`,
      body: ConnectReportToWorkbookInputSchema,
      answer: ReportSchema,
      refused: 'Report not connected',
    },
    listWorkbooks: {
      method: 'GET',
      path: `${dep}/workbooks`,
      query: PageQuery,
      item: WorkbookSchema,
    },
    getWorkbook: {
      method: 'GET',
      path: `${dep}/workbooks/{workbookId}`,
      answer: WorkbookSchema,
    },
    duplicateWorkbook: {
      method: 'POST',
      path: `${dep}/workbooks/{workbookId}/duplicate`,
      body: DuplicateWorkbookInputSchema.default({}),
      answer: WorkbookSchema,
      refused: 'Workbook not duplicated',
    },
  },
);
