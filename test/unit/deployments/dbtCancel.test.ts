// Cancelling a dbt sync that Start dbt Sync is following, through DbtFlows itself: the status API
// answers FAILED for the cancelled run. Before, the user read two messages (an error "… failed:
// Cancelled on request." and the cancel's info) and the log ended "── FAILED …". Now Cancel says it
// once, the start returns the run as cancelled, and the log ends saying cancelled. DbtFlows runs in
// plain Node with a stand-in for `vscode` and a client that answers as the sandbox does.
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import Module from 'node:module';
import * as os from 'node:os';
import * as path from 'node:path';
import type * as DbtFlowsModule from '../../../src/deployments/dbtFlows';
import { forgetVscodeDependents } from '../vscodeStandIn';

const STUB_SOURCE = `
const cls = () => class { constructor(...a) { this.args = a; } };
const ns = (extra) => new Proxy(extra, { get: (t, k) => (k in t ? t[k] : cls()) });
const token = { isCancellationRequested: false, onCancellationRequested: () => ({ dispose() {} }) };
module.exports = ns({
  window: ns({
    showInformationMessage: async (m) => { globalThis.__dpDbtToasts.push('info: ' + m); return undefined; },
    showErrorMessage: async (m) => { globalThis.__dpDbtToasts.push('error: ' + m); return undefined; },
    withProgress: (_o, fn) => fn({ report() {} }, token),
  }),
  ProgressLocation: { Notification: 15 },
  TreeItemCollapsibleState: { None: 0, Collapsed: 1, Expanded: 2 },
});`;

const RUN = '1000012';
const g = globalThis as unknown as { __dpDbtToasts: string[] };

describe('dbt sync: cancelling a followed run says so once', () => {
  const mod = Module as unknown as { _resolveFilename: (request: string, ...rest: unknown[]) => string };
  const resolve = mod._resolveFilename;
  let dir: string;
  let Flows: typeof DbtFlowsModule.DbtFlows;
  let Files: typeof DbtFlowsModule.GeneratedFiles;

  before(() => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'dp-dbt-cancel-'));
    const file = path.join(dir, 'vscode.js');
    fs.writeFileSync(file, STUB_SOURCE);
    mod._resolveFilename = function (request: string, ...rest: unknown[]) {
      return request === 'vscode' ? file : resolve.call(this, request, ...rest);
    };
    forgetVscodeDependents();
    /* eslint-disable @typescript-eslint/no-require-imports */
    ({ DbtFlows: Flows, GeneratedFiles: Files } =
      require('../../../src/deployments/dbtFlows') as typeof DbtFlowsModule);
    /* eslint-enable @typescript-eslint/no-require-imports */
  });
  after(() => {
    mod._resolveFilename = resolve;
    fs.rmSync(dir, { recursive: true, force: true });
  });
  beforeEach(() => {
    g.__dpDbtToasts = [];
  });

  /**
   * DbtFlows over a client whose first status read is where the user cancels (when `cancel`):
   * the run then reads FAILED, as the status API answers for a cancelled run.
   */
  function harness(cancel: boolean, failure = 'Cancelled on request.') {
    const log: string[] = [];
    const sent: string[] = [];
    const ops = {
      targets: { selection: () => undefined },
      prompter: { confirm: async () => true },
      deploymentName: async () => '"Analytics"',
      confirmWrite: async () => undefined,
      client: async () => client,
      log: { info: () => undefined },
      channel: () => ({ show: () => undefined }),
      append: (_c: string, lines: string[]) => log.push(...lines),
      transcripts: new Map(),
      deps: { provider: { loadedDeployments: () => [], refresh: () => undefined } },
    };
    const flows = new Flows(ops as unknown as ConstructorParameters<typeof Flows>[0], new Files());
    const client = {
      startDbtSync: async () => ({ syncJobId: RUN, branchName: 'slow' }),
      getDbtSyncJob: async () => {
        if (cancel) assert.equal(await flows.cancel({ deploymentId: 1, syncJobId: RUN }), 'cancelled');
        return { status: 'FAILED', error: failure };
      },
      ops: {
        getDbtSyncLogs: async () => [
          { timestamp: '2026-11-28T03:00:00Z', level: 'info', message: 'parsing' },
        ],
        listDbtSyncs: async () => ({ items: [{ syncJobId: RUN, status: 'RUNNING', branchName: 'slow' }] }),
        cancelDbtSync: async (dep: number, id: string) => {
          sent.push(`cancel ${dep}/${id}`);
          return { message: `dbt sync ${id} cancelled.` };
        },
      },
    };
    return { flows, log, sent };
  }

  it('a run the user cancels: one message naming it, the start returns it cancelled, the log ends cancelled', async () => {
    const { flows, log, sent } = harness(true);
    const job = await flows.start({ deploymentId: 1, branchName: 'slow' });
    assert.deepEqual(sent, [`cancel 1/${RUN}`]);
    assert.equal(job.status, 'CANCELLED');
    assert.deepEqual(g.__dpDbtToasts, ['info: Cancelled the dbt sync of branch slow on "Analytics".']);
    assert.equal(log.at(-1), '── CANCELLED: Cancelled on request. ──');
    assert.ok(!log.some((l) => l.includes('FAILED')), log.join('\n'));
  });

  it('a FAILED the user did not ask for stays a failure, and the log says FAILED', async () => {
    const { flows, log } = harness(false, 'dbt parse error');
    await assert.rejects(
      flows.start({ deploymentId: 1, branchName: 'slow' }),
      /^Error: The dbt sync of "Analytics" failed: dbt parse error\./,
    );
    assert.equal(log.at(-1), '── FAILED: dbt parse error ──');
    assert.deepEqual(g.__dpDbtToasts, []);
  });
});
