// Dashboard config pieces the editor's tests share: a layout with every react-grid-layout value
// set (so geometry can be computed by hand) and widgets placed on it.

/** Every breakpoint and column count react-grid-layout defaults to, 16px padding, 12px margins. */
export const GRID_LAYOUT = {
  breakpoints: { lg: 1200, md: 996, sm: 768, xs: 480, xxs: 0 },
  cols: { lg: 12, md: 10, sm: 6, xs: 4, xxs: 2 },
  containerPadding: [16, 16],
  margin: [12, 12],
  rowHeight: 60,
};

/** A widget of a dashboard's config at cells [x, y, w, h]. */
export const widgetAt = (
  id: string,
  type: string,
  [x, y, w, h]: [number, number, number, number],
  config: Record<string, unknown> = {},
) => ({ id, type, position: { x, y, w, h }, config });
