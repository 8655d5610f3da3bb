// The tool core without VS Code: the manifest matches the tool definitions, results are redacted
// and capped, the diff is right, and the chat participant's stream against the sandbox's agent.
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { AiClient, redact } from '../../../src/api';
import { PlatformGateway, type ClientSource } from '../../../src/agents/gateway';
import { forwardTurn } from '../../../src/agents/participantStream';
import { findTool, markdownTable, runTool, type ToolContext } from '../../../src/agents/tools';
import type * as ToolsModule from '../../../src/agents/tools';
import { unifiedDiff } from '../../../src/agents/tools/diff';
import { startSandbox, type SandboxHandle } from '../../../src/sandbox';

const root = path.resolve(__dirname, '..', '..', '..', '..');

/**
 * The tools module and its parts loaded afresh for one test, then the cached copies put back: their
 * names, descriptions and input schemas are built when the modules load, so a test of them must
 * load them itself (mutation testing changes them only in a module loaded while the test runs).
 */
function withFreshTools<T>(use: (tools: typeof ToolsModule) => T): T {
  const dir = path.resolve(__dirname, '..', '..', '..', 'src', 'agents', 'tools') + path.sep;
  const cache = require.cache;
  const saved = Object.entries(cache).filter(([id]) => id.startsWith(dir));
  for (const [id] of saved) delete cache[id];
  try {
    // eslint-disable-next-line @typescript-eslint/no-require-imports
    return use(require('../../../src/agents/tools') as typeof ToolsModule);
  } finally {
    for (const id of Object.keys(cache)) if (id.startsWith(dir)) delete cache[id];
    for (const [id, m] of saved) cache[id] = m;
  }
}

describe('agent tools (core)', () => {
  it('package.json contributes exactly the tools, with the same descriptions and input schemas', () =>
    withFreshTools(({ AGENT_TOOLS, inputJsonSchema, effectTags }) => {
      const pkg = JSON.parse(fs.readFileSync(path.join(root, 'package.json'), 'utf8')) as {
        contributes: {
          languageModelTools: {
            name: string;
            modelDescription: string;
            inputSchema: unknown;
            tags: string[];
          }[];
        };
      };
      const contributed = pkg.contributes.languageModelTools;
      assert.deepEqual(
        contributed.map((t) => t.name),
        AGENT_TOOLS.map((t) => t.name),
      );
      for (const tool of AGENT_TOOLS) {
        const c = contributed.find((t) => t.name === tool.name)!;
        assert.equal(c.modelDescription, tool.description, tool.name);
        assert.deepEqual(
          c.inputSchema,
          inputJsonSchema(tool),
          `${tool.name}: regenerate the schema in package.json`,
        );
        assert.match(tool.name, /^[a-z]+_[a-z_]+$/, 'names are {verb}_{noun}');
        // The manifest's tags carry the hints (VS Code's contribution has no annotations).
        assert.deepEqual(c.tags, effectTags(tool.effect), `${tool.name}: tags follow its effect`);
      }
    }));

  it('redacts secrets from results and from the call log, and logs every call', async () => {
    const secret = 'sk-live-0123456789abcdef';
    const jwt = 'eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxMjM0NTY3ODkwIn0.c2lnbmF0dXJl';
    const source = {
      platform: async () => ({
        getDeployment: async () => ({ id: 1, name: 'Main' }),
        getReport: async () => ({
          id: 7,
          name: 'Leaky',
          sqlQuery: `SELECT '${secret}' AS k, '${jwt}' AS t`,
          jsonQuery: null,
        }),
      }),
      data: async () => {
        throw new Error('unused');
      },
    } as unknown as ClientSource;
    const gateway = new PlatformGateway(source, () => ({
      name: 'P',
      production: false,
      sandbox: false,
      defaultDeploymentId: 1,
    }));
    const logged: string[] = [];
    const ctx: ToolContext = { gateway, redact: (t) => redact(t, [secret]) };
    const log = { info: (l: string) => logged.push(l), warn: (l: string) => logged.push(l) };
    const run = await runTool(
      findTool('get_report_sql')!,
      ctx,
      { reportId: 7, note: secret },
      { log, surface: 'test' },
    );
    assert.ok(run.ok, run.text);
    assert.match(run.text, /SELECT '\[REDACTED\]' AS k, '\[REDACTED\]' AS t/);
    assert.ok(!JSON.stringify(run.structured).includes(secret));
    assert.ok(!JSON.stringify(run.structured).includes(jwt));
    assert.equal(logged.length, 2, 'a line when called and one when done');
    assert.match(logged[0]!, /tool get_report_sql called \(profile "P"\)/);
    assert.ok(!logged.join('\n').includes(secret));
  });

  it('redacts a table cell before cutting it, so no part of a token survives the cut', () => {
    const token = 'sk-live-abcdefghijklmnopqrstuvwx';
    // The token straddles the 200-character cut.
    const cell = `${'x'.repeat(185)}${token}`;
    const text = markdownTable({ columns: ['c'], rows: [[cell]] }, (t) => redact(t, [token]));
    assert.ok(!text.includes(token.slice(0, 12)), text);
    assert.match(text, /\[REDACTED\]/);
  });

  it('refuses input that does not match the schema, naming the field', async () => {
    const gateway = new PlatformGateway({} as ClientSource, () => ({
      name: 'P',
      production: false,
      sandbox: false,
    }));
    const log = { info: () => undefined, warn: () => undefined };
    const run = await runTool(
      findTool('run_query')!,
      { gateway, redact: (t) => t },
      { limit: 500, sql: 'x' },
      { log, surface: 't' },
    );
    assert.equal(run.ok, false);
    assert.match(run.text, /Invalid input for run_query: limit/);
  });

  it('makes a unified diff with context, and none for equal texts', () => {
    const a = ['{', '  "a": 1,', '  "b": 2,', '  "c": 3', '}'].join('\n');
    const b = ['{', '  "a": 1,', '  "b": 20,', '  "c": 3', '}'].join('\n');
    assert.equal(unifiedDiff(a, a, 'x'), '');
    assert.equal(
      unifiedDiff(a, b, 'f.dashboard.json'),
      [
        '--- a/f.dashboard.json',
        '+++ b/f.dashboard.json',
        '@@ -1,5 +1,5 @@',
        ' {',
        '   "a": 1,',
        '-  "b": 2,',
        '+  "b": 20,',
        '   "c": 3',
        ' }',
      ].join('\n'),
    );
  });
});

describe('chat participant stream against the sandbox agent', function () {
  this.timeout(30_000);
  let sb: SandboxHandle;
  let ai: AiClient;
  before(async () => {
    sb = await startSandbox({ rows: 2000, aiEventDelayMs: 1 });
    ai = new AiClient({ baseUrl: sb.urls.ai[0]!.url, apiKey: async () => sb.tokens.aiApiKey });
  });
  after(async () => {
    await ai?.close();
    await sb?.close();
  });

  it('streams the answer as Markdown, shows the SQL tool call with a capped table, and continues the chat', async () => {
    const md: string[] = [];
    const progress: string[] = [];
    const sink = { markdown: (t: string) => md.push(t), progress: (t: string) => progress.push(t) };
    const opts = { allowRemoteImages: false, redact: (t: string) => t };
    const first = await forwardTurn(
      ai,
      { input: 'Which product categories sell most?', sessionSettings: { externalId: 'u1' } },
      sink,
      opts,
    );
    assert.ok(first.chatId, 'the chat id comes back for the next turn');
    assert.equal(first.error, undefined);
    const text = md.join('');
    assert.match(text, /\*\*Tool: [^*]+\*\*/);
    assert.match(text, /```sql\nSELECT products\.category AS category, MEASURE\(orders\.total_amount\)/);
    assert.match(text, /\| category \| total_amount \|/);
    assert.match(text, /\*\*\w+\*\* has the highest total amount: \*\*\$[\d,]+\*\*/);
    assert.ok(md.length > 2, 'the answer arrives in several pieces');

    md.length = 0;
    const second = await forwardTurn(
      ai,
      { input: 'And customers by country?', chatId: first.chatId, sessionSettings: { externalId: 'u1' } },
      sink,
      opts,
    );
    assert.equal(second.chatId, first.chatId);
    assert.match(md.join(''), /country/i);
  });

  it("reports the agent's error in the outcome", async () => {
    const sink = { markdown: () => undefined, progress: () => undefined };
    const out = await forwardTurn(
      ai,
      { input: 'please produce an error', sessionSettings: { externalId: 'u1' } },
      sink,
      {
        allowRemoteImages: false,
        redact: (t) => t,
      },
    );
    assert.ok(out.error, 'an error line becomes the outcome error');
  });
});
