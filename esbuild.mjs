// Bundles the extension host code (node, cjs), the standalone sandbox CLI, and one browser bundle
// per webview plus the notebook renderer. `--production` minifies; `--only=<name>` builds one entry.
import * as esbuild from 'esbuild';
import { cpSync, existsSync, mkdirSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';

const production = process.argv.includes('--production');
const only = process.argv.find((a) => a.startsWith('--only='))?.slice('--only='.length);

const common = { bundle: true, sourcemap: !production, minify: production, logLevel: 'warning' };

/** Node-side bundles. */
const nodeEntries = {
  extension: { entryPoints: ['src/extension.ts'], outfile: 'dist/extension.js', external: ['vscode'] },
  sandbox: { entryPoints: ['src/sandbox/cli.ts'], outfile: 'dist/sandbox-cli.js', external: [] },
  // Loaded by the extension only when the Sandbox profile is first used (see src/profiles/sandboxLoader.ts).
  'sandbox-lib': { entryPoints: ['src/sandbox/index.ts'], outfile: 'dist/sandbox.js', external: [] },
  // The MCP server (stdio), spawned by VS Code or run on its own; see src/mcp/server.ts.
  mcp: { entryPoints: ['src/mcp/server.ts'], outfile: 'dist/mcp.js', external: [] },
};

/** Browser bundles: every folder in webview/ with an index.ts becomes dist/webview/<folder>.js. */
function webviewEntries() {
  if (!existsSync('webview')) return {};
  const entries = {};
  for (const dir of readdirSync('webview', { withFileTypes: true })) {
    if (!dir.isDirectory()) continue;
    const entry = join('webview', dir.name, 'index.ts');
    if (!existsSync(entry)) continue;
    // The notebook renderer is loaded by VS Code as an ES module, the panels as plain scripts.
    const isRenderer = dir.name === 'renderer';
    entries[`webview:${dir.name}`] = {
      entryPoints: [entry],
      outfile: isRenderer ? 'dist/renderer.js' : `dist/webview/${dir.name}.js`,
      platform: 'browser',
      format: isRenderer ? 'esm' : 'iife',
      target: 'es2022',
    };
  }
  return entries;
}

function copyRuntimeAssets() {
  // sql.js loads its WebAssembly from beside the bundle at run time; webviews load the codicon font
  // from dist/codicons (inside their localResourceRoots).
  mkdirSync('dist/codicons', { recursive: true });
  cpSync('node_modules/sql.js/dist/sql-wasm.wasm', 'dist/sql-wasm.wasm');
  cpSync('node_modules/@vscode/codicons/dist/codicon.css', 'dist/codicons/codicon.css');
  cpSync('node_modules/@vscode/codicons/dist/codicon.ttf', 'dist/codicons/codicon.ttf');
}

/** Writes the JSON Schema of `*.dashboard.json` generated from the zod schema (src/dashboards/dashboardSchema.ts). */
async function writeDashboardSchema() {
  const built = await esbuild.build({
    ...common,
    entryPoints: ['src/dashboards/dashboardSchema.ts'],
    platform: 'node',
    format: 'cjs',
    sourcemap: false,
    write: false,
  });
  const mod = { exports: {} };
  new Function('module', 'exports', 'require', built.outputFiles[0].text)(
    mod,
    mod.exports,
    createRequire(import.meta.url),
  );
  mkdirSync('dist/schemas', { recursive: true });
  writeFileSync(mod.exports.DASHBOARD_SCHEMA_PATH, mod.exports.dashboardSchemaText());
}

if (production && !only) rmSync('dist', { recursive: true, force: true });
const all = { ...nodeEntries, ...webviewEntries(), 'dashboard-schema': {} };
const selected = Object.entries(all).filter(
  ([name]) => !only || name === only || name.startsWith(`${only}:`),
);
if (selected.length === 0) {
  console.error(`esbuild.mjs: nothing matches --only=${only}; known: ${Object.keys(all).join(', ')}`);
  process.exit(1);
}
await Promise.all(
  selected.map(([name, options]) => {
    if (name === 'dashboard-schema') return writeDashboardSchema();
    if (name.startsWith('webview:')) {
      return esbuild.build({ ...common, ...options });
    }
    if (!existsSync(options.entryPoints[0])) return Promise.resolve();
    // ES module builds first: some packages (jsonc-parser) ship a UMD `main` whose dynamic requires
    // a bundle cannot follow.
    return esbuild.build({
      ...common,
      platform: 'node',
      format: 'cjs',
      target: 'node20',
      mainFields: ['module', 'main'],
      ...options,
    });
  }),
);
copyRuntimeAssets();
