// Issue 20, item 8: dedicated tests that fail without each fix.
//   - a Retry-After HTTP date in the past is floored (no burst of retries);
//   - publish can be cancelled: the signal aborts the request, and once it was sent the outcome is
//     said to be unknown (never "try again");
//   - platform and AI calls have an overall deadline when the caller gives none.
import assert from 'node:assert/strict';
import { z } from 'zod';
import { AiClient, ApiError, PlatformClient } from '../../../src/api';
import { DEFAULT_DEADLINE_MS, HttpClient } from '../../../src/api/http';
import { MIN_RETRY_AFTER_MS, parseRetryAfter } from '../../../src/api/net/retry';
import { deferred, sendJson, startServer, type TestServer } from './helpers';

/** The call's error, or a failure if it is still pending after `ms` (a hang is a failure, not a timeout of the test). */
async function errorWithin(ms: number, p: Promise<unknown>): Promise<ApiError> {
  let timer: NodeJS.Timeout | undefined;
  const hung = new Promise<'hung'>((r) => (timer = setTimeout(() => r('hung'), ms)));
  const outcome = await Promise.race([
    p.then(
      () => 'resolved' as const,
      (e: unknown) => e,
    ),
    hung,
  ]);
  clearTimeout(timer);
  assert.notEqual(outcome, 'hung', `the call was still pending after ${ms} ms`);
  assert.notEqual(outcome, 'resolved', 'the call should have failed');
  assert.ok(outcome instanceof ApiError, `an ApiError, not ${String(outcome)}`);
  return outcome;
}

describe('Retry-After in the past is floored', () => {
  it('parses a past HTTP date and "0" as the minimum wait, not zero or less', () => {
    const now = Date.parse('Wed, 21 Oct 2015 07:28:00 GMT');
    assert.equal(parseRetryAfter('Wed, 21 Oct 2015 07:00:00 GMT', now), MIN_RETRY_AFTER_MS);
    assert.equal(parseRetryAfter('Thu, 01 Jan 1970 00:00:00 GMT', now), MIN_RETRY_AFTER_MS);
    assert.equal(parseRetryAfter('0', now), MIN_RETRY_AFTER_MS);
    assert.ok(MIN_RETRY_AFTER_MS >= 1000);
  });

  it('makes the transport wait the floor: under a 500 ms cap the 429 is returned, not re-sent at once', async () => {
    const s = await startServer((_req, res) =>
      sendJson(
        res,
        429,
        { error: 'slow down' },
        { 'retry-after': new Date(Date.now() - 60_000).toUTCString() },
      ),
    );
    const c = new HttpClient({
      baseUrl: s.url,
      family: 'platform',
      auth: () => Promise.resolve('tok-retry'),
      retry: { retries: 3, baseDelayMs: 1, maxDelayMs: 5, maxRetryAfterMs: 500 },
    });
    try {
      const e = await errorWithin(10_000, c.json({ method: 'GET', path: '/x' }, z.unknown()));
      assert.equal(e.kind, 'rateLimited');
      assert.equal(e.retryAfterMs, MIN_RETRY_AFTER_MS);
      assert.equal(s.requests.length, 1, 'no burst of immediate retries');
    } finally {
      await c.close();
      await s.close();
    }
  });
});

describe('publish can be cancelled', () => {
  let s: TestServer;
  let client: PlatformClient;
  let arrived: ReturnType<typeof deferred>;

  beforeEach(async () => {
    arrived = deferred();
    // Holds every publish without answering, like a slow service.
    s = await startServer(() => arrived.resolve(undefined));
    client = new PlatformClient({
      baseUrl: `${s.url}/api`,
      token: () => Promise.resolve('tok-publish'),
      retry: { retries: 3, baseDelayMs: 1, maxDelayMs: 2 },
    });
  });
  afterEach(async () => {
    await client.close();
    await s.close();
  });

  it('aborts a publish that was sent, and says its outcome is unknown instead of "try again"', async () => {
    const abort = new AbortController();
    const p = client.publishDashboard(1, 2, { workbookId: 2, title: 'T' }, abort.signal);
    await arrived.promise; // the service has the request
    abort.abort();
    const e = await errorWithin(10_000, p);
    assert.equal(e.kind, 'unknownOutcome');
    assert.match(e.message, /outcome is unknown/);
    assert.match(e.message, /publish history/);
    assert.doesNotMatch(e.message, /try again/i);
    assert.equal(s.requests.length, 1, 'sent once, never re-sent');
  });

  it('sends nothing when cancelled before it starts', async () => {
    const abort = new AbortController();
    abort.abort();
    const e = await errorWithin(
      10_000,
      client.publishDashboard(1, 2, { workbookId: 2, title: 'T' }, abort.signal),
    );
    assert.equal(e.kind, 'cancelled');
    assert.equal(s.requests.length, 0);
  });
});

describe('platform and AI calls have an overall deadline', () => {
  const saved = { ...DEFAULT_DEADLINE_MS };
  // The defaults are minutes; shortened here so that "no deadline" shows as a hang within seconds.
  beforeEach(() => Object.assign(DEFAULT_DEADLINE_MS, { platform: 300, ai: 300 }));
  afterEach(() => Object.assign(DEFAULT_DEADLINE_MS, saved));

  it('has a finite default for every family', () => {
    for (const [family, ms] of Object.entries(saved)) {
      assert.ok(Number.isFinite(ms) && ms > 0 && ms <= 30 * 60_000, `${family}: ${ms}`);
    }
  });

  it('ends a platform call whose service never answers, with a timeout', async () => {
    const s = await startServer(() => undefined /* never answers */);
    const client = new PlatformClient({
      baseUrl: `${s.url}/api`,
      token: () => Promise.resolve('tok-deadline'),
    });
    try {
      const e = await errorWithin(10_000, client.listDeployments());
      assert.equal(e.kind, 'timeout');
    } finally {
      await client.close();
      await s.close();
    }
  });

  it('ends an AI stream that never sends a line, as cut off by the deadline', async () => {
    const s = await startServer((_req, res) => {
      res.writeHead(200, { 'content-type': 'application/x-ndjson' });
      res.flushHeaders(); // the answer starts, then nothing comes, for ever
    });
    const ai = new AiClient({ baseUrl: s.url, apiKey: () => Promise.resolve('key-deadline') });
    try {
      const run = (async () => {
        for await (const _event of ai.streamChat({
          input: 'hi',
          sessionSettings: { externalId: 'tester' },
        })) {
          // reading until the stream ends or fails
        }
      })();
      const e = await errorWithin(10_000, run);
      // A stream that ends early is an answer cut off (offered Resume), here because of the deadline.
      assert.equal(e.kind, 'protocol', e.message);
      assert.match(e.message, /cut off.*timed out/);
    } finally {
      await s.close();
    }
  });
});
