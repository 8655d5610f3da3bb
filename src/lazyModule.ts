// First-use loading of a module (no vscode import, so vscode-free modules may use it). The packaged
// extension ships its host code as several bundles (esbuild.mjs): dist/extension.js runs at
// activation; the HTTP stack, zod and each feature's heavy code live in bundles required the first
// time they are needed (dist/bundles.json says which). From compiled sources (tests) the same call
// loads the module next door.
import * as fs from 'node:fs';
import * as path from 'node:path';

type Registry = { __modules: Record<string, unknown> };
let bundles: Record<string, string> | undefined;

/**
 * The exports of `src` (a path such as 'src/api/index.ts'), loaded on this first call. Use with
 * `import type` so the caller's bundle does not include the module.
 */
export function lazyModule<T>(src: string): T {
  bundles ??= readBundles();
  const bundle = bundles[src];
  if (bundle) {
    // A computed path keeps the bundler from inlining the module.
    // eslint-disable-next-line @typescript-eslint/no-require-imports
    const registry = require(path.join(__dirname, `${bundle}.js`)) as Registry;
    const mod = registry.__modules[src];
    if (!mod) throw new Error(`${bundle}.js does not hold ${src}`);
    return mod as T;
  }
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  return require(path.join(__dirname, '..', src.replace(/\.ts$/, ''))) as T;
}

function readBundles(): Record<string, string> {
  const file = path.join(__dirname, 'bundles.json');
  return fs.existsSync(file) ? (JSON.parse(fs.readFileSync(file, 'utf8')) as Record<string, string>) : {};
}

/**
 * Loads `src` in the background `delayMs` after the call (never on the caller's path), then runs
 * `warm` on its exports (code that the first use would otherwise compile on its clock): the first
 * use then finds it loaded and compiled, so a session's first query costs what its second does. A
 * failure is left to the first use, which reports it. The returned function cancels a load not yet
 * started.
 */
export function preloadModule<T>(
  src: string,
  delayMs: number,
  schedule: (run: () => void, ms: number) => { unref?(): unknown } | undefined = setTimeout,
  warm?: (mod: T) => unknown,
): () => void {
  let cancelled = false;
  const timer = schedule(() => {
    if (cancelled) return;
    try {
      const mod = lazyModule<T>(src);
      if (warm) void Promise.resolve(warm(mod)).catch(() => undefined);
    } catch {
      // The first real use loads it again and reports the error where the user is.
    }
  }, delayMs);
  timer?.unref?.();
  return () => {
    cancelled = true;
  };
}
