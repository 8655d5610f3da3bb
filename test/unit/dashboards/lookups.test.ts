// The small rules under the dashboards' flows that the sampled mutants found untested: a report
// found by its public id (searched by name first, then page by page to the last page, never
// looping on a repeated cursor, at most 50 pages), a widget's new id kept unique past "-2", the
// grid's row height, a minted public id drawing again on byte 248 (no bias), when the layout gives none or a non-positive one, and boxes that only touch
// not counted as overlapping. ReportFlows is loaded with the dashboards' stand-in for `vscode`.
import assert from 'node:assert/strict';
import type * as ReportFlowsModule from '../../../src/dashboards/reportFlows';
import { editDashboardText } from '../../../src/dashboards/dashboardEdits';
import { mintPublicId } from '../../../src/dashboards/reportFile';
import { DEFAULT_ROW_HEIGHT, gridSpec, overlaps } from '../../../src/shared/dashboardGrid';
import type { Services } from '../../../src/services';
import { recordingClient } from '../featureHarness';
import { memento, useDashStandIn } from './dashStandIn';

describe('dashboards: report lookup by public id, unique widget ids, grid rules', () => {
  useDashStandIn();
  let flowsMod: typeof ReportFlowsModule;
  before(() => {
    // eslint-disable-next-line @typescript-eslint/no-require-imports
    flowsMod = require('../../../src/dashboards/reportFlows') as typeof ReportFlowsModule;
  });

  /** Pages of reports; `cursor(i)` is page i's end cursor (undefined: the last page). */
  function lookup(pages: { publicId: string; id: number }[][], cursor: (i: number) => string | undefined) {
    const rec = recordingClient({
      listReports: async (_d: number, q: { after?: string; search?: string }) => {
        if (q.search !== undefined) return { items: pages.flat().filter((r) => r.publicId.includes('hit')) };
        const i = q.after === undefined ? 0 : Number(q.after.split('-')[1]) + 1;
        const items = pages[i] ?? [];
        const end = cursor(i);
        return { items, pageInfo: { hasNextPage: end !== undefined, endCursor: end ?? null } };
      },
      getReport: async (_d: number, id: number) => ({ id, name: `report ${id}` }),
    });
    const services = {
      context: { workspaceState: memento(), globalState: memento() },
      log: { info: () => undefined, warn: () => undefined },
    } as unknown as Services;
    const flows = new flowsMod.ReportFlows(services, async () => undefined);
    return { rec, flows };
  }

  it('finds a report by public id: by name first, else every page to the last', async () => {
    const pages = [[{ publicId: 'p1', id: 1 }], [{ publicId: 'p2', id: 2 }], [{ publicId: 'p3-hit', id: 3 }]];
    const last = (i: number) => (i < 2 ? `c-${i}` : undefined);
    // Searched by name: the hit is fetched at once.
    const a = lookup(pages, last);
    assert.deepEqual(await a.flows.findByPublicId(a.rec.client as never, 7, 'p3-hit', ' Rev '), {
      id: 3,
      name: 'report 3',
    });
    assert.deepEqual(
      a.rec.calls.map((c) => [c.name, ...c.args]),
      [
        ['listReports', 7, { first: 100, search: 'Rev' }],
        ['getReport', 7, 3],
      ],
    );
    // Not found by name (or no name): page by page.
    const b = lookup(pages, last);
    assert.deepEqual(await b.flows.findByPublicId(b.rec.client as never, 7, 'p2'), {
      id: 2,
      name: 'report 2',
    });
    assert.deepEqual(
      b.rec.calls.map((c) => [c.name, ...c.args]),
      [
        ['listReports', 7, { first: 100 }],
        ['listReports', 7, { first: 100, after: 'c-0' }],
        ['getReport', 7, 2],
      ],
    );
    const c = lookup(pages, last);
    assert.equal(await c.flows.findByPublicId(c.rec.client as never, 7, 'nowhere', 'Name'), undefined);
    assert.deepEqual(
      c.rec.calls.map((x) => x.args[1]),
      [
        { first: 100, search: 'Name' },
        { first: 100 },
        { first: 100, after: 'c-0' },
        { first: 100, after: 'c-1' },
      ],
      'searched, then the three pages, nothing fetched',
    );
  });

  it('stops on a repeated cursor and after 50 pages', async () => {
    const same = lookup([[{ publicId: 'x', id: 1 }]], () => 'c-0');
    assert.equal(await same.flows.findByPublicId(same.rec.client as never, 7, 'nowhere'), undefined);
    assert.equal(same.rec.calls.length, 2, 'the second page repeats the cursor: stop');
    const endless = lookup([], (i) => `c-${i}`);
    assert.equal(await endless.flows.findByPublicId(endless.rec.client as never, 7, 'nowhere'), undefined);
    assert.equal(endless.rec.calls.length, 50);
  });

  it('a new widget id stays unique past -2', () => {
    let text = '{"workbookId": 3, "config": {"widgets": []}}';
    const ids: string[] = [];
    for (let i = 0; i < 4; i++) {
      const r = editDashboardText(text, { type: 'addWidget', widgetType: 'CHART' });
      text = r.text;
      ids.push(String(r.select));
    }
    assert.deepEqual(ids, ['chart', 'chart-2', 'chart-3', 'chart-4']);
  });

  it('row height: the layout’s when positive, else the default; touching boxes do not overlap', () => {
    const heights = [undefined, 0, -5, 30, 0.5].map(
      (rowHeight) => gridSpec({ rowHeight }, 'lg', 1200).rowHeight,
    );
    assert.deepEqual(heights, [DEFAULT_ROW_HEIGHT, DEFAULT_ROW_HEIGHT, DEFAULT_ROW_HEIGHT, 30, 0.5]);
    const box = (x: number, y: number, w: number, h: number) => ({ x, y, w, h });
    const cases: [string, ReturnType<typeof box>, ReturnType<typeof box>, boolean][] = [
      ['side by side', box(0, 0, 2, 2), box(2, 0, 2, 2), false],
      ['left of', box(2, 0, 2, 2), box(0, 0, 2, 2), false],
      ['one above the other', box(0, 0, 2, 2), box(0, 2, 2, 2), false],
      ['one below the other', box(0, 2, 2, 2), box(0, 0, 2, 2), false],
      ['one cell shared', box(0, 0, 2, 2), box(1, 1, 2, 2), true],
      ['inside', box(0, 0, 4, 4), box(1, 1, 1, 1), true],
    ];
    assert.deepEqual(
      cases.map(([name, a, b]) => [
        name,
        overlaps([
          { id: 'a', box: a },
          { id: 'b', box: b },
        ]).length > 0,
      ]),
      cases.map(([name, , , o]) => [name, o]),
    );
  });
  it('columns: the layout’s, else each breakpoint’s default', () => {
    const bps = ['lg', 'md', 'sm', 'xs', 'xxs'] as const;
    assert.deepEqual(
      bps.map((b) => gridSpec({}, b, 1200).cols),
      [12, 10, 6, 4, 2],
    );
    assert.deepEqual(
      bps.map((b) => gridSpec({ cols: { [b]: 3.7 } }, b, 1200).cols),
      [3, 3, 3, 3, 3],
    );
  });

  it('a theme value removed: only what is there; empty groups go with it, never the theme itself', () => {
    const file = (theme: unknown) => JSON.stringify({ workbookId: 3, config: { theme } }, null, 2);
    const themeOf = (text: string) => (JSON.parse(text) as { config: { theme?: unknown } }).config.theme;
    // A field that is not there: nothing changes (its lone sibling stays).
    const lone = file({ widgets: { border: { width: '1px' } } });
    const missing = editDashboardText(lone, {
      type: 'setTheme',
      path: ['widgets', 'border', 'color'],
      value: null,
    });
    assert.equal(missing.text, lone);
    // The last field of a group: the group goes, up to the theme, which stays (empty).
    const nested = editDashboardText(lone, {
      type: 'setTheme',
      path: ['widgets', 'border', 'width'],
      value: null,
    });
    assert.deepEqual(themeOf(nested.text), {});
    const top = editDashboardText(file({ primaryColor: '#fff' }), {
      type: 'setTheme',
      path: ['primaryColor'],
      value: null,
    });
    assert.deepEqual(themeOf(top.text), {});
  });

  it('a minted public id draws again on bytes 248 and above (248 would bias towards "0")', () => {
    const bytes = (n: number) => Uint8Array.from({ length: n }, (_, i) => (i % 2 === 0 ? 248 : 61));
    assert.equal(mintPublicId(bytes), 'zzzzzzzzzzzz');
  });
});
