// Report writes: create, update (name, SQL), delete, refresh, and disconnect from one placement in
// a spreadsheet. Reads and connect are in workspace.ts.
import { z } from 'zod';
import { maybe, parseInput, positiveId, type PlatformTransport } from './transport';
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

const reportsPath = (deploymentId: number) =>
  `/v1/deployments/${positiveId(deploymentId, 'deploymentId')}/reports`;
const reportPath = (deploymentId: number, reportId: number) =>
  `${reportsPath(deploymentId)}/${positiveId(reportId, 'reportId')}`;

export async function createReport(
  t: PlatformTransport,
  deploymentId: number,
  input: CreateReportInput,
  signal?: AbortSignal,
) {
  const body = parseInput(CreateReportInputSchema, input, 'Report not created');
  return t.write('POST', reportsPath(deploymentId), body, ReportSchema, {
    signal,
    check: { hint: 'Refresh the workspace to see whether the report was created before creating it again.' },
  });
}

export async function updateReport(
  t: PlatformTransport,
  deploymentId: number,
  reportId: number,
  input: UpdateReportInput,
  signal?: AbortSignal,
) {
  const body = parseInput(UpdateReportInputSchema, input, 'Report not updated');
  return t.write('PUT', reportPath(deploymentId, reportId), body, ReportSchema, {
    signal,
    check: { hint: 'Open the report again to see whether it was updated.' },
  });
}

export async function deleteReport(
  t: PlatformTransport,
  deploymentId: number,
  reportId: number,
  signal?: AbortSignal,
): Promise<number> {
  return t.writeNoContent('DELETE', reportPath(deploymentId, reportId), {
    signal,
    check: { hint: 'Refresh the workspace to see whether the report was deleted.' },
  });
}

/** Refreshes the report (one placement when given); answers the report. */
export async function refreshReport(
  t: PlatformTransport,
  deploymentId: number,
  reportId: number,
  target: PlacementTarget = {},
  signal?: AbortSignal,
) {
  const body = parseInput(PlacementTargetSchema, target, 'Report not refreshed');
  return t.write('PUT', `${reportPath(deploymentId, reportId)}/refresh`, body, ReportSchema, {
    signal,
    check: { hint: 'Open the report again to see when it was last refreshed.' },
  });
}

/** Removes one placement of the report (by placement id, or workbook + location). */
export async function disconnectReportFromWorkbook(
  t: PlatformTransport,
  deploymentId: number,
  reportId: number,
  target: PlacementTarget,
  signal?: AbortSignal,
) {
  const body = parseInput(
    PlacementTargetSchema.refine(
      (v) =>
        v.placementId !== undefined || (v.externalWorkbookId !== undefined && v.resultLocation !== undefined),
      { message: 'name the placement: placementId, or externalWorkbookId and resultLocation' },
    ),
    target,
    'Report not disconnected',
  );
  return t.write('DELETE', `${reportPath(deploymentId, reportId)}/connect-workbook`, body, ReportSchema, {
    signal,
    check: { hint: 'Open the report again to see its placements.' },
  });
}
