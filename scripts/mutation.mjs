#!/usr/bin/env node
// `npm run mutation`: StrykerJS with stryker.config.mjs (report in reports/mutation/, git-ignored).
// StrykerJS 10's command line refuses Node.js < 22 on import; the project runs on Node.js 20, where
// the engine itself works, so this starts the engine directly instead of through its command line.
import { createRequire } from 'node:module';
import * as path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
process.chdir(root);
const shim = path.join(root, 'scripts', 'mutation-shim.cjs');
process.env.NODE_OPTIONS = `${process.env.NODE_OPTIONS ?? ''} --require ${JSON.stringify(shim)}`.trim();
createRequire(import.meta.url)(shim);
const entry = path.join(root, 'node_modules/@stryker-mutator/core/dist/src/stryker.js');
const { Stryker } = await import(pathToFileURL(entry).href);
const results = await new Stryker({}).runMutationTest();
const killed = results.filter((m) => m.status === 'Killed' || m.status === 'Timeout').length;
const survived = results.filter((m) => m.status === 'Survived' || m.status === 'NoCoverage').length;
const total = killed + survived;
console.log(
  `mutation score: ${total ? ((100 * killed) / total).toFixed(2) : '0'}% (${killed} killed or timed out, ${survived} survived or not covered)`,
);
