// The chat renderer's own script time per streamed delta as the answer grows, without frame timing:
// the real transcript module (webview/chat/transcript.ts) runs in a headless Chromium page with the
// chat's stylesheet. For an answer already N deltas long (1,000, 5,000 and 20,000), the next W
// deltas (2,000 by default) are sent in one call and the page's main-thread CPU time for that call
// is read from Chromium itself (DevTools Performance metrics in thread time), so time the core
// spends on other processes is not counted: a shared machine's load does not enter the figure. The
// cost of a call that sends nothing, measured the same way around it, is subtracted. jsdom was tried
// first: its text nodes are ropes, so the cost of one growing node does not show there. Baseline
// in the same run: the renderer before, one growing text node per message (its delta path
// reproduced here: appendData, then the length read to show the body). Variants and sizes rotate;
// each is repeated and printed as median (min to max). Garbage is collected before each timed call
// (Chromium started with --expose-gc).
//
//   node out/bench/chatScript.bench.js [--reps 5] [--window 2000] [--layout-window 50] [--sizes 1000,5000,20000]
import * as path from 'node:path';
import { webviewBundle } from '../test/unit/webviewBundle';
import { LoadMeter, arg, argText, fmt, median, rotation, spread } from './benchArgs';

const root = path.resolve(__dirname, '..', '..');
const SIZES = (argText('sizes') ?? '1000,5000,20000').split(',').map(Number);
const SMALL = SIZES[0]!;
const LARGE = SIZES[SIZES.length - 1]!;
const VARIANTS = ['blocks', 'oneNode'] as const;
type Variant = (typeof VARIANTS)[number];

function transcriptBundle(): string {
  return webviewBundle({
    stdin: {
      contents: `import { Transcript } from './webview/chat/transcript'; window.__Transcript = Transcript;`,
      resolveDir: root,
      loader: 'ts',
    },
  });
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

type Renderer = { assistantText(op: unknown): void };

/** In the page: a fresh renderer of `variant` holding the first `n` of `ds` (kept on window). */
function setUp(args: { variant: Variant; ds: string[]; n: number }): void {
  const w = window as unknown as {
    __Transcript: new (c: HTMLElement, a: unknown) => Renderer;
    __bench?: { r: Renderer; ds: string[]; next: number };
  };
  const container = document.createElement('main');
  container.className = 'transcript';
  document.body.replaceChildren(container);
  let r: Renderer;
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
  for (let i = 0; i < args.n; i++)
    r.assistantText({ type: 'assistantText', id: 'm1', delta: args.ds[i], inProcess: true });
  void document.body.offsetHeight;
  w.__bench = { r, ds: args.ds, next: args.n };
  // Garbage of earlier runs (their pages' nodes) is collected here, not inside the timed call.
  (window as unknown as { gc?: () => void }).gc?.();
}

/** In the page: the next `count` deltas (0: the call alone, what is subtracted), layout after each if asked. */
function sendNext(args: { count: number; layout: boolean }): void {
  const b = (window as unknown as { __bench: { r: Renderer; ds: string[]; next: number } }).__bench;
  for (let k = 0; k < args.count; k++) {
    b.r.assistantText({ type: 'assistantText', id: 'm1', delta: b.ds[b.next++], inProcess: true });
    if (args.layout) void document.body.offsetHeight;
  }
}

async function main(): Promise<void> {
  const reps = arg('reps', 5);
  const window = arg('window', 2000);
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
    const cdp = await page.context().newCDPSession(page);
    await cdp.send('Performance.enable', { timeDomain: 'threadTicks' });
    /** The page's main-thread CPU seconds so far (Chromium's ThreadTime metric). */
    const threadTime = async (): Promise<number> =>
      (await cdp.send('Performance.getMetrics')).metrics.find((m) => m.name === 'ThreadTime')!.value;
    /** Main-thread CPU ms of one call sending `count` deltas. */
    const timed = async (count: number, layout: boolean): Promise<number> => {
      const t0 = await threadTime();
      await page.evaluate(sendNext, { count, layout });
      return ((await threadTime()) - t0) * 1000;
    };
    const all = deltas(Math.max(...SIZES) + window + 10);
    /** µs per delta: a call of `count` deltas minus calls of none, on the same renderer state. */
    const once = async (variant: Variant, n: number, count: number, layout: boolean): Promise<number> => {
      await page.evaluate(setUp, { variant, ds: all, n });
      const before = await timed(0, false);
      const full = await timed(count, layout);
      const after = await timed(0, false);
      return ((full - (before + after) / 2) * 1000) / count;
    };
    const cases = VARIANTS.flatMap((v) => SIZES.map((n) => ({ v, n })));
    const results = new Map<string, { script: number[]; withLayout: number[] }>();
    await once('blocks', SMALL, window, false); // warm-up: JIT both paths
    await once('oneNode', SMALL, window, false);
    for (let r = 0; r < reps; r++)
      for (const c of rotation(cases, r)) {
        const key = `${c.v}@${c.n}`;
        const got = results.get(key) ?? { script: [], withLayout: [] };
        got.script.push(await once(c.v, c.n, window, false));
        // Layout per delta costs up to a frame's worth: a shorter call keeps the run short.
        got.withLayout.push(await once(c.v, c.n, layoutWindow, true));
        results.set(key, got);
      }
    const us = (v: Variant, n: number, k: 'script' | 'withLayout'): number[] => results.get(`${v}@${n}`)![k];
    console.log(
      `\nchat renderer per streamed delta in headless Chromium: the page's main-thread CPU time (Chromium's thread-time metric) for the next ${fmt(window)} deltas of an answer already N deltas long, minus an empty call's; with layout forced after each of the next ${layoutWindow}; µs per delta, ${reps} repetitions, ${load.stop()}\n`,
    );
    console.log(
      '| deltas so far | ours: script | ours: script + layout | before (one text node): script | before: script + layout |',
    );
    console.log(
      '|---------------|--------------|-----------------------|--------------------------------|-------------------------|',
    );
    for (const n of SIZES)
      console.log(
        `| ${fmt(n).padStart(13)} | ${spread(us('blocks', n, 'script'), 2)} | ${spread(us('blocks', n, 'withLayout'), 1)} | ${spread(us('oneNode', n, 'script'), 1)} | ${spread(us('oneNode', n, 'withLayout'), 1)} |`,
      );
    const ratio = (v: Variant, k: 'script' | 'withLayout'): string =>
      `${fmt(median(us(v, LARGE, k)) / median(us(v, SMALL, k)), 2)}x`;
    console.log(
      `\nper-delta cost at ${fmt(LARGE)} over ${fmt(SMALL)} deltas (ratio of the medians): ours script ${ratio('blocks', 'script')}, with layout ${ratio('blocks', 'withLayout')}; before script ${ratio('oneNode', 'script')}, with layout ${ratio('oneNode', 'withLayout')}`,
    );
  } finally {
    await browser.close();
  }
}

main().catch((e: unknown) => {
  console.error(e);
  process.exit(1);
});
