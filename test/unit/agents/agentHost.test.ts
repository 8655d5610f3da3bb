// The agents' extension-host side in plain Node with a stand-in for `vscode`: the language model
// tools' confirmations (prepareInvocation: where a call runs, a query or a path to production
// asked first, PRODUCTION named, service names escaped) and results; the MCP server definition
// (no secret in it, the write mode from user settings only, tokens only when VS Code starts it,
// refused for another profile or without a token); the @dashboard participant (the conversation
// continued per profile and agent, /new, errors shown redacted); the gateway's name cache.
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import Module from 'node:module';
import * as os from 'node:os';
import * as path from 'node:path';
import type * as GatewayModule from '../../../src/agents/gateway';
import type * as LmToolsModule from '../../../src/agents/lmTools';
import type * as McpProviderModule from '../../../src/agents/mcpProvider';
import type * as ParticipantModule from '../../../src/agents/participant';
import type * as HostContextModule from '../../../src/agents/hostContext';
import { forwardTurn } from '../../../src/agents/participantStream';
import type { ChatEvent } from '../../../src/api/aiClient';
import { forgetVscodeDependents } from '../vscodeStandIn';

const STUB_SOURCE = `
const host = () => globalThis.__dpAgentHost;
class Uri {
  constructor(scheme, authority, path, query) { this.scheme = scheme; this.authority = authority; this.path = path; this.query = query; }
  static from(c) { return new Uri(c.scheme, c.authority ?? '', c.path ?? '', c.query ?? ''); }
  static file(p) { return new Uri('file', '', p, ''); }
  static joinPath(u, ...s) { return new Uri(u.scheme, u.authority, [u.path.replace(/\\/$/, ''), ...s].join('/'), ''); }
  get fsPath() { return this.path; }
  toString() { return this.scheme + '://' + this.authority + this.path + (this.query ? '?' + this.query : ''); }
}
class EventEmitter {
  constructor() { this.listeners = []; this.event = (l) => (this.listeners.push(l), { dispose: () => { this.listeners = this.listeners.filter((x) => x !== l); } }); }
  fire(e) { for (const l of [...this.listeners]) l(e); }
  dispose() { this.listeners = []; }
}
class MarkdownString { constructor(v = '') { this.value = v; } appendMarkdown(s) { this.value += s; return this; } }
class LanguageModelTextPart { constructor(value) { this.value = value; } }
class LanguageModelToolResult { constructor(content) { this.content = content; } }
class McpStdioServerDefinition {
  constructor(label, command, args, env, version) { Object.assign(this, { label, command, args, env, version }); }
}
class ChatResponseTurn {
  constructor(participant, result, command) { Object.assign(this, { participant, result, command }); }
}
class CancellationError extends Error { constructor() { super('Canceled'); this.name = 'Canceled'; } }
class TabInputTextDiff { constructor(original, modified) { this.original = original; this.modified = modified; } }
class Range { constructor(start, end) { this.start = start; this.end = end; } }
class WorkspaceEdit { constructor() { this.edits = []; } replace(uri, range, text) { this.edits.push({ uri: uri.toString(), range, text }); } }
const settings = () => host().settings;
module.exports = {
  Uri, EventEmitter, MarkdownString, LanguageModelTextPart, LanguageModelToolResult,
  McpStdioServerDefinition, ChatResponseTurn, CancellationError, TabInputTextDiff, Range, WorkspaceEdit,
  workspace: {
    get isTrusted() { return host().trusted; },
    get workspaceFolders() { return host().folders; },
    getConfiguration: () => ({
      get: (k, d) => { const s = settings()[k]; return s && 'value' in s ? s.value : d; },
      inspect: (k) => { const s = settings()[k]; return s ? { globalValue: s.user, workspaceValue: s.workspace } : undefined; },
    }),
    onDidChangeConfiguration: (l) => (host().configListeners.push(l), { dispose() {} }),
    onDidChangeWorkspaceFolders: () => ({ dispose() {} }),
    openTextDocument: async (uri) => {
      host().calls.push('open ' + uri.toString());
      const text = host().docs[uri.fsPath];
      if (text === undefined) throw new Error('cannot open ' + uri.fsPath);
      return { getText: () => text, positionAt: (n) => ({ offset: n }) };
    },
    applyEdit: async (edit) => { if (host().applyResult) host().edits.push(...edit.edits); return host().applyResult; },
  },
  window: {
    showInformationMessage: (m, opts, ...items) => (host().calls.push('ask ' + m), host().asked.push({ m, opts, items }), host().answer()),
    tabGroups: {
      get all() { return [{ tabs: host().tabs }]; },
      close: async (tabs) => { host().calls.push('close ' + tabs.length); },
    },
  },
  commands: {
    executeCommand: async (...a) => {
      host().calls.push(a[0]);
      if (a[0] === 'vscode.diff') host().tabs.push({ input: new TabInputTextDiff(a[1], a[2]) }, { input: {} });
    },
  },
};`;

interface Host {
  trusted: boolean;
  calls: string[];
  docs: Record<string, string>;
  edits: { uri: string; range: { start: { offset: number }; end: { offset: number } }; text: string }[];
  applyResult: boolean;
  asked: { m: string; opts: { modal?: boolean; detail?: string }; items: { title: string }[] }[];
  answer: () => Promise<{ title: string } | undefined>;
  tabs: unknown[];
  folders: { uri: { scheme: string; fsPath: string; path: string } }[] | undefined;
  settings: Record<string, { value?: unknown; user?: unknown; workspace?: unknown }>;
  configListeners: ((e: { affectsConfiguration(s: string): boolean }) => void)[];
}

function useHost(h: Partial<Host> = {}): Host {
  const host: Host = {
    trusted: true,
    folders: undefined,
    settings: {},
    configListeners: [],
    calls: [],
    docs: {},
    edits: [],
    applyResult: true,
    asked: [],
    answer: async () => undefined,
    tabs: [],
    ...h,
  };
  (globalThis as { __dpAgentHost?: Host }).__dpAgentHost = host;
  return host;
}

interface ProfileOpts {
  name?: string;
  production?: boolean;
  defaultDeploymentId?: number;
  isSandbox?: boolean;
  agents?: { label: string; url: string }[];
  platformUrl?: string;
  dataApiUrl?: string;
}

/** Services with an active profile (or none), recording the log, secrets by name. */
function servicesFor(profile: ProfileOpts | undefined, secrets: Record<string, string> = {}) {
  const logs: string[] = [];
  const profileEvents: (() => void)[] = [];
  const on = (l: () => void) => (profileEvents.push(l), { dispose() {} });
  let sandboxStarts = 0;
  const services = {
    log: {
      info: (m: string) => logs.push(`info ${m}`),
      warn: (m: string) => logs.push(`warn ${m}`),
      error: (m: string) => logs.push(`error ${m}`),
      redact: (t: string) => t.replaceAll('SECRET-TOKEN', '***'),
    },
    profiles: {
      active: () =>
        profile && {
          isSandbox: profile.isSandbox === true,
          profile: {
            name: profile.name ?? 'Team',
            production: profile.production,
            defaultDeploymentId: profile.defaultDeploymentId,
            agents: profile.agents ?? [],
            platformUrl: profile.platformUrl ?? 'https://platform.example/api',
            dataApiUrl: profile.dataApiUrl,
          },
        },
      onDidChangeActiveProfile: on,
      onDidChangeProfiles: on,
      onDidChangeSecrets: on,
      getSecret: async (key: string, name: string) =>
        secrets[`${name}/${key}`] !== undefined ? { value: secrets[`${name}/${key}`] } : undefined,
      sandbox: {
        start: async () => {
          sandboxStarts++;
          return { urls: { platform: 'http://127.0.0.1:9/api', dataApi: 'http://127.0.0.1:9/cubejs-api' } };
        },
      },
    },
    context: {
      extension: { packageJSON: { version: '1.2.3' } },
      extensionUri: { scheme: 'file', authority: '', path: '/ext', query: '' },
    },
    clients: {} as Record<string, unknown>,
  };
  return { services, logs, profileEvents, sandboxStarts: () => sandboxStarts };
}

describe('agents: the host side of the tools, the MCP definition and the participant (stand-in vscode)', () => {
  const mod = Module as unknown as { _resolveFilename: (request: string, ...rest: unknown[]) => string };
  const resolve = mod._resolveFilename;
  let dir: string;
  let lm: typeof LmToolsModule;
  let mcp: typeof McpProviderModule;
  let participant: typeof ParticipantModule;
  let gatewayMod: typeof GatewayModule;
  let hostContext: typeof HostContextModule;
  let vscode: {
    Uri: { file(p: string): unknown };
    ChatResponseTurn: new (participant: string, result: unknown, command?: string) => unknown;
  };

  before(() => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'dp-agents-test-'));
    const file = path.join(dir, 'vscode.js');
    fs.writeFileSync(file, STUB_SOURCE);
    mod._resolveFilename = function (request: string, ...rest: unknown[]) {
      return request === 'vscode' ? file : resolve.call(this, request, ...rest);
    };
    forgetVscodeDependents();
    useHost();
    /* eslint-disable @typescript-eslint/no-require-imports */
    lm = require('../../../src/agents/lmTools') as typeof LmToolsModule;
    mcp = require('../../../src/agents/mcpProvider') as typeof McpProviderModule;
    participant = require('../../../src/agents/participant') as typeof ParticipantModule;
    gatewayMod = require('../../../src/agents/gateway') as typeof GatewayModule;
    hostContext = require('../../../src/agents/hostContext') as typeof HostContextModule;
    vscode = require(file) as typeof vscode;
    /* eslint-enable @typescript-eslint/no-require-imports */
  });

  after(() => {
    mod._resolveFilename = resolve;
    fs.rmSync(dir, { recursive: true, force: true });
  });

  describe('language model tools: what VS Code shows before a call', () => {
    /** The tools over a platform whose deployments are `deployments` (getDeployment fails for others). */
    function tools(profile: ProfileOpts | undefined, deployments = [{ id: 4, name: 'Sales *EU*' }]) {
      const s = servicesFor(profile);
      const calls: string[] = [];
      s.services.clients = {
        platform: async () => ({
          getDeployment: async (id: number) => {
            calls.push(`getDeployment ${id}`);
            const d = deployments.find((x) => x.id === id);
            if (!d) throw new Error('404');
            return d;
          },
          listDeployments: async () => ({ items: deployments }),
        }),
      };
      const gateway = hostContext.hostGateway(s.services as never);
      const map = lm.createLanguageModelTools(
        s.services as never,
        gateway,
        new hostContext.ProposalDocuments(),
      );
      return { ...s, map, calls };
    }
    const prepare = async (t: ReturnType<typeof tools>, name: string, input: Record<string, unknown>) => {
      const r = (await t.map.get(name)!.prepareInvocation!({ input } as never, {} as never)) as {
        invocationMessage: string;
        confirmationMessages?: { title: string; message: { value: string } };
      };
      return r;
    };

    const cases: {
      what: string;
      profile?: ProfileOpts;
      tool: string;
      input: Record<string, unknown>;
      invocation: string;
      title?: string;
      body?: string;
    }[] = [
      {
        what: 'a read names the deployment (its name quoted) and the profile, without asking',
        profile: { name: 'Team' },
        tool: 'list_deployments',
        input: { deploymentId: 4 },
        invocation: 'List the deployments (deployment "Sales *EU*" (4), profile "Team")',
      },
      {
        what: 'a read on a production profile says PRODUCTION',
        profile: { name: 'Prod', production: true },
        tool: 'list_deployments',
        input: { deploymentId: 4 },
        invocation: 'List the deployments (deployment "Sales *EU*" (4), profile "Prod" (PRODUCTION))',
      },
      {
        what: 'the profile default deployment when the input names none; its id when its name cannot be read',
        profile: { name: 'Team', defaultDeploymentId: 9 },
        tool: 'list_deployments',
        input: {},
        invocation: 'List the deployments (deployment 9, profile "Team")',
      },
      {
        what: 'no deployment anywhere: the only one',
        profile: { name: 'Team' },
        tool: 'list_deployments',
        input: {},
        invocation: 'List the deployments (the only deployment, profile "Team")',
      },
      {
        what: 'no active profile is said so',
        tool: 'list_deployments',
        input: { deploymentId: 4 },
        invocation: 'List the deployments (no active profile)',
      },
      {
        what: 'a write is a diff the user applies, never published, and needs no place',
        profile: { name: 'Team' },
        tool: 'propose_dashboard_change',
        input: { file: 'a.dashboard.json', content: '{}', reason: 'tidy' },
        invocation:
          'Propose a new text to "a.dashboard.json": "tidy" (shown as a diff to apply or discard; never published)',
      },
      {
        what: 'a publish is always confirmed, PRODUCTION in the title there, the place escaped as Markdown',
        profile: { name: 'Prod', production: true },
        tool: 'publish_dashboard',
        input: { deploymentId: 4, file: 'x.dashboard.json' },
        invocation:
          'Publish the dashboard in "x.dashboard.json" (deployment "Sales *EU*" (4), profile "Prod" (PRODUCTION))',
        title: 'Publish a dashboard on PRODUCTION?',
        body:
          'Publish the dashboard in "x\\.dashboard\\.json" on deployment "Sales \\*EU\\*" \\(4\\), profile "Prod" \\(PRODUCTION\\)?\n\n' +
          "This changes what the platform's users see, at once; it cannot be undone from here.",
      },
      {
        what: 'a publish on another profile is confirmed without PRODUCTION',
        profile: { name: 'Team' },
        tool: 'publish_dashboard',
        input: { deploymentId: 4, file: 'x.dashboard.json' },
        invocation:
          'Publish the dashboard in "x.dashboard.json" (deployment "Sales *EU*" (4), profile "Team")',
        title: 'Publish a dashboard?',
      },
      {
        what: 'a SQL query is confirmed with the SQL in a fence it cannot close',
        profile: { name: 'Team' },
        tool: 'run_query',
        input: { deploymentId: 4, sql: 'SELECT 1 -- ```' },
        invocation: 'Running the query (deployment "Sales *EU*" (4), profile "Team")',
        title: 'Run a Dashboard Platform query?',
        body:
          'Run this query on deployment "Sales \\*EU\\*" \\(4\\), profile "Team"?\n\n````sql\nSELECT 1 -- ```\n````' +
          '\n\nIt runs on the warehouse and returns at most 100 rows a page.',
      },
      {
        what: 'a JSON query is confirmed as JSON',
        profile: { name: 'Team' },
        tool: 'run_query',
        input: { deploymentId: 4, query: { measures: ['orders.count'] } },
        invocation: 'Running the query (deployment "Sales *EU*" (4), profile "Team")',
        title: 'Run a Dashboard Platform query?',
        body:
          'Run this query on deployment "Sales \\*EU\\*" \\(4\\), profile "Team"?\n\n```json\n{\n  "measures": [\n    "orders.count"\n  ]\n}\n```' +
          '\n\nIt runs on the warehouse and returns at most 100 rows a page.',
      },
      {
        what: 'an input that does not parse falls back to the tool title',
        profile: { name: 'Team' },
        tool: 'publish_dashboard',
        input: { deploymentId: 4 },
        invocation: 'Publish a dashboard (deployment "Sales *EU*" (4), profile "Team")',
        title: 'Publish a dashboard?',
      },
    ];
    for (const c of cases) {
      it(c.what, async () => {
        const t = tools(c.profile);
        const r = await prepare(t, c.tool, c.input);
        assert.equal(r.invocationMessage, c.invocation);
        assert.equal(r.confirmationMessages?.title, c.title);
        if (c.body !== undefined) assert.equal(r.confirmationMessages?.message.value, c.body);
      });
    }

    it('reads a deployment name once per profile', async () => {
      const t = tools({ name: 'Team' });
      await prepare(t, 'list_deployments', { deploymentId: 4 });
      await prepare(t, 'list_deployments', { deploymentId: 4 });
      assert.deepEqual(t.calls, ['getDeployment 4']);
    });

    it('invoke answers the tool text; a failed tool throws its text; Restricted Mode refuses before any call', async () => {
      const t = tools({ name: 'Team' });
      const token = { onCancellationRequested: () => ({ dispose() {} }) };
      const ok = (await t.map.get('list_deployments')!.invoke({ input: {} } as never, token as never)) as {
        content: { value: string }[];
      };
      assert.match(ok.content[0]!.value, /^Deployments of profile "Team"\./);
      assert.match(ok.content[0]!.value, /Sales \*EU\*/);
      await assert.rejects(
        Promise.resolve(
          t.map.get('run_query')!.invoke({ input: { deploymentId: 4 } } as never, token as never),
        ),
        {
          message:
            'The tool failed. The error message (as a JSON string): "Give exactly one of \\"sql\\" or \\"query\\"."',
        },
      );
      useHost({ trusted: false });
      try {
        await assert.rejects(
          Promise.resolve(t.map.get('list_deployments')!.invoke({ input: {} } as never, token as never)),
          /Agent tools are off in Restricted Mode/,
        );
      } finally {
        useHost();
      }
      assert.ok(
        t.logs.some((l) => l.startsWith('info [lm-tool] tool list_deployments called (profile "Team")')),
      );
    });

    it('a cancelled call aborts the request the tool made', async () => {
      const s = servicesFor({ name: 'Team' });
      let seen: AbortSignal | undefined;
      let cancel: (() => void) | undefined;
      s.services.clients = {
        platform: async () => ({
          listDeployments: async (_a: unknown, signal: AbortSignal) => {
            seen = signal;
            cancel!();
            return { items: [] };
          },
        }),
      };
      const map = lm.createLanguageModelTools(
        s.services as never,
        hostContext.hostGateway(s.services as never),
        new hostContext.ProposalDocuments(),
      );
      const token = { onCancellationRequested: (l: () => void) => ((cancel = l), { dispose() {} }) };
      await map.get('list_deployments')!.invoke({ input: {} } as never, token as never);
      assert.equal(seen?.aborted, true);
    });

    it('markdownText escapes every Markdown character, keeps spaces', () => {
      assert.equal(
        lm.markdownText('a *b* [c](d) `e` #f <g> |h| ~i~ & j!'),
        'a \\*b\\* \\[c\\]\\(d\\) \\`e\\` \\#f \\<g\\> \\|h\\| \\~i\\~ \\& j\\!',
      );
      assert.equal(lm.markdownText('x_y-z+1.{}\\'), 'x\\_y\\-z\\+1\\.\\{\\}\\\\');
    });
  });

  describe('a dashboard change an agent proposes', () => {
    let root: string;
    const FILE = 'sales.dashboard.json';
    before(() => {
      root = fs.mkdtempSync(path.join(os.tmpdir(), 'dp-proposal-'));
      fs.writeFileSync(path.join(root, FILE), '{"a": 1}\n');
    });
    after(() => fs.rmSync(root, { recursive: true, force: true }));

    function access(
      opts: { answer?: string | 'never'; production?: string; docText?: string; applyResult?: boolean } = {},
    ) {
      const real = fs.realpathSync(path.join(root, FILE));
      const host = useHost({
        folders: [{ uri: { scheme: 'file', fsPath: root, path: root } }],
        docs: { [real]: opts.docText ?? '{"a": 1}\n' },
        applyResult: opts.applyResult ?? true,
        answer: () =>
          opts.answer === 'never'
            ? new Promise(() => undefined)
            : Promise.resolve(opts.answer ? { title: opts.answer } : undefined),
      });
      const proposals = new hostContext.ProposalDocuments();
      const files = hostContext.workspaceFiles(proposals, () => opts.production);
      return { host, proposals, files, real };
    }
    const change = (lines = 2) => ({
      file: FILE,
      display: FILE,
      oldText: '{"a": 1}\n',
      newText: '{"a": 2}\n',
      diff: ['--- a', '+++ b', ...Array.from({ length: lines }, (_, i) => `+line ${i + 1}`)].join('\n'),
      summary: 'Set a to 2.',
    });

    it('Apply: a diff, a modal naming the file with the diff in its detail, one edit of the whole text', async () => {
      const a = access({ answer: 'Apply' });
      const seen: string[] = [];
      a.host.answer = async () => {
        // While the question is asked, the diff editor is served the proposed text.
        const diff = a.host.tabs[0] as { input: { modified: never } };
        seen.push(a.proposals.provideTextDocumentContent(diff.input.modified));
        return { title: 'Apply' };
      };
      const r = await a.files.propose!(change());
      assert.deepEqual(r, {
        applied: true,
        detail: `the user applied the change to "${FILE}" as one edit in the editor (the user saves or undoes it).`,
      });
      assert.deepEqual(seen, ['{"a": 2}\n']);
      assert.deepEqual(
        [...a.host.calls],
        [
          'vscode.diff',
          `ask Apply the change an agent proposes to ${FILE}?`,
          `open file://${a.real}`,
          'close 1',
        ],
      );
      const [asked] = a.host.asked;
      assert.equal(asked!.opts.modal, true);
      assert.equal(
        asked!.opts.detail,
        'Set a to 2.\n\n+line 1\n+line 2\n\nApply makes it one edit in the editor (undo reverts it). Nothing is published.',
      );
      assert.deepEqual(asked!.items, [{ title: 'Apply' }, { title: 'Discard', isCloseAffordance: true }]);
      assert.deepEqual(JSON.parse(JSON.stringify(a.host.edits)), [
        { uri: `file://${a.real}`, range: { start: { offset: 0 }, end: { offset: 9 } }, text: '{"a": 2}\n' },
      ]);
      // The proposal is gone once answered.
      const proposed = (a.host.tabs[0] as { input: { modified: { toString(): string } } }).input.modified;
      assert.match(proposed.toString(), /^dashboard-platform-proposal:\/\/\/sales\.dashboard\.json\?1$/);
      assert.equal(a.proposals.provideTextDocumentContent(proposed as never), '');
    });

    it('a long diff is cut in the question, saying how many lines more; a production profile is named', async () => {
      const a = access({ answer: 'Discard', production: 'Prod' });
      await a.files.propose!(change(33));
      const [asked] = a.host.asked;
      assert.equal(asked!.m, `Production profile "Prod": apply the change an agent proposes to ${FILE}?`);
      const lines = asked!.opts.detail!.split('\n');
      assert.equal(lines[2], '+line 1');
      assert.equal(lines[31], '+line 30');
      assert.equal(lines[32], '… 3 more lines in the diff editor');
    });

    const refusals: {
      what: string;
      opts: Parameters<typeof access>[0];
      detail: string;
      abort?: 'before' | 'while';
    }[] = [
      {
        what: 'discarded',
        opts: { answer: 'Discard' },
        detail: `the user discarded the change; "${FILE}" is unchanged.`,
      },
      { what: 'dismissed', opts: {}, detail: `the user discarded the change; "${FILE}" is unchanged.` },
      {
        what: 'the file changed meanwhile',
        opts: { answer: 'Apply', docText: '{"a": 3}\n' },
        detail: `"${FILE}" changed while the proposal was shown; read it again.`,
      },
      {
        what: 'VS Code refused the edit',
        opts: { answer: 'Apply', applyResult: false },
        detail: `VS Code could not apply the change to "${FILE}".`,
      },
      {
        what: 'the call cancelled while asking',
        opts: { answer: 'never' },
        abort: 'while',
        detail: `the call was cancelled; "${FILE}" is unchanged.`,
      },
      {
        what: 'the call cancelled before',
        opts: { answer: 'never' },
        abort: 'before',
        detail: `the call was cancelled; "${FILE}" is unchanged.`,
      },
    ];
    for (const r of refusals) {
      it(`nothing applied when ${r.what}; the diff is closed`, async () => {
        const a = access(r.opts);
        const ac = new AbortController();
        if (r.abort === 'before') ac.abort();
        const pending = a.files.propose!(change(), ac.signal);
        if (r.abort === 'while') setImmediate(() => ac.abort());
        assert.deepEqual(await pending, { applied: false, detail: r.detail });
        assert.deepEqual(a.host.edits, []);
        assert.equal(a.host.calls.at(-1), 'close 1');
      });
    }

    it('reads the open document; a missing file, no folder or an unreadable document are errors naming the file', async () => {
      const a = access();
      assert.deepEqual(await a.files.read(FILE), { text: '{"a": 1}\n', display: FILE });
      await assert.rejects(a.files.read('none.dashboard.json'), {
        message: 'Cannot read "none.dashboard.json": it does not exist.',
      });
      a.host.docs = {};
      await assert.rejects(a.files.read(FILE), { message: `Cannot read "${FILE}": cannot open ${a.real}` });
      a.host.folders = [{ uri: { scheme: 'vscode-remote', fsPath: root, path: root } }];
      await assert.rejects(a.files.read(FILE), {
        message: 'Open a folder first: dashboard files are edited inside the workspace.',
      });
    });
  });

  describe('MCP server definition', () => {
    const on = (user: unknown, workspace?: unknown) => ({ user, workspace });
    function provider(opts: {
      profile?: ProfileOpts;
      settings?: Host['settings'];
      secrets?: Record<string, string>;
      trusted?: boolean;
      folder?: string;
    }) {
      const host = useHost({
        trusted: opts.trusted ?? true,
        settings: opts.settings ?? { 'mcp.enabled': { value: true } },
        folders: opts.folder
          ? [{ uri: { scheme: 'file', fsPath: opts.folder, path: opts.folder } }]
          : undefined,
      });
      const s = servicesFor(opts.profile === undefined ? { name: 'Team' } : opts.profile, opts.secrets);
      const p = new mcp.McpProvider(s.services as never);
      return { ...s, p, host };
    }

    it('is offered only when enabled and a profile is active', () => {
      assert.deepEqual(provider({ settings: {} }).p.provideMcpServerDefinitions(), []);
      assert.deepEqual(
        provider({ settings: { 'mcp.enabled': { value: false } } }).p.provideMcpServerDefinitions(),
        [],
      );
      const none = provider({});
      none.services.profiles.active = () => undefined;
      assert.deepEqual(none.p.provideMcpServerDefinitions(), []);
    });

    const modes: {
      what: string;
      settings: Host['settings'];
      trusted?: boolean;
      production?: boolean;
      env: Record<string, string>;
      version: string;
    }[] = [
      { what: 'read-only by default', settings: {}, env: { W: '0', P: '0' }, version: 'ro' },
      {
        what: 'writes from the user settings',
        settings: { 'mcp.allowWrites': on(true) },
        env: { W: '1', P: '0' },
        version: 'rw',
      },
      {
        what: 'production writes too',
        settings: { 'mcp.allowWrites': on(true), 'mcp.allowProductionWrites': on(true) },
        production: true,
        env: { W: '1', P: '1' },
        version: 'rwp',
      },
      {
        what: 'never from the workspace settings',
        settings: {
          'mcp.allowWrites': on(undefined, true),
          'mcp.allowProductionWrites': on(undefined, true),
        },
        env: { W: '0', P: '0' },
        version: 'ro',
      },
      {
        what: 'never in Restricted Mode',
        settings: { 'mcp.allowWrites': on(true), 'mcp.allowProductionWrites': on(true) },
        trusted: false,
        env: { W: '0', P: '0' },
        version: 'ro',
      },
    ];
    for (const m of modes) {
      it(`holds no secret and the write mode: ${m.what}`, () => {
        const { p } = provider({
          profile: { name: 'Team A', production: m.production, defaultDeploymentId: 7 },
          settings: { 'mcp.enabled': { value: true }, ...m.settings },
          trusted: m.trusted,
          folder: '/work/proj',
        });
        const [def] = p.provideMcpServerDefinitions() as unknown as {
          label: string;
          command: string;
          args: string[];
          env: Record<string, string | null>;
          version: string;
          cwd?: { fsPath: string };
        }[];
        assert.ok(def);
        assert.equal(def.label, 'Dashboard Platform (Team A)');
        assert.equal(def.command, process.execPath);
        assert.deepEqual(def.args, ['/ext/dist/mcp.js']);
        assert.deepEqual(def.env, {
          ELECTRON_RUN_AS_NODE: '1',
          DASHBOARD_PLATFORM_PROFILE: 'Team A',
          DASHBOARD_PLATFORM_PRODUCTION: m.production ? '1' : '0',
          DASHBOARD_PLATFORM_MCP_ALLOW_WRITES: m.env.W,
          DASHBOARD_PLATFORM_MCP_ALLOW_PRODUCTION_WRITES: m.env.P,
          DASHBOARD_PLATFORM_DEPLOYMENT_ID: '7',
          DASHBOARD_PLATFORM_MCP_ROOT: '/work/proj',
        });
        assert.equal(def.version, `1.2.3+Team%20A.${m.version}`);
        assert.equal(def.cwd?.fsPath, '/work/proj');
      });
    }

    it('without a folder or default deployment those variables are removed, and no cwd is set', () => {
      const { p, services } = provider({});
      // A manifest without a version still gives one.
      services.context.extension.packageJSON = {} as never;
      const [def] = p.provideMcpServerDefinitions() as unknown as {
        env: Record<string, unknown>;
        cwd?: unknown;
      }[];
      assert.equal(def!.env.DASHBOARD_PLATFORM_DEPLOYMENT_ID, null);
      assert.equal(def!.env.DASHBOARD_PLATFORM_MCP_ROOT, null);
      assert.equal(def!.cwd, undefined);
      assert.equal((def as unknown as { version: string }).version, '0+Team.ro');
    });

    it('tells VS Code to ask again when a profile, a secret or an MCP setting changes, not other settings', () => {
      const { p, host, profileEvents } = provider({});
      let fired = 0;
      p.onDidChangeMcpServerDefinitions(() => fired++);
      for (const e of profileEvents) e();
      assert.equal(profileEvents.length, 3);
      assert.equal(fired, 3);
      const [listener] = host.configListeners;
      listener!({ affectsConfiguration: (s) => s === 'dashboardPlatform.mcp' });
      listener!({ affectsConfiguration: (s) => s === 'dashboardPlatform.chat' });
      assert.equal(fired, 4);
      p.dispose();
      for (const e of profileEvents) e();
      assert.equal(fired, 4);
    });

    it('fills in the URLs and tokens only when VS Code starts it, removing inherited ones', async () => {
      const { p, logs } = provider({
        profile: { name: 'Team', dataApiUrl: 'https://data.example' },
        secrets: { 'Team/platformToken': 'SECRET-TOKEN' },
      });
      const [def] = p.provideMcpServerDefinitions();
      const r = (await p.resolveMcpServerDefinition(def!)) as unknown as { env: Record<string, unknown> };
      assert.equal(r.env.DASHBOARD_PLATFORM_URL, 'https://platform.example/api');
      assert.equal(r.env.DASHBOARD_PLATFORM_DATA_API_URL, 'https://data.example');
      assert.equal(r.env.DASHBOARD_PLATFORM_TOKEN, 'SECRET-TOKEN');
      assert.equal(r.env.DASHBOARD_PLATFORM_DATA_API_TOKEN, null);
      assert.equal(r.env.DASHBOARD_PLATFORM_PROFILE, 'Team');
      assert.deepEqual(logs, ['info Starting the MCP server for profile "Team"']);
    });

    it('on the Sandbox profile it starts the sandbox and points at it', async () => {
      const s = provider({
        profile: { name: 'Sandbox', isSandbox: true },
        secrets: { 'Sandbox/dataApiToken': 't' },
      });
      const [def] = s.p.provideMcpServerDefinitions();
      const r = (await s.p.resolveMcpServerDefinition(def!)) as unknown as { env: Record<string, unknown> };
      assert.equal(s.sandboxStarts(), 1);
      assert.equal(r.env.DASHBOARD_PLATFORM_URL, 'http://127.0.0.1:9/api');
      assert.equal(r.env.DASHBOARD_PLATFORM_DATA_API_URL, 'http://127.0.0.1:9/cubejs-api');
      assert.equal(r.env.DASHBOARD_PLATFORM_TOKEN, null);
      assert.equal(r.env.DASHBOARD_PLATFORM_DATA_API_TOKEN, 't');
    });

    it('refuses to start for another profile than the one it was offered for, or without any token', async () => {
      const s = provider({ secrets: { 'Team/platformToken': 'x' } });
      const [def] = s.p.provideMcpServerDefinitions();
      s.services.profiles.active = () =>
        ({ isSandbox: false, profile: { name: 'Other', agents: [] } }) as never;
      await assert.rejects(s.p.resolveMcpServerDefinition(def!), {
        message:
          'The active Dashboard Platform profile is now "Other"; restart the MCP server from the MCP list.',
      });
      const t = provider({});
      const [d2] = t.p.provideMcpServerDefinitions();
      await assert.rejects(t.p.resolveMcpServerDefinition(d2!), {
        message:
          'Profile "Team" has no platform API token, so the MCP server cannot start. Run "Dashboard Platform: Set Token…".',
      });
      assert.deepEqual(t.logs, []);
      // Turned off or no profile since: nothing to start.
      const u = provider({ secrets: { 'Team/platformToken': 'x' } });
      const [d3] = u.p.provideMcpServerDefinitions();
      useHost({ settings: {} });
      assert.equal(await u.p.resolveMcpServerDefinition(d3!), undefined);
      u.services.profiles.active = () => undefined as never;
      assert.equal(await u.p.resolveMcpServerDefinition(d3!), undefined);
    });
  });

  describe('@dashboard participant', () => {
    const AGENT = { label: 'Analyst', url: 'https://ai.example/agents/1' };
    function run(opts: {
      profile?: ProfileOpts;
      prompt?: string;
      command?: string;
      history?: unknown[];
      events?: ChatEvent[];
      cancelled?: boolean;
      fail?: Error;
    }) {
      useHost();
      const s = servicesFor('profile' in opts ? opts.profile : { name: 'Team', agents: [AGENT] });
      const asked: { input: string; chatId?: string }[] = [];
      const aborted: string[] = [];
      s.services.clients = {
        sessionSettings: () => ({ tz: 'UTC' }),
        ai: async (url: string) => ({
          url,
          async *streamChat(req: { input: string; chatId?: string }) {
            asked.push({ input: req.input, ...(req.chatId ? { chatId: req.chatId } : {}) });
            if (opts.fail) throw opts.fail;
            for (const e of opts.events ?? []) yield e;
          },
          abort: async (chatId: string) => void aborted.push(chatId),
        }),
      };
      const out: string[] = [];
      const handler = participant.participantHandler(s.services as never);
      let cancel: (() => void) | undefined;
      const token = {
        isCancellationRequested: opts.cancelled === true,
        onCancellationRequested: (l: () => void) => ((cancel = l), { dispose() {} }),
      };
      const result = Promise.resolve(
        handler(
          { prompt: opts.prompt ?? 'How many orders?', command: opts.command } as never,
          { history: opts.history ?? [] } as never,
          {
            markdown: (t: string) => out.push(`md ${t}`),
            progress: (t: string) => out.push(`progress ${t}`),
          } as never,
          token as never,
        ),
      ) as Promise<{ metadata?: Record<string, unknown>; errorDetails?: { message: string } }>;
      return { result, out, asked, aborted, logs: s.logs, cancel: () => cancel?.() };
    }
    const answer = (id: string, content: string): ChatEvent[] => [
      { type: 'cutoff', chatId: id } as ChatEvent,
      { type: 'final', message: { id: 'm1', role: 'assistant', content } } as unknown as ChatEvent,
    ];
    const turn = (metadata: Record<string, unknown>, command?: string, p = 'dashboardPlatform.dashboard') =>
      new vscode.ChatResponseTurn(p, { metadata }, command);

    it('asks the profile agent and keeps the chat id, profile and agent in the result', async () => {
      const r = run({ events: answer('chat-1', 'There are 5.') });
      assert.deepEqual(await r.result, {
        metadata: { chatId: 'chat-1', profile: 'Team', agentUrl: AGENT.url },
      });
      assert.deepEqual(r.asked, [{ input: 'How many orders?' }]);
      assert.deepEqual(r.out, ['progress Asking Analyst (profile "Team")…', 'md There are 5.']);
      assert.deepEqual(r.logs, ['info [chat participant] question to agent "Analyst"']);
    });

    it('continues the last conversation of the same profile and agent; /new and other profiles start over', async () => {
      const same = { chatId: 'c-old', profile: 'Team', agentUrl: AGENT.url };
      const cases: { history: unknown[]; command?: string; chatId?: string }[] = [
        {
          history: [turn(same), turn({ chatId: 'c-other', profile: 'Other', agentUrl: AGENT.url })],
          chatId: 'c-old',
        },
        { history: [turn({ ...same, chatId: 'c-1' }), turn({ ...same, chatId: 'c-2' })], chatId: 'c-2' },
        { history: [turn(same)], command: 'new' },
        { history: [turn(same), turn({}, 'new')] },
        { history: [turn({ ...same, agentUrl: 'https://ai.example/agents/2' })] },
        { history: [turn(same, undefined, 'someone.else')] },
        { history: [{ prompt: 'a request turn' }, turn(same)], chatId: 'c-old' },
      ];
      const seen = [];
      for (const c of cases) {
        const r = run({ history: c.history, command: c.command, events: answer('c-new', 'ok') });
        await r.result;
        seen.push(r.asked[0]?.chatId);
      }
      assert.deepEqual(
        seen,
        cases.map((c) => c.chatId),
      );
    });

    it('an empty question gets a hint, nothing is asked', async () => {
      const r = run({ prompt: '   ' });
      assert.deepEqual(await r.result, { metadata: {} });
      assert.deepEqual(r.asked, []);
      assert.deepEqual(r.out, ['md Ask **Analyst** (profile "Team") a question about your data.']);
    });

    it('no profile, or no agent: the error says what to do; nothing is asked', async () => {
      const none = run({ profile: undefined });
      assert.deepEqual(await none.result, {
        errorDetails: {
          message: 'No Dashboard Platform profile is active. Choose one (or "Sandbox") from the status bar.',
        },
        metadata: { chatId: undefined },
      });
      const noAgent = run({ profile: { name: 'Team' } });
      assert.equal(
        (await noAgent.result).errorDetails?.message,
        'Profile "Team" has no AI agent. Edit the profile to add an agent URL.',
      );
      assert.deepEqual([none.asked, noAgent.asked], [[], []]);
      assert.ok(
        noAgent.logs.includes(
          'error [chat participant] Profile "Team" has no AI agent. Edit the profile to add an agent URL.',
        ),
      );
    });

    it('the agent error is shown (redacted) with the chat kept; a failure is redacted and logged', async () => {
      const r = run({
        events: [
          { type: 'cutoff', chatId: 'c9' } as ChatEvent,
          { type: 'error', message: 'bad SECRET-TOKEN' } as ChatEvent,
        ],
      });
      assert.deepEqual(await r.result, {
        metadata: { chatId: 'c9', profile: 'Team', agentUrl: AGENT.url },
        errorDetails: { message: 'bad ***' },
      });
      const f = run({ fail: new Error('socket SECRET-TOKEN reset') });
      assert.deepEqual(await f.result, {
        errorDetails: { message: 'socket *** reset' },
        metadata: { chatId: undefined },
      });
      assert.ok(f.logs.includes('error [chat participant] socket *** reset'));
    });

    it('a cancelled turn ends quietly', async () => {
      const r = run({ fail: new Error('aborted'), cancelled: true });
      assert.deepEqual(await r.result, { metadata: { chatId: undefined } });
      assert.ok(!r.logs.some((l) => l.startsWith('error')));
    });
  });

  describe('the gateway', () => {
    it('caches deployment names per profile and id; a failed read is undefined and not cached', async () => {
      let profile = 'A';
      const calls: number[] = [];
      let fail = false;
      const g = new gatewayMod.PlatformGateway(
        {
          platform: async () =>
            ({
              getDeployment: async (id: number) => {
                calls.push(id);
                if (fail) throw new Error('down');
                return { id, name: `${profile}-${id}` };
              },
              listDeployments: async () => ({
                items: [{ id: 5, name: 'Listed' }],
                pageInfo: { hasNextPage: true, endCursor: 'n1' },
              }),
            }) as never,
          data: async () => ({}) as never,
        },
        () => ({ name: profile, production: false, sandbox: false }),
      );
      fail = true;
      assert.equal(await g.deploymentName(1), undefined);
      fail = false;
      assert.equal(await g.deploymentName(1), 'A-1');
      assert.equal(await g.deploymentName(1), 'A-1');
      profile = 'B';
      assert.equal(await g.deploymentName(1), 'B-1');
      assert.deepEqual(calls, [1, 1, 1]);
      const page = await g.listDeployments({});
      assert.deepEqual(page, { items: [{ id: 5, name: 'Listed' }], hasMore: true, nextCursor: 'n1' });
      assert.equal(await g.deploymentName(5), 'Listed');
      assert.deepEqual(calls, [1, 1, 1]);
    });
  });
});

describe('agents: one chat turn written to the chat response (forwardTurn)', () => {
  const opts = { allowRemoteImages: false, redact: (t: string) => t.replaceAll('SECRET-TOKEN', '***') };
  const msg = (id: string, content: string, extra: Record<string, unknown> = {}) =>
    ({ id, role: 'assistant', content, ...extra }) as never;
  async function turn(events: ChatEvent[], allowRemoteImages = false) {
    const out: string[] = [];
    const sent: unknown[] = [];
    const outcome = await forwardTurn(
      {
        async *streamChat(req: unknown) {
          sent.push(req);
          yield* events;
        },
      } as never,
      { input: 'q', chatId: 'c0', sessionSettings: {} as never },
      { markdown: (t) => out.push(`md ${t}`), progress: (t) => out.push(`progress ${t}`) },
      { ...opts, allowRemoteImages },
    );
    return { out, outcome, sent };
  }

  it('streams the final answer by whole lines, then the rest once complete, with remote images as their text', async () => {
    const { out, outcome, sent } = await turn([
      { type: 'cutoff', chatId: 'c1' },
      { type: 'message', message: msg('f', 'Line one\nLine t', { graphPath: ['final'] }) },
      { type: 'message', message: msg('f', 'Line one\nLine t', { graphPath: ['final'] }) },
      {
        type: 'message',
        message: msg('f', 'Line one\nLine two ![x](https://e.example/a.png)\nLa', { graphPath: ['final'] }),
      },
      {
        type: 'final',
        message: msg('f', 'Line one\nLine two ![x](https://e.example/a.png)\nLast SECRET-TOKEN'),
      },
      { type: 'usage', usage: { tokens: 3 } as never },
    ]);
    assert.deepEqual(out, ['md Line one\n', 'md Line two x\n', 'md Last ***']);
    assert.deepEqual(outcome, { chatId: 'c1', usage: { tokens: 3 } });
    assert.deepEqual(sent, [{ input: 'q', chatId: 'c0', sessionSettings: {} }]);
  });

  it('keeps remote images when allowed', async () => {
    const { out } = await turn([{ type: 'final', message: msg('f', '![x](https://e.example/a.png)') }], true);
    assert.deepEqual(out, ['md ![x](https://e.example/a.png)']);
  });

  it('shows progress for other messages and tools, each tool call once with its SQL and rows', async () => {
    const call = {
      name: 'run_*sql*',
      input: { sql: 'SELECT SECRET-TOKEN' },
      result: { schema: [{ name: 'n' }], data: [[1], [2]], totalRows: 40 },
      rawInput: '',
    };
    const { out, outcome } = await turn([
      { type: 'message', message: msg('p', 'Thinking about it\nmore') },
      { type: 'message', message: msg('p', 'partial', { isDelta: true }) },
      { type: 'message', message: { id: 'u', role: 'user', content: 'mine' } as never },
      { type: 'toolCall', message: msg('t', ''), toolCall: { ...call, result: undefined } },
      { type: 'toolCall', message: msg('t', ''), toolCall: call },
      { type: 'toolCall', message: msg('t', ''), toolCall: call },
      {
        type: 'toolCall',
        message: msg('t2', ''),
        toolCall: { name: 'x', input: {}, result: { error: 'no SECRET-TOKEN' }, rawInput: '' },
      },
      { type: 'final', message: msg('f', 'Done') },
    ]);
    assert.equal(out[0], 'progress Thinking about it');
    assert.equal(out[1], 'progress Running run_*sql*…');
    assert.match(out[2]!, /^md \n\n\*\*Tool: runsql\*\*\n/);
    assert.ok(out[2]!.includes('```sql\nSELECT ***\n```'), out[2]);
    assert.ok(out[2]!.includes('_2 of 40 rows._'), out[2]);
    assert.match(out[3]!, /The tool failed: no \*\*\*/);
    assert.equal(out[4], 'md Done');
    assert.equal(out.length, 5);
    assert.deepEqual(outcome, { chatId: 'c0' });
  });

  const endings: { what: string; events: ChatEvent[]; out: string[]; outcome: Record<string, unknown> }[] = [
    {
      what: 'no answer at all is said so',
      events: [],
      out: ['md _The agent ended the turn without an answer._'],
      outcome: { chatId: 'c0' },
    },
    {
      what: 'a suspended answer says to ask again, with the reason',
      events: [{ type: 'suspended', retryable: true, reason: 'limit *reached*' }],
      out: ['md \n\n_The agent paused this answer (limit *reached*). Ask again to continue._'],
      outcome: { chatId: 'c0', suspended: true },
    },
    {
      what: 'a suspended answer without a reason',
      events: [{ type: 'suspended', retryable: true }],
      out: ['md \n\n_The agent paused this answer. Ask again to continue._'],
      outcome: { chatId: 'c0', suspended: true },
    },
    {
      what: 'an aborted turn writes nothing more',
      events: [{ type: 'aborted' }],
      out: [],
      outcome: { chatId: 'c0', aborted: true },
    },
    {
      what: 'an error is returned redacted, not written',
      events: [{ type: 'error', message: 'failed SECRET-TOKEN' }],
      out: [],
      outcome: { chatId: 'c0', error: 'failed ***' },
    },
  ];
  for (const e of endings) {
    it(e.what, async () => {
      const { out, outcome } = await turn(e.events);
      assert.deepEqual(out, e.out);
      assert.deepEqual(outcome, e.outcome);
    });
  }
});
