#!/usr/bin/env node
// Runs test/integration inside a real VS Code on machines that cannot download one: code-server
// (VS Code's server and web workbench, from the npm registry) opened in Debian's headless Chromium
// through playwright-core. The suites run in the extension host via the test-host extension
// (test/host), which writes a JSON result this script waits for, with hard time limits so a VS Code
// that never comes up fails the run instead of hanging it.
//
// Suites save screenshots to out/screenshots/ (ignored by git). With --screenshots it runs the
// README's screenshot walk instead (test/screenshots, on a copy of demo/, at 1280x800) and saves
// those images to docs/images/: `npm run screenshots`.
//
// Environment: DP_TEST_TIMEOUT_MS (whole run, default 25 min), DP_TEST_GREP (mocha grep),
// DP_VSCODE_CACHE (see scripts/setup-vscode.sh), DP_KEEP_TEMP=1 (keep the temp folder).
import { once } from 'node:events';
import * as fs from 'node:fs';
import * as http from 'node:http';
import * as os from 'node:os';
import * as path from 'node:path';
import { fileURLToPath } from 'node:url';
import {
  SetupError,
  installExtension,
  startCodeServer,
  launchBrowser,
  freePort,
  log,
} from './vscode-web.mjs';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const TOTAL_MS = Number(process.env.DP_TEST_TIMEOUT_MS ?? 25 * 60_000);
const STARTUP_MS = 4 * 60_000;
/** Installing code-server and Node 24 into an empty tool cache, at most. */
const SETUP_MS = 30 * 60_000;
// Clicks wait for their target this long: on a loaded 2-core machine a modal or a webview can take
// well over 10 s to appear.
const CLICK_MS = 30_000;
const walk = process.argv.includes('--screenshots');
// --model-folder: the data model mounted as a workspace folder. Adding a folder to a single-folder
// window makes VS Code restart the extension host (the suites would die with it), so this run
// opens a .code-workspace file that already holds a `dpmodel:` folder beside the fixture folder:
// VS Code resolves it at start through the extension's file system, as when a saved workspace
// with a model folder is reopened. Its suites are in test/modelFolder.
const modelFolder = process.argv.includes('--model-folder');
const mode = walk
  ? {
      index: 'out/test/screenshots/index.js',
      workspace: path.join(root, 'demo'),
      images: path.join(root, 'docs', 'images'),
      viewport: { width: 1280, height: 800 },
    }
  : modelFolder
    ? {
        index: 'out/test/modelFolder/index.js',
        workspace: path.join(root, 'test', 'fixtures', 'workspace'),
        images: path.join(root, 'out', 'screenshots'),
        viewport: { width: 1400, height: 900 },
        /** The model folder the workspace file adds: the sandbox's first deployment, branch "staging". */
        modelFolder: { uri: 'dpmodel://1/staging', name: 'Sandbox Analytics · staging' },
      }
    : {
        index: 'out/test/integration/index.js',
        workspace: path.join(root, 'test', 'fixtures', 'workspace'),
        images: path.join(root, 'out', 'screenshots'),
        viewport: { width: 1400, height: 900 },
      };

const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'dp-it-'));
const cleanups = [];
let exitCode = 1;

async function main() {
  for (const f of [mode.index, 'dist/extension.js']) {
    if (!fs.existsSync(path.join(root, f)))
      throw new Error(`${f} is missing: run "npm run compile && npm run build" first`);
  }
  const paths = {
    userData: path.join(tmp, 'user-data'),
    extensions: path.join(tmp, 'extensions'),
    workspace: path.join(tmp, 'workspace'),
    progressPath: path.join(tmp, 'progress.log'),
    startedPath: path.join(tmp, 'started'),
    resultPath: path.join(tmp, 'result.json'),
    // Where the suites' runner keeps its progress across the window reloads of journeys.
    statePath: path.join(tmp, 'run-state.json'),
  };
  fs.cpSync(mode.workspace, paths.workspace, { recursive: true });
  // What VS Code opens: the folder, or a workspace file holding it and the model folder.
  let opened = paths.workspace;
  if (mode.modelFolder) {
    opened = path.join(tmp, 'model.code-workspace');
    fs.writeFileSync(
      opened,
      JSON.stringify(
        {
          folders: [{ path: paths.workspace }, mode.modelFolder],
          // A multi-root window ignores window-scoped settings of its folders.
          settings: { 'dashboardPlatform.activeProfile': 'Sandbox' },
        },
        null,
        2,
      ),
    );
  }
  installExtension(root, paths.extensions);
  fs.cpSync(
    path.join(root, 'test', 'host'),
    path.join(paths.extensions, 'dashboard-platform.dashboard-platform-test-host-0.0.1'),
    {
      recursive: true,
    },
  );
  fs.writeFileSync(paths.progressPath, '');

  // UI control for the suites: screenshots, keys and clicks through Playwright.
  let page;
  /** The first element matching `selector` in any frame of the page (webviews are nested frames). */
  // The element in the webview frame where it is on screen: a webview of an editor in another tab
  // (kept alive while hidden) may hold the same element, so the first frame that has it is used
  // only when none shows it within the attempts.
  const inWebview = async (selector) => {
    let hidden;
    for (let attempt = 0; attempt < 50; attempt++) {
      for (const frame of page.frames()) {
        const loc = frame.locator(selector).first();
        if ((await loc.count().catch(() => 0)) === 0) continue;
        if (await loc.isVisible().catch(() => false)) return loc;
        hidden ??= loc;
      }
      await new Promise((r) => setTimeout(r, 200));
    }
    if (hidden) return hidden;
    throw new Error(`no element in any webview matches ${selector}`);
  };
  const control = http.createServer(async (req, res) => {
    let body = '';
    for await (const chunk of req) body += chunk;
    try {
      const args = body ? JSON.parse(body) : {};
      if (!page) throw new Error('no page yet');
      if (req.url === '/screenshot') {
        // An optional folder ("polish/…") and a crop: `selector` (the union of the matching
        // elements of the workbench page) or `clip` ({x, y, width, height}).
        if (!/^([a-z0-9-]+\/)?[a-z0-9-]+$/.test(args.name ?? ''))
          throw new Error('name: lowercase letters, digits and dashes, optionally in one folder');
        const file = path.join(mode.images, `${args.name}.png`);
        fs.mkdirSync(path.dirname(file), { recursive: true });
        let clip = args.clip;
        if (args.selector) {
          const boxes = [];
          for (const loc of await page.locator(args.selector).all()) {
            const b = await loc.boundingBox();
            if (b && b.width > 0 && b.height > 0) boxes.push(b);
          }
          if (boxes.length === 0) throw new Error(`nothing visible matches ${args.selector}`);
          const x = Math.max(0, Math.min(...boxes.map((b) => b.x)));
          const y = Math.max(0, Math.min(...boxes.map((b) => b.y)));
          const right = Math.max(...boxes.map((b) => b.x + b.width));
          const bottom = Math.max(...boxes.map((b) => b.y + b.height));
          clip = { x, y, width: right - x, height: bottom - y };
        }
        await page.screenshot({ path: file, ...(clip ? { clip } : {}) });
        log(`screenshot ${path.relative(root, file)}`);
      } else if (req.url === '/text') {
        // The text of the first element matching a selector in the workbench page ('' if none).
        const loc = page.locator(args.selector).first();
        const text = (await loc.count()) > 0 ? await loc.innerText().catch(() => '') : '';
        res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ text }));
        return;
      } else if (req.url === '/keys') {
        for (const key of args.keys ?? []) await page.keyboard.press(key);
      } else if (req.url === '/type') {
        await page.keyboard.type(String(args.text ?? ''), { delay: 10 });
      } else if (req.url === '/webview-drag') {
        // A real pointer drag on an element inside a webview (its frames are searched in turn).
        // The page may be re-rendering (a breakpoint shown, report previews arriving): wait for the
        // element to be on screen, as a click does (a CI run at load found it between two renders).
        const loc = await inWebview(args.selector);
        await loc.waitFor({ state: 'visible', timeout: CLICK_MS }).catch(() => undefined);
        const box = await loc.boundingBox();
        if (!box) throw new Error(`${args.selector} is not visible`);
        const x = box.x + (args.offsetX ?? Math.min(box.width / 2, 40));
        const y = box.y + (args.offsetY ?? Math.min(box.height / 2, 20));
        await page.mouse.move(x, y);
        await page.mouse.down();
        for (let i = 1; i <= 10; i++) await page.mouse.move(x + (args.dx * i) / 10, y + (args.dy * i) / 10);
        await page.mouse.up();
      } else if (req.url === '/webview-click') {
        await (await inWebview(args.selector)).click({ timeout: CLICK_MS });
      } else if (req.url === '/count') {
        // How many visible elements of the workbench page match a selector.
        let count = 0;
        for (const loc of await page.locator(args.selector).all()) if (await loc.isVisible()) count++;
        res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ count }));
        return;
      } else if (req.url === '/webview-text') {
        // The text of the first element matching a selector in a webview ('' if none shows up).
        const loc = await inWebview(args.selector).catch(() => undefined);
        const text = loc ? await loc.innerText().catch(() => '') : '';
        res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ text }));
        return;
      } else if (req.url === '/webview-fill') {
        // Types a value into a webview field and leaves it (Tab), so its change event fires.
        const loc = await inWebview(args.selector);
        await loc.fill(String(args.text ?? ''));
        await loc.press('Tab');
      } else if (req.url === '/webview-keys') {
        const loc = await inWebview(args.selector);
        await loc.focus();
        for (const key of args.keys ?? []) await loc.press(key);
      } else if (req.url === '/click') {
        // A hover left open where the pointer last rested (a tree row's tooltip) covers what is
        // clicked next: move the pointer away and let it close first.
        await page.mouse.move(1, 1);
        await page
          .locator(
            '.context-view:has(.monaco-hover, .workbench-hover, .monaco-hover-content) >> visible=true',
          )
          .first()
          .waitFor({ state: 'hidden', timeout: 3000 })
          .catch(() => undefined);
        const locator = args.selector
          ? page.locator(args.selector)
          : page.getByText(String(args.text), { exact: false });
        await locator.first().click({ timeout: CLICK_MS });
      } else {
        res.writeHead(404).end('unknown');
        return;
      }
      res.writeHead(200).end('ok');
    } catch (e) {
      res.writeHead(500).end(String(e?.message ?? e));
    }
  });
  control.listen(0, '127.0.0.1');
  await once(control, 'listening');
  cleanups.push(() => control.close());
  const controlUrl = `http://127.0.0.1:${control.address().port}`;

  const configPath = path.join(tmp, 'host-config.json');
  fs.writeFileSync(
    configPath,
    JSON.stringify({
      testIndex: path.join(root, mode.index),
      progressPath: paths.progressPath,
      startedPath: paths.startedPath,
      resultPath: paths.resultPath,
      statePath: paths.statePath,
      controlUrl,
      grep: process.env.DP_TEST_GREP || undefined,
    }),
  );

  const port = await freePort();
  const server = await startCodeServer({
    port,
    userDataDir: paths.userData,
    extensionsDir: paths.extensions,
    workspace: opened,
    tmp,
    env: { DP_TEST_CONFIG: configPath },
    // VS Code for the Web auto-saves 1 s after an edit by default. The suites save explicitly, and
    // a TextDocument.save() that reaches VS Code while that auto-save runs its save participants is
    // refused as a save from a participant: it answers false, then the auto-save writes the file.
    // Off, as on the desktop, so what a suite asserts about its own save is deterministic.
    settings: { 'files.autoSave': 'off' },
  });
  cleanups.push(() => server.stop());

  const browser = await launchBrowser();
  cleanups.push(() => browser.close().catch(() => undefined));
  // Clipboard access lets suites read back what copy commands wrote.
  page = await browser.newPage({
    viewport: mode.viewport,
    permissions: ['clipboard-read', 'clipboard-write'],
  });
  // A journey's window reload loads the workbench page again (and restarts the extension host);
  // the page object stays the same, so the UI control above keeps working.
  let loads = 0;
  page.on('load', () => {
    if (loads++ > 0) log('the workbench page loaded again (a window reload)');
  });
  const t0 = Date.now();
  const query = mode.modelFolder
    ? `workspace=${encodeURIComponent(opened)}`
    : `folder=${encodeURIComponent(paths.workspace)}`;
  await page.goto(`http://127.0.0.1:${port}/?${query}`, {
    timeout: 60_000,
  });
  log(`workbench opened at http://127.0.0.1:${port}; waiting for the extension host`);

  let printed = 0;
  const printProgress = () => {
    const text = fs.readFileSync(paths.progressPath, 'utf8');
    if (text.length > printed) {
      process.stdout.write(text.slice(printed));
      printed = text.length;
    }
  };
  const deadline = Date.now() + TOTAL_MS;
  armWatchdog(TOTAL_MS + 120_000);
  while (!fs.existsSync(paths.startedPath)) {
    if (Date.now() - t0 > STARTUP_MS) {
      await page.screenshot({ path: path.join(tmp, 'startup-failure.png') }).catch(() => undefined);
      throw new Error(
        `VS Code's extension host did not come up within ${STARTUP_MS / 1000} s (code-server log: ${server.logPath}; screenshot: ${tmp}/startup-failure.png)`,
      );
    }
    if (server.exited) throw new Error(`code-server exited early (log: ${server.logPath})`);
    await sleep(500);
  }
  log(`extension host up after ${((Date.now() - t0) / 1000).toFixed(1)} s`);
  while (!fs.existsSync(paths.resultPath)) {
    printProgress();
    if (Date.now() > deadline) throw new Error(`the suites did not finish within ${TOTAL_MS / 1000} s`);
    if (server.exited) throw new Error(`code-server exited during the run (log: ${server.logPath})`);
    await sleep(500);
  }
  await sleep(200);
  printProgress();
  const result = JSON.parse(fs.readFileSync(paths.resultPath, 'utf8'));
  if (!walk) {
    const activation = await activationTime(page).catch((e) => `unavailable (${e.message})`);
    fs.writeFileSync(
      path.join(root, 'out', 'integration-result.json'),
      JSON.stringify({ ...result, activationTime: activation }, null, 2),
    );
    console.log(`\nActivation time reported by VS Code (Running Extensions): ${activation}`);
    const parts = activationParts(activation, result.loadMarks);
    if (parts) console.log(parts);
  }
  console.log(
    `${walk ? 'Screenshot walk' : 'Integration'}: ${result.passed} passed, ${result.failed} failed, ${result.pending ?? 0} skipped in ${(result.durationMs / 1000).toFixed(1)} s${result.reloads ? ` (${result.reloads} window reload${result.reloads === 1 ? '' : 's'})` : ''}`,
  );
  for (const s of result.skipped ?? [])
    console.log(
      `  skipped: ${s.tests} test${s.tests === 1 ? '' : 's'} in ${s.suites.join(', ')}: ${s.reason}`,
    );
  for (const f of result.failures) console.log(`\nFAILED: ${f.title}\n${f.error}`);
  exitCode = result.failed === 0 && result.passed > 0 ? 0 : 1;
}

/**
 * Reads our extension's activation time from VS Code's "Running Extensions" editor, which the test
 * host opens after the suites (if it is not showing, from the command palette). The list is
 * virtual and sorted slowest first, so a fast activation is further down: scroll until our row is
 * rendered.
 */
async function activationTime(page) {
  const list = page.locator('.runtime-extensions-editor .monaco-list').first();
  // Our row by its exact name ("Dashboard Platform test host" is another row).
  const row = page
    .locator('.runtime-extensions-editor .monaco-list-row')
    .filter({ has: page.getByText('Dashboard Platform', { exact: true }) })
    .first();
  const opened = await list.waitFor({ timeout: 10_000 }).then(
    () => true,
    () => false,
  );
  if (!opened) {
    await page.keyboard.press('Escape');
    await page.keyboard.press('F1');
    await page.keyboard.type('Developer: Show Running Extensions', { delay: 5 });
    await sleep(500);
    await page.keyboard.press('Enter');
    await list.waitFor({ timeout: 15_000 });
  }
  await list.hover();
  for (let i = 0; i < 40 && !(await row.isVisible()); i++) {
    await page.mouse.wheel(0, 300);
    await sleep(150);
  }
  await row.waitFor({ timeout: 5_000 }).catch(async (e) => {
    const shot = path.join(root, 'out', 'screenshots', 'running-extensions-failure.png');
    await page.screenshot({ path: shot }).catch(() => undefined);
    throw new Error(`${e.message.split('\n')[0]} (screenshot: ${path.relative(root, shot)})`);
  });
  const text = (await row.innerText()).replace(/\s+/g, ' ');
  const match = text.match(/(\d+)\s*ms/);
  // The time's hover says what activated the extension (an event, a file, another extension).
  let why = /Startup/.test(text) ? 'startup activation' : 'activation';
  // Scrolling left a hover of another row open: move away until none shows, then hover ours.
  const hovers = page.locator('.monaco-hover:visible, .workbench-hover:visible');
  await page.mouse.move(0, 0);
  for (let i = 0; i < 20 && (await hovers.count()) > 0; i++) await sleep(100);
  const hovered = await row
    .locator('.activation-time')
    .first()
    .hover({ timeout: 3_000 })
    .then(async () => {
      // VS Code shows the hover after a delay.
      await sleep(1500);
      return hovers.last().innerText({ timeout: 3_000 });
    })
    .catch(() => '');
  if (hovered.trim()) why += `; ${hovered.replace(/\s+/g, ' ').trim()}`;
  return match ? `${match[1]} ms (${why})` : text;
}

/**
 * What the reported figure is made of. VS Code adds the time from when it starts loading our code to
 * the end of the require (codeLoadingTime) and the synchronous part of activate(). Extensions
 * activated together (onStartupFinished) all start their code loading at once and are then
 * required one after another, so the figure of a later one includes the requires of the ones before
 * it: the marks show which ones ended inside our window.
 */
function activationParts(activation, marks) {
  const reported = Number(/^(\d+) ms\b/.exec(activation)?.[1]);
  if (!Array.isArray(marks) || !Number.isFinite(reported)) return undefined;
  const at = (kind, id) => marks.find((m) => m.name === `${kind}LoadExtensionCode/${id}`)?.ms;
  const ours = 'dashboard-platform.dashboard-platform';
  const will = at('will', ours);
  const did = at('did', ours);
  if (will === undefined || did === undefined) return undefined;
  const windowStart = will - (reported - (did - will));
  const before = marks
    .filter((m) => m.name.startsWith('didLoadExtensionCode/') && m.ms > windowStart && m.ms <= will)
    .map((m) => {
      const id = m.name.slice('didLoadExtensionCode/'.length);
      return `${id} ${m.ms - (at('will', id) ?? m.ms)} ms`;
    })
    .filter((s) => !s.startsWith(`${ours} `));
  return (
    `  of which requiring dist/extension.js: ${did - will} ms; the activate() call and the wait before ` +
    `the require: ${reported - (did - will)} ms` +
    (before.length ? ` (extensions whose code VS Code loaded in that wait: ${before.join(', ')})` : '')
  );
}

const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

async function cleanup() {
  for (const c of cleanups.reverse()) {
    try {
      await c();
    } catch {
      // best effort
    }
  }
  if (!process.env.DP_KEEP_TEMP) fs.rmSync(tmp, { recursive: true, force: true });
}

// A backstop should main() hang. Until the suites start it also covers installing code-server into
// an empty tool cache (11 minutes on a loaded two-core machine); once they start, the suites' own
// deadline plus two minutes.
let watchdog;
function armWatchdog(ms) {
  clearTimeout(watchdog);
  watchdog = setTimeout(() => {
    console.error(`run-integration: hard limit of ${ms / 1000} s reached`);
    void cleanup().finally(() => process.exit(1));
  }, ms);
  watchdog.unref();
}
armWatchdog(SETUP_MS + TOTAL_MS + 120_000);

main()
  .catch((e) => {
    console.error(`run-integration: ${e instanceof SetupError ? e.message : (e?.stack ?? e)}`);
    exitCode = 1;
  })
  .finally(async () => {
    await cleanup();
    process.exit(exitCode);
  });
