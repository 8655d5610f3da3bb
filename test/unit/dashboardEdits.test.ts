// The dashboard editor's edits: title in both places, a widget moved at its main position or at one
// breakpoint's responsive layout, everything else kept, an unknown widget refused.
import { strict as assert } from 'node:assert';
import { applyEditorEdit } from '../../src/dashboards/dashboardEdits';
import { webviewToHost } from '../../src/shared/dashboardEditorProtocol';

const input = {
  workbookId: 1,
  extra: 'kept',
  config: {
    title: 'Old',
    widgets: [
      { id: 'a', position: { h: 2, w: 3, x: 0, y: 0 }, custom: true },
      { id: 'b', position: { h: 1, w: 1, x: 5, y: 5 } },
    ],
  },
};

describe('dashboard editor edits', () => {
  it('sets the title of the dashboard and of its config, keeping other fields', () => {
    const next = applyEditorEdit(input, { type: 'setTitle', title: 'New' });
    assert.equal(next.title, 'New');
    assert.equal(next.config?.title, 'New');
    assert.equal((next as { extra?: string }).extra, 'kept');
    assert.equal(input.config.title, 'Old', 'the input is not mutated');
  });

  it('moves a widget at its position, or at one breakpoint', () => {
    const moved = applyEditorEdit(input, { type: 'moveWidget', id: 'a', x: 4, y: 2, breakpoint: null });
    assert.deepEqual(moved.config?.widgets?.[0], {
      id: 'a',
      position: { h: 2, w: 3, x: 4, y: 2 },
      custom: true,
    });
    const sm = applyEditorEdit(input, { type: 'moveWidget', id: 'b', x: 0, y: 1, breakpoint: 'sm' });
    assert.deepEqual(sm.config?.widgets?.[1]?.position, { h: 1, w: 1, x: 5, y: 5 });
    assert.deepEqual(sm.config?.widgets?.[1]?.responsiveLayouts, { sm: { h: 1, w: 1, x: 0, y: 1 } });
  });

  it('refuses an unknown widget and malformed messages', () => {
    assert.throws(
      () => applyEditorEdit(input, { type: 'moveWidget', id: 'zz', x: 0, y: 0, breakpoint: null }),
      /zz/,
    );
    assert.equal(
      webviewToHost.safeParse({ type: 'moveWidget', id: 'a', x: -1, y: 0, breakpoint: null }).success,
      false,
    );
    assert.equal(
      webviewToHost.safeParse({ type: 'moveWidget', id: 'a', x: 0, y: 0, breakpoint: 'xl' }).success,
      false,
    );
  });
});
