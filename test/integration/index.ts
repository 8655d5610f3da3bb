// Runs every integration suite inside VS Code. Both routes use it: @vscode/test-electron calls
// `run()` (extensionTestsPath), the code-server test host calls `runSuites()` and writes the result.
import * as fs from 'node:fs';
import * as path from 'node:path';
import Mocha from 'mocha';

export interface SuiteResult {
  passed: number;
  failed: number;
  pending: number;
  durationMs: number;
  failures: { title: string; error: string }[];
  tests: { title: string; state: 'passed' | 'failed' | 'pending'; durationMs?: number }[];
}

function testFiles(dir: string): string[] {
  const out: string[] = [];
  for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) out.push(...testFiles(full));
    else if (entry.name.endsWith('.test.js')) out.push(full);
  }
  return out.sort();
}

export async function runSuites(
  opts: { progress?: (line: string) => void; grep?: string; dir?: string } = {},
): Promise<SuiteResult> {
  const progress = opts.progress ?? ((line: string) => console.log(line));
  const mocha = new Mocha({ ui: 'bdd', timeout: 60_000, color: false, reporter: 'base' });
  if (opts.grep) mocha.grep(opts.grep);
  // `dir`: another folder of *.test.js files (the README's screenshot walk).
  for (const file of testFiles(opts.dir ?? __dirname)) mocha.addFile(file);
  const result: SuiteResult = { passed: 0, failed: 0, pending: 0, durationMs: 0, failures: [], tests: [] };
  const t0 = Date.now();
  await new Promise<void>((resolve) => {
    const runner = mocha.run(() => resolve());
    runner.on('pass', (test) => {
      result.passed++;
      result.tests.push({ title: test.fullTitle(), state: 'passed', durationMs: test.duration });
      progress(`  ✔ ${test.fullTitle()} (${test.duration ?? 0} ms)`);
    });
    runner.on('fail', (test, err: Error) => {
      result.failed++;
      const error = err?.stack ?? String(err);
      result.failures.push({ title: test.fullTitle(), error });
      result.tests.push({ title: test.fullTitle(), state: 'failed' });
      progress(`  ✖ ${test.fullTitle()}\n${error.replace(/^/gm, '      ')}`);
    });
    runner.on('pending', (test) => {
      result.pending++;
      result.tests.push({ title: test.fullTitle(), state: 'pending' });
      progress(`  - ${test.fullTitle()} (pending)`);
    });
  });
  result.durationMs = Date.now() - t0;
  return result;
}

/** The @vscode/test-electron entry point: rejects when any test failed. */
export async function run(): Promise<void> {
  const result = await runSuites({ grep: process.env.DP_TEST_GREP });
  console.log(`${result.passed} passed, ${result.failed} failed`);
  if (result.failed > 0) throw new Error(`${result.failed} integration test(s) failed`);
}
