// Reports as code in plain Node with the dashboards' stand-in for `vscode`: the report picker
// (reportPicker.ts: the list sorted by name, the current report marked and preselected, the server
// searched as the user types, a failed list said in the box, a stale answer dropped, Enter and
// Escape) and Push Report (reportFlows.ts: the exact upsert by public id, created/updated/unchanged
// said as the answer tells, the diff and the modal before an overwrite, declined sends nothing, a
// file without a publicId given a minted one first, refusals, the upsert's conflicts explained).
import assert from 'node:assert/strict';
import { ApiError } from '../../../src/api/errors';
import type * as PickerModule from '../../../src/dashboards/reportPicker';
import type * as ReportFlowsModule from '../../../src/dashboards/reportFlows';
import type { Services } from '../../../src/services';
import { recordingClient } from '../featureHarness';
import { memento, useDashStandIn, type FakeQuickPick } from './dashStandIn';

type Uri = { toString(): string; path: string };

/** A promise settled from outside (a list answer the test releases). */
function deferred<T>() {
  let resolve!: (v: T) => void;
  let reject!: (e: unknown) => void;
  const promise = new Promise<T>((res, rej) => ((resolve = res), (reject = rej)));
  return { promise, resolve, reject };
}

const flush = () => new Promise<void>((r) => setImmediate(r));

describe('dashboards: the report picker and Push Report', () => {
  const { sink, reset } = useDashStandIn();
  let picker: typeof PickerModule;
  let flowsMod: typeof ReportFlowsModule;
  let vs: { Uri: { file(p: string): Uri } };

  before(() => {
    /* eslint-disable @typescript-eslint/no-require-imports */
    picker = require('../../../src/dashboards/reportPicker') as typeof PickerModule;
    flowsMod = require('../../../src/dashboards/reportFlows') as typeof ReportFlowsModule;
    vs = require('vscode') as typeof vs;
    /* eslint-enable @typescript-eslint/no-require-imports */
  });

  describe('the report picker', () => {
    const REPORTS = [
      { id: 3, name: 'churn', title: 'Churn by Channel' },
      { id: 5, name: 'orders', title: 'orders' },
      { id: 8, name: 'revenue' },
    ];

    /** Each listReports call waits for the test to answer it. */
    function world() {
      reset();
      const answers: ReturnType<typeof deferred<unknown>>[] = [];
      const called: (() => void)[] = [];
      const rec = recordingClient({
        listReports: () => {
          const d = deferred<unknown>();
          answers.push(d);
          called.shift()?.();
          return d.promise;
        },
      });
      const warnings: string[] = [];
      const services = {
        clients: { platform: async () => rec.client },
        log: { warn: (m: string) => void warnings.push(m) },
      } as unknown as Services;
      /** Resolves once listReports has been called `n` times in all. */
      const calls = async (n: number) => {
        while (rec.calls.length < n) await new Promise<void>((r) => called.push(r));
      };
      return { rec, answers, warnings, services, calls };
    }

    const open = async (w: ReturnType<typeof world>, current?: number) => {
      const picked = picker.pickReport(w.services, 7, {
        title: 'Report of widget w1',
        ...(current !== undefined ? { current } : {}),
      });
      await w.calls(1);
      return { picked, qp: sink.quickPicks[0]! as FakeQuickPick };
    };

    it('lists the reports by name, the current one marked and preselected; Enter takes it', async () => {
      const w = world();
      const { picked, qp } = await open(w, 5);
      assert.equal(qp.title, 'Report of widget w1');
      assert.equal(qp.matchOnDescription, true);
      assert.equal(qp.shown, true);
      assert.equal(qp.busy, true, 'busy while the list loads');
      assert.deepEqual(
        w.rec.calls.map((c) => c.args),
        [[7, { first: 100, sortBy: 'name' }]],
      );
      w.answers[0]!.resolve({ items: REPORTS, pageInfo: { hasNextPage: false } });
      await flush();
      assert.deepEqual(qp.items, [
        { id: 3, label: 'Churn by Channel', description: 'churn · id 3' },
        { id: 5, label: 'orders', description: 'id 5', detail: 'Current report' },
        { id: 8, label: 'revenue', description: 'id 8' },
      ]);
      assert.deepEqual(qp.activeItems, [qp.items[1]]);
      assert.equal(qp.busy, false);
      assert.deepEqual(qp.placeholders, [
        'Type to search the reports by name',
        'Type to search the reports by name',
      ]);
      qp.accept();
      assert.deepEqual(await picked, { id: 5, name: 'orders' });
      assert.equal(qp.disposed, true);
    });

    it('a longer list says it shows the first page; the selected row wins over the active one', async () => {
      const w = world();
      const { picked, qp } = await open(w);
      w.answers[0]!.resolve({ items: REPORTS, pageInfo: { hasNextPage: true } });
      await flush();
      assert.equal(qp.placeholder, 'Type to search the reports by name (first 3; type to narrow)');
      assert.deepEqual(qp.activeItems, [], 'no current report, nothing preselected');
      qp.activeItems = [qp.items[0]];
      qp.selectedItems = [qp.items[2]];
      qp.accept();
      assert.deepEqual(await picked, { id: 8, name: 'revenue' });
    });

    it('typing searches the server (trimmed); no match is said; the current report is not preselected once typed', async () => {
      const w = world();
      const { picked, qp } = await open(w, 8);
      w.answers[0]!.resolve({ items: REPORTS });
      await flush();
      qp.type('  zzz ');
      await w.calls(2);
      assert.deepEqual(w.rec.calls[1]!.args, [7, { first: 100, sortBy: 'name', search: 'zzz' }]);
      assert.equal(qp.busy, true);
      w.answers[1]!.resolve({ items: [] });
      await flush();
      assert.equal(qp.placeholder, 'No report matches "zzz"');
      assert.deepEqual(qp.items, []);
      qp.type('rev');
      await w.calls(3);
      qp.activeItems = [];
      w.answers[2]!.resolve({ items: [REPORTS[2]] });
      await flush();
      assert.deepEqual(qp.items, [
        { id: 8, label: 'revenue', description: 'id 8', detail: 'Current report' },
      ]);
      assert.deepEqual(qp.activeItems, [], 'Enter takes the first match, not the old report');
      qp.hide();
      assert.equal(await picked, undefined, 'Escape picks nothing');
    });

    it('an answer overtaken by a later search is dropped (its items, its error and its busy state)', async () => {
      const w = world();
      const { picked, qp } = await open(w);
      qp.type('or');
      await w.calls(2);
      w.answers[1]!.resolve({ items: [REPORTS[1]] });
      await flush();
      assert.deepEqual(
        qp.items.map((i) => i.label),
        ['orders'],
      );
      w.answers[0]!.resolve({ items: REPORTS });
      await flush();
      assert.deepEqual(
        qp.items.map((i) => i.label),
        ['orders'],
        'the first, slower answer is stale',
      );
      qp.type('x');
      await w.calls(3);
      qp.type('y');
      await w.calls(4);
      w.answers[2]!.reject(new Error('stale failure'));
      await flush();
      assert.deepEqual(w.warnings, []);
      assert.equal(qp.busy, true, 'still loading the latest');
      w.answers[3]!.resolve({ items: [] });
      await flush();
      assert.equal(qp.busy, false);
      qp.hide();
      assert.equal(await picked, undefined);
    });

    it('a list that fails is said in the box and logged; Enter on nothing picks nothing', async () => {
      const w = world();
      const { picked, qp } = await open(w);
      w.answers[0]!.reject(new Error('The server answered 503.'));
      await flush();
      assert.equal(qp.placeholder, 'Could not list the reports: The server answered 503.');
      assert.deepEqual(qp.items, []);
      assert.equal(qp.busy, false);
      assert.deepEqual(w.warnings, ['Report picker: The server answered 503.']);
      qp.accept();
      assert.equal(qp.disposed, false, 'still open');
      qp.hide();
      assert.equal(await picked, undefined);
      assert.equal(qp.disposed, true);
    });
  });

  describe('Push Report', () => {
    const FILE = '/ws/revenue.report.json';
    const PUBLIC = 'AbCdEfGh1234';
    const fileText = (o: Record<string, unknown> = {}) =>
      `${JSON.stringify({ publicId: PUBLIC, name: 'Revenue', sqlQuery: 'select 1', ...o }, null, 2)}\n`;

    interface Setup {
      text?: string;
      /** The report already holding the public id on the server. */
      before?: Record<string, unknown>;
      answer?: Record<string, unknown>;
      upsert?: () => unknown;
      deployment?: () => unknown;
      remembered?: number;
    }

    function setup(o: Setup = {}) {
      reset();
      const uri = vs.Uri.file(FILE);
      sink.docs.set(String(uri), {
        text: o.text ?? fileText(),
        isDirty: false,
        saves: 0,
        languageId: 'json',
      });
      const rec = recordingClient({
        getDeployment: o.deployment ?? (async (d: number) => ({ id: d, name: 'Staging' })),
        listDeployments: async () => ({
          items: [
            { id: 7, name: 'Staging' },
            { id: 9, name: 'Prod' },
          ],
        }),
        listReports: async () => ({ items: o.before ? [{ ...o.before }] : [] }),
        getReport: async () => ({ ...o.before }),
        upsertReportByPublicId:
          o.upsert ??
          (async (_d: number, publicId: string, body: Record<string, unknown>) => ({
            id: 77,
            publicId,
            ...body,
            ...o.answer,
          })),
      });
      const workspaceState = memento();
      if (o.remembered !== undefined)
        workspaceState.data['dashboardPlatform.reports.files'] = { [String(uri)]: o.remembered };
      const logs: string[] = [];
      const services = {
        context: { workspaceState, globalState: memento() },
        log: { info: (m: string) => void logs.push(m), warn: (m: string) => void logs.push(m) },
        clients: { platform: async () => rec.client },
      } as unknown as Services;
      const saved: string[] = [];
      const flows = new flowsMod.ReportFlows(services, async (doc) => void saved.push(String(doc.uri)));
      const sent = () =>
        rec.calls.filter((c) => c.name === 'upsertReportByPublicId').map((c) => c.args.slice(0, 3));
      return { uri, rec, flows, logs, saved, sent, workspaceState };
    }

    it('a new report: created with exactly the file’s report fields, said with its publicId; the deployment remembered', async () => {
      const s = setup({ text: fileText({ notes: 'mine', owner: 'me' }) });
      const result = await s.flows.push({ uri: FILE, deploymentId: 7 });
      assert.equal(result?.outcome, 'created');
      assert.deepEqual(s.sent(), [[7, PUBLIC, { publicId: PUBLIC, name: 'Revenue', sqlQuery: 'select 1' }]]);
      assert.ok(s.rec.calls.find((c) => c.name === 'upsertReportByPublicId')!.args[3] instanceof AbortSignal);
      assert.deepEqual(sink.info, [
        `Report "Revenue" created on "Staging" (publicId ${PUBLIC}). Not sent (not report fields): notes, owner.`,
      ]);
      assert.deepEqual(sink.warnings, [], 'nothing to overwrite, nothing asked');
      assert.deepEqual(s.saved, [`file://${FILE}`], 'saved first');
      assert.deepEqual(s.workspaceState.data['dashboardPlatform.reports.files'], { [`file://${FILE}`]: 7 });
      assert.deepEqual(s.logs, [`Pushed ${FILE} to "Staging": created (report 77).`]);
      assert.deepEqual(sink.progress, [
        { location: 15, title: 'Pushing revenue.report.json…', cancellable: true },
      ]);
    });

    const outcomes: { name: string; answer: Record<string, unknown>; outcome: string; told: string }[] = [
      {
        name: 'the same report, its updatedAt moved: updated',
        answer: { id: 40, updatedAt: '2026-11-28T10:00:00Z' },
        outcome: 'updated',
        told: 'Report "Revenue" updated on "Staging".',
      },
      {
        name: 'the same report, its updatedAt unchanged: already as the file says',
        answer: { id: 40, updatedAt: '2026-11-01T10:00:00Z' },
        outcome: 'unchanged',
        told: 'Report "Revenue" on "Staging" was already as the file says.',
      },
    ];
    for (const c of outcomes)
      it(`an existing report, confirmed: ${c.name}`, async () => {
        const s = setup({
          before: {
            id: 40,
            publicId: PUBLIC,
            name: 'Revenue',
            sqlQuery: 'select 0',
            updatedAt: '2026-11-01T10:00:00Z',
          },
          answer: c.answer,
          remembered: 7,
        });
        const result = await s.flows.push({ uri: FILE, confirm: true });
        assert.equal(result?.outcome, c.outcome);
        assert.deepEqual(sink.info, [c.told]);
        assert.deepEqual(sink.warnings, [], '{confirm: true} asks nothing');
        assert.equal(s.sent().length, 1);
        assert.equal(
          s.rec.calls.filter((x) => x.name === 'listDeployments').length,
          0,
          'the remembered deployment',
        );
      });

    it('an overwrite: the diff opened and a modal naming the changes; declined sends nothing', async () => {
      for (const answer of [undefined, 'Push Report']) {
        const s = setup({
          before: { id: 40, publicId: PUBLIC, name: 'Revenue', sqlQuery: 'select 0' },
          remembered: 7,
        });
        sink.warnAnswer = answer;
        const result = await s.flows.push(vs.Uri.file(FILE) as never);
        assert.deepEqual(sink.warnings, [
          { message: 'Overwrite the report "Revenue" on "Staging" with revenue.report.json?', modal: true },
        ]);
        const diff = sink.commands.filter((c) => c.id === 'vscode.diff');
        assert.equal(diff.length, 1);
        assert.equal(String(diff[0]!.args[1]), `file://${FILE}`);
        assert.equal(diff[0]!.args[2], `"Revenue" on "Staging" ↔ revenue.report.json`);
        assert.deepEqual(s.flows.lastCompare?.changes, ['sqlQuery']);
        assert.deepEqual(sink.warningDetails, [
          'Changes: sqlQuery (the diff is open). Everyone who uses the report sees them.',
        ]);
        if (answer === undefined) {
          assert.equal(result, undefined);
          assert.deepEqual(s.sent(), []);
          assert.deepEqual(sink.info, []);
        } else {
          assert.equal(result?.outcome, 'created', 'the answer’s id differs from the report before');
          assert.deepEqual(s.sent(), [
            [7, PUBLIC, { publicId: PUBLIC, name: 'Revenue', sqlQuery: 'select 1' }],
          ]);
        }
      }
    });

    it('nothing to push when the server’s report already matches: said, nothing sent', async () => {
      const s = setup({
        before: { id: 40, publicId: PUBLIC, name: 'Revenue', sqlQuery: 'select 1' },
        remembered: 7,
      });
      const result = await s.flows.push({ uri: FILE });
      assert.equal(result?.outcome, 'unchanged');
      assert.deepEqual(s.sent(), []);
      assert.deepEqual(sink.info, [
        'Nothing to push: the report "Revenue" on "Staging" already matches revenue.report.json.',
      ]);
    });

    it('no publicId: asked in a modal; declined changes nothing; accepted, one is minted into the file and pushed', async () => {
      const text = `${JSON.stringify({ name: 'Revenue', sqlQuery: 'select 1' }, null, 2)}\n`;
      const d = setup({ text });
      assert.equal(await d.flows.push({ uri: FILE, deploymentId: 7 }), undefined);
      assert.deepEqual(d.sent(), []);
      assert.deepEqual(sink.edits, []);
      assert.deepEqual(sink.warnings, [
        { message: "revenue.report.json has no publicId, the report's identity for pushes.", modal: true },
      ]);
      const a = setup({ text });
      sink.warnAnswer = 'Add a publicId and Push';
      await a.flows.push({ uri: FILE, deploymentId: 7 });
      const written = JSON.parse(sink.docs.get(`file://${FILE}`)!.text) as { publicId: string };
      assert.match(written.publicId, /^[0-9A-Za-z]{12}$/);
      assert.deepEqual(
        Object.keys(written),
        ['publicId', 'name', 'sqlQuery'],
        'the id first, the rest as it was',
      );
      assert.deepEqual(a.sent(), [
        [7, written.publicId, { publicId: written.publicId, name: 'Revenue', sqlQuery: 'select 1' }],
      ]);
      assert.deepEqual(
        a.saved,
        [`file://${FILE}`, `file://${FILE}`],
        'saved before, and again after the id went in',
      );
      const c = setup({ text });
      await c.flows.push({ uri: FILE, deploymentId: 7, confirm: true });
      assert.deepEqual(sink.warnings, [], '{confirm: true} mints without asking');
      assert.equal(c.sent().length, 1);
    });

    it('an id edit VS Code refuses stops the push', async () => {
      const s = setup({ text: '{"name":"Revenue"}' });
      sink.applyEditAnswer = false;
      await assert.rejects(s.flows.push({ uri: FILE, deploymentId: 7, confirm: true }), {
        message: 'VS Code refused the edit of the file.',
      });
      assert.deepEqual(s.sent(), []);
    });

    const refusals: { name: string; arg: unknown; text?: string; message: string }[] = [
      {
        name: 'not a report file',
        arg: { uri: '/ws/revenue.json' },
        message: 'Open a *.report.json file first (Pull Report to File… makes one).',
      },
      {
        name: 'no file and no active editor',
        arg: undefined,
        message: 'Open a *.report.json file first (Pull Report to File… makes one).',
      },
      {
        name: 'invalid JSON',
        arg: { uri: FILE },
        text: '{ nope',
        message: 'Report not pushed: revenue.report.json: the file is not valid JSON',
      },
      {
        name: 'a bad publicId',
        arg: { uri: FILE },
        text: '{"publicId": "short"}',
        message:
          'Report not pushed: revenue.report.json: publicId "short" is not a public id: it must be 12 letters or digits.',
      },
    ];
    for (const r of refusals)
      it(`refused: ${r.name}; nothing sent`, async () => {
        const s = setup({ text: r.text });
        const e = (await s.flows.push(r.arg).then(
          () => assert.fail('not refused'),
          (x: unknown) => x,
        )) as Error;
        assert.equal(e.message.startsWith(r.message), true, e.message);
        assert.deepEqual(s.sent(), []);
        assert.deepEqual(sink.info, []);
      });

    it('the active editor’s report file is pushed when no file is given; a deployment without a name is named by id', async () => {
      const s = setup({ deployment: async () => ({ id: 9 }) });
      sink.activeEditor = FILE;
      sink.pickAnswers = [1];
      await s.flows.push();
      assert.deepEqual(
        sink.picks.map((p) => p.title),
        ['Deployment to push the report to'],
      );
      assert.deepEqual(s.sent(), [[9, PUBLIC, { publicId: PUBLIC, name: 'Revenue', sqlQuery: 'select 1' }]]);
      assert.deepEqual(sink.info, [`Report "Revenue" created on deployment 9 (publicId ${PUBLIC}).`]);
    });

    const conflicts: { code?: string; message: RegExp }[] = [
      {
        code: 'upsert_branch_changed',
        message:
          /^Report not pushed: another push created or deleted the report with publicId AbCdEfGh1234 at the same moment/,
      },
      {
        code: 'ambiguous_legacy_id',
        message: /^Report not pushed: AbCdEfGh1234 is an id made up for older reports/,
      },
      { message: /^Report not pushed: the publicId AbCdEfGh1234 belongs to a report in another deployment/ },
    ];
    for (const c of conflicts)
      it(`a 409 ${c.code ?? 'without a code'} is explained; nothing remembered or said`, async () => {
        const s = setup({
          upsert: () => {
            throw new ApiError('conflict', 'Conflict', { status: 409, ...(c.code ? { code: c.code } : {}) });
          },
        });
        await assert.rejects(s.flows.push({ uri: FILE, deploymentId: 7 }), { message: c.message });
        assert.deepEqual(sink.info, []);
        assert.deepEqual(s.workspaceState.data, {});
      });

    it('another failure (an unknown outcome) is the transport’s own error; nothing remembered or said', async () => {
      const boom = new Error('The push may or may not have been applied: check the report.');
      const s = setup({
        upsert: () => {
          throw boom;
        },
      });
      await assert.rejects(s.flows.push({ uri: FILE, deploymentId: 7 }), boom);
      assert.deepEqual(sink.info, []);
      assert.deepEqual(s.workspaceState.data, {});
    });
  });
  describe('Pull Report to File', () => {
    const REPORT = { id: 40, publicId: 'AbCdEfGh1234', name: 'Revenue', sqlQuery: 'select 1', folderId: 3 };
    const TARGET = '/ws/revenue.report.json';

    function setup(o: { existing?: string; dirty?: boolean; deployment?: () => unknown } = {}) {
      reset();
      if (o.existing !== undefined)
        sink.docs.set(`file://${TARGET}`, {
          text: o.existing,
          isDirty: o.dirty === true,
          saves: 0,
          languageId: 'json',
        });
      const rec = recordingClient({
        getReport: async () => ({ ...REPORT }),
        getDeployment: o.deployment ?? (async (d: number) => ({ id: d, name: 'Staging' })),
        listDeployments: async () => ({ items: [{ id: 7, name: 'Staging' }] }),
      });
      const workspaceState = memento();
      const logs: string[] = [];
      const services = {
        context: { workspaceState, globalState: memento() },
        log: { info: (m: string) => void logs.push(m), warn: (m: string) => void logs.push(m) },
        clients: { platform: async () => rec.client },
      } as unknown as Services;
      const flows = new flowsMod.ReportFlows(services, async () => undefined);
      return { rec, flows, logs, workspaceState };
    }
    const pulled = `${JSON.stringify({ publicId: 'AbCdEfGh1234', name: 'Revenue', sqlQuery: 'select 1' }, null, 2)}\n`;

    it('a report row into a new file: exactly its report fields written, opened as JSON, said; the deployment remembered', async () => {
      const s = setup();
      const target = await s.flows.pull({
        kind: 'report',
        deploymentId: 7,
        data: { id: 40 },
        target: '/ws/revenue',
      });
      assert.equal(String(target), `file://${TARGET}`, 'the report file suffix added');
      assert.deepEqual(
        s.rec.calls.map((c) => [c.name, ...c.args]),
        [
          ['getReport', 7, 40],
          ['getDeployment', 7],
        ],
      );
      assert.deepEqual(sink.written, [{ uri: `file://${TARGET}`, text: pulled }]);
      assert.deepEqual(sink.shown, [{ uri: `file://${TARGET}`, languageId: 'json', preview: false }]);
      assert.deepEqual(sink.info, [
        'Report "Revenue" pulled into revenue.report.json. Push Report sends your edits back.',
      ]);
      assert.deepEqual(s.workspaceState.data['dashboardPlatform.reports.files'], { [`file://${TARGET}`]: 7 });
      assert.deepEqual(s.logs, [`Pulled report 40 ("Staging") into ${TARGET}`]);
      assert.deepEqual(sink.warnings, [], 'nothing overwritten, nothing asked');
    });

    it('the save dialog: its title, label, filter and default name; dismissed writes nothing', async () => {
      for (const answer of [undefined, '/ws/picked.json']) {
        const s = setup();
        sink.workspaceFolder = '/ws';
        sink.saveAnswer = answer;
        const target = await s.flows.pull({ deploymentId: 7, reportId: 40 });
        const dialog = sink.saveDialogs[0] as {
          title: string;
          saveLabel: string;
          filters: unknown;
          defaultUri: unknown;
        };
        assert.equal(dialog.title, 'Save the report "Revenue" as a file');
        assert.equal(dialog.saveLabel, 'Save Report');
        assert.deepEqual(dialog.filters, { 'Report JSON': ['json'] });
        assert.equal(String(dialog.defaultUri), 'file:///ws/revenue.report.json');
        if (answer === undefined) {
          assert.equal(target, undefined);
          assert.deepEqual(sink.written, []);
          assert.deepEqual(s.workspaceState.data, {});
        } else {
          assert.equal(String(target), 'file:///ws/picked.report.json');
          assert.deepEqual(
            sink.written.map((w) => w.uri),
            ['file:///ws/picked.report.json'],
          );
        }
      }
    });

    it('over an existing file that differs: the diff and a modal naming the changes and the kept fields; declined writes nothing', async () => {
      const existing = `${JSON.stringify({ notes: 'mine', publicId: 'AbCdEfGh1234', name: 'Revenue', sqlQuery: 'select 0' }, null, 2)}\n`;
      for (const answer of [undefined, 'Overwrite File']) {
        const s = setup({ existing });
        sink.warnAnswer = answer;
        const target = await s.flows.pull({ deploymentId: 7, reportId: 40, target: TARGET });
        assert.deepEqual(sink.warnings, [
          { message: 'Overwrite revenue.report.json with the report "Revenue" from "Staging"?', modal: true },
        ]);
        assert.deepEqual(sink.warningDetails, [
          'Changes: sqlQuery (the diff is open). Kept as they are (not report fields): notes.',
        ]);
        assert.deepEqual(s.flows.lastCompare?.changes, ['sqlQuery']);
        const diff = sink.commands.filter((c) => c.id === 'vscode.diff');
        assert.equal(diff[0]!.args[2], 'revenue.report.json ↔ "Revenue" on "Staging"');
        if (answer === undefined) {
          assert.equal(target, undefined);
          assert.deepEqual(sink.written, []);
        } else {
          assert.deepEqual(sink.written, [
            {
              uri: `file://${TARGET}`,
              text: `${JSON.stringify({ notes: 'mine', publicId: 'AbCdEfGh1234', name: 'Revenue', sqlQuery: 'select 1' }, null, 2)}\n`,
            },
          ]);
        }
      }
    });

    it('a file that already matches: said, shown, not written', async () => {
      const s = setup({ existing: pulled });
      const target = await s.flows.pull({ deploymentId: 7, reportId: 40, target: TARGET });
      assert.equal(String(target), `file://${TARGET}`);
      assert.deepEqual(sink.info, ['revenue.report.json already matches "Revenue" on "Staging".']);
      assert.deepEqual(sink.written, []);
      assert.deepEqual(
        sink.shown.map((x) => x.uri),
        [`file://${TARGET}`],
      );
    });

    const refusals: { name: string; existing: string; dirty?: boolean; message: string }[] = [
      {
        name: 'unsaved changes in the file',
        existing: pulled,
        dirty: true,
        message: 'revenue.report.json has unsaved changes: save or revert them, then pull again.',
      },
      {
        name: 'an unreadable file',
        existing: '[1, 2]',
        message:
          'Report not pulled: revenue.report.json was left as it is: the file must hold one JSON object with the report’s fields.',
      },
    ];
    for (const r of refusals)
      it(`refused: ${r.name}; nothing written`, async () => {
        const s = setup({ existing: r.existing, dirty: r.dirty });
        await assert.rejects(s.flows.pull({ deploymentId: 7, reportId: 40, target: TARGET, confirm: true }), {
          message: r.message,
        });
        assert.deepEqual(sink.written, []);
        assert.deepEqual(s.workspaceState.data, {});
      });

    it('{confirm: true} overwrites without asking; a deployment without a name is named by id', async () => {
      const s = setup({ existing: '{"name": "Old"}', deployment: async () => ({ id: 7 }) });
      await s.flows.pull({ deploymentId: 7, reportId: 40, target: TARGET, confirm: true });
      assert.deepEqual(sink.warnings, []);
      assert.deepEqual(
        sink.written.map((w) => w.text),
        [`${JSON.stringify({ name: 'Revenue', publicId: 'AbCdEfGh1234', sqlQuery: 'select 1' }, null, 2)}\n`],
        'the file’s own order kept',
      );
      assert.deepEqual(s.logs, [`Pulled report 40 (deployment 7) into ${TARGET}`]);
    });
  });
});
