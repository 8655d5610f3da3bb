// The notebook controller in plain Node (a stand-in for `vscode`), its cells run against the real
// sandbox over HTTP: what a SQL or JSON cell shows (outputs, row cap, totals), what an error shows
// in the cell (its name, the server's sentence, no credential), that a refused query sends nothing,
// that Cancel ends the cell as cancelled, and the profile a notebook runs on.
import assert from 'node:assert/strict';
import { DataClient } from '../../../src/api/dataClient';
import { ApiError } from '../../../src/api/errors';
import { forgetSecret, rememberSecret } from '../../../src/api/log';
import { startSandbox, type SandboxHandle } from '../../../src/sandbox';
import { ERROR_MIME, RESULT_MIME } from '../../../src/shared/notebookOutput';
import type * as ControllerModule from '../../../src/notebook/controller';
import {
  fakeNotebook,
  installVscodeFake,
  itemJson,
  itemText,
  type FakeCell,
  type VsHooks,
} from './vscodeFake';

const fast = { retries: 1, baseDelayMs: 1, maxDelayMs: 2 };

interface Output {
  items: { mime: string; data: Uint8Array; error?: Error }[];
  metadata?: Record<string, unknown>;
}

interface Exec {
  cell: FakeCell;
  executionOrder?: number;
  outputs: Output[];
  /** Every output the cell showed, in order (replaced or appended). */
  shown: Output[];
  started: boolean;
  ended?: { success: boolean | undefined };
  cancel(): void;
  token: { isCancellationRequested: boolean; onCancellationRequested(l: () => void): { dispose(): void } };
}

function newExecution(cell: FakeCell): Exec {
  const listeners: (() => void)[] = [];
  const e: Exec = {
    cell,
    outputs: [],
    shown: [],
    started: false,
    token: {
      isCancellationRequested: false,
      onCancellationRequested: (l) => (listeners.push(l), { dispose: () => undefined }),
    },
    cancel: () => {
      e.token.isCancellationRequested = true;
      for (const l of listeners) l();
    },
  };
  Object.assign(e, {
    start: () => (e.started = true),
    end: (success: boolean | undefined) => (e.ended = { success }),
    clearOutput: async () => void (e.outputs = []),
    replaceOutput: async (o: Output) => void ((e.outputs = [o]), e.shown.push(o)),
    appendOutput: async (o: Output) => void (e.outputs.push(o), e.shown.push(o)),
  });
  return e;
}

describe('notebook controller: cells against the sandbox', function () {
  this.timeout(60_000);
  let fake: ReturnType<typeof installVscodeFake>;
  let hooks: VsHooks;
  let C: typeof ControllerModule;
  let sb: SandboxHandle;
  let data: DataClient;
  const execs: Exec[] = [];
  /** DataClient calls the cells made (method names), and which client they asked for. */
  const calls: string[] = [];
  const asked: unknown[][] = [];
  let controller: InstanceType<typeof ControllerModule.QueryController>;
  let state: {
    active?: string;
    profiles: { name: string; defaultDeploymentId?: number }[];
    secrets: Set<string>;
  };

  before(async () => {
    fake = installVscodeFake();
    hooks = fake.hooks;
    C = fake.load<typeof ControllerModule>('../../../src/notebook/controller');
    // A slow query answers "Continue wait" every 100 ms for 1.5 s: several rounds whatever the load.
    sb = await startSandbox({
      rows: 50,
      continueWaitMs: 1500,
      continueWaitTimeoutMs: 100,
      aiEventDelayMs: 2,
    });
    data = new DataClient({
      baseUrl: sb.urls.dataApi,
      token: async () => sb.tokens.dataApi,
      retry: fast,
      cacheKey: 'nb-controller',
    });
  });
  after(async () => {
    await data.close?.();
    await sb.close();
    fake.uninstall();
  });

  beforeEach(() => {
    hooks.reset();
    execs.length = 0;
    calls.length = 0;
    asked.length = 0;
    sb.faults.clear();
    state = { active: 'Sandbox', profiles: [{ name: 'Sandbox' }, { name: 'Prod' }], secrets: new Set() };
    hooks.newExecution = (cell) => {
      const e = newExecution(cell as FakeCell);
      execs.push(e);
      return e;
    };
    const spy = new Proxy(data, {
      get(t, k, r) {
        const v = Reflect.get(t, k, r) as unknown;
        if (typeof v !== 'function') return v;
        return (...a: unknown[]) => (calls.push(String(k)), (v as (...x: unknown[]) => unknown).apply(t, a));
      },
    });
    const services = {
      profiles: {
        get: (n: string) => state.profiles.find((p) => p.name.toLowerCase() === n.toLowerCase()),
        active: () => (state.active ? { profile: { name: state.active } } : undefined),
        isSandbox: (n: string) => n === 'Sandbox',
        hasSecret: async (kind: string, n: string) => state.secrets.has(`${kind}:${n}`),
      },
      clients: {
        data: async (...a: unknown[]) => (asked.push(['data', ...a]), spy),
        devData: async (...a: unknown[]) => (asked.push(['devData', ...a]), spy),
      },
    };
    controller = new C.QueryController(services as never);
  });

  const run = async (nb: ReturnType<typeof fakeNotebook>) => {
    const handler = (
      controller.controller as unknown as { executeHandler(c: unknown[], n: unknown): Promise<void> }
    ).executeHandler;
    await handler(nb.cells, nb);
    return execs;
  };
  const result = (o: Output | undefined) => {
    const item = o?.items.find((i) => i.mime === RESULT_MIME);
    assert.ok(item, 'a result output');
    return itemJson<{
      source: string;
      columns: { name: string; title?: string; kind: string }[];
      rows: unknown[][];
      totalRows: number;
      capped: boolean;
      partial?: boolean;
      view?: string;
      chart?: unknown;
      outputKey?: string;
    }>(item);
  };
  const error = (o: Output | undefined) => {
    const err = o?.items.find((i) => i.mime === 'application/vnd.code.notebook.error')?.error;
    const payload = o?.items.find((i) => i.mime === ERROR_MIME);
    assert.ok(err && payload, 'an error output');
    return { name: err.name, message: err.message, stack: err.stack, payload: itemJson(payload) };
  };

  it('a SQL cell streams its rows into a table, with JSON and CSV copies, and ends as a success', async () => {
    const nb = fakeNotebook({}, [
      { text: 'SELECT status, MEASURE(count) AS n FROM orders GROUP BY 1 ORDER BY 1' },
    ]);
    const [e] = await run(nb);
    assert.equal(e!.started, true);
    assert.deepEqual(e!.ended, { success: true });
    assert.equal(e!.executionOrder, 1);
    assert.equal(e!.outputs.length, 1);
    const out = e!.outputs[0]!;
    assert.deepEqual(
      out.items.map((i) => i.mime),
      [RESULT_MIME, 'application/json', 'text/csv'],
    );
    const p = result(out);
    assert.equal(p.source, 'cubesql');
    assert.deepEqual(
      p.columns.map((c) => [c.name, c.kind]),
      [
        ['status', 'string'],
        ['n', 'number'],
      ],
    );
    assert.ok(p.rows.length >= 2);
    assert.equal(p.totalRows, p.rows.length);
    assert.equal(p.capped, false);
    assert.equal(p.partial, false);
    assert.match(String(p.outputKey), /^[0-9a-f-]{36}$/);
    assert.deepEqual(out.metadata, { rows: p.rows.length, totalRows: p.totalRows, outputKey: p.outputKey });
    const objects = itemJson<Record<string, unknown>[]>(out.items[1]!);
    assert.deepEqual(objects[0], { status: p.rows[0]![0], n: p.rows[0]![1] });
    const csv = itemText(out.items[2]!).split(/\r?\n/);
    assert.equal(csv[0], 'status,n');
    assert.equal(csv[1], `${String(p.rows[0]![0])},${String(p.rows[0]![1])}`);
    // The first chunk is shown at once as a partial table (the table alone), before the final one.
    const first = e!.shown[0]!;
    assert.equal(first.items.length, 1);
    assert.equal(result(first).partial, true);
    assert.deepEqual(calls, ['cubesql']);
  });

  it('keeps at most the row cap and counts every row; a cap below one is one', async () => {
    const nb = fakeNotebook({}, [{ text: 'SELECT id FROM orders LIMIT 7' }]);
    hooks.config['dashboardPlatform.notebook.rowCap'] = 3;
    let p = result((await run(nb))[0]!.outputs[0]);
    assert.deepEqual([p.rows.length, p.totalRows, p.capped], [3, 7, true]);
    execs.length = 0;
    hooks.config['dashboardPlatform.notebook.rowCap'] = 0;
    p = result((await run(nb))[0]!.outputs[0]);
    assert.deepEqual([p.rows.length, p.totalRows, p.capped], [1, 7, true]);
    assert.equal(C.rowCap(), 1);
    delete hooks.config['dashboardPlatform.notebook.rowCap'];
    assert.equal(C.rowCap(), 10_000);
  });

  it('a JSON cell is checked against the model, then loaded, titled and formatted', async () => {
    const nb = fakeNotebook({}, [
      { languageId: 'json', text: '{"measures":["orders.count"],"dimensions":["orders.status"]}' },
    ]);
    const [e] = await run(nb);
    assert.deepEqual(e!.ended, { success: true });
    assert.deepEqual(calls, ['meta', 'load']);
    const p = result(e!.outputs[0]);
    assert.equal(p.source, 'load');
    assert.deepEqual(
      p.columns.map((c) => c.name),
      ['orders.status', 'orders.count'],
    );
    assert.ok(p.rows.length >= 2);
    assert.equal(e!.outputs[0]!.items.length, 3);
  });

  it('a JSON cell says "Continue wait" while the query is prepared', async () => {
    const nb = fakeNotebook({}, [{ languageId: 'jsonc', text: '{"measures":["orders.slow_count"]}' }]);
    const [e] = await run(nb);
    assert.deepEqual(e!.ended, { success: true });
    const waits = e!.shown.map((o) => itemText(o.items[0]!)).filter((t) => t.startsWith('Continue wait'));
    assert.ok(waits.length >= 1, 'a Continue-wait line was shown');
    // Seconds, not milliseconds: well under a minute here.
    assert.match(
      waits[0]!,
      /^Continue wait: the query is still being prepared \(attempt \d+, \d{1,2}\.\d s\)…$/,
    );
    const waitOutputs = e!.shown.filter((o) => itemText(o.items[0]!).startsWith('Continue'));
    assert.ok(waitOutputs.length >= 1);
    assert.ok(waitOutputs.every((o) => o.items[0]!.mime === 'text/plain'));
    const elapsed = (result(e!.outputs[0]) as { elapsedMs?: number }).elapsedMs!;
    assert.ok(elapsed >= 0 && elapsed < 600_000, `elapsed ${elapsed} ms`);
    assert.ok(!/attempt 1,/.test(waits.join('\n')), 'the first attempt is not a wait');
    assert.equal(result(e!.outputs[0]).source, 'load');
  });

  it('a JSON cell that names an unknown member is refused before /v1/load, with the likely member', async () => {
    const nb = fakeNotebook({}, [{ languageId: 'json', text: '{"measures":["orders.cuont"]}' }]);
    const [e] = await run(nb);
    assert.deepEqual(e!.ended, { success: false });
    assert.deepEqual(calls, ['meta'], 'nothing loaded');
    const err = error(e!.outputs[0]);
    assert.equal(err.name, 'Query not sent');
    assert.equal(err.message, 'Unknown member "orders.cuont" in measures. Did you mean "orders.count"?');
    assert.equal(err.stack, undefined);
    assert.deepEqual(err.payload, { message: err.message, kind: 'validation' });
  });

  it('a cell that is not JSON says so and sends nothing', async () => {
    const nb = fakeNotebook({}, [{ languageId: 'json', text: '{"measures": [' }]);
    const [e] = await run(nb);
    assert.deepEqual(e!.ended, { success: false });
    assert.deepEqual(calls, []);
    const err = error(e!.outputs[0]);
    assert.equal(err.name, 'Error');
    assert.match(err.message, /^The cell is not valid JSON: /);
    assert.deepEqual(err.payload, { message: err.message });
  });

  it("a query the server refuses shows its status and the server's sentence in the cell", async () => {
    const nb = fakeNotebook({}, [{ text: 'SELECT nope FROM orders' }]);
    const [e] = await run(nb);
    assert.deepEqual(e!.ended, { success: false });
    const err = error(e!.outputs[0]);
    assert.match(err.name, /^Data API error 4\d\d$/);
    assert.equal(err.payload.status, Number(err.name.slice(-3)));
    assert.equal(typeof err.payload.kind, 'string');
    assert.ok(String(err.payload.message).length > 0);
  });

  it('errors in the cell never carry a credential, in the message or the request id', () => {
    const secret = 'tok-SECRET-abcdef-123456';
    rememberSecret(secret);
    try {
      const out = C.errorOutput(
        new ApiError('server', `failed with ${secret}`, {
          status: 502,
          requestId: `req-${secret}`,
          serverMessage: `upstream said ${secret}`,
        }),
      ) as unknown as Output;
      const err = error(out);
      assert.equal(err.name, 'Data API error 502');
      assert.equal(err.message, 'upstream said [REDACTED] (requestId req-[REDACTED])');
      assert.deepEqual(err.payload, {
        message: 'upstream said [REDACTED]',
        requestId: 'req-[REDACTED]',
        kind: 'server',
        status: 502,
      });
      const plain = error(C.errorOutput(new Error(`bad ${secret}`)) as unknown as Output);
      assert.deepEqual([plain.name, plain.message], ['Error', 'bad [REDACTED]']);
      const text = error(C.errorOutput(`raw ${secret}`) as unknown as Output);
      assert.equal(text.message, 'raw [REDACTED]');
      // Without a server sentence, or for a query problem, the client's own sentence is shown.
      const own = error(
        C.errorOutput(new ApiError('network', 'The Data API could not be reached.')) as unknown as Output,
      );
      assert.deepEqual(
        [own.name, own.message, own.payload],
        [
          'Data API error',
          'The Data API could not be reached.',
          { message: 'The Data API could not be reached.', kind: 'network' },
        ],
      );
    } finally {
      forgetSecret(secret);
    }
  });

  it('Cancel ends the cell as cancelled (neither success nor failure) and says so', async () => {
    sb.faults.add({ family: 'data', route: 'cubesql', latencyMs: 20_000 });
    const nb = fakeNotebook({}, [{ text: 'SELECT status FROM orders' }]);
    const running = run(nb);
    while (execs.length === 0 || calls.length === 0) await new Promise((r) => setImmediate(r));
    execs[0]!.cancel();
    const [e] = await running;
    assert.deepEqual(e!.ended, { success: undefined });
    assert.deepEqual(
      e!.outputs.map((o) => itemText(o.items[0]!)),
      ['Cancelled.'],
    );
  });

  it('runs cells in order, numbering them, and skips markdown cells', async () => {
    const nb = fakeNotebook({}, [
      { kind: 1, text: '# title', languageId: 'markdown' },
      { text: 'SELECT 1' },
      { text: 'SELECT 2' },
    ]);
    const ran = await run(nb);
    assert.deepEqual(
      ran.map((e) => [e.cell.index, e.executionOrder]),
      [
        [1, 1],
        [2, 2],
      ],
    );
  });

  describe('the profile and target a notebook runs on', () => {
    const table: {
      what: string;
      meta: Record<string, unknown>;
      active?: string;
      secrets?: string[];
      client?: unknown[];
      error?: [string, string];
    }[] = [
      { what: 'the active profile', meta: {}, client: ['data', undefined, 'Sandbox'] },
      {
        what: "the notebook's stored profile (its own spelling here), with a token",
        meta: { profile: 'prod', deploymentId: 4 },
        secrets: ['dataApiToken:Prod'],
        client: ['data', 4, 'Prod'],
      },
      {
        what: 'a platform token is enough',
        meta: { profile: 'Prod' },
        secrets: ['platformToken:Prod'],
        client: ['data', undefined, 'Prod'],
      },
      {
        what: 'a dev branch',
        meta: { deploymentId: 2, devBranch: 'feature-x' },
        client: ['devData', 2, 'feature-x', 'Sandbox'],
      },
      {
        what: 'a blank dev branch is none',
        meta: { deploymentId: 2, devBranch: '  ' },
        client: ['data', 2, 'Sandbox'],
      },
      {
        what: 'a deployment id that is not a number is none',
        meta: { deploymentId: '2' },
        client: ['data', undefined, 'Sandbox'],
      },
      {
        what: 'a stored profile missing here',
        meta: { profile: 'Staging' },
        error: [
          "Notebook's profile",
          'This notebook runs on the profile "Staging", which does not exist here. Pick a profile for the notebook (Select Notebook Profile…), or add a profile named "Staging".',
        ],
      },
      {
        what: 'no profile at all',
        meta: { profile: ' ' },
        active: '',
        error: [
          "Notebook's profile",
          'No profile is active and this notebook names none. Pick a profile for the notebook.',
        ],
      },
      {
        what: 'a profile without a token',
        meta: { profile: 'Prod' },
        error: [
          "Notebook's profile",
          'The profile "Prod" has no token here. Set one (Set Token…), or pick another profile for this notebook.',
        ],
      },
    ];
    for (const row of table) {
      it(`${row.what}: ${row.error ? 'refused in the cell' : 'runs there'}`, async () => {
        if (row.active !== undefined) state.active = row.active || undefined;
        for (const s of row.secrets ?? []) state.secrets.add(s);
        const nb = fakeNotebook(row.meta, [{ text: 'SELECT 1' }]);
        const [e] = await run(nb);
        if (row.error) {
          assert.deepEqual(asked, [], 'no client made');
          const err = error(e!.outputs[0]);
          assert.deepEqual([err.name, err.message], row.error);
          assert.deepEqual(e!.ended, { success: false });
          assert.deepEqual(hooks.shown, [
            { kind: 'error', message: row.error[1], actions: ['Pick Profile…'] },
          ]);
        } else {
          assert.deepEqual(asked, [row.client]);
          assert.deepEqual(e!.ended, { success: true });
          assert.deepEqual(hooks.shown, []);
        }
      });
    }

    it('a profile problem is offered once per run, and the pick opens Select Notebook Profile', async () => {
      state.active = undefined;
      hooks.answer.error = 'Pick Profile…';
      const nb = fakeNotebook({}, [{ text: 'SELECT 1' }, { text: 'SELECT 2' }]);
      const ran = await run(nb);
      assert.equal(ran.length, 2);
      assert.deepEqual(
        ran.map((e) => error(e.outputs[0]).name),
        ["Notebook's profile", "Notebook's profile"],
      );
      assert.equal(hooks.shown.length, 1);
      await new Promise((r) => setImmediate(r));
      assert.deepEqual(hooks.commands, [
        { id: 'dashboardPlatform.notebook.selectProfile', args: [{ notebook: 'file:///work/q.dpnb' }] },
      ]);
      // Dismissed: nothing runs.
      hooks.reset();
      hooks.newExecution = (cell) => newExecution(cell as FakeCell);
      await run(fakeNotebook({}, [{ text: 'SELECT 1' }]));
      await new Promise((r) => setImmediate(r));
      assert.equal(hooks.shown.length, 1);
      assert.deepEqual(hooks.commands, []);
    });
  });

  describe('resultOutput: what the cell keeps of its chart', () => {
    const payload = () => ({
      version: 1 as const,
      source: 'cubesql' as const,
      columns: [
        { name: 'status', kind: 'string' as const },
        { name: 'count', kind: 'number' as const, measure: true },
      ],
      rows: [['a', 1]],
      totalRows: 1,
    });
    it('opens on the chart the cell saved, when it fits the columns', () => {
      const cell = fakeNotebook({}, [
        { metadata: { view: 'chart', chart: { type: 'bar', x: 'status', y: ['count'] } } },
      ]).cells[0]!;
      const p = result(C.resultOutput(payload(), true, cell as never) as unknown as Output);
      assert.equal(p.view, 'chart');
      assert.deepEqual(p.chart, { type: 'bar', x: 'status', y: ['count'] });
      assert.ok(p.outputKey);
    });
    it('a cell without metadata opens on the table', () => {
      const cell = { ...fakeNotebook({}, [{}]).cells[0]!, metadata: undefined };
      const p = result(C.resultOutput(payload(), true, cell as never) as unknown as Output);
      assert.deepEqual([p.view, p.chart, typeof p.outputKey], [undefined, undefined, 'string']);
    });
    it('drops a saved chart that does not fit, and keys only cell outputs', () => {
      const cell = fakeNotebook({}, [{ metadata: { chart: { type: 'bar', x: 'nope', y: ['count'] } } }])
        .cells[0]!;
      const out = C.resultOutput(payload(), false, cell as never) as unknown as Output;
      const p = result(out);
      assert.equal(p.view, undefined);
      assert.equal(p.chart, undefined);
      assert.equal(out.items.length, 1);
      const bare = C.resultOutput(payload()) as unknown as Output;
      assert.equal(result(bare).outputKey, undefined);
      assert.deepEqual(bare.metadata, { rows: 1, totalRows: 1 });
    });
  });

  it('reads the deployment a notebook names only when it is a number', () => {
    assert.equal(C.notebookDeployment(fakeNotebook({ deploymentId: 3 }) as never), 3);
    assert.equal(C.notebookDeployment(fakeNotebook({ deploymentId: '3' }) as never), undefined);
    assert.equal(C.notebookDeployment({ metadata: undefined } as never), undefined);
  });

  it('declares the languages it runs and what it runs them with', () => {
    const c = controller.controller as unknown as Record<string, unknown>;
    assert.deepEqual(c.supportedLanguages, ['dashboard-platform-sql', 'sql', 'json']);
    assert.equal(c.supportsExecutionOrder, true);
    assert.equal(c.description, 'Runs SQL cells via /v1/cubesql and JSON cells via /v1/load');
    assert.deepEqual(
      [c.id, c.type, c.label],
      [C.CONTROLLER_ID, 'dashboard-platform-notebook', 'Dashboard Platform'],
    );
    controller.dispose();
    assert.equal(c.disposed, true);
  });
});
