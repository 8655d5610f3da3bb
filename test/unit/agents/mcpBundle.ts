// The MCP server bundle the stdio tests spawn, built from TODAY's sources (src/mcp/server.ts and
// the sandbox library it loads with --sandbox) into a temporary dist/, once per test run. The
// tests used to spawn dist/mcp.js, which `npm run test:unit` does not rebuild, so a defect in the
// sources passed against a stale bundle.
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { build } from 'esbuild';
import type { SandboxHandle } from '../../../src/sandbox';

const root = path.resolve(__dirname, '..', '..', '..', '..');
let built: Promise<string> | undefined;

async function buildInto(dir: string): Promise<string> {
  const dist = path.join(dir, 'dist');
  fs.mkdirSync(dist, { recursive: true });
  // The same options as esbuild.mjs's node entries.
  const common = {
    absWorkingDir: root,
    bundle: true,
    platform: 'node' as const,
    format: 'cjs' as const,
    target: 'node20',
    mainFields: ['module', 'main'],
    logLevel: 'error' as const,
  };
  await Promise.all([
    build({ ...common, entryPoints: ['src/mcp/server.ts'], outfile: path.join(dist, 'mcp.js') }),
    build({ ...common, entryPoints: ['src/sandbox/index.ts'], outfile: path.join(dist, 'sandbox.js') }),
  ]);
  // What the bundles read beside them: the SQL engine's WebAssembly and ../package.json (version).
  fs.copyFileSync(
    path.join(root, 'node_modules', 'sql.js', 'dist', 'sql-wasm.wasm'),
    path.join(dist, 'sql-wasm.wasm'),
  );
  fs.copyFileSync(path.join(root, 'package.json'), path.join(dir, 'package.json'));
  return path.join(dist, 'mcp.js');
}

/** The path of a freshly built mcp.js (built on the first call; removed when the process exits). */
export function freshMcpBundle(): Promise<string> {
  if (!built) {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'dp-mcp-bundle-'));
    process.once('exit', () => fs.rmSync(dir, { recursive: true, force: true }));
    built = buildInto(dir);
  }
  return built;
}

/** What StrykerJS keeps on the global object of an instrumented process. */
interface StrykerContext {
  activeMutant?: string;
  currentTestId?: string;
  mutantCoverage?: { static: Record<string, number>; perTest: Record<string, Record<string, number>> };
}
const stryker = (): StrykerContext | undefined =>
  (globalThis as { __stryker__?: StrykerContext }).__stryker__;
const coverageFiles: string[] = [];

/**
 * Variables to add to a spawned server's environment. Empty in an ordinary run. Under StrykerJS
 * (`npm run mutation -- mcp`) the bundle holds the mutants, but the server is another process: it
 * gets the active mutant, and reports what it covered for the spawning test (scripts/mutation-child.cjs),
 * merged below, so the mutants only the server's process reaches are run, and can be killed.
 */
export function mutantEnv(): Record<string, string> {
  const ns = stryker();
  if (!ns) return {};
  const file = path.join(os.tmpdir(), `dp-stryker-cov-${process.pid}-${coverageFiles.length}.json`);
  coverageFiles.push(file);
  return {
    ...(ns.activeMutant !== undefined ? { __STRYKER_ACTIVE_MUTANT__: String(ns.activeMutant) } : {}),
    ...(ns.currentTestId ? { DP_STRYKER_TEST_ID: ns.currentTestId } : {}),
    DP_STRYKER_COVERAGE_FILE: file,
    NODE_OPTIONS: `--require ${JSON.stringify(path.join(root, 'scripts', 'mutation-child.cjs'))}`,
  };
}

// After every suite (the servers have been closed): the servers' coverage joins this process's,
// which StrykerJS reads when the run ends.
after(async () => {
  const ns = stryker();
  if (!ns) return;
  const into = (ns.mutantCoverage ??= { static: {}, perTest: {} });
  for (const file of coverageFiles.splice(0)) {
    // A server closed in the last hook may still be exiting: give it a moment (not an assertion).
    for (let i = 0; i < 30 && !fs.existsSync(file); i++) await new Promise((r) => setTimeout(r, 100));
    if (!fs.existsSync(file)) continue;
    const child = JSON.parse(fs.readFileSync(file, 'utf8')) as NonNullable<StrykerContext['mutantCoverage']>;
    fs.rmSync(file, { force: true });
    const add = (to: Record<string, number>, from: Record<string, number> = {}) => {
      for (const [id, n] of Object.entries(from)) to[id] = (to[id] ?? 0) + n;
    };
    add(into.static, child.static);
    for (const [test, hits] of Object.entries(child.perTest ?? {})) add((into.perTest[test] ??= {}), hits);
  }
});

/**
 * A server's environment: PATH, the mutant's variables, and with `sb` the sandbox's URLs and tokens
 * (the deployment, profile and other settings are each test's own, in `extra`).
 */
export function serverEnv(sb?: SandboxHandle, extra: Record<string, string> = {}): Record<string, string> {
  return {
    PATH: process.env.PATH ?? '',
    ...mutantEnv(),
    ...(sb
      ? {
          DASHBOARD_PLATFORM_URL: sb.urls.platform,
          DASHBOARD_PLATFORM_DATA_API_URL: sb.urls.dataApi,
          DASHBOARD_PLATFORM_TOKEN: sb.tokens.admin,
          DASHBOARD_PLATFORM_DATA_API_TOKEN: sb.tokens.dataApi,
        }
      : {}),
    ...extra,
  };
}

/** The stdio transport to the server `bundle` run in `cwd` against the sandbox `sb`. */
export function serverTransport(
  bundle: string,
  cwd: string,
  sb: SandboxHandle,
  extra: Record<string, string>,
  stderr: 'ignore' | 'pipe' = 'ignore',
): StdioClientTransport {
  return new StdioClientTransport({
    command: process.execPath,
    args: [bundle],
    cwd,
    stderr,
    env: serverEnv(sb, extra),
  });
}
