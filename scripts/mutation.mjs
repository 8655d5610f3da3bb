#!/usr/bin/env node
// `npm run mutation -- <area>`: StrykerJS with stryker.config.mjs over one area of the sources,
// running only the unit tests that cover it (report in reports/mutation/<area>/, git-ignored).
// `npm run mutation -- --list` prints the areas. Without an area it runs the config's default set.
// One area at a time and one test process (concurrency 1): the machine is shared.
// StrykerJS 10's command line refuses Node.js < 22 on import; the project runs on Node.js 20, where
// the engine itself works, so this starts the engine directly instead of through its command line.
import * as fs from 'node:fs';
import { createRequire } from 'node:module';
import * as path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
process.chdir(root);

const U = 'out/test/unit';
/** Lines in a window of `--sample`. */
const WINDOW = 5;
/**
 * Each area: the sources mutated and the compiled unit tests that exercise them. Tests are chosen
 * by what they import (a test outside the list cannot kill a mutant, it only costs time).
 */
export const AREAS = {
  redaction: {
    what: 'secret redaction in every log sink',
    mutate: ['src/api/log.ts'],
    spec: [
      `${U}/api/redact.test.js`,
      `${U}/api/redactExact.test.js`,
      `${U}/redaction.test.js`,
      `${U}/faults/secrets.test.js`,
    ],
    // The patterns are module constants: without their (static) mutants the score would leave out
    // what redaction mostly is. The tests are few, so rerunning them all per mutant is affordable.
    static: true,
  },
  'write-outcome': {
    what: 'writes whose outcome is unknown, never blindly retried',
    mutate: ['src/api/net/outcome.ts', 'src/api/net/retry.ts'],
    // Not the fault suites: nearly every one of their ~1,400 cells goes through outcomeUnknown, so
    // each mutant there reran them all (over an hour, never finished on the shared machine), while
    // the suites below assert these functions' results directly.
    spec: [`${U}/api/writeOutcome*.test.js`, `${U}/api/writeSafety.test.js`, `${U}/api/http.test.js`],
  },
  'api-transport': {
    what: 'the HTTP call, request building, retries, answers, proxies, errors',
    // outcome.ts and retry.ts are the write-outcome area. Not the fault matrix: nearly every one of
    // its ~1,400 cells goes through this code, so each mutant would rerun them all (hours); the
    // suites below assert the transport's answers, deadlines, proxies and errors directly.
    mutate: [
      'src/api/http.ts',
      'src/api/net/{agents,answer,lenient,network,request}.ts',
      'src/api/errors.ts',
      'src/api/ndjson.ts',
    ],
    // Named one by one: mocha's file globs do not expand braces (a `{a,b}` pattern matches nothing).
    spec: [
      `${U}/api/*.test.js`,
      ...['answers', 'deadlines', 'proxyDrop', 'secrets'].map((f) => `${U}/faults/${f}.test.js`),
    ],
  },
  paging: {
    what: 'cursor paging of every list (client and explorer)',
    mutate: ['src/api/paging.ts', 'src/explorer/pagedList.ts'],
    spec: [
      `${U}/api/paging.test.js`,
      `${U}/api/listPaging.sandbox.test.js`,
      `${U}/explorerPaging.test.js`,
      `${U}/explorerPagingRules.test.js`,
      `${U}/api/platformFamilies.test.js`,
    ],
  },
  'api-data': {
    what: 'data and AI API clients, row scanning, NDJSON',
    mutate: [
      'src/api/dataClient.ts',
      'src/api/dataErrors.ts',
      'src/api/rowScan.ts',
      'src/api/aiClient.ts',
      'src/api/ndjson.ts',
    ],
    // Every unit suite that imports these clients, but not the two clients-contract suites: each is
    // one or two tests running every operation of every client (33 s and 10 s), so each mutant they
    // cover would rerun them whole; the suites below assert the same requests and answers directly.
    spec: [
      `${U}/api/dataClient.test.js`,
      `${U}/api/dataClientExact.test.js`,
      `${U}/api/dataErrors.test.js`,
      `${U}/api/aiClient.test.js`,
      `${U}/api/aiClientExact.test.js`,
      `${U}/api/rowScan.test.js`,
      `${U}/api/ndjson.test.js`,
      `${U}/api/streamEdges.test.js`,
      `${U}/api/clientOptions.test.js`,
      `${U}/api/clients.sandbox.test.js`,
      `${U}/api/platformFamilies.test.js`,
      `${U}/api/writeSafety.test.js`,
      `${U}/faults/secrets.test.js`,
      `${U}/contract/engine.contract.test.js`,
    ],
  },
  // Every operation goes through operation.ts and transport.ts: measured apart, with the suites that
  // assert what the call path does (ids, inputs refused, words, reads, writes, lists). Not the
  // contract suites: they check shapes against the documents, and as nearly every one of their
  // cases covers this code, each mutant here would rerun them all.
  'api-platform-call': {
    what: 'platform API: the one call path of every operation (operation.ts) and its transport',
    mutate: ['src/api/platform/operation.ts', 'src/api/platform/transport.ts'],
    // buildWrites: the build rows that send a form, a query beside a body, a query on a write.
    spec: [
      `${U}/api/*.test.js`,
      `${U}/admin/*.test.js`,
      `${U}/deployments/deploymentWrites.test.js`,
      `${U}/model/buildWrites.test.js`,
    ],
  },
  'api-platform-workspace': {
    what: 'platform API: workspace, folders, reports, workbooks, dashboards, notifications',
    mutate: [
      'src/api/platform/*.ts',
      // The call path is the api-platform-call area.
      '!src/api/platform/operation.ts',
      '!src/api/platform/transport.ts',
      'src/api/platformClient.ts',
      'src/api/notificationQuery.ts',
    ],
    // Every suite that calls these clients (grep test/unit for their imports and PlatformClient).
    spec: [
      `${U}/api/*.test.js`,
      `${U}/contract/clients*.test.js`,
      `${U}/contract/readBack.sandbox.test.js`,
      `${U}/deployments/deploymentWrites.test.js`,
      `${U}/explorerNotificationEdit.test.js`,
      `${U}/explorerFilter.test.js`,
      ...['servicesAndMetricViews', 'deployOps', 'embedDashboards'].map((f) => `${U}/sandbox/${f}.test.js`),
    ],
  },
  'api-platform-admin': {
    what: 'platform API: administration, SCIM, settings, attributes, integrations',
    mutate: ['src/api/platform/admin/*.ts'],
    // The suites that call these clients (grep test/unit for `.admin.` and the admin case tables);
    // not the fault matrix (its ~1,400 cells would rerun per mutant) nor the reference's own checks.
    spec: [
      `${U}/api/attributes.test.js`,
      `${U}/api/adminRules.test.js`,
      `${U}/api/peopleWrites.test.js`,
      `${U}/api/familyWords.test.js`,
      `${U}/api/platformFamilies.test.js`,
      `${U}/api/listPaging.sandbox.test.js`,
      `${U}/admin/*.test.js`,
      `${U}/contract/clients*.test.js`,
      `${U}/contract/sandbox.contract.test.js`,
      ...['peopleRoutes', 'embedDashboards', 'embedSessions'].map((f) => `${U}/sandbox/${f}.test.js`),
    ],
  },
  'api-platform-build': {
    what: 'platform API: build (branches, files, git, upload) and deployment operations',
    mutate: ['src/api/platform/build/*.ts', 'src/api/buildClient.ts', 'src/api/deploymentOpsClient.ts'],
    spec: [`${U}/contract/build.contract.test.js`, `${U}/model/*.test.js`, `${U}/contract/clients*.test.js`],
  },
  'model-saves': {
    what: 'model folder saves: branch files and the build API they go through',
    mutate: ['src/model/branchFiles.ts', 'src/api/platform/build/*.ts'],
    // deploymentWrites: the build API's deployment creation and repository connection.
    spec: [
      `${U}/model/*.test.js`,
      `${U}/contract/build.contract.test.js`,
      `${U}/deployments/deploymentWrites.test.js`,
    ],
  },
  model: {
    what: 'the data model: branches, files, validation, window plans',
    mutate: ['src/model/**/*.ts'],
    spec: [`${U}/model/*.test.js`],
  },
  // The two file formats, one area each (together about 1,000 mutants: too long for one run on
  // a shared machine). What the dashboard file uses to locate and check values is measured with it.
  'notebook-format': {
    what: 'the .dpnb notebook file: parsing, located errors, UTF-8, depth, the writer and unknown keys',
    mutate: ['src/notebook/notebookFormat.ts'],
    spec: [`${U}/notebookFormat*.test.js`],
  },
  'dashboard-file': {
    what: 'the *.dashboard.json file: parsing, located problems, theme values, the publish input',
    mutate: ['src/dashboards/dashboardFile.ts', 'src/shared/jsonLocate.ts', 'src/shared/cssValues.ts'],
    spec: [`${U}/dashboardFile*.test.js`, `${U}/dashboardSchema.test.js`, `${U}/dashboardEdits.test.js`],
  },
  'publish-review': {
    what: 'the review before a dashboard is published',
    mutate: ['src/dashboards/publishReview*.ts'],
    spec: [`${U}/publishReview.test.js`],
  },
  dashboards: {
    what: 'dashboards: file format, schema, edits, page, review',
    mutate: ['src/dashboards/**/*.ts', 'src/shared/dashboardGrid.ts'],
    spec: [
      `${U}/dashboard*.test.js`,
      `${U}/publishReview.test.js`,
      `${U}/reportFile.test.js`,
      `${U}/dashboards/*.test.js`,
    ],
  },
  'agent-guards': {
    what: "agent tools' guards: workspace paths, input checks, effects, escaped service text",
    // The guards only: catalog, data and diff are tools like any other (the agents area has them).
    mutate: [
      'src/agents/tools/workspacePaths.ts',
      'src/agents/tools/dashboards.ts',
      'src/agents/tools/index.ts',
      'src/agents/tools/types.ts',
      'src/agents/tools/format.ts',
    ],
    // In-process suites only: the stdio suites exercise the same code in a spawned server (which
    // StrykerJS now reaches, see mcp-entry) at seconds a test, hours for this area.
    spec: [
      `${U}/agents/toolGuards.test.js`,
      `${U}/agents/workspacePaths.test.js`,
      `${U}/agents/tools.test.js`,
      `${U}/agents/mcpInProcess.test.js`,
    ],
  },
  agents: {
    what: 'agents: tools, participant, gateway',
    mutate: ['src/agents/**/*.ts'],
    spec: [`${U}/agents/*.test.js`, `${U}/chat*.test.js`],
  },
  mcp: {
    what: 'the MCP server: its write policy, files, configuration and stdio transport (in process)',
    mutate: ['src/mcp/mcpServer.ts', 'src/mcp/config.ts', 'src/mcp/stdioTransport.ts'],
    spec: [
      `${U}/agents/mcpInProcess.test.js`,
      `${U}/agents/mcpTransport.test.js`,
      `${U}/agents/workspacePaths.test.js`,
    ],
    // Not the transport suite's server-process tests (mcp-entry runs them): a mutant that slows the
    // spawned server costs a minute-long timeout each.
    grep: '^(?!.*the server process).*$',
  },
  'mcp-entry': {
    what: "the MCP server's entry point, run only as the spawned bundle (dist/mcp.js rebuilt from the sources)",
    // The suites spawn the bundle built from the mutated sources; test/unit/agents/mcpBundle.ts hands
    // the server the active mutant and brings its coverage back. Each test starts a process, so
    // this area is slow: the rest of src/mcp is measured in process by the mcp area.
    mutate: ['src/mcp/server.ts'],
    spec: [
      `${U}/agents/mcpServer.test.js`,
      `${U}/agents/mcpSafety.test.js`,
      `${U}/agents/mcpTransport.test.js`,
      `${U}/agents/hostileInput.test.js`,
      `${U}/agents/mcpProcess.test.js`,
    ],
  },
  explorer: {
    what: 'the explorer tree: its rows, labels, filters, paging and loaders',
    mutate: ['src/explorer/**/*.ts'],
    spec: [`${U}/explorer*.test.js`, `${U}/explorer/*.test.js`, `${U}/admin/*.test.js`],
  },
  notifications: {
    what: 'notifications: drafts, schedules, recipients, their lifecycle from the tree and the palette',
    mutate: ['src/notifications/**/*.ts'],
    spec: [`${U}/explorer*.test.js`, `${U}/notifications/*.test.js`],
  },
  admin: {
    what: 'administration: users, roles, groups, attributes, SCIM, embedding and settings flows',
    mutate: ['src/admin/**/*.ts'],
    spec: [`${U}/admin/*.test.js`, `${U}/explorer*.test.js`],
  },
  deployments: {
    what: 'deployment operations: dbt runs and their outcome, deployment writes, settings',
    mutate: ['src/deployments/**/*.ts'],
    spec: [`${U}/deployments/*.test.js`],
  },
  workspace: {
    what: 'the workspace feature: folders, reports and workbooks from the tree and the palette',
    mutate: ['src/workspace/**/*.ts'],
    // Dialogs over the VS Code API: test/unit/workspace/ runs them in plain Node with a stand-in
    // for `vscode` and a recording client (the integration journeys run them in a real VS Code,
    // which StrykerJS does not).
    spec: [`${U}/workspace/*.test.js`, `${U}/roundTrips.test.js`, `${U}/explorer*.test.js`],
  },
  notebook: {
    what: 'the notebook: cells, runs, outputs, export (the file format is its own area)',
    mutate: ['src/notebook/**/*.ts', '!src/notebook/notebookFormat.ts'],
    // notebook/: the controller, target, feature and export worker suites (a stand-in for `vscode`).
    spec: [
      `${U}/notebookFormat*.test.js`,
      `${U}/exportResults.test.js`,
      `${U}/faults/secrets.test.js`,
      `${U}/notebook/*.test.js`,
    ],
  },
  chat: {
    what: "the chat: sessions, history, branch, the agent's label and its rendering",
    mutate: ['src/chat/**/*.ts'],
    spec: [
      `${U}/chat*.test.js`,
      `${U}/chat/*.test.js`,
      `${U}/sandbox/aiAgent.test.js`,
      `${U}/faults/secrets.test.js`,
    ],
  },
  profiles: {
    what: 'profiles: parsing, trust, connection checks',
    mutate: ['src/profiles/**/*.ts'],
    // profile*: also the window-bound files under a `vscode` stand-in (profileCommandsFlows,
    // profileStatusBar, profileConnectionReview, profileServiceWrites, profileFormRows); roundTrips:
    // the settings round trips of profiles and stored secrets; sandboxWorker and sandboxState: the
    // suites of the sandbox loader and SandboxManager (sandboxState restarts it on its state file).
    spec: [
      `${U}/profile*.test.js`,
      `${U}/connectionCheck.test.js`,
      `${U}/roundTrips.test.js`,
      `${U}/sandboxWorker.test.js`,
      `${U}/sandboxState.test.js`,
    ],
  },
  // The rules of profiles that guard users: the settings parser and the fields' rules, the profile
  // model (Data API URL, environment variable names, AI identity), secret binding (origins, workspace
  // profiles, trust keys) and the questions asked before a secret goes to another host. Not the
  // secret store itself (profileSecrets.ts) nor the commands, forms and status bar: see profiles.
  'profile-rules': {
    what: 'profile settings parsing, URL rules, the profile model, secret origin binding, trust questions',
    mutate: [
      'src/profiles/profileParse.ts',
      'src/profiles/profileRules.ts',
      'src/profiles/profileSchema.ts',
      'src/profiles/profileModel.ts',
      'src/profiles/secretBinding.ts',
      'src/profiles/profileTrust.ts',
    ],
    spec: [`${U}/profile*.test.js`, `${U}/roundTrips.test.js`],
  },
  // The secret store itself (session store, SecretStorage, environment variables, what is asked
  // before a secret is sent, bound or moved) and the clients that send them (which host gets which
  // token, minted tokens); the rules they apply are the profile-rules area.
  'profile-secrets': {
    what: 'profile secrets: where each is kept, when and where it is sent, what is asked first',
    mutate: ['src/profiles/profileSecrets.ts', 'src/profiles/clientProvider.ts'],
    spec: [`${U}/profile*.test.js`, `${U}/roundTrips.test.js`],
  },
  // What every feature goes through: the settings that relax safety (user settings only, Restricted
  // Mode), the network settings, the one catch per command and the log's redaction, webview HTML
  // and its CSP, the pickers, input boxes and steps of every flow and the lists they pick from. Not
  // the scripted prompter (src/ui/prompter.ts: the tests' own answering machine) nor activation
  // (extension.ts, commands.ts, lazy loading: the journeys and the package tests run those).
  core: {
    what: 'shared core: safety and network settings, command errors, the log, webview CSP, pickers and steps',
    mutate: [
      'src/config/**/*.ts',
      'src/log.ts',
      'src/commandRunner.ts',
      'src/ui/{pickers,steps,pickerSources,webviewHtml}.ts',
    ],
    spec: [`${U}/core/*.test.js`, `${U}/profilesTrust.test.js`, `${U}/redaction.test.js`],
  },
  sandbox: {
    what: 'the local sandbox server',
    mutate: ['src/sandbox/**/*.ts'],
    // The sandbox is what the contract suites talk to: theirs are the tests that see it answer wrong
    // (not the fault matrix: its ~1,400 cells would rerun per mutant).
    spec: [
      `${U}/sandbox/*.test.js`,
      `${U}/sandbox*.test.js`,
      `${U}/contract/*.sandbox.test.js`,
      `${U}/contract/*.contract.test.js`,
      `${U}/api/*.sandbox.test.js`,
      `${U}/model/*.sandbox.test.js`,
      `${U}/faults/sandboxGuards.test.js`,
      // Flows that talk to the sandbox and assert what the user gets from it: they see it answer
      // wrong too (the chat on a branch, the agent tools, the tree, notebooks, admin and deployment
      // writes, the connection check, the engine's official client).
      `${U}/chatBranch.test.js`,
      `${U}/chat/chatFlows.test.js`,
      `${U}/agents/tools.test.js`,
      `${U}/explorer/treeWalk.test.js`,
      `${U}/explorer/dragAndJson.test.js`,
      `${U}/admin/integrationInputs.test.js`,
      `${U}/admin/appConfigRows.test.js`,
      `${U}/admin/embedGroups.test.js`,
      `${U}/notebook/controller.test.js`,
      `${U}/notebook/feature.test.js`,
      `${U}/connectionCheck.test.js`,
      `${U}/deployments/deploymentWrites.test.js`,
      `${U}/contract/officialClient.test.js`,
    ],
  },
  webview: {
    what: "webviews' logic (renderer, dashboard grid, chat) and the protocol they share",
    mutate: ['webview/**/*.ts', 'src/shared/**/*.ts'],
    spec: [
      `${U}/renderer.test.js`,
      `${U}/webviewLogic.test.js`,
      `${U}/chatRenderer.test.js`,
      `${U}/dashboardGrid.test.js`,
      `${U}/dashboardPage.test.js`,
      `${U}/dashboardTabs.test.js`,
      `${U}/relativeTime.test.js`,
      // What else imports src/shared: the chat, the dashboard file's locating parser, exports.
      `${U}/chatBranch.test.js`,
      `${U}/chatSession.test.js`,
      `${U}/dashboardFile*.test.js`,
      `${U}/dashboardEdits.test.js`,
      `${U}/dashboardSchema.test.js`,
      `${U}/exportResults.test.js`,
      `${U}/roundTrips.test.js`,
      `${U}/publishReview.test.js`,
    ],
  },
};

const args = process.argv.slice(2);
if (args.includes('--list')) {
  for (const [name, a] of Object.entries(AREAS)) console.log(`${name.padEnd(24)} ${a.what}`);
  process.exit(0);
}
const areaName = args.find((a) => !a.startsWith('-'));
const area = areaName ? AREAS[areaName] : undefined;
if (areaName && !area) {
  console.error(`Unknown area "${areaName}". Areas: ${Object.keys(AREAS).join(', ')}`);
  process.exit(2);
}

// The contract suites look for ../shared/reference next to the project root; inside Stryker's
// sandbox (.stryker-tmp/sandbox-*) that is .stryker-tmp/shared, linked here to the real one
// (or to DP_SHARED_DIR) so those suites run instead of skipping.
const shared = process.env.DP_SHARED_DIR ?? path.resolve(root, '..', 'shared');
const link = path.join(root, '.stryker-tmp', 'shared');
if (fs.existsSync(path.join(shared, 'reference')) && !fs.existsSync(link)) {
  fs.mkdirSync(path.dirname(link), { recursive: true });
  fs.symlinkSync(shared, link, 'dir');
}
if (!fs.existsSync(path.join(link, 'reference')))
  console.log('Note: ../shared/reference not found: the contract suites will skip (set DP_SHARED_DIR).');

const shim = path.join(root, 'scripts', 'mutation-shim.cjs');
process.env.NODE_OPTIONS = `${process.env.NODE_OPTIONS ?? ''} --require ${JSON.stringify(shim)}`.trim();
createRequire(import.meta.url)(shim);
const entry = path.join(root, 'node_modules/@stryker-mutator/core/dist/src/stryker.js');
const { Stryker } = await import(pathToFileURL(entry).href);

// `--mutate=<file:line-line>,…` reruns only those ranges of the area (say, its survivors after new
// tests), reported apart so the area's full report and incremental file stay as they were.
const given = args
  .find((a) => a.startsWith('--mutate='))
  ?.slice('--mutate='.length)
  .split(',');
// `--sample=<N>[:<seed>]` measures an area too large to run whole on two cores: N windows of
// WINDOW code lines drawn at random (seeded, so the same command gives the same windows), every
// mutant wholly inside a window tested. The score estimates the area's; the interval printed is
// Wilson's 95% on the sampled mutants (it ignores that mutants of one window are alike, so it is
// narrower than the truth). Mutants spanning more lines than a window are never sampled.
const sampleArg = args.find((a) => a.startsWith('--sample='))?.slice('--sample='.length);
const sampled = sampleArg && area ? sampleWindows(area.mutate, sampleArg) : undefined;
const subset = given ?? sampled?.ranges;
if (sampled && args.includes('--print-sample')) {
  console.log(sampled.ranges.join('\n'));
  console.log(
    `${sampled.ranges.length} windows, ${sampled.codeLines} code lines in the area, seed ${sampled.seed}`,
  );
  process.exit(0);
}
const suffix = given ? '-subset' : sampled ? `-sample-${sampleArg.replace(':', '-')}` : '';
const reportDir = path.join('reports', 'mutation', `${areaName ?? 'default'}${suffix}`);
/** Options given here override stryker.config.mjs. */
const options = area
  ? {
      mutate: subset ?? area.mutate,
      mochaOptions: { config: '.mocharc.json', spec: area.spec, ...(area.grep ? { grep: area.grep } : {}) },
      ignoreStatic: !area.static,
      // Reruns only the mutants whose code or tests changed since the last run of this area.
      incremental: !args.includes('--force') && !subset,
      incrementalFile: path.join(reportDir, 'incremental.json'),
      htmlReporter: { fileName: path.join(reportDir, 'index.html') },
      jsonReporter: { fileName: path.join(reportDir, 'mutation.json') },
    }
  : {};
const results = await new Stryker(options).runMutationTest();

/** Killed and timed-out mutants count as detected; survivors and uncovered ones do not. */
function score(list) {
  const killed = list.filter((m) => m.status === 'Killed' || m.status === 'Timeout').length;
  const survived = list.filter((m) => m.status === 'Survived' || m.status === 'NoCoverage').length;
  const total = killed + survived;
  return { killed, survived, total, pct: total ? (100 * killed) / total : 0 };
}
const byFile = new Map();
for (const m of results) {
  const file = path.relative(root, m.fileName);
  byFile.set(file, [...(byFile.get(file) ?? []), m]);
}
console.log(`\nArea ${areaName ?? '(default set)'}:`);
for (const [file, list] of [...byFile].sort()) {
  const s = score(list);
  console.log(
    `  ${s.pct.toFixed(1).padStart(5)}%  ${String(s.killed).padStart(4)}/${String(s.total).padEnd(4)} ${file}`,
  );
}
const s = score(results);
if (sampled) {
  const { lo, hi } = wilson(s.killed, s.total);
  console.log(
    `sample: ${sampled.ranges.length} windows of ${WINDOW} lines (${sampled.lines} of the area's ${sampled.codeLines} code lines, seed ${sampled.seed}); 95% interval ${lo.toFixed(1)}-${hi.toFixed(1)}%`,
  );
}
const date = new Date().toISOString().slice(0, 10);
console.log(
  `mutation score${areaName ? ` (${areaName})` : ''}: ${s.pct.toFixed(2)}% (${s.killed} killed or timed out, ${s.survived} survived or not covered, ${s.total} mutants, ${date})`,
);
fs.mkdirSync(reportDir, { recursive: true });
fs.writeFileSync(
  path.join(reportDir, 'score.json'),
  JSON.stringify(
    {
      area: areaName ?? 'default',
      date,
      ...s,
      ...(sampled
        ? { sample: { windows: sampled.ranges.length, seed: sampled.seed, ...wilson(s.killed, s.total) } }
        : {}),
    },
    null,
    2,
  ),
);

/** Files matching the area's patterns (`*`, `**`, `{a,b}`; relative to the root), sorted. */
function expand(patterns) {
  const all = [];
  const walk = (dir) => {
    for (const e of fs.readdirSync(dir, { withFileTypes: true })) {
      const p = path.posix.join(dir, e.name);
      if (e.isDirectory()) walk(p);
      else all.push(p);
    }
  };
  const [include, exclude] = [
    patterns.filter((p) => !p.startsWith('!')),
    patterns.filter((p) => p.startsWith('!')),
  ];
  for (const top of new Set(include.map((p) => p.split('/')[0]))) if (fs.existsSync(top)) walk(top);
  const toRegex = (glob) =>
    new RegExp(
      '^' +
        glob
          .replace(/[.+^$()|[\]\\]/g, '\\$&')
          .replace(/\{([^}]*)\}/g, (_, alts) => `(?:${alts.split(',').join('|')})`)
          .split('**/')
          .map((part) => part.replace(/\*/g, '[^/]*'))
          .join('(?:.*/)?') +
        '$',
    );
  const [yes, no] = [include.map(toRegex), exclude.map((p) => toRegex(p.slice(1)))];
  return all
    .filter((f) => yes.some((r) => r.test(f)) && !no.some((r) => r.test(f)) && !f.endsWith('.d.ts'))
    .sort();
}

/** Seeded windows of code lines (not blank, not only a comment, not an import) over the area's files. */
function sampleWindows(patterns, arg) {
  const [n, seedText] = arg.split(':');
  const count = Number(n);
  const seed = seedText === undefined ? 1 : Number(seedText);
  if (!Number.isInteger(count) || count < 1 || !Number.isInteger(seed)) {
    console.error('--sample=<windows>[:<seed>], both whole numbers (say --sample=120 or --sample=120:2)');
    process.exit(2);
  }
  // The windows: each file cut into WINDOW-line pieces (1-5, 6-10, …), those holding code.
  const starts = [];
  let codeLines = 0;
  for (const file of expand(patterns)) {
    const lines = fs.readFileSync(file, 'utf8').split('\n');
    for (let start = 0; start < lines.length; start += WINDOW) {
      const code = lines.slice(start, start + WINDOW).filter((line) => {
        const t = line.trim();
        return t && !/^(\/\/|\/\*|\*|import )/.test(t);
      }).length;
      codeLines += code;
      if (code) starts.push({ file, line: start + 1 });
    }
  }
  // mulberry32: a small seeded generator, so a sample is the same on every machine.
  let a = seed >>> 0;
  const next = () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  const pool = [...starts];
  const picked = [];
  while (picked.length < Math.min(count, pool.length)) {
    const j = Math.floor(next() * pool.length);
    picked.push(pool.splice(j, 1)[0]);
  }
  picked.sort((x, y) => x.file.localeCompare(y.file) || x.line - y.line);
  return {
    seed,
    codeLines,
    lines: picked.length * WINDOW,
    ranges: picked.map(({ file, line }) => `${file}:${line}-${line + WINDOW - 1}`),
  };
}

/** Wilson's 95% score interval for k of n, in percent. */
function wilson(k, n) {
  if (!n) return { lo: 0, hi: 100 };
  const z = 1.96;
  const p = k / n;
  const d = 1 + (z * z) / n;
  const mid = (p + (z * z) / (2 * n)) / d;
  const half = (z * Math.sqrt((p * (1 - p)) / n + (z * z) / (4 * n * n))) / d;
  return { lo: 100 * (mid - half), hi: 100 * (mid + half) };
}
