import * as assert from 'node:assert/strict';
import { exactTime, relativeTime } from '../../src/shared/relativeTime';

describe('relativeTime', () => {
  const now = new Date('2026-11-23T12:00:00Z');
  it('says how long ago, in the largest whole unit', () => {
    assert.equal(relativeTime('2026-11-20T12:00:00Z', now), '3 days ago');
    assert.equal(relativeTime('2026-11-23T10:00:00Z', now), '2 hours ago');
    assert.equal(relativeTime('2026-11-22T12:00:00Z', now), 'yesterday');
    assert.equal(relativeTime('2026-01-05T09:00:00Z', now), '10 months ago');
    assert.equal(relativeTime('2024-11-01T09:00:00Z', now), '2 years ago');
  });
  it('says the future too, and "just now" under a minute', () => {
    assert.equal(relativeTime('2026-11-23T12:30:00Z', now), 'in 30 minutes');
    assert.equal(relativeTime('2026-11-23T11:59:40Z', now), 'just now');
  });
  it('gives undefined for what is not a date', () => {
    assert.equal(relativeTime('banana', now), undefined);
    assert.equal(relativeTime(null, now), undefined);
    assert.equal(exactTime({}), undefined);
  });
  it('gives the exact time in UTC', () => {
    assert.equal(exactTime('2026-01-05T09:00:00.000Z'), '2026-01-05 09:00 UTC');
  });
});
