import * as assert from 'node:assert/strict';
import { ApiError } from '../../../src/api/errors';
import {
  excerpt,
  forgetSecrets,
  redact,
  redactDeep,
  redactingLogger,
  rememberSecret,
} from '../../../src/api/log';

const JWT =
  'eyJhbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9.eyJzdWIiOiIxMjM0NTY3ODkwIiwiZGVwbG95bWVudElkIjo3fQ.SflKxwRJSMeKKF2QT4fwpMeJf36POk6yJV_adQssw5c';

describe('api/log: redact', () => {
  it('strips Authorization header values of every scheme', () => {
    for (const line of [
      'authorization: Bearer abcdef123456',
      'Authorization: Api-Key k-1234567890',
      '{"authorization":"rawtokenvalue123"}',
      'Proxy-Authorization: Basic dXNlcjpwYXNz',
    ]) {
      const out = redact(line);
      assert.match(out, /\[REDACTED\]/, line);
      for (const secret of ['abcdef123456', 'k-1234567890', 'rawtokenvalue123', 'dXNlcjpwYXNz']) {
        assert.ok(!out.includes(secret), `${line} -> ${out}`);
      }
    }
  });

  it('strips JWTs, Bearer/Api-Key values, URL user-info, token query values and known secrets', () => {
    const text =
      `jwt ${JWT} then Bearer abc.def-123456 and Api-Key sk_live_999999 via http://bob:hunter2@proxy:8080 ` +
      `url https://h/x?token=qwerty123&first=5 and my secret plainsecretvalue`;
    const out = redact(text, ['plainsecretvalue']);
    for (const s of [
      JWT,
      'abc.def-123456',
      'sk_live_999999',
      'hunter2',
      'bob:',
      'qwerty123',
      'plainsecretvalue',
    ]) {
      assert.ok(!out.includes(s), `${s} leaked: ${out}`);
    }
    assert.match(out, /first=5/);
    assert.match(out, /proxy:8080/);
  });

  it('leaves ordinary text alone', () => {
    const t = 'Loaded 20 deployments from https://tenant.example.com/api/v1/deployments?first=20 in 35 ms';
    assert.equal(redact(t), t);
  });

  it('applies to ApiError messages and to logger lines', () => {
    const e = new ApiError('server', `failed with Bearer ${JWT}`, { serverMessage: `echo ${JWT}` });
    assert.ok(!e.message.includes(JWT));
    assert.ok(!e.serverMessage!.includes(JWT));
    const lines: string[] = [];
    const sink = (m: string): number => lines.push(m);
    const log = redactingLogger({ debug: sink, info: sink, warn: sink, error: sink }, () => ['s3cr3t-value']);
    log.info('using s3cr3t-value');
    log.debug(`header authorization: ${JWT}`);
    // Both lines reach the sink (a logger that drops lines must fail), each redacted.
    assert.deepEqual(lines, ['using [REDACTED]', 'header authorization: [REDACTED]']);
  });

  it('excerpt redacts the whole text before cutting it, and marks the cut', () => {
    const token = 'opaqueExcerptToken123456';
    const text = `${'a'.repeat(20)}${token}${'b'.repeat(20)}`;
    // Cut inside the token: the prefix before the cut would be unrecognisable afterwards.
    const cut = excerpt(text, 30, (t) => redact(t, [token]));
    assert.equal(cut, `${'a'.repeat(20)}[REDACTED…`);
    assert.equal(excerpt('short', 30), 'short');
  });

  it('a secret inside a longer one does not split the longer one', () => {
    try {
      rememberSecret('abcd1234');
      rememberSecret('xx-abcd1234-yy-long-secret');
      assert.equal(redact('v=xx-abcd1234-yy-long-secret.'), 'v=[REDACTED].');
    } finally {
      forgetSecrets();
    }
  });

  it('redactDeep redacts every string of a JSON-like value and keeps its shape', () => {
    const value = { a: ['x s3cr3t-deep y', 2, null], b: { c: 's3cr3t-deep' }, d: true };
    assert.deepEqual(
      redactDeep(value, (t) => redact(t, ['s3cr3t-deep'])),
      { a: ['x [REDACTED] y', 2, null], b: { c: '[REDACTED]' }, d: true },
    );
  });
});
