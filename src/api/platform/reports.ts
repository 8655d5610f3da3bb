// Report writes: create, update (name, SQL), delete, refresh, disconnect from one placement in a
// spreadsheet, and create-or-update by public id (reports as code). Reads and connect are in
// workspace.ts.
import { z } from 'zod';
import { table } from './operation';
import { maybe } from './transport';
import { ReportSchema } from './workspace';

const name = z.string().trim().min(1).max(255);

/** The published CreateReportInput, the fields the extension sets. */
export const CreateReportInputSchema = z.strictObject({
  name,
  title: z.string().max(255).optional(),
  sqlQuery: z.string().min(1),
  folderId: maybe(z.number().int().min(1)),
});
export type CreateReportInput = z.infer<typeof CreateReportInputSchema>;

/** The published UpdateReportInput, the fields the extension changes (only those sent change). */
export const UpdateReportInputSchema = z
  .strictObject({
    name: name.optional(),
    title: z.string().max(255).optional(),
    sqlQuery: z.string().min(1).optional(),
  })
  .refine((v) => Object.keys(v).length > 0, { message: 'nothing to change' });
export type UpdateReportInput = z.infer<typeof UpdateReportInputSchema>;

/** The published RefreshReportInput / DisconnectReportFromWorkbookInput: one placement. */
export const PlacementTargetSchema = z.strictObject({
  placementId: z.string().min(1).optional(),
  externalWorkbookId: z.string().min(1).optional(),
  resultLocation: z.string().min(1).optional(),
  sheetName: z.string().min(1).optional(),
  anchorCell: z.string().min(1).optional(),
});
export type PlacementTarget = z.infer<typeof PlacementTargetSchema>;

const nullable = <T extends z.ZodType>(t: T) => t.nullable().optional();
const PivotItemsInputSchema = z.strictObject({
  columns: z.array(z.string()),
  measures: z.array(z.string()),
  rows: z.array(z.string()),
  filters: z.array(z.string()),
  displayScale: nullable(z.enum(['model', 'absolute', 'thousands', 'millions', 'billions'])),
  measuresAxis: nullable(z.enum(['columns', 'rows'])),
  measuresPosition: nullable(z.enum(['before', 'after'])),
  showAppliedFilters: nullable(z.boolean()),
  showColumnTotals: nullable(z.boolean()),
  showRowTotals: nullable(z.boolean()),
});
const ResultChecksumInputSchema = z.strictObject({
  v: z.number().int().min(1),
  chunks: z
    .array(
      z.strictObject({
        from: z.number().int().min(0),
        hash: z.string().min(1).max(64),
        to: nullable(z.number().int().min(0)),
      }),
    )
    .max(2000),
});

/** The published publicId rule: 12 characters of [0-9A-Za-z]. */
export const REPORT_PUBLIC_ID = /^[0-9A-Za-z]{12}$/;

/**
 * The published CreateReportInput, every field (the body of the upsert by public id, which a
 * report file sends as written): strict, so a field the document does not declare is named.
 */
export const UpsertReportInputSchema = z.strictObject({
  name: nullable(z.string().max(255)),
  title: nullable(z.string().max(255)),
  sqlQuery: nullable(z.string()),
  jsonQuery: nullable(z.string()),
  folderId: nullable(z.number().int()),
  meta: nullable(z.record(z.string(), z.unknown())),
  pivotItems: nullable(PivotItemsInputSchema),
  publicId: nullable(z.string().regex(REPORT_PUBLIC_ID, 'must be 12 letters or digits')),
  source: nullable(z.enum(['GOOGLE_SHEETS', 'EXCEL', 'PLAYGROUND', 'D3'])),
  host: nullable(z.enum(['GOOGLE_SHEETS', 'EXCEL'])),
  workbookId: nullable(z.number().int()),
  workbookName: nullable(z.string()),
  externalWorkbookId: nullable(z.string()),
  sheetId: nullable(z.string()),
  resultLocation: nullable(z.string()),
  endResultCell: nullable(z.string()),
  resultChecksum: nullable(ResultChecksumInputSchema),
});
export type UpsertReportInput = z.infer<typeof UpsertReportInputSchema>;
/** The fields of the published CreateReportInput (what a report file may send). */
export const UPSERT_REPORT_FIELDS = Object.keys(UpsertReportInputSchema.shape);

const report = '/v1/deployments/{deploymentId}/reports/{reportId}';

export const REPORT_WRITES = table(
  {},
  {
    createReport: {
      method: 'POST',
      path: '/v1/deployments/{deploymentId}/reports',
      body: CreateReportInputSchema,
      answer: ReportSchema,
      refused: 'Report not created',
      check: 'Refresh the workspace to see whether the report was created before creating it again.',
    },
    updateReport: {
      method: 'PUT',
      path: report,
      body: UpdateReportInputSchema,
      answer: ReportSchema,
      refused: 'Report not updated',
      check: 'Open the report again to see whether it was updated.',
    },
    deleteReport: {
      method: 'DELETE',
      path: report,
      check: 'Refresh the workspace to see whether the report was deleted.',
    },
    /** Refreshes the report (one placement when given); answers the report. */
    refreshReport: {
      method: 'PUT',
      path: `${report}/refresh`,
      body: PlacementTargetSchema.default({}),
      answer: ReportSchema,
      refused: 'Report not refreshed',
      check: 'Open the report again to see when it was last refreshed.',
    },
    /** Removes one placement of the report (by placement id, or workbook + location). */
    disconnectReportFromWorkbook: {
      method: 'DELETE',
      path: `${report}/connect-workbook`,
      kind: 'write',
      body: PlacementTargetSchema.refine(
        (v) =>
          v.placementId !== undefined ||
          (v.externalWorkbookId !== undefined && v.resultLocation !== undefined),
        { message: 'name the placement: placementId, or externalWorkbookId and resultLocation' },
      ),
      answer: ReportSchema,
      refused: 'Report not disconnected',
      check: 'Open the report again to see its placements.',
    },
    /**
     * Reports as code: creates the report with this public id, or updates the one that has it
     * (only the fields sent change). Answers the report; 409s are told apart by their `code`.
     */
    upsertReportByPublicId: {
      method: 'PUT',
      path: '/v1/deployments/{deploymentId}/reports/by-public-id/{publicId}',
      names: { publicId: 'The report’s publicId' },
      body: UpsertReportInputSchema,
      answer: ReportSchema,
      refused: 'Report not pushed',
      action: 'Pushing the report',
      check: 'Pull the report to a new file, or compare again with Push Report, to see whether it changed.',
    },
  },
);
