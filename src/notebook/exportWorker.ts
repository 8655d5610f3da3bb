// The worker thread of Export Results (dist/exportWorker.js): parses the streamed result, formats it
// and writes the file, so a million-row export never parses a row on the extension host's thread.
// The host (exportRunner.ts) does the HTTP and hands each body chunk over; every request gets one
// answer, sent only once the chunk's rows are written (the host reads the next chunk after it).
//
// Messages, host -> worker: `open` (file, format), per cubesql response `begin` then `bytes`... and
// `end`, or `table` batches (a JSON query's rows), then `finish`. Worker -> host: `opened`, `ok`,
// `lines` (what a chunk held: the lines the client interprets, data lines only counted), `written`,
// `finished`, and `failed` (then nothing more).
import * as fs from 'node:fs';
import { isMainThread, parentPort, threadId } from 'node:worker_threads';
import { ApiError, isApiError, type ApiErrorKind } from '../api/errors';
import { ndjsonLines, type NdjsonLine } from '../api/ndjson';
import type { CountedLine } from '../api/rowScan';
import { ExportFormatter, type ExportFormat } from './exportFormat';

export type ExportLine = NdjsonLine | CountedLine;

export type HostToExportWorker =
  | { type: 'open'; file: string; format: ExportFormat }
  | { type: 'begin'; maxLineBytes?: number }
  | { type: 'bytes'; bytes: Uint8Array }
  | { type: 'end' }
  | { type: 'table'; columns?: string[]; rows: unknown[][] }
  | { type: 'finish' };

/** An error as it crosses the thread boundary (an ApiError keeps its kind, code and line). */
export interface ExportWorkerError {
  message: string;
  kind?: ApiErrorKind;
  code?: string;
  line?: number;
}

export type ExportWorkerToHost =
  | { type: 'opened'; threadId: number; isMainThread: boolean }
  | { type: 'ok' }
  | { type: 'lines'; items: ExportLine[] }
  | { type: 'written'; rows: number }
  | { type: 'finished'; rows: number }
  | { type: 'failed'; error: ExportWorkerError };

const isRecord = (v: unknown): v is Record<string, unknown> =>
  typeof v === 'object' && v !== null && !Array.isArray(v);

/**
 * One response body as the async iterable ndjsonLines() reads. When the parser asks for the next
 * chunk, every line of the previous one has been handled: that is when the chunk is answered.
 */
class Feed implements AsyncIterable<Uint8Array> {
  private queued: IteratorResult<Uint8Array>[] = [];
  private waiting: ((r: IteratorResult<Uint8Array>) => void) | undefined;
  private answerDue = false;

  constructor(private readonly answer: () => Promise<void>) {}

  push(r: IteratorResult<Uint8Array>): void {
    this.answerDue = true;
    if (this.waiting) {
      const w = this.waiting;
      this.waiting = undefined;
      w(r);
    } else this.queued.push(r);
  }

  [Symbol.asyncIterator](): AsyncIterator<Uint8Array> {
    return {
      next: async () => {
        if (this.answerDue) {
          this.answerDue = false;
          await this.answer();
        }
        const r = this.queued.shift();
        return r ?? new Promise((resolve) => (this.waiting = resolve));
      },
    };
  }
}

function wireError(e: unknown): ExportWorkerError {
  if (isApiError(e)) return { message: e.message, kind: e.kind, code: e.code, line: e.line };
  return { message: e instanceof Error ? e.message : String(e) };
}

/** The column names of a schema line (the client validates the schema itself). */
function columnNames(schema: unknown): string[] {
  if (!Array.isArray(schema)) return [];
  return schema.map((c) => (isRecord(c) && typeof c.name === 'string' ? c.name : ''));
}

function checkRows(rows: unknown[], where: string): asserts rows is unknown[][] {
  const bad = rows.findIndex((r) => !Array.isArray(r));
  if (bad >= 0)
    throw new ApiError('protocol', `Row ${bad + 1} of ${where} is not an array of values.`, {
      code: 'EXPORT_ROW',
    });
}

/** Runs the worker's side of the protocol on `port` (the worker's parentPort). */
export function serveExport(port: NonNullable<typeof parentPort>): void {
  const post = (m: ExportWorkerToHost) => port.postMessage(m);
  let out: fs.WriteStream | undefined;
  let fmt: ExportFormatter | undefined;
  let failed = false;
  let body = 0; // the current response; lines of an abandoned one are dropped
  let feed: Feed | undefined;
  let items: ExportLine[] = [];

  const fail = (e: unknown) => {
    if (failed) return;
    failed = true;
    post({ type: 'failed', error: wireError(e) });
  };
  const write = (s: string) => {
    if (s) out!.write(s);
  };
  const drained = async () => {
    const o = out!;
    if (!o.writableNeedDrain) return;
    await new Promise<void>((resolve, reject) => {
      const onError = (e: Error) => reject(e);
      o.once('error', onError).once('drain', () => {
        o.off('error', onError);
        resolve();
      });
    });
  };
  const answerLines = async () => {
    await drained();
    const done = items;
    items = [];
    if (!failed) post({ type: 'lines', items: done });
  };

  const handle = ({ value, line }: NdjsonLine) => {
    if (isRecord(value) && Array.isArray(value.data)) {
      const { data, ...rest } = value;
      if (value.schema !== undefined) {
        write(fmt!.columns(columnNames(value.schema)));
        items.push({ value: rest, line });
      }
      checkRows(data, `line ${line} of the SQL result`);
      write(fmt!.batch(data));
      items.push({ counted: data.length, line });
      return;
    }
    if (isRecord(value) && value.schema !== undefined) write(fmt!.columns(columnNames(value.schema)));
    items.push({ value, line });
  };

  const consume = async (f: Feed, id: number, maxLineBytes: number | undefined) => {
    try {
      for await (const l of ndjsonLines(f, { maxLineBytes })) if (id === body) handle(l);
      if (id === body) await answerLines();
    } catch (e) {
      if (id === body) fail(e);
    }
  };

  const onMessage = async (m: HostToExportWorker) => {
    if (failed) return;
    switch (m.type) {
      case 'open': {
        fmt = new ExportFormatter(m.format);
        const o = fs.createWriteStream(m.file, { encoding: 'utf8' });
        out = o;
        o.on('error', (e) => fail(new Error(`Could not write ${m.file}: ${e.message}`)));
        o.once('open', () => {
          write(fmt!.start());
          post({ type: 'opened', threadId, isMainThread });
        });
        return;
      }
      case 'begin': {
        const id = ++body;
        items = [];
        feed = new Feed(answerLines);
        void consume(feed, id, m.maxLineBytes);
        post({ type: 'ok' });
        return;
      }
      case 'bytes':
        feed!.push({ value: m.bytes, done: false });
        return;
      case 'end':
        feed!.push({ value: undefined, done: true });
        return;
      case 'table':
        if (m.columns) write(fmt!.columns(m.columns));
        checkRows(m.rows, 'the result');
        write(fmt!.batch(m.rows));
        await drained();
        post({ type: 'written', rows: fmt!.rows });
        return;
      case 'finish': {
        write(fmt!.end());
        const o = out!;
        await new Promise<void>((resolve) => o.end(resolve));
        if (!failed) post({ type: 'finished', rows: fmt!.rows });
        return;
      }
    }
  };
  port.on('message', (m: HostToExportWorker) => onMessage(m).catch(fail));
}

if (parentPort) serveExport(parentPort);
