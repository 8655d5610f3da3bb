// What a user is told when a write fails (issue 26): for every way a write can end, whether its
// outcome is said to be unknown (it may have taken effect: never "try again") or the failure is a
// clear refusal, the exact wording of the unknown-outcome message, the "Check" command it carries,
// and that it is sent exactly once. Driven through HttpClient.write against a loopback server, plus
// the exported helpers (outcome, retry) whose cases a server cannot produce (TLS codes, 1xx).
import assert from 'node:assert/strict';
import { getEventListeners } from 'node:events';
import { z } from 'zod';
import { ApiError } from '../../../src/api';
import { HttpClient, withCheckCommand } from '../../../src/api/http';
import {
  abortError,
  DEFAULT_CHECK,
  outcomeUnknown,
  raceAbort,
  splitAdvice,
  unknownOutcomeError,
} from '../../../src/api/net/outcome';
import {
  backoffDelay,
  cancelledError,
  MIN_RETRY_AFTER_MS,
  parseRetryAfter,
  sleep,
} from '../../../src/api/net/retry';
import {
  apiFailure,
  deferred,
  rejection,
  sendJson,
  startServer,
  type Handler,
  type TestServer,
} from './helpers';

const WHAT = 'Creating the thing';

/** A loopback server and a client whose writes go to it; reads would be retried fast. */
async function withServer(
  handler: Handler,
  fn: (c: HttpClient, s: TestServer) => Promise<void>,
): Promise<void> {
  const s = await startServer(handler);
  const c = new HttpClient({
    baseUrl: s.url,
    family: 'platform',
    auth: () => Promise.resolve('tok-outcome'),
    retry: { retries: 3, baseDelayMs: 1, maxDelayMs: 2 },
  });
  try {
    await fn(c, s);
  } finally {
    await c.close();
    await s.close();
  }
}

function write(c: HttpClient, extra: Partial<Parameters<HttpClient['write']>[0]> = {}) {
  return c.write(
    { method: 'POST', path: '/v1/things', body: { name: 'n' }, action: WHAT, requestId: 'req-1', ...extra },
    z.looseObject({ id: z.number() }),
  );
}

describe('write outcome: what a failed write tells the user', () => {
  it('a 500 is an unknown outcome: facts kept, "try again" dropped, the default check, sent once', async () => {
    await withServer(
      (_req, res) => sendJson(res, 500, { error: 'boom' }),
      async (c, s) => {
        const e = await apiFailure(write(c));
        assert.equal(e.kind, 'unknownOutcome');
        assert.equal(
          e.message,
          `${WHAT}: the outcome is unknown, it may have taken effect (The service failed (500). The server said: boom. (request id req-1)). Check whether it took effect before doing it again.`,
        );
        assert.equal(e.status, 500);
        assert.equal(e.serverMessage, 'boom');
        assert.equal(e.requestId, 'req-1');
        assert.equal(e.method, 'POST');
        assert.equal(e.url, `${s.url}/v1/things`);
        assert.deepEqual(e.check, DEFAULT_CHECK);
        const cause = e.cause as ApiError;
        assert.equal(cause.kind, 'server', 'the cause is the original failure');
        assert.equal(s.requests.length, 1, 'a write is never re-sent');
        assert.equal(s.requests[0]!.method, 'POST');
        assert.equal(s.requests[0]!.body, '{"name":"n"}');
      },
    );
  });

  it('408 and 503 leave the outcome unknown; 500 exactly is the first such status', async () => {
    for (const status of [408, 503, 504]) {
      await withServer(
        (_req, res) => sendJson(res, status, {}),
        async (c, s) => {
          const e = await apiFailure(write(c));
          assert.equal(e.kind, 'unknownOutcome', `status ${status}`);
          assert.equal(e.status, status);
          assert.equal(s.requests.length, 1, `status ${status}: sent once`);
        },
      );
    }
  });

  it('a clear refusal (4xx, 3xx) keeps its own kind and advice: nothing was done', async () => {
    const cases: [number, string][] = [
      [300, 'protocol'],
      [400, 'validation'],
      [401, 'auth'],
      [403, 'forbidden'],
      [404, 'notFound'],
      [409, 'conflict'],
      [429, 'rateLimited'],
      [499, 'validation'],
    ];
    for (const [status, kind] of cases) {
      await withServer(
        (_req, res) => sendJson(res, status, { error: 'no' }),
        async (c, s) => {
          const e = await apiFailure(write(c));
          assert.equal(e.kind, kind, `status ${status}`);
          assert.doesNotMatch(e.message, /outcome is unknown/, `status ${status}`);
          assert.equal(s.requests.length, 1, `status ${status}: sent once (a 429 write is not retried)`);
        },
      );
    }
  });

  it('a 2xx whose body cannot be read reached the server: unknown, not "invalid JSON, try again"', async () => {
    await withServer(
      (_req, res) => {
        res.writeHead(200, { 'content-type': 'application/json' });
        res.end('{not json');
      },
      async (c) => {
        const e = await apiFailure(write(c));
        assert.equal(e.kind, 'unknownOutcome');
        assert.equal(e.status, 200);
        assert.match(
          e.message,
          /^Creating the thing: the outcome is unknown, it may have taken effect \(The server sent invalid JSON for POST \/v1\/things\)\. /,
        );
        assert.equal((e.cause as ApiError).kind, 'protocol');
      },
    );
  });

  it('a reset after the request arrived is unknown; its "Try again." is dropped', async () => {
    await withServer(
      (req) => req.socket.destroy(),
      async (c, s) => {
        const e = await apiFailure(write(c));
        assert.equal(e.kind, 'unknownOutcome');
        assert.match(
          e.message,
          /^Creating the thing: the outcome is unknown, it may have taken effect \(The connection to http:\/\/127\.0\.0\.1:\d+ was interrupted \([A-Z_]+\)\)\. Check whether it took effect before doing it again\.$/,
        );
        assert.doesNotMatch(e.message, /try again/i);
        assert.equal(s.requests.length, 1, 'never re-sent after a reset');
      },
    );
  });

  it('a refused connection sent nothing: a network error that says so, not an unknown outcome', async () => {
    const s = await startServer(() => undefined);
    const url = s.url;
    await s.close();
    const c = new HttpClient({
      baseUrl: url,
      family: 'platform',
      auth: () => Promise.resolve('tok-outcome'),
    });
    try {
      const e = await apiFailure(write(c));
      assert.equal(e.kind, 'network');
      assert.equal(e.code, 'ECONNREFUSED');
      assert.doesNotMatch(e.message, /outcome is unknown/);
    } finally {
      await c.close();
    }
  });

  it("the operation's own check replaces the default, ended with a full stop", async () => {
    await withServer(
      (_req, res) => sendJson(res, 502, {}),
      async (c) => {
        const check = { hint: '  Refresh the list of things ', command: 'x.refresh' };
        const e = await apiFailure(write(c, { check }));
        assert.equal(e.kind, 'unknownOutcome');
        assert.ok(e.message.endsWith(' Refresh the list of things.'), e.message);
        assert.equal(e.check, check);
      },
    );
    await withServer(
      (_req, res) => sendJson(res, 502, {}),
      async (c) => {
        const e = await apiFailure(write(c, { check: { hint: 'Look in the history!' } }));
        assert.ok(e.message.endsWith(' Look in the history!'), e.message);
      },
    );
  });

  it('a read (GET) that fails the same way is never called unknown', async () => {
    await withServer(
      (_req, res) => sendJson(res, 503, {}),
      async (c, s) => {
        const e = await apiFailure(
          c.json({ method: 'GET', path: '/v1/things', requestId: 'r' }, z.unknown()),
        );
        assert.equal(e.kind, 'server');
        assert.equal(s.requests.length, 4, 'a read is retried (3 retries)');
      },
    );
  });
});

describe('write outcome: which failures leave the outcome open', () => {
  const err = (
    kind: ConstructorParameters<typeof ApiError>[0],
    init: ConstructorParameters<typeof ApiError>[2] = {},
  ) => new ApiError(kind, 'Something happened.', init);

  it('open: a network failure, a timeout, an unreadable answer, a cancel after sending, 5xx, 408', () => {
    for (const kind of ['network', 'timeout', 'protocol', 'cancelled'] as const)
      assert.equal(outcomeUnknown(err(kind)), true, kind);
    assert.equal(outcomeUnknown(err('server', { status: 500 })), true);
    assert.equal(outcomeUnknown(err('server', { status: 599 })), true);
    assert.equal(outcomeUnknown(err('timeout', { status: 408 })), true);
    assert.equal(outcomeUnknown(err('protocol', { status: 200, code: 'SCHEMA' })), true);
    assert.equal(outcomeUnknown(err('protocol', { status: 299 })), true);
  });

  it('settled: a clear status, nothing sent (refused, unresolved, TLS, bad URL), or already said', () => {
    assert.equal(outcomeUnknown(err('validation', { status: 499 })), false);
    assert.equal(outcomeUnknown(err('protocol', { status: 199 })), false);
    assert.equal(outcomeUnknown(err('protocol', { status: 300 })), false);
    assert.equal(outcomeUnknown(err('server', { status: 407 })), false);
    for (const code of ['ECONNREFUSED', 'ENOTFOUND', 'PROXY_TUNNEL_FAILED', 'INSECURE_URL'])
      assert.equal(outcomeUnknown(err('network', { code })), false, code);
    for (const code of [
      'CERT_HAS_EXPIRED',
      'UNABLE_TO_VERIFY_LEAF_SIGNATURE',
      'ERR_TLS_CERT_ALTNAME_INVALID',
    ])
      assert.equal(outcomeUnknown(err('network', { code })), false, code);
    assert.equal(outcomeUnknown(err('network', { code: 'ECONNRESET' })), true, 'a reset may have landed');
    for (const kind of [
      'auth',
      'forbidden',
      'notFound',
      'validation',
      'conflict',
      'rateLimited',
      'server',
    ] as const)
      assert.equal(outcomeUnknown(err(kind)), false, kind);
    const already = unknownOutcomeError(err('server', { status: 503 }), WHAT);
    assert.equal(outcomeUnknown(already), false, 'an unknown outcome is not wrapped twice');
  });
});

describe('write outcome: the message, sentence by sentence', () => {
  it('keeps "Check X" of "Check X and try again", drops "; try again …" and retry sentences', () => {
    assert.deepEqual(splitAdvice('Timed out at api.example.com. Check your network and try again.'), {
      facts: 'Timed out at api.example.com',
      advice: 'Check your network.',
    });
    assert.deepEqual(splitAdvice('It failed, and try again'), { facts: 'It failed', advice: '' });
    assert.deepEqual(splitAdvice('Refresh the list; try again later. Use a smaller page!'), {
      facts: '',
      advice: 'Refresh the list. Use a smaller page!',
    });
    assert.deepEqual(splitAdvice('Please retry. Try again soon? It broke:  '), {
      facts: 'It broke',
      advice: '',
    });
    assert.deepEqual(splitAdvice('wait a minute. fix the input.'), {
      facts: '',
      advice: 'wait a minute. fix the input.',
    });
    assert.deepEqual(splitAdvice('  A;  B, '), { facts: 'A;  B', advice: '' });
    assert.deepEqual(splitAdvice('Checking failed. Narrow it.'), {
      facts: 'Checking failed',
      advice: 'Narrow it.',
    });
    assert.deepEqual(splitAdvice(''), { facts: '', advice: '' });
  });

  it('builds the sentence: facts in brackets, kept advice, then the check', () => {
    const cause = new ApiError('timeout', `${WHAT} failed: Waiting timed out. Open the log and try again.`, {
      status: 504,
      serverMessage: 'gateway',
      requestId: 'rq',
      code: 'UND_ERR_HEADERS_TIMEOUT',
      method: 'PUT',
      url: 'https://h.example/x',
    });
    const e = unknownOutcomeError(cause, WHAT, { hint: 'See the history', command: 'c', args: [1] });
    assert.equal(e.kind, 'unknownOutcome');
    assert.equal(
      e.message,
      `${WHAT}: the outcome is unknown, it may have taken effect (Waiting timed out). Open the log. See the history.`,
    );
    assert.deepEqual(
      [e.status, e.serverMessage, e.requestId, e.code, e.method, e.url, e.cause],
      [504, 'gateway', 'rq', 'UND_ERR_HEADERS_TIMEOUT', 'PUT', 'https://h.example/x', cause],
    );
    assert.deepEqual(e.check, { hint: 'See the history', command: 'c', args: [1] });
    const bare = unknownOutcomeError(new ApiError('network', 'Try again.'), WHAT);
    assert.equal(
      bare.message,
      `${WHAT}: the outcome is unknown, it may have taken effect. Check whether it took effect before doing it again.`,
    );
    assert.equal(bare.check, DEFAULT_CHECK);
  });

  it('withCheckCommand gives only an unknown outcome its "Check" command, keeping everything else', () => {
    const plain = new Error('x');
    assert.equal(withCheckCommand(plain, 'c'), plain);
    const refused = new ApiError('validation', 'No.');
    assert.equal(withCheckCommand(refused, 'c'), refused);
    const cause = new ApiError('server', 'boom', { status: 500 });
    const unknown = unknownOutcomeError(cause, WHAT, { hint: 'Look.' });
    const checked = withCheckCommand(unknown, 'dp.refresh', ['a']) as ApiError;
    assert.notEqual(checked, unknown);
    assert.equal(checked.kind, 'unknownOutcome');
    assert.equal(checked.message, unknown.message);
    assert.deepEqual(checked.check, { hint: 'Look.', command: 'dp.refresh', args: ['a'] });
    assert.equal(checked.cause, cause);
    assert.equal(checked.status, 500);
    const noCheck = new ApiError('unknownOutcome', 'Unknown.', {
      requestId: 'r',
      code: 'K',
      method: 'POST',
      url: 'https://h/x',
      serverMessage: 's',
    });
    const d = withCheckCommand(noCheck, 'dp.refresh') as ApiError;
    assert.deepEqual(d.check, { ...DEFAULT_CHECK, command: 'dp.refresh', args: [] });
    assert.deepEqual(
      [d.requestId, d.code, d.method, d.url, d.serverMessage],
      ['r', 'K', 'POST', 'https://h/x', 's'],
    );
  });
});

describe('write outcome: ending a call undici does not end', () => {
  it('rejects at once when the signal is already aborted, without waiting for the work', async () => {
    const ctl = new AbortController();
    ctl.abort();
    const e = await rejection(() =>
      raceAbort(new Promise(() => undefined), ctl.signal, abortError, () => undefined),
    );
    assert.equal((e as Error).name, 'AbortError');
    assert.equal((e as { code?: string }).code, 'UND_ERR_ABORTED');
    assert.equal((e as Error).message, 'The request was aborted.');
  });

  it('tears the connection down when the work is still pending after the grace period', async () => {
    const ctl = new AbortController();
    const torn = deferred();
    const p = raceAbort(new Promise(() => undefined), ctl.signal, abortError, () => torn.resolve(), 1);
    ctl.abort();
    assert.equal(((await rejection(() => p)) as Error).name, 'AbortError');
    await torn.promise; // a hang here is the failure
  });

  it('does not tear down work that settled after the abort, and stops listening once settled', async () => {
    const ctl = new AbortController();
    let torn = 0;
    const work = deferred<string>();
    const p = raceAbort(work.promise, ctl.signal, abortError, () => torn++, 5);
    ctl.abort();
    work.resolve('late');
    await rejection(() => p);
    await sleep(40);
    assert.equal(torn, 0, 'the work ended on its own');

    const ctl2 = new AbortController();
    assert.equal(await raceAbort(Promise.resolve(7), ctl2.signal, abortError, () => torn++), 7);
    assert.equal(getEventListeners(ctl2.signal, 'abort').length, 0, 'listener removed on success');
    const failed = raceAbort(Promise.reject(new Error('w')), ctl2.signal, abortError, () => torn++);
    assert.equal(((await rejection(() => failed)) as Error).message, 'w');
    assert.equal(getEventListeners(ctl2.signal, 'abort').length, 0, 'listener removed on failure');
  });
});

describe('write outcome: retry timing helpers', () => {
  it('parses Retry-After: seconds (with fractions and spaces), dates, floors, junk', () => {
    const now = Date.parse('Wed, 21 Oct 2015 07:28:00 GMT');
    assert.equal(parseRetryAfter(' 2 ', now), 2000);
    assert.equal(parseRetryAfter('1.5', now), 1500);
    assert.equal(parseRetryAfter('1.0004', now), 1000);
    assert.equal(parseRetryAfter('0.2', now), MIN_RETRY_AFTER_MS);
    assert.equal(parseRetryAfter('Wed, 21 Oct 2015 07:28:30 GMT', now), 30_000);
    assert.equal(parseRetryAfter('2x', now), undefined);
    assert.equal(
      parseRetryAfter('-5', now),
      MIN_RETRY_AFTER_MS,
      'a negative is read as a date or floored, never below the floor',
    );
    assert.equal(parseRetryAfter('', now), undefined);
    assert.equal(parseRetryAfter(null, now), undefined);
  });

  it('backs off exponentially under the cap', () => {
    const p = { retries: 5, baseDelayMs: 100, maxDelayMs: 1000 };
    assert.equal(
      backoffDelay(1, p, () => 0.5),
      100,
    );
    assert.equal(
      backoffDelay(2, p, () => 0.5),
      200,
    );
    assert.equal(
      backoffDelay(4, p, () => 0.5),
      500,
      'capped at the maximum',
    );
  });

  it('sleep resolves, and an abort before or during it is a cancel', async () => {
    await sleep(1);
    const ctl = new AbortController();
    ctl.abort();
    const before = (await rejection(() => sleep(10_000, ctl.signal))) as ApiError;
    assert.deepEqual(
      [before.kind, before.code, before.message],
      ['cancelled', 'ABORTED', 'The request was cancelled.'],
    );
    const ctl2 = new AbortController();
    const p = sleep(10_000, ctl2.signal);
    ctl2.abort();
    assert.equal(((await rejection(() => p)) as ApiError).kind, 'cancelled');
    const ctl3 = new AbortController();
    await sleep(1, ctl3.signal);
    assert.equal(getEventListeners(ctl3.signal, 'abort').length, 0, 'listener removed after the wait');
    assert.deepEqual(cancelledError().kind, 'cancelled');
  });
});
