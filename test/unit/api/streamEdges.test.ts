// The edges of the NDJSON reader and the row-counting splitter: the exact errors (code, line,
// sentence), the line cap at exactly its size, CRLF in what is shown, blank trailing lines, a
// data line split inside its prefix, an escape split by an empty range, and `counting` asked once.
import * as assert from 'node:assert/strict';
import { isApiError, type ApiError } from '../../../src/api/errors';
import { linePieces, ndjsonLines } from '../../../src/api/ndjson';
import { RowCounter, scanLines } from '../../../src/api/rowScan';
import { collect, rejection } from './helpers';

const enc = new TextEncoder();

async function* chunks(...parts: string[]): AsyncGenerator<Uint8Array> {
  for (const p of parts) yield enc.encode(p);
}

async function failure(p: () => Promise<unknown>): Promise<ApiError> {
  const e = await rejection(p);
  assert.ok(isApiError(e), String(e));
  assert.equal(e.kind, 'protocol');
  return e;
}

describe('api/ndjson and rowScan: edges', () => {
  describe('ndjsonLines', () => {
    it('each error has its code and line', async () => {
      const bad = await failure(() => collect(ndjsonLines(chunks('{"a":1}\n{"a":\n'))));
      assert.equal(bad.code, 'NDJSON_MALFORMED');
      assert.equal(bad.line, 2);
      const utf8 = await failure(() =>
        collect(
          ndjsonLines(
            (async function* () {
              yield new Uint8Array([0x7b, 0x7d, 0x0a, 0x22, 0xff, 0x22, 0x0a]);
            })(),
          ),
        ),
      );
      assert.equal(utf8.code, 'NDJSON_UTF8');
      assert.equal(utf8.message, 'The server sent invalid UTF-8 on line 2 of the stream.');
      const long = await failure(() =>
        collect(ndjsonLines(chunks('{"a":"xxxxxxxx"}\n'), { maxLineBytes: 10 })),
      );
      assert.equal(long.code, 'NDJSON_LINE_TOO_LONG');
      assert.equal(long.message, 'Line 1 of the stream is longer than 10 bytes; giving up.');
    });

    it('a malformed CRLF line is shown without its carriage return', async () => {
      const e = await failure(() => collect(ndjsonLines(chunks('{"a":1}\r\nnot json\r\n'))));
      assert.equal(
        e.message,
        'The server sent a malformed line 2 in the stream (not JSON: "not json"). The response may have been cut off; try again.',
      );
    });

    it('takes a line of exactly the cap, whole or across chunks, and refuses one byte more', async () => {
      const line = '{"a":"12"}'; // 10 bytes
      assert.deepEqual(await collect(ndjsonLines(chunks(`${line}\n`), { maxLineBytes: 10 })), [
        { value: { a: '12' }, line: 1 },
      ]);
      assert.deepEqual(await collect(ndjsonLines(chunks('{"a":', `"12"}\n`), { maxLineBytes: 10 })), [
        { value: { a: '12' }, line: 1 },
      ]);
      const whole = await failure(() => collect(ndjsonLines(chunks('{"a":"123"}\n'), { maxLineBytes: 10 })));
      assert.equal(whole.code, 'NDJSON_LINE_TOO_LONG');
      const split = await failure(() =>
        collect(ndjsonLines(chunks('{"a":', '"123"}\n'), { maxLineBytes: 10 })),
      );
      assert.equal(split.code, 'NDJSON_LINE_TOO_LONG');
    });

    it('a blank last line without newline yields nothing', async () => {
      assert.deepEqual(await collect(ndjsonLines(chunks('{"a":1}\n', '   '))), [
        { value: { a: 1 }, line: 1 },
      ]);
    });
  });

  describe('linePieces', () => {
    it('a chunk ending with a newline leaves no empty piece behind it', async () => {
      const pieces = await collect(linePieces(chunks('a\nb\n', 'c')));
      assert.deepEqual(
        pieces.map((p) => [new TextDecoder().decode(p.bytes), p.eol]),
        [
          ['a', true],
          ['b', true],
          ['c', false],
        ],
      );
    });
  });

  describe('RowCounter', () => {
    it('keeps an escape across an empty range', () => {
      const c = new RowCounter();
      c.scan(enc.encode('{"data":[["a\\'));
      c.scan(new Uint8Array(0));
      // The quote is escaped: the string goes on, and its "]]}" are not structure.
      c.scan(enc.encode('"]]}"]]}'));
      assert.equal(c.rows, 1);
      assert.equal(c.end(), true);
    });

    it('an escape at the end of one range skips the first byte of a range that starts later in its buffer', () => {
      const c = new RowCounter();
      c.scan(enc.encode('{"data":[["a\\'));
      const next = enc.encode('xx"]]}"]]}');
      c.scan(next, 2, next.length);
      assert.equal(c.end(), true);
    });

    it('a line is whole only with every bracket closed and no string open', () => {
      const c = new RowCounter();
      c.scan(enc.encode('{"data":[]}"'));
      assert.equal(c.end(), false, 'a string left open');
      c.scan(enc.encode('{"data":[[1]'));
      assert.equal(c.end(), false, 'a bracket left open');
      c.scan(enc.encode('{"data":[[1]]}'));
      assert.equal(c.end(), true);
    });
  });

  describe('scanLines', () => {
    it('counts a data line split inside its prefix', async () => {
      assert.deepEqual(
        await collect(scanLines(chunks('{"da', 'ta":[[1],[2]]}\n'), { counting: () => true })),
        [{ counted: 2, line: 1 }],
      );
    });

    it('asks counting() until it says yes, then never again', async () => {
      let asked = 0;
      const out = await collect(
        scanLines(chunks('{"data":[[1]]}\n{"data":[[2]]}\n{"data":[[3]]}\n'), {
          counting: () => ++asked === 2,
        }),
      );
      assert.deepEqual(out, [
        { value: { data: [[1]] }, line: 1 },
        { counted: 1, line: 2 },
        { counted: 1, line: 3 },
      ]);
      assert.equal(asked, 2);
    });

    it('caps the lines it keeps with maxLineBytes', async () => {
      const e = await failure(() =>
        collect(
          scanLines(chunks(`{"note":"${'x'.repeat(50)}"}\n`), { maxLineBytes: 20, counting: () => true }),
        ),
      );
      assert.equal(e.code, 'NDJSON_LINE_TOO_LONG');
    });

    it('counts a last data line without newline; a blank last piece yields nothing', async () => {
      assert.deepEqual(await collect(scanLines(chunks('{"data":[[1]]}'), { counting: () => true })), [
        { counted: 1, line: 1 },
      ]);
      assert.deepEqual(await collect(scanLines(chunks('{"data":[[1]]}\n', '  '), { counting: () => true })), [
        { counted: 1, line: 1 },
      ]);
    });

    it('an unbalanced counted line is malformed, named by its line', async () => {
      const e = await failure(() =>
        collect(scanLines(chunks('{"x":1}\n{"data":[[1]\n'), { counting: () => true })),
      );
      assert.equal(e.code, 'NDJSON_MALFORMED');
      assert.equal(e.line, 2);
      assert.equal(
        e.message,
        'The server sent a malformed line 2 in the stream (an unbalanced data line). The response may have been cut off; try again.',
      );
    });
  });
});
