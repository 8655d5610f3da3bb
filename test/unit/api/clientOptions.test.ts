// The options every client is made with (URL, network, logger, retry, dispatchers, user agent) are
// one ClientOptions handed to the transport whole: each of the four clients must still send the
// user agent it was given and follow the retry policy it was given (a read answered 503 is not
// asked again when retries are 0). A transport failure is made by one helper: a request cancelled
// in flight still carries the code ABORTED.
import assert from 'node:assert/strict';
import { AiClient, BuildClient, DataClient, PlatformClient } from '../../../src/api';
import { DispatcherRegistry } from '../../../src/api/net/agents';
import { apiFailure, DATA_JWT, deferred, startServer, type TestServer } from './helpers';

const UA = 'dp-options-test/1';
const NO_RETRY = { retries: 0, baseDelayMs: 1, maxDelayMs: 5, maxRetryAfterMs: 5_000 };

describe('clients: the shared options reach the transport', () => {
  let s: TestServer;
  let status = 503;
  before(async () => {
    s = await startServer((_req, res) => res.writeHead(status).end());
  });
  after(() => s.close());

  it('each client sends its user agent and asks a refused read once when retries are 0', async () => {
    status = 503;
    const shared = { userAgent: UA, retry: NO_RETRY, dispatchers: new DispatcherRegistry({}) };
    const token = async () => DATA_JWT;
    const platform = new PlatformClient({ ...shared, baseUrl: `${s.url}/api`, token });
    const data = new DataClient({ ...shared, baseUrl: `${s.url}/cubejs-api`, token });
    const build = new BuildClient({ ...shared, platformUrl: `${s.url}/api`, token });
    const cases: [string, () => Promise<unknown>, string][] = [
      ['platform', () => platform.listDeployments(), '/api/v1/deployments'],
      ['data', () => data.meta(), '/cubejs-api/v1/meta'],
      ['build', () => build.listBranches(1), '/build/api/v1/deployments/1/branches'],
    ];
    try {
      for (const [what, call, path] of cases) {
        const before = s.requests.length;
        assert.equal((await apiFailure(call)).kind, 'server', what);
        const sent = s.requests.slice(before);
        assert.deepEqual(
          sent.map((r) => r.url.split('?')[0]),
          [path],
          `${what}: sent once`,
        );
        assert.equal(sent[0]?.headers['user-agent'], UA, what);
      }
    } finally {
      await Promise.all([platform.close(), data.close(), build.close()]);
    }
  });

  it('the AI client sends its user agent too', async () => {
    status = 204;
    const ai = new AiClient({ baseUrl: `${s.url}/agents/1`, apiKey: async () => 'k', userAgent: UA });
    try {
      await ai.abort('c1', {});
      assert.equal(s.requests.at(-1)?.headers['user-agent'], UA);
    } finally {
      await ai.close();
    }
  });
});

describe('transport failures: one helper makes each', () => {
  it('a request cancelled in flight is kind cancelled with code ABORTED', async () => {
    const held = deferred();
    const s = await startServer(() => held.promise);
    const platform = new PlatformClient({ baseUrl: `${s.url}/api`, token: async () => 't' });
    try {
      const ctl = new AbortController();
      const call = platform.listDeployments({}, ctl.signal);
      while (s.requests.length === 0) await new Promise((r) => setImmediate(r));
      ctl.abort();
      const e = await apiFailure(call);
      assert.deepEqual([e.kind, e.code, e.message], ['cancelled', 'ABORTED', 'The request was cancelled.']);
    } finally {
      held.resolve();
      await platform.close();
      await s.close();
    }
  });
});
