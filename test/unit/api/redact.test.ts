import * as assert from 'node:assert/strict';
import { ApiError } from '../../../src/api/errors';
import { redact, redactingLogger } from '../../../src/api/log';

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
});
