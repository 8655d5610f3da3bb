// The export worker's side of the protocol run on this thread (serveExport over a stand-in port), so
// what it writes and answers is measured where StrykerJS sees it (its own suite runs it in a real
// worker thread: test/unit/exportResults.test.ts). Exact bytes of CSV and JSON, the answers in order,
// rows that are not arrays refused with their place, a file that cannot be written, and nothing
// after a failure.
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { isApiError } from '../../../src/api/errors';
import { ExportFormatter } from '../../../src/notebook/exportFormat';
import { exportQuery } from '../../../src/notebook/exportRunner';
import {
  serveExport,
  type ExportWorkerToHost,
  type HostToExportWorker,
} from '../../../src/notebook/exportWorker';

const enc = new TextEncoder();

function port() {
  const posted: ExportWorkerToHost[] = [];
  let handler: ((m: HostToExportWorker) => unknown) | undefined;
  const waiters: (() => void)[] = [];
  const p = {
    posted,
    postMessage: (m: ExportWorkerToHost) => {
      posted.push(m);
      for (const w of waiters.splice(0)) w();
    },
    on: (_: string, h: (m: HostToExportWorker) => unknown) => void (handler = h),
    /** Sends a message and waits for the next answer. */
    async ask(m: HostToExportWorker): Promise<ExportWorkerToHost> {
      const n = posted.length;
      handler!(m);
      while (posted.length === n) await new Promise<void>((r) => waiters.push(r));
      return posted[n]!;
    },
    send: (m: HostToExportWorker) => handler!(m),
  };
  serveExport(p as never);
  return p;
}

describe('export worker (in this thread): bytes written and answers', () => {
  let dir: string;
  before(() => (dir = fs.mkdtempSync(path.join(os.tmpdir(), 'dp-export-worker-'))));
  after(() => fs.rmSync(dir, { recursive: true, force: true }));

  it('a SQL result as CSV: header from the schema, every row, each chunk answered with its lines', async () => {
    const file = path.join(dir, 'a.csv');
    const p = port();
    const opened = await p.ask({ type: 'open', file, format: 'csv' });
    assert.equal(opened.type, 'opened');
    assert.equal((opened as { isMainThread: boolean }).isMainThread, true);
    assert.deepEqual(await p.ask({ type: 'begin' }), { type: 'ok' });
    const body =
      '{"schema":[{"name":"id","column_type":"Int64"},{"name":"s"}]}\n' +
      '{"data":[[1,"a,b"],[2,null]]}\n{"data":[[3,"say \\"hi\\""]]}\n{"done":true}\n';
    // Cut inside a line: the first answer holds only the lines complete so far.
    const first = await p.ask({ type: 'bytes', bytes: enc.encode(body.slice(0, 70)) });
    assert.deepEqual(first, {
      type: 'lines',
      items: [{ value: { schema: [{ name: 'id', column_type: 'Int64' }, { name: 's' }] }, line: 1 }],
    });
    const rest = await p.ask({ type: 'bytes', bytes: enc.encode(body.slice(70)) });
    assert.deepEqual(rest, {
      type: 'lines',
      items: [
        { counted: 2, line: 2 },
        { counted: 1, line: 3 },
        { value: { done: true }, line: 4 },
      ],
    });
    assert.deepEqual(await p.ask({ type: 'end' }), { type: 'lines', items: [] });
    assert.deepEqual(await p.ask({ type: 'finish' }), { type: 'finished', rows: 3 });
    assert.equal(fs.readFileSync(file, 'utf8'), 'id,s\r\n1,"a,b"\r\n2,\r\n3,"say ""hi"""\r\n');
  });

  it('a schema and data on one line: the columns, then the rows', async () => {
    const file = path.join(dir, 'one.json');
    const p = port();
    await p.ask({ type: 'open', file, format: 'json' });
    await p.ask({ type: 'begin', maxLineBytes: 1000 });
    const got = await p.ask({
      type: 'bytes',
      bytes: enc.encode('{"schema":[{"name":"x"},{"name":"y"}],"data":[[1,2]],"extra":1}\n'),
    });
    assert.deepEqual(got, {
      type: 'lines',
      items: [
        { value: { schema: [{ name: 'x' }, { name: 'y' }], extra: 1 }, line: 1 },
        { counted: 1, line: 1 },
      ],
    });
    await p.ask({ type: 'end' });
    assert.deepEqual(await p.ask({ type: 'finish' }), { type: 'finished', rows: 1 });
    assert.equal(fs.readFileSync(file, 'utf8'), '[\n{"x":1,"y":2}\n]\n');
  });

  it("a JSON query's table batches: columns once, rows counted, an empty export is an empty array", async () => {
    const file = path.join(dir, 't.json');
    const p = port();
    await p.ask({ type: 'open', file, format: 'json' });
    assert.deepEqual(await p.ask({ type: 'table', columns: ['a', 'b'], rows: [[1], [2, 'x']] }), {
      type: 'written',
      rows: 2,
    });
    assert.deepEqual(await p.ask({ type: 'table', rows: [[3, null]] }), { type: 'written', rows: 3 });
    assert.deepEqual(await p.ask({ type: 'finish' }), { type: 'finished', rows: 3 });
    assert.equal(
      fs.readFileSync(file, 'utf8'),
      '[\n{"a":1,"b":null},\n{"a":2,"b":"x"},\n{"a":3,"b":null}\n]\n',
    );
    const empty = path.join(dir, 'e.json');
    const q = port();
    await q.ask({ type: 'open', file: empty, format: 'json' });
    await q.ask({ type: 'table', columns: ['a'], rows: [] });
    assert.deepEqual(await q.ask({ type: 'finish' }), { type: 'finished', rows: 0 });
    assert.equal(fs.readFileSync(empty, 'utf8'), '[]\n');
  });

  const refusals: {
    what: string;
    run(p: ReturnType<typeof port>): Promise<ExportWorkerToHost>;
    error: unknown;
  }[] = [
    {
      what: 'a SQL row that is not an array',
      run: async (p) => {
        await p.ask({ type: 'begin' });
        return p.ask({
          type: 'bytes',
          bytes: enc.encode('{"schema":[{"name":"a"}]}\n{"data":[[1],{"a":2}]}\n'),
        });
      },
      error: {
        message: 'Row 2 of line 2 of the SQL result is not an array of values.',
        kind: 'protocol',
        code: 'EXPORT_ROW',
        line: undefined,
      },
    },
    {
      what: 'a table row that is not an array',
      run: (p) => p.ask({ type: 'table', columns: ['a'], rows: [[1], 'x' as never] }),
      error: {
        message: 'Row 2 of the result is not an array of values.',
        kind: 'protocol',
        code: 'EXPORT_ROW',
        line: undefined,
      },
    },
  ];
  for (const r of refusals) {
    it(`refuses ${r.what}, names where, and answers nothing after`, async () => {
      const p = port();
      await p.ask({ type: 'open', file: path.join(dir, 'r.csv'), format: 'csv' });
      const failed = await r.run(p);
      assert.deepEqual(failed, { type: 'failed', error: r.error });
      const n = p.posted.length;
      p.send({ type: 'table', rows: [[1]] });
      p.send({ type: 'finish' });
      await new Promise((res) => setTimeout(res, 20));
      assert.equal(p.posted.length, n, 'nothing after a failure');
    });
  }

  it('a line longer than allowed fails with the reader’s error kind', async () => {
    const p = port();
    await p.ask({ type: 'open', file: path.join(dir, 'long.csv'), format: 'csv' });
    await p.ask({ type: 'begin', maxLineBytes: 8 });
    const failed = await p.ask({ type: 'bytes', bytes: enc.encode('{"schema":[{"name":"abcdefgh"}]}\n') });
    assert.equal(failed.type, 'failed');
    assert.equal(typeof (failed as { error: { kind?: string } }).error.kind, 'string');
  });

  it('an export cancelled before it starts starts no worker and writes no file', async () => {
    const file = path.join(dir, 'never.csv');
    await assert.rejects(
      exportQuery({} as never, 'sql', 'SELECT 1', file, 'csv', { signal: AbortSignal.abort() }),
      (e) => isApiError(e) && e.kind === 'cancelled',
    );
    assert.equal(fs.existsSync(file), false);
  });

  it('a file that cannot be written fails, naming it', async () => {
    const file = path.join(dir, 'missing', 'x.csv');
    const p = port();
    const failed = await p.ask({ type: 'open', file, format: 'csv' });
    assert.equal(failed.type, 'failed');
    const { message, kind } = (failed as { error: { message: string; kind?: string } }).error;
    assert.ok(message.startsWith(`Could not write ${file}: `), message);
    assert.equal(kind, undefined);
  });

  it('the formatter: CSV quoting and CRLF, JSON keyed by column, missing values null', () => {
    const csv = new ExportFormatter('csv');
    assert.equal(
      csv.start() +
        csv.columns(['a', 'b"c']) +
        csv.batch([
          [1, 'x\ny'],
          [null, { o: 1 }],
        ]) +
        csv.end(),
      'a,"b""c"\r\n1,"x\ny"\r\n,"{""o"":1}"\r\n',
    );
    assert.equal(csv.rows, 2);
    const json = new ExportFormatter('json');
    assert.equal(json.start() + json.columns(['a']) + json.end(), '[]\n');
    assert.equal(json.columns(['a', 'b']), '');
    assert.equal(
      json.batch([[1]]) + json.batch([[2, 3]]) + json.end(),
      '\n{"a":1,"b":null},\n{"a":2,"b":3}\n]\n',
    );
  });
});
