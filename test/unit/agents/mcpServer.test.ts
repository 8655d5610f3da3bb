// The MCP server as a client sees it: the SDK's client spawns the server, freshly bundled from
// today's sources (mcpBundle.ts), over stdio against the sandbox (started in this process), lists
// the tools and calls every one, including a write that read-only mode refuses and the production
// confirmation through elicitation.
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { ElicitRequestSchema, type CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { PlatformClient } from '../../../src/api';
import { publishedDashboardOf } from '../../../src/api/platform/workbookShapes';
import { startSandbox, type SandboxHandle } from '../../../src/sandbox';
import { freshMcpBundle, serverEnv, serverTransport } from './mcpBundle';

const root = path.resolve(__dirname, '..', '..', '..', '..');
let bundle: string;
const EXPECTED_TOOLS = [
  'get_dashboard_config',
  'get_report_sql',
  'list_deployments',
  'list_notifications',
  'propose_dashboard_change',
  'publish_dashboard',
  'run_query',
  'search_data_model',
  'search_reports',
  'search_workbooks',
];

function textOf(r: CallToolResult): string {
  return r.content.map((c) => (c.type === 'text' ? c.text : '')).join('\n');
}

describe('MCP server (over stdio, bundled from the sources)', function () {
  this.timeout(60_000);
  let sb: SandboxHandle;
  let dir: string;
  let file: string;
  const clients: Client[] = [];
  const stderr: string[] = [];

  async function connect(extraEnv: Record<string, string>, opts: { elicit?: boolean } = {}): Promise<Client> {
    const transport = serverTransport(
      bundle,
      dir,
      sb,
      {
        DASHBOARD_PLATFORM_PROFILE: 'Test profile',
        DASHBOARD_PLATFORM_DEPLOYMENT_ID: '1',
        ...extraEnv,
      },
      'pipe',
    );
    transport.stderr?.on('data', (b: Buffer) => stderr.push(b.toString('utf8')));
    const client = new Client(
      { name: 'dp-test', version: '1.0.0' },
      { capabilities: opts.elicit ? { elicitation: { form: {} } } : {} },
    );
    await client.connect(transport);
    clients.push(client);
    return client;
  }

  const call = (c: Client, name: string, args: Record<string, unknown>) =>
    c.callTool({ name, arguments: args }) as Promise<CallToolResult>;

  before(async () => {
    bundle = await freshMcpBundle();
    sb = await startSandbox({ rows: 2000, continueWaitMs: 100, aiEventDelayMs: 1 });
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'dp-mcp-'));
    file = path.join(dir, 'revenue.dashboard.json');
    fs.copyFileSync(path.join(root, 'demo', 'revenue.dashboard.json'), file);
  });

  after(async () => {
    for (const c of clients) await c.close().catch(() => undefined);
    await sb?.close();
    if (dir) fs.rmSync(dir, { recursive: true, force: true });
  });

  describe('read-only (the default)', () => {
    let client: Client;
    before(async () => {
      client = await connect({});
    });

    it('lists every tool with a JSON Schema and honest annotations', async () => {
      const { tools } = await client.listTools();
      assert.deepEqual(tools.map((t) => t.name).sort(), EXPECTED_TOOLS);
      for (const t of tools) {
        assert.equal(t.inputSchema.type, 'object', t.name);
        assert.ok(t.description && t.description.length > 60, `${t.name} has a precise description`);
      }
      const hints = Object.fromEntries(
        tools.map((t) => [t.name, [t.annotations?.readOnlyHint, t.annotations?.destructiveHint]]),
      );
      // [readOnlyHint, destructiveHint]: reads and queries change nothing; a local file write
      // replaces the file's text; publishing changes what the platform's users see.
      assert.deepEqual(hints, {
        get_dashboard_config: [true, false],
        get_report_sql: [true, false],
        list_deployments: [true, false],
        list_notifications: [true, false],
        propose_dashboard_change: [false, true],
        publish_dashboard: [false, true],
        run_query: [true, false],
        search_data_model: [true, false],
        search_reports: [true, false],
        search_workbooks: [true, false],
      });
    });

    it('list_deployments pages with hasMore and a cursor', async () => {
      const first = await call(client, 'list_deployments', { first: 1 });
      assert.ok(!first.isError, textOf(first));
      const s = first.structuredContent as {
        returned: number;
        hasMore: boolean;
        nextCursor?: string;
        table: { rows: unknown[][] };
      };
      assert.equal(s.returned, 1);
      assert.equal(s.hasMore, true);
      assert.ok(s.nextCursor);
      const second = await call(client, 'list_deployments', { first: 1, after: s.nextCursor });
      const s2 = second.structuredContent as { table: { rows: unknown[][] } };
      assert.notDeepEqual(s2.table.rows[0], s.table.rows[0]);
      assert.match(textOf(first), /\| id \| name \|/);
    });

    it('search_data_model finds members with their descriptions', async () => {
      const r = await call(client, 'search_data_model', { search: 'count', kinds: ['measure'] });
      assert.ok(!r.isError, textOf(r));
      const s = r.structuredContent as { total: number; table: { rows: unknown[][] } };
      assert.ok(s.total >= 1);
      assert.ok(s.table.rows.some((row) => row[0] === 'orders.count' && row[1] === 'measure'));
    });

    it('run_query runs SQL one page of at most 100 rows, with the total', async () => {
      const r = await call(client, 'run_query', { sql: 'SELECT id, status FROM orders LIMIT 250' });
      assert.ok(!r.isError, textOf(r));
      const s = r.structuredContent as {
        returned: number;
        hasMore: boolean;
        total: number;
        nextOffset: number;
        table: { columns: string[]; rows: unknown[][] };
      };
      assert.deepEqual([s.returned, s.hasMore, s.total, s.nextOffset], [100, true, 250, 100]);
      assert.deepEqual(s.table.columns, ['id', 'status']);
      const last = await call(client, 'run_query', {
        sql: 'SELECT id, status FROM orders LIMIT 250',
        offset: 200,
      });
      const l = last.structuredContent as { returned: number; hasMore: boolean };
      assert.deepEqual([l.returned, l.hasMore], [50, false]);
    });

    it('run_query runs a JSON load query and pages it with hasMore', async () => {
      const r = await call(client, 'run_query', {
        query: { measures: ['orders.count'], dimensions: ['orders.status'] },
        limit: 2,
      });
      assert.ok(!r.isError, textOf(r));
      const s = r.structuredContent as {
        returned: number;
        hasMore: boolean;
        table: { columns: string[] };
      };
      assert.equal(s.returned, 2);
      assert.equal(s.hasMore, true);
      assert.ok(s.table.columns.includes('orders.count'));
    });

    it('run_query reports a bad query as an error result', async () => {
      const r = await call(client, 'run_query', { sql: 'SELECT nope FROM nowhere' });
      assert.equal(r.isError, true);
      assert.match(textOf(r), /query/i);
    });

    it('search_reports, get_report_sql, search_workbooks, get_dashboard_config, list_notifications', async () => {
      const reports = await call(client, 'search_reports', { search: 'Revenue', first: 5 });
      const rs = reports.structuredContent as { table: { rows: unknown[][] } };
      assert.ok(rs.table.rows.length > 0 && rs.table.rows.every((row) => /Revenue/.test(String(row[1]))));
      const id = rs.table.rows[0]![0] as number;
      const sql = await call(client, 'get_report_sql', { reportId: id });
      assert.match(textOf(sql), /```sql\nSELECT status, MEASURE\(count\) FROM orders/);

      const wb = await call(client, 'search_workbooks', { search: 'dashboard', first: 10 });
      const ws = wb.structuredContent as {
        returned: number;
        hasMore: boolean;
        nextCursor: string;
        table: { rows: unknown[][] };
      };
      assert.deepEqual([ws.returned, ws.hasMore], [10, true]);
      const wb2 = await call(client, 'search_workbooks', {
        search: 'dashboard',
        first: 10,
        after: ws.nextCursor,
      });
      const ws2 = wb2.structuredContent as { table: { rows: unknown[][] } };
      const ids = new Set([...ws.table.rows, ...ws2.table.rows].map((row) => row[0]));
      assert.equal(ids.size, 20, 'the second page continues without repeating');

      const dash = await call(client, 'get_dashboard_config', { workbookId: 1001 });
      assert.ok(!dash.isError, textOf(dash));
      assert.match(textOf(dash), /"workbookId": 1001/);
      assert.ok((dash.structuredContent as { table: { rows: unknown[] } }).table.rows.length > 0);

      const notes = await call(client, 'list_notifications', { first: 100 });
      const ns = notes.structuredContent as { returned: number; hasMore: boolean };
      assert.deepEqual([ns.returned, ns.hasMore], [100, true]);
    });

    it('refuses propose_dashboard_change, says why and how to allow it, and leaves the file alone', async () => {
      const before = fs.readFileSync(file, 'utf8');
      const r = await call(client, 'propose_dashboard_change', {
        file: 'revenue.dashboard.json',
        changes: [{ path: ['title'], value: 'Changed by an agent' }],
      });
      assert.equal(r.isError, true);
      assert.match(textOf(r), /read-only/);
      assert.match(textOf(r), /DASHBOARD_PLATFORM_MCP_ALLOW_WRITES=1/);
      assert.equal(fs.readFileSync(file, 'utf8'), before);
    });

    it('never returns or logs the tokens', () => {
      const logged = stderr.join('');
      assert.match(logged, /tool run_query called/, 'tool calls are logged');
      for (const secret of [sb.tokens.admin, sb.tokens.dataApi]) assert.ok(!logged.includes(secret));
    });
  });

  describe('writes allowed', () => {
    it('applies a proposal to the local file (formatting kept) and publishes nothing', async () => {
      const client = await connect({ DASHBOARD_PLATFORM_MCP_ALLOW_WRITES: '1' });
      const before = fs.readFileSync(file, 'utf8');
      const r = await call(client, 'propose_dashboard_change', {
        file: 'revenue.dashboard.json',
        changes: [{ path: ['title'], value: 'Revenue (agent)' }],
        reason: 'clearer title',
      });
      assert.ok(!r.isError, textOf(r));
      assert.match(textOf(r), /- {2}"title": "Revenue Dashboard",\n\+ {2}"title": "Revenue \(agent\)",/);
      const after = fs.readFileSync(file, 'utf8');
      assert.equal(after, before.replace('"title": "Revenue Dashboard",', '"title": "Revenue (agent)",'));
      const platform = new PlatformClient({ baseUrl: sb.urls.platform, token: async () => sb.tokens.admin });
      const w = await platform.getWorkbook(1, 1001);
      await platform.close();
      assert.equal(publishedDashboardOf(w)?.versionNumber, 1, 'nothing published');
    });

    it('refuses an invalid dashboard and a path outside the folder', async () => {
      const client = await connect({ DASHBOARD_PLATFORM_MCP_ALLOW_WRITES: '1' });
      const bad = await call(client, 'propose_dashboard_change', {
        file: 'revenue.dashboard.json',
        changes: [{ path: ['workbookId'], value: 'not a number' }],
      });
      assert.equal(bad.isError, true);
      assert.match(textOf(bad), /would not be a valid dashboard/);
      const outside = await call(client, 'propose_dashboard_change', {
        file: '../elsewhere.dashboard.json',
        content: '{}',
      });
      assert.equal(outside.isError, true);
      assert.match(textOf(outside), /outside the folder/);
    });

    it('on a production profile: refused without elicitation, applied after the user confirms', async () => {
      const env = { DASHBOARD_PLATFORM_MCP_ALLOW_WRITES: '1', DASHBOARD_PLATFORM_PRODUCTION: '1' };
      const plain = await connect(env);
      const args = {
        file: 'revenue.dashboard.json',
        changes: [{ path: ['description'], value: 'Prod change' }],
      };
      const refused = await call(plain, 'propose_dashboard_change', args);
      assert.equal(refused.isError, true);
      assert.match(textOf(refused), /marked production/);
      assert.ok(!fs.readFileSync(file, 'utf8').includes('Prod change'));

      const asking = await connect(env, { elicit: true });
      const messages: string[] = [];
      asking.setRequestHandler(ElicitRequestSchema, (req) => {
        messages.push(req.params.message);
        return { action: 'accept', content: { confirm: true } };
      });
      const ok = await call(asking, 'propose_dashboard_change', args);
      assert.ok(!ok.isError, textOf(ok));
      assert.match(messages[0] ?? '', /Production profile "Test profile"/);
      assert.ok(fs.readFileSync(file, 'utf8').includes('"description": "Prod change"'));
    });
  });

  it('runs against its own in-process sandbox with --sandbox', async () => {
    const transport = new StdioClientTransport({
      command: process.execPath,
      args: [bundle, '--sandbox'],
      env: serverEnv(),
      stderr: 'ignore',
    });
    const client = new Client({ name: 'dp-test', version: '1.0.0' });
    await client.connect(transport);
    clients.push(client);
    const r = await call(client, 'list_deployments', {});
    assert.match(textOf(r), /Deployments of profile "Sandbox"/);
  });

  it('explains what is missing when started without configuration', async () => {
    const transport = new StdioClientTransport({
      command: process.execPath,
      args: [bundle],
      env: serverEnv(),
      stderr: 'pipe',
    });
    let err = '';
    transport.stderr?.on('data', (b: Buffer) => (err += b.toString('utf8')));
    const client = new Client({ name: 'dp-test', version: '1.0.0' });
    await assert.rejects(client.connect(transport));
    await new Promise((r) => setTimeout(r, 200));
    assert.match(err, /DASHBOARD_PLATFORM_URL is not set/);
  });
});
