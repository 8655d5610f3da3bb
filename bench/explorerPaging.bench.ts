// Expand-and-page through the notifications of a sandbox deployment with the explorer's paging
// state (PagedList + its loader), and with the raw client call for the same pages, in the same run.
// Prints the requests the explorer made (must equal the pages) and per-page time ratios; the two
// sides alternate each round, and the ratio of each round's totals is printed as median (min to
// max) over the rounds, with the machine's load.
// Run: npx tsc -p tsconfig.json && node out/bench/explorerPaging.bench.js [--notifications N] [--rounds N]
import { performance } from 'node:perf_hooks';
import { PlatformClient } from '../src/api/platformClient';
import { startSandbox } from '../src/sandbox';
import { fetcherFor, type Item, type ListingClient } from '../src/explorer/loaders';
import { PagedList } from '../src/explorer/pagedList';
import { LoadMeter, arg, quantile, spread } from './benchArgs';

const DEPLOYMENT = 1;
const sum = (xs: number[]): number => xs.reduce((a, b) => a + b, 0);

function sumCounts(counts: Record<string, number>, match: RegExp): number {
  return Object.entries(counts)
    .filter(([k]) => match.test(k))
    .reduce((a, [, v]) => a + v, 0);
}

async function rawPass(client: PlatformClient, first: number): Promise<{ times: number[]; items: number[] }> {
  const times: number[] = [];
  const items: number[] = [];
  let after: string | undefined;
  for (;;) {
    const t0 = performance.now();
    const page = await client.listNotifications(
      DEPLOYMENT,
      after !== undefined ? { first, after } : { first },
    );
    times.push(performance.now() - t0);
    for (const n of page.items) items.push(Number((n as Item)['id']));
    const info = page.pageInfo;
    if (!info || !info.hasNextPage || !info.endCursor) break;
    after = info.endCursor;
  }
  return { times, items };
}

async function explorerPass(
  client: PlatformClient,
  first: number,
): Promise<{ times: number[]; items: number[] }> {
  const list = new PagedList<Item>(
    fetcherFor(
      { kind: 'notifications', deploymentId: DEPLOYMENT },
      async () => client as unknown as ListingClient,
    ),
    { pageSize: first },
  );
  const times: number[] = [];
  let t0 = performance.now();
  await list.ensureLoaded(); // expanding the list
  times.push(performance.now() - t0);
  while (list.snapshot().hasMore) {
    t0 = performance.now();
    await list.loadMore(); // clicking "Load more"
    times.push(performance.now() - t0);
  }
  const snap = list.snapshot();
  if (snap.status !== 'ready')
    throw new Error(`explorer pass ended in ${snap.status}: ${String(snap.error)}`);
  return { times, items: snap.items.map((n) => Number(n['id'])) };
}

async function main(): Promise<void> {
  const wanted = arg('notifications', 10_000);
  const rounds = arg('rounds', 5);
  const load = new LoadMeter();
  const sandbox = await startSandbox({ port: 0, notifications: wanted });
  try {
    const client = new PlatformClient({
      baseUrl: sandbox.urls.platform,
      token: async () => sandbox.tokens.admin,
    });
    const stateUrl = `http://127.0.0.1:${sandbox.port}/__sandbox/state`;
    const counts = async (): Promise<Record<string, number>> =>
      ((await (await fetch(stateUrl)).json()) as { requestCounts?: Record<string, number> }).requestCounts ??
      {};
    const isNotif = /notifications/;

    console.log(`explorer paging bench: deployment ${DEPLOYMENT}, ${rounds} rounds per page size`);
    for (const first of [200, 50]) {
      const raw: number[][] = [];
      const exp: number[][] = [];
      let total = 0;
      const roundRatios: number[] = [];
      for (let r = 0; r < rounds; r++) {
        // Alternate the order so warm-up and GC hit both sides alike.
        const a = r % 2 === 0 ? await rawPass(client, first) : undefined;
        const before = await counts();
        const e = await explorerPass(client, first);
        const after = await counts();
        const b = a ?? (await rawPass(client, first));
        const requests = sumCounts(after, isNotif) - sumCounts(before, isNotif);
        if (requests !== e.times.length)
          throw new Error(
            `explorer made ${requests} requests for ${e.times.length} pages (page size ${first})`,
          );
        if (JSON.stringify(e.items) !== JSON.stringify(b.items))
          throw new Error('explorer items differ from the raw client items (order or content)');
        raw.push(b.times);
        exp.push(e.times);
        roundRatios.push(sum(e.times) / sum(b.times));
        total = e.items.length;
        if (r === 0)
          console.log(
            `  first=${first}: ${total} notifications in ${e.times.length} pages; requests made by the explorer: ${requests} (= pages: ${requests === e.times.length ? 'yes' : 'NO'})`,
          );
      }
      // Per page: the median over rounds, then the distribution over pages.
      const pages = exp[0]!.length;
      const med = (runs: number[][], i: number) =>
        quantile(
          runs.map((t) => t[i]!),
          0.5,
        );
      const rawPer = Array.from({ length: pages }, (_, i) => med(raw, i));
      const expPer = Array.from({ length: pages }, (_, i) => med(exp, i));
      const ratios = rawPer.map((r, i) => expPer[i]! / r);
      console.log(
        `    per page: raw median ${quantile(rawPer, 0.5).toFixed(3)} ms, explorer median ${quantile(expPer, 0.5).toFixed(3)} ms`,
      );
      console.log(
        `    ratio explorer/raw: per page median ${quantile(ratios, 0.5).toFixed(3)}, p95 ${quantile(ratios, 0.95).toFixed(3)}; each round's total ${spread(roundRatios, 3, 'x')}`,
      );
    }
    if (wanted > 0) {
      const got = await rawPass(client, 200);
      if (got.items.length < wanted)
        console.log(
          `  note: the sandbox served ${got.items.length} notifications, fewer than the ${wanted} asked for`,
        );
    }
    console.log(`  ${load.stop()}`);
  } finally {
    await sandbox.close();
  }
}

main().catch((e: unknown) => {
  console.error(e);
  process.exitCode = 1;
});
