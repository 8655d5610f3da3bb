// Edit Notification sends only what the user changed, and filters the user left as they were go
// back exactly as the service sent them (flags, fields and operators this version does not know).
import assert from 'node:assert/strict';
import {
  closestMember,
  memberProblem,
  parseFilter,
  parseFilters,
} from '../../src/notifications/createNotificationFlow';
import { draftOf, editChanges, filtersText } from '../../src/notifications/notificationDraft';
import { UpdateNotificationInputSchema } from '../../src/api/platform/notificationItem';

const stored = {
  id: 7,
  cronExpression: '0 9 * * *',
  timezone: 'Europe/Paris',
  notificationFormat: 'pdf',
  filters: [
    { member: 'orders.status', operator: 'equals', value: 'shipped', caseSensitive: true },
    {
      member: 'orders.created_at',
      operator: 'in_date_range',
      value: ['2026-01-01', '2026-03-31'],
      startInclusive: true,
      endInclusive: false,
      extra: { kept: 'as is' },
    },
  ],
};

describe('Edit Notification keeps what it did not touch', () => {
  it('a time-only edit sends the schedule and no filters at all', () => {
    const start = draftOf(stored);
    const text = filtersText(start.filters);
    const again = parseFilters(text, start.filters);
    assert.ok(typeof again !== 'string', String(again));
    const changes = editChanges(start, { ...start, hour: 10, filters: again });
    assert.deepEqual(changes, { scheduleType: 'DAILY', hour: 10, minute: 0 });
  });

  it('nothing changed: nothing to send', () => {
    const start = draftOf(stored);
    assert.deepEqual(editChanges(start, { ...start }), {});
  });

  it('an unknown operator the user left alone is accepted, not refused', () => {
    const start = draftOf(stored);
    const text = `${filtersText(start.filters)}; customers.segment equals Enterprise`;
    const r = parseFilters(text, start.filters);
    assert.ok(typeof r !== 'string', String(r));
    assert.equal(r.length, 3);
    // Typed by the user, the same unknown operator is refused.
    assert.match(String(parseFilters('orders.created_at in_date_range x')), /Unknown operator/);
  });

  it('adding a filter sends the untouched ones exactly as stored, flags and all', () => {
    const start = draftOf(stored);
    const r = parseFilters(
      `${filtersText(start.filters)}; customers.segment equals Enterprise`,
      start.filters,
    );
    assert.ok(typeof r !== 'string');
    const changes = editChanges(start, { ...start, filters: r });
    const body = UpdateNotificationInputSchema.parse(changes);
    assert.deepEqual(body.filters, [
      stored.filters[0],
      stored.filters[1],
      { member: 'customers.segment', operator: 'equals', value: 'Enterprise' },
    ]);
    assert.equal(body.hour, undefined, 'the schedule is not sent when it did not change');
  });

  it('a changed filter is validated as new (its old flags go with the old filter)', () => {
    const start = draftOf(stored);
    const r = parseFilters('orders.status equals returned', start.filters);
    assert.ok(typeof r !== 'string');
    const body = UpdateNotificationInputSchema.parse(editChanges(start, { ...start, filters: r }));
    assert.deepEqual(body.filters, [{ member: 'orders.status', operator: 'equals', value: 'returned' }]);
  });

  it('removing every filter sends an empty set', () => {
    const start = draftOf(stored);
    assert.deepEqual(editChanges(start, { ...start, filters: [] }), { filters: [] });
  });
});

describe('notification filters are checked against the deployment’s members', () => {
  const members = new Set(['orders.status', 'orders.created_at', 'customers.segment']);

  it('refuses a misspelt member and suggests the closest', () => {
    assert.equal(
      parseFilter('orders.statuss equals shipped', members),
      '"orders.statuss" is not a member of this deployment. Did you mean orders.status?',
    );
    assert.equal(memberProblem('orders.status', members), undefined);
    assert.equal(
      memberProblem('payments.amount', members),
      '"payments.amount" is not a member of this deployment.',
    );
    assert.equal(closestMember('customer.segmnt', members), 'customers.segment');
  });

  it('accepts any member when the members could not be read', () => {
    assert.deepEqual(parseFilter('orders.statuss equals shipped'), {
      member: 'orders.statuss',
      operator: 'equals',
      value: 'shipped',
    });
  });

  it('a stored filter left as it was passes even if its member is gone', () => {
    const start = draftOf({ filters: [{ member: 'legacy.field', operator: 'equals', value: 'x' }] });
    const r = parseFilters('legacy.field equals x; orders.status equals shipped', start.filters, members);
    assert.ok(typeof r !== 'string', String(r));
    assert.match(String(parseFilters('legacy.field equals y', start.filters, members)), /not a member/);
  });
});
