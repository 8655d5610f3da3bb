// The reports list's server-side query (search, sort, filters) as text for the view description.
import { plainText } from './labels';
import type { ReportQuery } from './loaders';

export function describeReportQuery(q: ReportQuery): string {
  const parts: string[] = [];
  if (q.search) parts.push(`search "${plainText(q.search, 40)}"`);
  if (q.sortBy) parts.push(`sorted by ${sortText(q.sortBy, q.sortDirection)}`);
  if (q.folderId !== undefined) parts.push(`folder ${q.folderId}`);
  if (q.externalWorkbookId) parts.push(`workbook ${plainText(q.externalWorkbookId, 40)}`);
  return parts.join(', ');
}

/** A sort in words, with its direction ("name (A→Z)", "updated (newest first)"). */
export function sortText(sortBy: string, direction?: 'ASC' | 'DESC'): string {
  if (sortBy === 'name') return direction === 'DESC' ? 'name (Z→A)' : 'name (A→Z)';
  const what = sortBy === 'createdAt' ? 'created' : sortBy === 'updatedAt' ? 'updated' : 'last viewed';
  return `${what} (${direction === 'ASC' ? 'oldest first' : 'newest first'})`;
}

export function isEmptyReportQuery(q: ReportQuery | undefined): boolean {
  return !q || describeReportQuery(q) === '';
}
