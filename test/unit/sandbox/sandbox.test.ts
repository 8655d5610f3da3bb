// The sandbox at the HTTP level: auth per family, opaque cursors, server-side rules, fault control
// endpoints, the AI agent's wire format, and the CLI's one JSON line.
import * as assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import * as path from 'node:path';
import { startSandbox, type SandboxHandle } from '../../../src/sandbox';

describe('sandbox', function () {
  this.timeout(60_000);
  let sb: SandboxHandle;
  before(async () => {
    sb = await startSandbox({ rows: 2000, continueWaitMs: 200, aiEventDelayMs: 1 });
  });
  after(() => sb.close());
  afterEach(() => sb.faults.clear());

  const platform = (p: string, token = sb.tokens.admin) =>
    fetch(`${sb.urls.platform}${p}`, { headers: { authorization: `Bearer ${token}` } });

  it('checks each family its own way: Bearer, raw JWT, Api-Key', async () => {
    assert.equal((await fetch(`${sb.urls.platform}/v1/deployments`)).status, 401);
    assert.equal((await platform('/v1/deployments', 'nope')).status, 401);
    assert.equal((await platform('/v1/deployments')).status, 200);
    const noAuth = await fetch(`${sb.urls.dataApi}/v1/meta`);
    assert.equal(noAuth.status, 403);
    assert.equal(((await noAuth.json()) as { error: string }).error, "Authorization header isn't set");
    assert.equal(
      (await fetch(`${sb.urls.dataApi}/v1/meta`, { headers: { authorization: 'Bearer x' } })).status,
      403,
    );
    assert.equal(
      (await fetch(`${sb.urls.dataApi}/v1/meta`, { headers: { authorization: sb.tokens.dataApi } })).status,
      200,
    );
    const ai = await fetch(`${sb.urls.ai[0]!.url}/chat/abort`, {
      method: 'POST',
      headers: { authorization: `Bearer ${sb.tokens.aiApiKey}` },
    });
    assert.equal(ai.status, 401);
  });

  it('pages with opaque cursors and refuses a cursor of another list or a bad page size', async () => {
    const first = (await (await platform('/v1/deployments/1/reports?first=2')).json()) as {
      pageInfo: { endCursor: string };
    };
    assert.doesNotMatch(first.pageInfo.endCursor, /^\d+$/);
    const wrong = await platform(`/v1/deployments/1/workbooks?after=${first.pageInfo.endCursor}`);
    assert.equal(wrong.status, 400);
    for (const n of [0, 201, 1.5]) {
      const res = await platform(`/v1/deployments/1/notifications?first=${n}`);
      assert.equal(res.status, 400);
      assert.match(
        ((await res.json()) as { error: string }).error,
        /first must be a whole number from 1 to 200/,
      );
    }
  });

  it('creates a report with its title in the folder it names, and a report as code with its source', async () => {
    const send = async (method: string, p: string, body: unknown) => {
      const res = await fetch(`${sb.urls.platform}/v1/deployments/1${p}`, {
        method,
        headers: { authorization: `Bearer ${sb.tokens.admin}`, 'content-type': 'application/json' },
        body: JSON.stringify(body),
      });
      assert.equal(res.status, 200, `${method} ${p}`);
      return (await res.json()) as Record<string, unknown>;
    };
    const folder = await send('POST', '/folders', { name: 'Report home' });
    const made = await send('POST', '/reports', {
      name: ' Revenue ',
      title: 'Revenue by month',
      sqlQuery: 'SELECT 1',
      folderId: folder.id,
    });
    assert.deepEqual(
      [made.name, made.title, made.folderId, made.sqlQuery, made.type],
      ['Revenue', 'Revenue by month', folder.id, 'SELECT 1', 'REPORT'],
    );
    const asCode = await send('PUT', '/reports/by-public-id/AbCdEf123456', {
      name: 'As code',
      source: 'EXCEL',
      sqlQuery: 'SELECT 2',
    });
    assert.deepEqual(
      [asCode.publicId, asCode.name, asCode.source, asCode.sqlQuery, asCode.folderId, asCode.title],
      ['AbCdEf123456', 'As code', 'EXCEL', 'SELECT 2', null, null],
    );
  });

  it('answers an error with the request id it was sent, and reads embed tenant names without case', async () => {
    const missing = await fetch(`${sb.urls.platform}/v1/deployments/999`, {
      headers: { authorization: `Bearer ${sb.tokens.admin}`, 'x-request-id': 'trace-42' },
    });
    assert.equal(missing.status, 404);
    assert.equal(missing.headers.get('x-request-id'), 'trace-42');
    assert.equal(((await missing.json()) as { requestId?: string }).requestId, 'trace-42');
    const groups = async (tenant: string) =>
      ((await (await platform(`/v1/embed-tenants/${tenant}/groups`)).json()) as { items: { id: number }[] })
        .items;
    const lower = await groups('acme');
    assert.ok(lower.length > 0, 'the seeded tenant has groups');
    assert.deepEqual(await groups('ACME'), lower);
  });

  it('enforces each rule of spec 4.1 and admin-only listing', async () => {
    const cases: [string, RegExp][] = [
      ['dashboardId=0', /dashboardId must be/],
      ['recipientUserId=-1', /recipientUserId must be/],
      ['dashboardId=1&dashboardPublicId=p', /not both/],
      ['recipientUserId=1&recipientEmail=a@b', /one recipient filter/],
      ['recipientEmbedTenantName=acme', /together/],
      ['recipientEmail=a@b&recipientEmbedTenantName=acme&recipientExternalId=x', /one recipient filter/],
    ];
    for (const [q, message] of cases) {
      const res = await platform(`/v1/deployments/1/notifications?${q}`);
      assert.equal(res.status, 400, q);
      assert.match(((await res.json()) as { error: string }).error, message);
    }
    assert.equal((await platform('/v1/deployments/1/notifications', sb.tokens.member)).status, 403);
  });

  it('switches faults at run time through /__sandbox/faults, and `times` expires them', async () => {
    const add = await fetch(`${sb.urls.control}/faults`, {
      method: 'POST',
      body: JSON.stringify({
        family: 'platform',
        route: '/v1/app-config',
        status: 429,
        retryAfterSeconds: 7,
        times: 1,
      }),
    });
    assert.equal(add.status, 200);
    const limited = await platform('/v1/app-config');
    assert.equal(limited.status, 429);
    assert.equal(limited.headers.get('retry-after'), '7');
    assert.equal((await platform('/v1/app-config')).status, 200);
    const bad = await fetch(`${sb.urls.control}/faults`, {
      method: 'POST',
      body: JSON.stringify({ status: 'x' }),
    });
    assert.equal(bad.status, 400);
    const state = (await (await fetch(`${sb.urls.control}/state`)).json()) as {
      requestCounts: Record<string, number>;
    };
    assert.ok(state.requestCounts['platform GET /v1/app-config']! >= 2);
  });

  it('answers a slow load with "Continue wait" under the same request-id prefix, then with data', async () => {
    const send = (span: number) =>
      fetch(`${sb.urls.dataApi}/v1/load`, {
        method: 'POST',
        headers: {
          authorization: sb.tokens.dataApi,
          'content-type': 'application/json',
          'x-request-id': `abc-span-${span}`,
        },
        body: JSON.stringify({ queryType: 'multi', query: { measures: ['orders.slow_count'] } }),
      }).then((r) => r.json() as Promise<{ error?: string; results?: unknown[] }>);
    assert.deepEqual(await send(1), { error: 'Continue wait' });
    await new Promise((r) => setTimeout(r, 250));
    assert.ok((await send(2)).results);
  });

  it('rejects unknown cubesql body fields and streams NDJSON', async () => {
    const post = (body: unknown) =>
      fetch(`${sb.urls.dataApi}/v1/cubesql`, {
        method: 'POST',
        headers: { authorization: sb.tokens.dataApi },
        body: JSON.stringify(body),
      });
    const bad = await post({ query: 'SELECT 1', nope: true });
    assert.equal(bad.status, 400);
    // A request-format error: the engine sends no type.
    assert.deepEqual(await bad.json(), { error: 'Invalid query format: "nope" is not allowed' });
    const text = await (
      await post({ query: 'SELECT status, MEASURE(orders.count) AS n FROM orders GROUP BY 1 ORDER BY 1' })
    ).text();
    const lines = text
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l) as Record<string, unknown>);
    assert.deepEqual(lines[0]!.schema, [
      { name: 'status', column_type: 'String' },
      { name: 'n', column_type: 'Int64' },
    ]);
    const rows = lines.slice(1).flatMap((l) => l.data as string[][]);
    assert.equal(
      rows.reduce((s, r) => s + Number(r[1]), 0),
      2000,
    );
  });

  it('streams an AI turn whose last line is __usage__', async () => {
    const res = await fetch(`${sb.urls.ai[0]!.url}/chat/stream-chat-state`, {
      method: 'POST',
      headers: { authorization: `Api-Key ${sb.tokens.aiApiKey}` },
      body: JSON.stringify({ input: 'Top product categories?', sessionSettings: { externalId: 'u1' } }),
    });
    const lines = (await res.text())
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l) as Record<string, unknown>);
    assert.equal(lines[0]!.id, '__cutoff__');
    assert.equal(lines.at(-1)!.id, '__usage__');
    assert.ok(lines.some((l) => (l.graphPath as string[] | undefined)?.[0] === 'final'));
    const missing = await fetch(`${sb.urls.ai[0]!.url}/chat/stream-chat-state`, {
      method: 'POST',
      headers: { authorization: `Api-Key ${sb.tokens.aiApiKey}` },
      body: JSON.stringify({ input: 'x' }),
    });
    assert.equal(missing.status, 400);
  });

  it('CLI prints one JSON line with the base URLs and tokens', async () => {
    const cli = spawn(
      process.execPath,
      [path.join(__dirname, '..', '..', '..', 'src', 'sandbox', 'cli.js'), '--port', '0', '--rows', '500'],
      {
        stdio: ['ignore', 'pipe', 'pipe'],
      },
    );
    const line = await new Promise<string>((resolve, reject) => {
      let out = '';
      cli.stdout.on('data', (c: Buffer) => {
        out += c.toString();
        if (out.includes('\n')) resolve(out.split('\n')[0]!);
      });
      cli.on('exit', (code) => reject(new Error(`exited ${code}`)));
    });
    const info = JSON.parse(line) as {
      urls: { platform: string; dataApi: string; ai: unknown[] };
      tokens: Record<string, string>;
    };
    assert.match(info.urls.platform, /^http:\/\/127\.0\.0\.1:\d+\/api$/);
    assert.equal(info.urls.ai.length, 2);
    assert.ok(info.tokens.admin && info.tokens.dataApi && info.tokens.aiApiKey);
    const res = await fetch(`${info.urls.platform}/v1/deployments`, {
      headers: { authorization: `Bearer ${info.tokens.admin}` },
    });
    assert.equal(res.status, 200);
    cli.kill('SIGTERM');
    await new Promise((r) => cli.once('exit', r));
  });
});
