// Geometry of the dashboard grid (spec 2.8), shared by the editor's page and its tests: the
// platform lays widgets out like react-grid-layout, so a box {x, y, w, h} in grid units becomes
// pixels from the container width, the column count, the row height, the margin between widgets
// and the container padding. Pure functions, no DOM.
import type { EditorBreakpoint } from './dashboardEditorProtocol';

export interface GridBox {
  x: number;
  y: number;
  w: number;
  h: number;
}

export interface GridSpec {
  breakpoint: EditorBreakpoint;
  cols: number;
  rowHeight: number;
  margin: [number, number];
  padding: [number, number];
  /** The container width the preview draws (px). */
  width: number;
  /** The width the breakpoint is designed for (the preview may be narrower and then scales). */
  nominalWidth: number;
  colWidth: number;
}

export const DEFAULT_BREAKPOINTS: Record<EditorBreakpoint, number> = {
  lg: 1200,
  md: 996,
  sm: 768,
  xs: 480,
  xxs: 0,
};
export const DEFAULT_COLS: Record<EditorBreakpoint, number> = { lg: 12, md: 10, sm: 6, xs: 4, xxs: 2 };
export const DEFAULT_ROW_HEIGHT = 150;
export const DEFAULT_MARGIN: [number, number] = [10, 10];

type Rec = Record<string, unknown>;
const rec = (v: unknown): Rec => (v && typeof v === 'object' && !Array.isArray(v) ? (v as Rec) : {});
const num = (v: unknown): number | undefined => (typeof v === 'number' && Number.isFinite(v) ? v : undefined);
const pair = (v: unknown): [number, number] | undefined =>
  Array.isArray(v) && num(v[0]) !== undefined && num(v[1]) !== undefined
    ? [v[0] as number, v[1] as number]
    : undefined;

/** The minimum container width of each breakpoint: the layout's, else react-grid-layout's. */
export function breakpointWidths(layout: unknown): Record<EditorBreakpoint, number> {
  const given = rec(rec(layout).breakpoints);
  const out = { ...DEFAULT_BREAKPOINTS };
  for (const b of Object.keys(out) as EditorBreakpoint[]) {
    const v = num(given[b]);
    if (v !== undefined && v >= 0) out[b] = v;
  }
  return out;
}

/**
 * The width the preview draws a breakpoint at: the narrowest container it applies to (its minimum
 * width, at least 320 px), where a layout is most likely to be cramped; lg at least 1200 px.
 */
export function nominalWidth(layout: unknown, breakpoint: EditorBreakpoint): number {
  const widths = breakpointWidths(layout);
  return Math.max(widths[breakpoint], breakpoint === 'lg' ? 1200 : 320);
}

/** The grid of one breakpoint drawn in at most `available` pixels. */
export function gridSpec(layout: unknown, breakpoint: EditorBreakpoint, available: number): GridSpec {
  const l = rec(layout);
  const colsGiven = num(rec(l.cols)[breakpoint]);
  const cols = colsGiven !== undefined && colsGiven >= 1 ? Math.floor(colsGiven) : DEFAULT_COLS[breakpoint];
  const rowGiven = num(l.rowHeight);
  const rowHeight = rowGiven !== undefined && rowGiven > 0 ? rowGiven : DEFAULT_ROW_HEIGHT;
  const margin = pair(l.margin) ?? DEFAULT_MARGIN;
  const padding = pair(l.containerPadding) ?? margin;
  const nominal = nominalWidth(layout, breakpoint);
  const width = Math.max(120, Math.min(nominal, Math.floor(available)));
  const colWidth = Math.max(1, (width - margin[0] * (cols - 1) - padding[0] * 2) / cols);
  return { breakpoint, cols, rowHeight, margin, padding, width, nominalWidth: nominal, colWidth };
}

/** The pixel rectangle of a box (react-grid-layout's calcGridItemPosition). */
export function boxRect(
  spec: GridSpec,
  box: GridBox,
): { left: number; top: number; width: number; height: number } {
  const [mx, my] = spec.margin;
  const [px, py] = spec.padding;
  return {
    left: Math.round((spec.colWidth + mx) * box.x + px),
    top: Math.round((spec.rowHeight + my) * box.y + py),
    width: Math.round(spec.colWidth * box.w + Math.max(0, box.w - 1) * mx),
    height: Math.round(spec.rowHeight * box.h + Math.max(0, box.h - 1) * my),
  };
}

/** The height of the container holding these boxes (at least `minRows` rows). */
export function gridHeight(spec: GridSpec, boxes: GridBox[], minRows = 3): number {
  const rows = Math.max(minRows, ...boxes.map((b) => b.y + b.h));
  return Math.round(rows * spec.rowHeight + Math.max(0, rows - 1) * spec.margin[1] + spec.padding[1] * 2);
}

/** Where a box lands when dragged by (dx, dy) pixels: whole cells, kept inside the columns. */
export function movedBox(spec: GridSpec, box: GridBox, dx: number, dy: number): GridBox {
  const x = Math.round(box.x + dx / (spec.colWidth + spec.margin[0]));
  const y = Math.round(box.y + dy / (spec.rowHeight + spec.margin[1]));
  return { ...box, x: clamp(x, 0, Math.max(0, spec.cols - box.w)), y: Math.max(0, y) };
}

/** The size of a box whose bottom-right corner is dragged by (dx, dy) pixels. */
export function resizedBox(spec: GridSpec, box: GridBox, dx: number, dy: number): GridBox {
  const w = Math.round(box.w + dx / (spec.colWidth + spec.margin[0]));
  const h = Math.round(box.h + dy / (spec.rowHeight + spec.margin[1]));
  return { ...box, w: clamp(w, 1, Math.max(1, spec.cols - box.x)), h: Math.max(1, h) };
}

/** Pairs of ids whose boxes overlap. */
export function overlaps(items: { id: string; box: GridBox }[]): [string, string][] {
  const out: [string, string][] = [];
  for (let i = 0; i < items.length; i++) {
    for (let j = i + 1; j < items.length; j++) {
      const a = items[i]!.box;
      const b = items[j]!.box;
      if (a.x < b.x + b.w && b.x < a.x + a.w && a.y < b.y + b.h && b.y < a.y + a.h) {
        out.push([items[i]!.id, items[j]!.id]);
      }
    }
  }
  return out;
}

/** Ids of widgets that reach past the last column. */
export function outOfBounds(spec: GridSpec, items: { id: string; box: GridBox }[]): string[] {
  return items.filter((i) => i.box.x + i.box.w > spec.cols).map((i) => i.id);
}

function clamp(v: number, lo: number, hi: number): number {
  return Math.min(hi, Math.max(lo, v));
}
