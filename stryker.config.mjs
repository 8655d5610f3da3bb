// Mutation testing (`npm run mutation`): StrykerJS over the API clients and the two file formats.
// Not part of `npm test` (it takes tens of minutes on two cores). tsc builds the instrumented
// sources inside Stryker's sandbox; mocha then runs only the unit tests that cover these files.
/** @type {import('@stryker-mutator/api/core').PartialStrykerOptions} */
export default {
  testRunner: 'mocha',
  buildCommand: 'npx tsc -p tsconfig.json',
  // The transport (call, retries, unknown outcomes), the NDJSON reader and the two file formats:
  // about 1,000 mutants, half an hour on one core. The resource-family clients and the error
  // wording (mostly string literals) are left out to keep it there.
  mutate: [
    'src/api/http.ts',
    'src/api/net/request.ts',
    'src/api/net/retry.ts',
    'src/api/net/outcome.ts',
    'src/api/ndjson.ts',
    'src/notebook/notebookFormat.ts',
    'src/dashboards/dashboardFile.ts',
  ],
  mochaOptions: {
    // .mocharc.json gives the timeout; only the spec is narrowed.
    config: '.mocharc.json',
    spec: [
      'out/test/unit/api/**/*.test.js',
      'out/test/unit/faults/**/*.test.js',
      'out/test/unit/notebookFormat.test.js',
      'out/test/unit/dashboardFile.test.js',
    ],
  },
  coverageAnalysis: 'perTest',
  // Static mutants (module-level constants) would rerun every test for each one.
  ignoreStatic: true,
  concurrency: 1,
  timeoutMS: 1000,
  ignorePatterns: ['out', 'dist', '.test-run', '.vscode-test', 'bench/results', 'reports'],
  tempDirName: '.stryker-tmp',
  reporters: ['clear-text', 'progress', 'html', 'json'],
  htmlReporter: { fileName: 'reports/mutation/index.html' },
  jsonReporter: { fileName: 'reports/mutation/mutation.json' },
  clearTextReporter: { allowColor: false, logTests: false, reportScoreTable: true },
};
