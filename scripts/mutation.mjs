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
    spec: [
      `${U}/api/dataClient.test.js`,
      `${U}/api/aiClient.test.js`,
      `${U}/api/rowScan.test.js`,
      `${U}/api/ndjson.test.js`,
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
    spec: [`${U}/dashboard*.test.js`, `${U}/publishReview.test.js`],
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
    ],
  },
  explorer: {
    what: 'the explorer tree (labels, filters, paging) and the flows on its rows (notification drafts, admin users)',
    mutate: ['src/explorer/**/*.ts', 'src/notifications/**/*.ts', 'src/admin/**/*.ts'],
    spec: [`${U}/explorer*.test.js`, `${U}/admin/*.test.js`],
  },
  profiles: {
    what: 'profiles: parsing, trust, connection checks',
    mutate: ['src/profiles/**/*.ts'],
    spec: [`${U}/profile*.test.js`, `${U}/connectionCheck.test.js`],
  },
  sandbox: {
    what: 'the local sandbox server',
    mutate: ['src/sandbox/**/*.ts'],
    spec: [`${U}/sandbox/*.test.js`, `${U}/sandbox*.test.js`, `${U}/contract/sandbox.contract.test.js`],
  },
  webview: {
    what: "webviews' logic (renderer, dashboard grid, chat) and the protocol they share",
    mutate: ['webview/**/*.ts', 'src/shared/**/*.ts'],
    spec: [
      `${U}/renderer.test.js`,
      `${U}/chatRenderer.test.js`,
      `${U}/dashboardGrid.test.js`,
      `${U}/dashboardPage.test.js`,
      `${U}/relativeTime.test.js`,
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
const subset = args
  .find((a) => a.startsWith('--mutate='))
  ?.slice('--mutate='.length)
  .split(',');
const reportDir = path.join('reports', 'mutation', `${areaName ?? 'default'}${subset ? '-subset' : ''}`);
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
const date = new Date().toISOString().slice(0, 10);
console.log(
  `mutation score${areaName ? ` (${areaName})` : ''}: ${s.pct.toFixed(2)}% (${s.killed} killed or timed out, ${s.survived} survived or not covered, ${s.total} mutants, ${date})`,
);
fs.mkdirSync(reportDir, { recursive: true });
fs.writeFileSync(
  path.join(reportDir, 'score.json'),
  JSON.stringify({ area: areaName ?? 'default', date, ...s }, null, 2),
);
