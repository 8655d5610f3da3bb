// Tests that load extension code in plain Node give it a stand-in for `vscode` (a file in a temp
// folder, resolved by a Module._resolveFilename hook). Node caches modules, so a module another test
// loaded first stays bound to that test's stand-in, and what it shows goes to the other test's sink.
import * as os from 'node:os';
import * as path from 'node:path';

const isStandIn = (id: string | undefined): boolean =>
  typeof id === 'string' && path.basename(id) === 'vscode.js' && id.startsWith(os.tmpdir());

/**
 * Forgets every cached module that loaded a stand-in, directly or through other modules, so the next
 * require binds the caller's. Modules that never reach `vscode` stay cached: their classes (ApiError
 * and the like) keep the identity the test files imported.
 */
export function forgetVscodeDependents(): void {
  const cache = require.cache;
  const tainted = new Set<string>();
  for (let changed = true; changed;) {
    changed = false;
    for (const [id, m] of Object.entries(cache)) {
      if (!m || tainted.has(id)) continue;
      if (
        isStandIn(id) ||
        (m.children ?? []).some((c) => !!c && (tainted.has(c.id) || isStandIn(c.filename ?? c.id)))
      ) {
        tainted.add(id);
        changed = true;
      }
    }
  }
  for (const id of tainted) delete cache[id];
}
