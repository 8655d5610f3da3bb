// The inspector's Dashboard, Theme, Layout and History tabs: description and embedding; every theme
// field with a colour picker beside each colour and a dropdown for the fixed-set ones (border
// styles, font weights), a bad value marked at its field; row height, margins, padding, and columns
// and widths per breakpoint; this file's publishes.
import { EDITOR_BREAKPOINTS, THEME_FIELDS } from '../../src/shared/dashboardEditorProtocol';
import {
  DEFAULT_BREAKPOINTS,
  DEFAULT_COLS,
  DEFAULT_MARGIN,
  DEFAULT_ROW_HEIGHT,
} from '../../src/shared/dashboardGrid';
import {
  button,
  field,
  getPath,
  h,
  hexColour,
  markInvalid,
  num,
  numberInput,
  rec,
  str,
  textInput,
} from './dom';
import { problemAt, section, widgetList, type InspectorContext } from './inspectorContext';

export function dashboardTab(ctx: InspectorContext): HTMLElement[] {
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

export function themeTab(ctx: InspectorContext): HTMLElement[] {
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
    const choices = ctx.themeChoices[key];
    const text = choices
      ? choiceSelect(`theme:${key}`, value, choices, send)
      : textInput(`theme:${key}`, value, send, f.colour ? '#rrggbb or any CSS colour' : '');
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
    const row = field(f.label, ...controls);
    const problem = problemAt(ctx, ['config', 'theme', ...f.path]);
    if (problem) markInvalid(row, text, problem);
    list.push(row);
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

/**
 * A dropdown of a fixed-set field's choices (from the JSON Schema), with "(not set)" first. A value
 * the list does not hold (var(--x), a weight of 650, or a bad one) stays selected as it is.
 */
function choiceSelect(
  key: string,
  value: string,
  choices: readonly string[],
  send: (v: string) => void,
): HTMLSelectElement {
  const sel = h('select');
  sel.dataset.key = key;
  sel.append(h('option', { value: '', textContent: '(not set)' }));
  if (value && !choices.includes(value)) sel.append(h('option', { value, textContent: value }));
  for (const c of choices) sel.append(h('option', { value: c, textContent: c }));
  sel.value = value;
  sel.addEventListener('change', () => send(sel.value));
  return sel;
}

export function layoutTab(ctx: InspectorContext): HTMLElement[] {
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

export function historyTab(ctx: InspectorContext): HTMLElement[] {
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
  // One block per publish with its labels: the inspector is narrow, and a six-column table would be
  // cut off there. It stays a table for screen readers.
  const table = h('table', { className: 'history' });
  const labels = ['Version', 'Published', 'By', 'Deployment', 'Status', 'Public id'];
  table.append(h('tr', { className: 'head' }, ...labels.map((t) => h('th', { textContent: t }))));
  const cell = (label: string, text: string, extra: Partial<HTMLTableCellElement> = {}) => {
    const td = h('td', { textContent: text, ...extra });
    td.dataset.label = label;
    return td;
  };
  for (const e of [...ctx.history].reverse()) {
    const when = new Date(e.time);
    table.append(
      h(
        'tr',
        {},
        cell('Version', e.versionNumber !== undefined ? String(e.versionNumber) : '—'),
        cell('Published', Number.isNaN(when.getTime()) ? e.time : when.toLocaleString(), { title: e.time }),
        cell('By', e.who),
        cell('Deployment', e.deploymentName ?? String(e.deploymentId), {
          title: `deployment id ${e.deploymentId}`,
        }),
        cell('Status', e.status),
        cell('Public id', e.publicId ?? '—', { className: 'mono' }),
      ),
    );
  }
  return [table, h('div', { className: 'row' }, publish)];
}
