// Test host: runs the same mocha suites as the @vscode/test-electron route, from inside the
// extension host of a code-server workbench (whose web client cannot pass --extensionTestsPath).
// The harness (scripts/run-integration.mjs) names a config file in DP_TEST_CONFIG.
// A journey that reloads the window ends this extension host: the suites' runner saves where it is
// in the run-state file (cfg.statePath) and answers `reload`; this host reloads the window, and the
// test host of the new extension host calls the runner again, which resumes from that file.
'use strict';
const fs = require('node:fs');

function config() {
  const file = process.env.DP_TEST_CONFIG;
  if (!file || !fs.existsSync(file)) return undefined;
  return JSON.parse(fs.readFileSync(file, 'utf8'));
}

function activate() {
  const cfg = config();
  if (!cfg) return;
  const progress = (line) => fs.appendFileSync(cfg.progressPath, `${line}\n`);
  let reloading = false;
  progress(`[host] extension host up (VS Code ${require('vscode').version}, Node ${process.version})`);
  fs.writeFileSync(cfg.startedPath, String(Date.now()));
  // Let the workbench finish restoring before the suites start driving it.
  setTimeout(() => {
    const vscode = require('vscode');
    const ours = vscode.extensions.getExtension('dashboard-platform.dashboard-platform');
    // Waits (up to 10 s) for VS Code to activate the extension by itself (the fixture folder holds
    // a .dpnb file: workspaceContains) before loading the suites, so the activation time VS Code
    // reports is not swollen by this host's own loading, then activates it if VS Code did not.
    Promise.resolve()
      .then(() => activeWithin(ours, 10_000))
      .then((byItself) => {
        progress(
          byItself
            ? '[host] VS Code activated the extension by itself'
            : '[host] VS Code had not activated the extension after 10 s (its workspace file search may have timed out); the suites activate it',
        );
        return ours && ours.activate();
      })
      .then(() => require(cfg.testIndex).runSuites({ progress, grep: cfg.grep, statePath: cfg.statePath }))
      .then(async (result) => {
        if (result.reload) {
          progress(
            `[host] reloading the window (journey "${result.reload.journey}", after ${result.reload.afterPhase})`,
          );
          // This extension host ends with the reload (the command's promise is cancelled): the
          // next one's test host carries on, and writes the result.
          reloading = true;
          await vscode.commands.executeCommand('workbench.action.reloadWindow').catch(() => undefined);
          return undefined;
        }
        // Opens VS Code's Running Extensions editor for the harness to read our activation time
        // from (through the command: a palette typed into may find a webview holding the focus).
        await showRunningExtensions(vscode);
        return result;
      })
      .then(
        (result) =>
          result &&
          fs.writeFileSync(cfg.resultPath, JSON.stringify({ ...result, loadMarks: loadMarks() }, null, 2)),
        (error) =>
          !reloading &&
          fs.writeFileSync(
            cfg.resultPath,
            JSON.stringify({
              passed: 0,
              failed: 1,
              failures: [{ title: 'test host', error: String((error && error.stack) || error) }],
              tests: [],
            }),
          ),
      );
  }, 1500);
}

/** Whether `ext` is (or becomes) active within `ms`. */
async function activeWithin(ext, ms) {
  const end = Date.now() + ms;
  while (ext && !ext.isActive && Date.now() < end) await new Promise((r) => setTimeout(r, 100));
  return Boolean(ext && ext.isActive);
}

/** Opens Running Extensions; never waits more than 10 s (the harness then uses the palette). */
async function showRunningExtensions(vscode) {
  const shown = Promise.resolve(vscode.commands.executeCommand('workbench.action.showRuntimeExtensions'));
  await Promise.race([shown.catch(() => undefined), new Promise((r) => setTimeout(r, 10_000))]);
}

/**
 * VS Code's performance marks of extension code loading (ms since the extension host started), so
 * the harness can say which part of the activation time it reports is our code's. Undefined when
 * this VS Code keeps no such marks.
 */
function loadMarks() {
  const marks = globalThis.MonacoPerformanceMarks?.getMarks?.();
  if (!Array.isArray(marks)) return undefined;
  const origin = performance.timeOrigin;
  return marks
    .filter((m) => /^code\/extHost\/(will|did)LoadExtensionCode\//.test(m.name))
    .map((m) => ({ name: m.name.slice('code/extHost/'.length), ms: Math.round(m.startTime - origin) }));
}

module.exports = { activate, deactivate() {} };
