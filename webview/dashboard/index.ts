// The dashboard editor's page: a preview of the grid at one breakpoint (lg..xxs) with every widget
// at its position (or responsive layout) and the theme applied, the title field, and the problems
// of the text while it is invalid (the last valid preview stays). Dragging a widget moves it; every
// change is sent to the host, which edits the document.
import {
  EDITOR_BREAKPOINTS,
  hostToWebview,
  type EditorBreakpoint,
  type HostToWebview,
  type WebviewToHost,
} from '../../src/shared/dashboardEditorProtocol';

interface VsCodeApi {
  postMessage(message: WebviewToHost): void;
}
declare function acquireVsCodeApi(): VsCodeApi;
const vscode = acquireVsCodeApi();
const post = (m: WebviewToHost) => vscode.postMessage(m);

type Box = { h: number; w: number; x: number; y: number };
type Widget = {
  id: string;
  type?: string;
  position: Box;
  responsiveLayouts?: Partial<Record<EditorBreakpoint, Box>>;
};
type Rec = Record<string, unknown>;

const DEFAULT_COLS: Record<EditorBreakpoint, number> = { lg: 12, md: 10, sm: 6, xs: 4, xxs: 2 };
const DEFAULT_WIDTH: Record<EditorBreakpoint, number> = { lg: 1200, md: 996, sm: 768, xs: 480, xxs: 320 };

let state: HostToWebview | undefined;
let breakpoint: EditorBreakpoint = 'lg';

function h<K extends keyof HTMLElementTagNameMap>(
  tag: K,
  props: Partial<HTMLElementTagNameMap[K]> = {},
): HTMLElementTagNameMap[K] {
  return Object.assign(document.createElement(tag), props);
}
const rec = (v: unknown): Rec => (v && typeof v === 'object' && !Array.isArray(v) ? (v as Rec) : {});
const str = (v: unknown): string | undefined => (typeof v === 'string' ? v : undefined);

function render(): void {
  const root = document.getElementById('root')!;
  root.replaceChildren();
  if (!state) return;
  const input = state.input ? rec(state.input) : undefined;
  const config = rec(input?.config);
  const layout = rec(config.layout);
  const theme = rec(config.theme);
  const wTheme = rec(theme.widgets);

  const bar = h('div', { className: 'bar' });
  const title = h('input', { className: 'title', value: str(input?.title) ?? str(config.title) ?? '' });
  title.setAttribute('aria-label', 'Title');
  title.disabled = !input || state.problems.length > 0;
  title.addEventListener('change', () => post({ type: 'setTitle', title: title.value }));
  const select = h('select');
  select.setAttribute('aria-label', 'Breakpoint');
  for (const b of EDITOR_BREAKPOINTS)
    select.append(h('option', { value: b, textContent: b, selected: b === breakpoint }));
  select.addEventListener('change', () => {
    breakpoint = select.value as EditorBreakpoint;
    render();
  });
  bar.append(title, select);
  root.append(bar);

  if (state.problems.length > 0) {
    const list = h('ul', { className: 'problems' });
    for (const p of state.problems)
      list.append(h('li', { textContent: `Line ${p.line + 1}, column ${p.column + 1}: ${p.message}` }));
    root.append(list);
  }
  if (!input) return;

  const cols = Number(rec(layout.cols)[breakpoint] ?? DEFAULT_COLS[breakpoint]) || DEFAULT_COLS[breakpoint];
  const rowHeight = Number(layout.rowHeight ?? 30) || 30;
  const width = DEFAULT_WIDTH[breakpoint];
  const colWidth = width / cols;
  const grid = h('div', { className: 'grid' });
  grid.dataset.breakpoint = breakpoint;
  grid.style.width = `${width}px`;
  grid.style.background = str(rec(theme.dashboard).backgroundColor) ?? str(theme.backgroundColor) ?? '';
  grid.style.fontFamily = str(theme.fontFamily) ?? '';
  const widgets = (Array.isArray(config.widgets) ? config.widgets : []) as Widget[];
  let bottom = 0;
  for (const w of widgets) {
    const box = w.responsiveLayouts?.[breakpoint] ?? w.position;
    if (!box) continue;
    bottom = Math.max(bottom, box.y + box.h);
    const el = h('div', { className: 'widget' });
    el.dataset.id = w.id;
    Object.assign(el.style, {
      left: `${box.x * colWidth}px`,
      top: `${box.y * rowHeight}px`,
      width: `${box.w * colWidth - 4}px`,
      height: `${box.h * rowHeight - 4}px`,
      background: str(wTheme.backgroundColor) ?? '',
      padding: str(wTheme.padding) ?? '',
      borderColor: str(rec(wTheme.border).color) ?? str(theme.primaryColor) ?? '',
      borderRadius: str(rec(wTheme.border).radius) ?? '',
      color: str(rec(wTheme.text).color) ?? '',
    });
    el.append(
      h('div', { className: 'wtitle', textContent: w.id }),
      h('div', {
        className: 'wtype',
        textContent: `${w.type ?? 'widget'} · ${box.w}×${box.h} at ${box.x},${box.y}`,
      }),
    );
    el.addEventListener('pointerdown', (e) => {
      const sx = e.clientX;
      const sy = e.clientY;
      el.setPointerCapture(e.pointerId);
      const up = (u: PointerEvent) => {
        el.removeEventListener('pointerup', up);
        const x = Math.max(0, Math.min(cols - box.w, box.x + Math.round((u.clientX - sx) / colWidth)));
        const y = Math.max(0, box.y + Math.round((u.clientY - sy) / rowHeight));
        if (x !== box.x || y !== box.y) {
          const responsive = w.responsiveLayouts?.[breakpoint] !== undefined;
          post({ type: 'moveWidget', id: w.id, x, y, breakpoint: responsive ? breakpoint : null });
        }
      };
      el.addEventListener('pointerup', up);
    });
    grid.append(el);
  }
  grid.style.height = `${Math.max(bottom, 4) * rowHeight}px`;
  root.append(grid);
}

window.addEventListener('message', (e: MessageEvent) => {
  const parsed = hostToWebview.safeParse(e.data);
  if (!parsed.success) return;
  state = parsed.data;
  if (state.breakpoint) breakpoint = state.breakpoint;
  render();
});
post({ type: 'ready' });
