// Export Results without `vscode`: runs the query on the host (HTTP, retries, Continue-wait) and
// leaves parsing, formatting and writing to a worker thread (exportWorker.ts). The host moves bytes
// and counts; no row is parsed on the extension host's thread. A failed or cancelled export
// terminates the worker and removes the partial file.
import * as fs from 'node:fs';
import * as path from 'node:path';
import type * as WorkerThreads from 'node:worker_threads';
import type { DataClient } from '../api/dataClient';
import { ApiError, isApiError } from '../api/errors';
import { cancelledError } from '../api/net/retry';
import type { LoadQuery } from '../api/schemas/data';
import type { ExportFormat } from './exportFormat';
import type { ExportLine, ExportWorkerError, ExportWorkerToHost, HostToExportWorker } from './exportWorker';
import { loadPayload } from './results';

export type { ExportFormat } from './exportFormat';

/** Rows of a JSON query's result sent to the worker per message. */
const TABLE_BATCH = 5_000;

/** dist/exportWorker.js beside the notebook bundle; the compiled module next door in tests. */
export function exportWorkerFile(dir = __dirname): string {
  return path.join(dir, 'exportWorker.js');
}

function fromWire(e: ExportWorkerError): Error {
  return e.kind ? new ApiError(e.kind, e.message, { code: e.code, line: e.line }) : new Error(e.message);
}

/** Where the worker runs (tests check it is not the host's thread). */
export interface ExportWorkerInfo {
  threadId: number;
  isMainThread: boolean;
  /** Settles with the exit code once the worker has gone. */
  exited: Promise<number>;
}

/** The host's end of the protocol: one request at a time, each settled by the worker's answer. */
class ExportWorkerClient {
  private pending: { resolve(m: ExportWorkerToHost): void; reject(e: Error): void } | undefined;
  private failure: Error | undefined;
  readonly exited: Promise<number>;

  constructor(private readonly worker: WorkerThreads.Worker) {
    this.exited = new Promise((resolve) => worker.once('exit', resolve));
    worker.on('message', (m: ExportWorkerToHost) => {
      if (m.type === 'failed') this.stop(fromWire(m.error));
      else {
        const p = this.pending;
        this.pending = undefined;
        p?.resolve(m);
      }
    });
    worker.once('error', (e) => this.stop(new Error(`The export stopped: ${e.message}`)));
    worker.once('exit', (code) =>
      this.stop(new Error(`The export's worker thread stopped unexpectedly (exit code ${code}).`)),
    );
  }

  /** Fails the request in flight and every later one. */
  stop(e: Error): void {
    this.failure ??= e;
    const p = this.pending;
    this.pending = undefined;
    p?.reject(this.failure);
  }

  request<T extends ExportWorkerToHost['type']>(
    m: HostToExportWorker,
    answer: T,
  ): Promise<Extract<ExportWorkerToHost, { type: T }>> {
    if (this.failure) return Promise.reject(this.failure);
    return new Promise((resolve, reject) => {
      this.pending = {
        resolve: (r) =>
          r.type === answer
            ? resolve(r as Extract<ExportWorkerToHost, { type: T }>)
            : reject(new Error(`The export's worker answered ${r.type} to ${m.type}.`)),
        reject,
      };
      this.worker.postMessage(m);
    });
  }

  terminate(): Promise<number> {
    this.stop(cancelledError());
    return this.worker.terminate();
  }
}

export interface ExportOptions {
  signal?: AbortSignal;
  /** Rows written so far, after each batch. */
  onRows?(n: number): void;
  /** Where the worker runs, once it has opened the file. */
  onWorker?(info: ExportWorkerInfo): void;
  /** The worker's script (tests). */
  workerFile?: string;
}

/**
 * Streams a query's full result to `file` through the export worker. Returns the number of rows
 * written. Throws ApiError 'cancelled' when `signal` aborts; the partial file is then removed.
 */
export async function exportQuery(
  client: DataClient,
  kind: 'sql' | 'json',
  text: string,
  file: string,
  format: ExportFormat,
  opts: ExportOptions = {},
): Promise<number> {
  if (opts.signal?.aborted) throw cancelledError();
  // Required on first export, not when the notebook bundle loads.
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  const { Worker } = require('node:worker_threads') as typeof WorkerThreads;
  const w = new ExportWorkerClient(
    new Worker(opts.workerFile ?? exportWorkerFile(), { name: 'dashboard-platform-export' }),
  );
  const onAbort = () => void w.terminate();
  opts.signal?.addEventListener('abort', onAbort);
  let opened = false;
  try {
    const info = await w.request({ type: 'open', file, format }, 'opened');
    opened = true;
    opts.onWorker?.({ threadId: info.threadId, isMainThread: info.isMainThread, exited: w.exited });
    let n = 0;
    if (kind === 'sql') {
      const lines = async function* (
        body: AsyncIterable<Uint8Array>,
        o: { maxLineBytes?: number },
      ): AsyncGenerator<ExportLine> {
        await w.request({ type: 'begin', maxLineBytes: o.maxLineBytes }, 'ok');
        // One chunk in flight: the next is read once the worker has written this one's rows.
        for await (const bytes of body) yield* (await w.request({ type: 'bytes', bytes }, 'lines')).items;
        yield* (await w.request({ type: 'end' }, 'lines')).items;
      };
      for await (const chunk of client.cubesql(text, { signal: opts.signal, lines })) {
        if (chunk.type === 'count') {
          n += chunk.rows;
          opts.onRows?.(n);
        }
      }
    } else {
      const res = await client.load(JSON.parse(text) as LoadQuery, { signal: opts.signal });
      const p = loadPayload(res, Number.MAX_SAFE_INTEGER);
      let columns: string[] | undefined = p.columns.map((c) => c.name);
      for (let i = 0; i === 0 || i < p.rows.length; i += TABLE_BATCH) {
        const rows = p.rows.slice(i, i + TABLE_BATCH);
        n = (await w.request({ type: 'table', columns, rows }, 'written')).rows;
        columns = undefined;
      }
      opts.onRows?.(n);
    }
    const done = await w.request({ type: 'finish' }, 'finished');
    await w.terminate();
    return done.rows;
  } catch (e) {
    await w.terminate();
    if (opened) fs.rmSync(file, { force: true });
    if (opts.signal?.aborted && !(isApiError(e) && e.kind === 'cancelled')) throw cancelledError();
    throw e;
  } finally {
    opts.signal?.removeEventListener('abort', onAbort);
  }
}
