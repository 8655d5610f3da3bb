// What the dashboard editor shows on a widget that places a report: the report's current name
// (from the server) and, from the published snapshot, its kind and a small preview (its chart mark
// and SQL). vscode-free.
import { ReportSnapshotSchema } from '../api/schemas/platform';
import type { EditorReport } from '../shared/dashboardEditorProtocol';

type Rec = Record<string, unknown>;
const isRec = (v: unknown): v is Rec => typeof v === 'object' && v !== null && !Array.isArray(v);

/** The report ids the widgets of a config place, in order, without repeats. */
export function widgetReportIds(config: unknown): number[] {
  const widgets = isRec(config) && Array.isArray(config.widgets) ? config.widgets : [];
  const ids = widgets
    .map((w) => (isRec(w) && isRec(w.config) ? Number(w.config.reportId) : NaN))
    .filter((n) => Number.isInteger(n) && n > 0);
  return [...new Set(ids)];
}

/** The chart mark a snapshot spec names (a Vega-Lite spec as an object or JSON text). */
function markOf(spec: unknown): string | undefined {
  let v = spec;
  if (typeof v === 'string') {
    try {
      v = JSON.parse(v);
    } catch {
      return undefined;
    }
  }
  if (!isRec(v)) return undefined;
  const mark = isRec(v.mark) ? v.mark.type : v.mark;
  return typeof mark === 'string' ? mark : undefined;
}

/** Report info by id from a published dashboard's reportSnapshots (bad items are skipped). */
export function reportsFromSnapshots(published: unknown): Record<string, EditorReport> {
  const out: Record<string, EditorReport> = {};
  const list = isRec(published) && Array.isArray(published.reportSnapshots) ? published.reportSnapshots : [];
  for (const raw of list) {
    const s = ReportSnapshotSchema.safeParse(raw);
    if (!s.success) continue;
    const r = s.data;
    const mark = markOf(r.spec);
    out[String(r.reportId)] = {
      title: r.title ?? r.name ?? `Report ${r.reportId}`,
      ...(r.kind ? { kind: r.kind } : {}),
      ...(typeof r.sqlQuery === 'string' && r.sqlQuery ? { sql: r.sqlQuery } : {}),
      ...(mark ? { mark } : {}),
    };
  }
  return out;
}

/** Report info from a report of the report list (no snapshot: title and kind only). */
export function reportFromListItem(report: { name: string; title?: string | null } & Rec): EditorReport {
  return {
    title: report.title ?? report.name,
    ...(typeof report.kind === 'string' ? { kind: report.kind } : {}),
  };
}

/**
 * What the editor shows per report: the live report's current name, with the kind and preview of
 * the published snapshot (a report the server no longer has keeps its snapshot's title).
 */
export function mergeReports(
  live: Record<string, EditorReport>,
  snapshots: Record<string, EditorReport>,
): Record<string, EditorReport> {
  const out: Record<string, EditorReport> = { ...snapshots };
  for (const [id, r] of Object.entries(live)) out[id] = { ...snapshots[id], ...r };
  return out;
}
