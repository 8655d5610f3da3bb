// The .dpnb parser and writer, exactly (issue 26, file-formats mutation area): where each problem
// is located (line and column, byte of bad UTF-8), the whole message a user reads, nesting depth,
// and what the writer leaves out or keeps in order on a round trip with unknown fields.
import * as assert from 'node:assert/strict';
import {
  decodeNotebook,
  jsonDepth,
  MAX_DEPTH,
  NotebookParseError,
  NotebookSaveError,
  parseNotebook,
  position,
  stringifyNotebook,
  unknownKeys,
} from '../../src/notebook/notebookFormat';

function parseError(fn: () => unknown): NotebookParseError {
  try {
    fn();
  } catch (e) {
    assert.ok(e instanceof NotebookParseError, `a NotebookParseError, not ${String(e)}`);
    return e;
  }
  assert.fail('expected a NotebookParseError');
}

describe('notebook format: problems located exactly', () => {
  it('a bad third cell is found past a first cell with nested objects (line and column of its "{")', () => {
    const text = [
      '{',
      '  "version": 1,',
      '  "cells": [',
      '    { "kind": "sql", "source": "a", "metadata": {"x": {"y": 1}} },',
      '    { "kind": "sql", "source": "b" },',
      '    { "kind": "bad", "source": "c" }',
      '  ]',
      '}',
      '',
    ].join('\n');
    const e = parseError(() => parseNotebook(text));
    assert.equal(e.reason, 'cells.2.kind: Invalid option: expected one of "markdown"|"sql"|"json"');
    assert.equal(e.line, 6);
    assert.equal(e.column, 7);
    assert.equal(
      e.message,
      'Cannot open this query notebook: cells.2.kind: Invalid option: expected one of "markdown"|"sql"|"json" (line 6, column 7). The file was left unchanged.',
    );
    assert.equal(e.name, 'NotebookParseError');
  });

  it('a cell missing a key is located at its own "{", past sibling objects nested in an earlier cell', () => {
    const text = [
      '{',
      '  "version": 1,',
      '  "cells": [',
      '    { "kind": "sql", "source": "a", "metadata": {"a": {"x": 1}, "b": {"y": {"z": 2}}} },',
      '    { "kind": "sql", "source": "b" },',
      '    { "kind": "sql" }',
      '  ]',
      '}',
      '',
    ].join('\n');
    const e = parseError(() => parseNotebook(text));
    assert.equal(e.reason, 'cells.2.source: Invalid input: expected string, received undefined');
    assert.deepEqual([e.line, e.column], [6, 5]);
  });

  it('a key missing from a middle cell is located at that cell, never at the same key in a later one', () => {
    const text = [
      '{',
      '  "version": 1,',
      '  "cells": [',
      '    { "kind": "sql", "source": "a" },',
      '    { "kind": "sql" },',
      '    { "kind": "sql", "source": "c" }',
      '  ]',
      '}',
      '',
    ].join('\n');
    const e = parseError(() => parseNotebook(text));
    assert.equal(e.reason, 'cells.1.source: Invalid input: expected string, received undefined');
    assert.deepEqual([e.line, e.column], [5, 5]);
  });

  it('a file that is not an object: the reason alone (no path), at the start', () => {
    const e = parseError(() => parseNotebook('[]'));
    assert.equal(e.reason, 'Invalid input: expected object, received array');
    assert.deepEqual([e.line, e.column], [1, 1]);
  });

  it('a key written with escapes is not found as text: the problem is put at the start, never before it', () => {
    const e = parseError(() => parseNotebook('{"\\u0076ersion":2,"cells":[]}'));
    assert.equal(e.reason, 'version: Invalid input: expected 1');
    assert.deepEqual([e.line, e.column], [1, 1]);
  });

  it('a top-level problem names its key and points at it', () => {
    const e = parseError(() => parseNotebook('{"version":2,"cells":[]}'));
    assert.equal(e.reason, 'version: Invalid input: expected 1');
    assert.deepEqual([e.line, e.column], [1, 2]);
  });

  it('invalid JSON: the reason without "in JSON at position", at the place the parser stopped', () => {
    const cut = parseError(() => parseNotebook('[1,'));
    assert.equal(cut.reason, 'invalid JSON: Unexpected end of JSON input');
    assert.deepEqual([cut.line, cut.column], [1, 4]);
    const e = parseError(() => parseNotebook('{\n  "version": 1 "cells": []\n}'));
    assert.match(e.reason, /^invalid JSON: /);
    assert.doesNotMatch(e.reason, /position|\(line/);
    assert.deepEqual([e.line, e.column], [2, 16]);
  });

  it('bad UTF-8: the byte that broke the text, with its line and column; an unfinished sequence at the end', () => {
    const mid = parseError(() =>
      decodeNotebook(Buffer.concat([Buffer.from('ab\ncd'), Buffer.from([0xc3]), Buffer.from('x')])),
    );
    assert.equal(
      mid.message,
      'Cannot open this query notebook: the file is not valid UTF-8 (byte 6); save it as UTF-8 in another editor first (line 2, column 4). The file was left unchanged.',
    );
    const end = parseError(() =>
      decodeNotebook(Buffer.concat([Buffer.from('ab\ncd'), Buffer.from([0xe2, 0x82])])),
    );
    assert.match(end.reason, /\(byte 7\)/);
    assert.deepEqual([end.line, end.column], [2, 4]);
    const first = parseError(() => decodeNotebook(Buffer.from([0xff, 0x41])));
    assert.match(first.reason, /\(byte 0\)/);
    assert.deepEqual([first.line, first.column], [1, 1]);
  });

  it('bad UTF-8 after multi-byte characters: the offset counts bytes, the column characters', () => {
    // "é" is two bytes and "€" three: a decoder fed a byte at a time must keep them pending.
    const e = parseError(() => decodeNotebook(Buffer.concat([Buffer.from('é€\nxé'), Buffer.from([0xff])])));
    assert.match(e.reason, /\(byte 9\)/);
    assert.deepEqual([e.line, e.column], [2, 3]);
  });

  it('a newer runtime\'s JSON error "(line L column C)" gives that place and a reason without it', () => {
    // Node 20 says "in JSON at position N"; newer V8 (VS Code's Electron) adds "(line L column C)".
    const parse = JSON.parse;
    JSON.parse = () => {
      throw new SyntaxError(
        `Expected ',' or '}' after property value in JSON at position 31 (line 12 column 40)`,
      );
    };
    let e: NotebookParseError;
    try {
      e = parseError(() => parseNotebook('{"version": 1}'));
    } finally {
      JSON.parse = parse;
    }
    assert.equal(e.reason, "invalid JSON: Expected ',' or '}' after property value");
    assert.deepEqual([e.line, e.column], [12, 40]);
    JSON.parse = () => {
      throw new SyntaxError('Unterminated string in JSON (line 13 column 27)');
    };
    try {
      e = parseError(() => parseNotebook('{"version": 1}'));
    } finally {
      JSON.parse = parse;
    }
    assert.equal(e.reason, 'invalid JSON: Unterminated string in JSON');
    assert.deepEqual([e.line, e.column], [13, 27]);
  });

  it('nesting: exactly MAX_DEPTH levels open and save; one more is refused, on open and on save', () => {
    const nest = (k: number): string => '['.repeat(k) + '1' + ']'.repeat(k);
    // file 1, cells 2, the cell 3, its metadata 4, then k arrays.
    const text = (k: number) =>
      `{"version":1,"cells":[{"kind":"sql","source":"","metadata":{"x":${nest(k)}}}]}`;
    const ok = parseNotebook(text(MAX_DEPTH - 4));
    assert.equal(jsonDepth(ok), MAX_DEPTH);
    const tooDeep = parseError(() => parseNotebook(text(MAX_DEPTH - 3)));
    assert.equal(tooDeep.reason, `values nest more than ${MAX_DEPTH} levels deep`);
    assert.deepEqual([tooDeep.line, tooDeep.column], [1, 1]);
    // The writer allows two levels more (what it adds itself around the cells).
    const file = (k: number) => JSON.parse(text(k)) as Parameters<typeof stringifyNotebook>[0];
    assert.equal(JSON.parse(stringifyNotebook(file(MAX_DEPTH - 2))).version, 1);
    assert.throws(
      () => stringifyNotebook(file(MAX_DEPTH - 1)),
      (err: unknown) =>
        err instanceof NotebookSaveError &&
        err.name === 'NotebookSaveError' &&
        err.message ===
          `The notebook was not saved: its metadata nests more than ${MAX_DEPTH} levels deep. Flatten the cell metadata and save again.`,
    );
  });

  it('position: 1-based line and column, counting only newlines before the offset', () => {
    assert.deepEqual(position('ab\ncd', 0), { line: 1, column: 1 });
    assert.deepEqual(position('ab\ncd', 2), { line: 1, column: 3 });
    assert.deepEqual(position('ab\ncd', 3), { line: 2, column: 1 });
    assert.deepEqual(position('ab\ncd', 4), { line: 2, column: 2 });
    assert.deepEqual(position('a\n\nb', 3), { line: 3, column: 1 });
  });

  it('jsonDepth counts objects and arrays only, and stops past its limit', () => {
    assert.equal(jsonDepth(5), 0);
    assert.equal(jsonDepth(null), 0);
    assert.equal(jsonDepth({}), 1);
    assert.equal(jsonDepth({ a: [1, { b: 2 }] }), 3);
    assert.equal(jsonDepth([[1], [[[2]]]]), 4);
    // Past the limit it returns the first depth that exceeds it, not the full depth.
    assert.equal(jsonDepth([[[[[[1]]]]]], 2), 3);
    assert.equal(jsonDepth([[1]], 2), 2);
  });

  it('a file of whitespace only is an empty notebook of this version', () => {
    assert.deepEqual(parseNotebook(' \n\t'), { version: 1, metadata: {}, cells: [] });
  });
});

describe('notebook format: what the writer keeps and leaves out', () => {
  it('drops empty metadata and outputs, keeps unknown keys after the known ones, sorts only metadata', () => {
    const text = stringifyNotebook({
      version: 1,
      metadata: { x: 1, deploymentId: 3 },
      cells: [
        {
          kind: 'sql',
          source: '',
          metadata: {},
          outputs: [],
          gone: undefined,
          b: { z: [{ d: 1, c: 2 }] },
        },
        { kind: 'markdown', source: 'm', metadata: { k: [{ y: 1, x: 2 }], a: null } },
      ],
    });
    const back = JSON.parse(text) as { metadata: object; cells: Record<string, unknown>[] };
    assert.deepEqual(Object.keys(back.metadata), ['deploymentId', 'x']);
    assert.deepEqual(Object.keys(back.cells[0]!), ['kind', 'source', 'b']);
    // An unknown key's value is written as it came (not sorted): only cell metadata is sorted.
    assert.ok(text.includes('"d": 1,\n            "c": 2'));
    assert.deepEqual(back.cells[1]!.metadata, { a: null, k: [{ x: 2, y: 1 }] });
    assert.ok(
      text.includes('"a": null,\n        "k": [\n          {\n            "x": 2,\n            "y": 1'),
    );
    // A file written without metadata gets an empty object, not a missing key.
    assert.ok(
      stringifyNotebook({ version: 1, cells: [] } as never).startsWith(
        '{\n  "version": 1,\n  "metadata": {},',
      ),
    );
  });

  it('unknownKeys: the keys not known and not undefined, in their order; undefined when none', () => {
    assert.deepEqual(unknownKeys({ a: 1, z: 2, b: undefined, c: null }, ['a']), { z: 2, c: null });
    assert.equal(unknownKeys({ a: 1, b: undefined }, ['a']), undefined);
    assert.equal(unknownKeys({}, []), undefined);
  });

  it('hostile input: keys that look like prototypes and control characters survive a round trip as data', () => {
    const text =
      '{"version":1,"__proto__":{"polluted":true},"metadata":{"profile":"P\\u0000\\u202e","constructor":1},' +
      '"cells":[{"kind":"sql","source":"</script><img src=x onerror=alert(1)>","toString":"x"}]}';
    const nb = parseNotebook(text);
    assert.equal(({} as Record<string, unknown>).polluted, undefined);
    const again = parseNotebook(stringifyNotebook(nb));
    assert.deepEqual(again, nb);
    assert.equal(again.metadata.profile, 'P\u0000\u202e');
    assert.equal(again.cells[0]!.source, '</script><img src=x onerror=alert(1)>');
    assert.equal((again.cells[0] as Record<string, unknown>).toString, 'x');
  });
});
