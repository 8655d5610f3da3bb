// The chat renderer's own script time per streamed delta as the answer grows, without frame timing:
// the real transcript module (webview/chat/transcript.ts) runs in a headless Chromium page with the
// chat's stylesheet and each `assistantText` delta call is timed inside the page (and, apart, the
// call plus the layout it causes, forced at once). jsdom was tried first: its text nodes are ropes,
// so the cost of one growing node does not show there. For a turn of N deltas (1,000, 5,000 and
// 20,000), the figure is the mean time of the last 500 deltas, i.e. the cost per delta once the
// answer is that long. Baseline in the same run: the renderer before, one growing text node per
// message (its delta path reproduced here: appendData, then the length read to show the body).
// Variants alternate; each is repeated and printed as median (min to max). Garbage is collected
// before each timed window (Chromium started with --expose-gc), so one run's garbage is not timed in
// the next.
//
//   node out/bench/chatScript.bench.js [--reps 5] [--window 500]
import * as path from 'node:path';
import { buildSync } from 'esbuild';
import { LoadMeter, arg, fmt, rotation, spread } from './benchArgs';

const root = path.resolve(__dirname, '..', '..');
const SIZES = [1_000, 5_000, 20_000];
const VARIANTS = ['blocks', 'oneNode'] as const;
type Variant = (typeof VARIANTS)[number];

function transcriptBundle(): string {
  return buildSync({
    stdin: {
      contents: `import { Transcript } from './webview/chat/transcript'; window.__Transcript = Transcript;`,
      resolveDir: root,
      loader: 'ts',
    },
    bundle: true,
    write: false,
    platform: 'browser',
    format: 'iife',
    target: 'es2022',
    logLevel: 'silent',
  }).outputFiles[0]!.text;
}

/** A streamed answer: short word deltas, a paragraph break every few dozen words, a list now and then. */
function deltas(n: number): string[] {
  const words = [
    'revenue',
    'grew',
    'by',
    '12%',
    'in',
    'March,',
    'while',
    'orders',
    'from',
    'the',
    'north',
    'region',
    'fell;',
    'the',
    'top',
    'category',
    'was',
    '**Garden**',
    'with',
    '`SUM(amount)`',
    'of',
    '$1.2M.',
  ];
  let seed = 42;
  const rand = (k: number): number => {
    seed = (seed * 1103515245 + 12345) & 0x7fffffff;
    return seed % k;
  };
  const out: string[] = [];
  for (let i = 0; i < n; i++) {
    let d = ` ${words[rand(words.length)]}`;
    if (rand(2)) d += ` ${words[rand(words.length)]}`;
    const r = rand(40);
    if (r === 0) d += '\n\n';
    else if (r === 1) d += '\n- ';
    out.push(d);
  }
  return out;
}

interface Timing {
  /** ms per delta: the renderer's call alone. */
  script: number;
  /** ms per delta: the call and the layout it causes (forced right after, as the next frame would). */
  withLayout: number;
}

/** In the page: streams `ds` into a fresh renderer; times the calls of the last `window` deltas. */
function inPage(args: { variant: Variant; ds: string[]; window: number; layout: boolean }): number {
  type R = { assistantText(op: unknown): void };
  const w = window as unknown as { __Transcript: new (c: HTMLElement, a: unknown) => R };
  const container = document.createElement('main');
  container.className = 'transcript';
  document.body.replaceChildren(container);
  let r: R;
  if (args.variant === 'blocks') {
    r = new w.__Transcript(container, { openInNotebook: () => undefined, copy: () => undefined });
  } else {
    // The renderer before: one text node per message, extended by every delta.
    const rootEl = document.createElement('div');
    rootEl.className = 'msg assistant';
    const body = document.createElement('div');
    body.className = 'content streaming';
    const text = document.createTextNode('');
    body.append(text);
    rootEl.append(body);
    container.append(rootEl);
    r = {
      assistantText(op: { delta?: string; inProcess: boolean }) {
        if (op.delta) text.appendData(op.delta);
        rootEl.classList.toggle('in-process', op.inProcess);
        body.hidden = text.data.length === 0;
      },
    };
  }
  // The window is timed as a whole: performance.now() in a page is coarse (about 0.1 ms), finer
  // than a window of deltas but not than one delta.
  const n = args.ds.length;
  const first = n - args.window;
  const send = (i: number): void =>
    r.assistantText({ type: 'assistantText', id: 'm1', delta: args.ds[i], inProcess: true });
  for (let i = 0; i < first; i++) {
    send(i);
    if (args.layout && i % 100 === 0) void document.body.offsetHeight;
  }
  void document.body.offsetHeight;
  // Garbage of earlier runs (their pages' nodes) is collected here, not inside the timed window.
  (window as unknown as { gc?: () => void }).gc?.();
  const t0 = performance.now();
  for (let i = first; i < n; i++) {
    send(i);
    if (args.layout) void document.body.offsetHeight;
  }
  return (performance.now() - t0) / args.window;
}

async function main(): Promise<void> {
  const reps = arg('reps', 5);
  const window = arg('window', 500);
  const layoutWindow = arg('layout-window', 50);
  const load = new LoadMeter();
  const { chromium } = await import('playwright-core');
  const browser = await chromium.launch({
    executablePath: process.env.DP_CHROMIUM ?? '/usr/bin/chromium',
    args: [
      '--no-sandbox',
      '--disable-gpu',
      '--disable-background-networking',
      '--no-first-run',
      '--js-flags=--expose-gc',
    ],
  });
  try {
    const page = await browser.newPage({ viewport: { width: 900, height: 900 } });
    await page.setContent('<!DOCTYPE html><html><body></body></html>');
    await page.addStyleTag({ path: path.join(root, 'media', 'chat.css') });
    await page.addScriptTag({ content: transcriptBundle() });
    const cases = VARIANTS.flatMap((v) => SIZES.map((n) => ({ v, n })));
    const results = new Map<string, Timing[]>();
    const once = async (variant: Variant, n: number): Promise<Timing> => ({
      script: await page.evaluate(inPage, { variant, ds: deltas(n), window, layout: false }),
      // Layout per delta costs up to a frame's worth: a shorter window keeps the run short.
      withLayout: await page.evaluate(inPage, { variant, ds: deltas(n), window: layoutWindow, layout: true }),
    });
    await once('blocks', 2_000); // warm-up: JIT both paths
    await once('oneNode', 2_000);
    for (let r = 0; r < reps; r++)
      for (const c of rotation(cases, r)) {
        const key = `${c.v}@${c.n}`;
        results.set(key, [...(results.get(key) ?? []), await once(c.v, c.n)]);
      }
    const us = (v: Variant, n: number, k: keyof Timing): number[] =>
      results.get(`${v}@${n}`)!.map((t) => t[k] * 1000);
    console.log(
      `\nchat renderer per streamed delta in headless Chromium (the calls timed in the page, mean of the last ${window} deltas, with layout of the last ${layoutWindow}, µs), ${reps} repetitions, ${load.stop()}\n`,
    );
    console.log(
      '| deltas | ours: script | ours: script + layout | before (one text node): script | before: script + layout |',
    );
    console.log(
      '|--------|--------------|-----------------------|--------------------------------|-------------------------|',
    );
    for (const n of SIZES)
      console.log(
        `| ${fmt(n).padStart(6)} | ${spread(us('blocks', n, 'script'), 1)} | ${spread(us('blocks', n, 'withLayout'), 1)} | ${spread(us('oneNode', n, 'script'), 1)} | ${spread(us('oneNode', n, 'withLayout'), 1)} |`,
      );
    const flat = (v: Variant, k: keyof Timing): string =>
      spread(
        us(v, 20_000, k).map((x, i) => x / us(v, 1_000, k)[i]!),
        2,
        'x',
      );
    console.log(
      `\nper-delta cost at 20,000 vs 1,000 deltas: ours script ${flat('blocks', 'script')}, with layout ${flat('blocks', 'withLayout')}; before script ${flat('oneNode', 'script')}, with layout ${flat('oneNode', 'withLayout')}`,
    );
  } finally {
    await browser.close();
  }
}

main().catch((e: unknown) => {
  console.error(e);
  process.exit(1);
});
