// Loaded (NODE_OPTIONS=--require) into the MCP server processes the unit tests spawn while StrykerJS
// runs (test/unit/agents/mcpBundle.ts adds it). The bundle is built from the instrumented sources,
// but StrykerJS only sees the test process: without this, what the server's own process reaches
// would count as covered by no test, and those mutants would never run. Here that coverage is
// counted for the test that spawned the server and written at exit for the test process to merge.
// (The active mutant itself reaches the server through __STRYKER_ACTIVE_MUTANT__, which the
// instrumented code reads.)
/* eslint-disable @typescript-eslint/no-require-imports, no-undef -- a CommonJS preload script */
const fs = require('node:fs');
const ns = globalThis.__stryker__ || (globalThis.__stryker__ = {});
if (process.env.DP_STRYKER_TEST_ID) ns.currentTestId = process.env.DP_STRYKER_TEST_ID;
process.on('exit', () => {
  const file = process.env.DP_STRYKER_COVERAGE_FILE;
  if (file && ns.mutantCoverage) fs.writeFileSync(file, JSON.stringify(ns.mutantCoverage));
});
