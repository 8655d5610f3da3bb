// Vega-Lite colours from the VS Code theme. SVG presentation attributes cannot use var(), so the
// --vscode-* values are resolved when a chart is drawn, and charts are drawn again when the theme
// changes (VS Code swaps the body's class and data-vscode-theme-kind, and the variables on <html>).

export interface ChartColours {
  fg: string;
  muted: string;
  grid: string;
  palette: string[];
}

export function chartColours(doc: Document): ChartColours {
  const root = getComputedStyle(doc.documentElement);
  const body = getComputedStyle(doc.body);
  const v = (name: string) => body.getPropertyValue(name).trim() || root.getPropertyValue(name).trim();
  const kind = doc.body.dataset.vscodeThemeKind ?? doc.body.className;
  const dark = /dark|high-contrast(?!-light)/.test(kind);
  const fg = v('--vscode-charts-foreground') || v('--vscode-foreground') || (dark ? '#cccccc' : '#333333');
  const palette = ['blue', 'orange', 'green', 'red', 'purple', 'yellow']
    .map((c) => v(`--vscode-charts-${c}`))
    .filter(Boolean);
  return {
    fg,
    muted: v('--vscode-descriptionForeground') || fg,
    grid: v('--vscode-charts-lines') || v('--vscode-panel-border') || (dark ? '#444444' : '#dddddd'),
    palette:
      palette.length >= 3 ? palette : ['#3794ff', '#d18616', '#89d185', '#f14c4c', '#b180d7', '#cca700'],
  };
}

/** The Vega-Lite config for these colours: axes, grid, legend and title follow the theme. */
export function vegaThemeConfig(c: ChartColours, font?: string): Record<string, unknown> {
  return {
    background: 'transparent',
    ...(font ? { font } : {}),
    axis: {
      labelColor: c.fg,
      titleColor: c.fg,
      domainColor: c.muted,
      tickColor: c.muted,
      gridColor: c.grid,
      gridOpacity: 0.6,
    },
    legend: { labelColor: c.fg, titleColor: c.fg },
    title: { color: c.fg },
    view: { stroke: 'transparent' },
    range: { category: c.palette },
    line: { color: c.palette[0] },
    bar: { color: c.palette[0] },
    area: { color: c.palette[0] },
    point: { color: c.palette[0] },
  };
}

/** Calls `redraw` after each theme change of `doc`; returns a function that stops watching. */
export function onThemeChange(doc: Document, redraw: () => void): () => void {
  const View = doc.defaultView as (Window & typeof globalThis) | null;
  if (!View?.MutationObserver) return () => undefined;
  let last = `${doc.body.className}|${doc.body.dataset.vscodeThemeKind ?? ''}|${doc.documentElement.getAttribute('style') ?? ''}`;
  const observer = new View.MutationObserver(() => {
    const now = `${doc.body.className}|${doc.body.dataset.vscodeThemeKind ?? ''}|${doc.documentElement.getAttribute('style') ?? ''}`;
    if (now === last) return;
    last = now;
    redraw();
  });
  observer.observe(doc.body, { attributes: true, attributeFilter: ['class', 'data-vscode-theme-kind'] });
  observer.observe(doc.documentElement, { attributes: true, attributeFilter: ['style', 'class'] });
  return () => observer.disconnect();
}
