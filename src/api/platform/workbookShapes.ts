// Reading a workbook's dashboards in either server shape, with no zod: the explorer's tree (in the
// startup bundle) uses these, and the startup bundle must not load zod.
type Rec = Record<string, unknown>;
const rec = (v: unknown): Rec | undefined =>
  typeof v === 'object' && v !== null && !Array.isArray(v) ? (v as Rec) : undefined;
/**
 * An older server wrapped configs in a Dashboard (`{config, id, publicId, ...}`); the documents'
 * DashboardConfig has no `config` field, so its presence tells the shapes apart.
 */
const isDashboard = (v: Rec | undefined) => v !== undefined && rec(v.config) !== undefined;

/**
 * The workbook's published Dashboard (id, publicId, allowEmbed, version): `publishedDashboard` as
 * published, or the Dashboard an older server put in `dashboardPublished`.
 */
export function publishedDashboardOf(w: Rec): Rec | undefined {
  const pub = rec(w.publishedDashboard);
  if (pub) return pub;
  const old = rec(w.dashboardPublished);
  return isDashboard(old) ? old : undefined;
}

/** The DashboardConfig of the workbook's draft or of what is published (either server shape). */
export function dashboardConfigOf(w: Rec, which: 'draft' | 'published'): Rec | undefined {
  const v = rec(which === 'draft' ? w.dashboardDraft : w.dashboardPublished);
  if (v && isDashboard(v)) return rec(v.config);
  return v ?? (which === 'published' ? rec(publishedDashboardOf(w)?.config) : undefined);
}
