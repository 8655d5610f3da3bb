// The hostile-input suite: every agent tool, with every string the service sends replaced by text
// that tries to leave its container (hostileText.ts), in its result and in its error, must keep the
// planted instruction inside data. Then the same through the MCP server over stdio, against the
// sandbox seeded with a hostile report, workbook and dashboard. Prints the cells tried and flagged.
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { PlatformClient } from '../../../src/api';
import { PlatformGateway, type ClientSource } from '../../../src/agents/gateway';
import { AGENT_TOOLS, runTool, type ToolContext } from '../../../src/agents/tools';
import { forwardTurn } from '../../../src/agents/participantStream';
import { rootedFiles } from '../../../src/mcp/mcpServer';
import { startSandbox, type SandboxHandle } from '../../../src/sandbox';
import { HOSTILE, MARKER, escapes } from './hostileText';
import { freshMcpBundle, serverTransport } from './mcpBundle';

const page = <T>(items: T[]) => ({ items, pageInfo: { hasNextPage: false } });

/** A service whose every string is `h` (or, with `fail`, whose every call fails quoting `h`). */
function hostileSource(h: string, fail: boolean): ClientSource {
  const no = () => {
    throw new Error(`Loading failed (400): the server said: ${h}`);
  };
  const widget = {
    id: 'w1',
    type: 'text',
    position: { x: 0, y: 0, w: 4, h: 2 },
    config: { title: h, text: h },
  };
  const platform = {
    listDeployments: async () => (fail ? no() : page([{ id: 1, name: h }])),
    getDeployment: async (id: number) => (fail ? no() : { id, name: h }),
    listReports: async () => (fail ? no() : page([{ id: 7, name: h, title: h, folderId: 3 }])),
    getReport: async () =>
      fail
        ? no()
        : { id: 7, name: h, title: h, type: h, folderId: 3, sqlQuery: `SELECT 1 -- ${h}`, jsonQuery: h },
    listWorkbooks: async () =>
      fail ? no() : page([{ id: 1001, name: h, slug: h, dashboardPublished: { title: h } }]),
    getWorkbook: async () =>
      fail ? no() : { id: 1001, name: h, dashboardDraft: { title: h, description: h, widgets: [widget] } },
    listNotifications: async () =>
      fail
        ? no()
        : page([
            {
              id: 5,
              dashboardId: 9,
              humanReadableSchedule: h,
              timezone: h,
              notificationFormat: h,
              isEnabled: true,
            },
          ]),
    publishDashboard: async () => (fail ? no() : { versionNumber: 2, status: h, publicId: h }),
  };
  const member = { name: h, title: h, description: h, type: h };
  const data = {
    meta: async () =>
      fail
        ? no()
        : {
            cubes: [
              {
                name: h,
                title: h,
                description: h,
                type: 'cube',
                measures: [member],
                dimensions: [member],
                segments: [member],
              },
            ],
          },
    cubesql: async function* () {
      if (fail) no();
      yield { type: 'schema', schema: [{ name: h }, { name: 'n' }] };
      yield { type: 'rows', rows: [[h, h]] };
    },
    load: async () =>
      fail
        ? no()
        : {
            results: [
              {
                data: [{ [h]: h }],
                annotation: { dimensions: { [h]: { title: h } }, measures: {}, timeDimensions: {} },
              },
            ],
          },
  };
  return { platform: async () => platform as never, data: async () => data as never };
}

/** The calls made of each tool (two for run_query: SQL and a JSON query). */
const CALLS: Record<string, (h: string) => Record<string, unknown>[]> = {
  list_deployments: () => [{}],
  search_data_model: (h) => [{ deploymentId: 1, search: h.slice(0, 3) }],
  run_query: () => [
    { deploymentId: 1, sql: 'SELECT 1' },
    { deploymentId: 1, query: { measures: ['orders.count'] } },
  ],
  search_reports: (h) => [{ deploymentId: 1, search: h }],
  search_workbooks: () => [{ deploymentId: 1 }],
  get_report_sql: () => [{ deploymentId: 1, reportId: 7 }],
  get_dashboard_config: () => [{ deploymentId: 1, workbookId: 1001 }],
  list_notifications: () => [{ deploymentId: 1 }],
  propose_dashboard_change: (h) => [
    { file: 'hostile.dashboard.json', changes: [{ path: ['title'], value: `${h}!` }], reason: h },
    { file: `${h}.dashboard.json`, content: '{}' },
  ],
  publish_dashboard: (h) => [
    { deploymentId: 1, file: 'hostile.dashboard.json' },
    { file: `${h}.dashboard.json` },
  ],
};

describe('hostile service text reaches agents only as data', function () {
  this.timeout(120_000);
  let dir: string;

  before(() => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'dp-hostile-'));
  });
  after(() => fs.rmSync(dir, { recursive: true, force: true }));

  it('the checker flags what the old formatting let out, and passes data', () => {
    const sql = HOSTILE[0]!;
    // The old get_report_sql: a three-backtick fence around raw SQL, the raw name in the summary.
    assert.notDeepEqual(escapes(`SQL:\n\`\`\`sql\n${sql}\n\`\`\``), []);
    assert.notDeepEqual(escapes(`Report "x\n${MARKER}" (7).`), []);
    assert.notDeepEqual(escapes(`| a | b |\n| --- | --- |\n| x | y | ${MARKER} |`), []);
    assert.notDeepEqual(escapes(`\`\`\`\`sql\n${MARKER}`), [], 'an unclosed fence');
    assert.deepEqual(
      escapes(`Report ${JSON.stringify(MARKER)} (7).\n\`\`\`\`sql\n\`\`\`\n${MARKER}\n\`\`\`\``),
      [],
    );
    assert.deepEqual(escapes(`| a |\n| --- |\n| ${MARKER} \\| x |`), []);
  });

  it('every tool, every hostile string, in results and in errors: nothing outside data', async () => {
    const file = path.join(dir, 'hostile.dashboard.json');
    let tried = 0;
    const flagged: string[] = [];
    const toolsSeen = new Set<string>();
    const carried = new Set<string>();
    for (const h of HOSTILE) {
      for (const fail of [false, true]) {
        const gateway = new PlatformGateway(hostileSource(h, fail), () => ({
          name: h,
          production: false,
          sandbox: false,
          defaultDeploymentId: 1,
        }));
        for (const tool of AGENT_TOOLS) {
          for (const args of CALLS[tool.name]!(h)) {
            // A dashboard file whose title and widget carry the hostile text (JSON-escaped, as on disk).
            fs.writeFileSync(
              file,
              `${JSON.stringify({ workbookId: 1001, title: h, config: { title: h, widgets: [] } }, null, 2)}\n`,
            );
            const ctx: ToolContext = { gateway, redact: (s) => s, files: rootedFiles(dir, true) };
            const run = await runTool(tool, ctx, args, { log: { info() {}, warn() {} }, surface: 'test' });
            tried++;
            toolsSeen.add(tool.name);
            if (run.text.toUpperCase().includes(MARKER)) carried.add(tool.name);
            for (const p of escapes(run.text))
              flagged.push(
                `${tool.name} ${fail ? 'error' : 'result'} ${JSON.stringify(h.slice(0, 20))}: ${p}`,
              );
          }
        }
      }
    }
    console.log(`      hostile-input cells (tool functions): ${tried} tried, ${flagged.length} flagged`);
    assert.deepEqual([...toolsSeen].sort(), AGENT_TOOLS.map((t) => t.name).sort(), 'every tool was tried');
    // The hostile text did reach every tool's output (so the check above had something to find).
    assert.deepEqual([...carried].sort(), [...toolsSeen].sort());
    assert.deepEqual(flagged, []);
  });

  it("the @dashboard participant shows an agent's SQL tool call in a fence the SQL cannot close", async () => {
    for (const h of HOSTILE) {
      const out: string[] = [];
      const client = {
        async *streamChat() {
          yield {
            type: 'toolCall',
            message: { id: 'm1' },
            toolCall: { name: 'sql', input: { sql: h }, result: { schema: [{ name: h }], data: [[h]] } },
          };
          yield { type: 'final', message: { id: 'f', content: 'done' } };
        },
      };
      await forwardTurn(
        client as never,
        { input: 'q', sessionSettings: {} as never },
        { markdown: (t) => out.push(t), progress: () => undefined },
        { allowRemoteImages: false, redact: (s) => s },
      );
      assert.deepEqual(escapes(out.join('')), [], JSON.stringify(h));
    }
  });

  describe('through the MCP server over stdio, against a sandbox seeded with hostile text', () => {
    let sb: SandboxHandle;
    let client: Client;
    const seeded: { h: string; reportId: number; workbookId: number }[] = [];

    before(async () => {
      const bundle = await freshMcpBundle();
      sb = await startSandbox({ rows: 200 });
      const platform = new PlatformClient({ baseUrl: sb.urls.platform, token: async () => sb.tokens.admin });
      try {
        for (const h of HOSTILE) {
          // Names are trimmed by the service; a leading letter keeps the hostile part intact.
          const report = await platform.createReport(1, { name: `r ${h}`, sqlQuery: `SELECT 1 -- ${h}` });
          const wb = await platform.createWorkbook(1, { name: `w ${h}` });
          await platform.publishDashboard(1, wb.id, {
            workbookId: wb.id,
            title: h,
            config: {
              title: h,
              widgets: [
                { id: 'w1', type: 'TEXT', position: { x: 0, y: 0, w: 4, h: 2 }, config: { title: h } },
              ],
            } as never,
          });
          seeded.push({ h, reportId: report.id, workbookId: wb.id });
        }
      } finally {
        await platform.close();
      }
      const transport = serverTransport(bundle, dir, sb, { DASHBOARD_PLATFORM_DEPLOYMENT_ID: '1' });
      client = new Client({ name: 'dp-hostile', version: '1.0.0' });
      await client.connect(transport);
    });

    after(async () => {
      await client?.close().catch(() => undefined);
      await sb?.close();
    });

    it('search_reports, get_report_sql, search_workbooks and get_dashboard_config keep it inside data', async () => {
      let tried = 0;
      const flagged: string[] = [];
      const check = async (name: string, args: Record<string, unknown>, expect: RegExp) => {
        const r = (await client.callTool({ name, arguments: args })) as CallToolResult;
        const text = r.content.map((c) => (c.type === 'text' ? c.text : '')).join('\n');
        tried++;
        assert.ok(!r.isError, text);
        assert.match(text, expect, `${name} returned the seeded item`);
        assert.ok(text.toUpperCase().includes(MARKER), `${name}: the hostile text is in the result`);
        for (const p of escapes(text)) flagged.push(`${name}: ${p}`);
      };
      for (const s of seeded) {
        await check('get_report_sql', { reportId: s.reportId }, new RegExp(`Report "r `));
        await check(
          'get_dashboard_config',
          { workbookId: s.workbookId },
          /Dashboard \(draft\) of workbook "w /,
        );
      }
      await check('search_reports', { search: 'r ', first: 100 }, /\| id \| name \|/);
      await check('search_workbooks', { search: 'w ', first: 100 }, /\| id \| name \|/);
      console.log(`      hostile-input cells (MCP over stdio): ${tried} tried, ${flagged.length} flagged`);
      assert.deepEqual(flagged, []);
    });
  });
});
