// The reports list's server-side query (search, sort, filters) as text for the view description.
import { plainText } from './labels';
import type { ReportQuery } from './loaders';

export function describeReportQuery(q: ReportQuery): string {
  const parts: string[] = [];
  if (q.search) parts.push(`search "${plainText(q.search, 40)}"`);
  if (q.sortBy) parts.push(`sort ${q.sortBy}`);
  if (q.folderId !== undefined) parts.push(`folder ${q.folderId}`);
  if (q.externalWorkbookId) parts.push(`workbook ${plainText(q.externalWorkbookId, 40)}`);
  return parts.join(', ');
}

export function isEmptyReportQuery(q: ReportQuery | undefined): boolean {
  return !q || describeReportQuery(q) === '';
}
