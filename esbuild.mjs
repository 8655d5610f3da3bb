// Bundles the extension host code (node, cjs), the standalone sandbox CLI, and one browser bundle
// per webview plus the notebook renderer. `--production` minifies; `--only=<name>` builds one entry.
//
// The extension host code is split so that activation loads only what it runs (see src/lazy.ts):
// dist/extension.js is the startup bundle; dist/api.js (HTTP stack, zod) and one bundle per feature
// are required on first use. Every source module belongs to exactly one bundle (the first group that
// reaches it); a later bundle reaches an earlier bundle's modules through its `__modules` registry,
// so classes (ApiError, UserCancelled) and state stay single. dist/bundles.json maps each lazily
// loaded module to its bundle.
import * as esbuild from 'esbuild';
import { cpSync, existsSync, mkdirSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join, relative, resolve } from 'node:path';

const production = process.argv.includes('--production');
const only = process.argv.find((a) => a.startsWith('--only='))?.slice('--only='.length);
const root = process.cwd();

const common = { bundle: true, sourcemap: !production, minify: production, logLevel: 'warning' };
const nodeCommon = {
  ...common,
  platform: 'node',
  format: 'cjs',
  target: 'node20',
  // ES module builds first: some packages (jsonc-parser) ship a UMD `main` whose dynamic requires
  // a bundle cannot follow.
  mainFields: ['module', 'main'],
};

/** Self-contained node bundles. */
const nodeEntries = {
  // In dist/cli/, which .vscodeignore leaves out of the package: neither the extension nor its MCP
  // server loads the CLI (npm run sandbox).
  sandbox: { entryPoints: ['src/sandbox/cli.ts'], outfile: 'dist/cli/sandbox-cli.js', external: [] },
  // The sandbox as a library (tests, benchmarks, scripts).
  'sandbox-lib': { entryPoints: ['src/sandbox/index.ts'], outfile: 'dist/sandbox.js', external: [] },
  // The worker thread the Sandbox profile runs the sandbox in (src/profiles/sandboxLoader.ts), so its
  // synchronous SQL engine never blocks the extension host.
  'sandbox-worker': {
    entryPoints: ['src/sandbox/worker.ts'],
    outfile: 'dist/sandboxWorker.js',
    external: [],
  },
  // The worker thread Export Results parses, formats and writes rows in (src/notebook/exportRunner.ts),
  // so a large export never parses on the extension host's thread.
  'export-worker': {
    entryPoints: ['src/notebook/exportWorker.ts'],
    outfile: 'dist/exportWorker.js',
    external: [],
  },
  // The MCP server (stdio), spawned by VS Code or run on its own; see src/mcp/server.ts.
  mcp: { entryPoints: ['src/mcp/server.ts'], outfile: 'dist/mcp.js', external: [] },
};

/**
 * The extension host's bundles, in ownership order. `extension` is what VS Code loads; the rest are
 * entered only through lazyModule() (src/lazy.ts) with the paths listed here.
 */
const hostGroups = [
  { name: 'extension', entries: ['src/extension.ts'] },
  // The explorer's tree (nodes, looks, loaders), loaded when the view first asks for a row.
  { name: 'tree', entries: ['src/explorer/explorerProvider.ts'] },
  {
    name: 'api',
    entries: ['src/api/index.ts', 'src/profiles/profileSchema.ts', 'src/profiles/platformFactory.ts'],
  },
  { name: 'profiles', entries: ['src/profiles/profileCommands.ts'] },
  { name: 'explorer', entries: ['src/explorer/explorerCommands.ts'] },
  // The features that act on the explorer's rows, each loaded on first use of one of its commands.
  { name: 'workspace', entries: ['src/workspace/workspaceFeature.ts'] },
  { name: 'deployments', entries: ['src/deployments/deploymentsFeature.ts'] },
  { name: 'notifications', entries: ['src/notifications/notificationsFeature.ts'] },
  { name: 'admin', entries: ['src/admin/adminFeature.ts'] },
  { name: 'embedDash', entries: ['src/dashboards/comments/embedDashboardFeature.ts'] },
  { name: 'notebook', entries: ['src/notebook/notebookFeature.ts'] },
  { name: 'chat', entries: ['src/chat/chatFeature.ts'] },
  { name: 'dashboards', entries: ['src/dashboards/dashboardsFeature.ts'] },
  { name: 'agents', entries: ['src/agents/agentsFeature.ts'] },
  { name: 'model', entries: ['src/model/modelFeature.ts'] },
];
/** The startup bundle must stay free of these (and under the size limit). */
const STARTUP_FORBIDDEN = /node_modules\/(undici|zod)\//;
const STARTUP_MAX_BYTES = 500 * 1024;

const rel = (p) => relative(root, p).split('\\').join('/');

/** Resolves imports owned by an earlier group to that group's registry. */
function ownershipPlugin(owner, current) {
  return {
    name: 'ownership',
    setup(build) {
      build.onResolve({ filter: /.*/ }, async (args) => {
        if (args.namespace === 'registry' || args.pluginData?.skip) return undefined;
        if (args.kind === 'entry-point' || args.path === 'vscode') return undefined;
        const r = await build.resolve(args.path, {
          kind: args.kind,
          resolveDir: args.resolveDir,
          importer: args.importer,
          pluginData: { skip: true },
        });
        if (r.errors.length || r.external || !r.path) return undefined;
        const group = owner.get(rel(r.path));
        if (!group || group === current) return undefined;
        return { path: rel(r.path), namespace: 'registry', pluginData: { group } };
      });
      build.onResolve({ filter: /^\.\/[\w-]+\.js$/, namespace: 'registry' }, (args) => ({
        path: args.path,
        external: true,
      }));
      build.onLoad({ filter: /.*/, namespace: 'registry' }, (args) => ({
        contents: `module.exports = require(${JSON.stringify(`./${args.pluginData.group}.js`)}).__modules[${JSON.stringify(args.path)}];`,
        loader: 'js',
      }));
    },
  };
}

/**
 * One `vscode` namespace per bundle. esbuild turns each `import * as vscode from 'vscode'` of an
 * external CommonJS module into its own `__toESM(require('vscode'))`, which copies every member of
 * the API object: 34 copies in the startup bundle took most of its load time inside VS Code (over
 * 60 ms on a loaded machine). Every module of a bundle now shares one ES module that re-exports
 * `vscode` (one require, one copy).
 */
const VSCODE_ONCE = 'vscode-once';
function vscodeOncePlugin() {
  return {
    name: VSCODE_ONCE,
    setup(build) {
      build.onResolve({ filter: /^vscode$/ }, (args) =>
        args.namespace === VSCODE_ONCE
          ? { path: 'vscode', external: true }
          : { path: 'vscode', namespace: VSCODE_ONCE },
      );
      build.onLoad({ filter: /.*/, namespace: VSCODE_ONCE }, () => ({
        contents: "export * from 'vscode';",
        loader: 'js',
      }));
    },
  };
}

/** An entry exporting the group's entries plus a registry of every ES module it owns. */
function registryEntry(group, modules) {
  const lines = [];
  const keys = [];
  modules.forEach((m, i) => {
    lines.push(`import * as m${i} from ${JSON.stringify(resolve(root, m))};`);
    keys.push(`  ${JSON.stringify(m)}: m${i},`);
  });
  if (group.name === 'extension')
    lines.push(`export * from ${JSON.stringify(resolve(root, group.entries[0]))};`);
  lines.push(`export const __modules = {\n${keys.join('\n')}\n};`);
  return {
    contents: lines.join('\n'),
    resolveDir: root,
    sourcefile: `${group.name}-registry.js`,
    loader: 'js',
  };
}

async function buildHostGroups() {
  const owner = new Map(); // module path -> group name
  const lazy = {}; // entry module -> bundle name, for src/lazy.ts
  for (const group of hostGroups) {
    const options = {
      ...nodeCommon,
      external: ['vscode'],
      plugins: [ownershipPlugin(owner, group.name), vscodeOncePlugin()],
      metafile: true,
    };
    // Pass 1: which modules this group reaches that no earlier group owns.
    const probe = await esbuild.build({
      ...options,
      entryPoints: group.entries,
      write: false,
      outdir: 'dist/.probe',
      sourcemap: false,
      minify: false,
      logLevel: 'error',
    });
    const mine = [];
    for (const [input, info] of Object.entries(probe.metafile.inputs)) {
      if (input.startsWith('registry:') || input.startsWith(`${VSCODE_ONCE}:`) || owner.has(input)) continue;
      const isSource = input.startsWith('src/');
      if (isSource || info.format === 'esm') mine.push(input);
    }
    for (const m of mine) owner.set(m, group.name);
    for (const e of group.entries) if (group.name !== 'extension') lazy[e] = group.name;
    // Pass 2: the bundle, with its registry.
    const built = await esbuild.build({
      ...options,
      stdin: registryEntry(group, mine),
      outfile: `dist/${group.name}.js`,
    });
    const out = built.metafile.outputs[`dist/${group.name}.js`];
    if (group.name === 'extension') {
      const bad = Object.keys(out.inputs).filter((i) => STARTUP_FORBIDDEN.test(i));
      if (bad.length)
        throw new Error(`esbuild.mjs: the startup bundle must not contain ${bad.slice(0, 3).join(', ')}…`);
      if (out.bytes > STARTUP_MAX_BYTES) {
        throw new Error(`esbuild.mjs: dist/extension.js is ${out.bytes} bytes (limit ${STARTUP_MAX_BYTES})`);
      }
    }
  }
  writeFileSync('dist/bundles.json', JSON.stringify(lazy, null, 2) + '\n');
}

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

// A whole build starts from an empty dist: a file an older build left (a bundle since renamed or moved)
// would otherwise be packaged and tested as if it were still built.
if (!only) rmSync('dist', { recursive: true, force: true });
mkdirSync('dist', { recursive: true });
const all = { extension: {}, ...nodeEntries, ...webviewEntries(), 'dashboard-schema': {} };
const selected = Object.entries(all).filter(
  ([name]) => !only || name === only || name.startsWith(`${only}:`),
);
if (selected.length === 0) {
  console.error(`esbuild.mjs: nothing matches --only=${only}; known: ${Object.keys(all).join(', ')}`);
  process.exit(1);
}
await Promise.all(
  selected.map(([name, options]) => {
    if (name === 'extension') return buildHostGroups();
    if (name === 'dashboard-schema') return writeDashboardSchema();
    if (name.startsWith('webview:')) {
      return esbuild.build({ ...common, ...options });
    }
    if (!existsSync(options.entryPoints[0])) return Promise.resolve();
    return esbuild.build({ ...nodeCommon, ...options });
  }),
);
copyRuntimeAssets();
