// src/shared/jsonLocate.ts, which the dashboard file and its in-place edits use to point at a value
// (measured in the dashboard-file mutation area): exact spans past escaped quotes and brackets
// inside strings, every way a path can be missing or a text cut short, the last of duplicate keys
// on request, line/column at line boundaries, and nesting depth that ignores brackets in strings.
import { strict as assert } from 'node:assert';
import { LineIndex, locate, nestingDepth } from '../../src/shared/jsonLocate';

/** The text of the value at `path`, or undefined. */
function at(text: string, path: (string | number)[], opts?: { last?: boolean }): string | undefined {
  const s = locate(text, path, opts);
  return s && text.slice(s.offset, s.offset + s.length);
}

describe('dashboard file: locating a value by path (jsonLocate)', () => {
  it('steps over strings whose quotes are escaped, by an odd or even run of backslashes', () => {
    const text = String.raw`{"a": "x\"y", "b": "x\\", "c": "q\\\"r", "d": 1}`;
    assert.equal(at(text, ['a']), String.raw`"x\"y"`);
    assert.equal(at(text, ['b']), String.raw`"x\\"`);
    assert.equal(at(text, ['c']), String.raw`"q\\\"r"`);
    assert.equal(at(text, ['d']), '1');
  });

  it('steps over whole objects and arrays, brackets and quotes inside their strings included', () => {
    const text =
      '{ "skip": {"s": "}]{[\\"", "n": [1, {"x": "]"}]},\t"list": [ "a]", {"k": [2]} , 3 ], "v": true }';
    assert.equal(at(text, ['skip']), '{"s": "}]{[\\"", "n": [1, {"x": "]"}]}');
    assert.equal(at(text, ['list', 0]), '"a]"');
    assert.equal(at(text, ['list', 1]), '{"k": [2]}');
    assert.equal(at(text, ['list', 1, 'k', 0]), '2');
    assert.equal(at(text, ['list', 2]), '3');
    assert.equal(at(text, ['v']), 'true');
    assert.equal(at('  [1,\n  -2.5e3 ]', [1]), '-2.5e3');
    assert.equal(at('[null]', [0]), 'null');
  });

  it('finds a key written with escapes by the key it spells', () => {
    assert.equal(at('{"t\\u0069tle": "x", "title2": 2}', ['title']), '"x"');
    assert.equal(at('{"a\\"b": 1}', ['a"b']), '1');
  });

  it('is undefined for a path that does not exist or a text cut short', () => {
    const text = '{"a": [1, 2], "o": {"k": 1}, "s": "x"}';
    for (const path of [
      ['a', 2],
      ['a', 'k'],
      ['o', 0],
      ['o', 'missing'],
      ['s', 0],
      ['s', 'k'],
      ['zz'],
    ] as const) {
      assert.equal(locate(text, [...path]), undefined, JSON.stringify(path));
    }
    assert.equal(locate('{"a": []}', ['a', 0]), undefined, 'an empty array has no first item');
    for (const cut of [
      '{"a": [1',
      '{"a": {"b": 1',
      '{"a": "abc',
      '{"x": "abc, "a": 1}',
      '{"x": [1, "abc], "a": 1}',
      '{"x" 1, "a": 2}',
      '{x: 1, "a": 2}',
      '{"x": {"y": "abc}, "a": 2}',
      '{"x": 1, "a"',
    ]) {
      assert.equal(locate(cut, ['a']), undefined, cut);
    }
    assert.equal(locate('[1 2]', [1]), undefined, 'items must be separated by commas');
    assert.equal(locate('{"a": [1, {"b": "c]', ['a', 1]), undefined);
    assert.equal(locate('"abc', []), undefined);
    assert.equal(locate('{"a\\"b', ['x']), undefined, 'a cut key with an escape');
    assert.deepEqual(locate('7', []), { offset: 0, length: 1 }, 'a number that ends the text');
  });

  it('finds the first of duplicate keys, or the last (the one JSON.parse keeps) when asked', () => {
    const text = '{"a": 1, "b": {"x": 1}, "a": [2], "c": 3}';
    assert.equal(at(text, ['a']), '1');
    assert.equal(at(text, ['a'], { last: true }), '[2]');
    assert.equal(at(text, ['c'], { last: true }), '3');
    assert.equal(at('{"a": 1}', ['a'], { last: true }), '1');
    assert.equal(
      locate('{"a": 1, "b": [', ['a'], { last: true }),
      undefined,
      'a cut text has no last member',
    );
  });

  it('gives line and column at and around line starts', () => {
    const text = 'ab\ncd\n\nef';
    const lines = new LineIndex(text);
    const expect: [number, number, number][] = [
      [0, 0, 0],
      [2, 0, 2],
      [3, 1, 0],
      [5, 1, 2],
      [6, 2, 0],
      [7, 3, 0],
      [9, 3, 2],
      [99, 3, 2],
      [-4, 0, 0],
    ];
    for (const [offset, line, column] of expect)
      assert.deepEqual(lines.position(offset), { line, column }, `${offset}`);
    assert.deepEqual(new LineIndex('\nx').position(1), { line: 1, column: 0 });
    assert.deepEqual(new LineIndex('x').position(1), { line: 0, column: 1 });
  });

  it('measures nesting depth by brackets outside strings', () => {
    assert.equal(nestingDepth('{}'), 1);
    assert.equal(nestingDepth('[[1], {"a": [2]}]'), 3);
    assert.equal(nestingDepth('{"a": "[[[[{{{{", "b": [1]}'), 2);
    assert.equal(nestingDepth('[1, "x\\"[[[", [2]]'), 2);
    assert.equal(nestingDepth('[[]] [[[]]]'), 3);
    assert.equal(nestingDepth('[["abc'), 2, 'a string cut short ends the count');
    assert.equal(nestingDepth('7'), 0);
  });
});
