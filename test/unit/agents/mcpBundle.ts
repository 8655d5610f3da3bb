// The MCP server bundle the stdio tests spawn, built from TODAY's sources (src/mcp/server.ts and
// the sandbox library it loads with --sandbox) into a temporary dist/, once per test run. The
// tests used to spawn dist/mcp.js, which `npm run test:unit` does not rebuild, so a defect in the
// sources passed against a stale bundle.
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { build } from 'esbuild';

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
