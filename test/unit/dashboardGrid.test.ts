// The dashboard grid geometry the editor's preview draws with: react-grid-layout's placement rules
// (columns share the width left after margins and padding), the layout's values or the defaults,
// snapping of drags and resizes to whole cells inside the columns, and the layout's problems.
import { strict as assert } from 'node:assert';
import {
  boxRect,
  gridHeight,
  gridSpec,
  movedBox,
  nominalWidth,
  outOfBounds,
  overlaps,
  resizedBox,
} from '../../src/shared/dashboardGrid';
import { GRID_LAYOUT as layout } from './dashboardFixtures';

describe('dashboard grid geometry', () => {
  it('places a box like react-grid-layout', () => {
    const spec = gridSpec(layout, 'lg', 1200);
    // (1200 - 11 * 12 - 2 * 16) / 12
    assert.equal(spec.colWidth, (1200 - 132 - 32) / 12);
    assert.deepEqual(boxRect(spec, { x: 0, y: 0, w: 1, h: 1 }), { left: 16, top: 16, width: 86, height: 60 });
    assert.deepEqual(boxRect(spec, { x: 6, y: 2, w: 6, h: 4 }), {
      left: Math.round((spec.colWidth + 12) * 6 + 16),
      top: (60 + 12) * 2 + 16,
      width: Math.round(spec.colWidth * 6 + 5 * 12),
      height: 60 * 4 + 3 * 12,
    });
    assert.equal(gridHeight(spec, [{ x: 0, y: 2, w: 1, h: 4 }]), 6 * 60 + 5 * 12 + 32);
  });

  it('uses the defaults where the layout is silent, and the layout where it is not', () => {
    const spec = gridSpec({}, 'sm', 5000);
    assert.deepEqual([spec.cols, spec.rowHeight, spec.margin, spec.padding], [6, 150, [10, 10], [10, 10]]);
    assert.equal(spec.width, nominalWidth({}, 'sm'));
    assert.equal(gridSpec({ cols: { sm: 8 }, rowHeight: 30 }, 'sm', 5000).cols, 8);
    assert.equal(
      gridSpec({ cols: { sm: 0 }, rowHeight: -1 }, 'sm', 5000).rowHeight,
      150,
      'bad values fall back',
    );
  });

  it('draws each breakpoint at its narrowest width, and fits narrow editors', () => {
    assert.deepEqual(
      (['lg', 'md', 'sm', 'xs', 'xxs'] as const).map((b) => nominalWidth(layout, b)),
      [1200, 996, 768, 480, 320],
    );
    assert.equal(nominalWidth({ breakpoints: { lg: 1600 } }, 'lg'), 1600);
    const narrow = gridSpec(layout, 'lg', 600);
    assert.equal(narrow.width, 600);
    assert.equal(narrow.nominalWidth, 1200);
    assert.ok(boxRect(narrow, { x: 0, y: 0, w: 12, h: 1 }).width <= 600 - 32);
  });

  it('snaps drags and resizes to whole cells inside the columns', () => {
    const spec = gridSpec(layout, 'lg', 1200);
    const cell = spec.colWidth + 12;
    const box = { x: 2, y: 1, w: 4, h: 2 };
    assert.deepEqual(movedBox(spec, box, cell * 1.4, 72 * 2.6), { ...box, x: 3, y: 4 });
    assert.deepEqual(movedBox(spec, box, cell * 40, -9999), { ...box, x: 8, y: 0 });
    assert.deepEqual(resizedBox(spec, box, cell * 100, -9999), { ...box, w: 10, h: 1 });
  });

  it('finds overlapping widgets and widgets past the last column', () => {
    const items = [
      { id: 'a', box: { x: 0, y: 0, w: 6, h: 2 } },
      { id: 'b', box: { x: 5, y: 1, w: 2, h: 2 } },
      { id: 'c', box: { x: 6, y: 0, w: 6, h: 1 } },
      { id: 'd', box: { x: 0, y: 2, w: 6, h: 1 } },
    ];
    assert.deepEqual(overlaps(items), [
      ['a', 'b'],
      ['b', 'd'],
    ]);
    assert.deepEqual(outOfBounds(gridSpec(layout, 'sm', 5000), items), ['b', 'c']);
  });
});
