#!/usr/bin/env node
// `npm run demo`: builds the extension and opens VS Code with it loaded on demo/ (whose settings
// select the Sandbox profile). With a local `code` executable it opens the desktop VS Code;
// otherwise it serves VS Code through code-server and prints the URL to open.
// Options: --port N (or DP_DEMO_PORT, default 8080), --web (use code-server even if `code` exists).
import { execFileSync, spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { fileURLToPath } from 'node:url';
import { installExtension, startCodeServer } from './vscode-web.mjs';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const args = process.argv.slice(2);
const portArg = args.indexOf('--port');
const port = Number(portArg >= 0 ? args[portArg + 1] : (process.env.DP_DEMO_PORT ?? 8080));
const workspace = path.join(root, 'demo');

console.log('Building the extension…');
execFileSync('node', ['esbuild.mjs'], { cwd: root, stdio: 'inherit' });

const code = args.includes('--web') ? undefined : which('code');
if (code) {
  console.log(`Opening VS Code (${code}) with the extension loaded on ${workspace}`);
  spawnSync(code, ['--extensionDevelopmentPath', root, workspace], { stdio: 'inherit' });
  process.exit(0);
}

const base = path.join(os.homedir(), '.cache', 'dashboard-platform-demo');
const extensionsDir = path.join(base, 'extensions');
const userDataDir = path.join(base, 'user-data');
fs.mkdirSync(base, { recursive: true });
installExtension(root, extensionsDir);
console.log('Starting VS Code in the browser (code-server); the first run installs it (several minutes)…');
const server = await startCodeServer({
  port,
  userDataDir,
  extensionsDir,
  workspace,
  tmp: base,
  settings: {
    'workbench.startupEditor': 'none',
    'workbench.editorAssociations': { '*.dashboard.json': 'dashboardPlatform.dashboardEditor' },
  },
});
const url = `http://127.0.0.1:${port}/?folder=${encodeURIComponent(workspace)}`;
console.log(`\nDashboard Platform demo is running. Open:\n\n  ${url}\n\nPress Ctrl-C to stop.`);
const stop = async () => {
  await server.stop();
  process.exit(0);
};
process.on('SIGINT', stop);
process.on('SIGTERM', stop);
setInterval(() => {
  if (server.exited) {
    console.error(`code-server stopped; see ${server.logPath}`);
    process.exit(1);
  }
}, 1000);

function which(cmd) {
  const r = spawnSync('bash', ['-lc', `command -v ${cmd}`], { encoding: 'utf8' });
  return r.status === 0 ? r.stdout.trim() : undefined;
}
