// The extension's log wrapper (src/log.ts) never lets a credential through: Bearer / Api-Key values,
// raw JWTs, Authorization headers and known secrets are redacted in log lines, in logged errors and
// in the messages shown to the user. Runs without vscode, against a fake LogOutputChannel.
import assert from 'node:assert/strict';
import type * as vscode from 'vscode';
import { ApiError } from '../../src/api/errors';
import { KnownSecrets, createRedactingLog, errorMessage, isCancellation, UserCancelled } from '../../src/log';

function fakeChannel(): { channel: vscode.LogOutputChannel; lines: string[] } {
  const lines: string[] = [];
  const push = (level: string) => (m: string | Error) => lines.push(`${level} ${String(m)}`);
  const channel = {
    name: 'Dashboard Platform',
    logLevel: 1,
    onDidChangeLogLevel: () => ({ dispose() {} }),
    trace: push('trace'),
    debug: push('debug'),
    info: push('info'),
    warn: push('warn'),
    error: push('error'),
    append: push('append'),
    appendLine: push('appendLine'),
    replace: push('replace'),
    clear: () => undefined,
    show: () => undefined,
    hide: () => undefined,
    dispose: () => undefined,
  } as unknown as vscode.LogOutputChannel;
  return { channel, lines };
}

const JWT =
  'eyJhbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9.eyJzdWIiOiIxMjM0NTY3ODkwIiwiZXhwIjoyMDAwMDAwMDAwfQ.c2lnbmF0dXJlLXZhbHVl';
const OPAQUE = 'opaque-token-4f9d2c71b8';
const AI_KEY = 'ak_live_7f3e9a0c55d1';

describe('redacting log wrapper', () => {
  it('redacts Bearer, Api-Key, raw JWTs and Authorization headers in every level', () => {
    const { channel, lines } = fakeChannel();
    const log = createRedactingLog(channel, new KnownSecrets());
    log.info(`GET /api/v1/deployments Authorization: Bearer ${OPAQUE}`);
    log.debug(`POST /agents/1/chat/stream-chat-state headers {"Authorization":"Api-Key ${AI_KEY}"}`);
    log.warn(`data token ${JWT} rejected`);
    log.trace(`authorization=${OPAQUE}`);
    log.appendLine(`Bearer ${OPAQUE}`);
    const text = lines.join('\n');
    for (const secret of [OPAQUE, AI_KEY, JWT, JWT.split('.')[1]!]) {
      assert.ok(!text.includes(secret), `leaked ${secret} in:\n${text}`);
    }
    assert.match(text, /\[REDACTED\]/);
    assert.match(text, /GET \/api\/v1\/deployments/);
  });

  it('redacts known secrets that match no pattern, including in extra arguments and errors', () => {
    const { channel, lines } = fakeChannel();
    const secrets = new KnownSecrets();
    secrets.add('hunter2-plain', undefined, 'ab');
    const log = createRedactingLog(channel, secrets);
    log.info('token is', 'hunter2-plain', { token: 'hunter2-plain' });
    log.error(new Error('server echoed hunter2-plain back'));
    log.error('failed:', new ApiError('auth', `Bad credential Bearer ${OPAQUE}`, { requestId: 'r-1' }));
    const text = lines.join('\n');
    assert.ok(!text.includes('hunter2-plain'), text);
    assert.ok(!text.includes(OPAQUE), text);
    assert.match(text, /request id r-1/);
    assert.equal(log.redact('shown: hunter2-plain'), 'shown: [REDACTED]');
    secrets.delete('hunter2-plain');
    log.info('hunter2-plain');
    assert.match(lines.at(-1) ?? '', /hunter2-plain/);
  });

  it('keeps ordinary text and URLs, but strips user-info and token query values', () => {
    const { channel, lines } = fakeChannel();
    const log = createRedactingLog(channel, new KnownSecrets());
    log.info(
      'proxy http://user:pass@proxy.example.com:3128 for https://acme.example.com/api?token=abc123456',
    );
    assert.doesNotMatch(lines[0] ?? '', /user:pass|abc123456/);
    assert.match(lines[0] ?? '', /proxy\.example\.com:3128/);
  });
});

describe('messages shown to the user', () => {
  it('shows ApiError messages as they are and redacts other errors', () => {
    const api = new ApiError(
      'forbidden',
      'Listing notifications needs the admin role. Use a token of an admin user.',
    );
    assert.equal(errorMessage(api), api.message);
    assert.equal(
      errorMessage(new Error(`request failed with Bearer ${OPAQUE}`)),
      'request failed with Bearer [REDACTED]',
    );
    assert.doesNotMatch(errorMessage(`boom ${JWT}`), /eyJ/);
  });

  it('treats cancellation as silent', () => {
    assert.ok(isCancellation(new UserCancelled()));
    assert.ok(isCancellation(new ApiError('cancelled', 'Cancelled.')));
    const abort = new Error('aborted');
    abort.name = 'AbortError';
    assert.ok(isCancellation(abort));
    const foreign = new Error('Cancelled');
    foreign.name = 'UserCancelled';
    assert.ok(isCancellation(foreign), 'a UserCancelled of another module copy');
    assert.ok(!isCancellation(new Error('Cancelled')), 'the message alone is not enough');
    assert.ok(!isCancellation(new ApiError('auth', 'Sign in.')));
  });
});
