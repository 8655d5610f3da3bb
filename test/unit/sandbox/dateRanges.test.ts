// The sandbox's date ranges on their own, as the engine's dateParser reads them: relative ranges
// (this, last, next, last N, today, yesterday, tomorrow) in the query's timezone, "from … to …"
// with whole days at both ends, one or two absolute dates, and what it cannot parse named.
import * as assert from 'node:assert/strict';
import { parseDateRange, resolveDateRange } from '../../../src/sandbox/data/dates';

// A Saturday, 03:30 in UTC: still Friday the 27th in New York.
const NOW = new Date('2026-11-28T03:30:00.000Z');
const range = (text: string, tz = 'UTC') => parseDateRange(text, tz, NOW);
const day = (d: string) => [`${d}T00:00:00.000`, `${d}T23:59:59.999`];

describe('sandbox date ranges: what the engine reads a dateRange as', () => {
  it('today, yesterday and tomorrow are whole days of the timezone', () => {
    assert.deepEqual(range('today'), day('2026-11-28'));
    assert.deepEqual(range('Yesterday'), day('2026-11-27'));
    assert.deepEqual(range('tomorrow'), day('2026-11-29'));
    assert.deepEqual(range('today', 'America/New_York'), day('2026-11-27'));
  });

  it('this, last and next name the whole unit around now', () => {
    assert.deepEqual(range('this month'), ['2026-11-01T00:00:00.000', '2026-11-30T23:59:59.999']);
    assert.deepEqual(range('last month'), ['2026-10-01T00:00:00.000', '2026-10-31T23:59:59.999']);
    assert.deepEqual(range('next year'), ['2027-01-01T00:00:00.000', '2027-12-31T23:59:59.999']);
    assert.deepEqual(range('this day'), day('2026-11-28'));
  });

  it('last N units end with the one before now; next N start with the one after', () => {
    assert.deepEqual(range('last 7 days'), ['2026-11-21T00:00:00.000', '2026-11-27T23:59:59.999']);
    assert.deepEqual(range('next 2 months'), ['2026-12-01T00:00:00.000', '2027-01-31T23:59:59.999']);
    assert.deepEqual(range('last 3 days', 'America/New_York'), [
      '2026-11-24T00:00:00.000',
      '2026-11-26T23:59:59.999',
    ]);
  });

  it('"from A to B" covers whole days at both ends; one date alone is its day', () => {
    assert.deepEqual(range('from 2026-01-05 to 2026-01-07'), [
      '2026-01-05T00:00:00.000',
      '2026-01-07T23:59:59.999',
    ]);
    assert.deepEqual(range('2026-02-03'), day('2026-02-03'));
  });

  it('names the part it cannot read', () => {
    assert.throws(() => range('sometime soon'), { message: "Can't parse date: 'sometime soon'" });
    assert.throws(() => range('from 2026-01-05 to later'), { message: "Can't parse date: 'later'" });
    assert.throws(() => range('from soon to 2026-01-05'), { message: "Can't parse date: 'soon'" });
  });

  it('a pair of dates keeps its times; a date alone is the first or last millisecond of its day', () => {
    assert.deepEqual(resolveDateRange(['2026-01-05', '2026-01-07'], 'UTC', NOW), [
      '2026-01-05T00:00:00.000',
      '2026-01-07T23:59:59.999',
    ]);
    assert.deepEqual(resolveDateRange(['2026-01-05'], 'UTC', NOW), day('2026-01-05'));
    assert.deepEqual(resolveDateRange(['2026-01-05T10:15:00', '2026-01-05 12:30:00'], 'UTC', NOW), [
      '2026-01-05T10:15:00.000',
      '2026-01-05T12:30:00.000',
    ]);
    assert.throws(() => resolveDateRange(['2026-13-45x', '2026-01-05'], 'UTC', NOW), /Can't parse date/);
  });
});
