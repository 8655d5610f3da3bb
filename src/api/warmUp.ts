// The session's first query ran the client's code for the first time: V8 compiled undici's request
// path, its HTTP parser (WebAssembly), the NDJSON reader and the zod checks on that query's clock,
// about 150-200 ms more than the second query. The API bundle's background preload runs this once
// instead: one streamed SQL query through the same stack against a loopback server of its own
// (never a real service, no credentials), then closes both.
import * as http from 'node:http';
import type { AddressInfo } from 'node:net';
import { DataClient } from './dataClient';
import { DispatcherRegistry } from './net/agents';

const ANSWER =
  '{"schema":[{"name":"n","column_type":"Int64"}],"lastRefreshTime":"2020-01-01T00:00:00.000Z"}\n' +
  '{"data":[["1"]]}\n';

/** Runs one query through the whole client on loopback; resolves with the rows it read. */
export async function warmUp(): Promise<number> {
  const server = http.createServer((req, res) => {
    req.resume();
    res.writeHead(200, { 'content-type': 'application/json' }).end(ANSWER);
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', resolve);
  });
  // A registry of its own: the shared dispatchers (and their pools) are left as they were.
  const dispatchers = new DispatcherRegistry();
  const client = new DataClient({
    baseUrl: `http://127.0.0.1:${(server.address() as AddressInfo).port}/cubejs-api`,
    token: async () => 'warm-up',
    dispatchers,
    retry: { retries: 0, baseDelayMs: 0, maxDelayMs: 0 },
  });
  let rows = 0;
  try {
    for await (const chunk of client.cubesql('SELECT 1'))
      if (chunk.type === 'rows') rows += chunk.rows.length;
  } finally {
    await client.close();
    server.closeAllConnections();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  }
  return rows;
}
