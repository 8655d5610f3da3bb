// Every benchmark still runs and still prints what the README's figures are made of: a bench that
// no longer runs (a query the sandbox now refuses, a renamed export) is a figure nobody can
// reproduce. Each bench runs once here at a tiny size (its figures are meaningless at that size and
// are not checked, only that it completes and prints a spread and the load it met). Needs the
// compiled benches (out/bench) and the bundles (dist/), which the test command builds first.
import * as assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';

const root = path.resolve(__dirname, '..', '..', '..');
const benchDir = path.join(root, 'out', 'bench');

/** The tiny arguments of each benchmark: a new bench must be added here to be run. */
const TINY: Readonly<Record<string, readonly string[]>> = {
  activation: ['--reps', '1'],
  chatScript: ['--reps', '1', '--window', '20', '--layout-window', '2', '--sizes', '50,100'],
  cubesqlClient: ['--rows', '2000', '--reps', '1'],
  cubesqlStream: ['--rows', '500,1000', '--reps', '1'],
  dashboardEdit: ['--widgets', '20', '--edits', '6', '--reps', '1'],
  explorerPaging: ['--notifications', '120', '--rounds', '1'],
  firstCall: ['--reps', '1', '--rows', '20'],
  notebookFirstRows: ['--rows', '2000', '--reps', '1'],
  sandboxLoad: ['--rows', '500', '--seconds', '1', '--clients', '4', '--reps', '1'],
  sandboxStall: ['--rows', '500', '--loads', '10', '--rounds', '1'],
};

function runBench(name: string, args: readonly string[]): Promise<{ code: number | null; out: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['--expose-gc', path.join(benchDir, `${name}.bench.js`), ...args], {
      cwd: root,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let out = '';
    child.stdout.on('data', (d: Buffer) => (out += d.toString()));
    child.stderr.on('data', (d: Buffer) => (out += d.toString()));
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, out }));
  });
}

describe('benchmarks: each still runs at a tiny size and prints its spread and load', function () {
  this.timeout(240_000);

  it('every compiled benchmark has tiny arguments here', () => {
    // The sources, not out/bench: a bench deleted from bench/ may leave its compiled file behind.
    const benches = fs
      .readdirSync(path.join(root, 'bench'))
      .filter((f) => f.endsWith('.bench.ts'))
      .map((f) => f.replace(/\.bench\.ts$/, ''))
      .sort();
    assert.ok(benches.length >= 10, `found ${benches.length} benches in bench/`);
    assert.deepEqual(benches, Object.keys(TINY).sort());
  });

  for (const [name, args] of Object.entries(TINY))
    it(`${name} runs and prints a spread (n=) and the load`, async () => {
      const { code, out } = await runBench(name, args);
      const tail = out.split('\n').slice(-15).join('\n');
      assert.equal(code, 0, `${name} exited with ${code}:\n${tail}`);
      assert.match(out, /n=\d+\)/, `${name} printed no spread:\n${tail}`);
      assert.match(out, /load \(1-min average\) [\d.]+ to [\d.]+/, `${name} printed no load:\n${tail}`);
    });
});
