// The workspace's writes from the tree and the palette (create a folder, rename, move, delete), in
// plain Node with a stand-in for `vscode` and a client that records each call: the exact request,
// what the user is asked and told, that a declined or refused flow sends nothing, and which lists
// are fetched again after a write.
import assert from 'node:assert/strict';
import { UserCancelled } from '../../../src/log';
import type * as PrompterModule from '../../../src/ui/prompter';
import type * as WorkspaceActionsModule from '../../../src/workspace/workspaceActions';
import {
  deploymentRow,
  failure,
  fakeHost,
  recordingClient,
  scripted,
  TestNode,
  useFeatureStandIn,
} from '../featureHarness';

const dep5 = deploymentRow(5);
const sales = new TestNode('folder', { id: 11, name: 'Sales', type: 'FOLDER' }, dep5);
const revenue = new TestNode('report', { id: 21, name: 'Revenue', folderId: 11 }, sales);
const board = new TestNode('workbook', { id: 31, name: 'Board' }, dep5);
const notification = new TestNode('notification', { id: 41 }, dep5);
const elsewhere = new TestNode('report', { id: 22, name: 'Other' }, deploymentRow(6));

/** Sales (11) with EMEA (12) below it, Salesforce (14) beside it: a name prefix is not a parent. */
const FOLDERS: Record<string, { id: number; name: string; parentId: number | null }[]> = {
  root: [
    { id: 11, name: 'Sales', parentId: null },
    { id: 14, name: 'Salesforce', parentId: null },
  ],
  11: [{ id: 12, name: 'EMEA', parentId: 11 }],
  12: [],
  14: [],
};
const listFolders = async (_d: number, o: { parentId?: number }) => ({
  items: FOLDERS[o.parentId === undefined ? 'root' : String(o.parentId)] ?? [],
  pageInfo: { hasNextPage: false },
});

const bothNodes = [revenue, board];
const ALL_LISTS = ['5:workspace', '5:sharedWorkspace', '5:folders', '5:reports', '5:workbooks'];

describe('workspace: folders, renames, moves and deletes send exactly what the user chose', () => {
  const s = useFeatureStandIn();
  let WorkspaceActions: typeof WorkspaceActionsModule.WorkspaceActions;
  let ScriptedPrompter: typeof PrompterModule.ScriptedPrompter;

  before(() => {
    ({ WorkspaceActions } = s.load<typeof WorkspaceActionsModule>('../../src/workspace/workspaceActions'));
    ({ ScriptedPrompter } = s.load<typeof PrompterModule>('../../src/ui/prompter'));
  });

  interface Setup {
    handlers?: Record<string, (...a: never[]) => unknown>;
    answers?: (string | undefined)[];
    confirms?: boolean[];
    production?: boolean;
    selection?: TestNode[];
  }

  function setup(o: Setup = {}) {
    const rec = recordingClient({
      createFolder: async (_d: number, body: { name: string }) => ({ id: 99, ...body }),
      renameFolder: async () => ({}),
      updateReport: async () => ({}),
      updateWorkbook: async () => ({}),
      moveWorkspaceItem: async () => ({}),
      bulkMoveWorkspaceItems: async () => ({ failed: [] }),
      bulkDeleteWorkspaceItems: async () => ({ failed: [] }),
      listFolders,
      listDeployments: async () => ({ items: [{ id: 5, name: 'Prod' }] }),
      ...o.handlers,
    });
    const prompter = scripted(ScriptedPrompter, o.answers ?? [], o.confirms ?? []);
    const host = fakeHost(s.load, {
      client: rec.client,
      prompter,
      production: o.production ?? false,
      deployments: [5, 6],
      ...(o.selection ? { selection: o.selection } : {}),
    });
    return { ws: new WorkspaceActions(host.ctx), rec, prompter, host };
  }

  describe('Create Folder', () => {
    const cases: {
      name: string;
      arg: unknown;
      answers?: string[];
      body: Record<string, unknown>;
      asked: { prompt?: string }[];
    }[] = [
      {
        name: 'on a folder: inside it, the name trimmed',
        arg: sales,
        answers: ['  Q3 plan '],
        body: { name: 'Q3 plan', parentId: 11 },
        asked: [{ prompt: 'A folder in "Sales".' }],
      },
      {
        name: 'on the deployment row: at the root (no parentId sent)',
        arg: dep5,
        answers: ['Top'],
        body: { name: 'Top' },
        asked: [{ prompt: 'A folder at the workspace root.' }],
      },
      {
        name: 'arguments with a parent: asks nothing',
        arg: { deploymentId: 5, name: 'Given', parentId: 3 },
        body: { name: 'Given', parentId: 3 },
        asked: [],
      },
      {
        name: 'arguments with parentId null: at the root',
        arg: { deploymentId: 5, name: 'Root', parentId: null },
        body: { name: 'Root' },
        asked: [],
      },
    ];
    for (const c of cases)
      it(c.name, async () => {
        const { ws, rec, prompter, host } = setup({ answers: c.answers ?? [] });
        const made = await ws.createFolder(c.arg);
        assert.deepEqual(rec.writes(), [['createFolder', 5, c.body]]);
        assert.deepEqual(
          prompter.inputs.map((q) => ({ prompt: q.prompt })),
          c.asked,
        );
        assert.deepEqual(made, { id: 99, ...c.body });
        // Only deployment 5's workspace lists are fetched again.
        assert.deepEqual(host.refreshedLists(), ALL_LISTS);
      });

    it('from the palette: the folder is picked from every level, by path', async () => {
      const { ws, rec, prompter } = setup({ answers: ['Sales / EMEA'] });
      await ws.createFolder({ deploymentId: 5, name: 'Q4' });
      assert.deepEqual(prompter.offered.get('Create the folder in'), [
        'Workspace root',
        'Sales',
        'Salesforce',
        'Sales / EMEA',
      ]);
      assert.deepEqual(rec.writes(), [['createFolder', 5, { name: 'Q4', parentId: 12 }]]);
      const root = setup({ answers: ['Workspace root'] });
      await root.ws.createFolder({ deploymentId: 5, name: 'Q4' });
      assert.deepEqual(root.rec.writes(), [['createFolder', 5, { name: 'Q4' }]]);
    });

    it('refuses an empty or over-long name where it is typed', async () => {
      const long = 'x'.repeat(255);
      const { ws, rec, prompter } = setup({ answers: ['   ', `${long}y`, long] });
      await ws.createFolder(sales);
      assert.deepEqual(prompter.refusals, ['Enter a name.', 'At most 255 characters.']);
      assert.deepEqual(rec.writes(), [['createFolder', 5, { name: long, parentId: 11 }]]);
    });

    it('on a production profile asks first; declined, nothing is sent', async () => {
      const declined = setup({ answers: ['Q3'], production: true, confirms: [false] });
      const e = await failure(declined.ws.createFolder(sales));
      assert.ok(e instanceof UserCancelled, String(e));
      assert.deepEqual(declined.rec.writes(), []);
      assert.deepEqual(declined.host.refreshed, []);
      assert.deepEqual(declined.prompter.confirmations, [
        {
          message: 'Create the folder "Q3" on the production profile "Live"?',
          detail: 'This profile is marked as production: the change applies to live data.',
          action: 'Continue',
        },
      ]);
      const ok = setup({ answers: ['Q3'], production: true });
      await ok.ws.createFolder(sales);
      assert.deepEqual(ok.rec.writes(), [['createFolder', 5, { name: 'Q3', parentId: 11 }]]);
    });

    it('folders are read a page at a time, each level below its parent, roots only at the top', async () => {
      const pages: Record<string, unknown> = {
        'root:': {
          items: [
            { id: 11, name: 'Sales', parentId: null },
            { id: 12, name: 'EMEA', parentId: 11 },
          ],
          pageInfo: { hasNextPage: true, endCursor: 'c1' },
        },
        'root:c1': { items: [{ id: 14, name: 'Salesforce' }], pageInfo: { hasNextPage: false } },
        '11:': { items: [{ id: 12, name: 'EMEA', parentId: 11 }], pageInfo: null },
        '12:': { items: [] },
        '14:': { items: [], pageInfo: { hasNextPage: true, endCursor: null } },
      };
      const { ws, rec } = setup({
        handlers: {
          listFolders: async (_d: number, o: { parentId?: number; after?: string }) =>
            pages[`${o.parentId ?? 'root'}:${o.after ?? ''}`],
        },
      });
      assert.deepEqual(await ws.allFolders(5), [
        { id: 11, path: 'Sales' },
        { id: 14, path: 'Salesforce' },
        { id: 12, path: 'Sales / EMEA' },
      ]);
      assert.deepEqual(
        rec.calls.map((c) => c.args),
        [
          [5, { first: 200 }],
          [5, { first: 200, after: 'c1' }],
          [5, { first: 200, parentId: 11 }],
          [5, { first: 200, parentId: 14 }],
          [5, { first: 200, parentId: 12 }],
        ],
      );
    });
    it('a deployment whose lists are not shown: the write is sent, nothing to refresh', async () => {
      const { ws, rec, host } = setup();
      await ws.createFolder({ deploymentId: 7, name: 'Elsewhere', parentId: null });
      assert.deepEqual(rec.writes(), [['createFolder', 7, { name: 'Elsewhere' }]]);
      assert.deepEqual(host.refreshed, []);
    });

    it('the folder picker stops reading levels once it holds 500 folders', async () => {
      const many = Array.from({ length: 500 }, (_, i) => ({ id: i + 1, name: `F${i + 1}`, parentId: null }));
      const { ws, rec } = setup({
        handlers: { listFolders: async () => ({ items: many, pageInfo: { hasNextPage: false } }) },
      });
      assert.equal((await ws.allFolders(5)).length, 500);
      assert.equal(rec.calls.length, 1, 'no level below the roots is read');
      const fewer = setup({
        handlers: {
          listFolders: async (_d: number, o: { parentId?: number }) => ({
            items:
              o.parentId === undefined
                ? many.slice(0, 499)
                : o.parentId === 1
                  ? [{ id: 1000, name: 'Sub', parentId: 1 }]
                  : [],
          }),
        },
      });
      await fewer.ws.allFolders(5);
      // 499 roots, then F1's level (one folder: 500 now), then no more.
      assert.equal(fewer.rec.calls.length, 2);
    });
  });

  describe('Rename', () => {
    const cases = [
      { node: sales, call: ['renameFolder', 5, 11, { name: 'Sales EU' }], title: 'Rename folder "Sales"' },
      {
        node: revenue,
        call: ['updateReport', 5, 21, { name: 'Sales EU' }],
        title: 'Rename report "Revenue"',
      },
      {
        node: board,
        call: ['updateWorkbook', 5, 31, { name: 'Sales EU' }],
        title: 'Rename workbook "Board"',
      },
    ];
    for (const c of cases)
      it(`a ${c.node.kind}: ${c.call[0]}, the name trimmed, the current name filled in`, async () => {
        const { ws, rec, prompter, host } = setup({ answers: [' Sales EU '], production: true });
        assert.equal(await ws.rename(c.node, [c.node]), 'Sales EU');
        assert.deepEqual(rec.writes(), [c.call]);
        assert.deepEqual(prompter.inputs, [
          { title: c.title, prompt: 'The new name.', value: String(c.node.data?.['name']) },
        ]);
        assert.equal(
          prompter.confirmations[0]?.message,
          `${c.title} to "Sales EU" on the production profile "Live"?`,
        );
        assert.deepEqual(host.refreshedLists(), ALL_LISTS);
      });

    it('a name in the arguments is used as given', async () => {
      const { ws, rec, prompter } = setup();
      await ws.rename({ deploymentId: 5, items: [{ type: 'REPORT', id: 21 }], name: 'New' });
      assert.deepEqual(rec.writes(), [['updateReport', 5, 21, { name: 'New' }]]);
      assert.deepEqual(prompter.inputs, []);
    });

    it('refuses, before sending anything, what it cannot rename', async () => {
      const refusals: [string, () => Promise<unknown>, string][] = [];
      const { ws, rec } = setup({ answers: ['x', 'x', 'x'] });
      refusals.push(
        ['two items', () => ws.rename(revenue, bothNodes), 'Rename one item at a time.'],
        [
          'a notification',
          () => ws.rename(notification, [notification]),
          'Only folders, reports and workbooks of the workspace can be renamed.',
        ],
        [
          'items of two deployments',
          () => ws.move(revenue, [revenue, elsewhere]),
          'Select items of one deployment to move them together.',
        ],
        [
          'a deletion across deployments',
          () => ws.delete(revenue, [revenue, elsewhere]),
          'Select items of one deployment to delete them together.',
        ],
      );
      for (const [what, run, message] of refusals)
        assert.equal((await failure(run()))?.message, message, what);
      assert.equal(refusals.length, 4);
      assert.deepEqual(rec.writes(), []);
    });

    it('the clicked row alone when it is not part of the selection', async () => {
      const { ws, rec } = setup({ answers: ['B2'] });
      await ws.rename(board, [revenue]);
      assert.deepEqual(rec.writes(), [['updateWorkbook', 5, 31, { name: 'B2' }]]);
    });
  });

  describe('Move', () => {
    it('one item dropped on a folder: one move request, and the user is told where', async () => {
      const { ws, rec, host } = setup();
      const r = await ws.move({ nodes: [revenue], target: sales });
      assert.deepEqual(rec.writes(), [['moveWorkspaceItem', 5, { type: 'REPORT', id: 21, folderId: 11 }]]);
      assert.deepEqual(s.sink.info, ['Moved report "Revenue" to "Sales".']);
      assert.deepEqual(r, { moved: 1, folderId: 11 });
      assert.deepEqual(host.refreshedLists(), ALL_LISTS);
    });

    it('dropped on anything but a folder: to the root', async () => {
      const { ws, rec } = setup();
      await ws.move({ nodes: [board], target: dep5 });
      assert.deepEqual(rec.writes(), [
        ['moveWorkspaceItem', 5, { type: 'WORKBOOK', id: 31, folderId: null }],
      ]);
      assert.deepEqual(s.sink.info, ['Moved workbook "Board" to the workspace root.']);
    });

    it('several items: one bulk request with every item and the folder', async () => {
      const { ws, rec } = setup();
      await ws.move({ nodes: bothNodes, folderId: null });
      assert.deepEqual(rec.writes(), [
        [
          'bulkMoveWorkspaceItems',
          5,
          {
            items: [
              { type: 'REPORT', id: 21 },
              { type: 'WORKBOOK', id: 31 },
            ],
            folderId: null,
          },
        ],
      ]);
      assert.deepEqual(s.sink.info, ['Moved 2 items to the workspace root.']);
    });

    it('a folder id in the arguments: "the folder given"', async () => {
      const { ws, rec } = setup();
      await ws.move({ deploymentId: 5, items: [{ type: 'REPORT', id: 21, name: 'Revenue' }], folderId: 12 });
      assert.deepEqual(rec.writes(), [['moveWorkspaceItem', 5, { type: 'REPORT', id: 21, folderId: 12 }]]);
      assert.deepEqual(s.sink.info, ['Moved report "Revenue" to the folder given.']);
    });

    it('picking where: a folder is not offered as its own destination nor below itself', async () => {
      const { ws, rec, prompter } = setup({ answers: ['Salesforce'] });
      await ws.move(sales, [sales]);
      assert.deepEqual(prompter.offered.get('Move "Sales" to'), ['Workspace root', 'Salesforce']);
      assert.deepEqual(rec.writes(), [['moveWorkspaceItem', 5, { type: 'FOLDER', id: 11, folderId: 14 }]]);
      assert.deepEqual(s.sink.info, ['Moved folder "Sales" to "Salesforce".']);
      const two = setup({ answers: ['Sales / EMEA'] });
      await two.ws.move(revenue, bothNodes);
      assert.deepEqual(two.prompter.offered.get('Move 2 items to'), [
        'Workspace root',
        'Sales',
        'Salesforce',
        'Sales / EMEA',
      ]);
    });

    it('more than 100 items go in requests of 100', async () => {
      const { ws, rec } = setup();
      const items = Array.from({ length: 101 }, (_, i) => ({ type: 'REPORT', id: i + 1 }));
      await ws.move({ deploymentId: 5, items, folderId: 3 });
      assert.deepEqual(
        rec.writes().map((w) => [w[0], (w[2] as { items: unknown[] }).items.length]),
        [
          ['bulkMoveWorkspaceItems', 100],
          ['bulkMoveWorkspaceItems', 1],
        ],
      );
      assert.deepEqual((rec.writes()[1]![2] as { items: unknown[] }).items, [{ type: 'REPORT', id: 101 }]);
    });

    it('what the server did not move is named, with its reason, and the lists are fetched again', async () => {
      const { ws, host } = setup({
        handlers: {
          bulkMoveWorkspaceItems: async () => ({
            failed: [
              { type: 'WORKBOOK', id: 31, error: { message: 'locked' } },
              { type: 'REPORT', id: 99, error: null },
            ],
          }),
        },
      });
      const e = await failure(ws.move({ nodes: bothNodes, folderId: 11 }));
      assert.equal(e?.message, 'Moved 0 of 2; not moved: Board (locked); REPORT #99 (no reason given)');
      assert.deepEqual(s.sink.info, []);
      assert.deepEqual(host.refreshedLists(), ALL_LISTS);
    });

    it('declined on a production profile: nothing moves', async () => {
      const { ws, rec, prompter } = setup({ production: true, confirms: [false] });
      assert.ok((await failure(ws.move({ nodes: bothNodes, folderId: null }))) instanceof UserCancelled);
      assert.deepEqual(rec.writes(), []);
      assert.equal(
        prompter.confirmations[0]?.message,
        'Move 2 items to the workspace root on the production profile "Live"?',
      );
    });
  });

  describe('Delete', () => {
    it('one modal question naming every item; confirmed: one bulk request', async () => {
      const { ws, rec, prompter, host } = setup();
      assert.deepEqual(await ws.delete(revenue, bothNodes), { deleted: 2 });
      assert.deepEqual(prompter.confirmations, [
        {
          message: 'Delete 2 items?',
          detail:
            '• Revenue (report)\n• Board (workbook)\n\nThis cannot be undone. A deleted folder’s reports and workbooks move to the workspace root; a folder with subfolders is not deleted.',
          action: 'Delete',
        },
      ]);
      assert.deepEqual(rec.writes(), [
        [
          'bulkDeleteWorkspaceItems',
          5,
          {
            items: [
              { type: 'REPORT', id: 21 },
              { type: 'WORKBOOK', id: 31 },
            ],
          },
        ],
      ]);
      assert.deepEqual(s.sink.info, ['Deleted 2 items.']);
      assert.deepEqual(host.refreshedLists(), ALL_LISTS);
    });

    it('one item is named in the question and the message', async () => {
      const { ws, prompter } = setup();
      await ws.delete(sales, [sales]);
      assert.equal(prompter.confirmations[0]?.message, 'Delete folder "Sales"?');
      assert.deepEqual(s.sink.info, ['Deleted folder "Sales".']);
    });

    it('declined: nothing is sent and nothing refreshed', async () => {
      const { ws, rec, host } = setup({ confirms: [false] });
      assert.ok((await failure(ws.delete(revenue, bothNodes))) instanceof UserCancelled);
      assert.deepEqual(rec.writes(), []);
      assert.deepEqual(host.refreshed, []);
      const prod = setup({ production: true, confirms: [true, false] });
      assert.ok((await failure(prod.ws.delete(revenue, bothNodes))) instanceof UserCancelled);
      assert.deepEqual(prod.rec.writes(), []);
      assert.equal(
        prod.prompter.confirmations[1]?.message,
        'Delete 2 items on the production profile "Live"?',
      );
    });

    it('lists twelve and counts the rest; sends requests of 100', async () => {
      const { ws, rec, prompter } = setup();
      const items = Array.from({ length: 201 }, (_, i) => ({
        type: 'WORKBOOK',
        id: i + 1,
        name: `W${i + 1}`,
      }));
      await ws.delete({ deploymentId: 5, items });
      const lines = prompter.confirmations[0]!.detail.split('\n');
      assert.deepEqual(lines.slice(0, 13), [
        ...Array.from({ length: 12 }, (_, i) => `• W${i + 1} (workbook)`),
        '… and 189 more',
      ]);
      assert.equal(lines[13], '');
      assert.deepEqual(
        rec.writes().map((w) => (w[2] as { items: unknown[] }).items.length),
        [100, 100, 1],
      );
      const twelve = setup();
      await twelve.ws.delete({ deploymentId: 5, items: items.slice(0, 12) });
      assert.ok(!twelve.prompter.confirmations[0]!.detail.includes('more'));
    });

    it('what was not deleted is named with its reason', async () => {
      const { ws } = setup({
        handlers: {
          bulkDeleteWorkspaceItems: async () => ({
            failed: [{ type: 'REPORT', id: 21, error: { message: 'in use\u0007 by a dashboard' } }],
          }),
        },
      });
      const e = await failure(ws.delete(revenue, bothNodes));
      assert.equal(e?.message, 'Deleted 1 of 2; not deleted: Revenue (in use by a dashboard)');
      assert.deepEqual(s.sink.info, []);
    });
  });

  describe('from the palette', () => {
    const workspaceItems = {
      items: [
        { type: 'FOLDER', id: 11, name: 'Sales' },
        { type: 'REPORT', id: 21, name: 'Revenue' },
        { type: 'WORKBOOK', id: 31, name: 'Board' },
        { type: 'DASHBOARD', id: 51, name: 'Not an item' },
      ],
    };

    it('with nothing selected, the item is picked from the workspace (items only)', async () => {
      const { ws, rec, prompter } = setup({
        handlers: { listWorkspace: async () => workspaceItems },
        answers: ['Board'],
      });
      await ws.delete();
      assert.deepEqual(prompter.rows.get('Workspace items to be deleted'), [
        { label: 'Sales', description: 'folder', detail: undefined },
        { label: 'Revenue', description: 'report', detail: undefined },
        { label: 'Board', description: 'workbook', detail: undefined },
      ]);
      assert.deepEqual(rec.calls[1], { name: 'listWorkspace', args: [5, { first: 200, search: '' }] });
      assert.deepEqual(rec.writes(), [
        ['bulkDeleteWorkspaceItems', 5, { items: [{ type: 'WORKBOOK', id: 31 }] }],
      ]);
    });

    it('the explorer’s selection is used when it holds workspace items only', async () => {
      const { ws, rec } = setup({ selection: bothNodes });
      await ws.delete();
      assert.deepEqual(rec.writes(), [
        [
          'bulkDeleteWorkspaceItems',
          5,
          {
            items: [
              { type: 'REPORT', id: 21 },
              { type: 'WORKBOOK', id: 31 },
            ],
          },
        ],
      ]);
      const mixed = setup({
        selection: [revenue, notification],
        handlers: { listWorkspace: async () => workspaceItems },
        answers: ['Sales'],
      });
      await mixed.ws.delete();
      assert.deepEqual(mixed.rec.writes(), [
        ['bulkDeleteWorkspaceItems', 5, { items: [{ type: 'FOLDER', id: 11 }] }],
      ]);
    });

    it('a row whose id is not a number is not a workspace item', async () => {
      const odd = new TestNode('report', { id: 'abc', name: 'Odd' }, dep5);
      const { ws, rec } = setup();
      const e = await failure(ws.delete(odd, [odd]));
      assert.equal(e?.message, 'Only folders, reports and workbooks of the workspace can be deleted.');
      assert.deepEqual(rec.writes(), []);
    });
  });
  describe('the rules a survivor showed were untested', () => {
    it('Rename refuses an empty or over-long name where it is typed', async () => {
      const { ws, rec, prompter } = setup({ answers: [' ', 'x'.repeat(256), 'x'.repeat(255)] });
      await ws.rename(board, [board]);
      assert.deepEqual(prompter.refusals, ['Enter a name.', 'At most 255 characters.']);
      assert.deepEqual(rec.writes(), [['updateWorkbook', 5, 31, { name: 'x'.repeat(255) }]]);
    });

    it('exactly 200 items: two requests of 100, no empty third', async () => {
      const items = Array.from({ length: 200 }, (_, i) => ({ type: 'REPORT', id: i + 1 }));
      const del = setup();
      await del.ws.delete({ deploymentId: 5, items });
      const move = setup();
      await move.ws.move({ deploymentId: 5, items, folderId: null });
      for (const r of [del.rec, move.rec])
        assert.deepEqual(
          r.writes().map((w) => (w[2] as { items: unknown[] }).items.length),
          [100, 100],
        );
    });

    it('only folders are kept out of the destinations (a report’s id is no folder’s)', async () => {
      const r14 = new TestNode('report', { id: 14, name: 'R14' }, dep5);
      const { ws, prompter } = setup({ answers: ['Workspace root'] });
      await ws.move(sales, [sales, r14]);
      assert.deepEqual(prompter.rows.get('Move 2 items to'), [
        { label: 'Workspace root', description: undefined, detail: undefined },
        { label: 'Salesforce', description: 'folder', detail: undefined },
      ]);
      assert.deepEqual(s.sink.progress, [{ location: { viewId: 'dashboardPlatform.explorer' } }]);
    });

    it('moving a folder keeps out that folder and what is below it, no other', async () => {
      const salesforce = new TestNode('folder', { id: 14, name: 'Salesforce' }, dep5);
      const { ws, prompter } = setup({ answers: ['Sales / EMEA'] });
      await ws.move(salesforce, [salesforce]);
      assert.deepEqual(prompter.offered.get('Move "Salesforce" to'), [
        'Workspace root',
        'Sales',
        'Sales / EMEA',
      ]);
    });

    it('a failure is named by its own item when a report and a workbook share an id', async () => {
      const r31 = new TestNode('report', { id: 31, name: 'R31' }, dep5);
      const { ws } = setup({
        handlers: {
          bulkDeleteWorkspaceItems: async () => ({
            failed: [{ type: 'WORKBOOK', id: 31, error: { message: 'locked' } }],
          }),
        },
      });
      const e = await failure(ws.delete(r31, [r31, board]));
      assert.equal(e?.message, 'Deleted 1 of 2; not deleted: Board (locked)');
    });

    it('"Workspace root" picked: folderId null is sent, and said', async () => {
      const { ws, rec } = setup({ answers: ['Workspace root'] });
      await ws.move(revenue, [revenue]);
      assert.deepEqual(rec.writes(), [['moveWorkspaceItem', 5, { type: 'REPORT', id: 21, folderId: null }]]);
      assert.deepEqual(s.sink.info, ['Moved report "Revenue" to the workspace root.']);
    });

    it('arguments win over the selection; an item without a name is named by its id', async () => {
      const { ws, rec } = setup({ selection: bothNodes });
      await ws.move({ deploymentId: 5, items: [{ type: 'REPORT', id: 21 }], folderId: 12 });
      assert.deepEqual(rec.writes(), [['moveWorkspaceItem', 5, { type: 'REPORT', id: 21, folderId: 12 }]]);
      assert.deepEqual(s.sink.info, ['Moved report "#21" to the folder given.']);
    });

    it('what is not a row in the multi-selection is left out; a row that is no item is refused', async () => {
      const { ws, prompter, rec } = setup();
      await ws.delete(revenue, [revenue, 'junk', { id: 1 }]);
      assert.equal(prompter.confirmations[0]?.message, 'Delete report "Revenue"?');
      const e = await failure(ws.move({ nodes: [revenue, notification], folderId: null }));
      assert.equal(e?.message, 'Only folders, reports and workbooks of the workspace can be moved.');
      const mixed = await failure(ws.delete(notification, [revenue, notification]));
      assert.equal(mixed?.message, 'Only folders, reports and workbooks of the workspace can be deleted.');
      assert.deepEqual(rec.writes().length, 1);
    });
  });
});
