// The workspace feature as VS Code loads it: its activation part registers a shim per command and
// the report file systems, the first use loads the feature, and every command reaches the action
// it names (with the multi-selection where the tree passes one). Reveal in Explorer walks the
// folders down to the item, a page at a time. Plain Node, a stand-in for `vscode`.
import assert from 'node:assert/strict';
import type * as CommandsModule from '../../../src/commands';
import type * as ListNodeModule from '../../../src/explorer/nodes/listNode';
import type * as PrompterModule from '../../../src/ui/prompter';
import type * as IndexModule from '../../../src/workspace/index';
import type * as ReportDocumentsModule from '../../../src/workspace/reportDocuments';
import type * as FeatureModule from '../../../src/workspace/workspaceFeature';
import type * as WorkspaceActionsModule from '../../../src/workspace/workspaceActions';
import type { ExplorerHost } from '../../../src/explorer/context';
import type { ExplorerNode } from '../../../src/explorer/nodes/types';
import {
  deploymentRow,
  failure,
  fakeHost,
  recordingClient,
  scripted,
  TestNode,
  useFeatureStandIn,
} from '../featureHarness';

/** Each command, the object and method it runs, and whether it takes the multi-selection. */
const ROUTES: [string, 'items' | 'workspace', string, boolean][] = [
  ['workspaceOpenItem', 'items', 'openItem', false],
  ['workspaceOpenReportSql', 'items', 'openReportSql', false],
  ['workspaceSaveReportSql', 'items', 'saveReportSql', false],
  ['workspaceOpenDashboard', 'items', 'openDashboard', false],
  ['workspaceCreateFolder', 'workspace', 'createFolder', false],
  ['workspaceRenameItem', 'workspace', 'rename', true],
  ['workspaceMoveItems', 'workspace', 'move', true],
  ['workspaceDeleteItems', 'workspace', 'delete', true],
  ['workspaceRevealInExplorer', 'workspace', 'reveal', false],
  ['workspaceCreateReport', 'items', 'createReport', false],
  ['workspaceRefreshReport', 'items', 'refreshReport', false],
  ['workspaceDisconnectReport', 'items', 'disconnectReport', false],
  ['workspaceConnectReport', 'items', 'connectReport', false],
  ['workspaceOpenReportInNotebook', 'items', 'openInNotebook', false],
  ['workspaceCreateWorkbook', 'items', 'createWorkbook', false],
  ['workspaceDuplicateWorkbook', 'items', 'duplicateWorkbook', false],
  ['workspaceChangeWorkbookSlug', 'items', 'changeSlug', false],
  ['workspaceUpsertWorkbookBySlug', 'items', 'upsertBySlug', false],
  ['workspaceShowEmbedAccess', 'items', 'showEmbedAccess', false],
  ['workspaceChangeEmbedAccess', 'items', 'changeEmbedAccess', false],
];

describe('workspace: the feature’s commands and Reveal in Explorer', () => {
  const s = useFeatureStandIn();
  let Feature: typeof FeatureModule;
  let Index: typeof IndexModule;
  let Docs: typeof ReportDocumentsModule;
  let WorkspaceActions: typeof WorkspaceActionsModule.WorkspaceActions;
  let ListNode: typeof ListNodeModule.ListNode;
  let COMMANDS: typeof CommandsModule.COMMANDS;
  let ScriptedPrompter: typeof PrompterModule.ScriptedPrompter;

  before(() => {
    Feature = s.load<typeof FeatureModule>('../../src/workspace/workspaceFeature');
    Index = s.load<typeof IndexModule>('../../src/workspace/index');
    Docs = s.load<typeof ReportDocumentsModule>('../../src/workspace/reportDocuments');
    ({ WorkspaceActions } = s.load<typeof WorkspaceActionsModule>('../../src/workspace/workspaceActions'));
    ({ ListNode } = s.load<typeof ListNodeModule>('../../src/explorer/nodes/listNode'));
    ({ COMMANDS } = s.load<typeof CommandsModule>('../../src/commands'));
    ({ ScriptedPrompter } = s.load<typeof PrompterModule>('../../src/ui/prompter'));
  });

  function host(
    handlers: Record<string, (...a: never[]) => unknown> = {},
    view?: { selection: ExplorerNode[] },
    answers: string[] = [],
  ) {
    const rec = recordingClient(handlers);
    const h = fakeHost(s.load, {
      client: rec.client,
      prompter: scripted(ScriptedPrompter, answers),
      ...(view ? { view } : {}),
    });
    return { ...h, rec };
  }

  it('every command runs its action with the node (and the selection where the tree passes one)', async () => {
    const h = host();
    const { feature, disposables } = Feature.createWorkspaceFeature(
      h.host as unknown as ExplorerHost,
      new Docs.ReportDocuments(),
    );
    const ran: unknown[][] = [];
    for (const [, obj, method] of ROUTES)
      (feature[obj] as unknown as Record<string, unknown>)[method] = (...a: unknown[]) => {
        ran.push([method, ...a]);
        return `done ${method}`;
      };
    assert.equal(disposables.length, ROUTES.length);
    for (const [key, , method, all] of ROUTES) {
      const id = (COMMANDS as Record<string, { id: string }>)[key]!.id;
      const run = s.sink.registered.get(id);
      assert.ok(run, `${id} is registered`);
      assert.equal(await run('node', ['node', 'other']), `done ${method}`);
      assert.deepEqual(ran.pop(), all ? [method, 'node', ['node', 'other']] : [method, 'node']);
    }
    assert.equal(s.sink.registered.size, ROUTES.length);
  });

  it('a command that fails tells the user why', async () => {
    const h = host();
    Feature.createWorkspaceFeature(h.host as unknown as ExplorerHost, new Docs.ReportDocuments());
    const note = new TestNode('notification', { id: 41 }, deploymentRow(5));
    const run = s.sink.registered.get(COMMANDS.workspaceDeleteItems.id)!;
    assert.equal(await run(note, [note]), undefined);
    assert.deepEqual(s.sink.errors, ['Only folders, reports and workbooks of the workspace can be deleted.']);
    assert.deepEqual(h.rec.calls, []);
  });

  it('activation registers shims and the report file systems; a report read loads the feature', async () => {
    const h = host({ getReport: async () => ({ id: 21, name: 'Revenue', sqlQuery: 'SELECT 7' }) });
    const registered = Index.register(h.host as unknown as ExplorerHost);
    const ids = ROUTES.map(([key]) => (COMMANDS as Record<string, { id: string }>)[key]!.id);
    assert.deepEqual([...s.sink.registered.keys()].sort(), [...ids].sort());
    assert.equal(registered.disposables.length, 4, 'the shims, the documents and their two file systems');
    const subscriptions = (h.host.services.context as { subscriptions: unknown[] }).subscriptions;
    assert.equal(subscriptions.length, 0, 'nothing loaded yet');
    const providers = (
      s.sink as unknown as {
        providers: Record<string, { provider: { readFile(u: unknown): Promise<Uint8Array> } }>;
      }
    ).providers;
    const uri = Docs.reportUri({ deploymentId: 5, reportId: 21 }, 'Revenue');
    const bytes = await providers[Docs.REPORT_SCHEME]!.provider.readFile(uri);
    assert.equal(new TextDecoder().decode(bytes), 'SELECT 7');
    assert.equal(subscriptions.length, ROUTES.length, 'the feature loaded: its commands are kept');
    assert.ok(registered.feature.workspace instanceof WorkspaceActions);
    assert.deepEqual(
      h.rec.calls.map((c) => [c.name, ...c.args]),
      [['getReport', 5, 21]],
    );
  });

  describe('Reveal in Explorer', () => {
    /** A list row of the tree whose children come in pages; `loads` counts "Load more". */
    function list(kind: string, data: Record<string, unknown> | undefined, pages: ExplorerNode[][]) {
      let shown = 1;
      const node = Object.create(ListNode.prototype) as ListNodeModule.ListNode & { loads: number };
      Object.defineProperties(node, {
        kind: { value: kind },
        id: { value: `${kind}:${String(data?.['id'] ?? 'root')}` },
        data: { value: data },
        loads: { get: () => shown - 1 },
        getChildren: { value: async () => pages.slice(0, shown).flat() },
        paging: { value: { snapshot: () => ({ hasMore: shown < pages.length }) } },
        loadMore: {
          value: async () => {
            shown++;
          },
        },
      });
      return node;
    }
    const dep5 = deploymentRow(5);
    const report = new TestNode('report', { id: 21, name: 'Revenue' }, dep5);
    const workbook = new TestNode('workbook', { id: 31, name: 'Board' }, dep5);
    const other = new TestNode('folder', { id: 14, name: 'Salesforce' }, dep5);
    /** The tree, fresh for each test: root (2 pages) > Sales > EMEA (2 pages) > Revenue. */
    function tree() {
      const emea = list('folder', { id: 12, name: 'EMEA' }, [
        [new TestNode('report', { id: 20 }, dep5)],
        [report],
      ]);
      const sales = list('folder', { id: 11, name: 'Sales' }, [[emea]]);
      const root = list('workspace', undefined, [
        [other, new TestNode('report', { id: 11 }, dep5)],
        [sales, workbook],
      ]);
      return { emea, sales, root };
    }

    function view(select: 'now' | 'event') {
      const revealed: [string, object][] = [];
      const listeners: (() => void)[] = [];
      const v = {
        selection: [] as ExplorerNode[],
        reveal: async (n: ExplorerNode, o: object) => {
          revealed.push([n.id, o]);
          if (select === 'now') v.selection = [n];
          else
            setImmediate(() => {
              v.selection = [new TestNode('report', { id: 99 }, dep5)];
              for (const l of listeners) l();
              v.selection = [n];
              for (const l of listeners) l();
            });
        },
        onDidChangeSelection: (l: () => void) => {
          listeners.push(l);
          return { dispose: () => listeners.splice(listeners.indexOf(l), 1) };
        },
      };
      return { v, revealed, listeners };
    }

    function setup(
      select: 'now' | 'event' = 'now',
      handlers: Record<string, (...a: never[]) => unknown> = {},
      answers: string[] = [],
    ) {
      const { v, revealed, listeners } = view(select);
      const h = host(
        {
          getReport: async () => ({ id: 21, folderId: 12 }),
          // No folderId at all: at the root, like folderId null.
          getWorkbook: async () => ({ id: 31 }),
          getFolderAncestors: async (_d: number, id: number) =>
            id === 12 ? [{ id: 11 }, { id: 12 }] : [{ id }],
          ...handlers,
        },
        v,
        answers,
      );
      const t = tree();
      h.deployments[0]!.lists.set('workspace', t.root as never);
      return { ws: new WorkspaceActions(h.ctx), revealed, listeners, rec: h.rec, ...t, h };
    }

    it('a report: its folders from the root down, each paged until found, then the report selected', async () => {
      const { ws, revealed, rec, root: r, emea, listeners } = setup('event');
      const found = await ws.reveal({ deploymentId: 5, type: 'REPORT', id: 21 });
      assert.equal(found, report);
      assert.deepEqual(revealed, [[report.id, { select: true, focus: true, expand: false }]]);
      assert.deepEqual(
        rec.calls.map((c) => [c.name, ...c.args]),
        [
          ['getReport', 5, 21],
          ['getFolderAncestors', 5, 12],
        ],
      );
      assert.deepEqual([r.loads, emea.loads], [1, 1]);
      assert.equal(listeners.length, 0, 'the selection is no longer watched');
    });

    it('a folder is expanded, a workbook at the root needs no ancestors', async () => {
      const folder = setup();
      assert.equal(
        await folder.ws.reveal(new TestNode('folder', { id: 11, name: 'Sales' }, dep5)),
        folder.sales,
      );
      assert.deepEqual(folder.revealed, [[folder.sales.id, { select: true, focus: true, expand: 1 }]]);
      assert.deepEqual(
        folder.rec.calls.map((c) => c.name),
        ['getFolderAncestors'],
      );
      const wb = setup();
      assert.equal(await wb.ws.reveal(workbook), workbook);
      assert.deepEqual(wb.revealed, [[workbook.id, { select: true, focus: true, expand: false }]]);
      assert.deepEqual(
        wb.rec.calls.map((c) => [c.name, ...c.args]),
        [['getWorkbook', 5, 31]],
      );
    });

    it('arguments without both a type and an id: the item is picked from the workspace', async () => {
      const listWorkspace = async () => ({ items: [{ type: 'WORKBOOK', id: 31, name: 'Board' }] });
      for (const arg of [
        { deploymentId: 5, type: 'WORKBOOK' },
        { deploymentId: 5, id: 31 },
      ]) {
        const { ws, revealed, h } = setup('now', { listWorkspace }, ['Board']);
        assert.equal(await ws.reveal(arg), workbook);
        assert.deepEqual(revealed, [[workbook.id, { select: true, focus: true, expand: false }]]);
        assert.deepEqual(
          h.rec.calls.map((c) => c.name),
          ['listWorkspace', 'getWorkbook'],
        );
      }
      const folder = setup();
      await folder.ws.reveal({ deploymentId: 5, type: 'FOLDER', id: 11 });
      assert.deepEqual(folder.revealed, [[folder.sales.id, { select: true, focus: true, expand: 1 }]]);
    });

    it('an item not in the list says so after the last page', async () => {
      const { ws, revealed, emea } = setup('now', { getReport: async () => ({ id: 22, folderId: 12 }) });
      const e = await failure(ws.reveal({ deploymentId: 5, type: 'REPORT', id: 22 }));
      assert.equal(emea.loads, 1, 'the last page reached, no more is asked for');
      assert.equal(
        e?.message,
        'The report #22 is not in the workspace list (it may have been moved or deleted: refresh).',
      );
      assert.deepEqual(revealed, []);
    });
  });
});
