// Platform ids of SCIM users: the SCIM document types a user's id as a string (its example is a
// UUID), so a SCIM id is taken for a platform id only when it is a plain number; otherwise the id
// is known only once the platform answered it (or the admin typed it) for the user's e-mail.
import assert from 'node:assert/strict';
import { emailsOf, knownPlatformId, rememberPlatformId } from '../../../src/explorer/admin/platformIds';

describe('platform ids of SCIM users', () => {
  it('never reads a UUID (or any non-number) SCIM id as a platform id', () => {
    // parseInt would read 2819 out of the document's example id.
    assert.equal(
      knownPlatformId({ id: '2819c223-7f76-453a-919d-413861904646', userName: 'x@a.example' }),
      undefined,
    );
    assert.equal(knownPlatformId({ id: '12abc', userName: 'y@a.example' }), undefined);
    assert.equal(knownPlatformId({ id: '0', userName: 'z@a.example' }), undefined);
    assert.equal(knownPlatformId({ id: '42' }), 42);
  });

  it('knows the id the platform answered for an e-mail, case-insensitively, from userName or emails', () => {
    const u = {
      id: '9d0b7c1e-1111-4222-a333-444455556666',
      userName: 'Ann@Example.com',
      emails: [{ value: 'ann.work@example.com' }],
    };
    assert.deepEqual(emailsOf(u), ['ann@example.com', 'ann.work@example.com']);
    assert.equal(knownPlatformId(u), undefined);
    rememberPlatformId(['ann.work@example.com'], 17);
    assert.equal(knownPlatformId(u), 17);
    rememberPlatformId(['bad@example.com'], 0);
    assert.equal(knownPlatformId({ id: 'u-1', userName: 'bad@example.com' }), undefined, 'not an id');
  });
});
