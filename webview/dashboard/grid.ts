// The preview of the dashboard grid at one breakpoint: every widget at its responsive layout for that
// breakpoint (or its main position), drawn with the layout's columns, row height, margins and
// padding and the theme's colours, fonts, borders and paddings. Widgets are moved by dragging them
// and resized by their corner handle (both snap to cells), or with the keyboard: arrows move,
// Shift+arrows resize, Delete removes, Ctrl/Cmd+D duplicates. The preview only reports what the user
// did; the host edits the document and a new state re-renders the grid.
import type { EditorBreakpoint, EditorReport } from '../../src/shared/dashboardEditorProtocol';
import { renderMarkdown } from '../shared/markdown';
import {
  boxRect,
  gridHeight,
  gridSpec,
  movedBox,
  outOfBounds,
  overlaps,
  resizedBox,
  type GridBox,
  type GridSpec,
} from '../../src/shared/dashboardGrid';
import { h, icon, rec, str, type Rec } from './dom';

export interface PreviewWidget {
  id: string;
  type?: string;
  box: GridBox;
  /** Whether the box is the widget's own layout at this breakpoint (not its main position). */
  responsive: boolean;
  config: Rec;
}

export interface GridActions {
  select(id: string | undefined): void;
  move(id: string, box: GridBox): void;
  resize(id: string, box: GridBox): void;
  duplicate(id: string): void;
  remove(id: string): void;
}

const isBox = (v: unknown): v is GridBox =>
  ['x', 'y', 'w', 'h'].every((k) => typeof rec(v)[k] === 'number' && Number.isFinite(rec(v)[k]));

/** The widgets of a config as the preview places them at `bp`. */
export function previewWidgets(config: Rec, bp: EditorBreakpoint): PreviewWidget[] {
  const out: PreviewWidget[] = [];
  for (const raw of Array.isArray(config.widgets) ? config.widgets : []) {
    const w = rec(raw);
    const own = rec(w.responsiveLayouts)[bp];
    const box = isBox(own) ? own : isBox(w.position) ? w.position : undefined;
    if (typeof w.id !== 'string' || !box) continue;
    out.push({
      id: w.id,
      ...(typeof w.type === 'string' ? { type: w.type } : {}),
      box: { x: box.x, y: box.y, w: box.w, h: box.h },
      responsive: isBox(own),
      config: rec(w.config),
    });
  }
  return out;
}

/**
 * The first words of a widget's markdown text, as plain text (headings, emphasis and link syntax
 * dropped), cut at a word near `max` characters.
 */
export function textTitle(text: string, max = 40): string | undefined {
  for (const raw of text.split('\n')) {
    const line = raw
      .replace(/^\s*(?:#{1,6}\s+|[-*+>]\s+|\d+[.)]\s+)+/, '')
      .replace(/!?\[([^\]]*)\]\([^)]*\)/g, '$1')
      .replace(/<[^>]*>/g, '')
      .replace(/[*_`~]+/g, '')
      .replace(/\s+/g, ' ')
      .trim();
    if (!line) continue;
    if (line.length <= max) return line;
    const cut = line.slice(0, max);
    return `${cut.includes(' ') ? cut.slice(0, cut.lastIndexOf(' ')) : cut}…`;
  }
  return undefined;
}

/**
 * What a widget is called: its own title, else its report's name, else (a TEXT widget) the first
 * words of its text, else its type; the id only when there is nothing else.
 */
export function widgetTitle(
  w: { id: string; type?: string; config: Rec },
  reports: Record<string, EditorReport>,
): string {
  const id = w.config.reportId;
  const report = typeof id === 'number' || typeof id === 'string' ? reports[String(id)] : undefined;
  const text = str(w.config.text) ?? str(w.config.content) ?? str(w.config.markdown);
  const own = str(w.config.title)?.trim();
  return (
    (own || undefined) ??
    report?.title ??
    (text !== undefined ? textTitle(text) : undefined) ??
    (w.type ? `${w.type[0]}${w.type.slice(1).toLowerCase().replace(/_/g, ' ')}` : undefined) ??
    w.id
  );
}

let dragging = false;
/** Whether a drag or resize is under way (the page holds re-renders until it ends). */
export function isDragging(): boolean {
  return dragging;
}

function themeOf(config: Rec) {
  const theme = rec(config.theme);
  const widgets = rec(theme.widgets);
  const controls = rec(theme.controls);
  const border = (b: Rec) => ({
    borderColor: str(b.color) ?? '',
    borderWidth: str(b.width) ?? '',
    borderStyle: str(b.style) ?? '',
    borderRadius: str(b.radius) ?? '',
  });
  const title = (t: Rec) => ({
    color: str(t.color) ?? '',
    fontFamily: str(t.fontFamily) ?? '',
    fontSize: str(t.fontSize) ?? '',
    fontWeight: str(t.fontWeight) ?? '',
  });
  const text = rec(widgets.text);
  return {
    page: {
      background: str(rec(theme.dashboard).backgroundColor) ?? str(theme.backgroundColor) ?? '',
      padding: str(rec(theme.dashboard).padding) ?? '',
      fontFamily: str(theme.fontFamily) ?? '',
    },
    accent: str(theme.primaryColor) ?? '',
    widget: {
      background: str(widgets.backgroundColor) ?? '',
      padding: str(widgets.padding) ?? '',
      color: str(text.color) ?? '',
      fontFamily: str(text.fontFamily) ?? '',
      ...border(rec(widgets.border)),
    },
    widgetTitle: title(rec(widgets.title)),
    secondary: str(text.secondaryColor) ?? '',
    code: str(text.codeFontFamily) ?? '',
    control: {
      background: str(controls.backgroundColor) ?? str(widgets.backgroundColor) ?? '',
      padding: str(controls.padding) ?? '',
      ...border(rec(controls.border)),
    },
    controlTitle: title(rec(controls.title)),
  };
}

const CONTROL_TYPES = new Set(['FILTER', 'FIELD', 'TIME_GRAIN']);
const TYPE_ICONS: Record<string, string> = {
  CHART: 'graph',
  TEXT: 'markdown',
  FILTER: 'filter',
  FIELD: 'symbol-field',
  TIME_GRAIN: 'calendar',
  AI: 'sparkle',
  PARENT: 'type-hierarchy',
  CONTAINER: 'layout',
  SPACER: 'whitespace',
  DIVIDER: 'dash',
};

const KIND_ICONS: Record<string, string> = { table: 'table', vega: 'graph', chart: 'graph', pivot: 'pivot' };

function widgetBody(
  w: PreviewWidget,
  t: ReturnType<typeof themeOf>,
  report: EditorReport | undefined,
): HTMLElement {
  const body = h('div', { className: 'wbody' });
  const text = str(w.config.text) ?? str(w.config.content) ?? str(w.config.markdown);
  if (w.type === 'TEXT' && text !== undefined) {
    // The widget's markdown as the platform shows it: sanitised, and no remote content (images
    // become their alt text, links stay inert text in the preview).
    const md = h('div', { className: 'wtext markdown' });
    md.append(renderMarkdown(text, window, { allowRemoteImages: false }));
    for (const a of md.querySelectorAll('a')) a.replaceWith(...a.childNodes);
    body.append(md);
  } else if (w.type === 'DIVIDER') {
    body.append(h('hr'));
  } else if (report) {
    body.classList.add('wreport');
    const head = h('div', { className: 'wkind' });
    const i = icon(KIND_ICONS[report.kind ?? ''] ?? TYPE_ICONS[w.type ?? ''] ?? 'graph');
    if (t.accent) i.style.color = t.accent;
    head.append(
      i,
      h('span', {
        textContent:
          [report.kind, report.mark ? `${report.mark} chart` : ''].filter(Boolean).join(' · ') || 'report',
      }),
    );
    body.append(head);
    if (report.sql) body.append(h('pre', { className: 'wsql', textContent: report.sql, title: report.sql }));
  } else {
    const i = icon(TYPE_ICONS[w.type ?? ''] ?? 'symbol-misc');
    i.classList.add('wicon');
    if (t.accent) i.style.color = t.accent;
    body.append(i);
    const id = w.config.reportId;
    if (typeof id === 'number' || typeof id === 'string') {
      body.append(h('div', { className: 'wnote', textContent: `report ${id}` }));
    }
  }
  if (t.secondary) body.style.color = t.secondary;
  return body;
}

/**
 * Draws the grid of `config` at `bp` into `host` (replacing what was there). Returns the spec used
 * and the problems of the layout (overlaps and widgets past the last column).
 */
export function renderGrid(
  host: HTMLElement,
  config: Rec,
  bp: EditorBreakpoint,
  selected: string | undefined,
  editable: boolean,
  actions: GridActions,
  reports: Record<string, EditorReport> = {},
): { spec: GridSpec; warnings: string[] } {
  const t = themeOf(config);
  const page = h('div', { className: 'page' });
  Object.assign(page.style, t.page);
  host.replaceChildren(page);
  const pad = getComputedStyle(page);
  const padX = (parseFloat(pad.paddingLeft) || 0) + (parseFloat(pad.paddingRight) || 0);
  // jsdom (tests) measures 0: draw at the breakpoint's own width then.
  const measured = host.clientWidth > 0 ? host.clientWidth - padX - 2 : Number.POSITIVE_INFINITY;
  const spec = gridSpec(config.layout, bp, measured);
  const widgets = previewWidgets(config, bp);

  const grid = h('div', { className: 'grid' });
  grid.dataset.breakpoint = bp;
  grid.style.width = `${spec.width}px`;
  grid.style.height = `${gridHeight(
    spec,
    widgets.map((w) => w.box),
  )}px`;
  grid.style.setProperty('--col', `${spec.colWidth + spec.margin[0]}px`);
  grid.style.setProperty('--row', `${spec.rowHeight + spec.margin[1]}px`);
  grid.style.setProperty('--pad-x', `${spec.padding[0]}px`);
  grid.style.setProperty('--pad-y', `${spec.padding[1]}px`);
  page.append(grid);

  const overlapping = overlaps(widgets.map((w) => ({ id: w.id, box: w.box })));
  const outside = outOfBounds(
    spec,
    widgets.map((w) => ({ id: w.id, box: w.box })),
  );
  const flagged = new Set([...overlapping.flat(), ...outside]);

  if (widgets.length === 0) {
    grid.append(h('div', { className: 'empty', textContent: 'No widgets yet. Add one with “Add widget”.' }));
  }
  for (const w of widgets) {
    const control = CONTROL_TYPES.has(w.type ?? '');
    const el = h('div', { className: 'widget', tabIndex: 0 });
    el.dataset.id = w.id;
    el.dataset.key = `widget:${w.id}`;
    el.setAttribute('role', 'button');
    const name = widgetTitle(w, reports);
    el.setAttribute(
      'aria-label',
      `${name}, ${w.type ?? 'widget'}, ${w.box.w} by ${w.box.h} at column ${w.box.x}, row ${w.box.y}`,
    );
    el.classList.toggle('selected', w.id === selected);
    el.classList.toggle('flagged', flagged.has(w.id));
    const rect = boxRect(spec, w.box);
    Object.assign(el.style, control ? t.control : t.widget, {
      left: `${rect.left}px`,
      top: `${rect.top}px`,
      width: `${rect.width}px`,
      height: `${rect.height}px`,
    });
    const reportId = w.config.reportId;
    const report =
      typeof reportId === 'number' || typeof reportId === 'string' ? reports[String(reportId)] : undefined;
    const title = h('div', { className: 'wtitle', textContent: name });
    Object.assign(title.style, control ? t.controlTitle : t.widgetTitle);
    const meta = h('div', {
      className: 'wmeta',
      textContent: `${w.type ?? 'widget'}${report && str(w.config.title) !== undefined && report.title !== str(w.config.title) ? ` · ${report.title}` : ''} · ${w.id} · ${w.box.w}×${w.box.h} at ${w.box.x},${w.box.y}${w.responsive ? ` · own ${bp} layout` : ''}`,
    });
    el.append(title, meta, widgetBody(w, t, report));
    if (editable) {
      const handle = h('div', { className: 'resize', title: 'Drag to resize (Shift+arrows)' });
      el.append(handle);
      wireDrag(el, handle, w, spec, actions);
      wireKeys(el, w, spec, actions);
    }
    el.addEventListener('focus', () => actions.select(w.id));
    grid.append(el);
  }

  const warnings = [
    ...overlapping.map(([a, b]) => `${a} overlaps ${b} at ${bp}.`),
    ...outside.map((id) => `${id} reaches past column ${spec.cols} at ${bp}.`),
  ];
  return { spec, warnings };
}

/** Sets an element's position and size to a grid box. */
function placeAt(spec: GridSpec, target: HTMLElement, box: GridBox): void {
  const r = boxRect(spec, box);
  Object.assign(target.style, {
    left: `${r.left}px`,
    top: `${r.top}px`,
    width: `${r.width}px`,
    height: `${r.height}px`,
  });
}

function wireDrag(
  el: HTMLElement,
  handle: HTMLElement,
  w: PreviewWidget,
  spec: GridSpec,
  actions: GridActions,
): void {
  const start = (e: PointerEvent, mode: 'move' | 'resize') => {
    if (e.button !== 0) return;
    e.preventDefault();
    e.stopPropagation();
    el.focus({ preventScroll: true });
    actions.select(w.id);
    dragging = true;
    el.classList.add('dragging');
    const sx = e.clientX;
    const sy = e.clientY;
    const from = boxRect(spec, w.box);
    const ghost = h('div', { className: 'ghost' });
    el.parentElement?.append(ghost);
    const place = (target: HTMLElement, box: GridBox) => placeAt(spec, target, box);
    place(ghost, w.box);
    const target = (ev: PointerEvent) =>
      mode === 'move'
        ? movedBox(spec, w.box, ev.clientX - sx, ev.clientY - sy)
        : resizedBox(spec, w.box, ev.clientX - sx, ev.clientY - sy);
    const onMove = (ev: PointerEvent) => {
      const dx = ev.clientX - sx;
      const dy = ev.clientY - sy;
      if (mode === 'move') {
        el.style.left = `${from.left + dx}px`;
        el.style.top = `${from.top + dy}px`;
      } else {
        el.style.width = `${Math.max(20, from.width + dx)}px`;
        el.style.height = `${Math.max(20, from.height + dy)}px`;
      }
      place(ghost, target(ev));
    };
    const onUp = (ev: PointerEvent) => {
      window.removeEventListener('pointermove', onMove);
      window.removeEventListener('pointerup', onUp);
      window.removeEventListener('pointercancel', onUp);
      dragging = false;
      el.classList.remove('dragging');
      ghost.remove();
      const box = ev.type === 'pointercancel' ? w.box : target(ev);
      // Stay at the snapped cell until the host's new state re-renders the grid.
      place(el, box);
      const from = w.box;
      // Keys pressed before that re-render start from here, not from the box before the drag.
      w.box = box;
      if (box.x !== from.x || box.y !== from.y) actions.move(w.id, box);
      else if (box.w !== from.w || box.h !== from.h) actions.resize(w.id, box);
    };
    window.addEventListener('pointermove', onMove);
    window.addEventListener('pointerup', onUp);
    window.addEventListener('pointercancel', onUp);
  };
  el.addEventListener('pointerdown', (e) => start(e, 'move'));
  handle.addEventListener('pointerdown', (e) => start(e, 'resize'));
}

function wireKeys(el: HTMLElement, w: PreviewWidget, spec: GridSpec, actions: GridActions): void {
  // Shows a keyed box at once and makes it the base of the next key: a key pressed before the
  // host's re-render (key repeat, a quick second key) must not undo the one before it.
  const keyed = (box: GridBox): GridBox => {
    w.box = box;
    placeAt(spec, el, box);
    return box;
  };
  el.addEventListener('keydown', (e) => {
    const steps: Record<string, [number, number]> = {
      ArrowLeft: [-1, 0],
      ArrowRight: [1, 0],
      ArrowUp: [0, -1],
      ArrowDown: [0, 1],
    };
    const step = steps[e.key];
    const b = w.box;
    if (step) {
      e.preventDefault();
      if (e.shiftKey) {
        const w2 = Math.min(Math.max(1, b.w + step[0]), Math.max(1, spec.cols - b.x));
        const h2 = Math.max(1, b.h + step[1]);
        if (w2 !== b.w || h2 !== b.h) actions.resize(w.id, keyed({ ...b, w: w2, h: h2 }));
      } else {
        const x = Math.min(Math.max(0, b.x + step[0]), Math.max(0, spec.cols - b.w));
        const y = Math.max(0, b.y + step[1]);
        if (x !== b.x || y !== b.y) actions.move(w.id, keyed({ ...b, x, y }));
      }
    } else if (e.key === 'Delete' || e.key === 'Backspace') {
      e.preventDefault();
      actions.remove(w.id);
    } else if ((e.ctrlKey || e.metaKey) && e.key.toLowerCase() === 'd') {
      e.preventDefault();
      actions.duplicate(w.id);
    } else if (e.key === 'Escape') {
      actions.select(undefined);
      el.blur();
    }
  });
}
