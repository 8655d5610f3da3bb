// The sandbox agent's pick of a cube's count measure (what "how many <cube>" asks for), from a
// survivor of the seed-1 mutation sample: a measure counting rows first, then one named `count`,
// then a distinct count whose words say count; nothing else.
import * as assert from 'node:assert/strict';
import { countOf, type Cube, type Member } from '../../../src/sandbox/ai/catalog';

const m = (short: string, aggType: string, words: string[] = [short]): Member => ({
  name: `orders.${short}`,
  cube: 'orders',
  short,
  title: short,
  shortTitle: short,
  type: 'number',
  kind: 'measure',
  aggType,
  phrases: [words],
  words: new Set(words),
});
const cube = (measures: Member[]): Cube => ({
  name: 'orders',
  title: 'Orders',
  words: new Set(['order']),
  measures,
  dimensions: [],
  segments: [],
});

describe('sandbox agent: the count measure of a cube', () => {
  const cases: [string, Member[], string | undefined][] = [
    ['a row count wins over one named count', [m('count', 'sum'), m('n', 'count')], 'n'],
    ['else the measure named count', [m('total', 'sum'), m('count', 'sum')], 'count'],
    [
      'else a distinct count that says count',
      [m('buyers', 'countDistinct', ['buyer']), m('buyer_count', 'countDistinct', ['buyer', 'count'])],
      'buyer_count',
    ],
    ['not a distinct count without the word', [m('buyers', 'countDistinct', ['buyer'])], undefined],
    ['not a sum that says count', [m('count_total', 'sum', ['count', 'total'])], undefined],
    ['none in a cube without measures', [], undefined],
  ];
  for (const [what, measures, want] of cases)
    it(what, () => {
      assert.equal(countOf(cube(measures))?.short, want);
    });
});
