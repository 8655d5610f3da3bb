// The agents feature inside VS Code against the sandbox: every language model tool through
// vscode.lm.invokeTool, what prepareInvocation shows, the proposal as a refactor preview, publishing
// (a path to production) always confirmed, links out of the workspace refused, the MCP server
// definition (tokens only at resolve, its safety settings the user's only) started and called,
// and the @dashboard participant.
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import * as vscode from 'vscode';
import { publishedDashboardOf } from '../../src/api/platform/workbookShapes';
import { click, getApi, waitFor, revertAndCloseAll } from './harness';
import type { ExtensionApi } from '../../src/extension';

const TOOL_NAMES = [
  'list_deployments',
  'search_data_model',
  'run_query',
  'search_reports',
  'search_workbooks',
  'get_report_sql',
  'get_dashboard_config',
  'list_notifications',
  'propose_dashboard_change',
  'publish_dashboard',
];
/** The tools that change something: their manifest tags say so. */
const DESTRUCTIVE = ['propose_dashboard_change', 'publish_dashboard'];

function textOf(result: vscode.LanguageModelToolResult): string {
  return result.content.map((p) => (p instanceof vscode.LanguageModelTextPart ? p.value : '')).join('\n');
}

const invoke = async (name: string, input: object) =>
  textOf(await vscode.lm.invokeTool(name, { input, toolInvocationToken: undefined }));

const none = new vscode.CancellationTokenSource().token;

describe('agents: language model tools, MCP server, @dashboard', function () {
  this.timeout(90_000);
  let api: ExtensionApi;
  const config = () => vscode.workspace.getConfiguration();

  before(async () => {
    api = await getApi();
    await api.services.profiles.switchTo('Sandbox');
    await api.sandbox();
  });

  after(async () => {
    await config().update('dashboardPlatform.mcp.enabled', undefined, vscode.ConfigurationTarget.Workspace);
  });

  // They register whatever chat.disableAIFeatures says (the harness sets it to true).
  it('registers the ten tools with their schemas, tagged read-only or destructive', () => {
    for (const name of TOOL_NAMES) {
      const t = vscode.lm.tools.find((x) => x.name === name)!;
      assert.ok(t, name);
      assert.ok(t.tags.includes('dashboard-platform'));
      assert.equal(t.tags.includes('read-only'), !DESTRUCTIVE.includes(name), name);
      assert.equal(t.tags.includes('destructive'), DESTRUCTIVE.includes(name), name);
      assert.equal((t.inputSchema as { type?: string }).type, 'object');
    }
  });

  it('list_deployments, search_data_model, search_reports and get_report_sql', async () => {
    const deps = await invoke('list_deployments', { first: 2 });
    assert.match(deps, /Deployments of profile "Sandbox"/);
    assert.match(deps, /returned: 2, hasMore: true, nextCursor: /);
    assert.match(deps, /\| id \| name \|\n\| --- \| --- \|\n\| 1 \|/);

    const model = await invoke('search_data_model', { deploymentId: 1, search: 'amount' });
    assert.match(model, /\| orders\.total_amount \| measure \|/);

    const reports = await invoke('search_reports', { deploymentId: 1, search: 'Churn', first: 3 });
    assert.match(reports, /returned: 3, hasMore: true/);
    const id = /\| (\d+) \| Churn/.exec(reports)?.[1];
    assert.ok(id, reports);
    const sql = await invoke('get_report_sql', { deploymentId: 1, reportId: Number(id) });
    assert.match(sql, /```sql\nSELECT status, MEASURE\(count\) FROM orders GROUP BY 1 -- Churn/);
  });

  it('search_workbooks, get_dashboard_config and list_notifications', async () => {
    const wbs = await invoke('search_workbooks', { deploymentId: 1, search: 'revenue' });
    assert.match(wbs, /\| 1001 \| Revenue Dashboard \| revenue-dashboard \| yes \|/);
    const dash = await invoke('get_dashboard_config', {
      deploymentId: 1,
      workbookId: 1001,
      source: 'published',
    });
    assert.match(dash, /Dashboard \(published\) of workbook "Revenue Dashboard" \(1001\)/);
    assert.match(dash, /"workbookId": 1001/);
    const notes = await invoke('list_notifications', { deploymentId: 1, dashboardId: 1001, first: 5 });
    assert.match(notes, /Notifications in deployment .* for dashboard 1001/);
    assert.match(notes, /\| id \| dashboardId \| schedule \| timezone \| format \| enabled \|/);
  });

  it('run_query asks first, naming the SQL, deployment and profile, then returns one capped page', async () => {
    const tool = api.agents.tools.get('run_query')!;
    const sqlText = 'SELECT status, MEASURE(count) AS n FROM orders GROUP BY 1';
    const prepared = await tool.prepareInvocation!({ input: { deploymentId: 1, sql: sqlText } }, none);
    const message = prepared?.confirmationMessages?.message;
    // Names are escaped as Markdown text; the test reads the text.
    const body = (typeof message === 'string' ? message : (message?.value ?? '')).replace(/\\(.)/g, '$1');
    assert.ok(prepared?.confirmationMessages?.title);
    assert.match(body, /deployment "[^"]+" \(1\), profile "Sandbox"/);
    assert.ok(body.includes(sqlText));
    // Reads show what runs but do not ask.
    const read = await api.agents.tools.get('list_deployments')!.prepareInvocation!({ input: {} }, none);
    assert.equal(read?.confirmationMessages, undefined);

    // VS Code asks in a modal dialog: Cancel refuses the call, Yes runs it.
    const input = { deploymentId: 1, sql: 'SELECT id FROM orders LIMIT 150' };
    const refused = invoke('run_query', input);
    await click({ selector: '.monaco-dialog-box .monaco-button:has-text("Cancel")' });
    await assert.rejects(refused);
    const pending = invoke('run_query', input);
    await click({ selector: '.monaco-dialog-box .monaco-button:has-text("Yes")' });
    const result = await pending;
    assert.match(result, /returned: 100, hasMore: true, total: 150, nextOffset: 100/);
  });

  it('propose_dashboard_change shows the edit as a diff: Apply makes it one edit in the editor, Discard leaves the file', async () => {
    const dash = await invoke('get_dashboard_config', { deploymentId: 1, workbookId: 1002 });
    const json = /```json\n([\s\S]*?)\n```/.exec(dash)?.[1];
    assert.ok(json, dash);
    const folder = vscode.workspace.workspaceFolders![0]!.uri;
    const uri = vscode.Uri.joinPath(folder, 'agent-test.dashboard.json');
    await vscode.workspace.fs.writeFile(uri, Buffer.from(`${json}\n`));
    const input = {
      file: 'agent-test.dashboard.json',
      changes: [{ path: ['title'], value: 'Proposed by an agent' }],
      reason: 'a clearer title',
    };
    /** Runs the tool; checks the diff editor shows the proposal; presses a button, as the user would. */
    const proposeAnd = async (button: 'Apply' | 'Discard') => {
      const call = invoke('propose_dashboard_change', input);
      const diff = await waitFor('the diff of the proposal', () =>
        vscode.window.tabGroups.all
          .flatMap((g) => g.tabs)
          .find(
            (t) =>
              t.input instanceof vscode.TabInputTextDiff && t.input.original.toString() === uri.toString(),
          ),
      );
      const proposed = await vscode.workspace.openTextDocument(
        (diff.input as vscode.TabInputTextDiff).modified,
      );
      assert.ok(proposed.getText().includes('"title": "Proposed by an agent"'));
      // The dialog can take a while on a loaded machine: try the click up to three times.
      for (let attempt = 1; ; attempt++) {
        try {
          await click({ selector: `.monaco-dialog-box .monaco-button:has-text("${button}")` });
          break;
        } catch (e) {
          if (attempt === 3) throw e;
        }
      }
      return call;
    };
    const discarded = await proposeAnd('Discard');
    assert.match(
      discarded,
      /Not applied: the user discarded the change; "agent-test\.dashboard\.json" is unchanged/,
    );
    const doc = await vscode.workspace.openTextDocument(uri);
    assert.ok(!doc.getText().includes('Proposed by an agent'));

    const applied = await proposeAnd('Apply');
    assert.match(applied, /Applied: the user applied the change/);
    assert.match(applied, /Nothing was published/);
    assert.match(applied, /\+ {2}"title": "Proposed by an agent",/);
    assert.ok(doc.getText().includes('"title": "Proposed by an agent"'));
    // One edit in the editor; saving is the user's (or their auto-save setting's) business.
    // Undo acts on the focused editor: wait until it is the file's (the dialog and the diff tab may
    // still hold focus on a loaded machine), then one undo must remove the whole proposal.
    await vscode.window.showTextDocument(doc);
    await waitFor('the file as the active editor', () =>
      vscode.window.activeTextEditor?.document === doc ? true : undefined,
    );
    await vscode.commands.executeCommand('undo');
    await waitFor('one undo step removes it', () =>
      doc.getText().includes('Proposed by an agent') ? undefined : true,
    );
    await vscode.commands.executeCommand('redo');
    const platform = await api.services.clients.platform();
    const w = await platform.getWorkbook(1, 1002);
    assert.ok(
      !JSON.stringify(w.dashboardPublished ?? null).includes('Proposed by an agent'),
      'not published',
    );
    await revertAndCloseAll();
    await vscode.workspace.fs.delete(uri);
  });

  it('publish_dashboard always asks, naming the file, deployment and profile: Cancel publishes nothing, Yes publishes', async () => {
    const dash = await invoke('get_dashboard_config', { deploymentId: 1, workbookId: 1003 });
    const json = /```json\n([\s\S]*?)\n```/.exec(dash)?.[1];
    assert.ok(json, dash);
    const folder = vscode.workspace.workspaceFolders![0]!.uri;
    const uri = vscode.Uri.joinPath(folder, 'agent-publish.dashboard.json');
    const edited = { ...(JSON.parse(json) as Record<string, unknown>), title: 'Published by an agent' };
    await vscode.workspace.fs.writeFile(uri, Buffer.from(`${JSON.stringify(edited, null, 2)}\n`));
    const input = { deploymentId: 1, file: 'agent-publish.dashboard.json' };
    const prepared = await api.agents.tools.get('publish_dashboard')!.prepareInvocation!({ input }, none);
    const message = prepared?.confirmationMessages?.message;
    const body = (typeof message === 'string' ? message : (message?.value ?? '')).replace(/\\(.)/g, '$1');
    assert.equal(prepared?.confirmationMessages?.title, 'Publish a dashboard?');
    assert.match(
      body,
      /Publish the dashboard in "agent-publish\.dashboard\.json" on deployment "[^"]+" \(1\), profile "Sandbox"\?/,
    );
    assert.match(body, /changes what the platform's users see/);

    const platform = await api.services.clients.platform();
    const version = async () => {
      const v = publishedDashboardOf(await platform.getWorkbook(1, 1003))?.versionNumber;
      return typeof v === 'number' ? v : 0;
    };
    const before = await version();
    const refused = invoke('publish_dashboard', input);
    await click({ selector: '.monaco-dialog-box .monaco-button:has-text("Cancel")' });
    await assert.rejects(refused);
    assert.equal(await version(), before, 'Cancel publishes nothing');
    const pending = invoke('publish_dashboard', input);
    await click({ selector: '.monaco-dialog-box .monaco-button:has-text("Yes")' });
    assert.match(await pending, /Published "agent-publish\.dashboard\.json" to workbook 1003/);
    assert.equal(await version(), before + 1);
    await vscode.workspace.fs.delete(uri);
  });

  it('refuses a dashboard file or folder linked out of the workspace, for reading and for writing', async () => {
    const outside = fs.mkdtempSync(path.join(os.tmpdir(), 'dp-outside-'));
    const victim = path.join(outside, 'victim.dashboard.json');
    const victimText = `${JSON.stringify({ workbookId: 1001, title: 'VICTIM-TEXT' }, null, 2)}\n`;
    fs.writeFileSync(victim, victimText);
    const folder = vscode.workspace.workspaceFolders![0]!.uri.fsPath;
    const link = path.join(folder, 'link-out.dashboard.json');
    const linkedDir = path.join(folder, 'linked-out');
    fs.symlinkSync(victim, link);
    fs.symlinkSync(outside, linkedDir, 'dir');
    try {
      for (const file of ['link-out.dashboard.json', 'linked-out/victim.dashboard.json']) {
        for (const [tool, input] of [
          ['propose_dashboard_change', { file, changes: [{ path: ['title'], value: 'pwned' }] }],
          ['publish_dashboard', { deploymentId: 1, file }],
        ] as const) {
          const call = tool === 'publish_dashboard' ? invoke(tool, input) : undefined;
          // publish_dashboard asks first; the refusal comes after Yes, before anything is read.
          if (call) await click({ selector: '.monaco-dialog-box .monaco-button:has-text("Yes")' });
          await assert.rejects(call ?? invoke(tool, input), (e: Error) => {
            assert.match(e.message, /leads outside the folder agents may use through a link/);
            assert.ok(!e.message.includes('VICTIM-TEXT'));
            return true;
          });
        }
      }
      assert.equal(fs.readFileSync(victim, 'utf8'), victimText);
    } finally {
      fs.rmSync(link, { force: true });
      fs.rmSync(linkedDir, { force: true });
      fs.rmSync(outside, { recursive: true, force: true });
    }
  });

  it('offers the MCP server only when enabled; tokens only at resolve; the started server answers', async () => {
    const provider = api.agents.mcpProvider;
    assert.deepEqual(provider.provideMcpServerDefinitions(), []);
    await config().update('dashboardPlatform.mcp.enabled', true, vscode.ConfigurationTarget.Workspace);
    const defs = provider.provideMcpServerDefinitions();
    assert.equal(defs.length, 1);
    const def = defs[0]!;
    const tokens = api.sandbox.current()!.tokens;
    assert.equal(def.label, 'Dashboard Platform (Sandbox)');
    assert.ok(!JSON.stringify(def).includes(tokens.admin), 'no token before resolve');
    assert.equal(def.env.DASHBOARD_PLATFORM_MCP_ALLOW_WRITES, '0');
    assert.equal(def.env.DASHBOARD_PLATFORM_MCP_ALLOW_PRODUCTION_WRITES, '0');
    // A workspace (a cloned repository's .vscode/settings.json) cannot turn the safety off: the
    // settings are application-scoped, so VS Code refuses to write them there, and only the
    // user's own value is read.
    for (const key of ['dashboardPlatform.mcp.allowWrites', 'dashboardPlatform.mcp.allowProductionWrites']) {
      await config()
        .update(key, true, vscode.ConfigurationTarget.Workspace)
        .then(
          () => undefined,
          () => undefined,
        );
      assert.notEqual(config().inspect(key)?.workspaceValue, true, `${key} is not taken from the workspace`);
    }
    const again = provider.provideMcpServerDefinitions()[0]!;
    assert.equal(again.env.DASHBOARD_PLATFORM_MCP_ALLOW_WRITES, '0');
    assert.equal(again.env.DASHBOARD_PLATFORM_MCP_ALLOW_PRODUCTION_WRITES, '0');
    const resolved = (await provider.resolveMcpServerDefinition(def))!;
    assert.equal(resolved.env.DASHBOARD_PLATFORM_TOKEN, tokens.admin);

    const { Client } = await import('@modelcontextprotocol/sdk/client/index.js');
    const { StdioClientTransport } = await import('@modelcontextprotocol/sdk/client/stdio.js');
    const env: Record<string, string> = {};
    for (const [k, v] of Object.entries({ ...process.env, ...resolved.env }))
      if (v !== null && v !== undefined) env[k] = String(v);
    const client = new Client({ name: 'dp-integration', version: '1.0.0' });
    await client.connect(
      new StdioClientTransport({
        command: resolved.command,
        args: resolved.args,
        env,
        cwd: resolved.cwd?.fsPath,
        stderr: 'ignore',
      }),
    );
    try {
      const { tools } = await client.listTools();
      assert.deepEqual(tools.map((t) => t.name).sort(), [...TOOL_NAMES].sort());
      const deps = (await client.callTool({ name: 'list_deployments', arguments: {} })) as {
        content: { type: string; text?: string }[];
      };
      assert.match(deps.content[0]?.text ?? '', /Deployments of profile "Sandbox"/);
      const refused = (await client.callTool({
        name: 'propose_dashboard_change',
        arguments: { file: 'x.dashboard.json', content: '{}' },
      })) as { isError?: boolean; content: { text?: string }[] };
      assert.equal(refused.isError, true);
      assert.match(refused.content[0]?.text ?? '', /read-only/);
    } finally {
      await client.close();
    }
  });

  it('@dashboard forwards the question to the agent and streams its answer', async () => {
    const markdown: string[] = [];
    const progress: string[] = [];
    const stream = {
      markdown: (v: string | vscode.MarkdownString) => markdown.push(typeof v === 'string' ? v : v.value),
      progress: (v: string) => progress.push(v),
    } as unknown as vscode.ChatResponseStream;
    const request = {
      prompt: 'Which product categories sell most?',
      command: undefined,
      references: [],
      toolReferences: [],
    } as unknown as vscode.ChatRequest;
    const result = (await api.agents.participantHandler(
      request,
      { history: [] },
      stream,
      none,
    )) as vscode.ChatResult;
    assert.equal(result.errorDetails, undefined, result.errorDetails?.message);
    assert.ok((result.metadata as { chatId?: string }).chatId, 'keeps the chat id for the next question');
    assert.match(progress[0] ?? '', /Asking .* \(profile "Sandbox"\)/);
    const text = markdown.join('');
    // The sandbox's agent plans from /v1/meta: "sell most" is revenue by category, highest first.
    assert.match(text, /```sql\nSELECT products\.category AS category, MEASURE\(orders\.total_amount\)/);
    assert.match(text, /ORDER BY total_amount DESC/);
    // The answer (after the SQL) names the leading category in bold and its figure.
    const answer = text.slice(text.lastIndexOf('```') + 3);
    assert.match(answer, /\*\*[^*\n]+\*\* (has the highest|leads with)/, answer);
  });
});
