// Report writes: create, update (name, SQL), delete, refresh, and disconnect from one placement in
// a spreadsheet. Reads and connect are in workspace.ts.
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

const report = '/v1/deployments/{deploymentId}/reports/{reportId}';

export const REPORT_WRITES = table(
  {},
  {
    createReport: {
      method: 'POST',
      path: '/v1/deployments/{deploymentId}/reports',
      kind: 'write',
      body: CreateReportInputSchema,
      answer: ReportSchema,
      refused: 'Report not created',
      check: 'Refresh the workspace to see whether the report was created before creating it again.',
    },
    updateReport: {
      method: 'PUT',
      path: report,
      kind: 'write',
      body: UpdateReportInputSchema,
      answer: ReportSchema,
      refused: 'Report not updated',
      check: 'Open the report again to see whether it was updated.',
    },
    deleteReport: {
      method: 'DELETE',
      path: report,
      kind: 'destroy',
      check: 'Refresh the workspace to see whether the report was deleted.',
    },
    /** Refreshes the report (one placement when given); answers the report. */
    refreshReport: {
      method: 'PUT',
      path: `${report}/refresh`,
      kind: 'write',
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
  },
);
