#!/usr/bin/env node
// `npm run bench`: runs every compiled benchmark (out/bench/*.bench.js) one after another. Each
// prints its figures as ratios against a baseline measured in the same run; the machine's load
// (1-minute average) is printed before and after each, since a shared machine's load moves figures.
import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const dir = path.join(root, 'out', 'bench');
const only = process.argv[2];
const files = fs
  .readdirSync(dir)
  // Only benches whose source is in bench/: out/ keeps the builds of benches since removed.
  .filter(
    (f) => f.endsWith('.bench.js') && fs.existsSync(path.join(root, 'bench', f.replace(/\.js$/, '.ts'))),
  )
  .filter((f) => !only || f.includes(only))
  .sort();
const load = () =>
  `load average ${os
    .loadavg()
    .map((x) => x.toFixed(1))
    .join(' / ')} (1 / 5 / 15 min) on ${os.cpus().length} CPUs`;
let failed = 0;
for (const f of files) {
  console.log(`\n===== ${f}\nbefore: ${load()}`);
  const t0 = Date.now();
  const r = spawnSync(process.execPath, ['--expose-gc', path.join(dir, f)], { stdio: 'inherit', cwd: root });
  if (r.status !== 0) failed++;
  console.log(
    `after:  ${load()}; ${((Date.now() - t0) / 1000).toFixed(0)} s${r.status !== 0 ? ', FAILED' : ''}`,
  );
}
process.exit(failed ? 1 : 0);
