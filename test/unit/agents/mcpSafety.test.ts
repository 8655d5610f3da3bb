// The MCP server's guards as a client meets them over stdio (the SDK's client, the server bundled
// from today's sources, the sandbox in this process): links out of the root refused for reads and
// writes, and every path to production refused with writes off, refused with writes on but
// production writes off, and taken with both on (confirmed where the client can ask).
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { ElicitRequestSchema, type CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { PlatformClient } from '../../../src/api';
import { publishedDashboardOf } from '../../../src/api/platform/workbookShapes';
import { AGENT_TOOLS } from '../../../src/agents/tools';
import { mcpDecision } from '../../../src/mcp/mcpServer';
import { startSandbox, type SandboxHandle } from '../../../src/sandbox';
import { freshMcpBundle, serverTransport } from './mcpBundle';
import { VICTIM, linkedTree } from './linkedTree';

const repo = path.resolve(__dirname, '..', '..', '..', '..');
const textOf = (r: CallToolResult) => r.content.map((c) => (c.type === 'text' ? c.text : '')).join('\n');

/** The tools that lead to production (publish, merge or commit to the default branch, deletes). */
const PRODUCTION_TOOLS = AGENT_TOOLS.filter((t) => t.effect === 'production').map((t) => t.name);

describe('MCP server guards (over stdio)', function () {
  this.timeout(90_000);
  let sb: SandboxHandle;
  let base: string;
  let root: string;
  let outside: string;
  let bundle: string;
  let platform: PlatformClient;
  const clients: Client[] = [];

  async function connect(
    env: Record<string, string>,
    answer?: 'accept' | 'decline',
  ): Promise<{ client: Client; asked: string[] }> {
    const transport = serverTransport(bundle, root, sb, {
      DASHBOARD_PLATFORM_DEPLOYMENT_ID: '1',
      DASHBOARD_PLATFORM_PROFILE: 'Guards',
      ...env,
    });
    const client = new Client(
      { name: 'dp-guards', version: '1.0.0' },
      { capabilities: answer ? { elicitation: { form: {} } } : {} },
    );
    const asked: string[] = [];
    if (answer) {
      client.setRequestHandler(ElicitRequestSchema, (req) => {
        asked.push(req.params.message);
        return answer === 'accept' ? { action: 'accept', content: { confirm: true } } : { action: 'decline' };
      });
    }
    await client.connect(transport);
    clients.push(client);
    return { client, asked };
  }
  const call = async (c: Client, name: string, args: Record<string, unknown>) =>
    (await c.callTool({ name, arguments: args })) as CallToolResult;
  const version = async (): Promise<number | undefined> => {
    const v = publishedDashboardOf(await platform.getWorkbook(1, 1001))?.versionNumber;
    return typeof v === 'number' ? v : undefined;
  };

  before(async () => {
    bundle = await freshMcpBundle();
    sb = await startSandbox({ rows: 200 });
    platform = new PlatformClient({ baseUrl: sb.urls.platform, token: async () => sb.tokens.admin });
    base = fs.mkdtempSync(path.join(os.tmpdir(), 'dp-mcp-guards-'));
    ({ root, outside } = linkedTree(base));
    fs.copyFileSync(
      path.join(repo, 'demo', 'revenue.dashboard.json'),
      path.join(root, 'revenue.dashboard.json'),
    );
  });

  after(async () => {
    for (const c of clients) await c.close().catch(() => undefined);
    await platform?.close();
    await sb?.close();
    if (base) fs.rmSync(base, { recursive: true, force: true });
  });

  it('refuses links out of the root, for reads and for writes, returning nothing of the outside file', async () => {
    const { client } = await connect({
      DASHBOARD_PLATFORM_MCP_ALLOW_WRITES: '1',
      DASHBOARD_PLATFORM_MCP_ALLOW_PRODUCTION_WRITES: '1',
    });
    const before = await version();
    for (const file of ['link.dashboard.json', 'linked/victim.dashboard.json']) {
      const write = await call(client, 'propose_dashboard_change', {
        file,
        changes: [{ path: ['title'], value: 'pwned' }],
      });
      const whole = await call(client, 'propose_dashboard_change', { file, content: '{"workbookId":1001}' });
      const read = await call(client, 'publish_dashboard', { file });
      for (const r of [write, whole, read]) {
        assert.equal(r.isError, true, `${file}: ${textOf(r)}`);
        assert.match(textOf(r), /leads outside the folder agents may use through a link/);
        assert.ok(!textOf(r).includes(VICTIM), 'nothing of the outside file comes back');
        assert.ok(!JSON.stringify(r.structuredContent ?? {}).includes(VICTIM));
      }
    }
    for (const f of ['victim.dashboard.json', path.join('dir', 'victim.dashboard.json')]) {
      const text = fs.readFileSync(path.join(outside, f), 'utf8');
      assert.ok(text.includes(VICTIM) && !text.includes('pwned'), `${f} is unchanged`);
    }
    assert.equal(await version(), before, 'nothing was published');
  });

  it('the policy: reads always; writes with allowWrites; production paths with both settings', () => {
    const p = { name: 'P', production: false };
    const prod = { name: 'P', production: true };
    const off = { allowWrites: false, allowProductionWrites: false };
    const w = { allowWrites: true, allowProductionWrites: false };
    const both = { allowWrites: true, allowProductionWrites: true };
    const onlyProd = { allowWrites: false, allowProductionWrites: true };
    const read = { name: 'run_query', effect: 'query' as const };
    const write = { name: 'propose_dashboard_change', effect: 'write' as const };
    const publish = { name: 'publish_dashboard', effect: 'production' as const };
    assert.deepEqual(mcpDecision(read, off, prod, false), { allow: true, confirm: false });
    assert.equal(mcpDecision(write, off, p, true).allow, false);
    assert.deepEqual(mcpDecision(write, w, p, false), { allow: true, confirm: false });
    assert.equal(mcpDecision(write, w, prod, false).allow, false);
    assert.deepEqual(mcpDecision(write, w, prod, true), { allow: true, confirm: true });
    for (const s of [off, w, onlyProd])
      for (const ask of [false, true]) assert.equal(mcpDecision(publish, s, p, ask).allow, false);
    assert.deepEqual(mcpDecision(publish, both, p, false), { allow: true, confirm: false });
    assert.deepEqual(mcpDecision(publish, both, p, true), { allow: true, confirm: true });
    assert.equal(mcpDecision(publish, both, prod, false).allow, false);
    assert.deepEqual(mcpDecision(publish, both, prod, true), { allow: true, confirm: true });
  });

  describe('every path to production', () => {
    it('exists and is annotated destructive', async () => {
      assert.ok(PRODUCTION_TOOLS.length > 0);
      const { client } = await connect({});
      const { tools } = await client.listTools();
      for (const name of PRODUCTION_TOOLS) {
        const t = tools.find((x) => x.name === name)!;
        assert.equal(t.annotations?.readOnlyHint, false, name);
        assert.equal(t.annotations?.destructiveHint, true, name);
      }
    });

    const ARGS: Record<string, Record<string, unknown>> = {
      publish_dashboard: { file: 'revenue.dashboard.json' },
    };

    it('is refused with writes off, saying which settings allow it', async () => {
      const { client } = await connect({});
      const before = await version();
      for (const name of PRODUCTION_TOOLS) {
        const r = await call(client, name, ARGS[name]!);
        assert.equal(r.isError, true, name);
        assert.match(textOf(r), /the server is read-only/);
        assert.match(textOf(r), /allowProductionWrites/);
        assert.match(textOf(r), /DASHBOARD_PLATFORM_MCP_ALLOW_PRODUCTION_WRITES=1/);
      }
      assert.equal(await version(), before);
    });

    it('is refused with writes on but production writes off', async () => {
      const { client } = await connect({ DASHBOARD_PLATFORM_MCP_ALLOW_WRITES: '1' });
      const before = await version();
      for (const name of PRODUCTION_TOOLS) {
        const r = await call(client, name, ARGS[name]!);
        assert.equal(r.isError, true, name);
        assert.match(textOf(r), /production writes are off/);
      }
      // Production writes alone do not open it either.
      const only = await connect({ DASHBOARD_PLATFORM_MCP_ALLOW_PRODUCTION_WRITES: '1' });
      for (const name of PRODUCTION_TOOLS)
        assert.equal((await call(only.client, name, ARGS[name]!)).isError, true);
      assert.equal(await version(), before);
    });

    it('is taken with both on: at once for a client that cannot ask, after a yes for one that can', async () => {
      const both = {
        DASHBOARD_PLATFORM_MCP_ALLOW_WRITES: '1',
        DASHBOARD_PLATFORM_MCP_ALLOW_PRODUCTION_WRITES: '1',
      };
      const plain = await connect(both);
      const v0 = (await version()) ?? 0;
      const r = await call(plain.client, 'publish_dashboard', ARGS.publish_dashboard!);
      assert.ok(!r.isError, textOf(r));
      assert.match(textOf(r), /Published "revenue.dashboard.json" to workbook 1001/);
      assert.equal(await version(), v0 + 1);

      const declining = await connect(both, 'decline');
      const no = await call(declining.client, 'publish_dashboard', ARGS.publish_dashboard!);
      assert.equal(no.isError, true);
      assert.match(textOf(no), /did not confirm/);
      assert.equal(declining.asked.length, 1);
      assert.equal(await version(), v0 + 1);

      const accepting = await connect(both, 'accept');
      const yes = await call(accepting.client, 'publish_dashboard', ARGS.publish_dashboard!);
      assert.ok(!yes.isError, textOf(yes));
      assert.match(accepting.asked[0] ?? '', /changes what the platform's users see/);
      assert.equal(await version(), v0 + 2);
    });

    it('on a production profile: refused for a client that cannot ask, even with both on', async () => {
      const env = {
        DASHBOARD_PLATFORM_MCP_ALLOW_WRITES: '1',
        DASHBOARD_PLATFORM_MCP_ALLOW_PRODUCTION_WRITES: '1',
        DASHBOARD_PLATFORM_PRODUCTION: '1',
      };
      const before = await version();
      const { client } = await connect(env);
      const r = await call(client, 'publish_dashboard', ARGS.publish_dashboard!);
      assert.equal(r.isError, true);
      assert.match(textOf(r), /marked production/);
      assert.equal(await version(), before);
      const asking = await connect(env, 'accept');
      const ok = await call(asking.client, 'publish_dashboard', ARGS.publish_dashboard!);
      assert.ok(!ok.isError, textOf(ok));
      assert.match(asking.asked[0] ?? '', /^Production profile "Guards"/);
    });
  });
});
