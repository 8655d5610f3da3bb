// The dashboard editor's edits, applied to the text of a file: each changes only what it names
// (the rest keeps its formatting, key order and unknown fields), the result still validates, and
// bad requests are refused with what to fix.
import { strict as assert } from 'node:assert';
import { editDashboardText, minimalReplacement } from '../../src/dashboards/dashboardEdits';
import { locate } from '../../src/shared/jsonLocate';
import { parseDashboardFile } from '../../src/dashboards/dashboardFile';
import { WIDGET_TYPES } from '../../src/api/schemas/platform';
import {
  EDITOR_WIDGET_TYPES,
  webviewToHost,
  type EditorEdit,
} from '../../src/shared/dashboardEditorProtocol';

// Hand-formatted: 4-space indent, a compact position object, an unknown field, keys out of order.
const TEXT = `{
    "workbookId": 1,
    "extra": "kept",
    "title": "Old",
    "config": {
        "title": "Old",
        "widgets": [
            { "id": "a", "position": { "h": 2, "w": 3, "x": 0, "y": 0 }, "custom": true },
            {
                "id": "b",
                "type": "TEXT",
                "position": { "h": 1, "w": 1, "x": 5, "y": 5 },
                "responsiveLayouts": { "sm": { "h": 1, "w": 2, "x": 0, "y": 4 } }
            }
        ],
        "theme": { "widgets": { "border": { "color": "#fff" } }, "primaryColor": "#123456" }
    }
}
`;

type Json = {
  title?: string;
  description?: string;
  allowEmbed?: boolean;
  extra?: string;
  config: {
    title?: string;
    description?: string;
    widgets: {
      id: string;
      type?: string;
      custom?: boolean;
      config?: Record<string, unknown>;
      position: { h: number; w: number; x: number; y: number };
      responsiveLayouts?: Record<string, { h: number; w: number; x: number; y: number }>;
    }[];
    theme?: Record<string, unknown>;
    layout?: Record<string, unknown>;
  };
};

function edit(e: EditorEdit, text = TEXT): { json: Json; text: string; select?: string } {
  assert.ok(webviewToHost.safeParse(e).success, `a valid message: ${JSON.stringify(e)}`);
  const out = editDashboardText(text, e);
  assert.ok(parseDashboardFile(out.text).ok, 'the result validates');
  return {
    json: JSON.parse(out.text) as Json,
    text: out.text,
    ...(out.select ? { select: out.select } : {}),
  };
}

/** Lines of `after` that are not in `before` (the lines an edit touched). */
function changedLines(before: string, after: string): string[] {
  const old = new Set(before.split('\n'));
  return after.split('\n').filter((l) => !old.has(l));
}

describe('dashboard editor edits', () => {
  it('sets the title of the dashboard and of its config and touches nothing else', () => {
    const { json, text } = edit({ type: 'setTitle', title: 'New' });
    assert.equal(json.title, 'New');
    assert.equal(json.config.title, 'New');
    assert.equal(json.extra, 'kept');
    assert.deepEqual(changedLines(TEXT, text), ['    "title": "New",', '        "title": "New",']);
    const cleared = edit({ type: 'setTitle', title: '' }).json;
    assert.equal('title' in cleared, false, 'an empty title removes the field');
  });

  it('sets the description and allowEmbed', () => {
    const { json } = edit({ type: 'setDescription', description: 'Weekly numbers' });
    assert.equal(json.description, 'Weekly numbers');
    assert.equal(json.config.description, 'Weekly numbers');
    assert.equal(edit({ type: 'setAllowEmbed', allowEmbed: true }).json.allowEmbed, true);
  });

  it('moves a widget at its position, or at its own layout of a breakpoint, keeping the file style', () => {
    const moved = edit({ type: 'moveWidget', id: 'a', x: 4, y: 2, breakpoint: null });
    assert.deepEqual(moved.json.config.widgets[0], {
      id: 'a',
      position: { h: 2, w: 3, x: 4, y: 2 },
      custom: true,
    });
    assert.deepEqual(changedLines(TEXT, moved.text), [
      '            { "id": "a", "position": { "h": 2, "w": 3, "x": 4, "y": 2 }, "custom": true },',
    ]);
    const sm = edit({ type: 'moveWidget', id: 'b', x: 3, y: 0, breakpoint: 'sm' }).json;
    assert.deepEqual(sm.config.widgets[1]!.position, { h: 1, w: 1, x: 5, y: 5 }, 'main position kept');
    assert.deepEqual(sm.config.widgets[1]!.responsiveLayouts, { sm: { h: 1, w: 2, x: 3, y: 0 } });
    const md = edit({ type: 'moveWidget', id: 'a', x: 1, y: 1, breakpoint: 'md' }).json;
    assert.deepEqual(
      md.config.widgets[0]!.responsiveLayouts,
      { md: { h: 2, w: 3, x: 1, y: 1 } },
      'a breakpoint without its own layout gets one from the position',
    );
  });

  it('resizes a widget', () => {
    const { json } = edit({ type: 'resizeWidget', id: 'b', w: 4, h: 3, breakpoint: 'sm' });
    assert.deepEqual(json.config.widgets[1]!.responsiveLayouts!.sm, { h: 3, w: 4, x: 0, y: 4 });
    const main = edit({ type: 'resizeWidget', id: 'a', w: 6, h: 5, breakpoint: null }).json;
    assert.deepEqual(main.config.widgets[0]!.position, { h: 5, w: 6, x: 0, y: 0 });
  });

  it('gives a widget its own layout at a breakpoint, fitted to its columns, and removes it', () => {
    const wide = TEXT.replace('"w": 3, "x": 0', '"w": 12, "x": 0');
    const on = edit({ type: 'setResponsive', id: 'a', breakpoint: 'xs', enabled: true }, wide).json;
    assert.deepEqual(on.config.widgets[0]!.responsiveLayouts, { xs: { h: 2, w: 4, x: 0, y: 0 } });
    const off = edit({ type: 'setResponsive', id: 'b', breakpoint: 'sm', enabled: false }).json;
    assert.equal('responsiveLayouts' in off.config.widgets[1]!, false, 'an emptied object goes too');
  });

  it('adds a widget under the others, with its own layouts where the others have them, and selects it', () => {
    const { json, select } = edit({ type: 'addWidget', widgetType: 'CHART' });
    const added = json.config.widgets[2]!;
    assert.equal(select, 'chart');
    assert.equal(added.id, 'chart');
    assert.equal(added.type, 'CHART');
    assert.equal(added.position.y, 6, 'below the lowest widget (b ends at row 6)');
    assert.deepEqual(added.responsiveLayouts, { sm: { h: 2, w: 6, x: 0, y: 5 } });
    const again = edit(
      { type: 'addWidget', widgetType: 'CHART' },
      editDashboardText(TEXT, { type: 'addWidget', widgetType: 'CHART' }).text,
    );
    assert.equal(again.select, 'chart-2', 'ids stay unique');
    const none = edit({ type: 'addWidget', widgetType: 'TEXT' }, '{"workbookId": 3}');
    assert.equal(none.json.config.widgets[0]!.id, 'text');
  });

  it('duplicates a widget right after it with a new id, below the others', () => {
    const { json, select } = edit({ type: 'duplicateWidget', id: 'b' });
    assert.equal(select, 'b-copy');
    const copy = json.config.widgets[2]!;
    assert.equal(copy.id, 'b-copy');
    assert.equal(copy.type, 'TEXT');
    assert.deepEqual(copy.position, { h: 1, w: 1, x: 5, y: 6 });
    assert.deepEqual(copy.responsiveLayouts, { sm: { h: 1, w: 2, x: 0, y: 5 } });
    const first = edit({ type: 'duplicateWidget', id: 'a' }).json;
    assert.deepEqual(
      first.config.widgets.map((w) => w.id),
      ['a', 'a-copy', 'b'],
    );
    assert.equal(first.config.widgets[1]!.custom, true, 'unknown fields are copied');
  });

  it('deletes a widget', () => {
    const { json } = edit({ type: 'deleteWidget', id: 'a' });
    assert.deepEqual(
      json.config.widgets.map((w) => w.id),
      ['b'],
    );
  });

  it('sets a widget type (empty removes it) and its config JSON', () => {
    assert.equal(
      edit({ type: 'setWidgetType', id: 'a', widgetType: 'FILTER' }).json.config.widgets[0]!.type,
      'FILTER',
    );
    assert.equal(
      'type' in edit({ type: 'setWidgetType', id: 'b', widgetType: '' }).json.config.widgets[1]!,
      false,
    );
    const { json } = edit({ type: 'setWidgetConfig', id: 'b', config: { text: '## Hi', n: [1, 2] } });
    assert.deepEqual(json.config.widgets[1]!.config, { text: '## Hi', n: [1, 2] });
  });

  it("sets one field of a widget's config (title, text, report), keeping the others, and removes it", () => {
    const titled = edit({ type: 'setWidgetConfigValue', id: 'b', key: 'text', value: '## Hi' });
    assert.deepEqual(
      titled.json.config.widgets[1]!.config,
      { text: '## Hi' },
      'a widget without a config gets one',
    );
    const picked = edit(
      { type: 'setWidgetConfigValue', id: 'b', key: 'reportId', value: 10014 },
      titled.text,
    );
    assert.deepEqual(picked.json.config.widgets[1]!.config, { text: '## Hi', reportId: 10014 });
    assert.deepEqual(changedLines(titled.text, picked.text).length <= 2, true, 'only the new value');
    const cleared = edit({ type: 'setWidgetConfigValue', id: 'b', key: 'text', value: null }, picked.text);
    assert.deepEqual(cleared.json.config.widgets[1]!.config, { reportId: 10014 });
    assert.equal(
      webviewToHost.safeParse({ type: 'setWidgetConfigValue', id: 'b', key: 'style', value: 'x' }).success,
      false,
      'only title, text and reportId',
    );
    assert.equal(
      webviewToHost.safeParse({ type: 'setWidgetConfigValue', id: 'b', key: 'reportId', value: -1 }).success,
      false,
    );
  });

  it("sets a widget's report, with its title in the same edit when the title followed the report", () => {
    const one = edit({ type: 'setWidgetReport', id: 'a', reportId: 10014, title: 'Orders by Month' });
    assert.deepEqual(one.json.config.widgets[0]!.config, { reportId: 10014, title: 'Orders by Month' });
    const kept = edit({ type: 'setWidgetReport', id: 'a', reportId: 10001 }, one.text);
    assert.deepEqual(kept.json.config.widgets[0]!.config, { reportId: 10001, title: 'Orders by Month' });
  });

  it('keeps editing a file whose only problem is a value, and fixes that value', () => {
    const banana = TEXT.replace('"primaryColor": "#123456"', '"primaryColor": "banana"');
    const parsed = parseDashboardFile(banana);
    assert.ok(!parsed.ok && parsed.input, 'a value problem leaves the input readable');
    const moved = editDashboardText(banana, { type: 'moveWidget', id: 'a', x: 1, y: 0, breakpoint: null });
    assert.equal((JSON.parse(moved.text) as Json).config.widgets[0]!.position.x, 1);
    const fixed = editDashboardText(moved.text, {
      type: 'setTheme',
      path: ['primaryColor'],
      value: '#ff0000',
    });
    assert.ok(parseDashboardFile(fixed.text).ok, 'fixed');
  });

  it('sets and removes theme fields, dropping emptied groups', () => {
    const set = edit({ type: 'setTheme', path: ['dashboard', 'backgroundColor'], value: '#eeeeee' }).json;
    assert.deepEqual(set.config.theme, {
      widgets: { border: { color: '#fff' } },
      primaryColor: '#123456',
      dashboard: { backgroundColor: '#eeeeee' },
    });
    const removed = edit({ type: 'setTheme', path: ['widgets', 'border', 'color'], value: null }).json;
    assert.deepEqual(removed.config.theme, { primaryColor: '#123456' });
    assert.equal(webviewToHost.safeParse({ type: 'setTheme', path: ['nope'], value: 'x' }).success, false);
  });

  it('sets layout numbers per field and per breakpoint', () => {
    let text = TEXT;
    for (const e of [
      { type: 'setRowHeight', value: 40 },
      { type: 'setSpacing', field: 'margin', value: [8, 6] },
      { type: 'setSpacing', field: 'containerPadding', value: [0, 0] },
      { type: 'setBreakpointValue', field: 'cols', breakpoint: 'sm', value: 8 },
      { type: 'setBreakpointValue', field: 'breakpoints', breakpoint: 'lg', value: 1400 },
    ] as EditorEdit[])
      text = edit(e, text).text;
    assert.deepEqual(JSON.parse(text).config.layout, {
      rowHeight: 40,
      margin: [8, 6],
      containerPadding: [0, 0],
      cols: { sm: 8 },
      breakpoints: { lg: 1400 },
    });
    const cleared = edit(
      { type: 'setBreakpointValue', field: 'cols', breakpoint: 'sm', value: null },
      text,
    ).json;
    assert.equal('cols' in cleared.config.layout!, false);
  });

  it('refuses an unknown widget, an invalid file and malformed messages', () => {
    assert.throws(() => editDashboardText(TEXT, { type: 'deleteWidget', id: 'zz' }), /no widget "zz"/);
    assert.throws(
      () => editDashboardText('{"workbookId": "x"}', { type: 'setTitle', title: 't' }),
      /Fix the problems.*workbookId/,
    );
    for (const bad of [
      { type: 'moveWidget', id: 'a', x: -1, y: 0, breakpoint: null },
      { type: 'moveWidget', id: 'a', x: 0, y: 0, breakpoint: 'xl' },
      { type: 'resizeWidget', id: 'a', w: 0, h: 1, breakpoint: null },
      { type: 'setRowHeight', value: -5 },
      { type: 'setWidgetConfig', id: 'a', config: [1] },
    ]) {
      assert.equal(webviewToHost.safeParse(bad).success, false, JSON.stringify(bad));
    }
  });

  it('turns a change into one minimal replacement', () => {
    assert.equal(minimalReplacement('abc', 'abc'), undefined);
    assert.deepEqual(minimalReplacement('{"x": 1}', '{"x": 12}'), { offset: 7, length: 0, text: '2' });
    assert.deepEqual(minimalReplacement('aXXb', 'ab'), { offset: 1, length: 2, text: '' });
    const after = edit({ type: 'setTitle', title: 'New' }).text;
    const r = minimalReplacement(TEXT, after)!;
    assert.equal(TEXT.slice(0, r.offset) + r.text + TEXT.slice(r.offset + r.length), after);
  });

  it('offers the widget types the schema knows', () => {
    assert.deepEqual([...EDITOR_WIDGET_TYPES], [...WIDGET_TYPES]);
  });
});

describe('locating a JSON path in text', () => {
  const text = `{"a": {"b\\"q": [1, {"c": "x\\\\\\"y"}, [2, 3]], "n": -1.5e3}, "s": "}]", "z": true}`;
  const at = (path: (string | number)[]) => {
    const s = locate(text, path);
    return s && text.slice(s.offset, s.offset + s.length);
  };

  it('finds values by key and index past strings with quotes, escapes and brackets', () => {
    assert.deepEqual(JSON.parse(text).a['b"q'][1].c, 'x\\"y');
    assert.equal(at(['a', 'b"q', 1, 'c']), '"x\\\\\\"y"');
    assert.equal(at(['a', 'b"q', 2, 1]), '3');
    assert.equal(at(['a', 'n']), '-1.5e3');
    assert.equal(at(['s']), '"}]"');
    assert.equal(at(['z']), 'true');
    assert.equal(at(['a', 'b"q']), '[1, {"c": "x\\\\\\"y"}, [2, 3]]');
    assert.equal(at([]), text);
  });

  it('says when a path is not there', () => {
    assert.equal(at(['missing']), undefined);
    assert.equal(at(['a', 'b"q', 3]), undefined);
    assert.equal(at(['z', 'deeper']), undefined);
    assert.equal(locate('{"a": [1, 2', ['a', 5]), undefined);
  });

  it('edits the value JSON.parse reads when a key is duplicated', () => {
    const dup = '{"workbookId": 1, "title": "first", "title": "last"}';
    const out = editDashboardText(dup, { type: 'setTitle', title: 'New' }).text;
    assert.equal((JSON.parse(out) as { title: string }).title, 'New');
  });
});
