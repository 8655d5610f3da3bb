#!/usr/bin/env node
// `npm run demo`: builds the extension and opens VS Code with it loaded on a copy of demo/ (whose
// settings select the Sandbox profile). The copy lives in out/demo-workspace (ignored by git), so
// trying things never modifies tracked files; it is kept between runs (--reset makes it afresh).
// With a local `code` executable it opens the desktop VS Code; otherwise it serves VS Code through
// code-server (installed on first use, without Chromium: the user brings the browser) and prints
// the URL to open.
// Options: --port N (or DP_DEMO_PORT, default 8080), --web (use code-server even if `code` exists),
// --reset (copy demo/ again, and delete the sandbox's saved data: it starts from its sample data).
import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as net from 'node:net';
import * as os from 'node:os';
import * as path from 'node:path';
import { fileURLToPath } from 'node:url';
import { SetupError, installExtension, startCodeServer } from './vscode-web.mjs';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const args = process.argv.slice(2);
const portArg = args.indexOf('--port');
const port = Number(portArg >= 0 ? args[portArg + 1] : (process.env.DP_DEMO_PORT ?? 8080));
const workspace = path.join(root, 'out', 'demo-workspace');

async function main() {
  if (!Number.isInteger(port) || port <= 0 || port > 65535)
    throw new SetupError(`--port needs a port number (got ${portArg >= 0 ? args[portArg + 1] : port})`);
  console.log('Building the extension…');
  const build = spawnSync('node', ['esbuild.mjs'], { cwd: root, stdio: 'inherit' });
  if (build.status !== 0)
    throw new SetupError('the build failed (see above); fix it and run npm run demo again');

  const reset = args.includes('--reset');
  if (reset) fs.rmSync(workspace, { recursive: true, force: true });
  if (fs.existsSync(workspace)) {
    console.log(`Using the demo workspace ${workspace} (npm run demo -- --reset starts it afresh)`);
  } else {
    fs.cpSync(path.join(root, 'demo'), workspace, { recursive: true });
    console.log(`Copied demo/ to ${workspace}; changes you make there stay out of git`);
  }

  const code = args.includes('--web') ? undefined : which('code');
  if (code) {
    if (reset) resetSandboxData(desktopUserDataDir());
    console.log(`Opening VS Code (${code}) with the extension loaded on ${workspace}`);
    spawnSync(code, ['--extensionDevelopmentPath', root, workspace], { stdio: 'inherit' });
    return;
  }

  if (!(await portIsFree(port)))
    throw new SetupError(`port ${port} is in use; pick another: npm run demo -- --port ${port + 1}`);
  const base = path.join(os.homedir(), '.cache', 'dashboard-platform-demo');
  const extensionsDir = path.join(base, 'extensions');
  const userDataDir = path.join(base, 'user-data');
  fs.mkdirSync(base, { recursive: true });
  if (reset) resetSandboxData(userDataDir);
  installExtension(root, extensionsDir);
  console.log('Starting VS Code in the browser (code-server); the first run installs it (several minutes)…');
  const server = await startCodeServer({
    port,
    userDataDir,
    extensionsDir,
    workspace,
    tmp: base,
    browser: false,
    settings: {
      'workbench.startupEditor': 'none',
      'workbench.editorAssociations': { '*.dashboard.json': 'dashboardPlatform.dashboardEditor' },
      // The sandbox's local ports are the extension's own: no "port forwarded" toasts about them.
      'remote.autoForwardPorts': false,
      'remote.restoreForwardedPorts': false,
      'remote.otherPortsAttributes': { onAutoForward: 'ignore' },
      // No empty secondary side bar (the built-in chat is off) on a first start.
      'workbench.secondarySideBar.defaultVisibility': 'hidden',
      'chat.disableAIFeatures': true,
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
}

/**
 * Deletes the sandbox's saved data (src/sandboxFeature: sandbox/state.json in the extension's global
 * storage under `userDataDir`), as "Dashboard Platform: Reset Sandbox Data" does.
 */
function resetSandboxData(userDataDir) {
  const file = path.join(
    userDataDir,
    'User',
    'globalStorage',
    'dashboard-platform.dashboard-platform',
    'sandbox',
    'state.json',
  );
  const existed = fs.existsSync(file);
  fs.rmSync(file, { force: true });
  console.log(existed ? `Deleted the sandbox's saved data (${file})` : 'The sandbox had no saved data');
}

/** Where the desktop VS Code keeps its user data by default (its global storage is under it). */
function desktopUserDataDir() {
  if (process.platform === 'darwin') return path.join(os.homedir(), 'Library', 'Application Support', 'Code');
  if (process.platform === 'win32') return path.join(process.env.APPDATA ?? os.homedir(), 'Code');
  return path.join(process.env.XDG_CONFIG_HOME ?? path.join(os.homedir(), '.config'), 'Code');
}

function which(cmd) {
  const r = spawnSync('bash', ['-lc', `command -v ${cmd}`], { encoding: 'utf8' });
  return r.status === 0 ? r.stdout.trim() : undefined;
}

function portIsFree(p) {
  return new Promise((resolve) => {
    const srv = net.createServer();
    srv.once('error', () => resolve(false));
    srv.listen(p, '127.0.0.1', () => srv.close(() => resolve(true)));
  });
}

main().catch((e) => {
  // Setup failures were explained where they happened; anything else is a bug worth its stack.
  console.error(`\nnpm run demo: ${e instanceof SetupError ? e.message : (e?.stack ?? e)}`);
  process.exit(1);
});
