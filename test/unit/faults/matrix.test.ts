// The fault matrix: every fault mode of the sandbox (src/sandbox/faults.ts) x every client
// operation (every operation-table row, its cell built from the row by rowCells.ts, and the
// hand-kept cells of the operations without one), each cell with its own deadline. Each cell asserts: it ends (no hang); a write reaches
// the sandbox exactly once (never retried automatically); a failure is a typed ApiError of the kind
// the fault calls for, whose message says what to do (and never "try again" for a write whose
// outcome is unknown); a success returns the same data as without the fault. Counts are printed.
import * as assert from 'node:assert/strict';
import {
  AiClient,
  type ApiError,
  BuildClient,
  DataClient,
  DispatcherRegistry,
  HttpClient,
  isApiError,
  PlatformClient,
} from '../../../src/api';
import { declaredOperations } from '../../../src/api/platform/operation';
import { PlatformTransport } from '../../../src/api/platform/transport';
import { startSandbox, type FaultRule, type SandboxHandle } from '../../../src/sandbox';
import { CUT_OFF } from '../../../src/api/aiClient';
import { within } from '../api/helpers';
import { handReads, handWrites, type Op } from './matrixOps';
import { MATRIX_EMBED_TENANTS, rowCells, type RowCells } from './rowCells';

interface Mode {
  name: string;
  rule: Omit<FaultRule, 'family' | 'route'>;
  /** Error kinds allowed for a read and for a write; undefined: the call must succeed. */
  read?: string[];
  write?: string[];
  /** Faults on the body of a stream only. */
  streamOnly?: boolean;
  /** Answers read whole only (a stream is read a line at a time, each line capped by its reader). */
  wholeOnly?: boolean;
  /** An answer an operation without a body (204) may take as its success. */
  noBodyOk?: boolean;
}

const SIGN_IN_PAGE =
  '<!doctype html><html><head><title>Sign in</title></head><body><form action="/sso/login">Sign in to continue</form></body></html>';

const MODES: Mode[] = [
  { name: 'no fault', rule: {} },
  { name: '500', rule: { status: 500 }, read: ['server'], write: ['unknownOutcome'] },
  { name: '503', rule: { status: 503 }, read: ['server'], write: ['unknownOutcome'] },
  { name: '504', rule: { status: 504 }, read: ['server'], write: ['unknownOutcome'] },
  {
    name: '429 Retry-After 0',
    rule: { status: 429, retryAfterSeconds: 0 },
    read: ['rateLimited'],
    write: ['rateLimited'],
  },
  { name: '400', rule: { status: 400 }, read: ['validation'], write: ['validation'] },
  { name: '401', rule: { status: 401 }, read: ['auth'], write: ['auth'] },
  { name: '403', rule: { status: 403 }, read: ['forbidden', 'auth'], write: ['forbidden', 'auth'] },
  {
    name: 'latency past the deadline',
    rule: { latencyMs: 1500 },
    read: ['timeout'],
    write: ['unknownOutcome'],
  },
  {
    name: 'reset mid-body',
    rule: { resetMidBody: true },
    read: ['network'],
    // A chat turn cut mid-stream is a cut-off answer (resume it); other writes have an unknown outcome.
    write: ['unknownOutcome', 'protocol'],
  },
  { name: 'slow drip', rule: { dripMs: 2 } },
  {
    name: 'truncated NDJSON',
    rule: { truncateNdjson: true },
    read: ['protocol'],
    write: ['protocol'],
    streamOnly: true,
  },
  {
    // An SSO proxy answering for the service: never data, never a done write.
    name: 'HTML sign-in page (200)',
    rule: { answer: { contentType: 'text/html; charset=utf-8', body: SIGN_IN_PAGE } },
    read: ['protocol'],
    write: ['unknownOutcome', 'protocol'],
  },
  {
    name: 'empty 200',
    rule: { answer: { contentType: 'application/json', body: '' } },
    read: ['protocol'],
    write: ['unknownOutcome', 'protocol'],
    noBodyOk: true,
  },
  {
    name: '100 MB answer',
    rule: {
      answer: {
        contentType: 'application/json',
        body: '{"padding":"',
        padBytes: 100 * 1024 * 1024,
        declareLength: true,
      },
    },
    read: ['protocol'],
    write: ['unknownOutcome'],
    wholeOnly: true,
  },
  {
    name: 'malformed NDJSON',
    rule: { malformedNdjson: true },
    read: ['protocol'],
    write: ['protocol'],
    streamOnly: true,
  },
];

/** Words of advice: a message must tell the user what to do next. */
const ADVICE =
  /try again|check|refresh|reload|resume|retry|update|use (a|the)|add one|fix|narrow|wait|look|raise|later|it may have taken effect/i;

const CELL_DEADLINE_MS = 8_000;

async function drain<T>(it: AsyncIterable<T>): Promise<T[]> {
  const out: T[] = [];
  for await (const x of it) out.push(x);
  return out;
}

const totalRequests = (sb: SandboxHandle): number =>
  Object.values(sb.state.requestCounts).reduce((a, b) => a + b, 0);

describe('faults: the fault matrix (every sandbox fault x every client operation)', function () {
  this.timeout(600_000);
  let sb: SandboxHandle;
  let platform: PlatformClient;
  let data: DataClient;
  let ai: AiClient;
  let build: BuildClient;
  let fromRows: RowCells;
  const dispatchers = new DispatcherRegistry({});
  // Headers must come within 600 ms: the latency fault (1.5 s) is past every call's deadline. The
  // body's own deadline is longer: no fault stalls a body, and a loaded machine pauses a stream's
  // lines past 600 ms (a baseline chat was cut off there, the cell never reached).
  const network = { headersTimeoutMs: 600, bodyTimeoutMs: 3000 };
  const retry = { retries: 2, baseDelayMs: 1, maxDelayMs: 5, maxRetryAfterMs: 500 };
  const counts = { cells: 0, succeeded: 0, failedAsExpected: 0, writesSentOnce: 0 };
  const problems: string[] = [];
  // The rows' transports by base URL: the cells' (the matrix's deadlines; the last status read is
  // kept, a 204 having no body to cut) and the look-ups' (the defaults, never faulted).
  const transports = new Map<string, PlatformTransport>();
  let lastStatus: number | undefined;
  const statusOf = {
    debug: (m: string) => {
      const s = /^<- (\d{3}) /.exec(m);
      if (s) lastStatus = Number(s[1]);
    },
    info: () => undefined,
    warn: () => undefined,
    error: () => undefined,
  };
  const transport = (baseUrl: string, cell: boolean, token?: string) => {
    const key = `${cell} ${baseUrl} ${token ?? 'admin'}`;
    let t = transports.get(key);
    if (!t) {
      const http = new HttpClient({
        baseUrl,
        family: 'platform',
        auth: async () => token ?? sb.tokens.admin,
        dispatchers,
        ...(cell ? { network, retry, logger: statusOf } : {}),
      });
      transports.set(key, (t = new PlatformTransport(http)));
    }
    return t;
  };

  before(async () => {
    sb = await startSandbox({
      rows: 500,
      continueWaitMs: 50,
      aiEventDelayMs: 0,
      dbtStepMs: 5,
      // Embed tenants are made by no published operation: a tenant for each cell that deletes one.
      embedTenants: MATRIX_EMBED_TENANTS,
    });
    platform = new PlatformClient({
      baseUrl: sb.urls.platform,
      token: async () => sb.tokens.admin,
      network,
      retry,
      dispatchers,
    });
    data = new DataClient({
      baseUrl: sb.urls.dataApi,
      token: async () => sb.tokens.dataApi,
      network,
      retry,
      dispatchers,
    });
    build = new BuildClient({
      platformUrl: sb.urls.platform,
      token: async () => sb.tokens.admin,
      network,
      retry,
      dispatchers,
    });
    ai = new AiClient({
      baseUrl: sb.urls.ai[0]!.url,
      apiKey: async () => sb.tokens.aiApiKey,
      network,
      retry,
      dispatchers,
    });
    fromRows = await rowCells({
      routes: sb.routes(),
      platformUrl: sb.urls.platform,
      cellTransport: (base, token) => transport(base, true, token),
      setupTransport: (base, token) => transport(base, false, token),
      lastStatus: () => lastStatus,
      resetStatus: () => void (lastStatus = undefined),
      platform,
    });
  });

  after(async () => {
    await Promise.all([
      platform?.close(),
      data?.close(),
      ai?.close(),
      build?.close(),
      ...[...transports.values()].map((t) => t.http.close()),
    ]);
    await sb?.close();
  });

  it('builds a cell for every operation row, and keeps hand-kept cells only for operations without one', () => {
    assert.deepEqual(fromRows.missing, [], 'rows the matrix cannot build a cell for');
    assert.deepEqual(fromRows.unused, [], 'rowCells.ts entries no row needs any more (delete them)');
    assert.equal(fromRows.cells.length, declaredOperations().length);
    const declared = new Set(declaredOperations().map(({ op }) => `${op.method} ${op.path}`));
    const duplicated = [...handReads(platform, build), ...handWrites(platform, build)]
      .filter((h) => h.operation && declared.has(h.operation))
      .map((h) => `${h.name} (${h.operation})`);
    assert.deepEqual(duplicated, [], 'hand-kept cells of operations that now have a row (delete them)');
  });

  it('every cell ends, never retries a write, and fails typed with advice or succeeds with the right data', async () => {
    const session = { externalId: 'matrix' };
    const chat = await drain(ai.streamChat({ input: 'How many orders?', sessionSettings: session }));
    const chatId = chat.find((e) => e.type === 'cutoff')?.chatId;
    assert.ok(chatId, 'the baseline chat has an id');
    const sameAs = (expected: unknown) => (value: unknown) => assert.deepEqual(value, expected);
    // A rendered export to download in every cell (downloading does not consume it).
    const exportJob = await platform.ops.startDashboardExport(1, { dashboardId: 1001, format: 'png' });
    await platform.ops.waitForDashboardExport(1, exportJob.jobId, { intervalMs: 5 });
    const rowReads = fromRows.cells.filter((c) => !c.write);
    const rowWrites = fromRows.cells.filter((c) => c.write);

    const reads: Op[] = [
      ...rowReads,
      ...handReads(platform, build),
      {
        name: 'load',
        family: 'data',
        write: false,
        route: '/v1/load',
        run: async () =>
          (
            await data.load(
              { measures: ['orders.count'], dimensions: ['orders.status'] },
              { timeoutMs: 5000 },
            )
          ).data,
      },
      {
        name: 'cubesql',
        family: 'data',
        write: false,
        route: '/v1/cubesql',
        stream: true,
        run: async () =>
          (await drain(data.cubesql('SELECT id FROM orders ORDER BY id LIMIT 3000', { timeoutMs: 5000 })))
            .filter((c) => c.type === 'rows')
            .map((c) => (c as { rows: unknown }).rows),
      },
      {
        name: 'meta',
        family: 'data',
        write: false,
        route: '/v1/meta',
        run: async () => (await data.meta({ refresh: true })).cubes.map((c) => c.name),
      },
      {
        name: 'getChatState',
        family: 'ai',
        write: false,
        route: '/chat/stream-chat-state',
        stream: true,
        run: async () =>
          (await drain(ai.getChatState(chatId, session))).filter((e) => e.type === 'final').length,
      },
      {
        name: 'ops.downloadDashboardExport',
        family: 'platform',
        write: false,
        operation: 'GET /v1/deployments/{deploymentId}/dashboard-exports/{jobId}/download',
        route: '/download',
        run: async () => {
          const f = await platform.ops.downloadDashboardExport(1, exportJob.jobId, { format: 'png' });
          return [f.contentType, Buffer.from(f.bytes).toString('base64')];
        },
      },
    ];
    // Baselines of the reads, without faults (a row's read keeps its own, rowCells.ts).
    for (const op of reads) {
      try {
        op.check = sameAs(await op.run());
      } catch (e) {
        throw new Error(`${op.name} without a fault: ${e instanceof Error ? e.message : String(e)}`, {
          cause: e,
        });
      }
    }

    const writes: Op[] = [
      ...rowWrites,
      ...handWrites(platform, build),
      {
        name: 'streamChat',
        family: 'ai',
        write: true,
        route: '/chat/stream-chat-state',
        stream: true,
        run: async () =>
          (await drain(ai.streamChat({ input: 'How many orders?', sessionSettings: session }))).filter(
            (e) => e.type === 'final',
          ).length,
        check: (v) => assert.equal(v, 1),
      },
      {
        name: 'abort',
        family: 'ai',
        write: true,
        route: '/chat/abort',
        noBody: true,
        run: () => ai.abort(chatId, session),
      },
    ];
    const all = [...reads, ...writes];
    const handKept = all.length - fromRows.cells.length;

    // Every read cell before any write cell: the writes change what the reads return.
    for (const op of all) {
      for (const mode of MODES) {
        // A stream has no whole-answer cap to test: that cell is not tried.
        if (mode.wholeOnly && op.stream) continue;
        const applies =
          (!mode.streamOnly || op.stream) &&
          !(op.noBody && mode.rule.resetMidBody) &&
          !((op.noBody || op.bodyIgnored) && mode.noBodyOk);
        const cell = `${mode.name} x ${op.name}`;
        counts.cells++;
        sb.faults.clear();
        try {
          await op.prepare?.();
        } catch (e) {
          problems.push(
            `${cell}: its target could not be made: ${e instanceof Error ? e.message : String(e)}`,
          );
          continue;
        }
        sb.faults.add({
          family: op.family,
          route: op.route,
          ...(op.method ? { method: op.method } : {}),
          ...mode.rule,
        });
        const before = totalRequests(sb);
        let value: unknown;
        let error: unknown;
        try {
          value = await within(CELL_DEADLINE_MS, op.run());
        } catch (e) {
          error = e;
        }
        sb.faults.clear();
        const sent = totalRequests(sb) - before;
        const expected = applies ? (op.write ? mode.write : mode.read) : undefined;
        try {
          assert.ok(!(error instanceof Error && /^hung/.test(error.message)), 'it ended');
          if (op.write) {
            assert.equal(sent, 1, 'a write is sent exactly once');
            counts.writesSentOnce++;
          }
          if (expected === undefined) {
            assert.equal(error, undefined, `it succeeds (${error instanceof Error ? error.message : ''})`);
            op.check?.(value);
            counts.succeeded++;
          } else {
            assert.ok(isApiError(error), `a typed ApiError, got ${String(error)}`);
            const e = error as ApiError;
            assert.ok(
              expected.includes(e.kind),
              `kind ${e.kind}, expected ${expected.join('/')}: ${e.message}`,
            );
            assert.match(e.message, ADVICE, 'the message says what to do');
            if (e.kind === 'unknownOutcome') {
              assert.doesNotMatch(e.message, /try again/i);
              // Whole sentences: no advice cut to "Check your network and)." or left empty.
              assert.doesNotMatch(
                e.message,
                /\b(and|or|to|the)\)|\(\s*\)|\s[.,)]/,
                'its sentences read whole',
              );
            }
            // Messages are for people: no "newer service" guess for an answer that is plainly wrong.
            if (mode.rule.answer) assert.doesNotMatch(e.message, /newer than this extension/);
            if (op.family === 'ai' && op.write && e.kind === 'protocol') assert.equal(e.code, CUT_OFF);
            counts.failedAsExpected++;
          }
        } catch (e) {
          problems.push(`${cell}: ${(e instanceof Error ? e.message : String(e)).split('\n')[0]}`);
        }
      }
    }
    console.log(
      `      fault matrix: ${MODES.length} modes x ${all.length} operations (${fromRows.cells.length} rows, ${handKept} hand-kept) = ${counts.cells} cells tried ` +
        `(a stream has no whole-answer cap: ${MODES.filter((m) => m.wholeOnly).length * all.filter((o) => o.stream).length} cells not applicable); ` +
        `${counts.succeeded} succeeded with the right data, ${counts.failedAsExpected} failed as expected, ` +
        `${counts.writesSentOnce} writes sent exactly once, ${problems.length} flagged`,
    );
    assert.deepEqual(problems, []);
    const streams = all.filter((o) => o.stream).length;
    const wholeOnlyModes = MODES.filter((m) => m.wholeOnly).length;
    assert.equal(counts.cells, MODES.length * all.length - wholeOnlyModes * streams);
  });

  it('list calls refuse a page size outside 1..200 before any request, and accept the bounds', async () => {
    const before = totalRequests(sb);
    for (const first of [0, 201, 1.5, -1]) {
      await assert.rejects(
        platform.listDeployments({ first }),
        (e: unknown) => isApiError(e) && e.kind === 'validation',
      );
    }
    assert.equal(totalRequests(sb), before, 'nothing was sent');
    assert.equal((await platform.listWorkbooks(1, { first: 1 })).items.length, 1);
    assert.ok((await platform.listWorkbooks(1, { first: 200 })).items.length > 1);
  });
});
