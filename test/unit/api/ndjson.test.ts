import * as assert from 'node:assert/strict';
import fc from 'fast-check';
import { isApiError, type ApiError } from '../../../src/api/errors';
import { ndjsonLines } from '../../../src/api/ndjson';
import { chunked, collect, rejection } from './helpers';

const enc = new TextEncoder();

/** The reference: split the whole text at once. */
function reference(text: string): { value: unknown; line: number }[] {
  return text
    .split('\n')
    .map((l, i) => ({ l: l.endsWith('\r') ? l.slice(0, -1) : l, line: i + 1 }))
    .filter(({ l }) => l.trim() !== '')
    .map(({ l, line }) => ({ value: JSON.parse(l) as unknown, line }));
}

async function parseAll(
  bytes: Uint8Array,
  cuts: number[],
  maxLineBytes?: number,
): Promise<{ value: unknown; line: number }[]> {
  return collect(ndjsonLines(chunked(bytes, cuts), { maxLineBytes }));
}

async function protocolError(p: () => Promise<unknown>): Promise<ApiError> {
  const e = await rejection(p);
  assert.ok(isApiError(e), String(e));
  assert.equal(e.kind, 'protocol');
  return e;
}

const multiByteString = fc
  .array(
    fc.oneof(
      fc.constantFrom('é', '漢', '😀', '👩‍💻', 'ß', '\u00a0', '"', '\\', '\n'),
      fc.string({ maxLength: 4 }),
    ),
    { maxLength: 6 },
  )
  .map((parts) => parts.join(''));

const row = fc.oneof(
  fc.record({
    data: fc.array(fc.array(fc.oneof(multiByteString, fc.integer(), fc.constant(null)), { maxLength: 4 }), {
      maxLength: 4,
    }),
  }),
  fc.record({ id: multiByteString, content: multiByteString, isDelta: fc.boolean() }),
  fc.jsonValue({ maxDepth: 2 }),
);

const stream = fc.record({
  values: fc.array(row, { minLength: 0, maxLength: 12 }),
  eols: fc.array(fc.constantFrom('\n', '\r\n', '\n\n', '\r\n\r\n', '\n  \n'), {
    minLength: 12,
    maxLength: 12,
  }),
  finalNewline: fc.boolean(),
});

function render(s: { values: unknown[]; eols: string[]; finalNewline: boolean }): string {
  let text = '';
  s.values.forEach((v, i) => {
    text += JSON.stringify(v);
    if (i < s.values.length - 1 || s.finalNewline) text += s.eols[i];
  });
  return text;
}

describe('api/ndjson', () => {
  it('property: any chunking of a real stream parses like the whole text', async () => {
    await fc.assert(
      fc.asyncProperty(stream, fc.array(fc.nat({ max: 4000 }), { maxLength: 30 }), async (s, cuts) => {
        const text = render(s);
        const bytes = enc.encode(text);
        const got = await parseAll(
          bytes,
          cuts.map((c) => c % (bytes.length + 1)),
        );
        assert.deepEqual(got, reference(text));
      }),
      { numRuns: 400 },
    );
  });

  it('property: byte-by-byte chunks give the same values', async () => {
    await fc.assert(
      fc.asyncProperty(stream, async (s) => {
        const text = render(s);
        const bytes = enc.encode(text);
        const cuts = Array.from({ length: bytes.length }, (_, i) => i);
        assert.deepEqual(await parseAll(bytes, cuts), reference(text));
      }),
      { numRuns: 100 },
    );
  });

  it('decodes a multi-byte character split across chunks', async () => {
    const bytes = enc.encode('{"a":"漢😀é"}\n');
    for (let cut = 1; cut < bytes.length; cut++) {
      assert.deepEqual(await parseAll(bytes, [cut]), [{ value: { a: '漢😀é' }, line: 1 }]);
    }
  });

  it('handles CRLF, blank lines and a last line without newline', async () => {
    const got = await parseAll(enc.encode('{"a":1}\r\n\r\n  \n{"b":2}\n{"c":3}'), [3, 9]);
    assert.deepEqual(got, [
      { value: { a: 1 }, line: 1 },
      { value: { b: 2 }, line: 4 },
      { value: { c: 3 }, line: 5 },
    ]);
    assert.deepEqual(await parseAll(enc.encode(''), []), []);
    assert.deepEqual(await parseAll(enc.encode('\n\r\n'), [1]), []);
  });

  it('reports a malformed line with its 1-based number, after yielding the good ones', async () => {
    const seen: unknown[] = [];
    const e = await protocolError(async () => {
      for await (const l of ndjsonLines(
        chunked(enc.encode('{"a":1}\n\n{"b":2}\n{"data":[[1,\n{"c":3}\n'), [5, 20]),
      )) {
        seen.push(l.value);
      }
    });
    assert.equal(e.line, 4);
    assert.match(e.message, /line 4/);
    assert.deepEqual(seen, [{ a: 1 }, { b: 2 }]);
  });

  it('a truncated last line is a protocol error', async () => {
    const e = await protocolError(() => parseAll(enc.encode('{"schema":[]}\n{"data":[["x"'), [4]));
    assert.equal(e.line, 2);
  });

  it('enforces the maximum line length, with or without a newline', async () => {
    const long = JSON.stringify({ data: 'x'.repeat(200) });
    const e1 = await protocolError(() => parseAll(enc.encode(`{"a":1}\n${long}\n`), [10, 50, 100], 100));
    assert.equal(e1.line, 2);
    assert.match(e1.message, /longer than 100 bytes/);
    const e2 = await protocolError(() => parseAll(enc.encode(long), [10, 50, 100, 150], 100));
    assert.equal(e2.line, 1);
    assert.deepEqual(await parseAll(enc.encode(long + '\n'), [7], 1000), [
      { value: { data: 'x'.repeat(200) }, line: 1 },
    ]);
  });

  it('rejects invalid UTF-8', async () => {
    const bytes = new Uint8Array([...enc.encode('{"a":"'), 0xff, 0xfe, ...enc.encode('"}\n')]);
    const e = await protocolError(() => parseAll(bytes, []));
    assert.match(e.message, /UTF-8/);
  });

  it('keeps a U+FFFD that is in the data, and rejects invalid bytes split across chunks', async () => {
    const good = enc.encode('{"a":"x\uFFFDy"}\n{"b":"漢"}\n');
    for (let cut = 1; cut < good.length; cut++) {
      assert.deepEqual(await parseAll(good, [cut]), [
        { value: { a: 'x\uFFFDy' }, line: 1 },
        { value: { b: '漢' }, line: 2 },
      ]);
    }
    // A lead byte of a 3-byte character followed by ASCII: invalid wherever the chunk ends.
    const bad = new Uint8Array([...enc.encode('{"a":1}\n{"b":"'), 0xe6, 0x41, ...enc.encode('"}\n')]);
    for (let cut = 1; cut < bad.length; cut++) {
      const e = await protocolError(() => parseAll(bad, [cut]));
      assert.equal(e.line, 2, `cut at ${cut}`);
      assert.match(e.message, /invalid UTF-8 on line 2/);
    }
  });

  it('splits CRLF across chunks, keeps empty lines counted, and parses a final line without newline', async () => {
    const bytes = enc.encode('{"a":1}\r\n\r\n{"b":"é"}\r\n{"c":3}');
    for (let cut = 1; cut < bytes.length; cut++) {
      assert.deepEqual(await parseAll(bytes, [cut, cut + 3]), [
        { value: { a: 1 }, line: 1 },
        { value: { b: 'é' }, line: 3 },
        { value: { c: 3 }, line: 4 },
      ]);
    }
  });

  it('refuses an oversize line spread over many chunks before holding it whole', async () => {
    const long = `{"data":"${'x'.repeat(5000)}"}`;
    const cuts = Array.from({ length: 100 }, (_, i) => i * 50);
    const seen: number[] = [];
    let given = 0;
    async function* counting(): AsyncGenerator<Uint8Array> {
      for await (const c of chunked(enc.encode(`{"a":1}\n${long}\n`), cuts)) {
        given += c.length;
        yield c;
      }
    }
    const e = await protocolError(async () => {
      for await (const l of ndjsonLines(counting(), { maxLineBytes: 1000 })) seen.push(l.line);
    });
    assert.equal(e.line, 2);
    assert.deepEqual(seen, [1]);
    assert.ok(given < 1200, `stopped reading at the limit (read ${given} bytes)`);
  });
});
