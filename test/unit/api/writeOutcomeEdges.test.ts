// The edges of the write-outcome helpers that `npm run mutation -- write-outcome` found untested
// (docs/mutation-triage.md): what an unknown outcome's message keeps of a server's advice when it is
// spaced or punctuated unusually, a call whose work fails after the abort is not torn down, a
// Retry-After with two decimals or junk before its digits, and a cancelled wait leaves no timer.
import assert from 'node:assert/strict';
import { ApiError } from '../../../src/api';
import { abortError, raceAbort, splitAdvice, unknownOutcomeError } from '../../../src/api/net/outcome';
import { parseRetryAfter, sleep } from '../../../src/api/net/retry';
import { rejection } from './helpers';

describe('write outcome: unusual spacing and punctuation in the advice', () => {
  it('keeps "Check X" when "and try again" follows after several spaces', () => {
    assert.deepEqual(splitAdvice('Check the name  and try again.'), { facts: '', advice: 'Check the name.' });
    assert.deepEqual(splitAdvice('Check the name  and try again later.'), {
      facts: '',
      advice: 'Check the name later.',
    });
  });

  it('keeps the fact before ";try again" written without a space', () => {
    assert.deepEqual(splitAdvice('The server is busy;try again later. Check the queue.'), {
      facts: 'The server is busy',
      advice: 'Check the queue.',
    });
  });

  it('ends a fact without its trailing run of dots, semicolons or spaces', () => {
    assert.deepEqual(splitAdvice('The server said: overloaded... Check the proxy.'), {
      facts: 'The server said: overloaded',
      advice: 'Check the proxy.',
    });
    const e = unknownOutcomeError(
      new ApiError('server', 'Saving the file failed: Upstream closed;. Check the gateway and try again.', {
        status: 502,
      }),
      'Saving the file',
    );
    assert.equal(
      e.message,
      'Saving the file: the outcome is unknown, it may have taken effect (Upstream closed). Check the gateway. Check whether it took effect before doing it again.',
    );
  });
});

describe('write outcome: a call whose work fails after the abort', () => {
  it('is not torn down: the work ended on its own', async () => {
    const ctl = new AbortController();
    let torn = 0;
    let fail!: (e: Error) => void;
    const work = new Promise<string>((_resolve, reject) => (fail = reject));
    const p = raceAbort(work, ctl.signal, abortError, () => torn++, 1);
    ctl.abort();
    fail(new Error('socket closed'));
    assert.equal(((await rejection(() => p)) as Error).name, 'AbortError');
    // A timer set after the grace timer with a longer delay runs after it.
    await new Promise((r) => setTimeout(r, 20));
    assert.equal(torn, 0);
  });
});

describe('write outcome: Retry-After edges and a cancelled wait', () => {
  it('reads two decimals of seconds, and junk before the digits is no Retry-After', () => {
    const now = Date.parse('Wed, 21 Oct 2015 07:28:00 GMT');
    assert.equal(parseRetryAfter('2.25', now), 2250);
    assert.equal(parseRetryAfter('x5', now), undefined);
  });

  it('a wait cancelled by its signal leaves no timer running', async () => {
    const timers = () => process.getActiveResourcesInfo().filter((r) => r === 'Timeout').length;
    // Counted once the test runner's own timeout timer is set (after this test returned its promise).
    await Promise.resolve();
    const before = timers();
    const ctl = new AbortController();
    const p = sleep(60_000, ctl.signal);
    assert.equal(timers(), before + 1);
    ctl.abort();
    assert.equal(((await rejection(() => p)) as ApiError).kind, 'cancelled');
    assert.equal(timers(), before, 'the timer is cleared');
  });
});
