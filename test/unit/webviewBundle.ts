// The webview code as a browser would load it, for the tests and benchmarks that run it in jsdom or
// Chromium: one IIFE bundle built in memory with the options esbuild.mjs gives webview entries.
import { buildSync, type StdinOptions } from 'esbuild';
import { JSDOM, VirtualConsole } from 'jsdom';

/** The bundle of an entry file, or of `stdin` source; with `globalName`, its exports land there. */
export function webviewBundle(
  from: { entry: string } | { stdin: StdinOptions },
  globalName?: string,
): string {
  return buildSync({
    ...('entry' in from ? { entryPoints: [from.entry] } : { stdin: from.stdin }),
    ...(globalName ? { globalName } : {}),
    bundle: true,
    write: false,
    platform: 'browser',
    format: 'iife',
    target: 'es2022',
    logLevel: 'silent',
  }).outputFiles[0]!.text;
}

/**
 * A jsdom window with a `#root` for a webview page (its scripts run as a page's do, at `url`), or
 * with an empty body whose scripts only the caller runs (`outside-only`); its console is silent.
 */
export function jsdomWindow(kind: 'page' | 'outside-only'): JSDOM {
  const dom =
    kind === 'page'
      ? new JSDOM('<!DOCTYPE html><html><body><div id="root"></div></body></html>', {
          runScripts: 'dangerously',
          pretendToBeVisual: true,
          virtualConsole: new VirtualConsole(),
          url: 'https://webview.invalid/index.html',
        })
      : new JSDOM('<!doctype html><body></body>', {
          runScripts: 'outside-only',
          pretendToBeVisual: true,
          virtualConsole: new VirtualConsole(),
        });
  // Under StrykerJS (`npm run mutation`) the bundle holds the mutants, which read the active one
  // from the page's own global: hand the page the test process's, so they run and are counted.
  const stryker = (globalThis as { __stryker__?: unknown }).__stryker__;
  if (stryker) (dom.window as unknown as { __stryker__?: unknown }).__stryker__ = stryker;
  return dom;
}
