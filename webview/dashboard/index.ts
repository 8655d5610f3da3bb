// The dashboard editor's page: a toolbar (title, breakpoint, add widget, publish, open as text),
// the open publish review's decision, the problems of the text while it is invalid (a broken shape
// keeps the last valid preview and pauses editing; a bad value is marked at its field and the rest
// stays editable), the grid preview at the chosen breakpoint and the inspector. The page keeps only view state
// (breakpoint, selection, tab, unapplied config drafts); every edit is a message to the host,
// which edits the document and sends the new state back.
import {
  EDITOR_BREAKPOINTS,
  EDITOR_WIDGET_TYPES,
  hostToWebview,
  type EditorBreakpoint,
  type HostToWebview,
  type WebviewToHost,
} from '../../src/shared/dashboardEditorProtocol';
import { button, h, markFocus, rec, restoreFocus, str } from './dom';
import { isDragging, renderGrid } from './grid';
import { TABS, renderInspector, type Tab } from './inspector';

interface ViewState {
  breakpoint: EditorBreakpoint;
  selected?: string;
  tab: Tab;
  /** Unapplied config JSON per widget, kept when the tab is hidden and its page reloaded. */
  drafts?: Record<string, string>;
}
interface VsCodeApi {
  postMessage(message: WebviewToHost): void;
  getState(): unknown;
  setState(state: ViewState): void;
}
declare function acquireVsCodeApi(): VsCodeApi;
const vscode = acquireVsCodeApi();
const post = (m: WebviewToHost) => vscode.postMessage(m);

const saved = rec(vscode.getState());
const view: ViewState = {
  breakpoint: EDITOR_BREAKPOINTS.includes(saved.breakpoint as EditorBreakpoint)
    ? (saved.breakpoint as EditorBreakpoint)
    : 'lg',
  tab: TABS.includes(saved.tab as Tab) ? (saved.tab as Tab) : 'widget',
  ...(typeof saved.selected === 'string' ? { selected: saved.selected } : {}),
};
const drafts = new Map<string, string>(
  Object.entries(rec(saved.drafts)).filter((e): e is [string, string] => typeof e[1] === 'string'),
);
let state: HostToWebview | undefined;
let pending = false;

const root = document.getElementById('root')!;
const toolbar = h('div', { className: 'toolbar' });
const reviewBar = h('div', { className: 'reviewbar' });
reviewBar.setAttribute('role', 'status');
const problems = h('div', { className: 'problems' });
problems.setAttribute('role', 'alert');
const info = h('div', { className: 'info' });
const canvas = h('div', { className: 'canvas' });
const inspector = h('aside', { className: 'inspector' });
const main = h('div', { className: 'main' }, h('div', { className: 'stage' }, info, canvas), inspector);
root.append(toolbar, reviewBar, problems, main);

function saveView(): void {
  vscode.setState({ ...view, drafts: Object.fromEntries(drafts) });
}

function select(id: string | undefined): void {
  if (view.selected === id) return;
  view.selected = id;
  if (id !== undefined) view.tab = 'widget';
  saveView();
  for (const el of canvas.querySelectorAll<HTMLElement>('.widget')) {
    el.classList.toggle('selected', el.dataset.id === id);
  }
  renderSide();
}

function renderToolbar(input: Record<string, unknown> | undefined, editable: boolean): void {
  const config = rec(input?.config);
  const title = h('input', { className: 'title', value: str(input?.title) ?? str(config.title) ?? '' });
  title.dataset.key = 'title';
  title.placeholder = 'Dashboard title';
  title.setAttribute('aria-label', 'Title');
  title.disabled = !editable;
  title.addEventListener('change', () => post({ type: 'setTitle', title: title.value }));

  const bps = h('div', { className: 'segmented' });
  bps.setAttribute('role', 'radiogroup');
  bps.setAttribute('aria-label', 'Breakpoint');
  for (const b of EDITOR_BREAKPOINTS) {
    const r = h('button', { type: 'button', textContent: b, className: b === view.breakpoint ? 'on' : '' });
    r.setAttribute('role', 'radio');
    r.setAttribute('aria-checked', String(b === view.breakpoint));
    r.dataset.key = `bp:${b}`;
    r.dataset.breakpoint = b;
    r.addEventListener('click', () => {
      view.breakpoint = b;
      saveView();
      render();
    });
    bps.append(r);
  }

  const add = h('select', { className: 'add', disabled: !editable });
  add.dataset.key = 'add';
  add.setAttribute('aria-label', 'Add widget');
  add.append(h('option', { value: '', textContent: '+ Add widget…' }));
  for (const t of EDITOR_WIDGET_TYPES) add.append(h('option', { value: t, textContent: t }));
  add.addEventListener('change', () => {
    if (add.value) post({ type: 'addWidget', widgetType: add.value });
    add.value = '';
  });

  const publish = button('Publish…', () => post({ type: 'publish' }), {
    icon: 'cloud-upload',
    title: 'Publish this dashboard (validated, diffed and confirmed first)',
    key: 'publish',
  });
  publish.disabled = !editable;
  const draft = button('Save Draft', () => post({ type: 'saveDraft' }), {
    icon: 'save',
    title: 'Save this dashboard as the workbook’s draft on the server, without publishing it',
    secondary: true,
    key: 'save-draft',
  });
  draft.disabled = !editable;
  const text = button('', () => post({ type: 'openText' }), {
    icon: 'json',
    title: 'Open as text',
    secondary: true,
    key: 'open-text',
  });
  toolbar.replaceChildren(title, bps, add, draft, publish, text);
}

/** While this file's publish review is open, its decision is offered here too (bound to that review). */
function renderReview(): void {
  const r = state?.review;
  reviewBar.hidden = !r;
  if (!r) return reviewBar.replaceChildren();
  reviewBar.replaceChildren(
    h('span', { textContent: `Publish review open → ${r.where}: ${r.summary}.` }),
    button('Publish These Changes', () => post({ type: 'publishReviewed' }), {
      icon: 'cloud-upload',
      key: 'review-publish',
      title: 'Publish exactly what the open review shows',
    }),
    button('Cancel', () => post({ type: 'cancelReview' }), {
      secondary: true,
      key: 'review-cancel',
      title: 'Close the review without publishing',
    }),
  );
}

function renderProblems(): void {
  const list = state?.problems ?? [];
  problems.hidden = list.length === 0;
  if (list.length === 0) return problems.replaceChildren();
  const items = h('ul');
  for (const p of list) {
    const b = h('button', {
      type: 'button',
      className: 'link',
      textContent: `Line ${p.line + 1}, column ${p.column + 1}: ${p.message}`,
      title: 'Show in the text',
    });
    b.addEventListener('click', () => post({ type: 'reveal', line: p.line, column: p.column }));
    items.append(h('li', {}, b));
  }
  problems.replaceChildren(
    h('strong', {
      textContent: !state?.input
        ? 'The file has problems, so there is nothing to preview yet.'
        : state.locked
          ? 'The file has problems. The preview shows the last valid version; editing resumes when they are fixed.'
          : 'Some values are not valid (marked in the inspector); fix them before publishing.',
    }),
    items,
  );
}

function renderSide(): void {
  if (!state?.input) return inspector.replaceChildren();
  const focus = markFocus();
  renderInspector(inspector, {
    input: state.input,
    breakpoint: view.breakpoint,
    selected: view.selected,
    editable: !state.locked,
    history: state.history,
    problems: state.problems,
    reports: state.reports,
    themeChoices: state.themeChoices,
    tab: view.tab,
    drafts,
    post: (m) => {
      post(m);
      saveView();
    },
    saveDrafts: saveView,
    select: (id) => {
      select(id);
      canvas.querySelector<HTMLElement>(`.widget.selected`)?.focus({ preventScroll: false });
    },
    setTab: (t) => {
      view.tab = t;
      saveView();
      renderSide();
      inspector.querySelector<HTMLElement>(`[data-tab="${t}"]`)?.focus();
    },
  });
  restoreFocus(focus);
}

function renderCanvas(): void {
  if (!state?.input) {
    info.textContent = '';
    return canvas.replaceChildren();
  }
  const config = rec(state.input.config);
  const editable = !state.locked;
  const { spec, warnings } = renderGrid(
    canvas,
    config,
    view.breakpoint,
    view.selected,
    editable,
    {
      select,
      move: (id, box) => post({ type: 'moveWidget', id, x: box.x, y: box.y, breakpoint: targetOf(id) }),
      resize: (id, box) => post({ type: 'resizeWidget', id, w: box.w, h: box.h, breakpoint: targetOf(id) }),
      duplicate: (id) => post({ type: 'duplicateWidget', id }),
      remove: (id) => {
        if (view.selected === id) view.selected = undefined;
        post({ type: 'deleteWidget', id });
      },
    },
    state.reports,
  );
  const scaled = spec.width < spec.nominalWidth ? ` (drawn at ${spec.width} px to fit)` : '';
  info.replaceChildren(
    h('span', {
      textContent: `${view.breakpoint} · ${spec.cols} columns · ${spec.nominalWidth} px wide${scaled} · row ${spec.rowHeight} px`,
    }),
    ...warnings.map((w) => h('span', { className: 'warning', textContent: w })),
  );
}

/** Edits go to the widget's own layout at this breakpoint when it has one, else its position. */
function targetOf(id: string): EditorBreakpoint | null {
  const widgets = rec(state?.input?.config).widgets;
  const w = (Array.isArray(widgets) ? widgets.map(rec) : []).find((x) => x.id === id);
  return w && rec(w.responsiveLayouts)[view.breakpoint] ? view.breakpoint : null;
}

function render(): void {
  if (isDragging()) {
    pending = true;
    return;
  }
  pending = false;
  const focus = markFocus();
  const editable = !!state?.input && !state.locked;
  renderToolbar(state?.input ?? undefined, editable);
  renderReview();
  renderProblems();
  const widgets = rec(state?.input?.config).widgets;
  if (view.selected && !(Array.isArray(widgets) && widgets.some((w) => rec(w).id === view.selected))) {
    view.selected = undefined;
  }
  renderCanvas();
  renderSide();
  restoreFocus(focus);
  if (!state?.input && !state?.problems.length) {
    canvas.replaceChildren(h('p', { className: 'hint', textContent: 'Loading…' }));
  }
}

window.addEventListener('message', (e: MessageEvent) => {
  const parsed = hostToWebview.safeParse(e.data);
  if (!parsed.success) return;
  state = parsed.data;
  if (state.breakpoint) view.breakpoint = state.breakpoint;
  if (state.select !== undefined) {
    view.selected = state.select;
    view.tab = 'widget';
  }
  saveView();
  render();
  if (state.select !== undefined) {
    canvas.querySelector<HTMLElement>('.widget.selected')?.focus();
  }
});
window.addEventListener('pointerup', () => {
  if (pending) setTimeout(render, 0);
});
// Redraw when the editor's width changes (the grid is fluid, like the platform's).
let lastWidth = -1;
if (typeof ResizeObserver !== 'undefined') {
  new ResizeObserver(() => {
    if (canvas.clientWidth === lastWidth || !state?.input || isDragging()) return;
    lastWidth = canvas.clientWidth;
    const focus = markFocus();
    renderCanvas();
    restoreFocus(focus);
  }).observe(canvas);
}
post({ type: 'ready' });
