#!/usr/bin/env node
// `npm test`: every check the project has, in order, each one's output streamed: type check,
// lint, format check, tests that cannot fail (test-quality), build, unit tests (plain Node) and
// the integration suites inside a real
// VS Code (code-server in headless Chromium). Later steps still run after a failure so the summary
// is complete; the exit code is non-zero when anything failed. The last line reads
// "N passed, N failed, N skipped": tests passed; tests failed plus failed non-test steps; tests
// skipped (mocha's pending tests, including every test of a suite that skipped itself). Above it,
// each reason for skipping is one line (e.g. the contract suites without ../shared/reference).
// A last step fails when the working tree is not clean at the end (tests never write tracked
// files); entries the run made are told apart from those that were there before it.
// `--only a,b` runs only the steps whose names start with one of those words (e.g. `--only
// typecheck,unit` for a quick check); the summary names the steps it left out.
import { spawn, spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
process.chdir(root);
const UNIT_RESULT = path.join('out', 'unit-result.json');

function run(cmd, args, { capture = false } = {}) {
  return new Promise((resolve) => {
    const t0 = Date.now();
    const child = spawn(cmd, args, {
      stdio: ['ignore', capture ? 'pipe' : 'inherit', capture ? 'pipe' : 'inherit'],
    });
    let output = '';
    if (capture) {
      const tee = (stream, chunk) => {
        output += chunk;
        stream.write(chunk);
      };
      child.stdout.on('data', (c) => tee(process.stdout, c));
      child.stderr.on('data', (c) => tee(process.stderr, c));
    }
    child.on('close', (code) => resolve({ code: code ?? 1, output, seconds: (Date.now() - t0) / 1000 }));
  });
}

const steps = [
  { name: 'typecheck', cmd: 'npx', args: ['tsc', '-p', 'tsconfig.json'] },
  { name: 'typecheck (webviews)', cmd: 'npx', args: ['tsc', '-p', 'tsconfig.webview.json', '--noEmit'] },
  { name: 'lint', cmd: 'npx', args: ['eslint', '--max-warnings', '0', '.'] },
  // No import circles in src/ and webview/ (type-only imports too): scripts/check-cycles.mjs.
  { name: 'lint (import circles)', cmd: 'node', args: ['scripts/check-cycles.mjs'] },
  { name: 'format', cmd: 'npx', args: ['prettier', '--check', '.'] },
  // Tests that cannot fail (assertions that may never run, self-comparisons, swallowed failures,
  // skips always taken): scripts/test-quality.mjs.
  { name: 'test quality', cmd: 'node', args: ['scripts/test-quality.mjs'] },
  { name: 'build', cmd: 'node', args: ['esbuild.mjs'] },
  // Before the unit tests: the bench smoke test drives Debian's Chromium (the chat script), which a
  // fresh machine gets only from this script (it also installs code-server for the integration
  // steps, cached).
  { name: 'setup (Chromium, Node 24, code-server)', cmd: 'bash', args: ['scripts/setup-vscode.sh'] },
  {
    name: 'unit tests',
    cmd: 'npx',
    // The summary reporter is the spec output plus a JSON count of passed, failed and skipped tests.
    args: ['mocha', '--reporter', 'scripts/mocha-summary.cjs', '--reporter-option', `summary=${UNIT_RESULT}`],
    tests: 'mocha',
  },
  {
    name: 'integration (real VS Code)',
    cmd: 'node',
    args: ['scripts/run-integration.mjs'],
    tests: 'integration',
  },
  {
    name: 'integration: data model as a workspace folder',
    cmd: 'node',
    args: ['scripts/run-integration.mjs', '--model-folder'],
    tests: 'integration',
  },
];

/** `git status --porcelain` entries, each with a hash of the file so edits to a dirty file show. */
function treeState() {
  const st = spawnSync('git', ['status', '--porcelain', '--untracked-files=all'], { encoding: 'utf8' });
  if (st.status !== 0) return undefined;
  const entries = new Map();
  for (const line of st.stdout.split('\n').filter(Boolean)) {
    const file = line.slice(3).replace(/^.* -> /, '');
    const hash = fs.existsSync(file)
      ? spawnSync('git', ['hash-object', '--', file], { encoding: 'utf8' }).stdout.trim()
      : 'deleted';
    entries.set(line, hash);
  }
  return entries;
}

const before = treeState();
if (before === undefined) console.log('(not a git checkout: the clean-tree check is skipped)');
else if (before.size > 0)
  console.log(
    `Note: the working tree is already dirty; the run will fail its clean-tree step:\n${[...before.keys()].map((l) => `  ${l}`).join('\n')}`,
  );

const onlyArg = process.argv.indexOf('--only');
const only =
  onlyArg >= 0
    ? (process.argv[onlyArg + 1] ?? '')
        .split(',')
        .map((w) => w.trim())
        .filter(Boolean)
    : undefined;
const wanted = (step) => !only || only.some((w) => step.name.startsWith(w));

const rows = [];
let passed = 0;
let failed = 0;
let skipped = 0;
/** One line per reason tests were skipped: "<step>: N tests in <suites>: <why>". */
const skipLines = [];
const plural = (n, word) => `${n.toLocaleString('en-US')} ${word}${n === 1 ? '' : 's'}`;
function noteSkips(step, groups) {
  for (const g of groups ?? []) {
    const suites = g.suites ?? [];
    const names = suites.slice(0, 3).join(', ') + (suites.length > 3 ? `, … (${suites.length} suites)` : '');
    skipLines.push(`${step}: ${plural(g.tests, 'test')}${names ? ` in ${names}` : ''}: ${g.reason}`);
  }
}
for (const step of steps) {
  if (!wanted(step)) {
    rows.push({ step: step.name, ok: true, seconds: 0, detail: 'not run (--only)', notRun: true });
    continue;
  }
  console.log(`\n===== ${step.name}: ${step.cmd} ${step.args.join(' ')}`);
  const resultFile = path.join(root, 'out', 'integration-result.json');
  if (step.tests === 'integration') fs.rmSync(resultFile, { force: true });
  if (step.tests === 'mocha') fs.rmSync(UNIT_RESULT, { force: true });
  const r = await run(step.cmd, step.args, { capture: step.tests === 'mocha' });
  let detail = '';
  if (step.tests === 'mocha') {
    // The reporter's JSON when it ran to the end; else what the spec output says.
    const res = fs.existsSync(UNIT_RESULT) ? JSON.parse(fs.readFileSync(UNIT_RESULT, 'utf8')) : undefined;
    const p = res?.passed ?? Number(/(\d+) passing/.exec(r.output)?.[1] ?? 0);
    const f = res?.failed ?? Number(/(\d+) failing/.exec(r.output)?.[1] ?? 0);
    const s = res?.pending ?? Number(/(\d+) pending/.exec(r.output)?.[1] ?? 0);
    passed += p;
    failed += f;
    skipped += s;
    noteSkips(step.name, res?.skipped ?? (s ? [{ reason: 'see the output above', tests: s }] : []));
    if (r.code !== 0 && f === 0) failed++;
    detail = `${p} passed, ${f} failed, ${s} skipped`;
  } else if (step.tests === 'integration') {
    if (fs.existsSync(resultFile)) {
      const res = JSON.parse(fs.readFileSync(resultFile, 'utf8'));
      passed += res.passed;
      failed += res.failed;
      skipped += res.pending ?? 0;
      noteSkips(
        step.name,
        res.skipped ?? (res.pending ? [{ reason: 'see the output above', tests: res.pending }] : []),
      );
      detail = `${res.passed} passed, ${res.failed} failed, ${res.pending ?? 0} skipped; activation ${res.activationTime}`;
      if (r.code !== 0 && res.failed === 0) failed++;
    } else {
      failed++;
      detail = 'no result (VS Code did not run the suites)';
    }
  } else if (r.code !== 0) {
    failed++;
  }
  rows.push({ step: step.name, ok: r.code === 0, seconds: r.seconds, detail });
}

if (before !== undefined) {
  console.log('\n===== clean tree: git status --porcelain');
  const after = treeState() ?? new Map();
  const made = [...after].filter(([line, hash]) => before.get(line) !== hash).map(([line]) => line);
  const old = [...after.keys()].filter((line) => !made.includes(line));
  for (const line of made) console.log(`  written by this run: ${line}`);
  for (const line of old) console.log(`  already before the run: ${line}`);
  if (after.size > 0) {
    failed++;
    console.log(
      made.length > 0
        ? 'A test wrote tracked files: tests must write to ignored folders (out/, a temp folder).'
        : 'Commit or stash these changes, then run again.',
    );
  }
  const detail =
    after.size === 0
      ? 'nothing changed'
      : `${made.length} written by this run, ${old.length} already before it`;
  rows.push({ step: 'clean tree (git status)', ok: after.size === 0, seconds: 0, detail });
}

console.log('\n===== summary');
for (const row of rows) {
  console.log(
    `${row.notRun ? '----' : row.ok ? 'PASS' : 'FAIL'}  ${row.step.padEnd(28)} ${row.seconds.toFixed(1).padStart(7)} s  ${row.detail}`,
  );
}
if (skipLines.length) {
  console.log('\nSkipped:');
  for (const line of skipLines) console.log(`  ${line}`);
}
console.log(`\n${passed} passed, ${failed} failed, ${skipped} skipped`);
process.exit(rows.every((r) => r.ok) && failed === 0 ? 0 : 1);
