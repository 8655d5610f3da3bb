// Reports and workbooks from the tree and the palette (save SQL, create, refresh, connect and
// disconnect a spreadsheet, Open in Notebook, workbooks created, re-slugged with a takeover asked in
// a modal, upserted, duplicated, their embed access changed), and the report documents' file
// systems: the exact call each sends, what the user is asked and told, and that a refused or
// declined flow sends nothing. Plain Node, a stand-in for `vscode`, a recording client.
import assert from 'node:assert/strict';
import { ApiError } from '../../../src/api/errors';
import { UserCancelled } from '../../../src/log';
import type * as PrompterModule from '../../../src/ui/prompter';
import type * as ItemActionsModule from '../../../src/workspace/itemActions';
import type * as ReportDocumentsModule from '../../../src/workspace/reportDocuments';
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
const board = new TestNode('workbook', { id: 31, name: 'Board', slug: 'board-old' }, dep5);
const ALL_LISTS = ['5:workspace', '5:sharedWorkspace', '5:folders', '5:reports', '5:workbooks'];
const SQL_LANGUAGE = 'dashboard-platform-sql';

describe('workspace: reports and workbooks send exactly what the user chose', () => {
  const s = useFeatureStandIn();
  let ItemActions: typeof ItemActionsModule.ItemActions;
  let WorkspaceActions: typeof WorkspaceActionsModule.WorkspaceActions;
  let Docs: typeof ReportDocumentsModule;
  let ScriptedPrompter: typeof PrompterModule.ScriptedPrompter;
  let Uri: { from(c: { scheme: string; path: string; query?: string }): { toString(): string } };

  before(() => {
    ({ ItemActions } = s.load<typeof ItemActionsModule>('../../src/workspace/itemActions'));
    ({ WorkspaceActions } = s.load<typeof WorkspaceActionsModule>('../../src/workspace/workspaceActions'));
    Docs = s.load<typeof ReportDocumentsModule>('../../src/workspace/reportDocuments');
    ({ ScriptedPrompter } = s.load<typeof PrompterModule>('../../src/ui/prompter'));
    // eslint-disable-next-line @typescript-eslint/no-require-imports
    Uri = (require('vscode') as { Uri: typeof Uri }).Uri;
  });

  interface Setup {
    handlers?: Record<string, (...a: never[]) => unknown>;
    answers?: (string | undefined)[];
    confirms?: boolean[];
    production?: boolean;
  }

  function setup(o: Setup = {}) {
    const rec = recordingClient({
      updateReport: async (_d: number, id: number, body: object) => ({ id, ...body }),
      createReport: async (_d: number, body: object) => ({ id: 77, ...body }),
      refreshReport: async () => ({ refreshed: true }),
      disconnectReportFromWorkbook: async () => ({ ok: true }),
      connectReportToWorkbook: async () => ({ ok: true }),
      createWorkbook: async (_d: number, body: object) => ({ id: 78, ...body }),
      updateWorkbook: async () => ({}),
      upsertWorkbookBySlug: async () => ({ id: 31 }),
      duplicateWorkbook: async () => ({ id: 79, name: 'Board (copy)' }),
      getReport: async (_d: number, id: number) => ({ id, name: 'Revenue', sqlQuery: 'SELECT 1' }),
      listDeployments: async () => ({ items: [{ id: 5, name: 'Prod' }] }),
      ...o.handlers,
    });
    const prompter = scripted(ScriptedPrompter, o.answers ?? [], o.confirms ?? []);
    const host = fakeHost(s.load, {
      client: rec.client,
      prompter,
      production: o.production ?? false,
      deployments: [5, 6],
    });
    const reports = new Docs.ReportDocuments();
    const workspace = new WorkspaceActions(host.ctx);
    const items = new ItemActions(host.ctx, reports, workspace);
    reports.useSource(async () => items.reportSource());
    return { items, reports, rec, prompter, host };
  }

  const editor = (
    text: string,
    languageId = 'sql',
    uri: unknown = Uri.from({ scheme: 'file', path: '/q.sql' }),
  ) => ({
    document: { uri, languageId, getText: () => text, isDirty: true, save: async () => true },
  });

  describe('Save SQL to Report', () => {
    it('the SQL given goes to the report given, and the user is told', async () => {
      const { items, rec, host } = setup();
      await items.saveReportSql({ deploymentId: 5, reportId: 21, sql: 'SELECT 2' });
      assert.deepEqual(rec.writes(), [['updateReport', 5, 21, { sqlQuery: 'SELECT 2' }]]);
      assert.deepEqual(s.sink.info, ['Saved the SQL of "#21".']);
      assert.deepEqual(host.refreshedLists(), ALL_LISTS);
    });

    it('on a report row: the active editor’s text, even when the editor is a report draft', async () => {
      const { items, rec } = setup();
      s.sink.activeTextEditor = editor('SELECT 3');
      await items.saveReportSql(revenue);
      const draft = Uri.from({
        scheme: Docs.REPORT_DRAFT_SCHEME,
        path: '/X.sql',
        query: 'deployment=5&report=22',
      });
      s.sink.activeTextEditor = editor('SELECT 4', 'sql', draft);
      await items.saveReportSql(revenue);
      assert.deepEqual(rec.writes(), [
        ['updateReport', 5, 21, { sqlQuery: 'SELECT 3' }],
        ['updateReport', 5, 21, { sqlQuery: 'SELECT 4' }],
      ]);
      assert.deepEqual(s.sink.info, ['Saved the SQL of "Revenue".', 'Saved the SQL of "Revenue".']);
    });

    it('empty SQL is refused before any question or request', async () => {
      const { items, rec, prompter } = setup({ production: true });
      s.sink.activeTextEditor = editor('  \n ');
      const e = await failure(items.saveReportSql(revenue));
      assert.equal(e?.message, 'A report needs SQL: the text to save is empty.');
      assert.deepEqual(rec.writes(), []);
      assert.deepEqual(prompter.confirmations, []);
    });

    it('declined on a production profile: the SQL is not sent', async () => {
      const { items, rec, prompter } = setup({ production: true, confirms: [false] });
      const e = await failure(items.saveReportSql({ deploymentId: 5, reportId: 21, sql: 'SELECT 2' }));
      assert.ok(e instanceof UserCancelled);
      assert.deepEqual(rec.writes(), []);
      assert.equal(
        prompter.confirmations[0]?.message,
        'Save the SQL of report "#21" on the production profile "Live"?',
      );
    });

    it('a report draft is saved through its file (the save is the write); unchanged, nothing is sent', async () => {
      const uri = Uri.from({
        scheme: Docs.REPORT_DRAFT_SCHEME,
        path: '/Revenue.sql',
        query: 'deployment=5&report=21',
      });
      const saved: string[] = [];
      const doc = (isDirty: boolean, ok: boolean) => ({
        uri,
        isDirty,
        save: async () => (saved.push(String(isDirty)), ok),
      });
      const { items, rec } = setup();
      s.sink.activeTextEditor = { document: doc(false, true) };
      assert.equal(await items.saveReportSql(), undefined);
      assert.deepEqual(s.sink.info, ['The report already has this SQL: nothing to save.']);
      s.sink.activeTextEditor = { document: doc(true, true) };
      assert.equal(await items.saveReportSql(), undefined);
      s.sink.activeTextEditor = undefined;
      const other = {
        uri: Uri.from({ scheme: 'file', path: '/other.sql' }),
        isDirty: true,
        save: async () => true,
      };
      s.sink.textDocuments = [other, doc(true, false)];
      assert.equal(
        (await failure(items.saveReportSql(uri)))?.message,
        'The SQL was not saved to the report.',
      );
      assert.deepEqual(saved, ['true', 'true']);
      assert.deepEqual(rec.writes(), []);
    });
  });

  describe('Create Report', () => {
    it('in a folder: the name trimmed, the SQL editor’s text filled in, the folder sent', async () => {
      const { items, rec, prompter, host } = setup({ answers: ['  Q3 ', 'SELECT 9'] });
      s.sink.activeTextEditor = editor('SELECT * FROM t', 'sql');
      await items.createReport(sales);
      assert.deepEqual(rec.writes(), [
        ['createReport', 5, { name: 'Q3', sqlQuery: 'SELECT 9', folderId: 11 }],
      ]);
      assert.deepEqual(prompter.inputs, [
        { title: 'New Report (1/2)', prompt: 'A report in "Sales".' },
        {
          title: 'New Report (2/2)',
          prompt: 'The SQL query (the active SQL editor’s text is filled in).',
          value: 'SELECT * FROM t',
        },
      ]);
      assert.deepEqual(s.sink.info, ['Created the report "Q3".']);
      assert.deepEqual(host.refreshedLists(), ALL_LISTS);
    });

    it('at the root, from an editor that is not SQL: SELECT 1 is filled in, no folder sent', async () => {
      const { items, rec, prompter } = setup({ answers: ['R', '', 'SELECT 1'] });
      s.sink.activeTextEditor = editor('# notes', 'markdown');
      await items.createReport(dep5);
      assert.deepEqual(rec.writes(), [['createReport', 5, { name: 'R', sqlQuery: 'SELECT 1' }]]);
      assert.equal(prompter.inputs[0]?.prompt, 'A report at the workspace root.');
      assert.equal(prompter.inputs[1]?.value, 'SELECT 1');
      assert.deepEqual(prompter.refusals, ['Enter the SQL query.']);
    });

    it('arguments: a folder id is sent, nothing asked; declined on production, nothing sent', async () => {
      const { items, rec } = setup();
      await items.createReport({ deploymentId: 5, name: 'A', sqlQuery: 'SELECT 2', folderId: 4 });
      assert.deepEqual(rec.writes(), [['createReport', 5, { name: 'A', sqlQuery: 'SELECT 2', folderId: 4 }]]);
      const prod = setup({ production: true, confirms: [false] });
      const e = await failure(prod.items.createReport({ deploymentId: 5, name: 'A', sqlQuery: 'SELECT 2' }));
      assert.ok(e instanceof UserCancelled);
      assert.deepEqual(prod.rec.writes(), []);
      assert.equal(
        prod.prompter.confirmations[0]?.message,
        'Create the report "A" on the production profile "Live"?',
      );
    });
  });

  it('Refresh Report: one refresh of that report, and the user is told', async () => {
    const { items, rec, host } = setup();
    assert.deepEqual(await items.refreshReport(revenue), { refreshed: true });
    assert.deepEqual(rec.writes(), [['refreshReport', 5, 21]]);
    assert.deepEqual(s.sink.info, ['Refreshed "Revenue".']);
    assert.deepEqual(host.refreshedLists(), ALL_LISTS);
  });

  describe('Disconnect Report', () => {
    const placements = [
      { id: 'p1', workbookName: 'Budget', sheetName: 'S1', resultLocation: 'A1' },
      { workbookId: 'wb2', resultLocation: 'B2' },
    ];
    const withPlacements = { getReport: async () => ({ id: 21, externalWorkbookPlacements: placements }) };

    it('a placement picked by its spreadsheet: by placement id, else by workbook and location', async () => {
      const one = setup({ handlers: withPlacements, answers: ['Budget'] });
      await one.items.disconnectReport(revenue);
      assert.deepEqual(one.prompter.rows.get('Disconnect "Revenue" from'), [
        { label: 'Budget', description: 'S1 · A1', detail: undefined },
        { label: 'wb2', description: 'B2', detail: undefined },
      ]);
      const two = setup({ handlers: withPlacements, answers: ['wb2'] });
      await two.items.disconnectReport(revenue);
      assert.deepEqual(
        [...one.rec.writes(), ...two.rec.writes()],
        [
          ['disconnectReportFromWorkbook', 5, 21, { placementId: 'p1' }],
          ['disconnectReportFromWorkbook', 5, 21, { externalWorkbookId: 'wb2', resultLocation: 'B2' }],
        ],
      );
      assert.deepEqual(two.host.refreshedLists(), ALL_LISTS);
    });

    it('arguments name the placement; no placements: says so and sends nothing', async () => {
      const { items, rec } = setup();
      await items.disconnectReport({ deploymentId: 5, reportId: 21, placementId: 'p9' });
      await items.disconnectReport({ deploymentId: 5, reportId: 21, externalWorkbookId: 'x1' });
      await items.disconnectReport({
        deploymentId: 5,
        reportId: 21,
        externalWorkbookId: 'x1',
        resultLocation: 'C3',
      });
      assert.deepEqual(rec.writes(), [
        ['disconnectReportFromWorkbook', 5, 21, { placementId: 'p9' }],
        ['disconnectReportFromWorkbook', 5, 21, { externalWorkbookId: 'x1', resultLocation: '' }],
        ['disconnectReportFromWorkbook', 5, 21, { externalWorkbookId: 'x1', resultLocation: 'C3' }],
      ]);
      const none = setup({
        handlers: { getReport: async () => ({ id: 21, externalWorkbookPlacements: 'no' }) },
      });
      assert.equal(
        (await failure(none.items.disconnectReport(revenue)))?.message,
        '"Revenue" is not connected to any workbook.',
      );
      assert.deepEqual(none.rec.writes(), []);
    });
  });

  describe('Connect Report', () => {
    it('asks the spreadsheet, the start and the optional end; sends them trimmed', async () => {
      const { items, rec, prompter, host } = setup({ answers: ['', ' sheet-1 ', ' ', 'Sheet1!B2 ', ' '] });
      await items.connectReport(revenue);
      assert.deepEqual(rec.writes(), [
        ['connectReportToWorkbook', 5, 21, { externalWorkbookId: 'sheet-1', resultLocation: 'Sheet1!B2' }],
      ]);
      assert.deepEqual(prompter.refusals, ['Enter the external workbook id.', 'Enter the result location.']);
      assert.equal(prompter.inputs[1]?.value, 'Sheet1!A1');
      assert.deepEqual(s.sink.info, ['Connected "Revenue" to sheet-1.']);
      assert.deepEqual(host.refreshedLists(), ['5:reports']);
      const end = setup({ answers: ['s', 'A1', ' D20 '] });
      await end.items.connectReport(revenue);
      assert.deepEqual(end.rec.writes(), [
        [
          'connectReportToWorkbook',
          5,
          21,
          { externalWorkbookId: 's', resultLocation: 'A1', endResultCell: 'D20' },
        ],
      ]);
    });
  });

  it('Open in Notebook: the report’s SQL as a new notebook; no SQL, no notebook', async () => {
    const { items } = setup();
    assert.equal(await items.openInNotebook(revenue), 'ran dashboardPlatform.notebook.new');
    assert.deepEqual(s.sink.commands, [
      {
        id: 'dashboardPlatform.notebook.new',
        args: [{ deploymentId: 5, title: 'Revenue', sql: 'SELECT 1' }],
      },
    ]);
    const empty = setup({ handlers: { getReport: async () => ({ id: 21, name: 'Empty', sqlQuery: ' ' }) } });
    const preview = Uri.from({
      scheme: Docs.REPORT_SCHEME,
      path: '/Empty.sql',
      query: 'deployment=5&report=21',
    });
    const e = await failure(empty.items.openInNotebook(preview));
    assert.equal(e?.message, 'The report "Empty" has no SQL query to open.');
    assert.deepEqual(
      empty.rec.calls.map((c) => [c.name, ...c.args]),
      [['getReport', 5, 21]],
    );
    assert.equal(s.sink.commands.length, 1);
  });

  describe('workbooks', () => {
    it('Create Workbook: in the folder clicked, else at the root or the folder given', async () => {
      const a = setup({ answers: ['', ' Plan '] });
      await a.items.createWorkbook(sales);
      assert.deepEqual(a.prompter.refusals, ['Enter a name.']);
      assert.equal(a.prompter.inputs[0]?.prompt, 'A workbook in "Sales".');
      const b = setup({ answers: ['Plan'] });
      await b.items.createWorkbook(dep5);
      assert.equal(b.prompter.inputs[0]?.prompt, 'A workbook at the workspace root.');
      const c = setup();
      await c.items.createWorkbook({ deploymentId: 5, name: 'Plan', folderId: 4 });
      assert.deepEqual(
        [...a.rec.writes(), ...b.rec.writes(), ...c.rec.writes()],
        [
          ['createWorkbook', 5, { name: 'Plan', folderId: 11 }],
          ['createWorkbook', 5, { name: 'Plan' }],
          ['createWorkbook', 5, { name: 'Plan', folderId: 4 }],
        ],
      );
      assert.deepEqual(a.host.refreshedLists(), ALL_LISTS);
    });

    it('Change Slug: the current slug filled in, the new one trimmed', async () => {
      const { items, rec, prompter, host } = setup({ answers: [' Board-2026 '] });
      assert.equal(await items.changeSlug(board), 'board-2026');
      assert.equal(prompter.inputs[0]?.value, 'board-old');
      assert.deepEqual(rec.writes(), [['updateWorkbook', 5, 31, { slug: 'Board-2026' }]]);
      assert.deepEqual(host.refreshedLists(), ALL_LISTS);
      const given = setup();
      await given.items.changeSlug({ deploymentId: 5, workbookId: 31, slug: 'x', slugTakeover: true });
      assert.deepEqual(given.rec.writes(), [['updateWorkbook', 5, 31, { slug: 'x', slugTakeover: true }]]);
    });

    const taken = (others: unknown) => {
      let first = true;
      return {
        updateWorkbook: async () => {
          if (first) {
            first = false;
            throw new ApiError('conflict', 'The slug is taken.', { status: 409 });
          }
          return {};
        },
        listWorkbooks: async () => {
          if (others instanceof Error) throw others;
          return { items: others };
        },
      };
    };
    const holders = [
      { id: 31, name: 'Board', slug: 'board-2026' },
      { id: 32, name: 'Old Board', slug: ' BOARD-2026' },
    ];

    it('a slug another workbook holds: the takeover is asked in a modal naming it, then sent', async () => {
      const { items, rec, prompter } = setup({ handlers: taken(holders), answers: ['board-2026'] });
      await items.changeSlug(board);
      assert.deepEqual(prompter.confirmations, [
        {
          message: 'The slug "board-2026" belongs to the workbook "Old Board". Take it over?',
          detail: '"Old Board" loses its slug, and dashboards as code that use it will point to "Board".',
          action: 'Take Over Slug',
        },
      ]);
      assert.deepEqual(rec.writes(), [
        ['updateWorkbook', 5, 31, { slug: 'board-2026' }],
        ['updateWorkbook', 5, 31, { slug: 'board-2026', slugTakeover: true }],
      ]);
      assert.deepEqual(rec.calls.find((c) => c.name === 'listWorkbooks')?.args, [5, { first: 200 }]);
    });

    it('declined, or the holder unknown: no takeover is sent without a yes', async () => {
      const declined = setup({ handlers: taken(holders), answers: ['board-2026'], confirms: [false] });
      assert.ok((await failure(declined.items.changeSlug(board))) instanceof UserCancelled);
      assert.deepEqual(declined.rec.writes(), [['updateWorkbook', 5, 31, { slug: 'board-2026' }]]);
      assert.deepEqual(declined.host.refreshed, []);
      const unknown = setup({ handlers: taken(new Error('down')), answers: ['board-2026'] });
      await unknown.items.changeSlug(board);
      assert.deepEqual(unknown.prompter.confirmations[0], {
        message: 'The slug "board-2026" belongs to another workbook. Take it over?',
        detail: 'That workbook loses its slug, and dashboards as code that use it will point to "Board".',
        action: 'Take Over Slug',
      });
      const self = setup({ handlers: taken([holders[0]]), answers: ['board-2026'] });
      await self.items.changeSlug(board);
      assert.match(self.prompter.confirmations[0]!.message, /belongs to another workbook/);
    });

    it('a conflict when the arguments decided the takeover, or any other error: no question', async () => {
      const no = setup({ handlers: taken(holders) });
      const e = await failure(
        no.items.changeSlug({ deploymentId: 5, workbookId: 31, slug: 's', slugTakeover: false }),
      );
      assert.equal((e as ApiError).status, 409);
      assert.deepEqual(no.prompter.confirmations, []);
      const other = setup({
        handlers: {
          updateWorkbook: async () => {
            throw new ApiError('server', 'Down.', { status: 500 });
          },
        },
        answers: ['s'],
      });
      assert.equal((await failure(other.items.changeSlug(board)))?.message, 'Down.');
      assert.deepEqual(other.prompter.confirmations, []);
      assert.equal(other.rec.writes().length, 1);
    });

    it('Create or Update by Slug: the slug and the trimmed name', async () => {
      const { items, rec, prompter } = setup({ answers: ['', 'board-2026', ' ', ' Board '] });
      await items.upsertBySlug({ deploymentId: 5 });
      assert.deepEqual(prompter.refusals, ['Enter a slug.', 'Enter a name.']);
      assert.deepEqual(rec.writes(), [['upsertWorkbookBySlug', 5, 'board-2026', { name: 'Board' }]]);
      const prod = setup({ production: true, confirms: [false] });
      assert.ok(
        (await failure(prod.items.upsertBySlug({ deploymentId: 5, slug: 's', name: 'n' }))) instanceof
          UserCancelled,
      );
      assert.deepEqual(prod.rec.writes(), []);
      assert.equal(
        prod.prompter.confirmations[0]?.message,
        'Create or update the workbook with slug "s" on the production profile "Live"?',
      );
    });

    it('Duplicate: from the workspace picked, the workbooks list refreshed, the copy named', async () => {
      const { items, rec, prompter, host } = setup({ answers: ['From the shared workspace'] });
      await items.duplicateWorkbook(board);
      assert.deepEqual(prompter.offered.get('Duplicate Workbook'), [
        'From my workspace',
        'From the shared workspace',
      ]);
      assert.deepEqual(rec.writes(), [['duplicateWorkbook', 5, 31, { shared: true }]]);
      assert.deepEqual(host.refreshedLists(), ['5:workbooks']);
      assert.deepEqual(s.sink.info, ['Duplicated as "Board (copy)".']);
      const mine = setup();
      await mine.items.duplicateWorkbook({ deploymentId: 5, workbookId: 31, shared: false });
      assert.deepEqual(mine.rec.writes(), [['duplicateWorkbook', 5, 31, { shared: false }]]);
    });
  });

  describe('embed access', () => {
    const now = {
      allowEmbed: true,
      allEmbedUsers: { enabled: false },
      tenants: [
        { embedTenantName: 'acme', action: 'read' },
        { embedTenantName: 'gone', action: 'none' },
      ],
    };
    const after = {
      allowEmbed: true,
      allEmbedUsers: { enabled: true },
      tenants: [
        { embedTenantName: 'acme', action: 'read' },
        { embedTenantName: 'beta', action: 'read' },
        { embedTenantName: 'gone', action: 'none' },
      ],
    };
    const cases: { access: object; answers: string[]; input: object }[] = [
      {
        access: now,
        answers: ['Share with all embed users'],
        input: { allEmbedUsers: true, action: 'read' },
      },
      { access: now, answers: ['Turn signed embedding off'], input: { allowEmbed: false } },
      {
        access: now,
        answers: ['Stop sharing with acme'],
        input: { embedTenantName: 'acme', action: 'none' },
      },
      {
        access: now,
        answers: ['Share with an embed tenant…', ' ', ' beta '],
        input: { embedTenantName: 'beta', action: 'read' },
      },
      {
        access: { allowEmbed: false, allEmbedUsers: { enabled: true } },
        answers: ['Stop sharing with all embed users'],
        input: { allEmbedUsers: true, action: 'none' },
      },
      { access: { allowEmbed: false }, answers: ['Turn signed embedding on'], input: { allowEmbed: true } },
    ];
    for (const c of cases)
      it(`picked "${c.answers[0]}": sends ${JSON.stringify(c.input)}`, async () => {
        const { items, rec } = setup({
          handlers: { getEmbedAccess: async () => c.access, updateEmbedAccess: async () => after },
          answers: c.answers,
        });
        await items.changeEmbedAccess(board);
        assert.deepEqual(rec.writes(), [['updateEmbedAccess', 5, 31, c.input]]);
        assert.deepEqual(s.sink.info, [
          'Embed access of "Board": signed embedding on; shared with all embed users; tenants: acme, beta.',
        ]);
      });

    it('offers what can change now: the tenants shared with, not those removed', async () => {
      const { items, prompter } = setup({
        handlers: {
          getEmbedAccess: async () => now,
          updateEmbedAccess: async () => ({ allowEmbed: false }),
        },
        answers: ['Turn signed embedding off'],
      });
      await items.changeEmbedAccess(board);
      assert.deepEqual(prompter.offered.get('Embed access of "Board"'), [
        'Share with all embed users',
        'Turn signed embedding off',
        'Share with an embed tenant…',
        'Stop sharing with acme',
      ]);
      assert.deepEqual(s.sink.info, ['Embed access of "Board": signed embedding off.']);
    });

    it('arguments are sent as given, nothing asked; declined on production, nothing sent', async () => {
      const { items, rec, prompter } = setup({ handlers: { updateEmbedAccess: async () => after } });
      const arg = { deploymentId: 5, workbookId: 31 };
      await items.changeEmbedAccess({ ...arg, embedTenantName: 'acme', action: 'read' });
      await items.changeEmbedAccess({ ...arg, allowEmbed: false });
      await items.changeEmbedAccess({ ...arg, allEmbedUsers: true, action: 'none' });
      assert.deepEqual(rec.writes(), [
        ['updateEmbedAccess', 5, 31, { embedTenantName: 'acme', action: 'read' }],
        ['updateEmbedAccess', 5, 31, { allowEmbed: false }],
        ['updateEmbedAccess', 5, 31, { allEmbedUsers: true, action: 'none' }],
      ]);
      assert.deepEqual(prompter.asked, []);
      const prod = setup({ production: true, confirms: [false] });
      const e = await failure(prod.items.changeEmbedAccess({ ...arg, allowEmbed: true }));
      assert.ok(e instanceof UserCancelled);
      assert.deepEqual(prod.rec.writes(), []);
      assert.equal(
        prod.prompter.confirmations[0]?.message,
        'Change the embed access of "#31" on the production profile "Live"?',
      );
    });

    it('Show Embed Access opens it as JSON', async () => {
      const { items, host } = setup({ handlers: { getEmbedAccess: async () => now } });
      assert.deepEqual(await items.showEmbedAccess(board), now);
      assert.deepEqual(host.shown, [{ key: 'embed-access:5:31', title: 'embed-access-Board', value: now }]);
    });
  });

  describe('opening', () => {
    it('a workbook’s dashboard: the published one, else the draft', async () => {
      const published = { id: 31, name: 'Board', publishedDashboard: { id: 1, config: { title: 'P' } } };
      const draft = { id: 31, name: 'Board', dashboardDraft: { title: 'D' } };
      for (const w of [published, draft]) {
        const { items, host } = setup({ handlers: { getWorkbook: async () => w } });
        await items.openItem(board);
        assert.deepEqual(host.shown, [
          {
            key: 'dashboard:5:31',
            title: 'dashboard-Board',
            value: {
              workbook: 'Board',
              published: w === published,
              dashboard: w === published ? { title: 'P' } : { title: 'D' },
            },
          },
        ]);
      }
      const none = setup({ handlers: { getWorkbook: async () => ({ id: 31, name: 'Board' }) } });
      await none.items.openDashboard(board);
      assert.equal((none.host.shown[0]!.value as { dashboard: unknown }).dashboard, null);
    });

    it('a report: a preview tab of its SQL, or a draft to edit, in the platform’s SQL', async () => {
      const { items } = setup();
      await items.openItem(revenue);
      await items.openReportSql(revenue);
      assert.deepEqual(s.sink.opened, [
        {
          uri: 'dashboard-platform-report:/Revenue.sql?deployment=5&report=21',
          language: SQL_LANGUAGE,
          preview: true,
        },
        {
          uri: 'dashboard-platform-report-draft:/Revenue.sql?deployment=5&report=21',
          language: SQL_LANGUAGE,
          preview: false,
        },
      ]);
    });
  });

  describe('the report documents', () => {
    type Provider = {
      stat(u: unknown): Promise<{ type: number; size: number; permissions?: number }>;
      readFile(u: unknown): Promise<Uint8Array>;
      writeFile(u: unknown, c: Uint8Array, o?: unknown): Promise<void>;
      onDidChangeFile(l: (e: { type: number; uri: unknown }[]) => void): unknown;
      createDirectory(u: unknown): unknown;
      delete(u: unknown): unknown;
      rename(u: unknown): unknown;
    };
    function fileSystems(reports: ReportDocumentsModule.ReportDocuments) {
      reports.register();
      const providers = (
        s.sink as unknown as { providers: Record<string, { provider: Provider; options: object }> }
      ).providers;
      return { preview: providers[Docs.REPORT_SCHEME]!, draft: providers[Docs.REPORT_DRAFT_SCHEME]! };
    }
    const at = (scheme: string, path = '/Revenue.sql', query = 'deployment=5&report=21') =>
      Uri.from({ scheme, path, query });
    const bytes = (t: string) => new TextEncoder().encode(t);

    it('the preview is read-only, the draft writable; both read the report from the server', async () => {
      const { reports } = setup();
      const fs = fileSystems(reports);
      assert.deepEqual(fs.preview.options, { isReadonly: true, isCaseSensitive: true });
      assert.deepEqual(fs.draft.options, { isCaseSensitive: true });
      const p = await fs.preview.provider.stat(at(Docs.REPORT_SCHEME));
      const d = await fs.draft.provider.stat(at(Docs.REPORT_DRAFT_SCHEME));
      assert.deepEqual([p.type, p.size, p.permissions], [1, 8, 1]);
      assert.deepEqual([d.type, d.size, 'permissions' in d], [1, 8, false]);
      assert.equal((await fs.draft.provider.stat(at(Docs.REPORT_DRAFT_SCHEME, '/'))).type, 2);
      assert.equal(
        new TextDecoder().decode(await fs.preview.provider.readFile(at(Docs.REPORT_SCHEME))),
        'SELECT 1',
      );
      const refused = [
        () => fs.preview.provider.writeFile(at(Docs.REPORT_SCHEME), bytes('SELECT 2')),
        () => fs.draft.provider.createDirectory(at(Docs.REPORT_DRAFT_SCHEME)),
        () => fs.draft.provider.delete(at(Docs.REPORT_DRAFT_SCHEME)),
        () => fs.draft.provider.rename(at(Docs.REPORT_DRAFT_SCHEME)),
      ];
      for (const r of refused)
        assert.equal((await failure((async () => r())()))?.message, 'A report holds one SQL query only.');
      assert.equal(refused.length, 4);
    });

    it('saving a draft saves the SQL to the report, and an open preview shows it', async () => {
      const { reports, rec } = setup();
      const fs = fileSystems(reports);
      const events: string[] = [];
      fs.preview.provider.onDidChangeFile((e) => events.push(...e.map((x) => `${x.type} ${String(x.uri)}`)));
      await fs.draft.provider.writeFile(at(Docs.REPORT_DRAFT_SCHEME), bytes('SELECT 2'));
      assert.deepEqual(rec.writes(), [['updateReport', 5, 21, { sqlQuery: 'SELECT 2' }]]);
      assert.deepEqual(s.sink.info, ['Saved the SQL of "Revenue".']);
      assert.deepEqual(events, ['1 dashboard-platform-report:/Revenue.sql?deployment=5&report=21']);
      assert.equal(
        new TextDecoder().decode(await fs.preview.provider.readFile(at(Docs.REPORT_SCHEME))),
        'SELECT 2',
      );
      // The same SQL read again changes nothing open.
      await reports.refresh({ deploymentId: 5, reportId: 21 });
      await reports.refresh({ deploymentId: 5, reportId: 21 });
      assert.equal(events.length, 2, 'the server still had SELECT 1: one change, then none');
    });

    it('bytes that are not UTF-8, or a declined save, send nothing and leave the cache', async () => {
      const { reports, rec } = setup({ production: true, confirms: [false] });
      const fs = fileSystems(reports);
      const e = await failure(
        fs.draft.provider.writeFile(at(Docs.REPORT_DRAFT_SCHEME), new Uint8Array([0xff, 0x41])),
      );
      assert.match(e?.message ?? '', /^The SQL was not saved: it is not UTF-8 text\./);
      assert.ok(
        (await failure(
          fs.draft.provider.writeFile(at(Docs.REPORT_DRAFT_SCHEME), bytes('SELECT 3')),
        )) instanceof UserCancelled,
      );
      assert.deepEqual(rec.writes(), []);
      assert.equal(
        new TextDecoder().decode(await fs.draft.provider.readFile(at(Docs.REPORT_DRAFT_SCHEME))),
        'SELECT 1',
      );
    });

    it('a URI that names no report is not found; a server that fails is unavailable, saying why', async () => {
      const { reports } = setup({
        handlers: {
          getReport: async () => {
            throw new Error('The platform did not answer.');
          },
        },
      });
      const fs = fileSystems(reports);
      const missing = await failure(fs.draft.provider.readFile(at(Docs.REPORT_DRAFT_SCHEME, '/a/b.sql')));
      assert.equal((missing as { code?: string }).code, 'FileNotFound');
      const down = await failure(fs.preview.provider.readFile(at(Docs.REPORT_SCHEME)));
      assert.deepEqual(
        [(down as { code?: string }).code, down?.message],
        ['Unavailable', 'The platform did not answer.'],
      );
      const early = new Docs.ReportDocuments();
      const early2 = await failure(early.refresh({ deploymentId: 5, reportId: 21 }));
      assert.equal(early2?.message, 'The explorer is not ready yet.');
    });

    it('each report has its own SQL; a save tells the open draft too, under its own URI', async () => {
      const { reports } = setup({
        handlers: {
          getReport: async (_d: number, id: number) => ({ id, name: `R${id}`, sqlQuery: `SELECT ${id}` }),
        },
      });
      const fs = fileSystems(reports);
      const text = async (id: number) =>
        new TextDecoder().decode(
          await fs.draft.provider.readFile(
            at(Docs.REPORT_DRAFT_SCHEME, `/R${id}.sql`, `deployment=5&report=${id}`),
          ),
        );
      assert.deepEqual([await text(21), await text(22)], ['SELECT 21', 'SELECT 22']);
      const events: string[] = [];
      fs.draft.provider.onDidChangeFile((e) => events.push(...e.map((x) => String(x.uri))));
      await fs.draft.provider.writeFile(
        at(Docs.REPORT_DRAFT_SCHEME, '/R21.sql', 'deployment=5&report=21'),
        new TextEncoder().encode('SELECT 2'),
      );
      assert.deepEqual(events, ['dashboard-platform-report-draft:/R21.sql?deployment=5&report=21']);
      assert.deepEqual([await text(21), await text(22)], ['SELECT 2', 'SELECT 22']);
    });

    it('file names and URIs: the name made safe, the ids in the query, nothing else read as a report', () => {
      assert.equal(Docs.reportFileName('a/b\\c'), 'a b c.sql');
      assert.equal(Docs.reportFileName(' \u0007 '), 'report.sql');
      assert.equal(Docs.reportFileName('a//b'), 'a b.sql');
      assert.equal(Docs.reportFileName('x/'), 'x.sql');
      assert.equal(
        String(Docs.reportUri({ deploymentId: 12, reportId: 7 }, 'R')),
        'dashboard-platform-report:/R.sql?deployment=12&report=7',
      );
      assert.deepEqual(Docs.reportRefOf(Docs.reportUri({ deploymentId: 12, reportId: 7 }, 'R') as never), {
        deploymentId: 12,
        reportId: 7,
      });
      assert.equal(Docs.reportFileName('x'.repeat(300)).length, 124);
      const uri = Docs.reportUri({ deploymentId: 5, reportId: 21 }, 'Q/3', true);
      assert.equal(String(uri), 'dashboard-platform-report-draft:/Q 3.sql?deployment=5&report=21');
      assert.deepEqual(Docs.reportRefOf(uri as never), { deploymentId: 5, reportId: 21 });
      for (const bad of [
        at('file'),
        at(Docs.REPORT_SCHEME, '/a/b.sql'),
        at(Docs.REPORT_SCHEME, '/a.sql', 'deployment=5&report=x'),
        at(Docs.REPORT_SCHEME, '/a.sql', 'deployment=5&report=21&more'),
        at(Docs.REPORT_SCHEME, '/a.sql', 'x&deployment=5&report=21'),
      ])
        assert.equal(Docs.reportRefOf(bad as never), undefined, String(bad));
      assert.equal(Docs.reportRefOf(undefined), undefined);
    });
  });
  describe('the rules a survivor showed were untested', () => {
    it('Save SQL: which text goes where', async () => {
      const draftUri = Uri.from({
        scheme: Docs.REPORT_DRAFT_SCHEME,
        path: '/Revenue.sql',
        query: 'deployment=5&report=21',
      });
      const saved: string[] = [];
      const draftDoc = {
        uri: draftUri,
        isDirty: true,
        getText: () => 'SELECT draft',
        save: async () => (saved.push('saved'), true),
      };
      const { items, rec } = setup();
      // A file editor and a report named in the arguments: the editor's text.
      s.sink.activeTextEditor = editor('SELECT 3');
      await items.saveReportSql({ deploymentId: 5, reportId: 21 });
      // A draft editor but SQL in the arguments: that SQL, not the draft's save.
      s.sink.activeTextEditor = { document: draftDoc };
      s.sink.textDocuments = [draftDoc];
      await items.saveReportSql({ deploymentId: 5, reportId: 21, sql: 'SELECT 4' });
      // No argument: the active draft is saved (other open documents are not looked at).
      await items.saveReportSql();
      assert.deepEqual(rec.writes(), [
        ['updateReport', 5, 21, { sqlQuery: 'SELECT 3' }],
        ['updateReport', 5, 21, { sqlQuery: 'SELECT 4' }],
      ]);
      assert.deepEqual(saved, ['saved']);
      // No editor and no SQL given: nothing to save.
      s.sink.activeTextEditor = undefined;
      s.sink.textDocuments = [];
      const e = await failure(items.saveReportSql({ deploymentId: 5, reportId: 21 }));
      assert.equal(e?.message, 'A report needs SQL: the text to save is empty.');
      assert.equal(rec.writes().length, 2);
    });

    it('opening: from arguments too; the SQL language set once; a report without SQL opens empty', async () => {
      const { items } = setup({
        handlers: { getReport: async () => ({ id: 21, name: 'Revenue', sqlQuery: null }) },
      });
      await items.openItem({ deploymentId: 5, reportId: 21 });
      await items.openItem({ deploymentId: 5, reportId: 21 });
      assert.deepEqual(
        s.sink.opened.map((o) => o.language),
        [SQL_LANGUAGE, SQL_LANGUAGE],
      );
      assert.equal(s.sink.languageSets, 1, 'set once: the second open finds it set');
      assert.deepEqual(
        [...s.sink.languages.keys()],
        ['dashboard-platform-report:/Revenue.sql?deployment=5&report=21'],
      );
      const source = items.reportSource();
      assert.deepEqual(await source.read({ deploymentId: 5, reportId: 21 }), { name: 'Revenue', sql: '' });
      const odd = setup({ handlers: { getReport: async () => ({ id: 21, name: 'Odd', sqlQuery: 5 }) } });
      const e = await failure(odd.items.openInNotebook(revenue));
      assert.equal(e?.message, 'The report "Odd" has no SQL query to open.');
    });

    it('names, slugs and SQL that are only spaces are refused where typed', async () => {
      const report = setup({ answers: ['  ', 'x'.repeat(256), 'x'.repeat(255), ' ', 'SELECT 1'] });
      await report.items.createReport(dep5);
      assert.deepEqual(report.prompter.refusals, [
        'Enter a name.',
        'At most 255 characters.',
        'Enter the SQL query.',
      ]);
      const workbook = setup({ answers: ['  ', 'W'] });
      await workbook.items.createWorkbook(dep5);
      assert.deepEqual(workbook.prompter.refusals, ['Enter a name.']);
      assert.deepEqual(workbook.prompter.inputs[0], {
        title: 'New Workbook',
        prompt: 'A workbook at the workspace root.',
      });
      const slug = setup({ answers: ['  ', 's'] });
      await slug.items.changeSlug(new TestNode('workbook', { id: 31, name: 'Board', slug: 7 }, dep5));
      assert.deepEqual(slug.prompter.refusals, ['Enter a slug.']);
      assert.deepEqual(slug.prompter.inputs[0], {
        title: 'Slug of "Board"',
        prompt: 'The workbook’s portable id in this deployment (lowercase; dashboards as code key on it).',
        value: '',
      });
      const upsert = setup({ answers: ['  ', 's', ' ', 'n'] });
      await upsert.items.upsertBySlug({ deploymentId: 5 });
      assert.deepEqual(upsert.prompter.refusals, ['Enter a slug.', 'Enter a name.']);
      assert.deepEqual(upsert.prompter.inputs, [
        {
          title: 'Create or Update Workbook by Slug (1/2)',
          prompt: 'The slug: the workbook holding it is updated, or a new one is created with it.',
        },
        { title: 'Create or Update Workbook by Slug (2/2)', prompt: 'The workbook’s name.' },
      ]);
      assert.deepEqual(upsert.host.refreshedLists(), ALL_LISTS);
    });

    it('on a production profile every write asks first, naming it; declined, nothing is sent', async () => {
      const cases: [string, (i: ItemActionsModule.ItemActions) => Promise<unknown>, string][] = [
        ['refresh', (i) => i.refreshReport(revenue), 'Refresh report "Revenue"'],
        [
          'disconnect',
          (i) => i.disconnectReport({ deploymentId: 5, reportId: 21, placementId: 'p1' }),
          'Disconnect report "#21" from a workbook',
        ],
        [
          'create workbook',
          (i) => i.createWorkbook({ deploymentId: 5, name: 'W\u0007' }),
          'Create the workbook "W"',
        ],
        [
          'slug',
          (i) => i.changeSlug({ deploymentId: 5, workbookId: 31, slug: 'b\u0007' }),
          'Change the slug of "#31" to "b"',
        ],
        [
          'duplicate',
          (i) => i.duplicateWorkbook({ deploymentId: 5, workbookId: 31, shared: false }),
          'Duplicate workbook #31',
        ],
        [
          'connect',
          (i) =>
            i.connectReport({
              deploymentId: 5,
              reportId: 21,
              externalWorkbookId: 'x\u0007',
              resultLocation: 'A1',
              endResultCell: '',
            }),
          'Connect report #21 to workbook x',
        ],
      ];
      for (const [what, run, message] of cases) {
        const { items, rec, prompter } = setup({ production: true, confirms: [false] });
        assert.ok((await failure(run(items))) instanceof UserCancelled, what);
        assert.deepEqual(rec.writes(), [], what);
        assert.equal(
          prompter.confirmations[0]?.message,
          `${message} on the production profile "Live"?`,
          what,
        );
      }
      assert.equal(cases.length, 6);
    });

    it('the slug holder is the other workbook with that slug, spaces and case aside', async () => {
      const others = [
        { id: 31, name: 'Board', slug: 'board-2026' },
        { id: 33, name: 'No slug' },
        { id: 34, name: 'Other', slug: 'other' },
        { id: 32, name: 'Old Board', slug: ' BOARD-2026' },
      ];
      let first = true;
      const { items, prompter } = setup({
        handlers: {
          updateWorkbook: async () => {
            if (first) {
              first = false;
              throw new ApiError('conflict', 'Taken.', { status: 409 });
            }
            return {};
          },
          listWorkbooks: async () => ({ items: others }),
        },
        answers: ['  board-2026  '],
      });
      assert.equal(await items.changeSlug(board), 'board-2026');
      assert.equal(
        prompter.confirmations[0]?.message,
        'The slug "board-2026" belongs to the workbook "Old Board". Take it over?',
      );
    });

    it('Connect: each question as the user reads it; arguments naming the report ask nothing', async () => {
      const { items, prompter } = setup({ answers: ['s', 'A1', ''] });
      await items.connectReport(revenue);
      assert.deepEqual(prompter.inputs, [
        { title: 'Connect Report to Workbook (1/3)', prompt: 'The external workbook (spreadsheet) id.' },
        {
          title: 'Connect Report to Workbook (2/3)',
          prompt: 'Where the result starts, e.g. Sheet1!A1.',
          value: 'Sheet1!A1',
        },
        {
          title: 'Connect Report to Workbook (3/3)',
          prompt: 'The last cell of the result (optional), e.g. D20.',
        },
      ]);
      const given = setup();
      await given.items.connectReport({
        deploymentId: 5,
        reportId: 21,
        externalWorkbookId: 'x',
        resultLocation: 'B2',
        endResultCell: 'C3',
      });
      assert.deepEqual(given.rec.writes(), [
        [
          'connectReportToWorkbook',
          5,
          21,
          { externalWorkbookId: 'x', resultLocation: 'B2', endResultCell: 'C3' },
        ],
      ]);
      assert.deepEqual(given.prompter.asked, []);
    });

    it('Duplicate from my workspace; embed access by arguments', async () => {
      const { items, rec, prompter } = setup({ answers: ['From my workspace'] });
      await items.duplicateWorkbook(board);
      assert.deepEqual(rec.writes(), [['duplicateWorkbook', 5, 31, { shared: false }]]);
      assert.deepEqual(prompter.rows.get('Duplicate Workbook'), [
        { label: 'From my workspace', description: undefined, detail: undefined },
        { label: 'From the shared workspace', description: 'shared: true', detail: undefined },
      ]);
      const access = { allowEmbed: true };
      const shown = setup({ handlers: { getEmbedAccess: async () => access } });
      await shown.items.showEmbedAccess({ deploymentId: 5, workbookId: 31 });
      assert.deepEqual(
        shown.rec.calls.map((c) => [c.name, ...c.args]),
        [['getEmbedAccess', 5, 31]],
      );
      assert.deepEqual(shown.host.shown[0]?.key, 'embed-access:5:31');
    });
  });
});
