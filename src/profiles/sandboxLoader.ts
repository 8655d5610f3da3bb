// Loads src/sandbox lazily (first use of the Sandbox profile), so activation neither parses nor
// pays for it: in the packaged extension it is its own bundle, dist/sandbox.js, beside
// dist/extension.js; from compiled sources (tests) it is the module next door.
import * as fs from 'node:fs';
import * as path from 'node:path';
import type { SandboxHandle } from '../sandbox';
import type { SandboxModule } from './sandboxProfile';

export type { SandboxHandle };

export async function loadSandbox(): Promise<SandboxModule<SandboxHandle>> {
  const bundled = path.join(__dirname, 'sandbox.js');
  const file = fs.existsSync(bundled) ? bundled : path.join(__dirname, '..', 'sandbox');
  // A computed path keeps the bundler from inlining the sandbox into extension.js.
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  return require(file) as SandboxModule<SandboxHandle>;
}
