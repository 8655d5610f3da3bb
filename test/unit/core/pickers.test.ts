// The pickers and boxes every flow asks through (src/ui/pickers.ts), driven as a user would: type,
// press Enter, Back or Escape. Long lists load page by page without closing ("Load more…"); a typed
// value is offered as "Use “…”" and refused with the reason under it; Back and Escape reject with
// GoBack and UserCancelled. Then the steps of a multi-step flow (steps.ts) and the lists the flows
// pick from (pickerSources.ts).
import * as assert from 'node:assert/strict';
import type * as PickersModule from '../../../src/ui/pickers';
import type * as SourcesModule from '../../../src/ui/pickerSources';
import { dashboardName } from '../../../src/explorer/notifications/dashboardNames';
import { runSteps } from '../../../src/ui/steps';
import { GoBack, type Choice, type StepInfo } from '../../../src/ui/quickInputTypes';
import { useCoreStandIn, type Widget } from './coreStandIn';

const rejection = (p: Promise<unknown>) =>
  p.then(
    () => undefined,
    (e: Error) => e,
  );
const tick = () => new Promise((r) => setImmediate(r));

describe('core: pickers and input boxes, as a user drives them', () => {
  const stand = useCoreStandIn();
  let ui: typeof PickersModule;
  before(() => {
    ui = stand.load('../../../src/ui/pickers');
  });
  const last = (): Widget => stand.sink().widgets.at(-1)!;
  const choices: Choice<number>[] = [
    { label: 'Revenue', description: '#1', detail: 'by month', value: 1 },
    { label: 'Orders', value: 2 },
  ];

  it('a pick: its title, placeholder and rows; stays open across focus; Enter returns the active row', async () => {
    stand.reset();
    const p = ui.showPicker('Report', choices, { placeHolder: 'Pick a report', active: (v) => v === 2 });
    const w = last();
    assert.equal(w.title, 'Report');
    assert.equal(w.placeholder, 'Pick a report');
    assert.equal(w.ignoreFocusOut, true);
    assert.equal(w.matchOnDescription, true);
    assert.equal(w.matchOnDetail, true);
    assert.equal(w.canSelectMany, false);
    assert.equal(w.shown, true);
    assert.deepEqual(
      w.items.map((r) => [r.label, r.description, r.detail]),
      [
        ['Revenue', '#1', 'by month'],
        ['Orders', undefined, undefined],
      ],
    );
    assert.deepEqual(w.activeItems, [w.items[1]], 'the row named active is highlighted');
    assert.deepEqual(w.buttons, [], 'no Back outside a flow');
    w.accept();
    assert.deepEqual(await p, [2]);
    assert.equal(w.disposed, true);
  });

  it('Enter with no row active keeps the picker open; Escape then cancels', async () => {
    stand.reset();
    const p = ui.showPicker('Report', choices, { active: (v) => v === 99 });
    const w = last();
    assert.deepEqual(w.activeItems, [], 'no row named active: none highlighted');
    w.activeItems = [];
    w.accept();
    await tick();
    assert.equal(w.disposed, false);
    w.hide();
    assert.equal((await rejection(p))?.name, 'UserCancelled');
  });

  it('a step of a flow shows "n of m" and a Back button from the second step; Back rejects with GoBack', async () => {
    stand.reset();
    const first = ui.showPicker('Kind', choices, { step: { step: 1, totalSteps: 3 } });
    const w1 = last();
    assert.equal(w1.step, 1);
    assert.equal(w1.totalSteps, 3);
    assert.deepEqual(w1.buttons, []);
    w1.activeItems = [w1.items[0]];
    w1.accept();
    assert.deepEqual(await first, [1]);
    const second = ui.showPicker('Kind', choices, { step: { step: 2, totalSteps: 3 } });
    const w2 = last();
    assert.equal(w2.buttons.length, 1);
    w2.back();
    assert.ok((await rejection(second)) instanceof GoBack);
    assert.equal(w2.disposed, true);
    // Another button (not Back) does nothing.
    const third = ui.showPicker('Kind', choices, { step: { step: 2, totalSteps: 3 } });
    const w3 = last();
    w3.press({ iconPath: 'other' });
    await tick();
    assert.equal(w3.disposed, false);
    w3.activeItems = [w3.items[1]];
    w3.accept();
    assert.deepEqual(await third, [2]);
  });

  it('"Load more…" fetches the next page without closing, busy while it loads; the last page has none', async () => {
    stand.reset();
    let calls = 0;
    const more = async () => {
      calls++;
      return {
        choices: [{ label: 'Margin', value: 3 }],
        more: async () => ({ choices: [{ label: 'Churn', value: 4 }] }),
      };
    };
    const p = ui.showPicker('Report', choices, { more });
    const w = last();
    assert.deepEqual(
      w.items.map((r) => r.label),
      ['Revenue', 'Orders', '$(more) Load more…'],
    );
    assert.equal(w.items[2]!.alwaysShow, true);
    w.activeItems = [w.items[2]];
    w.accept();
    assert.equal(w.busy, true);
    await tick();
    assert.equal(w.busy, false);
    assert.equal(calls, 1);
    assert.equal(w.disposed, false);
    assert.deepEqual(
      w.items.map((r) => r.label),
      ['Revenue', 'Orders', 'Margin', '$(more) Load more…'],
    );
    w.activeItems = [w.items[3]];
    w.accept();
    await tick();
    assert.deepEqual(
      w.items.map((r) => r.label),
      ['Revenue', 'Orders', 'Margin', 'Churn'],
    );
    w.activeItems = [w.items[3]];
    w.accept();
    assert.deepEqual(await p, [4]);
  });

  it('a page that fails to load closes the picker with its error', async () => {
    stand.reset();
    const p = ui.showPicker('Report', choices, {
      more: async () => {
        throw new Error('offline');
      },
    });
    const w = last();
    w.activeItems = [w.items[2]];
    w.accept();
    assert.equal((await rejection(p))?.message, 'offline');
    assert.equal(w.disposed, true);
    assert.equal(w.busy, false);
  });

  it('a typed value: "Use “…”" first, with the hint or the reason it is refused; a refused one keeps it open', async () => {
    stand.reset();
    const typed = {
      validate: (t: string) => (/^\d+$/.test(t) ? undefined : 'Type a number of days.'),
      value: (t: string) => Number(t) * 10,
      hint: 'Any number of days',
    };
    const p = ui.showPicker('Days', choices, { typed });
    const w = last();
    assert.equal(w.items.length, 2, 'nothing typed: no typed row');
    w.type('Orders');
    assert.equal(w.items.length, 2, 'a label already listed is not offered again');
    w.type('  7 ');
    assert.deepEqual(w.items[0], {
      label: 'Use “7”',
      detail: 'Any number of days',
      alwaysShow: true,
      typed: '7',
    });
    w.type('x');
    assert.equal(w.items[0]!.detail, 'Type a number of days.');
    w.activeItems = [w.items[0]];
    w.accept();
    await tick();
    assert.equal(w.disposed, false, 'the reason stays under the row; the picker stays open');
    w.type('12');
    w.activeItems = [w.items[0]];
    w.accept();
    assert.deepEqual(await p, [120]);
  });

  it('typing does not rebuild a picker that takes no typed value', async () => {
    stand.reset();
    const p = ui.showPicker('Report', choices, {});
    const w = last();
    const before = w.items;
    w.type('Rev');
    assert.equal(w.items, before);
    w.hide();
    await rejection(p);
  });

  it('many: every checked row, the preselected ones checked first (kept across pages), none allowed', async () => {
    stand.reset();
    const p = ui.showPicker('Reports', choices, {
      many: true,
      selected: (v) => v === 2,
      more: async () => ({ choices: [{ label: 'Margin', value: 3 }] }),
    });
    const w = last();
    assert.equal(w.canSelectMany, true);
    assert.deepEqual(
      (w.selectedItems as { label: string }[]).map((r) => r.label),
      ['Orders'],
    );
    w.selectedItems = [w.items[0], w.items[2]];
    w.accept();
    await tick();
    assert.deepEqual(
      (w.selectedItems as { label: string }[]).map((r) => r.label),
      ['Revenue'],
      'the checked row stays checked after the page loads',
    );
    w.selectedItems = [w.items[0], w.items[2]];
    w.accept();
    assert.deepEqual(await p, [1, 3]);
    // In a multi pick, the highlighted "Load more…" row is not a request for more: Enter returns the checked rows.
    const hl = ui.showPicker('Reports', choices, { many: true, more: async () => ({ choices: [] }) });
    const wh = last();
    wh.activeItems = [wh.items[2]];
    wh.selectedItems = [wh.items[0]];
    wh.accept();
    assert.deepEqual(await hl, [1]);
    const none = ui.showPicker('Reports', choices, { many: true });
    const w2 = last();
    assert.deepEqual(w2.selectedItems, []);
    w2.accept();
    assert.deepEqual(await none, []);
  });

  it('an input box: its texts, a hidden value for secrets, the reason under it until valid, Back and Escape', async () => {
    stand.reset();
    const validate = (v: string) => (v.trim() ? undefined : 'A name is required.');
    const p = ui.showInput({ title: 'Name', prompt: 'The report’s name', placeHolder: 'Revenue', validate });
    const w = last();
    assert.deepEqual(
      [w.kind, w.title, w.prompt, w.placeholder, w.value, w.password, w.ignoreFocusOut, w.shown],
      ['input', 'Name', 'The report’s name', 'Revenue', '', false, true, true],
    );
    assert.equal(w.validationMessage, undefined, 'no reason before anything is typed');
    w.accept();
    assert.equal(w.validationMessage, 'A name is required.');
    assert.equal(w.disposed, false);
    w.type('Sales');
    assert.equal(w.validationMessage, undefined);
    w.accept();
    assert.equal(await p, 'Sales');
    assert.equal(w.disposed, true);

    const secret = ui.showInput({ title: 'Token', prompt: 'Paste it', password: true, value: ' ', validate });
    const s = last();
    assert.equal(s.password, true);
    assert.equal(s.value, ' ');
    assert.equal(s.validationMessage, 'A name is required.', 'a prefilled value is checked at once');
    s.hide();
    assert.equal((await rejection(secret))?.name, 'UserCancelled');

    const step: StepInfo = { step: 2, totalSteps: 4 };
    const back = ui.showInput({ title: 'Name', prompt: 'p', step });
    const b = last();
    assert.deepEqual([b.step, b.totalSteps, b.buttons.length], [2, 4, 1]);
    b.press({ iconPath: 'other' });
    await tick();
    assert.equal(b.disposed, false);
    b.back();
    assert.ok((await rejection(back)) instanceof GoBack);
    const firstStep = ui.showInput({ title: 'Name', prompt: 'p', step: { step: 1, totalSteps: 2 } });
    assert.deepEqual(last().buttons, []);
    last().accept();
    assert.equal(await firstStep, '');
  });
});

describe('core: the steps of a multi-step flow', () => {
  interface S {
    kind?: string;
    name?: string;
    cron?: string;
    log: string[];
  }
  it('counts the steps that apply, and Back returns to the step answered before with its answer kept', async () => {
    const script: (string | 'back')[] = ['custom', 'A', 'back', 'back', 'daily', 'B'];
    const st: S = { log: [] };
    const ask = (key: 'kind' | 'name' | 'cron') => ({
      async run(s: S, info: StepInfo) {
        s.log.push(`${key} ${info.step}/${info.totalSteps} (was ${s[key] ?? '-'})`);
        const a = script.shift()!;
        if (a === 'back') throw new GoBack();
        s[key] = a;
      },
    });
    await runSteps(st, [
      ask('kind'),
      { ...ask('cron'), applies: (s: S) => s.kind === 'custom' },
      ask('name'),
    ]);
    assert.deepEqual(st.log, [
      'kind 1/2 (was -)',
      'cron 2/3 (was -)',
      'name 3/3 (was -)',
      'cron 2/3 (was A)',
      'kind 1/3 (was custom)',
      'name 2/2 (was -)',
    ]);
    assert.deepEqual([st.kind, st.name, st.cron], ['daily', 'B', 'A']);
  });

  it('Back on the first step, or any other error, leaves the flow', async () => {
    const back = await rejection(
      runSteps({}, [
        {
          run: async () => {
            throw new GoBack();
          },
        },
      ]),
    );
    assert.ok(back instanceof GoBack);
    const other = await rejection(
      runSteps({}, [
        { run: async () => undefined },
        {
          run: async () => {
            throw new Error('server down');
          },
        },
      ]),
    );
    assert.equal(other?.message, 'server down');
  });
});

describe('core: the lists flows pick from', () => {
  const stand = useCoreStandIn();
  let src: typeof SourcesModule;
  before(() => {
    src = stand.load('../../../src/ui/pickerSources');
  });

  it("a deployment's published dashboards by title, page by page; an unpublished workbook is not offered", async () => {
    const asked: unknown[] = [];
    const pages: Record<string, { items: unknown[]; pageInfo?: unknown }> = {
      first: {
        items: [
          {
            id: 7,
            name: 'Sales wb',
            slug: 'sales',
            publishedDashboard: { id: 70, title: 'Sales', publicId: 'pub-70' },
          },
          { id: 8, name: 'Draft only' },
          { id: 9, name: 'Ops', dashboardPublished: { config: { widgets: [] }, title: '', publicId: 9 } },
        ],
        pageInfo: { hasNextPage: true, endCursor: 'c1' },
      },
      c1: {
        // The last page may come without pageInfo.
        items: [{ id: 10, name: 'Last', publishedDashboard: { id: 100 } }],
      },
    };
    const client = {
      listWorkbooks: async (d: number, p: { first: number; after?: string }) => {
        asked.push([d, p]);
        return pages[p.after ?? 'first'];
      },
    };
    const one = await src.dashboardChoices(client as never, 3);
    assert.deepEqual(
      one.choices.map((c) => [c.label, c.description, c.detail, c.id, c.value]),
      [
        ['Sales', 'pub-70', 'workbook sales', '70', { dashboardId: 70, name: 'Sales' }],
        ['Ops', undefined, undefined, '9', { dashboardId: 9, name: 'Ops' }],
      ],
    );
    assert.ok(one.more);
    const two = await one.more();
    assert.deepEqual(
      two.choices.map((c) => c.value),
      [{ dashboardId: 100, name: 'Last' }],
    );
    assert.equal(two.more, undefined);
    // The names are remembered for the notifications that point at these dashboards.
    assert.equal(dashboardName(client, 3, 70), 'Sales');
    assert.equal(dashboardName(client, 3, 100), 'Last');
    assert.deepEqual(asked, [
      [3, { first: 50 }],
      [3, { first: 50, after: 'c1' }],
    ]);
  });

  it("the tenant's users by e-mail (primary, else first, else user name), named when they have a name", async () => {
    const asked: unknown[] = [];
    const client = {
      listUsers: async (p: { after?: string }) => {
        asked.push(p);
        return p.after
          ? { items: [{ userName: 'last@x.example' }] }
          : {
              items: [
                {
                  userName: 'u1',
                  emails: [{ value: 'other@x.example' }, { value: 'ana@x.example', primary: true }],
                  name: { givenName: 'Ana', familyName: 'Lima' },
                },
                { userName: 'bo@x.example', emails: [{ value: 'bo@x.example' }], name: { givenName: 'Bo' } },
                { emails: [] },
              ],
              pageInfo: { hasNextPage: true, endCursor: 'u2' },
            };
      },
    };
    const one = await src.userChoices(client as never);
    assert.deepEqual(
      one.choices.map((c) => [c.label, c.description, c.value]),
      [
        ['ana@x.example', 'Ana Lima', { email: 'ana@x.example', name: 'Ana Lima' }],
        ['bo@x.example', 'Bo', { email: 'bo@x.example', name: 'Bo' }],
      ],
    );
    const two = await one.more!();
    assert.deepEqual(
      two.choices.map((c) => [c.label, c.description, c.value]),
      [['last@x.example', undefined, { email: 'last@x.example' }]],
    );
    assert.equal(two.more, undefined);
    assert.deepEqual(asked, [{ first: 50 }, { first: 50, after: 'u2' }]);
  });

  it('timezones: the current one, the user’s own, UTC, then the rest, each with its offset once', () => {
    const own = Intl.DateTimeFormat().resolvedOptions().timeZone || 'UTC';
    const zones = src.timezoneChoices('Asia/Tokyo');
    assert.deepEqual(
      zones.slice(0, 2).map((z) => z.label),
      ['Asia/Tokyo', own],
    );
    assert.equal(zones[0]!.description, 'GMT+9 · current');
    assert.match(zones[1]!.description!, / · your timezone$/);
    assert.equal(new Set(zones.map((z) => z.label)).size, zones.length, 'each zone once');
    assert.ok(zones.length > 300, 'every zone the runtime knows');
    const utcAt = zones.findIndex((z) => z.label === 'UTC');
    assert.ok(utcAt <= 2, `UTC right after the user's own (at ${utcAt})`);
    const berlin = zones.find((z) => z.label === 'Europe/Berlin');
    assert.match(berlin?.description ?? '', /^GMT\+[12]$/);
    assert.equal(zones.at(-1)!.value, zones.at(-1)!.label);
    assert.equal(src.timezoneChoices()[0]!.label, own);
  });
});
