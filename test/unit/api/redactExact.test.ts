// Redaction, exactly: what each pattern leaves around the secret, the registry's edges (short,
// padded, forgotten secrets), the order secrets are replaced in, and the cut in `excerpt`. Written
// from the surviving mutants of `npm run mutation -- redaction` (docs/mutation-triage.md).
import * as assert from 'node:assert/strict';
import {
  excerpt,
  forgetSecret,
  forgetSecrets,
  redact,
  redactDeep,
  redactingLogger,
  rememberSecret,
} from '../../../src/api/log';

const R = '[REDACTED]';

describe('api/log: redaction, exactly', () => {
  afterEach(() => forgetSecrets());

  it('keeps the header name and scheme and replaces only the credential', () => {
    assert.equal(redact('Authorization: Bearer abcdef123456'), `Authorization: Bearer ${R}`);
    assert.equal(redact('proxy-authorization: Basic dXNlcjpwYXNz'), `proxy-authorization: Basic ${R}`);
    assert.equal(redact('{"Authorization":"raw-token-1"}'), `{"Authorization":"${R}"}`);
    assert.equal(redact("authorization='tok en'"), `authorization='${R} en'`);
    assert.equal(redact('Authorization =  token zzzzzz'), `Authorization =  token ${R}`);
    assert.equal(redact('xauthorization: q'), `xauthorization: ${R}`);
    // A short credential after a scheme and two spaces (no other pattern would catch it).
    assert.equal(redact('Authorization: Basic  abc'), `Authorization: Basic ${R}`);
  });

  it('replaces Bearer and Api-Key values of six characters or more, JWTs, user-info and key values', () => {
    assert.equal(redact('sent Bearer abc123 then'), `sent Bearer ${R} then`);
    assert.equal(redact('sent Bearer abc12 then'), 'sent Bearer abc12 then');
    assert.equal(redact('Api-Key   k.1/2+3=4-5~_'), `Api-Key ${R}`);
    assert.equal(redact('a eyJabcde.eyJfghij.sig-_9 b'), `a ${R} b`);
    assert.equal(redact('a eyJabcd.eyJfghij.sig b'), 'a eyJabcd.eyJfghij.sig b');
    assert.equal(redact('a eyJabcde.eyJfghij. b'), `a ${R} b`);
    assert.equal(redact('via http://bob:hunter2@proxy:8080/x'), `via http://${R}@proxy:8080/x`);
    assert.equal(redact('via socks5+h://bob@proxy'), `via socks5+h://${R}@proxy`);
    assert.equal(redact('https://host/path@v2'), 'https://host/path@v2');
    assert.equal(
      redact('?access_token=abc&api-key=def&password=p w'),
      `?access_token=${R}&api-key=${R}&password=${R} w`,
    );
    assert.equal(redact('monkey=1 tokens=2'), 'monkey=1 tokens=2');
  });

  it('registers secrets trimmed, ignores ones shorter than four characters, and forgets them', () => {
    rememberSecret('  abcd  ');
    rememberSecret('xyz');
    rememberSecret(undefined);
    assert.equal(redact('abcd xyz'), `${R} xyz`);
    forgetSecret(undefined);
    forgetSecret(' abcd ');
    assert.equal(redact('abcd'), 'abcd');
    rememberSecret('wxyz9');
    forgetSecrets();
    assert.equal(redact('wxyz9'), 'wxyz9');
  });

  it('takes extra secrets of four characters or more, and nothing when none are given', () => {
    assert.equal(redact('abc abcd', ['abc', undefined, 'abcd']), `abc ${R}`);
    assert.equal(redact('Stryker was here and there'), 'Stryker was here and there');
  });

  it('replaces the longest secret first, registered and extra alike', () => {
    rememberSecret('token12345');
    assert.equal(redact('xx token12345 yy', ['token12']), `xx ${R} yy`);
    forgetSecrets();
    rememberSecret('token12');
    assert.equal(redact('xx token12345 yy', ['token12345']), `xx ${R} yy`);
  });

  it('excerpt keeps a text of exactly the maximum length whole and cuts a longer one', () => {
    assert.equal(excerpt('abcde', 5), 'abcde');
    assert.equal(excerpt('abcdef', 5), 'abcd…');
    assert.equal(excerpt('abcdef', 0), '…');
  });

  it('redactDeep keeps null, numbers and class instances as they are', () => {
    const when = new Date(0);
    const out = redactDeep({ a: null, n: 5, when, list: ['Bearer abcdef1'] });
    assert.deepEqual(out, { a: null, n: 5, when, list: [`Bearer ${R}`] });
    assert.equal(out.when, when);
  });

  it('a redacting logger looks its secrets up at each line, and keeps a missing trace level missing', () => {
    const lines: string[] = [];
    let secrets = ['first-secret'];
    const log = redactingLogger(
      {
        debug: (m) => lines.push(m),
        info: (m) => lines.push(m),
        warn: (m) => lines.push(m),
        error: (m) => lines.push(m),
      },
      () => secrets,
    );
    assert.equal(log.trace, undefined);
    log.info('first-secret second-secret');
    secrets = ['second-secret'];
    log.error('first-secret second-secret');
    assert.deepEqual(lines, [`${R} second-secret`, `first-secret ${R}`]);
  });
});
