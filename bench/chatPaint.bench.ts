// Chat rendering: a sandbox turn streamed as 5,000 deltas, replayed into the real chat page in
// headless Chromium at the times the events arrived. For each event: the time from its arrival in
// the page to the next painted frame. Ours (one text node appended per delta) against a baseline
// that re-renders the whole transcript (markdown + sanitizer) per delta, in the same run.
//
// Run: npm run compile && node esbuild.mjs && node out/bench/chatPaint.bench.js [deltas]
import * as fs from 'node:fs';
import * as path from 'node:path';
import { AiClient } from '../src/api';
import { ChatSession } from '../src/chat/chatSession';
import type { HostToWebview } from '../src/shared/chatProtocol';
import { startSandbox } from '../src/sandbox';

const root = path.resolve(__dirname, '..', '..');
const DELTAS = Number(process.argv[2] ?? 5000);

interface Timed {
  at: number;
  op: HostToWebview;
}

async function recordTurn(): Promise<Timed[]> {
  const sb = await startSandbox({ rows: 2000, aiEventDelayMs: 0 });
  try {
    const client = new AiClient({ baseUrl: sb.urls.ai[0]!.url, apiKey: async () => sb.tokens.aiApiKey });
    const ops: Timed[] = [];
    const t0 = performance.now();
    const session = new ChatSession({
      client,
      sessionSettings: { externalId: 'bench' },
      post: (op) => ops.push({ at: performance.now() - t0, op }),
    });
    await session.send(`Stream the answer as ${DELTAS} deltas`);
    await client.close();
    return ops;
  } finally {
    await sb.close();
  }
}

/** In the page: replays ops at their arrival times; returns per-op latency to the next frame (ms). */
function replayInPage(args: { ops: Timed[]; mode: 'ours' | 'baseline' }): Promise<number[]> {
  type W = Window & { DOMPurify: { sanitize(s: string): string }; marked: { parse(s: string): string } };
  const w = window as unknown as W;
  const latencies: number[] = [];
  let pending: number[] = [];
  const frame = () => {
    const now = performance.now();
    for (const t of pending) latencies.push(now - t);
    pending = [];
  };
  // Baseline: keep the transcript as text and re-render all of it for every event.
  const texts = new Map<string, string>();
  const order: string[] = [];
  const container = document.createElement('main');
  if (args.mode === 'baseline') document.body.replaceChildren(container);
  const renderAll = () => {
    container.innerHTML = w.DOMPurify.sanitize(
      w.marked.parse(order.map((id) => texts.get(id) ?? '').join('\n\n')),
    );
  };
  const apply = (op: HostToWebview) => {
    if (args.mode === 'ours') {
      window.dispatchEvent(new MessageEvent('message', { data: op }));
      return;
    }
    const id = 'id' in op ? String(op.id) : undefined;
    if (!id) return;
    if (!texts.has(id)) order.push(id);
    if (op.type === 'assistantText') texts.set(id, op.text ?? (texts.get(id) ?? '') + (op.delta ?? ''));
    else if (op.type === 'final') texts.set(id, op.markdown);
    else if (op.type === 'userMessage') texts.set(id, op.text);
    else if (op.type === 'toolCall') texts.set(id, `\`${op.name}\``);
    renderAll();
  };
  return new Promise((resolve) => {
    const start = performance.now();
    let i = 0;
    const tick = () => {
      const elapsed = performance.now() - start;
      while (i < args.ops.length && args.ops[i]!.at <= elapsed) {
        pending.push(performance.now());
        apply(args.ops[i]!.op);
        i++;
      }
      requestAnimationFrame(() => {
        frame();
        if (i < args.ops.length) setTimeout(tick, 0);
        else resolve(latencies);
      });
    };
    tick();
  });
}

function stats(xs: number[]): { median: number; p99: number; max: number } {
  const s = [...xs].sort((a, b) => a - b);
  const q = (p: number) => s[Math.min(s.length - 1, Math.floor(p * s.length))]!;
  return { median: q(0.5), p99: q(0.99), max: s[s.length - 1]! };
}

async function main(): Promise<void> {
  const chatJs = path.join(root, 'dist', 'webview', 'chat.js');
  if (!fs.existsSync(chatJs))
    throw new Error('dist/webview/chat.js is missing: run `node esbuild.mjs` first');
  const ops = await recordTurn();
  const deltas = ops.filter((o) => o.op.type === 'assistantText' && o.op.delta !== undefined).length;
  console.log(
    `Recorded a sandbox turn: ${ops.length} render operations (${deltas} deltas) over ${ops.at(-1)!.at.toFixed(0)} ms`,
  );

  const { chromium } = await import('playwright-core');
  const browser = await chromium.launch({
    executablePath: process.env.DP_CHROMIUM ?? '/usr/bin/chromium',
    args: [
      '--no-sandbox',
      '--disable-gpu',
      '--disable-background-networking',
      '--disable-component-update',
      '--no-first-run',
    ],
  });
  try {
    const results: Record<string, ReturnType<typeof stats>> = {};
    for (const mode of ['ours', 'baseline'] as const) {
      const page = await browser.newPage({ viewport: { width: 900, height: 900 } });
      await page.setContent('<!DOCTYPE html><html><body><div id="root"></div></body></html>');
      await page.evaluate(() => {
        (window as unknown as { acquireVsCodeApi: unknown }).acquireVsCodeApi = () => ({
          postMessage: () => undefined,
          getState: () => undefined,
          setState: () => undefined,
        });
      });
      if (mode === 'ours') {
        await page.addScriptTag({ path: chatJs });
      } else {
        await page.addScriptTag({
          path: path.join(root, 'node_modules', 'dompurify', 'dist', 'purify.min.js'),
        });
        await page.addScriptTag({ path: path.join(root, 'node_modules', 'marked', 'lib', 'marked.umd.js') });
      }
      const latencies = await page.evaluate(replayInPage, { ops, mode });
      results[mode] = stats(latencies);
      await page.close();
    }
    const ours = results.ours!;
    const base = results.baseline!;
    console.log('\nArrival-to-paint latency per event (ms)');
    console.log('mode                     median      p99      max');
    for (const [name, r] of [
      ['ours (incremental)', ours],
      ['baseline (full re-render)', base],
    ] as const) {
      console.log(
        `${name.padEnd(24)} ${r.median.toFixed(1).padStart(7)} ${r.p99.toFixed(1).padStart(8)} ${r.max.toFixed(1).padStart(8)}`,
      );
    }
    console.log(
      `\nbaseline / ours: median ${(base.median / ours.median).toFixed(1)}x, p99 ${(base.p99 / ours.p99).toFixed(1)}x`,
    );
  } finally {
    await browser.close();
  }
}

main().catch((e: unknown) => {
  console.error(e);
  process.exit(1);
});
