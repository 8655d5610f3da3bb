// The unified diff an agent's proposal is shown as (src/agents/tools/diff.ts): changes within six
// equal lines of each other share a hunk, farther ones get their own, each with three lines of
// context, cut at the file's ends. vscode-free.
import assert from 'node:assert/strict';
import { unifiedDiff } from '../../../src/agents/tools/diff';

const lines = Array.from({ length: 30 }, (_, i) => `L${i + 1}`);
/** The 30 lines with the given (1-based) lines changed to X<n>. */
const changed = (...at: number[]) => lines.map((l, i) => (at.includes(i + 1) ? `X${i + 1}` : l)).join('\n');
const hunks = (diff: string) => diff.split('\n').filter((l) => l.startsWith('@@'));

describe('agent tools: the hunks of a proposal diff', () => {
  const old = lines.join('\n');
  const cases: { what: string; at: number[]; hunks: string[] }[] = [
    { what: 'six equal lines between two changes: one hunk', at: [5, 12], hunks: ['@@ -2,14 +2,14 @@'] },
    {
      what: 'seven equal lines between: two hunks',
      at: [5, 13],
      hunks: ['@@ -2,7 +2,7 @@', '@@ -10,7 +10,7 @@'],
    },
    {
      what: 'three changes chained within six lines: one hunk',
      at: [5, 10, 15],
      hunks: ['@@ -2,17 +2,17 @@'],
    },
    {
      what: 'a change at the first and the last line: context cut at the ends',
      at: [1, 30],
      hunks: ['@@ -1,4 +1,4 @@', '@@ -27,4 +27,4 @@'],
    },
  ];
  for (const c of cases) {
    it(c.what, () => {
      const diff = unifiedDiff(old, changed(...c.at), 'f.dashboard.json');
      assert.deepEqual(hunks(diff), c.hunks);
    });
  }

  it('a merged hunk holds its context, both changes and the lines between, in order', () => {
    assert.equal(
      unifiedDiff(old, changed(5, 12), 'f'),
      [
        '--- a/f',
        '+++ b/f',
        '@@ -2,14 +2,14 @@',
        ' L2',
        ' L3',
        ' L4',
        '-L5',
        '+X5',
        ' L6',
        ' L7',
        ' L8',
        ' L9',
        ' L10',
        ' L11',
        '-L12',
        '+X12',
        ' L13',
        ' L14',
        ' L15',
      ].join('\n'),
    );
  });
});
