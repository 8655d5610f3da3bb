// The inspector's Widget tab: the selected widget's title, its text (TEXT widgets) or its report
// (by name, changed with a searchable picker), its type, its layout numbers at the breakpoint (its
// own layout there or its main position), its config JSON under "Config (JSON)" (located syntax
// errors, drafts kept until applied), Duplicate and Delete; or, with nothing selected, how to
// select and the list.
import { EDITOR_WIDGET_TYPES } from '../../src/shared/dashboardEditorProtocol';
import { button, field, h, num, numberInput, rec, str, textInput, type Rec } from './dom';
import { section, widgetList, type InspectorContext } from './inspectorContext';
import { widgetTitle } from './grid';

/** Line and column (1-based) of a JSON.parse error, from the position V8 reports. */
function jsonErrorAt(text: string, message: string): string {
  const pos = /position (\d+)/.exec(message);
  if (!pos) return message;
  const before = text.slice(0, Number(pos[1]));
  const line = before.split('\n').length;
  const column = before.length - before.lastIndexOf('\n');
  return `Line ${line}, column ${column}: ${message.replace(/\s*\(line \d+ column \d+\)/, '')}`;
}

export function widgetTab(ctx: InspectorContext): HTMLElement[] {
  const dashboard = rec(ctx.input.config);
  const widgets = Array.isArray(dashboard.widgets) ? dashboard.widgets.map(rec) : [];
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

  const config = rec(w.config);
  const preview = { id, ...(typeof w.type === 'string' ? { type: w.type } : {}), config };
  const setValue = (key: 'title' | 'text' | 'reportId', value: string | number | null) =>
    ctx.post({ type: 'setWidgetConfigValue', id, key, value });
  const title = textInput(`wtitle:${id}`, str(config.title) ?? '', (v) =>
    setValue('title', v.trim() || null),
  );
  title.placeholder = widgetTitle({ ...preview, config: { ...config, title: undefined } }, ctx.reports);
  title.setAttribute('aria-label', 'Widget title');

  const isText = w.type === 'TEXT';
  const content: HTMLElement[] = [];
  if (isText) {
    const text = h('textarea', { value: str(config.text) ?? '', rows: 5, spellcheck: true });
    text.dataset.key = `wtext:${id}`;
    text.setAttribute('aria-label', 'Text (markdown)');
    text.addEventListener('change', () => setValue('text', text.value === '' ? null : text.value));
    content.push(field('Text (markdown)', text));
  }
  const reportId = config.reportId;
  if (!isText && w.type !== 'DIVIDER' && w.type !== 'SPACER') {
    const known = typeof reportId === 'number' || typeof reportId === 'string';
    const report = known ? ctx.reports[String(reportId)] : undefined;
    const name = h('span', {
      className: report ? 'reportname' : 'reportname hint',
      textContent: report ? report.title : known ? `Report ${reportId} (name not loaded)` : 'No report',
      title: known ? `report id ${reportId}` : '',
    });
    const choose = button(known ? 'Change…' : 'Choose…', () => ctx.post({ type: 'pickReport', id }), {
      icon: 'search',
      secondary: true,
      key: `report:${id}`,
      title: 'Pick the report this widget shows (search by name)',
    });
    content.push(field('Report', name, choose));
  }

  const current = JSON.stringify(config, null, 2);
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

  const advanced = h(
    'details',
    { className: 'advanced', open: draft !== undefined && draft !== current },
    h('summary', { textContent: 'Config (JSON)' }),
    area,
    error,
    h(
      'div',
      { className: 'row' },
      button('Apply', apply, { title: 'Apply the config (Ctrl/Cmd+Enter)', key: `apply:${id}` }),
      discard,
      status,
    ),
  );

  return [
    section(
      widgetTitle(preview, ctx.reports),
      field('Title', title),
      ...content,
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
      h('p', { className: 'hint', textContent: `Widget id ${id}` }),
    ),
    advanced,
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
