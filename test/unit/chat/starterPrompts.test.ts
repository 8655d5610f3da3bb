// The starter prompts an empty chat offers, from the model's cubes: which measure is "the" measure
// (a sum, else an average, else a plain number that is no count), which dimension is a category
// (a string that is no id or name), what hidden members and private cubes leave out, the exact
// wording, duplicates dropped and the limit.
import assert from 'node:assert/strict';
import type { Meta } from '../../../src/api/schemas/data';
import { starterPrompts } from '../../../src/chat/starterPrompts';

type Member = Record<string, unknown> & { name: string };
const cube = (
  name: string,
  measures: Member[],
  dimensions: Member[] = [],
  extra: Record<string, unknown> = {},
) => ({
  name,
  measures,
  dimensions,
  ...extra,
});
const meta = (...cubes: ReturnType<typeof cube>[]) => ({ cubes }) as unknown as Meta;

describe('chat starter prompts', () => {
  const table: { what: string; meta: Meta; max?: number; prompts: string[] }[] = [
    {
      what: 'a sum over time, the top category by it, a count each week (sum before average; ids and names are no category)',
      meta: meta(
        cube(
          'orders',
          [
            { name: 'orders.count', aggType: 'count', type: 'number' },
            { name: 'orders.avg_total', aggType: 'avg', type: 'number', title: 'Average total' },
            {
              name: 'orders.revenue',
              aggType: 'sum',
              type: 'number',
              title: 'Total revenue',
              shortTitle: 'Revenue',
            },
          ],
          [
            { name: 'orders.id', type: 'string' },
            { name: 'orders.customer_name', type: 'string' },
            { name: 'orders.status', type: 'string', title: 'Order Status' },
            { name: 'orders.created_at', type: 'time' },
          ],
          { title: 'Orders' },
        ),
      ),
      prompts: [
        'What was the revenue by month over the last year?',
        'Which order status has the highest revenue?',
        'How many orders were there each week in the last 3 months?',
      ],
    },
    {
      what: 'an average when there is no sum; a count by category without time',
      meta: meta(
        cube(
          'items',
          [
            { name: 'items.count', aggType: 'count' },
            { name: 'items.avg_price', aggType: 'avg', title: 'Avg Price' },
          ],
          [{ name: 'items.kind', type: 'string' }],
        ),
      ),
      prompts: ['Which kind has the highest avg price?', 'How many items are there by kind?'],
    },
    {
      what: 'a plain number that is no count; a count named so',
      meta: meta(
        cube(
          'visits',
          [
            { name: 'visits.total_count', type: 'number', aggType: 'countDistinct' },
            { name: 'visits.unique', type: 'number', aggType: 'countDistinctApprox' },
            { name: 'visits.visit_count', type: 'string', aggType: 'max' },
            { name: 'visits.net_score', type: 'number', aggType: 'max' },
          ],
          [{ name: 'visits.day', type: 'time' }],
        ),
      ),
      prompts: [
        'What was the net_score by month over the last year?',
        'How many visits were there each week in the last 3 months?',
      ],
    },
    {
      what: 'a measure that is no number is no sum; "count" inside a name is no count (a country)',
      meta: meta(
        cube(
          'w',
          [
            { name: 'w.latest_status', type: 'string', aggType: 'max' },
            { name: 'w.country_revenue', type: 'number', aggType: 'max' },
          ],
          [{ name: 'w.region', type: 'string' }],
        ),
      ),
      prompts: ['Which region has the highest country_revenue?'],
    },
    {
      what: 'a count by its aggregation whatever its name',
      meta: meta(cube('s', [{ name: 's.total_users', aggType: 'count' }], [{ name: 's.at', type: 'time' }])),
      prompts: ['How many s were there each week in the last 3 months?'],
    },
    {
      what: 'only a count',
      meta: meta(
        cube('users', [{ name: 'users.count', aggType: 'count' }], [{ name: 'users.name', type: 'string' }]),
      ),
      prompts: ['How many users are there?'],
    },
    {
      what: 'hidden members and private ones count for nothing',
      meta: meta(
        cube(
          'c',
          [
            { name: 'c.revenue', aggType: 'sum', isVisible: false },
            { name: 'c.margin', aggType: 'sum', public: false },
            { name: 'c.count', aggType: 'count' },
          ],
          [
            { name: 'c.created', type: 'time', public: false },
            { name: 'c.region', type: 'string', isVisible: false },
          ],
        ),
      ),
      prompts: ['How many c are there?'],
    },
    {
      what: 'categories: "identity" and "username" are values, "user_id", "ID" and "name" are not',
      meta: meta(
        cube(
          'a',
          [{ name: 'a.total', aggType: 'sum' }],
          [
            { name: 'a.user_id', type: 'string' },
            { name: 'a.identity', type: 'string' },
          ],
        ),
        cube(
          'b',
          [{ name: 'b.total', aggType: 'sum' }],
          [
            { name: 'b.ID', type: 'string' },
            { name: 'b.username', type: 'string' },
          ],
        ),
        cube(
          'c',
          [{ name: 'c.total', aggType: 'sum' }],
          [
            { name: 'c.name', type: 'string' },
            { name: 'c.size', type: 'number' },
          ],
        ),
      ),
      prompts: ['Which identity has the highest total?', 'Which username has the highest total?'],
    },
    {
      what: 'private cubes and cubes without measures are skipped',
      meta: meta(
        cube('p', [{ name: 'p.count', aggType: 'count' }], [], { public: false }),
        cube('d', [], [{ name: 'd.kind', type: 'string' }]),
        cube('q', [{ name: 'q.count', aggType: 'count' }], [], { public: true }),
      ),
      prompts: ['How many q are there?'],
    },
    {
      what: 'the same question twice is asked once; at most four by default',
      meta: meta(
        cube('x', [{ name: 'x.count', aggType: 'count' }], [], { title: 'Things' }),
        cube('y', [{ name: 'y.count', aggType: 'count' }], [], { title: 'Things' }),
        cube('z1', [{ name: 'z1.count', aggType: 'count' }]),
        cube('z2', [{ name: 'z2.count', aggType: 'count' }]),
        cube('z3', [{ name: 'z3.count', aggType: 'count' }]),
        cube('z4', [{ name: 'z4.count', aggType: 'count' }]),
      ),
      prompts: [
        'How many things are there?',
        'How many z1 are there?',
        'How many z2 are there?',
        'How many z3 are there?',
      ],
    },
    {
      what: 'a smaller limit',
      meta: meta(
        cube('z1', [{ name: 'z1.count', aggType: 'count' }]),
        cube('z2', [{ name: 'z2.count', aggType: 'count' }]),
      ),
      max: 1,
      prompts: ['How many z1 are there?'],
    },
    { what: 'no cubes', meta: meta(), prompts: [] },
  ];
  for (const row of table) {
    it(row.what, () => {
      assert.deepEqual(starterPrompts(row.meta, row.max), row.prompts);
    });
  }
});
