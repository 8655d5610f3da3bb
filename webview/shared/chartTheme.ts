// Vega-Lite colours from the VS Code theme. SVG presentation attributes cannot use var(), so the
// --vscode-* values are resolved when a chart is drawn, and charts are drawn again when the theme
// changes (VS Code swaps the body's class and data-vscode-theme-kind, and the variables on <html>).

export interface ChartColours {
  fg: string;
  muted: string;
  grid: string;
  palette: string[];
}

/** VS Code's own chart colours, per theme kind: the fallback for a colour that is missing or unreadable. */
const DARK = ['#3794ff', '#d18616', '#89d185', '#f14c4c', '#b180d7', '#cca700'];
const LIGHT = ['#1a85ff', '#c75300', '#388a34', '#e51400', '#652d90', '#8a6d00'];

/** A CSS colour as [r, g, b, a] (hex, rgb(), rgba()); undefined when it is something else. */
export function parseColour(value: string): [number, number, number, number] | undefined {
  const v = value.trim().toLowerCase();
  const hex = /^#([0-9a-f]{3,4}|[0-9a-f]{6}|[0-9a-f]{8})$/.exec(v)?.[1];
  if (hex) {
    const full = hex.length <= 4 ? [...hex].map((ch) => ch + ch).join('') : hex;
    const n = (i: number) => parseInt(full.slice(i, i + 2), 16);
    return [n(0), n(2), n(4), full.length === 8 ? n(6) / 255 : 1];
  }
  const fn = /^rgba?\(([^)]+)\)$/.exec(v)?.[1];
  if (fn) {
    const parts = fn
      .split(/[\s,/]+/)
      .filter(Boolean)
      .map((x) => (x.endsWith('%') ? Number(x.slice(0, -1)) / 100 : Number(x)));
    if (parts.length >= 3 && parts.slice(0, 3).every((x) => Number.isFinite(x)))
      return [parts[0]!, parts[1]!, parts[2]!, Number.isFinite(parts[3]) ? parts[3]! : 1];
  }
  return undefined;
}

const luminance = ([r, g, b]: number[]) => {
  const ch = (c: number) => {
    const x = c / 255;
    return x <= 0.03928 ? x / 12.92 : ((x + 0.055) / 1.055) ** 2.4;
  };
  return 0.2126 * ch(r!) + 0.7152 * ch(g!) + 0.0722 * ch(b!);
};

/** The WCAG contrast ratio of two opaque colours. */
export function contrast(a: number[], b: number[]): number {
  const [hi, lo] = [luminance(a), luminance(b)].sort((x, y) => y - x) as [number, number];
  return (hi + 0.05) / (lo + 0.05);
}

/**
 * The series colours: each theme colour made opaque (a translucent series colour over a dark
 * background reads as a murky brown), and replaced by VS Code's own colour for the theme kind when
 * it is missing or does not stand out from the background (3:1, as graphics need).
 */
export function seriesPalette(themeColours: string[], dark: boolean, background?: string): string[] {
  const fallback = dark ? DARK : LIGHT;
  const bg = background ? parseColour(background) : undefined;
  return fallback.map((own, i) => {
    const c = themeColours[i] ? parseColour(themeColours[i]) : undefined;
    if (!c) return own;
    const hex = `#${c
      .slice(0, 3)
      .map((x) =>
        Math.round(Math.min(255, Math.max(0, x)))
          .toString(16)
          .padStart(2, '0'),
      )
      .join('')}`;
    if (bg && bg[3] === 1 && contrast(c, bg) < 3) return own;
    return hex;
  });
}

export function chartColours(doc: Document): ChartColours {
  const root = getComputedStyle(doc.documentElement);
  const body = getComputedStyle(doc.body);
  const v = (name: string) => body.getPropertyValue(name).trim() || root.getPropertyValue(name).trim();
  const kind = doc.body.dataset.vscodeThemeKind ?? doc.body.className;
  const dark = /dark|high-contrast(?!-light)/.test(kind);
  const fg = v('--vscode-charts-foreground') || v('--vscode-foreground') || (dark ? '#cccccc' : '#333333');
  const palette = seriesPalette(
    ['blue', 'orange', 'green', 'red', 'purple', 'yellow'].map((c) => v(`--vscode-charts-${c}`)),
    dark,
    v('--vscode-editor-background') || undefined,
  );
  return {
    fg,
    muted: v('--vscode-descriptionForeground') || fg,
    grid: v('--vscode-charts-lines') || v('--vscode-panel-border') || (dark ? '#444444' : '#dddddd'),
    palette,
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
