// The dashboard editor's side panel, in tabs: the selected widget (type, layout numbers at the
// breakpoint, its own layout there or not, config JSON, duplicate, delete), the dashboard
// (description, embedding), the theme (colour pickers beside every colour), the layout (row height,
// margins, padding, columns and widths per breakpoint) and this file's publish history. Every change
// is a message to the host; nothing is edited here.
import {
  EDITOR_BREAKPOINTS,
  EDITOR_WIDGET_TYPES,
  THEME_FIELDS,
  type EditorBreakpoint,
  type EditorHistoryEntry,
  type WebviewToHost,
} from '../../src/shared/dashboardEditorProtocol';
import {
  DEFAULT_BREAKPOINTS,
  DEFAULT_COLS,
  DEFAULT_MARGIN,
  DEFAULT_ROW_HEIGHT,
} from '../../src/shared/dashboardGrid';
import { button, field, getPath, h, hexColour, num, numberInput, rec, str, textInput, type Rec } from './dom';
import { previewWidgets } from './grid';

export const TABS = ['widget', 'dashboard', 'theme', 'layout', 'history'] as const;
export type Tab = (typeof TABS)[number];
const TAB_LABELS: Record<Tab, string> = {
  widget: 'Widget',
  dashboard: 'Dashboard',
  theme: 'Theme',
  layout: 'Layout',
  history: 'History',
};

export interface InspectorContext {
  input: Rec;
  breakpoint: EditorBreakpoint;
  selected: string | undefined;
  editable: boolean;
  history: EditorHistoryEntry[];
  tab: Tab;
  /** Unapplied config JSON per widget id (kept across re-renders). */
  drafts: Map<string, string>;
  post(message: WebviewToHost): void;
  /** Persists the drafts with the page's view state. */
  saveDrafts(): void;
  select(id: string | undefined): void;
  setTab(tab: Tab): void;
}

export function renderInspector(host: HTMLElement, ctx: InspectorContext): void {
  const tabs = h('div', { className: 'tabs' });
  tabs.setAttribute('role', 'tablist');
  tabs.setAttribute('aria-label', 'Inspector');
  const panel = h('div', { className: 'tabpanel' });
  panel.setAttribute('role', 'tabpanel');
  for (const t of TABS) {
    const b = h('button', { type: 'button', textContent: TAB_LABELS[t], className: 'tab' });
    b.setAttribute('role', 'tab');
    b.setAttribute('aria-selected', String(t === ctx.tab));
    b.tabIndex = t === ctx.tab ? 0 : -1;
    b.dataset.key = `tab:${t}`;
    b.dataset.tab = t;
    b.addEventListener('click', () => ctx.setTab(t));
    b.addEventListener('keydown', (e) => {
      const d = e.key === 'ArrowRight' ? 1 : e.key === 'ArrowLeft' ? -1 : 0;
      if (!d) return;
      e.preventDefault();
      ctx.setTab(TABS[(TABS.indexOf(t) + d + TABS.length) % TABS.length]!);
    });
    tabs.append(b);
  }
  const body = h('fieldset', { className: 'form', disabled: !ctx.editable });
  const renderers: Record<Tab, (c: InspectorContext) => HTMLElement[]> = {
    widget: widgetTab,
    dashboard: dashboardTab,
    theme: themeTab,
    layout: layoutTab,
    history: historyTab,
  };
  body.append(...renderers[ctx.tab](ctx));
  panel.append(ctx.tab === 'history' ? h('div', {}, ...body.childNodes) : body);
  host.replaceChildren(tabs, panel);
}

function section(title: string, ...children: HTMLElement[]): HTMLElement {
  return h('section', {}, h('h3', { textContent: title }), ...children);
}

function widgetList(ctx: InspectorContext): HTMLElement {
  const widgets = previewWidgets(rec(ctx.input.config), ctx.breakpoint);
  if (widgets.length === 0)
    return h('p', { className: 'hint', textContent: 'The dashboard has no widgets.' });
  const list = h('ul', { className: 'wlist' });
  for (const w of widgets) {
    const b = h('button', {
      type: 'button',
      className: 'link',
      textContent: `${str(w.config.title) ?? w.id} (${w.type ?? 'widget'})`,
    });
    b.dataset.key = `list:${w.id}`;
    b.addEventListener('click', () => {
      ctx.select(w.id);
      ctx.setTab('widget');
    });
    list.append(h('li', {}, b));
  }
  return list;
}

/** Line and column (1-based) of a JSON.parse error, from the position V8 reports. */
function jsonErrorAt(text: string, message: string): string {
  const pos = /position (\d+)/.exec(message);
  if (!pos) return message;
  const before = text.slice(0, Number(pos[1]));
  const line = before.split('\n').length;
  const column = before.length - before.lastIndexOf('\n');
  return `Line ${line}, column ${column}: ${message.replace(/\s*\(line \d+ column \d+\)/, '')}`;
}

function widgetTab(ctx: InspectorContext): HTMLElement[] {
  const config = rec(ctx.input.config);
  const widgets = Array.isArray(config.widgets) ? config.widgets.map(rec) : [];
  const w = widgets.find((x) => x.id === ctx.selected);
  if (!w || typeof w.id !== 'string') {
    return [
      h('p', {
        className: 'hint',
        textContent:
          'Select a widget on the grid (click it, or Tab to it). Arrows move it, Shift+arrows resize it, Delete removes it, Ctrl/Cmd+D duplicates it.',
      }),
      section('Widgets', widgetList(ctx)),
    ];
  }
  const id = w.id;
  const bp = ctx.breakpoint;
  const own = rec(rec(w.responsiveLayouts)[bp]);
  const hasOwn = Object.keys(own).length > 0;
  const box = hasOwn ? own : rec(w.position);
  const target = hasOwn ? bp : null;

  const type = textInput(`type:${id}`, str(w.type) ?? '', (v) =>
    ctx.post({ type: 'setWidgetType', id, widgetType: v.trim() }),
  );
  type.setAttribute('list', 'widget-types');
  const types = h('datalist', { id: 'widget-types' });
  for (const t of EDITOR_WIDGET_TYPES) types.append(h('option', { value: t }));

  const ownBox = h('input', { type: 'checkbox', checked: hasOwn });
  ownBox.dataset.key = `own:${id}:${bp}`;
  ownBox.addEventListener('change', () =>
    ctx.post({ type: 'setResponsive', id, breakpoint: bp, enabled: ownBox.checked }),
  );

  const coord = (k: 'x' | 'y' | 'w' | 'h') =>
    numberInput(
      `box:${id}:${k}`,
      num(box[k]),
      (v) => {
        if (v === null) return;
        const b = { x: num(box.x) ?? 0, y: num(box.y) ?? 0, w: num(box.w) ?? 1, h: num(box.h) ?? 1, [k]: v };
        ctx.post(
          k === 'x' || k === 'y'
            ? { type: 'moveWidget', id, x: b.x, y: b.y, breakpoint: target }
            : { type: 'resizeWidget', id, w: b.w, h: b.h, breakpoint: target },
        );
      },
      { min: k === 'w' || k === 'h' ? 1 : 0, integer: true },
    );

  const current = JSON.stringify(rec(w.config), null, 2);
  const draft = ctx.drafts.get(id);
  const area = h('textarea', { value: draft ?? current, rows: 10, spellcheck: false });
  area.dataset.key = `config:${id}`;
  area.setAttribute('aria-label', 'Widget config JSON');
  const error = h('div', { className: 'error' });
  error.setAttribute('role', 'alert');
  const status = h('span', {
    className: 'hint',
    textContent: draft !== undefined && draft !== current ? 'Not applied yet.' : '',
  });
  const apply = () => {
    let parsed: unknown;
    try {
      parsed = JSON.parse(area.value);
    } catch (e) {
      error.textContent = jsonErrorAt(area.value, (e as Error).message);
      return;
    }
    if (!parsed || typeof parsed !== 'object' || Array.isArray(parsed)) {
      error.textContent = 'The config must be a JSON object ({ … }).';
      return;
    }
    error.textContent = '';
    ctx.drafts.delete(id);
    ctx.post({ type: 'setWidgetConfig', id, config: parsed as Rec });
  };
  area.addEventListener('input', () => {
    ctx.drafts.set(id, area.value);
    ctx.saveDrafts();
    status.textContent = area.value !== current ? 'Not applied yet.' : '';
  });
  area.addEventListener('keydown', (e) => {
    if (e.key === 'Enter' && (e.ctrlKey || e.metaKey)) {
      e.preventDefault();
      apply();
    }
  });
  const discard = button(
    'Discard',
    () => {
      ctx.drafts.delete(id);
      ctx.saveDrafts();
      area.value = current;
      status.textContent = '';
      error.textContent = '';
    },
    { secondary: true },
  );

  return [
    section(
      `Widget ${id}`,
      field('Type', type, types),
      field(
        `Own layout at ${bp}`,
        ownBox,
        h('span', {
          className: 'hint',
          textContent: hasOwn
            ? `Edits below change the ${bp} layout only.`
            : 'Off: edits change the main position.',
        }),
      ),
      h(
        'div',
        { className: 'quad' },
        field('x', coord('x')),
        field('y', coord('y')),
        field('w', coord('w')),
        field('h', coord('h')),
      ),
    ),
    section(
      'Config (JSON)',
      area,
      error,
      h(
        'div',
        { className: 'row' },
        button('Apply', apply, { title: 'Apply the config (Ctrl/Cmd+Enter)', key: `apply:${id}` }),
        discard,
        status,
      ),
    ),
    h(
      'div',
      { className: 'row' },
      button('Duplicate', () => ctx.post({ type: 'duplicateWidget', id }), {
        icon: 'copy',
        secondary: true,
        key: `dup:${id}`,
      }),
      button('Delete', () => ctx.post({ type: 'deleteWidget', id }), {
        icon: 'trash',
        secondary: true,
        key: `del:${id}`,
      }),
    ),
  ];
}

function dashboardTab(ctx: InspectorContext): HTMLElement[] {
  const input = ctx.input;
  const config = rec(input.config);
  const desc = h('textarea', { value: str(input.description) ?? str(config.description) ?? '', rows: 3 });
  desc.dataset.key = 'description';
  desc.addEventListener('change', () => ctx.post({ type: 'setDescription', description: desc.value }));
  const embed = h('input', { type: 'checkbox', checked: input.allowEmbed === true });
  embed.dataset.key = 'allowEmbed';
  embed.addEventListener('change', () => ctx.post({ type: 'setAllowEmbed', allowEmbed: embed.checked }));
  const ro = (v: unknown) => h('span', { className: 'ro', textContent: v === undefined ? '—' : String(v) });
  return [
    section(
      'Dashboard',
      field('Description', desc),
      field('Allow embedding', embed),
      field('Workbook id', ro(input.workbookId)),
      field('Dashboard id', ro(input.dashboardId)),
    ),
    section('Widgets', widgetList(ctx)),
  ];
}

function themeTab(ctx: InspectorContext): HTMLElement[] {
  const theme = rec(rec(ctx.input.config).theme);
  const groups = new Map<string, HTMLElement[]>();
  const groupName = (p: readonly string[]) =>
    p.length === 1
      ? 'Page'
      : p[0] === 'dashboard'
        ? 'Dashboard'
        : p[0] === 'widgets'
          ? 'Widgets'
          : 'Controls';
  for (const f of THEME_FIELDS) {
    const key = f.path.join('.');
    const value = str(getPath(theme, f.path)) ?? '';
    const send = (v: string) =>
      ctx.post({ type: 'setTheme', path: [...f.path], value: v.trim() === '' ? null : v.trim() });
    const text = textInput(`theme:${key}`, value, send, f.colour ? '#rrggbb or any CSS colour' : '');
    const controls: HTMLElement[] = [text];
    if (f.colour) {
      const hex = hexColour(value);
      const picker = h('input', { type: 'color', value: hex ?? '#000000' });
      picker.dataset.key = `colour:${key}`;
      picker.title = hex || !value ? `Pick ${f.label.toLowerCase()}` : `Pick a colour (replaces ${value})`;
      picker.setAttribute('aria-label', `${f.label} colour picker`);
      picker.addEventListener('change', () => send(picker.value));
      controls.unshift(picker);
    }
    const list = groups.get(groupName(f.path)) ?? [];
    list.push(field(f.label, ...controls));
    groups.set(groupName(f.path), list);
  }
  return [
    h('p', {
      className: 'hint',
      textContent: 'All theme values are strings (CSS colours and lengths). Empty removes a value.',
    }),
    ...[...groups].map(([name, fields]) => section(name, ...fields)),
  ];
}

function layoutTab(ctx: InspectorContext): HTMLElement[] {
  const layout = rec(rec(ctx.input.config).layout);
  const pairField = (name: 'margin' | 'containerPadding', label: string, fallback: [number, number]) => {
    const cur = Array.isArray(layout[name]) ? (layout[name] as unknown[]) : [];
    const inputs: HTMLInputElement[] = [];
    const send = () => {
      const [a, b] = inputs.map((i) => i.value.trim());
      if (!a && !b) return ctx.post({ type: 'setSpacing', field: name, value: null });
      const x = a ? Number(a) : fallback[0];
      const y = b ? Number(b) : fallback[1];
      if (![x, y].every((n) => Number.isFinite(n) && n >= 0)) return;
      ctx.post({ type: 'setSpacing', field: name, value: [x, y] });
    };
    for (const [i, axis] of (['x', 'y'] as const).entries()) {
      const inp = numberInput(`${name}:${axis}`, num(cur[i]), () => send(), {
        min: 0,
        placeholder: String(fallback[i]),
      });
      inp.setAttribute('aria-label', `${label} ${axis}`);
      inputs.push(inp);
    }
    return field(`${label} (x, y)`, ...inputs);
  };
  const margin: [number, number] =
    Array.isArray(layout.margin) && layout.margin.length >= 2
      ? [Number(layout.margin[0]) || 0, Number(layout.margin[1]) || 0]
      : DEFAULT_MARGIN;
  const table = h('table', { className: 'bps' });
  table.append(
    h(
      'tr',
      {},
      h('th', { textContent: '' }),
      h('th', { textContent: 'Columns' }),
      h('th', { textContent: 'Min width (px)' }),
    ),
  );
  for (const b of EDITOR_BREAKPOINTS) {
    const cell = (name: 'cols' | 'breakpoints', fallback: number) => {
      const i = numberInput(
        `${name}:${b}`,
        num(rec(layout[name])[b]),
        (v) => ctx.post({ type: 'setBreakpointValue', field: name, breakpoint: b, value: v }),
        { min: name === 'cols' ? 1 : 0, integer: true, placeholder: String(fallback) },
      );
      i.setAttribute('aria-label', `${name === 'cols' ? 'Columns' : 'Minimum width'} at ${b}`);
      return h('td', {}, i);
    };
    const row = h(
      'tr',
      {},
      h('th', { textContent: b }),
      cell('cols', DEFAULT_COLS[b]),
      cell('breakpoints', DEFAULT_BREAKPOINTS[b]),
    );
    if (b === ctx.breakpoint) row.className = 'current';
    table.append(row);
  }
  return [
    section(
      'Grid',
      field(
        'Row height (px)',
        numberInput('rowHeight', num(layout.rowHeight), (v) => ctx.post({ type: 'setRowHeight', value: v }), {
          min: 1,
          placeholder: String(DEFAULT_ROW_HEIGHT),
        }),
      ),
      pairField('margin', 'Margin', DEFAULT_MARGIN),
      pairField('containerPadding', 'Container padding', margin),
    ),
    section(
      'Breakpoints',
      table,
      h('p', { className: 'hint', textContent: 'Empty values use the defaults shown.' }),
    ),
  ];
}

function historyTab(ctx: InspectorContext): HTMLElement[] {
  const publish = button('Publish…', () => ctx.post({ type: 'publish' }), {
    icon: 'cloud-upload',
    key: 'publish-history',
  });
  if (ctx.history.length === 0) {
    return [
      h('p', { className: 'hint', textContent: 'This file has not been published from this workspace yet.' }),
      h('div', { className: 'row' }, publish),
    ];
  }
  const table = h('table', { className: 'history' });
  table.append(
    h(
      'tr',
      {},
      ...['Version', 'Published', 'By', 'Deployment', 'Status', 'Public id'].map((t) =>
        h('th', { textContent: t }),
      ),
    ),
  );
  for (const e of [...ctx.history].reverse()) {
    const when = new Date(e.time);
    table.append(
      h(
        'tr',
        {},
        h('td', { textContent: String(e.versionNumber) }),
        h('td', {
          textContent: Number.isNaN(when.getTime()) ? e.time : when.toLocaleString(),
          title: e.time,
        }),
        h('td', { textContent: e.who }),
        h('td', { textContent: String(e.deploymentId) }),
        h('td', { textContent: e.status }),
        h('td', { textContent: e.publicId, className: 'mono' }),
      ),
    );
  }
  return [table, h('div', { className: 'row' }, publish)];
}
