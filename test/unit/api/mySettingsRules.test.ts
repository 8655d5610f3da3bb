// My Settings' boxes refuse a time zone or locale the service would store as typed: a typo saved as
// the user's zone or language changes every date and number the web app shows them.
import * as assert from 'node:assert/strict';
import { localeProblem, timeZoneProblem } from '../../../src/api/platform/me';

describe('My Settings: time zone and locale boxes', () => {
  it('accepts IANA zone names, their aliases and UTC', () => {
    for (const z of ['Europe/Berlin', 'America/New_York', 'UTC', 'US/Pacific', 'Asia/Kolkata'])
      assert.equal(timeZoneProblem(z), undefined, z);
  });

  it('refuses a name that is not a zone, saying what to type', () => {
    assert.match(
      timeZoneProblem('Mars/Olympus') ?? '',
      /"Mars\/Olympus" is not a time zone: use an IANA name/,
    );
    assert.ok(timeZoneProblem('Berlin'));
  });

  it('accepts well-formed language tags and refuses others', () => {
    for (const l of ['en-US', 'de', 'pt-BR', 'zh-Hant-TW']) assert.equal(localeProblem(l), undefined, l);
    assert.match(
      localeProblem('xx-YY-bad') ?? '',
      /"xx-YY-bad" is not a language tag: use one such as en-US/,
    );
    assert.ok(localeProblem('en_US'));
  });
});
