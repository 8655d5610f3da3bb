// The notebook controller: SQL cells stream through /v1/cubesql, JSON cells go to /v1/load (with the
// Continue-wait rounds shown as progress in the cell). Cancelling aborts the request at once. Cells
// run on the notebook's profile (notebookProfile.ts), never switching the active one.
import { randomUUID } from 'node:crypto';
import * as vscode from 'vscode';
import { validChoice } from '../shared/chartChoice';
import { notebookDevBranch } from './devBranch';
import { isQueryProblem } from '../api/dataErrors';
import { ApiError, isApiError } from '../api/errors';
import { redact } from '../api/log';
import type { DataClient } from '../api/dataClient';
import type { LoadQuery } from '../api/schemas/data';
import type { Services } from '../services';
import {
  ERROR_MIME,
  RESULT_MIME,
  toCsv,
  toObjects,
  type ErrorPayload,
  type ResultPayload,
} from '../shared/notebookOutput';
import { NOTEBOOK_TYPE, PLATFORM_SQL } from './notebookFormat';
import { isProfileProblem, offerProfilePick, requireNotebookProfile } from './notebookProfile';
import { checkLoadQuery, MemberIndex } from './memberIndex';
import { CubeSqlAccumulator, loadPayload } from './results';

export const CONTROLLER_ID = 'dashboard-platform-notebook-controller';
/** Least time between progressive output updates while rows stream in. */
export const OUTPUT_THROTTLE_MS = 200;

export function rowCap(): number {
  return Math.max(
    1,
    vscode.workspace.getConfiguration('dashboardPlatform.notebook').get<number>('rowCap', 10_000),
  );
}

export function notebookDeployment(nb: vscode.NotebookDocument): number | undefined {
  const d = (nb.metadata as Record<string, unknown> | undefined)?.deploymentId;
  return typeof d === 'number' ? d : undefined;
}

export function resultOutput(
  p: ResultPayload,
  full = true,
  cell?: vscode.NotebookCell,
): vscode.NotebookCellOutput {
  if (cell?.metadata?.view === 'chart') p.view = 'chart';
  const chart = cell && validChoice(cell.metadata?.chart, p.columns);
  if (chart) p.chart = chart;
  // A key the renderer names this output by when it saves a chart choice back to the cell.
  if (cell) p.outputKey = randomUUID();
  const items = [vscode.NotebookCellOutputItem.json(p, RESULT_MIME)];
  if (full) {
    items.push(vscode.NotebookCellOutputItem.json(toObjects(p.columns, p.rows), 'application/json'));
    items.push(vscode.NotebookCellOutputItem.text(toCsv(p.columns, p.rows), 'text/csv'));
  }
  return new vscode.NotebookCellOutput(items, {
    rows: p.rows.length,
    totalRows: p.totalRows,
    ...(p.outputKey ? { outputKey: p.outputKey } : {}),
  });
}

export function errorOutput(e: unknown): vscode.NotebookCellOutput {
  // Outputs can be saved in the .dpnb: every known credential is removed first.
  const message = redact(e instanceof Error ? e.message : String(e));
  const payload: ErrorPayload = { message };
  if (isApiError(e)) {
    // A query that cannot succeed as written: the sentence says what to change (and quotes the server).
    payload.message = redact(isQueryProblem(e) || !e.serverMessage ? e.message : e.serverMessage);
    if (e.requestId) payload.requestId = redact(e.requestId);
    payload.kind = e.kind;
    if (e.status !== undefined) payload.status = e.status;
  }
  const err = new Error(
    payload.requestId ? `${payload.message} (requestId ${payload.requestId})` : payload.message,
  );
  err.name = isProfileProblem(e)
    ? "Notebook's profile"
    : isApiError(e) && e.code === 'QUERY_CHECK'
      ? 'Query not sent'
      : isApiError(e)
        ? `Data API error${payload.status ? ` ${payload.status}` : ''}`
        : 'Error';
  err.stack = undefined;
  return new vscode.NotebookCellOutput([
    vscode.NotebookCellOutputItem.error(err),
    vscode.NotebookCellOutputItem.json(payload, ERROR_MIME),
  ]);
}

export class QueryController implements vscode.Disposable {
  readonly controller: vscode.NotebookController;
  private order = 0;

  constructor(private readonly services: Services) {
    this.controller = vscode.notebooks.createNotebookController(
      CONTROLLER_ID,
      NOTEBOOK_TYPE,
      'Dashboard Platform',
    );
    // Plain 'sql' too: cells added before the language existed, or pasted in from elsewhere.
    this.controller.supportedLanguages = [PLATFORM_SQL, 'sql', 'json'];
    this.controller.supportsExecutionOrder = true;
    this.controller.description = 'Runs SQL cells via /v1/cubesql and JSON cells via /v1/load';
    this.controller.executeHandler = (cells, nb) => this.run(cells, nb);
  }

  dispose(): void {
    this.controller.dispose();
  }

  private async run(cells: vscode.NotebookCell[], nb: vscode.NotebookDocument): Promise<void> {
    const batch = { offered: false };
    for (const cell of cells) await this.runCell(cell, nb, batch); // in order, one at a time
  }

  /** The Data API the notebook's cells query: its profile, deployment and dev branch. */
  async client(nb: vscode.NotebookDocument): Promise<DataClient> {
    const profile = await requireNotebookProfile(this.services, nb);
    const branch = notebookDevBranch(nb);
    if (branch) return this.services.clients.devData(notebookDeployment(nb), branch, profile);
    return this.services.clients.data(notebookDeployment(nb), profile);
  }

  private async runCell(
    cell: vscode.NotebookCell,
    nb: vscode.NotebookDocument,
    batch: { offered: boolean },
  ): Promise<void> {
    if (cell.kind !== vscode.NotebookCellKind.Code) return;
    const exec = this.controller.createNotebookCellExecution(cell);
    exec.executionOrder = ++this.order;
    const started = Date.now();
    exec.start(started);
    const abort = new AbortController();
    const sub = exec.token.onCancellationRequested(() => abort.abort());
    let success: boolean | undefined;
    try {
      await exec.clearOutput();
      const client = await this.client(nb);
      if (cell.document.languageId === 'json' || cell.document.languageId === 'jsonc') {
        await this.runLoad(exec, client, cell.document.getText(), abort.signal, started);
      } else {
        await this.runSql(exec, client, cell.document.getText(), abort.signal, started);
      }
      success = true;
    } catch (e) {
      if (abort.signal.aborted || exec.token.isCancellationRequested) {
        success = undefined;
        await exec.appendOutput(
          new vscode.NotebookCellOutput([vscode.NotebookCellOutputItem.text('Cancelled.', 'text/plain')]),
        );
      } else {
        success = false;
        await exec.replaceOutput(errorOutput(e));
        // A missing or signed-out profile: said once per run, with the pick that fixes it.
        if (isProfileProblem(e) && !batch.offered) {
          batch.offered = true;
          void offerProfilePick(redact((e as Error).message), nb);
        }
      }
    } finally {
      sub.dispose();
      exec.end(success, Date.now());
    }
  }

  private async runSql(
    exec: vscode.NotebookCellExecution,
    client: DataClient,
    sql: string,
    signal: AbortSignal,
    started: number,
  ): Promise<void> {
    const acc = new CubeSqlAccumulator(rowCap());
    let last = 0;
    let shown = -1;
    // Rows past the cap are only counted (Export Results re-runs the query and parses every row).
    for await (const chunk of client.cubesql(sql, { signal, parseRows: acc.cap })) {
      acc.add(chunk);
      const now = Date.now();
      // Progressive, throttled: only while the capped window still grows or every throttle tick.
      if (now - last >= OUTPUT_THROTTLE_MS && (acc.rows.length !== shown || now - last >= 1000)) {
        last = now;
        shown = acc.rows.length;
        void exec.replaceOutput(resultOutput(acc.payload(true, now - started), false));
      }
    }
    if (signal.aborted) throw new Error('cancelled');
    await exec.replaceOutput(resultOutput(acc.payload(false, Date.now() - started), true, exec.cell));
  }

  private async runLoad(
    exec: vscode.NotebookCellExecution,
    client: DataClient,
    text: string,
    signal: AbortSignal,
    started: number,
  ): Promise<void> {
    let query: LoadQuery;
    try {
      query = JSON.parse(text) as LoadQuery;
    } catch (e) {
      throw new Error(`The cell is not valid JSON: ${e instanceof Error ? e.message : String(e)}`, {
        cause: e,
      });
    }
    // Members are checked against the deployment's model before anything is sent: a typo is
    // refused here with the member it most likely meant. Without the model (meta failed to load)
    // the server is left to judge.
    const index = await client.meta({ signal }).then(
      (m) => new MemberIndex(m),
      () => undefined,
    );
    if (signal.aborted) throw new Error('cancelled');
    const problems = index ? checkLoadQuery(text, index) : [];
    // The error's name says "Query not sent"; the message says what to change.
    if (problems.length)
      throw new ApiError('validation', problems.map((p) => p.message).join(' '), { code: 'QUERY_CHECK' });
    const res = await client.load(query, {
      signal,
      onProgress: (p) => {
        if (p.attempt < 2) return;
        void exec.replaceOutput(
          new vscode.NotebookCellOutput([
            vscode.NotebookCellOutputItem.text(
              `Continue wait: the query is still being prepared (attempt ${p.attempt}, ${(p.elapsedMs / 1000).toFixed(1)} s)…`,
              'text/plain',
            ),
          ]),
        );
      },
    });
    const formats = new Map([...(index?.members.values() ?? [])].map((m) => [m.name, m.format]));
    await exec.replaceOutput(
      resultOutput(loadPayload(res, rowCap(), Date.now() - started, { formats }), true, exec.cell),
    );
  }
}
