import assert from 'node:assert/strict';
import {
  buildNotificationFilter,
  describeFilter,
  parseDashboard,
  parseRecipient,
} from '../../src/explorer/notificationFilter';
import { parseFilter, parseTime, validateTimezone } from '../../src/notifications/createNotificationFlow';

function refused<T>(r: { ok: true; value: T } | { ok: false; message: string }): string {
  assert.equal(r.ok, false, `expected a refusal, got ${JSON.stringify(r)}`);
  return (r as { message: string }).message;
}

describe('explorer notification filter (spec 4.1 in the input flow)', () => {
  it('reads a dashboard as an id or a public id, empty as none', () => {
    assert.deepEqual(parseDashboard(''), { ok: true, value: {} });
    assert.deepEqual(parseDashboard(' 12 '), { ok: true, value: { dashboardId: 12 } });
    assert.deepEqual(parseDashboard('dash-abc'), { ok: true, value: { dashboardPublicId: 'dash-abc' } });
  });

  it('refuses a dashboard id below 1, naming dashboardId', () => {
    assert.match(refused(parseDashboard('0')), /dashboardId/);
  });

  it('rule 1, dashboard dimension: an id and a public id together are refused naming both', () => {
    const m = refused(parseDashboard('12 dash-abc'));
    assert.match(m, /dashboardId/);
    assert.match(m, /dashboardPublicId/);
  });

  it('reads a recipient as a user id, an e-mail, or tenant/externalId', () => {
    assert.deepEqual(parseRecipient('42'), { ok: true, value: { recipientUserId: 42 } });
    assert.deepEqual(parseRecipient('ann@example.com'), {
      ok: true,
      value: { recipientEmail: 'ann@example.com' },
    });
    assert.deepEqual(parseRecipient('acme/u-7'), {
      ok: true,
      value: { recipientEmbedTenantName: 'acme', recipientExternalId: 'u-7' },
    });
  });

  it('rule 1, recipient dimension: user id with e-mail is refused naming both', () => {
    const m = refused(parseRecipient('42 ann@example.com'));
    assert.match(m, /recipientUserId/);
    assert.match(m, /recipientEmail/);
  });

  it('rule 1: a user filter with the embed-user filter is refused naming them', () => {
    const m = refused(parseRecipient('ann@example.com acme/u-7'));
    assert.match(m, /recipientEmail/);
    assert.match(m, /recipientEmbedTenantName|recipientExternalId/);
  });

  it('the embed-user pair: each half alone is refused naming the other', () => {
    assert.match(refused(parseRecipient('acme/')), /recipientExternalId/);
    assert.match(refused(parseRecipient('/u-7')), /recipientEmbedTenantName/);
    assert.match(
      refused(buildNotificationFilter({ recipientEmbedTenantName: 'acme' })),
      /recipientExternalId/,
    );
  });

  it('refuses text that is no recipient', () => {
    assert.match(refused(parseRecipient('bob')), /user id|e-mail|tenant/);
  });

  it('rule 2: a dashboard filter and a recipient filter combine', () => {
    const r = buildNotificationFilter({ dashboard: 'dash-abc', recipient: '42' });
    assert.deepEqual(r, { ok: true, value: { dashboardPublicId: 'dash-abc', recipientUserId: 42 } });
    assert.equal(describeFilter((r as { value: object }).value), 'dashboard dash-abc, recipient 42');
  });

  it('exact arguments break the same rules as typed text', () => {
    const m = refused(buildNotificationFilter({ dashboardId: 3, dashboardPublicId: 'x' }));
    assert.match(m, /dashboardId/);
    assert.match(m, /dashboardPublicId/);
    assert.match(
      refused(buildNotificationFilter({ recipientUserId: 1, recipientEmail: 'a@b.c' })),
      /recipientEmail/,
    );
    assert.match(refused(buildNotificationFilter({ dashboardId: 3, dashboard: '4' })), /dashboardId/);
  });
});

describe('explorer create-notification inputs', () => {
  it('parses times, timezones and filters', () => {
    assert.deepEqual(parseTime('09:30'), { hour: 9, minute: 30 });
    assert.equal(typeof parseTime('25:00'), 'string');
    assert.equal(typeof parseTime('9h'), 'string');
    assert.equal(validateTimezone('UTC'), undefined);
    assert.equal(validateTimezone('Europe/Paris'), undefined);
    assert.match(validateTimezone('Mars/Olympus') ?? '', /not a timezone/);
    assert.deepEqual(parseFilter('orders.status equals shipped'), {
      member: 'orders.status',
      operator: 'equals',
      value: 'shipped',
    });
    assert.deepEqual(parseFilter('orders.amount greater_than 10'), {
      member: 'orders.amount',
      operator: 'greater_than',
      value: 10,
    });
    assert.deepEqual(parseFilter('orders.note is_null'), { member: 'orders.note', operator: 'is_null' });
    assert.match(String(parseFilter('orders.status like x')), /Unknown operator/);
    assert.match(String(parseFilter('orders.status equals')), /needs a value/);
  });
});
