// The MCP server as a process (src/mcp/server.ts, the entry point of dist/mcp.js, bundled from
// today's sources): what it says on stderr when it is ready (profile, platform, write mode, every
// line redacted), the version it reports, how it ends (stdin closed, SIGTERM, SIGINT: exit code 0;
// a configuration it cannot start with: the reason and exit code 1), and `--sandbox`, which starts
// a sandbox of its own and answers from it.
import * as assert from 'node:assert/strict';
import { spawn, type ChildProcess } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { startSandbox, type SandboxHandle } from '../../../src/sandbox';
import { freshMcpBundle, serverEnv } from './mcpBundle';

const root = path.resolve(__dirname, '..', '..', '..', '..');
const pkgVersion = (
  JSON.parse(fs.readFileSync(path.join(root, 'package.json'), 'utf8')) as { version: string }
).version;

interface Proc {
  child: ChildProcess;
  stderr: () => string;
  /** Sends one JSON-RPC request and waits for its answer. */
  request(method: string, params: unknown): Promise<Record<string, unknown>>;
  /** The exit code and signal, once it has ended. */
  ended: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
}

function start(bundle: string, cwd: string, env: Record<string, string>, args: string[] = []): Proc {
  const child = spawn(process.execPath, [bundle, ...args], { cwd, env, stdio: ['pipe', 'pipe', 'pipe'] });
  let err = '';
  let out = '';
  let next = 1;
  const waiting = new Map<number, (m: Record<string, unknown>) => void>();
  child.stderr!.on('data', (b: Buffer) => (err += b.toString('utf8')));
  child.stdout!.on('data', (b: Buffer) => {
    out += b.toString('utf8');
    let nl: number;
    while ((nl = out.indexOf('\n')) >= 0) {
      const line = out.slice(0, nl);
      out = out.slice(nl + 1);
      if (!line.trim()) continue;
      const m = JSON.parse(line) as Record<string, unknown>;
      waiting.get(m['id'] as number)?.(m);
    }
  });
  const ended = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) =>
    child.on('exit', (code, signal) => resolve({ code, signal })),
  );
  return {
    child,
    stderr: () => err,
    ended,
    request: (method, params) =>
      new Promise((resolve, reject) => {
        const id = next++;
        waiting.set(id, resolve);
        void ended.then(() => reject(new Error(`the server ended before answering ${method}: ${err}`)));
        child.stdin!.write(`${JSON.stringify({ jsonrpc: '2.0', id, method, params })}\n`);
      }),
  };
}

const init = (p: Proc) =>
  p.request('initialize', {
    protocolVersion: '2025-06-18',
    capabilities: {},
    clientInfo: { name: 'dp-process-test', version: '1.0.0' },
  });

/** Waits until `text` shows on stderr (the ready line is written after the transport connects). */
async function stderrShows(p: Proc, text: string): Promise<string> {
  for (let i = 0; i < 200 && !p.stderr().includes(text); i++) await new Promise((r) => setTimeout(r, 25));
  return p.stderr();
}

describe('MCP server process (entry point, bundled from the sources)', function () {
  this.timeout(60_000);
  let sb: SandboxHandle;
  let bundle: string;
  let dir: string;
  const procs: Proc[] = [];
  before(async () => {
    bundle = await freshMcpBundle();
    sb = await startSandbox({ rows: 200 });
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'dp-mcp-proc-'));
  });
  after(async () => {
    for (const p of procs)
      if (p.child.exitCode === null && p.child.signalCode === null) p.child.kill('SIGKILL');
    await sb.close();
    fs.rmSync(dir, { recursive: true, force: true });
  });
  const run = (extra: Record<string, string>, args: string[] = [], withSandbox = true) => {
    const p = start(bundle, dir, serverEnv(withSandbox ? sb : undefined, extra), args);
    procs.push(p);
    return p;
  };

  it('says when it is ready (profile, platform, write mode), reports the package version, ends with stdin', async () => {
    const cases: [Record<string, string>, string][] = [
      [{}, 'read-only'],
      [{ DASHBOARD_PLATFORM_MCP_ALLOW_WRITES: 'true' }, 'writes allowed'],
      [
        {
          DASHBOARD_PLATFORM_MCP_ALLOW_WRITES: 'true',
          DASHBOARD_PLATFORM_MCP_ALLOW_PRODUCTION_WRITES: 'true',
          DASHBOARD_PLATFORM_PRODUCTION: 'true',
        },
        'writes and production writes allowed, production',
      ],
    ];
    for (const [env, mode] of cases) {
      const p = run({ DASHBOARD_PLATFORM_PROFILE: 'Team', ...env });
      const hello = await init(p);
      const info = (hello['result'] as { serverInfo: { name: string; version: string } }).serverInfo;
      assert.equal(info.version, pkgVersion);
      const ready = `[info] Dashboard Platform MCP server ready: profile "Team", ${sb.urls.platform}, ${mode}\n`;
      const err = await stderrShows(p, ready);
      assert.ok(err.includes(ready), err);
      assert.ok(!err.includes(sb.tokens.admin) && !err.includes(sb.tokens.dataApi));
      p.child.stdin!.end();
      assert.deepEqual(await p.ended, { code: 0, signal: null }, mode);
    }
  });

  it("reports a line that is not JSON and the SDK's own errors on stderr as errors, and goes on", async () => {
    const p = run({ DASHBOARD_PLATFORM_PROFILE: 'Team' });
    await init(p);
    p.child.stdin!.write('not json at all\n');
    p.child.stdin!.write(`${JSON.stringify({ jsonrpc: '2.0', id: 999, result: {} })}\n`);
    const unknown =
      '[error] [mcp] Received a response for an unknown message ID: {"jsonrpc":"2.0","id":999,"result":{}}\n';
    const err = await stderrShows(p, unknown);
    assert.ok(err.includes('[error] [mcp] refused a line that is not JSON (15 characters): '), err);
    assert.ok(err.includes(unknown), err);
    const tools = await p.request('tools/list', {});
    assert.ok(JSON.stringify(tools['result']).includes('list_deployments'), 'the session goes on');
    p.child.stdin!.end();
    assert.deepEqual(await p.ended, { code: 0, signal: null });
  });

  it('ends with exit code 0 on SIGTERM and on SIGINT', async () => {
    for (const signal of ['SIGTERM', 'SIGINT'] as const) {
      const p = run({ DASHBOARD_PLATFORM_PROFILE: 'Team' });
      await init(p);
      await stderrShows(p, 'server ready');
      p.child.kill(signal);
      assert.deepEqual(await p.ended, { code: 0, signal: null }, signal);
    }
  });

  it('a configuration it cannot start with: the reason on stderr, redacted, and exit code 1', async () => {
    const secret = 'tok-mcp-proc-7f3a91c2e5';
    const p = run({ DASHBOARD_PLATFORM_TOKEN: secret, DASHBOARD_PLATFORM_URL: 'not a url' }, [], false);
    const end = await p.ended;
    assert.deepEqual(end, { code: 1, signal: null });
    assert.match(p.stderr(), /^The Dashboard Platform MCP server cannot start: /);
    assert.ok(!p.stderr().includes(secret), p.stderr());
  });

  it('--sandbox: starts a sandbox of its own, answers from it, and ends with stdin', async () => {
    const p = run({}, ['--sandbox'], false);
    await init(p);
    p.child.stdin!.write(`${JSON.stringify({ jsonrpc: '2.0', method: 'notifications/initialized' })}\n`);
    const listed = await p.request('tools/call', { name: 'list_deployments', arguments: {} });
    const text = JSON.stringify(listed['result']);
    assert.match(text, /Analytics/, text);
    const err = await stderrShows(p, 'server ready');
    assert.match(
      err,
      /\[info\] Dashboard Platform MCP server ready: profile "Sandbox", http:\/\/127\.0\.0\.1:\d+/,
    );
    p.child.stdin!.end();
    assert.deepEqual(await p.ended, { code: 0, signal: null });
  });
});
