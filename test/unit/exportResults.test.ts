// Export Results through its worker thread: the bytes written equal the formatter it replaced on
// hostile values, rows are never parsed on the host's thread, cancel terminates the worker and
// leaves no file, and the worker's errors reach the caller with their line.
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import type { ServerResponse } from 'node:http';
import * as os from 'node:os';
import * as path from 'node:path';
import { Worker, threadId as hostThread } from 'node:worker_threads';
import { isApiError } from '../../src/api/errors';
import { csvCell } from '../../src/shared/notebookOutput';
import { exportQuery, exportWorkerFile, type ExportWorkerInfo } from '../../src/notebook/exportRunner';
import type { ExportWorkerToHost, HostToExportWorker } from '../../src/notebook/exportWorker';
import { loadPayload } from '../../src/notebook/results';
import {
  dataClientFor as client,
  deferred,
  endlessRows,
  ndjsonHead,
  rejection,
  sendJson,
  startServer,
  withServer,
} from './api/helpers';

/** The formatter Export Results wrote with on the host's thread before the worker (kept verbatim). */
function legacyBytes(format: 'csv' | 'json', names: string[], rows: unknown[][]): string {
  let s = format === 'json' ? '[' : '';
  if (format === 'csv') s += names.map(csvCell).join(',') + '\r\n';
  let n = 0;
  for (const r of rows) {
    if (format === 'csv') s += r.map(csvCell).join(',') + '\r\n';
    else
      s +=
        (n === 0 ? '\n' : ',\n') + JSON.stringify(Object.fromEntries(names.map((c, i) => [c, r[i] ?? null])));
    n++;
  }
  if (format === 'json') s += n === 0 ? ']\n' : '\n]\n';
  return s;
}

// Raw JSON text of hostile values (big numbers stay as the server wrote them).
const HOSTILE = [
  '"plain"',
  '"a,b"',
  '"say \\"hi\\""',
  '"line\\nbreak"',
  '"cr\\r\\nlf"',
  '""',
  'null',
  '"Zürich — 東京 🚀 e\\u0301"',
  '12345678901234567890123',
  '-0',
  '1e400',
  '0.1',
  'true',
  '{"nested":"o,\\"b\\"j"}',
  '[1,"two",null]',
  '"trailing space "',
  '"\\u2028sep\\u2029"',
];
const NAMES = ['id', 'value', 'na,"me"\n2'];

/** `count` rows cycling through the hostile values, as NDJSON batches of up to 7 rows. */
function hostileBody(count: number): { text: string; rows: unknown[][] } {
  const schema = NAMES.map((name) => ({ name, column_type: 'String' }));
  const lines = [JSON.stringify({ schema, lastRefreshTime: '2025-01-01T00:00:00.000Z' })];
  const rows: unknown[][] = [];
  for (let i = 0; i < count; i += 7) {
    const batch: string[] = [];
    for (let j = i; j < Math.min(count, i + 7); j++) {
      const raw = `[${j},${HOSTILE[j % HOSTILE.length]!},${HOSTILE[(j * 5 + 3) % HOSTILE.length]!}]`;
      batch.push(raw);
      rows.push(JSON.parse(raw) as unknown[]);
    }
    lines.push(`{"data":[${batch.join(',')}]}`);
  }
  return { text: lines.join('\n') + '\n', rows };
}

/** Writes `text` in pieces of 1..300 bytes (a fixed sequence), splitting characters and lines anywhere. */
function writeInPieces(res: ServerResponse, text: string, end = true): void {
  const bytes = Buffer.from(text, 'utf8');
  let seed = 7;
  for (let i = 0; i < bytes.length;) {
    seed = (seed * 1103515245 + 12345) % 2 ** 31;
    const size = 1 + (seed % 300);
    res.write(bytes.subarray(i, i + size));
    i += size;
  }
  if (end) res.end();
}

let dir: string;
beforeEach(() => (dir = fs.mkdtempSync(path.join(os.tmpdir(), 'dp-export-'))));
afterEach(() => fs.rmSync(dir, { recursive: true, force: true }));

describe('notebook/exportResults: bytes', () => {
  for (const format of ['csv', 'json'] as const) {
    it(`a SQL result exported as ${format} has the bytes of the former formatter (hostile values, any chunking)`, async () => {
      const { text, rows } = hostileBody(400);
      await withServer(
        (_req, res) => {
          ndjsonHead(res);
          writeInPieces(res, text);
        },
        async (s) => {
          const file = path.join(dir, `out.${format}`);
          const progress: number[] = [];
          const n = await exportQuery(client(s), 'sql', 'SELECT *', file, format, {
            onRows: (k) => progress.push(k),
          });
          assert.equal(n, 400);
          assert.equal(fs.readFileSync(file, 'utf8'), legacyBytes(format, NAMES, rows));
          assert.equal(progress.at(-1), 400, 'progress reaches every row');
          assert.ok(
            progress.every((k, i) => i === 0 || k > progress[i - 1]!),
            'progress only grows',
          );
        },
      );
    });
  }

  it('an empty SQL result is a header alone (CSV) or [] (JSON), as before', async () => {
    const schemaOnly = JSON.stringify({ schema: [{ name: 'a', column_type: 'Int64' }] }) + '\n';
    await withServer(
      (_req, res) => {
        ndjsonHead(res);
        res.end(schemaOnly);
      },
      async (s) => {
        for (const format of ['csv', 'json'] as const) {
          const file = path.join(dir, `empty.${format}`);
          assert.equal(await exportQuery(client(s), 'sql', 'SELECT a', file, format), 0);
          assert.equal(fs.readFileSync(file, 'utf8'), legacyBytes(format, ['a'], []));
        }
      },
    );
  });

  it('a JSON query result has the bytes of the former formatter, in batches', async () => {
    const data = Array.from({ length: 12_345 }, (_, i) => ({
      'orders.status': JSON.parse(HOSTILE[i % HOSTILE.length]!) as unknown,
      'orders.count': String(i),
    }));
    const body = {
      queryType: 'regularQuery',
      results: [
        {
          query: {},
          data,
          annotation: {
            measures: { 'orders.count': { title: 'Orders Count', type: 'number' } },
            dimensions: { 'orders.status': { title: 'Orders Status', type: 'string' } },
            segments: {},
            timeDimensions: {},
          },
        },
      ],
    };
    await withServer(
      (_req, res) => sendJson(res, 200, body),
      async (s) => {
        const query = JSON.stringify({ measures: ['orders.count'], dimensions: ['orders.status'] });
        const p = loadPayload(JSON.parse(JSON.stringify(body)) as never, Number.MAX_SAFE_INTEGER);
        for (const format of ['csv', 'json'] as const) {
          const file = path.join(dir, `load.${format}`);
          const progress: number[] = [];
          const n = await exportQuery(client(s), 'json', query, file, format, {
            onRows: (k) => progress.push(k),
          });
          assert.equal(n, 12_345);
          assert.deepEqual(progress, [12_345]);
          const names = p.columns.map((c) => c.name);
          assert.equal(fs.readFileSync(file, 'utf8'), legacyBytes(format, names, p.rows));
        }
      },
    );
  });

  it('re-sends on Continue wait and writes the rows once', async () => {
    const { text, rows } = hostileBody(30);
    await withServer(
      (_req, res, _b, n) => {
        ndjsonHead(res);
        if (n === 1) res.end('{"error":"Continue wait"}\n');
        else writeInPieces(res, text);
      },
      async (s) => {
        const file = path.join(dir, 'wait.csv');
        assert.equal(await exportQuery(client(s), 'sql', 'SELECT *', file, 'csv'), 30);
        assert.equal(s.requests.length, 2);
        assert.equal(fs.readFileSync(file, 'utf8'), legacyBytes('csv', NAMES, rows));
      },
    );
  });
});

describe('notebook/exportResults: off the host thread', () => {
  it('the rows are parsed in a worker thread: JSON.parse on the host never sees a data line', async () => {
    const { text } = hostileBody(2_000);
    const s = await startServer((_req, res) => {
      ndjsonHead(res);
      writeInPieces(res, text);
    });
    const parse = JSON.parse;
    let dataLines = 0;
    JSON.parse = function (this: unknown, t: string, ...rest: unknown[]) {
      if (typeof t === 'string' && t.includes('"data"')) dataLines++;
      return (parse as (...a: unknown[]) => unknown).call(this, t, ...rest);
    } as typeof JSON.parse;
    let info: ExportWorkerInfo | undefined;
    try {
      const file = path.join(dir, 'thread.csv');
      const n = await exportQuery(client(s), 'sql', 'SELECT *', file, 'csv', { onWorker: (i) => (info = i) });
      assert.equal(n, 2_000);
    } finally {
      JSON.parse = parse;
      await s.close();
    }
    assert.equal(dataLines, 0, 'no data line was parsed on the host thread');
    assert.equal(info?.isMainThread, false);
    assert.notEqual(info?.threadId, hostThread);
    assert.equal(await info!.exited, 1, 'the worker is terminated once the file is written');
  });
});

describe('notebook/exportResults: cancel and errors', () => {
  it('cancel terminates the worker and removes the partial file', async () => {
    const closed = deferred();
    const s = await startServer((_req, res) => endlessRows(res, () => closed.resolve()));
    const file = path.join(dir, 'cancel.csv');
    const abort = new AbortController();
    let info: ExportWorkerInfo | undefined;
    try {
      const e = await rejection(() =>
        exportQuery(client(s), 'sql', 'SELECT a FROM big', file, 'csv', {
          signal: abort.signal,
          onWorker: (i) => (info = i),
          onRows: (n) => {
            if (n >= 20) abort.abort();
          },
        }),
      );
      assert.ok(isApiError(e) && e.kind === 'cancelled', String(e));
      assert.equal(await info!.exited, 1, 'the worker thread was terminated');
      assert.equal(fs.existsSync(file), false, 'no partial file is left');
      await closed.promise;
    } finally {
      await s.close();
    }
  });

  it('a malformed line fails the export with its line number and leaves no file', async () => {
    await withServer(
      (_req, res) => {
        ndjsonHead(res);
        res.end('{"schema":[{"name":"a","column_type":"Int64"}]}\n{"data":[["1"]]}\n{"data":[["2"]\n');
      },
      async (s) => {
        const file = path.join(dir, 'bad.csv');
        const e = await rejection(() => exportQuery(client(s), 'sql', 'SELECT a', file, 'csv'));
        assert.ok(isApiError(e), String(e));
        assert.equal(e.kind, 'protocol');
        assert.equal(e.line, 3);
        assert.match(e.message, /malformed line 3/);
        assert.equal(fs.existsSync(file), false);
      },
    );
  });

  it("a trailing error line is the query's error; a row that is not an array is named", async () => {
    await withServer(
      (req, res) => {
        ndjsonHead(res);
        const head = '{"schema":[{"name":"a","column_type":"Int64"}]}\n{"data":[["1"]]}\n';
        if (req.url?.includes('/rowbad/')) res.end(head + '{"data":[["2"],{"a":3}]}\n');
        else res.end(head + '{"error":"Query timeout","requestId":"r-9"}\n');
      },
      async (s) => {
        const file = path.join(dir, 'err.json');
        const e = await rejection(() => exportQuery(client(s), 'sql', 'SELECT a', file, 'json'));
        assert.ok(isApiError(e));
        assert.match(e.message, /Query timeout/);
        assert.equal(fs.existsSync(file), false);
        const bad = client(s, { baseUrl: s.url + '/rowbad/cubejs-api' });
        const r = await rejection(() => exportQuery(bad, 'sql', 'SELECT a', file, 'csv'));
        assert.ok(isApiError(r));
        assert.equal(r.message, 'Row 2 of line 3 of the SQL result is not an array of values.');
        assert.equal(fs.existsSync(file), false);
      },
    );
  });

  it('a file that cannot be written is said so, with its path', async () => {
    await withServer(
      (_req, res) => {
        ndjsonHead(res);
        res.end('{"schema":[{"name":"a","column_type":"Int64"}]}\n');
      },
      async (s) => {
        const file = path.join(dir, 'missing-folder', 'x.csv');
        const e = await rejection(() => exportQuery(client(s), 'sql', 'SELECT a', file, 'csv'));
        assert.match((e as Error).message, /^Could not write .*missing-folder.*x\.csv: ENOENT/);
        assert.equal(s.requests.length, 0, 'nothing is asked of the server');
      },
    );
  });
});

describe('notebook/exportWorker: protocol', () => {
  /** Drives a worker directly: each request's one answer. */
  function driver() {
    const worker = new Worker(exportWorkerFile(path.join(__dirname, '../../src/notebook')));
    const answers: ExportWorkerToHost[] = [];
    let wake: (() => void) | undefined;
    worker.on('message', (m: ExportWorkerToHost) => {
      answers.push(m);
      wake?.();
    });
    const ask = async (m: HostToExportWorker): Promise<ExportWorkerToHost> => {
      worker.postMessage(m);
      while (answers.length === 0) await new Promise<void>((r) => (wake = r));
      return answers.shift()!;
    };
    return { worker, ask };
  }

  it('answers each chunk with its lines: schema without the rows, data lines counted, lines across chunks joined', async () => {
    const { worker, ask } = driver();
    try {
      const file = path.join(dir, 'proto.csv');
      const opened = await ask({ type: 'open', file, format: 'csv' });
      assert.equal(opened.type, 'opened');
      assert.deepEqual(await ask({ type: 'begin' }), { type: 'ok' });
      const body = Buffer.from(
        '{"schema":[{"name":"é"}],"data":[["a"]],"x":1}\n{"data":[["東"],["b"]]}\n{"note":"new"}\n',
      );
      const cut = body.indexOf('東') + 1; // inside the character
      assert.deepEqual(await ask({ type: 'bytes', bytes: body.subarray(0, cut) }), {
        type: 'lines',
        items: [
          { value: { schema: [{ name: 'é' }], x: 1 }, line: 1 },
          { counted: 1, line: 1 },
        ],
      });
      assert.deepEqual(await ask({ type: 'bytes', bytes: body.subarray(cut) }), {
        type: 'lines',
        items: [
          { counted: 2, line: 2 },
          { value: { note: 'new' }, line: 3 },
        ],
      });
      assert.deepEqual(await ask({ type: 'end' }), { type: 'lines', items: [] });
      assert.deepEqual(await ask({ type: 'finish' }), { type: 'finished', rows: 3 });
      assert.equal(fs.readFileSync(file, 'utf8'), 'é\r\na\r\n東\r\nb\r\n');
    } finally {
      await worker.terminate();
    }
  });

  it('a new body drops the half line of an abandoned one; a failure is answered once, with its kind', async () => {
    const { worker, ask } = driver();
    try {
      await ask({ type: 'open', file: path.join(dir, 'p2.json'), format: 'json' });
      await ask({ type: 'begin' });
      await ask({ type: 'bytes', bytes: Buffer.from('{"data":[["cut') });
      await ask({ type: 'begin' });
      const a = await ask({ type: 'bytes', bytes: Buffer.from('{"schema":[{"name":"a"}]}\n') });
      assert.deepEqual(a, { type: 'lines', items: [{ value: { schema: [{ name: 'a' }] }, line: 1 }] });
      const f = await ask({ type: 'bytes', bytes: Buffer.from('nope\n') });
      assert.equal(f.type, 'failed');
      assert.equal(f.type === 'failed' && f.error.kind, 'protocol');
      assert.equal(f.type === 'failed' && f.error.line, 2);
    } finally {
      await worker.terminate();
    }
  });
});
