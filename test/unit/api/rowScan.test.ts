// The row counter and the counting line splitter (src/api/rowScan.ts): counts must equal what
// JSON.parse finds, in any chunking, for strings holding quotes, backslashes, brackets, braces and
// newlines; lines that are not data lines are parsed as the NDJSON parser parses them.
import * as assert from 'node:assert/strict';
import fc from 'fast-check';
import { isApiError, type ApiError } from '../../../src/api/errors';
import { DataClient } from '../../../src/api/dataClient';
import { ndjsonLines } from '../../../src/api/ndjson';
import { RowCounter, scanLines, type CountedLine } from '../../../src/api/rowScan';
import type { NdjsonLine } from '../../../src/api/ndjson';
import { chunked, startServer } from './helpers';

const enc = new TextEncoder();

/** Strings that are hard for a scanner: quotes, backslashes, brackets, braces, newlines, non-ASCII. */
const tricky = fc.oneof(
  fc.string({ unit: fc.constantFrom('"', '\\', '[', ']', '{', '}', ',', '\n', '\r', 'a', 'é', '😀', ' ') }),
  fc.string({ unit: 'grapheme' }),
);
const cell = fc.oneof(
  tricky,
  fc.integer(),
  fc.double({ noNaN: true, noDefaultInfinity: true }),
  fc.constant(null),
  fc.boolean(),
);
const row = fc.array(fc.oneof(cell, fc.array(cell, { maxLength: 3 })), { maxLength: 6 });
const batch = fc.array(row, { minLength: 0, maxLength: 8 });

async function collect(
  bytes: Uint8Array,
  cuts: number[],
  parseRows: number,
): Promise<{ rowsParsed: number; counted: number; items: (NdjsonLine | CountedLine)[] }> {
  let rowsParsed = 0;
  let counted = 0;
  const items: (NdjsonLine | CountedLine)[] = [];
  for await (const item of scanLines(chunked(bytes, cuts), { counting: () => rowsParsed >= parseRows })) {
    items.push(item);
    if ('counted' in item) counted += item.counted;
    else {
      const data = (item.value as { data?: unknown[] }).data;
      if (data) rowsParsed += data.length;
    }
  }
  return { rowsParsed, counted, items };
}

describe('rowScan', () => {
  describe('RowCounter', () => {
    it('counts the rows JSON.parse finds, in any chunking', () => {
      fc.assert(
        fc.property(batch, fc.array(fc.nat(), { maxLength: 12 }), (rows, cuts) => {
          const bytes = enc.encode(JSON.stringify({ data: rows }));
          const counter = new RowCounter();
          const points = [...new Set(cuts.map((c) => c % (bytes.length + 1)))].sort((a, b) => a - b);
          let prev = 0;
          for (const p of [...points, bytes.length]) {
            counter.scan(bytes, prev, p);
            prev = p;
          }
          assert.equal(counter.rows, rows.length);
          assert.equal(counter.end(), true);
        }),
        { numRuns: 300 },
      );
    });

    it('does not count brackets inside strings, even after escaped quotes and backslashes', () => {
      const counter = new RowCounter();
      counter.scan(enc.encode('{"data":[["a\\"[","\\\\"],["]\\\\\\"[[",{"k":"["}],[]]}'));
      assert.equal(counter.rows, 3);
      assert.equal(counter.end(), true);
    });

    it('reports an unbalanced line', () => {
      const counter = new RowCounter();
      counter.scan(enc.encode('{"data":[["a"],["b'));
      assert.equal(counter.rows, 2);
      assert.equal(counter.end(), false);
    });
  });

  describe('scanLines', () => {
    it('parses everything like ndjsonLines while counting is off', async () => {
      await fc.assert(
        fc.asyncProperty(
          fc.array(batch, { maxLength: 5 }),
          fc.array(fc.nat(), { maxLength: 10 }),
          async (batches, cuts) => {
            const text =
              [
                JSON.stringify({ schema: [{ name: 'a', column_type: 'String' }] }),
                ...batches.map((b) => JSON.stringify({ data: b })),
              ].join('\n') + '\n';
            const bytes = enc.encode(text);
            const c = cuts.map((x) => x % (bytes.length + 1));
            const expected: NdjsonLine[] = [];
            for await (const l of ndjsonLines(chunked(bytes, c))) expected.push(l);
            const got = await collect(bytes, c, Number.POSITIVE_INFINITY);
            assert.deepEqual(got.items, expected);
          },
        ),
        { numRuns: 100 },
      );
    });

    it('past the limit counts data lines; parsed + counted = all rows, other lines still parsed', async () => {
      await fc.assert(
        fc.asyncProperty(
          fc.array(batch, { minLength: 1, maxLength: 8 }),
          fc.nat({ max: 20 }),
          fc.array(fc.nat(), { maxLength: 16 }),
          fc.boolean(),
          async (batches, parseRows, cuts, trailingError) => {
            const lines = [
              JSON.stringify({ schema: [{ name: 'a', column_type: 'String' }] }),
              ...batches.map((b) => JSON.stringify({ data: b })),
              '',
              ...(trailingError ? [JSON.stringify({ error: 'boom "[" \n', type: 'UserError' })] : []),
            ];
            const bytes = enc.encode(lines.join('\n') + '\n');
            const total = batches.reduce((n, b) => n + b.length, 0);
            const got = await collect(
              bytes,
              cuts.map((x) => x % (bytes.length + 1)),
              parseRows,
            );
            assert.equal(got.rowsParsed + got.counted, total);
            const parsedSchema = got.items.filter((i) => 'value' in i && 'schema' in (i.value as object));
            assert.equal(parsedSchema.length, 1);
            // Line numbers are physical lines, counted or parsed.
            const numbers = got.items.map((i) => i.line);
            assert.deepEqual(
              numbers,
              [...numbers].sort((a, b) => a - b),
            );
            assert.equal(new Set(numbers).size, numbers.length);
            if (trailingError) {
              const last = got.items.at(-1) as NdjsonLine;
              assert.equal(last.line, lines.length);
              assert.equal((last.value as { error: string }).error, 'boom "[" \n');
            }
          },
        ),
        { numRuns: 200 },
      );
    });

    it('stops parsing rows soon after the limit: the rest is counted', async () => {
      const lines = [JSON.stringify({ schema: [] })];
      for (let i = 0; i < 100; i++)
        lines.push(
          JSON.stringify({
            data: [
              [i, `r${i}`],
              [i, '"]'],
            ],
          }),
        );
      const bytes = enc.encode(lines.join('\n') + '\n');
      const got = await collect(bytes, [10, 500, 501, 2000], 10);
      assert.ok(got.rowsParsed >= 10 && got.rowsParsed < 60, `parsed ${got.rowsParsed}`);
      assert.equal(got.rowsParsed + got.counted, 200);
    });

    it('a data line cut off at the end of the stream is a protocol error naming its line', async () => {
      const text = `${JSON.stringify({ schema: [] })}\n{"data":[[1]]}\n{"data":[[2],["x`;
      const bytes = enc.encode(text);
      let err: unknown;
      try {
        await collect(bytes, [3, 20, 31], 0);
      } catch (e) {
        err = e;
      }
      assert.ok(isApiError(err), String(err));
      assert.equal((err as ApiError).kind, 'protocol');
      assert.equal((err as ApiError).line, 3);
    });

    it('a malformed line that is not a data line is reported by the NDJSON parser with its line', async () => {
      const text = `${JSON.stringify({ schema: [] })}\n{"data":[[1]]}\n{"dat\n`;
      let err: unknown;
      try {
        await collect(enc.encode(text), [], 0);
      } catch (e) {
        err = e;
      }
      assert.ok(isApiError(err), String(err));
      assert.equal((err as ApiError).line, 3);
      assert.match((err as ApiError).message, /malformed line 3/);
    });
  });

  describe('DataClient.cubesql with parseRows', () => {
    const lines = [JSON.stringify({ schema: [{ name: 'n', column_type: 'Int64' }] })];
    for (let i = 0; i < 50; i++) lines.push(JSON.stringify({ data: [[`${i}`], [`"]${i}`]] }));

    async function run(body: string, parseRows?: number) {
      const server = await startServer((_req, res) => {
        res.writeHead(200, { 'content-type': 'application/json' });
        // Small writes: the client sees many chunks, some splitting lines.
        const bytes = Buffer.from(body);
        for (let i = 0; i < bytes.length; i += 97) res.write(bytes.subarray(i, i + 97));
        res.end();
      });
      const client = new DataClient({ baseUrl: server.url, token: async () => 't' });
      let parsed = 0;
      let counted = 0;
      try {
        const chunks =
          parseRows === undefined ? client.cubesql('SELECT 1') : client.cubesql('SELECT 1', { parseRows });
        for await (const chunk of chunks) {
          if (chunk.type === 'rows') parsed += chunk.rows.length;
          else if (chunk.type === 'count') counted += chunk.rows;
        }
      } finally {
        await client.close();
        await server.close();
      }
      return { parsed, counted };
    }

    it('parses about parseRows rows and counts the rest', async () => {
      const r = await run(lines.join('\n') + '\n', 20);
      assert.ok(r.parsed >= 20 && r.parsed < 100, `parsed ${r.parsed}`);
      assert.ok(r.counted > 0);
      assert.equal(r.parsed + r.counted, 100);
    });

    it('parses every row without parseRows (export)', async () => {
      assert.deepEqual(await run(lines.join('\n') + '\n'), { parsed: 100, counted: 0 });
    });

    it('still throws the error line that ends a result past the cap', async () => {
      const body = [...lines, JSON.stringify({ error: 'Out of memory', requestId: 'r-1' })].join('\n') + '\n';
      await assert.rejects(run(body, 5), (e: unknown) => isApiError(e) && /Out of memory/.test(e.message));
    });
  });
});
