// Seeded dashboard configs in the published `DashboardConfig` shape (widgets with positions and
// responsive layouts, layout, theme), some leaves null as the documents allow.
export const SUBJECTS = [
  'Revenue',
  'Orders',
  'Customers',
  'Churn',
  'Margin',
  'Refunds',
  'Sessions',
  'Conversion',
  'Inventory',
  'Shipping',
  'Returns',
  'Signups',
];
export const CUTS = [
  'by Region',
  'by Month',
  'by Product',
  'by Channel',
  'by Segment',
  'Trend',
  'Top 10',
  'Cohorts',
  'Forecast',
  'by Country',
  'Weekly',
  'YoY',
];
/** Row-wraps boxes of the given sizes onto a grid of `cols` columns without overlaps. */
function pack(
  sizes: { w: number; h: number }[],
  cols: number,
): { x: number; y: number; w: number; h: number }[] {
  let x = 0;
  let y = 0;
  let rowHeight = 0;
  return sizes.map(({ w: wanted, h }) => {
    const w = Math.min(wanted, cols);
    if (x + w > cols) {
      x = 0;
      y += rowHeight;
      rowHeight = 0;
    }
    const box = { x, y, w, h };
    x += w;
    rowHeight = Math.max(rowHeight, h);
    return box;
  });
}

/**
 * A `DashboardConfig`. With `nulls`, leaves the documents allow to be null are null (a widget's
 * style and smallest layout, the row height, theme leaves), so readers meet them.
 */
export function dashboardConfig(
  title: string,
  r: () => number,
  nulls = false,
  /** The id of the report widget `i` places (a report of the deployment, named like its title). */
  reportIdOf: (i: number) => number = (i) => i + 1,
): Record<string, unknown> {
  const types = ['CHART', 'CHART', 'TEXT', 'FILTER', 'CHART', 'TIME_GRAIN', 'CHART', 'DIVIDER'];
  const count = 4 + Math.floor(r() * 4);
  const sizes = Array.from({ length: count }, (_, i) => ({
    w: i === 0 ? 12 : 4 + 2 * Math.floor(r() * 3),
    h: i === 0 ? 2 : 3 + Math.floor(r() * 3),
  }));
  const lg = pack(sizes, 12);
  const md = pack(sizes, 10);
  const stacked = (cols: number) =>
    pack(
      sizes.map(({ h }) => ({ w: cols, h })),
      cols,
    );
  const [sm, xs, xxs] = [stacked(6), stacked(4), stacked(2)];
  const widgets = [];
  for (let i = 0; i < count; i++) {
    const type = types[i % types.length]!;
    widgets.push({
      id: `w${i + 1}`,
      type,
      position: lg[i]!,
      responsiveLayouts: {
        lg: lg[i]!,
        md: md[i]!,
        sm: sm[i]!,
        xs: xs[i]!,
        xxs: nulls && i === 1 ? null : xxs[i]!,
      },
      config:
        type === 'TEXT'
          ? { text: `## ${title}` }
          : {
              // The draw is kept so every later seeded value stays what it was.
              reportId: (r(), reportIdOf(i)),
              title: `${SUBJECTS[i % SUBJECTS.length]} ${CUTS[i % CUTS.length]}`,
            },
      style: nulls && i % 2 === 1 ? null : {},
    });
  }
  return {
    kind: nulls ? null : 'CLASSIC',
    app: null,
    title,
    description: nulls ? null : `${title}: the numbers the team reviews every week.`,
    layout: {
      breakpoints: { lg: 1200, md: 996, sm: 768, xs: 480, xxs: 0 },
      cols: { lg: 12, md: 10, sm: 6, xs: 4, xxs: 2 },
      containerPadding: [16, 16],
      margin: [12, 12],
      rowHeight: nulls ? null : 60,
    },
    settings: { kind: 'CLASSIC' },
    theme: {
      backgroundColor: '#f7f7f9',
      fontFamily: 'Inter, sans-serif',
      primaryColor: nulls ? null : '#5b5fc7',
      dashboard: { backgroundColor: '#f7f7f9', padding: '16px' },
      widgets: {
        backgroundColor: '#ffffff',
        padding: '12px',
        margin: '0',
        border: { color: '#e1e1e8', radius: '8px', style: 'solid', width: '1px' },
        title: { color: '#1f1f29', fontFamily: 'Inter, sans-serif', fontSize: '14px', fontWeight: '600' },
        text: {
          color: '#33333d',
          secondaryColor: '#6b6b78',
          fontFamily: 'Inter, sans-serif',
          codeFontFamily: 'monospace',
        },
      },
      controls: {
        backgroundColor: '#ffffff',
        padding: nulls ? null : '8px',
        border: { color: '#e1e1e8', radius: '6px', style: 'solid', width: '1px' },
      },
    },
    widgets,
  };
}
