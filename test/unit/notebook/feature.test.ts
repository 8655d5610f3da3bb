// The notebook feature's registration and commands in plain Node (a stand-in for `vscode`): the
// .dpnb serializer (outputs saved only when asked, within the byte budget, unknown keys kept), the
// feature loaded when a query notebook opens, New Query Notebook, the renderer's saved chart
// choice, and Export Results run against the sandbox (the file written, what the user is told).
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { DataClient } from '../../../src/api/dataClient';
import { startSandbox, type SandboxHandle } from '../../../src/sandbox';
import { RESULT_MIME } from '../../../src/shared/notebookOutput';
import type * as ChartModule from '../../../src/notebook/chartMessages';
import type * as ExportModule from '../../../src/notebook/exportResults';
import type * as IndexModule from '../../../src/notebook/index';
import type * as SerializerModule from '../../../src/notebook/serializer';
import { fakeNotebook, installVscodeFake, type FakeNotebook, type VsHooks } from './vscodeFake';

const enc = new TextEncoder();
const dec = new TextDecoder();
const flush = () => new Promise((r) => setTimeout(r, 0));

describe('notebook feature: registration, serializer, chart choices, export', function () {
  this.timeout(60_000);
  let fake: ReturnType<typeof installVscodeFake>;
  let hooks: VsHooks;
  let S: typeof SerializerModule;
  let I: typeof IndexModule;
  let Ch: typeof ChartModule;
  let E: typeof ExportModule;

  before(() => {
    fake = installVscodeFake();
    hooks = fake.hooks;
    S = fake.load('../../../src/notebook/serializer');
    I = fake.load('../../../src/notebook/index');
    Ch = fake.load('../../../src/notebook/chartMessages');
    E = fake.load('../../../src/notebook/exportResults');
  });
  after(() => fake.uninstall());
  beforeEach(() => hooks.reset());

  describe('the .dpnb serializer', () => {
    const FILE = {
      version: 1,
      future: { kept: true },
      metadata: { profile: 'Prod', deploymentId: 3, theme: 'dark' },
      cells: [
        { kind: 'markdown', source: '# Title' },
        { kind: 'sql', source: 'SELECT 1', metadata: { view: 'chart' }, later: 'x' },
        {
          kind: 'json',
          source: '{"measures":["orders.count"]}',
          outputs: [[{ mime: 'text/plain', data: 'saved' }]],
        },
      ],
    };
    const open = () =>
      new S.DpnbSerializer({ saveOutputs: () => false, maxSavedOutputBytes: () => 0 }).deserializeNotebook(
        enc.encode(JSON.stringify(FILE)),
      ) as unknown as {
        cells: {
          kind: number;
          value: string;
          languageId: string;
          metadata?: Record<string, unknown>;
          outputs?: { items: { mime: string; data: Uint8Array }[] }[];
        }[];
        metadata: Record<string, unknown>;
      };

    it('opens cells with their kinds, languages, metadata, outputs and the keys it does not know', () => {
      const nb = open();
      assert.deepEqual(
        nb.cells.map((c) => [c.kind, c.value, c.languageId]),
        [
          [1, '# Title', 'markdown'],
          [2, 'SELECT 1', 'dashboard-platform-sql'],
          [2, '{"measures":["orders.count"]}', 'json'],
        ],
      );
      assert.equal(nb.cells[0]!.metadata, undefined);
      assert.deepEqual(nb.cells[1]!.metadata, { view: 'chart', [S.EXTRA_KEY]: { later: 'x' } });
      assert.deepEqual(
        nb.cells[2]!.outputs!.map((o) => o.items.map((i) => [i.mime, dec.decode(i.data)])),
        [[['text/plain', 'saved']]],
      );
      assert.equal(nb.cells[1]!.outputs, undefined);
      assert.deepEqual(nb.metadata, {
        profile: 'Prod',
        deploymentId: 3,
        theme: 'dark',
        [S.EXTRA_KEY]: { future: { kept: true } },
      });
    });

    it('saves what it opened, without outputs unless asked, and without execution data', () => {
      const nb = open() as unknown as Parameters<SerializerModule.DpnbSerializer['serializeNotebook']>[0];
      (nb.cells[1]!.metadata as Record<string, unknown>).execution = { order: 3 };
      const saved = JSON.parse(
        dec.decode(
          new S.DpnbSerializer({
            saveOutputs: () => false,
            maxSavedOutputBytes: () => 1e6,
          }).serializeNotebook(nb),
        ),
      ) as typeof FILE;
      assert.deepEqual(saved, {
        future: { kept: true },
        version: 1,
        metadata: { theme: 'dark', profile: 'Prod', deploymentId: 3 },
        cells: [
          { kind: 'markdown', source: '# Title' },
          { later: 'x', kind: 'sql', source: 'SELECT 1', metadata: { view: 'chart' } },
          { kind: 'json', source: '{"measures":["orders.count"]}' },
        ],
      });
    });

    it('saves outputs when asked, dropping items past the byte budget (the cell re-runs)', () => {
      const item = (mime: string, text: string) => ({ mime, data: enc.encode(text) });
      const data = {
        metadata: { profile: 7, deploymentId: '3' },
        cells: [
          {
            kind: 2,
            value: 'SELECT 1',
            languageId: 'sql',
            outputs: [{ items: [item('a', '12345'), item('b', '123456')] }],
          },
          {
            kind: 2,
            value: '{}',
            languageId: 'jsonc',
            outputs: [{ items: [item('c', '1234')] }, { items: [item('d', '1')] }],
          },
          { kind: 2, value: 'SELECT 2', languageId: 'sql', outputs: [] },
        ],
      };
      const file = S.toFile(data as never, { saveOutputs: () => true, maxSavedOutputBytes: () => 10 });
      assert.deepEqual(file.metadata, {}, 'a profile or deployment of the wrong type is not saved');
      assert.deepEqual(
        file.cells.map((c) => [c.kind, c.outputs]),
        [
          ['sql', [[{ mime: 'a', data: '12345' }]]],
          ['json', [[{ mime: 'c', data: '1234' }], [{ mime: 'd', data: '1' }]]],
          ['sql', undefined],
        ],
      );
      const tight = S.toFile(data as never, { saveOutputs: () => true, maxSavedOutputBytes: () => 4 });
      assert.deepEqual(
        tight.cells.map((c) => c.outputs),
        [undefined, [[{ mime: 'c', data: '1234' }]], undefined],
      );
    });

    it('reads its settings', () => {
      const s = S.settingsFromConfig();
      assert.deepEqual([s.saveOutputs(), s.maxSavedOutputBytes()], [false, 1_000_000]);
      hooks.config['dashboardPlatform.notebook.saveOutputs'] = true;
      hooks.config['dashboardPlatform.notebook.maxSavedOutputBytes'] = 5;
      assert.deepEqual([s.saveOutputs(), s.maxSavedOutputBytes()], [true, 5]);
    });

    it('refuses a file it cannot read (no editable notebook that a save would overwrite)', () => {
      const s = new S.DpnbSerializer({ saveOutputs: () => false, maxSavedOutputBytes: () => 0 });
      assert.throws(() => s.deserializeNotebook(enc.encode('{"version":1,"cells":[')));
    });
  });

  describe('registration', () => {
    function services() {
      const none = () => ({ dispose: () => undefined });
      return {
        context: { subscriptions: [] as unknown[] },
        log: {
          warn: () => undefined,
          error: () => undefined,
          debug: () => undefined,
          trace: () => undefined,
        },
        profiles: {
          active: () => ({ profile: { name: 'Sandbox' } }),
          get: () => undefined,
          onDidChangeActiveProfile: none,
          onDidChangeProfiles: none,
          onDidChangeSecrets: none,
        },
        modelBranch: { onDidRebuild: none },
        clients: {},
      };
    }

    it('registers the serializer (outputs transient unless saved) and loads the feature for a query notebook only', async () => {
      const s = services();
      const ds = I.register(s as never);
      const [type, , options] = hooks.serializers as [string, unknown, unknown];
      assert.equal(type, 'dashboard-platform-notebook');
      assert.deepEqual(options, { transientOutputs: true, transientDocumentMetadata: { execution: true } });
      assert.equal(s.context.subscriptions.length, 0, 'not loaded yet');
      for (const l of hooks.listeners.notebookOpen ?? [])
        l({ ...fakeNotebook(), notebookType: 'jupyter-notebook' });
      assert.equal(s.context.subscriptions.length, 0, 'another kind of notebook loads nothing');
      for (const l of hooks.listeners.notebookOpen ?? []) l(fakeNotebook());
      assert.ok(s.context.subscriptions.length > 0, 'loaded');
      assert.deepEqual(
        Object.keys(hooks.registered)
          .filter((k) => k.startsWith('dashboardPlatform.notebook.'))
          .sort(),
        [
          'dashboardPlatform.notebook.exportResults',
          'dashboardPlatform.notebook.new',
          'dashboardPlatform.notebook.selectDeployment',
          'dashboardPlatform.notebook.selectProfile',
        ],
      );
      // New Query Notebook: a title and the SQL, on the active profile and the deployment given.
      await hooks.registered['dashboardPlatform.notebook.new']!({
        sql: 'SELECT 2',
        title: 'Orders',
        deploymentId: 4,
      });
      const doc = hooks.opened[0] as { notebookType: string; data: { cells: unknown[]; metadata: unknown } };
      assert.equal(doc.notebookType, 'dashboard-platform-notebook');
      assert.deepEqual(JSON.parse(JSON.stringify(doc.data.cells)), [
        { kind: 1, value: '# Orders', languageId: 'markdown' },
        { kind: 2, value: 'SELECT 2', languageId: 'dashboard-platform-sql' },
      ]);
      assert.deepEqual(doc.data.metadata, { profile: 'Sandbox', deploymentId: 4 });
      await hooks.registered['dashboardPlatform.notebook.new']!();
      const plain = hooks.opened[1] as { data: { cells: { value: string }[]; metadata: unknown } };
      assert.deepEqual(
        plain.data.cells.map((c) => c.value),
        ['# Query notebook', 'SELECT 1'],
      );
      assert.deepEqual(plain.data.metadata, { profile: 'Sandbox' });
      for (const d of ds) d.dispose();
    });

    it('loads at once when a query notebook is already open, and saves outputs when set to', () => {
      hooks.notebookDocuments = [fakeNotebook()];
      hooks.config['dashboardPlatform.notebook.saveOutputs'] = true;
      const s = services();
      I.register(s as never);
      assert.ok(s.context.subscriptions.length > 0);
      assert.deepEqual((hooks.serializers as unknown[])[2], {
        transientOutputs: false,
        transientDocumentMetadata: { execution: true },
      });
    });
  });

  describe("the renderer's chart choice, saved with the cell", () => {
    const columns = [
      { name: 'status', kind: 'string' },
      { name: 'count', kind: 'number' },
    ];
    function setUp(cellMeta: Record<string, unknown> = {}) {
      const warned: string[] = [];
      Ch.registerChartMessages({ warn: (m) => warned.push(m) });
      const messaging = hooks.rendererMessaging.at(-1) as {
        id: string;
        posted: { msg: unknown }[];
        listener: (e: { editor: unknown; message: unknown }) => Promise<void>;
      };
      const nb: FakeNotebook = fakeNotebook({}, [{ text: 'SELECT 0' }, { metadata: cellMeta }]);
      nb.cells[1]!.outputs = [
        { metadata: { outputKey: 'other' }, items: [] },
        {
          metadata: { outputKey: 'k1' },
          items: [{ mime: RESULT_MIME, data: enc.encode(JSON.stringify({ columns, rows: [] })) }],
        },
      ];
      const editor = { notebook: nb };
      const send = (message: unknown) => messaging.listener({ editor, message });
      return { messaging, nb, editor, send, warned };
    }

    it('stores a valid choice in the cell and opens it on the chart', async () => {
      const { messaging, nb, send } = setUp({ keep: 1 });
      assert.equal(messaging.id, 'dashboard-platform-result-renderer');
      await send({
        type: 'chart',
        outputKey: 'k1',
        chart: { type: 'bar', x: 'status', y: ['count', 'nope'] },
      });
      assert.deepEqual(hooks.edits, [
        [
          nb.uri,
          [
            {
              type: 'cellMetadata',
              index: 1,
              metadata: { keep: 1, chart: { type: 'bar', x: 'status', y: ['count'] }, view: 'chart' },
            },
          ],
        ],
      ]);
    });

    it('ignores what does not fit: no key, an unknown key, another type, a choice of other columns', async () => {
      const { send, messaging } = setUp();
      await send({ type: 'chart', chart: { type: 'bar', x: 'status', y: ['count'] } });
      await send({ type: 'chart', outputKey: 'nope', chart: { type: 'bar', x: 'status', y: ['count'] } });
      await send({ type: 'chart', outputKey: 'other', chart: { type: 'bar', x: 'status', y: ['count'] } });
      await send({ type: 'chart', outputKey: 'k1', chart: { type: 'bar', x: 'missing', y: ['count'] } });
      await send({ type: 'zoom', outputKey: 'k1', chart: { type: 'bar', x: 'status', y: ['count'] } });
      await send(undefined);
      assert.deepEqual(hooks.edits, []);
      assert.deepEqual(messaging.posted, []);
    });

    it('says when the choice could not be saved', async () => {
      const { send, warned } = setUp();
      hooks.applyResult = false;
      await send({ type: 'chart', outputKey: 'k1', chart: { type: 'line', x: 'status', y: ['count'] } });
      assert.deepEqual(warned, ['The chart choice could not be saved in the cell.']);
    });

    it('answers hello with the saved choice, when there is a valid one', async () => {
      const { send, messaging, editor } = setUp({ chart: { type: 'line', x: 'status', y: ['count'] } });
      await send({ type: 'hello', outputKey: 'k1' });
      assert.deepEqual(messaging.posted, [
        {
          msg: { type: 'chart', outputKey: 'k1', chart: { type: 'line', x: 'status', y: ['count'] } },
          editor,
        },
      ]);
      const other = setUp({ chart: { type: 'line', x: 'gone', y: ['count'] } });
      await other.send({ type: 'hello', outputKey: 'k1' });
      assert.deepEqual(other.messaging.posted, []);
    });
  });

  describe('Export Results against the sandbox', () => {
    let sb: SandboxHandle;
    let data: DataClient;
    let dir: string;
    before(async () => {
      sb = await startSandbox({ rows: 30, continueWaitMs: 300, aiEventDelayMs: 2, dbtStepMs: 50 });
      data = new DataClient({
        baseUrl: sb.urls.dataApi,
        token: async () => sb.tokens.dataApi,
        cacheKey: 'nb-export',
      });
      dir = fs.mkdtempSync(path.join(os.tmpdir(), 'dp-nb-export-'));
    });
    after(async () => {
      await data.close?.();
      await sb.close();
      fs.rmSync(dir, { recursive: true, force: true });
    });

    const Uri = () => fake.load<{ Uri: { file(p: string): unknown } }>('vscode').Uri;

    it('writes every row of a SQL cell to the file picked, says how many, and opens it on request', async () => {
      const nb = fakeNotebook(
        {},
        [{ text: 'SELECT id FROM orders LIMIT 12' }],
        'file:///work/sales/Q3 Report.dpnb',
      );
      const file = path.join(dir, 'q.csv');
      const dialogs: Record<string, unknown>[] = [];
      hooks.saveDialog = (o) => (dialogs.push(o), Uri().file(file));
      hooks.answer.info = 'Open';
      hooks.activeNotebookEditor = { notebook: nb, selection: { start: 0 } };
      const asked: unknown[] = [];
      const got = await E.exportResultsCommand(async (n) => (asked.push(n), data));
      assert.deepEqual(got, { rows: 12, file });
      assert.deepEqual(asked, [nb]);
      const lines = fs.readFileSync(file, 'utf8').split('\r\n');
      assert.equal(lines[0], 'id');
      assert.equal(lines.length, 14, 'header, 12 rows, end');
      const d = dialogs[0]! as {
        defaultUri: { path: string };
        filters: unknown;
        title: string;
        saveLabel: string;
      };
      assert.match(d.defaultUri.path, /^\/work\/sales\/q3-report-cell-1-orders-\d{4}-\d{2}-\d{2}\.csv$/);
      assert.deepEqual(
        [d.filters, d.title, d.saveLabel],
        [{ CSV: ['csv'], JSON: ['json'] }, 'Export the full result', 'Export'],
      );
      await flush();
      assert.deepEqual(hooks.shown, [
        { kind: 'info', message: 'Exported 12 rows to q.csv.', actions: ['Open', 'Reveal in Explorer'] },
      ]);
      assert.deepEqual(
        hooks.commands.map((c) => c.id),
        ['vscode.open'],
      );
      assert.ok(hooks.statusMessages.includes('progress: 12 rows written'));
    });

    it('a JSON cell exports as JSON when the file is .json; Reveal shows it in the explorer', async () => {
      const nb = fakeNotebook(
        {},
        [{ languageId: 'json', text: '{"measures":["orders.count"],"dimensions":["orders.status"]}' }],
        'untitled://Untitled-1',
      );
      hooks.workspaceFolders = [{ uri: { scheme: 'file', path: '/ws' } }];
      const file = path.join(dir, 'Q.JSON');
      let defaultUri: { path: string } | undefined;
      hooks.saveDialog = (o) => ((defaultUri = o.defaultUri as { path: string }), Uri().file(file));
      hooks.answer.info = 'Reveal in Explorer';
      const got = await E.exportResultsCommand(async () => data, { cell: nb.cells[0] as never });
      const rows = JSON.parse(fs.readFileSync(file, 'utf8')) as Record<string, unknown>[];
      assert.equal(got?.rows, rows.length);
      assert.deepEqual(Object.keys(rows[0]!), ['orders.status', 'orders.count']);
      assert.match(String(defaultUri?.path), /^\/ws\/untitled-1-cell-1-orders-\d{4}-\d{2}-\d{2}\.csv$/);
      await flush();
      assert.deepEqual(
        hooks.commands.map((c) => c.id),
        ['revealInExplorer'],
      );
    });

    it('a given file and format skip the dialog; no folder and no dialog answer export nothing', async () => {
      const nb = fakeNotebook({}, [{ text: 'SELECT id FROM orders LIMIT 2' }], 'untitled://u');
      const file = path.join(dir, 'given.txt');
      const got = await E.exportResultsCommand(async () => data, {
        cell: nb.cells[0] as never,
        uri: Uri().file(file) as never,
        format: 'json',
      });
      assert.deepEqual(got, { rows: 2, file });
      assert.equal((JSON.parse(fs.readFileSync(file, 'utf8')) as unknown[]).length, 2);
      let opts: Record<string, unknown> | undefined;
      hooks.saveDialog = (o) => ((opts = o), undefined);
      const none = await E.exportResultsCommand(async () => assert.fail('no client without a file'), {
        cell: nb.cells[0] as never,
      });
      assert.equal(none, undefined);
      assert.equal(opts?.defaultUri, undefined, 'no folder: no default place');
    });

    it('refuses without a code cell', async () => {
      await assert.rejects(
        E.exportResultsCommand(async () => data),
        /^Error: Select a SQL or JSON query cell to export\.$/,
      );
      const md = fakeNotebook({}, [{ kind: 1, text: '# x' }]);
      hooks.activeNotebookEditor = { notebook: md, selection: { start: 0 } };
      await assert.rejects(
        E.exportResultsCommand(async () => data),
        /Select a SQL or JSON query cell/,
      );
    });
  });
});
