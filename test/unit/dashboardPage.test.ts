// Runs the real dashboard editor page bundle in jsdom: the preview places every widget where the
// grid geometry says at each breakpoint with the theme applied; dragging, resizing, the keyboard and
// every inspector control send the edit messages the host turns into text edits; invalid text shows
// its problems and pauses editing while the last valid preview stays.
import * as assert from 'node:assert/strict';
import * as path from 'node:path';
import type { JSDOM } from 'jsdom';
import type { HostToWebview, WebviewToHost } from '../../src/shared/dashboardEditorProtocol';
import { boxRect, gridSpec } from '../../src/shared/dashboardGrid';
import { GRID_LAYOUT as LAYOUT, widgetAt } from './dashboardFixtures';
import { jsdomWindow, webviewBundle } from './webviewBundle';

const root = path.resolve(__dirname, '..', '..', '..');
let code: string;

interface Page {
  window: JSDOM['window'];
  document: Document;
  sent: WebviewToHost[];
  send(state: Partial<HostToWebview>): void;
  edits(): WebviewToHost[];
}

function open(initialState?: unknown): Page & { saved(): unknown } {
  const dom = jsdomWindow('page');
  const win = dom.window as unknown as JSDOM['window'] & Record<string, unknown>;
  const sent: WebviewToHost[] = [];
  let saved: unknown = initialState;
  win.acquireVsCodeApi = () => ({
    postMessage: (m: WebviewToHost) => sent.push(JSON.parse(JSON.stringify(m)) as WebviewToHost),
    getState: () => saved,
    setState: (s: unknown) => {
      saved = JSON.parse(JSON.stringify(s));
    },
  });
  win.eval(code);
  return {
    window: dom.window,
    document: dom.window.document,
    sent,
    send: (state) =>
      dom.window.dispatchEvent(
        new dom.window.MessageEvent('message', {
          data: { type: 'state', input: null, problems: [], history: [], ...state },
        }),
      ),
    edits: () => sent.filter((m) => m.type !== 'ready'),
    saved: () => saved,
  };
}

const INPUT = {
  workbookId: 7,
  title: 'Sales',
  allowEmbed: false,
  config: {
    title: 'Sales',
    layout: LAYOUT,
    theme: {
      primaryColor: '#5b5fc7',
      dashboard: { backgroundColor: '#f7f7f9' },
      widgets: {
        backgroundColor: '#fafafa',
        border: { color: '#e1e1e8', radius: '8px', style: 'solid', width: '1px' },
        title: { color: '#1f1f29', fontWeight: '600' },
      },
    },
    widgets: [
      {
        id: 'w1',
        type: 'CHART',
        position: { h: 4, w: 6, x: 0, y: 0 },
        responsiveLayouts: { sm: { h: 4, w: 6, x: 0, y: 0 } },
        config: { title: 'Revenue', reportId: 3 },
      },
      { id: 'w2', type: 'TEXT', position: { h: 2, w: 6, x: 6, y: 0 }, config: { text: '## Notes' } },
    ],
  },
};

function widget(page: Page, id: string): HTMLElement {
  const el = page.document.querySelector<HTMLElement>(`.widget[data-id="${id}"]`);
  assert.ok(el, `widget ${id} is drawn`);
  return el;
}

function pointer(page: Page, target: EventTarget, type: string, x: number, y: number): void {
  target.dispatchEvent(
    new page.window.PointerEvent(type, { bubbles: true, clientX: x, clientY: y, button: 0, pointerId: 1 }),
  );
}

function key(
  page: Page,
  target: HTMLElement,
  k: string,
  mods: { shiftKey?: boolean; ctrlKey?: boolean } = {},
) {
  target.dispatchEvent(new page.window.KeyboardEvent('keydown', { key: k, bubbles: true, ...mods }));
}

function change(page: Page, el: HTMLInputElement | HTMLTextAreaElement | HTMLSelectElement, value: string) {
  el.value = value;
  el.dispatchEvent(new page.window.Event('change', { bubbles: true }));
}

function tab(page: Page, name: string): void {
  const b = page.document.querySelector<HTMLButtonElement>(`[data-tab="${name}"]`);
  assert.ok(b, `tab ${name}`);
  b.click();
}

describe('dashboard editor page', function () {
  this.timeout(30_000);

  before(() => {
    code = webviewBundle({ entry: path.join(root, 'webview', 'dashboard', 'index.ts') });
  });

  it('asks for its state, then draws every widget where the grid geometry puts it, with the theme', () => {
    const page = open();
    assert.deepEqual(page.sent, [{ type: 'ready' }]);
    page.send({ input: INPUT });
    const spec = gridSpec(LAYOUT, 'lg', Infinity);
    for (const w of INPUT.config.widgets) {
      const el = widget(page, w.id);
      const r = boxRect(spec, w.position);
      assert.deepEqual(
        [el.style.left, el.style.top, el.style.width, el.style.height],
        [`${r.left}px`, `${r.top}px`, `${r.width}px`, `${r.height}px`],
        w.id,
      );
    }
    const w1 = widget(page, 'w1');
    assert.equal(w1.querySelector('.wtitle')!.textContent, 'Revenue');
    assert.equal(w1.style.borderRadius, '8px');
    assert.match(w1.style.background, /250, 250, 250|#fafafa/);
    assert.equal(widget(page, 'w2').querySelector('.wtext h2')!.textContent, 'Notes');
    assert.match(
      page.document.querySelector<HTMLElement>('.page')!.style.background,
      /247, 247, 249|#f7f7f9/,
    );
    assert.match(page.document.querySelector('.info')!.textContent!, /lg · 12 columns · 1200 px wide/);
    assert.equal(page.document.querySelector<HTMLInputElement>('.title')!.value, 'Sales');
  });

  it('shows each breakpoint with the responsive layouts, falling back to the position', () => {
    const page = open();
    page.send({ input: INPUT });
    page.document.querySelector<HTMLButtonElement>('[data-breakpoint="sm"]')!.click();
    const spec = gridSpec(LAYOUT, 'sm', Infinity);
    assert.equal(spec.cols, 6);
    assert.equal(page.document.querySelector<HTMLElement>('.grid')!.dataset.breakpoint, 'sm');
    assert.equal(widget(page, 'w1').style.width, `${boxRect(spec, { x: 0, y: 0, w: 6, h: 4 }).width}px`);
    assert.match(widget(page, 'w1').querySelector('.wmeta')!.textContent!, /own sm layout/);
    // w2 has no sm layout: its position (x 6) reaches past the 6 columns, and the page says so.
    assert.match(page.document.querySelector('.info')!.textContent!, /w2 reaches past column 6 at sm/);
    assert.ok(widget(page, 'w2').classList.contains('flagged'));
  });

  it('moves a widget by dragging it and resizes it by its handle, in whole cells', () => {
    const page = open();
    page.send({ input: INPUT });
    const spec = gridSpec(LAYOUT, 'lg', Infinity);
    const cellX = spec.colWidth + spec.margin[0];
    const cellY = spec.rowHeight + spec.margin[1];
    const el = widget(page, 'w1');
    pointer(page, el, 'pointerdown', 100, 100);
    pointer(page, page.window, 'pointermove', 100 + 2 * cellX + 10, 100 + 3 * cellY - 10);
    assert.ok(page.document.querySelector('.ghost'), 'the target cell is shown while dragging');
    pointer(page, page.window, 'pointerup', 100 + 2 * cellX + 10, 100 + 3 * cellY - 10);
    assert.deepEqual(page.edits(), [{ type: 'moveWidget', id: 'w1', x: 2, y: 3, breakpoint: null }]);
    assert.equal(page.document.querySelector('.ghost'), null);

    page.sent.length = 0;
    const handle = widget(page, 'w2').querySelector<HTMLElement>('.resize')!;
    pointer(page, handle, 'pointerdown', 500, 500);
    pointer(page, page.window, 'pointerup', 500 + 20 * cellX, 500 + cellY);
    assert.deepEqual(
      page.edits(),
      [{ type: 'resizeWidget', id: 'w2', w: 6, h: 3, breakpoint: null }],
      'wider than the grid is clamped to the columns left',
    );
  });

  it('drags at a breakpoint with its own layout edit that layout', () => {
    const page = open();
    page.send({ input: INPUT, breakpoint: 'sm' });
    const spec = gridSpec(LAYOUT, 'sm', Infinity);
    const el = widget(page, 'w1');
    pointer(page, el, 'pointerdown', 0, 0);
    pointer(page, page.window, 'pointerup', 0, 2 * (spec.rowHeight + spec.margin[1]));
    assert.deepEqual(page.edits(), [{ type: 'moveWidget', id: 'w1', x: 0, y: 2, breakpoint: 'sm' }]);
  });

  it('moves, resizes, duplicates and deletes the focused widget from the keyboard', () => {
    const page = open();
    page.send({ input: INPUT });
    const el = widget(page, 'w1');
    el.focus();
    key(page, el, 'ArrowRight');
    key(page, el, 'ArrowDown', { shiftKey: true });
    key(page, el, 'ArrowUp'); // already at row 0: nothing to send
    key(page, el, 'd', { ctrlKey: true });
    key(page, el, 'Delete');
    assert.deepEqual(page.edits(), [
      { type: 'moveWidget', id: 'w1', x: 1, y: 0, breakpoint: null },
      { type: 'resizeWidget', id: 'w1', w: 6, h: 5, breakpoint: null },
      { type: 'duplicateWidget', id: 'w1' },
      { type: 'deleteWidget', id: 'w1' },
    ]);
  });

  it('builds each key and drag on the one before, before the host re-renders the grid', () => {
    const page = open();
    page.send({ input: INPUT });
    const spec = gridSpec(LAYOUT, 'lg', Infinity);
    const el = widget(page, 'w1');
    pointer(page, el, 'pointerdown', 0, 0);
    pointer(page, page.window, 'pointerup', 0, 2 * (spec.rowHeight + spec.margin[1]));
    // No new state has arrived: the same element takes the next keys.
    el.focus();
    key(page, el, 'ArrowDown', { shiftKey: true });
    key(page, el, 'ArrowUp');
    key(page, el, 'ArrowRight');
    key(page, el, 'ArrowLeft');
    assert.deepEqual(page.edits(), [
      { type: 'moveWidget', id: 'w1', x: 0, y: 2, breakpoint: null },
      { type: 'resizeWidget', id: 'w1', w: 6, h: 5, breakpoint: null },
      { type: 'moveWidget', id: 'w1', x: 0, y: 1, breakpoint: null },
      { type: 'moveWidget', id: 'w1', x: 1, y: 1, breakpoint: null },
      { type: 'moveWidget', id: 'w1', x: 0, y: 1, breakpoint: null },
    ]);
    const at = boxRect(spec, { x: 0, y: 1, w: 6, h: 5 });
    assert.equal(el.style.top, `${at.top}px`, 'drawn where the keys put it');
    assert.equal(el.style.height, `${at.height}px`);
  });

  it('edits the selected widget in the inspector: type, own layout, numbers and config JSON', () => {
    const page = open();
    page.send({ input: INPUT, breakpoint: 'md' });
    widget(page, 'w2').focus();
    const q = <T extends Element>(key: string) => {
      const el = [...page.document.querySelectorAll<HTMLElement>('[data-key]')].find(
        (e) => e.dataset.key === key,
      );
      assert.ok(el, `control ${key}`);
      return el as unknown as T;
    };
    change(page, q<HTMLInputElement>('type:w2'), 'FILTER');
    const own = q<HTMLInputElement>('own:w2:md');
    own.checked = true;
    own.dispatchEvent(new page.window.Event('change'));
    change(page, q<HTMLInputElement>('box:w2:w'), '4');
    change(page, q<HTMLInputElement>('box:w2:y'), '9');
    const area = q<HTMLTextAreaElement>('config:w2');
    area.value = '{\n  "text": "x",\n}';
    area.dispatchEvent(new page.window.Event('input'));
    q<HTMLButtonElement>('apply:w2').click();
    const error = page.document.querySelector('.error')!.textContent!;
    assert.match(error, /^Line 3, column 1: /, 'the JSON error is located');
    area.value = '[1]';
    q<HTMLButtonElement>('apply:w2').click();
    assert.match(page.document.querySelector('.error')!.textContent!, /must be a JSON object/);
    area.value = '{"text": "## Hello"}';
    q<HTMLButtonElement>('apply:w2').click();
    q<HTMLButtonElement>('dup:w2').click();
    q<HTMLButtonElement>('del:w2').click();
    assert.deepEqual(page.edits(), [
      { type: 'setWidgetType', id: 'w2', widgetType: 'FILTER' },
      { type: 'setResponsive', id: 'w2', breakpoint: 'md', enabled: true },
      { type: 'resizeWidget', id: 'w2', w: 4, h: 2, breakpoint: null },
      { type: 'moveWidget', id: 'w2', x: 6, y: 9, breakpoint: null },
      { type: 'setWidgetConfig', id: 'w2', config: { text: '## Hello' } },
      { type: 'duplicateWidget', id: 'w2' },
      { type: 'deleteWidget', id: 'w2' },
    ]);
  });

  it('keeps an unapplied config draft and the focused field across a new state', () => {
    const page = open();
    page.send({ input: INPUT });
    widget(page, 'w1').focus();
    const area = page.document.querySelector<HTMLTextAreaElement>('textarea[data-key="config:w1"]')!;
    area.focus();
    area.value = '{"draft": true}';
    area.dispatchEvent(new page.window.Event('input'));
    page.send({ input: { ...INPUT, title: 'Renamed elsewhere' } });
    const again = page.document.querySelector<HTMLTextAreaElement>('textarea[data-key="config:w1"]')!;
    assert.notEqual(again, area, 're-rendered');
    assert.equal(again.value, '{"draft": true}');
    assert.equal(page.document.activeElement, again);
    assert.equal(page.document.querySelector<HTMLInputElement>('.title')!.value, 'Renamed elsewhere');
  });

  it('edits the dashboard, the theme (with colour pickers) and the layout', () => {
    const page = open();
    page.send({ input: INPUT });
    const byKey = (key: string) =>
      [...page.document.querySelectorAll<HTMLInputElement>('[data-key]')].find((e) => e.dataset.key === key)!;
    change(page, page.document.querySelector<HTMLInputElement>('.title')!, 'Sales weekly');
    tab(page, 'dashboard');
    change(page, byKey('description') as unknown as HTMLTextAreaElement, 'Numbers');
    const embed = byKey('allowEmbed');
    embed.checked = true;
    embed.dispatchEvent(new page.window.Event('change'));
    tab(page, 'theme');
    const picker = byKey('colour:primaryColor');
    assert.equal(picker.type, 'color');
    assert.equal(picker.value, '#5b5fc7');
    change(page, picker, '#ff0000');
    change(page, byKey('theme:widgets.border.radius'), ' 4px ');
    change(page, byKey('theme:dashboard.backgroundColor'), '');
    tab(page, 'layout');
    change(page, byKey('rowHeight'), '40');
    change(page, byKey('margin:x'), '8');
    change(page, byKey('cols:sm'), '');
    change(page, byKey('breakpoints:xs'), '2.5');
    assert.deepEqual(page.edits(), [
      { type: 'setTitle', title: 'Sales weekly' },
      { type: 'setDescription', description: 'Numbers' },
      { type: 'setAllowEmbed', allowEmbed: true },
      { type: 'setTheme', path: ['primaryColor'], value: '#ff0000' },
      { type: 'setTheme', path: ['widgets', 'border', 'radius'], value: '4px' },
      { type: 'setTheme', path: ['dashboard', 'backgroundColor'], value: null },
      { type: 'setRowHeight', value: 40 },
      { type: 'setSpacing', field: 'margin', value: [8, 12] },
      { type: 'setBreakpointValue', field: 'cols', breakpoint: 'sm', value: null },
    ]);
  });

  it('adds widgets, publishes and opens the text from the toolbar', () => {
    const page = open();
    page.send({ input: INPUT });
    change(page, page.document.querySelector<HTMLSelectElement>('select.add')!, 'AI');
    page.document.querySelector<HTMLButtonElement>('[data-key="publish"]')!.click();
    page.document.querySelector<HTMLButtonElement>('[data-key="open-text"]')!.click();
    assert.deepEqual(page.edits(), [
      { type: 'addWidget', widgetType: 'AI' },
      { type: 'publish' },
      { type: 'openText' },
    ]);
    page.send({ input: INPUT, select: 'w2' });
    assert.ok(widget(page, 'w2').classList.contains('selected'), 'the host can select a new widget');
  });

  it('lists the problems of invalid text, keeps the last valid preview and pauses editing', () => {
    const page = open();
    page.send({
      input: INPUT,
      locked: true,
      problems: [
        { message: 'workbookId: Invalid input: expected number, received string', line: 1, column: 16 },
      ],
    });
    const problems = page.document.querySelector<HTMLElement>('.problems')!;
    assert.equal(problems.hidden, false);
    assert.match(problems.textContent!, /Line 2, column 17: workbookId: Invalid input/);
    assert.ok(widget(page, 'w1'), 'the last valid preview stays');
    assert.equal(page.document.querySelector('.resize'), null, 'no resizing');
    assert.equal(page.document.querySelector<HTMLInputElement>('.title')!.disabled, true);
    assert.equal(page.document.querySelector<HTMLFieldSetElement>('fieldset.form')!.disabled, true);
    pointer(page, widget(page, 'w1'), 'pointerdown', 0, 0);
    pointer(page, page.window, 'pointerup', 400, 400);
    key(page, widget(page, 'w1'), 'Delete');
    problems.querySelector<HTMLButtonElement>('button')!.click();
    assert.deepEqual(page.edits(), [{ type: 'reveal', line: 1, column: 16 }]);
    page.send({
      input: null,
      locked: true,
      problems: [{ message: 'Invalid JSON: Expected a value', line: 0, column: 0 }],
    });
    assert.match(problems.textContent!, /nothing to preview yet/);
  });

  it('says why the preview is paused, in the words for each state', () => {
    const page = open();
    const headline = () => page.document.querySelector('.problems strong')?.textContent;
    const problem = { message: 'title: Expected string', line: 0, column: 0 };
    page.send({ input: INPUT, locked: true, problems: [problem] });
    assert.equal(
      headline(),
      'The file has problems. The preview shows the last valid version; editing resumes when they are fixed.',
    );
    page.send({ input: INPUT, locked: false, problems: [problem] });
    assert.equal(
      headline(),
      'Some values are not valid (marked in the inspector); fix them before publishing.',
    );
    page.send({ input: null, locked: true, problems: [problem] });
    assert.equal(headline(), 'The file has problems, so there is nothing to preview yet.');
  });

  it('an empty dashboard says how to add a widget; the add list sends only a chosen type and resets', () => {
    const page = open();
    page.send({ input: { ...INPUT, config: { ...INPUT.config, widgets: [] } } });
    assert.equal(
      page.document.querySelector('.empty')?.textContent,
      'No widgets yet. Add one with \u201cAdd widget\u201d.',
    );
    page.send({ input: INPUT });
    assert.equal(page.document.querySelector('.empty'), null, 'no hint once there are widgets');
    const add = page.document.querySelector<HTMLSelectElement>('select.add')!;
    change(page, add, '');
    assert.deepEqual(page.edits(), [], 'no type chosen: nothing sent');
    change(page, add, 'TEXT');
    assert.equal(add.value, '', 'the list is ready for the next widget');
    assert.deepEqual(page.edits(), [{ type: 'addWidget', widgetType: 'TEXT' }]);
  });

  it('marks the current inspector tab as selected for assistive technology, and only it', () => {
    const page = open();
    page.send({ input: INPUT });
    const tabs = () =>
      [...page.document.querySelectorAll<HTMLButtonElement>('[role="tablist"] button')].map((b) => [
        b.textContent,
        b.getAttribute('role'),
        b.getAttribute('aria-selected'),
        b.tabIndex,
      ]);
    tab(page, 'layout');
    assert.deepEqual(tabs(), [
      ['Widget', 'tab', 'false', -1],
      ['Dashboard', 'tab', 'false', -1],
      ['Theme', 'tab', 'false', -1],
      ['Layout', 'tab', 'true', 0],
      ['History', 'tab', 'false', -1],
    ]);
    assert.equal(page.document.querySelector('.tabpanel')?.getAttribute('role'), 'tabpanel');
  });

  it('Discard puts back the applied config and clears what the draft said', () => {
    const page = open();
    page.send({ input: INPUT });
    widget(page, 'w1').focus();
    const area = page.document.querySelector<HTMLTextAreaElement>('textarea[data-key="config:w1"]')!;
    const applied = area.value;
    area.value = '{"broken": ';
    area.dispatchEvent(new page.window.Event('input'));
    const panel = area.closest('details')!;
    assert.match(panel.textContent!, /Not applied yet\./);
    [...panel.querySelectorAll<HTMLButtonElement>('button')]
      .find((b) => b.textContent === 'Discard')!
      .click();
    assert.equal(area.value, applied);
    assert.doesNotMatch(panel.textContent!, /Not applied yet/);
    assert.equal(panel.querySelector('.row')!.lastElementChild!.textContent, '', 'the status is empty');
    page.send({ input: { ...INPUT, title: 'Again' } });
    const again = page.document.querySelector<HTMLTextAreaElement>('textarea[data-key="config:w1"]')!;
    assert.equal(again.value, applied, 'the discarded draft does not come back');
    assert.deepEqual(page.edits(), []);
  });

  it('shows the publish history newest first', () => {
    const page = open();
    page.send({ input: INPUT });
    tab(page, 'history');
    assert.match(page.document.querySelector('.tabpanel')!.textContent!, /not been published/);
    page.send({
      input: INPUT,
      history: [
        {
          time: '2026-11-01T10:00:00Z',
          versionNumber: 2,
          who: 'Sandbox',
          deploymentId: 1,
          status: 'PUBLISHED',
          publicId: 'p-2',
        },
        {
          time: '2026-11-02T10:00:00Z',
          versionNumber: 3,
          who: 'Prod',
          deploymentId: 2,
          status: 'PUBLISHED',
          publicId: 'p-3',
        },
      ],
    });
    const rows = [...page.document.querySelectorAll('table.history tr')].slice(1);
    assert.equal(rows[0]!.children[3]!.getAttribute('data-label'), 'Deployment');
    assert.deepEqual(
      rows.map((r) => [r.children[0]!.textContent, r.children[2]!.textContent, r.children[5]!.textContent]),
      [
        ['3', 'Prod', 'p-3'],
        ['2', 'Sandbox', 'p-2'],
      ],
    );
  });

  it('restores its breakpoint, tab, selection and unapplied drafts when its page is reloaded', () => {
    const first = open();
    first.send({ input: INPUT });
    first.document.querySelector<HTMLButtonElement>('[data-breakpoint="sm"]')!.click();
    widget(first, 'w2').focus();
    const area = first.document.querySelector<HTMLTextAreaElement>('textarea[data-key="config:w2"]')!;
    area.value = '{"unsaved": 1}';
    area.dispatchEvent(new first.window.Event('input'));
    const again = open(first.saved());
    again.send({ input: INPUT });
    assert.equal(again.document.querySelector<HTMLElement>('.grid')!.dataset.breakpoint, 'sm');
    assert.ok(widget(again, 'w2').classList.contains('selected'));
    assert.equal(
      again.document.querySelector<HTMLTextAreaElement>('textarea[data-key="config:w2"]')!.value,
      '{"unsaved": 1}',
    );
  });

  it('renders TEXT widgets as sanitised markdown with no remote content', () => {
    const page = open();
    const text =
      '## Weekly **revenue**\n\n- one\n\n<img src="https://evil.example/x.png" alt="tracker"><script>window.bad=1</script>[link](https://example.com)';
    page.send({
      input: {
        ...INPUT,
        config: {
          ...INPUT.config,
          widgets: [widgetAt('t1', 'TEXT', [0, 0, 6, 3], { text })],
        },
      },
    });
    const md = page.document.querySelector('.widget[data-id="t1"] .wtext.markdown')!;
    assert.ok(md, 'the TEXT widget shows rendered markdown');
    assert.equal(md.querySelector('h2')?.textContent, 'Weekly revenue');
    assert.equal(md.querySelector('strong')?.textContent, 'revenue');
    assert.equal(md.querySelectorAll('li').length, 1);
    assert.equal(md.querySelectorAll('img, script, a').length, 0, 'no image, script or link survives');
    assert.match(md.textContent!, /\[image: tracker\]/);
    assert.equal((page.window as unknown as { bad?: number }).bad, undefined);
  });

  it("shows a widget's report title, kind and snapshot preview when the host knows the report", () => {
    const page = open();
    const widgets = [
      widgetAt('c1', 'CHART', [0, 0, 6, 4], { reportId: 42 }),
      widgetAt('c2', 'CHART', [6, 0, 6, 4], { reportId: 43, title: 'Mine' }),
      widgetAt('c3', 'CHART', [0, 4, 6, 4], { reportId: 44 }),
    ];
    page.send({
      input: { ...INPUT, config: { ...INPUT.config, widgets } },
      reports: {
        '42': { title: 'Revenue by month', kind: 'vega', mark: 'bar', sql: 'SELECT 1' },
        '43': { title: 'Orders', kind: 'table' },
      },
    });
    const w = (id: string) => page.document.querySelector(`.widget[data-id="${id}"]`)!;
    assert.equal(w('c1').querySelector('.wtitle')!.textContent, 'Revenue by month');
    assert.equal(w('c1').querySelector('.wkind')!.textContent, 'vega · bar chart');
    assert.equal(w('c1').querySelector('.wsql')!.textContent, 'SELECT 1');
    assert.equal(w('c2').querySelector('.wtitle')!.textContent, 'Mine');
    assert.match(w('c2').querySelector('.wmeta')!.textContent!, /CHART · Orders/);
    assert.equal(w('c2').querySelector('.wsql'), null);
    assert.equal(w('c3').querySelector('.wnote')!.textContent, 'report 44');
  });

  const byKey = <T extends Element>(page: Page, key: string): T => {
    const el = [...page.document.querySelectorAll<HTMLElement>('[data-key]')].find(
      (e) => e.dataset.key === key,
    );
    assert.ok(el, `control ${key}`);
    return el as unknown as T;
  };

  it('names widgets by their title, their report, the first words of their text, or their type', () => {
    const page = open();
    const widgets = [
      widgetAt('c1', 'CHART', [0, 0, 4, 4], { reportId: 10014 }),
      widgetAt('t1', 'TEXT', [4, 0, 4, 2], {
        text: '\n## **Weekly** [revenue](https://x.example) review for the whole sales team and more\n\nBody',
      }),
      widgetAt('f1', 'TIME_GRAIN', [8, 0, 4, 1]),
    ];
    page.send({
      input: { ...INPUT, config: { ...INPUT.config, widgets } },
      reports: { '10014': { title: 'Orders by Month' } },
    });
    const title = (id: string) => widget(page, id).querySelector('.wtitle')!.textContent;
    assert.equal(title('c1'), 'Orders by Month');
    assert.equal(title('t1'), 'Weekly revenue review for the whole…');
    assert.equal(title('f1'), 'Time grain');
    assert.match(widget(page, 't1').getAttribute('aria-label')!, /^Weekly revenue review/);
    tab(page, 'dashboard');
    const list = [...page.document.querySelectorAll('.wlist li')].map((li) => li.textContent);
    assert.deepEqual(list, [
      'Orders by Month (CHART)',
      'Weekly revenue review for the whole… (TEXT)',
      'Time grain (TIME_GRAIN)',
    ]);
  });

  it("edits a widget's title and text as fields and picks its report by name", () => {
    const page = open();
    page.send({ input: INPUT, reports: { '3': { title: 'Revenue report' } } });
    widget(page, 'w1').focus();
    const report = page.document.querySelector('.reportname')!;
    assert.equal(report.textContent, 'Revenue report', 'the report is shown by its name');
    byKey<HTMLButtonElement>(page, 'report:w1').click();
    change(page, byKey<HTMLInputElement>(page, 'wtitle:w1'), '  Revenue this week ');
    change(page, byKey<HTMLInputElement>(page, 'wtitle:w1'), '');
    widget(page, 'w2').focus();
    assert.equal(page.document.querySelector('[data-key="report:w2"]'), null, 'a TEXT widget has no report');
    change(page, byKey<HTMLTextAreaElement>(page, 'wtext:w2'), '## Notes\n\nMore');
    assert.deepEqual(page.edits(), [
      { type: 'pickReport', id: 'w1' },
      { type: 'setWidgetConfigValue', id: 'w1', key: 'title', value: 'Revenue this week' },
      { type: 'setWidgetConfigValue', id: 'w1', key: 'title', value: null },
      { type: 'setWidgetConfigValue', id: 'w2', key: 'text', value: '## Notes\n\nMore' },
    ]);
  });

  it('offers the fixed-set theme fields as dropdowns of the choices the schema gives', () => {
    const page = open();
    const styles = ['none', 'solid', 'dashed'];
    page.send({
      input: {
        ...INPUT,
        config: {
          ...INPUT.config,
          theme: { widgets: { border: { style: 'solid' } }, controls: { title: { fontWeight: 'var(--w)' } } },
        },
      },
      themeChoices: { 'widgets.border.style': styles, 'controls.title.fontWeight': ['normal', 'bold'] },
    });
    tab(page, 'theme');
    const style = byKey<HTMLSelectElement>(page, 'theme:widgets.border.style');
    assert.equal(style.tagName, 'SELECT');
    assert.deepEqual(
      [...style.options].map((o) => o.value),
      ['', ...styles],
    );
    assert.equal(style.value, 'solid');
    const weight = byKey<HTMLSelectElement>(page, 'theme:controls.title.fontWeight');
    assert.equal(weight.value, 'var(--w)', 'a value the list does not hold stays as it is');
    assert.equal(byKey<HTMLInputElement>(page, 'theme:widgets.border.width').tagName, 'INPUT');
    change(page, style, 'dashed');
    change(page, weight, '');
    assert.deepEqual(page.edits(), [
      { type: 'setTheme', path: ['widgets', 'border', 'style'], value: 'dashed' },
      { type: 'setTheme', path: ['controls', 'title', 'fontWeight'], value: null },
    ]);
  });

  it('marks an invalid value at its field and keeps it and the rest of the editor working', () => {
    const page = open();
    const bad = {
      ...INPUT,
      config: { ...INPUT.config, theme: { ...INPUT.config.theme, primaryColor: 'banana' } },
    };
    page.send({
      input: bad,
      locked: false,
      problems: [
        {
          message: 'config.theme.primaryColor: "banana" is not a CSS colour such as #5b5fc7.',
          line: 30,
          column: 22,
          path: ['config', 'theme', 'primaryColor'],
        },
      ],
    });
    tab(page, 'theme');
    const input = byKey<HTMLInputElement>(page, 'theme:primaryColor');
    assert.equal(input.value, 'banana', 'the typed value stays (no snapping back)');
    assert.equal(input.getAttribute('aria-invalid'), 'true');
    const row = input.closest('.field')!;
    assert.ok(row.classList.contains('invalid'));
    assert.equal(
      row.querySelector('.field-error')!.textContent,
      '"banana" is not a CSS colour such as #5b5fc7.',
    );
    assert.equal(page.document.querySelectorAll('.field.invalid').length, 1, 'only that field');
    assert.equal(page.document.querySelector<HTMLFieldSetElement>('fieldset.form')!.disabled, false);
    assert.equal(page.document.querySelector<HTMLInputElement>('.title')!.disabled, false);
    assert.ok(page.document.querySelector('.resize'), 'widgets can still be resized');
    assert.match(page.document.querySelector('.problems')!.textContent!, /marked in the inspector/);
    change(page, byKey<HTMLInputElement>(page, 'theme:widgets.backgroundColor'), '#fff');
    change(page, input, '#ff0000');
    assert.deepEqual(page.edits(), [
      { type: 'setTheme', path: ['widgets', 'backgroundColor'], value: '#fff' },
      { type: 'setTheme', path: ['primaryColor'], value: '#ff0000' },
    ]);
  });

  it("offers the open review's decision, bound to it, while the review is open", () => {
    const page = open();
    page.send({ input: INPUT });
    const bar = page.document.querySelector<HTMLElement>('.reviewbar')!;
    assert.equal(bar.hidden, true);
    page.send({ input: INPUT, review: { summary: '2 widgets moved', where: '"Analytics"' } });
    assert.equal(bar.hidden, false);
    assert.match(bar.textContent!, /Publish review open → "Analytics": 2 widgets moved\./);
    byKey<HTMLButtonElement>(page, 'review-publish').click();
    byKey<HTMLButtonElement>(page, 'review-cancel').click();
    assert.deepEqual(page.edits(), [{ type: 'publishReviewed' }, { type: 'cancelReview' }]);
  });
});
