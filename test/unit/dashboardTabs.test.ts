// The dashboard editor page's Theme and Layout tabs, run as the real page bundle in jsdom: every
// theme field under its group with its label, its colour picker and the exact setTheme message it
// sends; the layout's grid fields, the defaults shown as placeholders, the breakpoint table, the
// numbers refused in place (nothing sent) and the exact setRowHeight, setSpacing and
// setBreakpointValue messages. In plain Node, the protocol's checks of those messages.
import * as assert from 'node:assert/strict';
import * as path from 'node:path';
import type { JSDOM } from 'jsdom';
import {
  isEditorEdit,
  webviewToHost,
  type HostToWebview,
  type WebviewToHost,
} from '../../src/shared/dashboardEditorProtocol';
import { GRID_LAYOUT, widgetAt } from './dashboardFixtures';
import { jsdomWindow, webviewBundle } from './webviewBundle';

const root = path.resolve(__dirname, '..', '..', '..');
let code = '';
const bundle = () => {
  if (!code) code = webviewBundle({ entry: path.join(root, 'webview', 'dashboard', 'index.ts') });
};

interface Page {
  window: JSDOM['window'];
  document: Document;
  sent: WebviewToHost[];
  send(state: Partial<HostToWebview>): void;
  edits(): WebviewToHost[];
  /** The view state the page last saved (restored when its webview is reloaded). */
  saved(): unknown;
}

function open(): Page {
  const dom = jsdomWindow('page');
  const win = dom.window as unknown as JSDOM['window'] & Record<string, unknown>;
  const sent: WebviewToHost[] = [];
  let saved: unknown;
  win.acquireVsCodeApi = () => ({
    postMessage: (m: WebviewToHost) => sent.push(JSON.parse(JSON.stringify(m)) as WebviewToHost),
    getState: () => undefined,
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

function inputWith(config: Record<string, unknown>) {
  return {
    workbookId: 7,
    title: 'Sales',
    config: { title: 'Sales', widgets: [widgetAt('w1', 'CHART', [0, 0, 6, 4])], ...config },
  };
}

function byKey<T extends HTMLElement>(page: Page, key: string): T {
  const el = [...page.document.querySelectorAll<HTMLElement>('[data-key]')].find(
    (e) => e.dataset.key === key,
  );
  assert.ok(el, `control ${key}`);
  return el as T;
}

function change(page: Page, el: HTMLInputElement | HTMLSelectElement, value: string): void {
  el.value = value;
  el.dispatchEvent(new page.window.Event('change', { bubbles: true }));
}

function tab(page: Page, name: string): void {
  const b = page.document.querySelector<HTMLButtonElement>(`[data-tab="${name}"]`);
  assert.ok(b, `tab ${name}`);
  b.click();
}

/** The label of the field row holding `control`. */
function labelOf(control: HTMLElement): string | null {
  const row = control.closest('.field');
  assert.ok(row, 'the control sits in a field row');
  return row.querySelector('label')!.textContent;
}

// Written out (not derived from THEME_FIELDS): group, label, path under the theme, colour picker.
const THEME: [string, string, string, boolean][] = [
  ['Page', 'Page background', 'backgroundColor', true],
  ['Page', 'Accent', 'primaryColor', true],
  ['Page', 'Font family', 'fontFamily', false],
  ['Page', 'Saved theme id', 'themeId', false],
  ['Dashboard', 'Dashboard background', 'dashboard.backgroundColor', true],
  ['Dashboard', 'Dashboard padding', 'dashboard.padding', false],
  ['Widgets', 'Widget background', 'widgets.backgroundColor', true],
  ['Widgets', 'Widget padding', 'widgets.padding', false],
  ['Widgets', 'Widget margin', 'widgets.margin', false],
  ['Widgets', 'Widget border colour', 'widgets.border.color', true],
  ['Widgets', 'Widget border width', 'widgets.border.width', false],
  ['Widgets', 'Widget border style', 'widgets.border.style', false],
  ['Widgets', 'Widget corner radius', 'widgets.border.radius', false],
  ['Widgets', 'Widget title colour', 'widgets.title.color', true],
  ['Widgets', 'Widget title font', 'widgets.title.fontFamily', false],
  ['Widgets', 'Widget title size', 'widgets.title.fontSize', false],
  ['Widgets', 'Widget title weight', 'widgets.title.fontWeight', false],
  ['Widgets', 'Widget text colour', 'widgets.text.color', true],
  ['Widgets', 'Widget secondary text', 'widgets.text.secondaryColor', true],
  ['Widgets', 'Widget text font', 'widgets.text.fontFamily', false],
  ['Widgets', 'Widget code font', 'widgets.text.codeFontFamily', false],
  ['Controls', 'Control background', 'controls.backgroundColor', true],
  ['Controls', 'Control padding', 'controls.padding', false],
  ['Controls', 'Control border colour', 'controls.border.color', true],
  ['Controls', 'Control border width', 'controls.border.width', false],
  ['Controls', 'Control border style', 'controls.border.style', false],
  ['Controls', 'Control corner radius', 'controls.border.radius', false],
  ['Controls', 'Control title colour', 'controls.title.color', true],
  ['Controls', 'Control title font', 'controls.title.fontFamily', false],
  ['Controls', 'Control title size', 'controls.title.fontSize', false],
  ['Controls', 'Control title weight', 'controls.title.fontWeight', false],
];

describe('dashboard editor page: the Theme and Layout tabs', function () {
  this.timeout(30_000);

  before(() => {
    bundle();
  });

  it('offers every widget type the platform knows in the add list, in order', () => {
    const page = open();
    page.send({ input: inputWith({}) });
    const add = page.document.querySelector<HTMLSelectElement>('select.add')!;
    assert.deepEqual(
      [...add.options].map((o) => [o.value, o.textContent]),
      [
        ['', '+ Add widget\u2026'],
        ...[
          'CHART',
          'TEXT',
          'FILTER',
          'AI',
          'TIME_GRAIN',
          'FIELD',
          'PARENT',
          'SPACER',
          'DIVIDER',
          'CONTAINER',
        ].map((t) => [t, t]),
      ],
    );
  });

  it('lists every theme field under its group, each with its label and a colour picker for colours', () => {
    const page = open();
    page.send({ input: inputWith({ theme: {} }) });
    tab(page, 'theme');
    const panel = page.document.querySelector('.tabpanel')!;
    assert.equal(
      panel.querySelector('p.hint')!.textContent,
      'All theme values are strings (CSS colours and lengths). Empty removes a value.',
    );
    const sections = [...panel.querySelectorAll('section')].map((s) => [
      s.querySelector('h3')!.textContent,
      [...s.querySelectorAll('.field > label')].map((l) => l.textContent),
    ]);
    const groups = [...new Set(THEME.map((t) => t[0]))];
    assert.deepEqual(
      sections,
      groups.map((g) => [g, THEME.filter((t) => t[0] === g).map((t) => t[1])]),
    );
    for (const [, label, key, colour] of THEME) {
      const text = byKey<HTMLInputElement>(page, `theme:${key}`);
      assert.equal(labelOf(text), label, key);
      assert.equal(text.value, '', `${key} is empty`);
      assert.equal(text.placeholder, colour ? '#rrggbb or any CSS colour' : '', `${key} placeholder`);
      const picker = page.document.querySelector<HTMLInputElement>(`[data-key="colour:${key}"]`);
      if (!colour) {
        assert.equal(picker, null, `${key} has no colour picker`);
        continue;
      }
      assert.ok(picker, `${key} has a colour picker`);
      assert.equal(picker.type, 'color');
      assert.equal(picker.value, '#000000', `${key}: an unset colour starts the picker at black`);
      assert.equal(picker.getAttribute('aria-label'), `${label} colour picker`);
      assert.equal(picker.title, `Pick ${label.toLowerCase()}`);
      assert.equal(picker.nextElementSibling, text, 'the picker comes before the text');
      assert.equal(
        picker.closest('.field')!.querySelector('label')!.htmlFor,
        picker.id,
        'the label names the picker',
      );
    }
    assert.deepEqual(page.edits(), [], 'drawing the tab sends nothing');
  });

  it('sends each theme field at its own path, trimmed, and an emptied field as a removal', () => {
    const page = open();
    page.send({ input: inputWith({ theme: {} }) });
    tab(page, 'theme');
    for (const [, , key] of THEME) change(page, byKey<HTMLInputElement>(page, `theme:${key}`), ` v-${key} `);
    change(page, byKey<HTMLInputElement>(page, 'theme:widgets.title.fontSize'), '   ');
    for (const [, , key, colour] of THEME) {
      if (colour) change(page, byKey<HTMLInputElement>(page, `colour:${key}`), '#123abc');
    }
    const expected: WebviewToHost[] = [
      ...THEME.map(([, , key]) => ({
        type: 'setTheme' as const,
        path: key.split('.'),
        value: `v-${key}`,
      })),
      { type: 'setTheme', path: ['widgets', 'title', 'fontSize'], value: null },
      ...THEME.filter((t) => t[3]).map(([, , key]) => ({
        type: 'setTheme' as const,
        path: key.split('.'),
        value: '#123abc',
      })),
    ];
    assert.deepEqual(page.edits(), expected);
    for (const m of page.edits()) assert.ok(webviewToHost.safeParse(m).success, JSON.stringify(m));
  });

  it("shows the file's theme values, with the picker on a hex colour and naming what it replaces", () => {
    const page = open();
    page.send({
      input: inputWith({
        theme: {
          backgroundColor: '#ABC',
          primaryColor: 'rgb(1, 2, 3)',
          fontFamily: 'Inter',
          dashboard: { padding: '24px' },
          widgets: { border: { color: ' #a1B2c3 ' }, text: { codeFontFamily: 'Fira Code' } },
          controls: { title: { fontSize: 14 } },
        },
      }),
    });
    tab(page, 'theme');
    const value = (key: string) => byKey<HTMLInputElement>(page, `theme:${key}`).value;
    assert.deepEqual(
      [
        'backgroundColor',
        'primaryColor',
        'fontFamily',
        'dashboard.padding',
        'widgets.text.codeFontFamily',
      ].map(value),
      ['#ABC', 'rgb(1, 2, 3)', 'Inter', '24px', 'Fira Code'],
    );
    assert.equal(value('controls.title.fontSize'), '', 'a number is not a theme value (all are strings)');
    const picker = (key: string) => byKey<HTMLInputElement>(page, `colour:${key}`);
    assert.equal(picker('backgroundColor').value, '#aabbcc', '#rgb is spread to #rrggbb');
    assert.equal(picker('backgroundColor').title, 'Pick page background');
    assert.equal(picker('widgets.border.color').value, '#a1b2c3');
    assert.equal(picker('primaryColor').value, '#000000');
    assert.equal(picker('primaryColor').title, 'Pick a colour (replaces rgb(1, 2, 3))');
  });

  it('marks a bad theme value at its own field only, with the message without its path', () => {
    const page = open();
    page.send({
      input: inputWith({ theme: { widgets: { border: { width: 'wide' } } } }),
      problems: [
        {
          message: 'config.theme.widgets.border.width: "wide" is not a CSS length.',
          line: 4,
          column: 2,
          path: ['config', 'theme', 'widgets', 'border', 'width'],
        },
        { message: 'elsewhere: no path', line: 1, column: 1 },
      ],
    });
    tab(page, 'theme');
    const invalid = [...page.document.querySelectorAll('.field.invalid')];
    assert.equal(invalid.length, 1);
    const text = byKey<HTMLInputElement>(page, 'theme:widgets.border.width');
    assert.equal(invalid[0], text.closest('.field'));
    const error = invalid[0]!.querySelector('.field-error')!;
    assert.equal(error.textContent, '"wide" is not a CSS length.');
    assert.equal(text.getAttribute('aria-describedby'), error.id);
    assert.equal(error.id, `${text.id}-error`);
  });

  it('shows the grid fields with the defaults as placeholders, and the breakpoint table', () => {
    const page = open();
    page.send({ input: inputWith({ layout: {} }), breakpoint: 'sm' });
    tab(page, 'layout');
    const panel = page.document.querySelector('.tabpanel')!;
    assert.deepEqual(
      [...panel.querySelectorAll('section > h3')].map((e) => e.textContent),
      ['Grid', 'Breakpoints'],
    );
    const grid = (key: string) => {
      const i = byKey<HTMLInputElement>(page, key);
      return [labelOf(i), i.getAttribute('aria-label'), i.value, i.placeholder, i.min];
    };
    assert.deepEqual(grid('rowHeight'), ['Row height (px)', null, '', '150', '1']);
    assert.deepEqual(grid('margin:x'), ['Margin (x, y)', 'Margin x', '', '10', '0']);
    assert.deepEqual(grid('margin:y'), ['Margin (x, y)', 'Margin y', '', '10', '0']);
    assert.deepEqual(grid('containerPadding:x'), [
      'Container padding (x, y)',
      'Container padding x',
      '',
      '10',
      '0',
    ]);
    assert.deepEqual(grid('containerPadding:y'), [
      'Container padding (x, y)',
      'Container padding y',
      '',
      '10',
      '0',
    ]);
    const rows = [...panel.querySelectorAll('table.bps tr')];
    assert.deepEqual(
      [...rows[0]!.querySelectorAll('th')].map((t) => t.textContent),
      ['', 'Columns', 'Min width (px)'],
    );
    assert.deepEqual(
      rows.slice(1).map((r) => {
        const [cols, width] = [...r.querySelectorAll('input')];
        return [
          r.querySelector('th')!.textContent,
          r.className,
          cols!.dataset.key,
          cols!.getAttribute('aria-label'),
          cols!.placeholder,
          cols!.min,
          width!.dataset.key,
          width!.getAttribute('aria-label'),
          width!.placeholder,
          width!.min,
        ];
      }),
      [
        [
          'lg',
          '',
          'cols:lg',
          'Columns at lg',
          '12',
          '1',
          'breakpoints:lg',
          'Minimum width at lg',
          '1200',
          '0',
        ],
        [
          'md',
          '',
          'cols:md',
          'Columns at md',
          '10',
          '1',
          'breakpoints:md',
          'Minimum width at md',
          '996',
          '0',
        ],
        [
          'sm',
          'current',
          'cols:sm',
          'Columns at sm',
          '6',
          '1',
          'breakpoints:sm',
          'Minimum width at sm',
          '768',
          '0',
        ],
        ['xs', '', 'cols:xs', 'Columns at xs', '4', '1', 'breakpoints:xs', 'Minimum width at xs', '480', '0'],
        [
          'xxs',
          '',
          'cols:xxs',
          'Columns at xxs',
          '2',
          '1',
          'breakpoints:xxs',
          'Minimum width at xxs',
          '0',
          '0',
        ],
      ],
    );
    assert.equal(
      panel.querySelector('section:last-child p.hint')!.textContent,
      'Empty values use the defaults shown.',
    );
  });

  it("shows the file's layout values, and the padding's placeholders follow the file's margin", () => {
    const cases: [string, unknown, [string, string]][] = [
      ['a margin pair', [12, 14], ['12', '14']],
      ['a margin of text numbers', ['7', 'x'], ['7', '0']],
      ['a margin of one number', [5], ['10', '10']],
      ['a margin that is not a list', 8, ['10', '10']],
    ];
    for (const [what, margin, placeholders] of cases) {
      const page = open();
      page.send({ input: inputWith({ layout: { margin } }) });
      tab(page, 'layout');
      assert.deepEqual(
        ['containerPadding:x', 'containerPadding:y'].map((k) => byKey<HTMLInputElement>(page, k).placeholder),
        placeholders,
        what,
      );
    }
    const page = open();
    page.send({ input: inputWith({ layout: GRID_LAYOUT }) });
    tab(page, 'layout');
    const values = [
      'rowHeight',
      'margin:x',
      'margin:y',
      'containerPadding:x',
      'cols:md',
      'breakpoints:xs',
    ].map((k) => byKey<HTMLInputElement>(page, k).value);
    assert.deepEqual(values, ['60', '12', '12', '16', '10', '480']);
    assert.equal(
      page.document.querySelector('table.bps tr.current th')!.textContent,
      'lg',
      'the preview breakpoint is marked',
    );
  });

  it('sends the grid edits: a pair filled from its default, emptied pairs removed, bad numbers refused', () => {
    const page = open();
    page.send({ input: inputWith({ layout: { margin: [12, 14] } }) });
    tab(page, 'layout');
    const at = (k: string) => byKey<HTMLInputElement>(page, k);
    change(page, at('rowHeight'), '40.5');
    change(page, at('rowHeight'), '');
    change(page, at('margin:y'), '6');
    change(page, at('containerPadding:x'), '3');
    change(page, at('containerPadding:x'), ' ');
    change(page, at('margin:x'), '-2');
    change(page, at('cols:xs'), '8');
    change(page, at('breakpoints:md'), '900');
    change(page, at('breakpoints:xxs'), '0');
    change(page, at('cols:lg'), '');
    assert.deepEqual(page.edits(), [
      { type: 'setRowHeight', value: 40.5 },
      { type: 'setRowHeight', value: null },
      { type: 'setSpacing', field: 'margin', value: [12, 6] },
      { type: 'setSpacing', field: 'containerPadding', value: [3, 14] },
      { type: 'setSpacing', field: 'containerPadding', value: null },
      { type: 'setBreakpointValue', field: 'cols', breakpoint: 'xs', value: 8 },
      { type: 'setBreakpointValue', field: 'breakpoints', breakpoint: 'md', value: 900 },
      { type: 'setBreakpointValue', field: 'breakpoints', breakpoint: 'xxs', value: 0 },
      { type: 'setBreakpointValue', field: 'cols', breakpoint: 'lg', value: null },
    ]);
    for (const m of page.edits()) assert.ok(webviewToHost.safeParse(m).success, JSON.stringify(m));
  });

  it('refuses numbers out of range in place, saying what is allowed, and sends nothing for them', () => {
    const cases: [string, string, string][] = [
      ['rowHeight', '0', 'Enter a number of at least 1.'],
      ['cols:md', '0', 'Enter a whole number of at least 1.'],
      ['cols:md', '2.5', 'Enter a whole number of at least 1.'],
      ['breakpoints:sm', '-1', 'Enter a whole number of at least 0.'],
      ['breakpoints:sm', '10.5', 'Enter a whole number of at least 0.'],
    ];
    for (const [key, value, message] of cases) {
      const page = open();
      page.send({ input: inputWith({ layout: {} }) });
      tab(page, 'layout');
      const i = byKey<HTMLInputElement>(page, key);
      change(page, i, value);
      assert.equal(i.validationMessage, message, `${key} = ${value}`);
      assert.deepEqual(page.edits(), [], `${key} = ${value} sends nothing`);
      change(page, i, '3');
      assert.equal(i.validationMessage, '', 'a good value clears the message');
      assert.equal(page.edits().length, 1, `${key} = 3 is sent`);
    }
  });
});

describe("dashboard editor page: the inspector's tabs, the widget's buttons and the widget text colour", function () {
  this.timeout(30_000);

  before(() => {
    bundle();
  });

  it('a clicked tab takes the focus and is kept in the view state for a reload', () => {
    const page = open();
    page.send({ input: inputWith({}) });
    assert.deepEqual(
      [...page.document.querySelectorAll<HTMLButtonElement>('[role="tablist"] button')].map((b) => [
        b.type,
        b.className,
        b.dataset.key,
      ]),
      ['widget', 'dashboard', 'theme', 'layout', 'history'].map((t) => ['button', 'tab', `tab:${t}`]),
    );
    for (const name of ['theme', 'layout', 'history', 'dashboard']) {
      tab(page, name);
      const active = page.document.activeElement as HTMLElement | null;
      assert.equal(active?.dataset.tab, name, `the ${name} tab has the focus`);
      assert.equal((page.saved() as { tab?: string }).tab, name);
    }
  });

  it('says it is loading while the host has sent neither a dashboard nor problems', () => {
    const page = open();
    page.send({ input: null, problems: [] });
    assert.equal(page.document.querySelector('.canvas')!.textContent, 'Loading…');
    page.send({ input: inputWith({}) });
    assert.doesNotMatch(page.document.querySelector('.canvas')!.textContent!, /Loading/);
  });

  it('a widget the host selects takes the focus, even when the focused field is gone', () => {
    const page = open();
    const widgets = [widgetAt('w1', 'CHART', [0, 0, 6, 4]), widgetAt('w2', 'TEXT', [6, 0, 6, 2])];
    page.send({ input: inputWith({ widgets }) });
    tab(page, 'theme');
    byKey<HTMLInputElement>(page, 'theme:fontFamily').focus();
    page.send({ input: inputWith({ widgets }), select: 'w2' });
    const active = page.document.activeElement as HTMLElement;
    assert.equal(active.dataset.id, 'w2');
    assert.ok(active.classList.contains('widget'));
  });

  it("keeps a field problem's message whole when it does not start with the value's path", () => {
    const page = open();
    page.send({
      input: inputWith({ theme: { widgets: { padding: 'wide' } } }),
      problems: [
        {
          message: 'Write a length such as 4px: a number and a unit.',
          line: 3,
          column: 4,
          path: ['config', 'theme', 'widgets', 'padding'],
        },
      ],
    });
    tab(page, 'theme');
    assert.equal(
      page.document.querySelector('.field.invalid .field-error')!.textContent,
      'Write a length such as 4px: a number and a unit.',
    );
  });

  it('draws filters, fields and time grains in the controls theme, other widgets in the widgets theme, each with its icon', () => {
    const types = [
      'CHART',
      'FILTER',
      'FIELD',
      'TIME_GRAIN',
      'AI',
      'PARENT',
      'CONTAINER',
      'SPACER',
      'MYSTERY',
    ];
    const page = open();
    page.send({
      input: inputWith({
        theme: { widgets: { backgroundColor: '#111111' }, controls: { backgroundColor: '#222222' } },
        widgets: types.map((t, i) => widgetAt(`w${i}`, t, [0, i * 2, 4, 2])),
      }),
    });
    const drawn = types.map((t, i) => {
      const el = page.document.querySelector<HTMLElement>(`.widget[data-id="w${i}"]`)!;
      return [t, el.style.background, el.querySelector('.wbody .codicon')?.className];
    });
    const widgetBg = 'rgb(17, 17, 17)';
    const controlBg = 'rgb(34, 34, 34)';
    assert.deepEqual(drawn, [
      ['CHART', widgetBg, 'codicon codicon-graph wicon'],
      ['FILTER', controlBg, 'codicon codicon-filter wicon'],
      ['FIELD', controlBg, 'codicon codicon-symbol-field wicon'],
      ['TIME_GRAIN', controlBg, 'codicon codicon-calendar wicon'],
      ['AI', widgetBg, 'codicon codicon-sparkle wicon'],
      ['PARENT', widgetBg, 'codicon codicon-type-hierarchy wicon'],
      ['CONTAINER', widgetBg, 'codicon codicon-layout wicon'],
      ['SPACER', widgetBg, 'codicon codicon-whitespace wicon'],
      ['MYSTERY', widgetBg, 'codicon codicon-symbol-misc wicon'],
    ]);
  });

  it("Discard, a secondary button, clears the config's error; Ctrl+Enter applies the config", () => {
    const page = open();
    page.send({ input: inputWith({}), select: 'w1' });
    const area = byKey<HTMLTextAreaElement>(page, 'config:w1');
    const panel = area.closest('details')!;
    area.value = '[1]';
    area.dispatchEvent(new page.window.Event('input'));
    byKey<HTMLButtonElement>(page, 'apply:w1').click();
    const error = () => panel.querySelector('.error')!.textContent;
    assert.equal(error(), 'The config must be a JSON object ({ … }).');
    const discard = [...panel.querySelectorAll<HTMLButtonElement>('button')].find(
      (b) => b.textContent === 'Discard',
    )!;
    assert.equal(discard.className, 'secondary');
    discard.click();
    assert.equal(error(), '');
    area.value = '{"title": "Sales"}';
    area.dispatchEvent(
      new page.window.KeyboardEvent('keydown', { key: 'Enter', ctrlKey: true, bubbles: true }),
    );
    assert.deepEqual(page.edits(), [{ type: 'setWidgetConfig', id: 'w1', config: { title: 'Sales' } }]);
  });

  it('names each invalid colour field its own message for assistive technology', () => {
    const page = open();
    const problem = (key: string) => ({
      message: `config.theme.${key}: "banana" is not a CSS colour (${key}).`,
      line: 1,
      column: 1,
      path: ['config', 'theme', ...key.split('.')],
    });
    page.send({
      input: inputWith({ theme: { primaryColor: 'banana', widgets: { backgroundColor: 'banana' } } }),
      problems: [problem('primaryColor'), problem('widgets.backgroundColor')],
    });
    tab(page, 'theme');
    const described = ['primaryColor', 'widgets.backgroundColor'].map((key) => {
      const text = byKey<HTMLInputElement>(page, `theme:${key}`);
      return page.document.getElementById(text.getAttribute('aria-describedby')!)?.textContent;
    });
    assert.deepEqual(described, [
      '"banana" is not a CSS colour (primaryColor).',
      '"banana" is not a CSS colour (widgets.backgroundColor).',
    ]);
  });

  it('offers Duplicate and Delete for the selected widget, as secondary buttons with their icons', () => {
    const page = open();
    page.send({ input: inputWith({}), select: 'w1' });
    const buttons = ['dup:w1', 'del:w1'].map((k) => {
      const b = byKey<HTMLButtonElement>(page, k);
      return [b.textContent, b.title, b.className, b.querySelector('.codicon')?.className];
    });
    assert.deepEqual(buttons, [
      ['Duplicate', 'Duplicate', 'secondary', 'codicon codicon-copy'],
      ['Delete', 'Delete', 'secondary', 'codicon codicon-trash'],
    ]);
    byKey<HTMLButtonElement>(page, 'del:w1').click();
    assert.deepEqual(page.edits(), [{ type: 'deleteWidget', id: 'w1' }]);
  });

  it("draws a widget's body in the theme's secondary text colour, and in the page's colour without one", () => {
    const body = (theme: Record<string, unknown>) => {
      const page = open();
      page.send({ input: inputWith({ theme }) });
      return page.document.querySelector<HTMLElement>('.widget[data-id="w1"] .wbody')!.style.color;
    };
    assert.match(
      body({ widgets: { text: { secondaryColor: '#336699' } } }),
      /^(rgb\(51, 102, 153\)|#336699)$/,
    );
    assert.equal(body({ widgets: { text: { color: '#000000' } } }), '');
  });
});

describe('dashboard editor protocol: the edit messages the host accepts', () => {
  it('takes a theme edit only at a theme field', () => {
    const ok = (m: unknown) => webviewToHost.safeParse(m).success;
    for (const [, , key] of THEME) assert.ok(ok({ type: 'setTheme', path: key.split('.'), value: 'x' }), key);
    assert.ok(ok({ type: 'setTheme', path: ['primaryColor'], value: null }), 'null removes');
    for (const p of [
      ['widgets'],
      ['widgets', 'border'],
      ['primarycolor'],
      ['widgets', 'title', 'colour'],
      [],
    ]) {
      assert.equal(ok({ type: 'setTheme', path: p, value: 'x' }), false, p.join('.'));
    }
  });

  it('keeps layout values within their ranges', () => {
    const cases: [unknown, boolean][] = [
      [{ type: 'setRowHeight', value: 0.5 }, true],
      [{ type: 'setRowHeight', value: 0 }, false],
      [{ type: 'setRowHeight', value: 10_000 }, true],
      [{ type: 'setRowHeight', value: 10_001 }, false],
      [{ type: 'setSpacing', field: 'margin', value: [0, 10_000] }, true],
      [{ type: 'setSpacing', field: 'margin', value: [-1, 0] }, false],
      [{ type: 'setSpacing', field: 'containerPadding', value: [0, 10_001] }, false],
      [{ type: 'setSpacing', field: 'padding', value: [0, 0] }, false],
      [{ type: 'setBreakpointValue', field: 'cols', breakpoint: 'xxs', value: 0 }, true],
      [{ type: 'setBreakpointValue', field: 'cols', breakpoint: 'xl', value: 4 }, false],
      [{ type: 'setBreakpointValue', field: 'breakpoints', breakpoint: 'md', value: 100_000 }, true],
      [{ type: 'setBreakpointValue', field: 'breakpoints', breakpoint: 'md', value: 100_001 }, false],
      [{ type: 'setBreakpointValue', field: 'breakpoints', breakpoint: 'md', value: 2.5 }, false],
      [{ type: 'moveWidget', id: 'w1', x: 0, y: 10_000, breakpoint: null }, true],
      [{ type: 'moveWidget', id: 'w1', x: -1, y: 0, breakpoint: null }, false],
      [{ type: 'moveWidget', id: '', x: 0, y: 0, breakpoint: null }, false],
      [{ type: 'resizeWidget', id: 'w1', w: 1, h: 10_000, breakpoint: 'sm' }, true],
      [{ type: 'resizeWidget', id: 'w1', w: 0, h: 1, breakpoint: 'sm' }, false],
      [{ type: 'reveal', line: 0, column: 0 }, true],
      [{ type: 'reveal', line: -1, column: 0 }, false],
    ];
    for (const [m, accepted] of cases)
      assert.equal(webviewToHost.safeParse(m).success, accepted, JSON.stringify(m));
  });

  it('counts as edits exactly the messages that change the file', () => {
    const messages: [WebviewToHost, boolean][] = [
      [{ type: 'setTheme', path: ['primaryColor'], value: '#fff' }, true],
      [{ type: 'setRowHeight', value: 40 }, true],
      [{ type: 'setSpacing', field: 'margin', value: null }, true],
      [{ type: 'setBreakpointValue', field: 'cols', breakpoint: 'lg', value: 12 }, true],
      [{ type: 'setTitle', title: 'x' }, true],
      [{ type: 'ready' }, false],
      [{ type: 'publish' }, false],
      [{ type: 'saveDraft' }, false],
      [{ type: 'publishReviewed' }, false],
      [{ type: 'cancelReview' }, false],
      [{ type: 'pickReport', id: 'w1' }, false],
      [{ type: 'openText' }, false],
      [{ type: 'reveal', line: 0, column: 0 }, false],
    ];
    assert.deepEqual(
      messages.map(([m]) => [m.type, isEditorEdit(m)]),
      messages.map(([m, edit]) => [m.type, edit]),
    );
  });
});
