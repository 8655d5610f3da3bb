// The rest of the explorer's paging state (src/explorer/pagedList.ts), from the survivors of its
// mutation run: what a list says while loading and after a reset, that a response or a failure
// from before a reset never lands in the new list, items the client could not read, the "more
// exists" sentence of a single-page list at its boundaries, and the page size setting's odd values.
import assert from 'node:assert/strict';
import type { Page } from '../../src/api/paging';
import { clampPageSize, PagedList, type PageFetcher } from '../../src/explorer/pagedList';

interface Call {
  args: Parameters<PageFetcher<number>>[0];
  resolve(p: Page<number>): void;
  reject(e: unknown): void;
}

/** A fetcher whose answers the test gives by hand, in any order. */
function manual() {
  const calls: Call[] = [];
  const fetch: PageFetcher<number> = (args) =>
    new Promise<Page<number>>((resolve, reject) => calls.push({ args, resolve, reject }));
  return { fetch, calls };
}

const page = (items: number[], endCursor?: string): Page<number> => ({
  items,
  pageInfo: endCursor ? { hasNextPage: true, endCursor } : { hasNextPage: false },
});

/** Lets pending promise callbacks run. */
const settle = () => new Promise((r) => setImmediate(r));

describe('explorer paging state: loading, reset and stale answers', () => {
  it('says "loading" while a page is in flight and "loaded" once one arrived', async () => {
    const s = manual();
    const list = new PagedList(s.fetch, { pageSize: 2 });
    assert.equal(list.loaded, false);
    const p = list.ensureLoaded();
    assert.equal(list.snapshot().status, 'loading');
    assert.equal(list.loaded, false);
    s.calls[0]!.resolve(page([1, 2], 'c2'));
    await p;
    assert.equal(list.loaded, true);
    assert.equal(list.snapshot().status, 'ready');
  });

  it('asks the first page without an "after" at all, the next with the cursor', async () => {
    const s = manual();
    const list = new PagedList(s.fetch, { pageSize: 2 });
    const p = list.ensureLoaded();
    assert.equal('after' in s.calls[0]!.args, false);
    assert.equal(s.calls[0]!.args.first, 2);
    s.calls[0]!.resolve(page([1, 2], 'c2'));
    await p;
    const q = list.loadMore();
    assert.equal(s.calls[1]!.args.after, 'c2');
    s.calls[1]!.resolve(page([3]));
    await q;
    assert.deepEqual(list.snapshot().items, [1, 2, 3]);
  });

  it('shares one retry between callers', async () => {
    const s = manual();
    const list = new PagedList(s.fetch, { pageSize: 2 });
    const first = list.ensureLoaded();
    s.calls[0]!.reject(new Error('down'));
    await first;
    assert.equal(list.snapshot().status, 'error');
    const a = list.retry();
    const b = list.retry();
    assert.equal(s.calls.length, 2, 'one request for both');
    s.calls[1]!.resolve(page([1]));
    await Promise.all([a, b]);
    assert.deepEqual(list.snapshot().items, [1]);
  });

  it('after a failed retry of an ended list, Load more repeats the request', async () => {
    const s = manual();
    const list = new PagedList(s.fetch, { pageSize: 2 });
    const first = list.ensureLoaded();
    s.calls[0]!.resolve(page([1]));
    await first;
    assert.equal(list.snapshot().hasMore, false);
    const again = list.retry();
    s.calls[1]!.reject(new Error('down'));
    await again;
    assert.equal(list.snapshot().status, 'error');
    const more = list.loadMore();
    assert.equal(s.calls.length, 3, 'Load more tries again after the failure');
    s.calls[2]!.resolve(page([]));
    await more;
  });

  it('reset drops everything (invalid items, the end, the single-page sentence) and is safe when idle', async () => {
    const s = manual();
    const list = new PagedList(s.fetch, {
      pageSize: 2,
      singlePageReason: 'Sorted by last viewed: one page only.',
    });
    assert.equal(list.snapshot().truncatedReason, undefined, 'nothing said before anything loaded');
    list.reset(); // idle: nothing to abort
    list.dispose();
    const p = list.ensureLoaded();
    s.calls[0]!.resolve({
      items: [1, 2],
      pageInfo: { hasNextPage: true, endCursor: 'c' },
      invalid: [{ index: 2, problem: 'id: expected number', value: { id: 'x' } }],
    });
    await p;
    const loaded = list.snapshot();
    assert.deepEqual(loaded.invalid, [{ index: 2, problem: 'id: expected number', value: { id: 'x' } }]);
    assert.equal(loaded.truncatedReason, 'Sorted by last viewed: one page only.');
    assert.equal(loaded.hasMore, false);
    list.reset();
    const cleared = list.snapshot();
    assert.deepEqual(
      [
        cleared.status,
        cleared.items,
        cleared.invalid,
        cleared.truncatedReason,
        cleared.pages,
        cleared.hasMore,
      ],
      ['idle', [], [], undefined, 0, false],
    );
  });

  it('after a reset an ended list pages again from the first page', async () => {
    const s = manual();
    const list = new PagedList(s.fetch, { pageSize: 2 });
    const p = list.ensureLoaded();
    s.calls[0]!.resolve(page([1]));
    await p;
    assert.equal(list.snapshot().hasMore, false);
    list.reset();
    const q = list.ensureLoaded();
    s.calls[1]!.resolve(page([1, 2], 'c2'));
    await q;
    assert.equal(list.snapshot().hasMore, true, 'the new first page has a next one');
  });

  it('a failure of a request made before a reset is dropped', async () => {
    const s = manual();
    const list = new PagedList(s.fetch, { pageSize: 2 });
    const old = list.ensureLoaded();
    list.reset();
    assert.equal(s.calls[0]!.args.signal?.aborted, true, 'the old request is aborted');
    s.calls[0]!.reject(new Error('aborted'));
    await old;
    const snap = list.snapshot();
    assert.equal(snap.status, 'idle');
    assert.equal(snap.error, undefined);
  });

  it("a stale answer does not end the new request's loading", async () => {
    const s = manual();
    const list = new PagedList(s.fetch, { pageSize: 2 });
    const old = list.ensureLoaded();
    list.reset();
    const fresh = list.ensureLoaded();
    s.calls[0]!.resolve(page([9, 9]));
    await old;
    await settle();
    assert.equal(list.snapshot().status, 'loading', 'the new request is still in flight');
    assert.deepEqual(list.snapshot().items, []);
    assert.equal(s.calls[1]!.args.signal?.aborted, false);
    s.calls[1]!.resolve(page([1]));
    await fresh;
    assert.deepEqual(list.snapshot().items, [1]);
  });
});

describe('explorer paging state: dispose', () => {
  it('drops what was loaded and aborts the request in flight', async () => {
    const s = manual();
    const list = new PagedList(s.fetch, { pageSize: 2 });
    const p = list.ensureLoaded();
    s.calls[0]!.resolve(page([1, 2], 'c2'));
    await p;
    const more = list.loadMore();
    list.dispose();
    assert.equal(s.calls[1]!.args.signal?.aborted, true);
    s.calls[1]!.resolve(page([3]));
    await more;
    assert.deepEqual([list.snapshot().status, list.snapshot().items], ['idle', []]);
  });
});

describe('explorer paging state: a single-page list says when there may be more', () => {
  const once = async (items: number[], endCursor?: string) => {
    const list = new PagedList<number>(async () => page(items, endCursor), {
      pageSize: 3,
      singlePageReason: 'One page only.',
    });
    await list.ensureLoaded();
    return list.snapshot().truncatedReason;
  };

  it('a full page, or a cursor, may hide more; a short page without a cursor is everything', async () => {
    assert.equal(await once([1, 2, 3]), 'One page only.', 'exactly a full page');
    assert.equal(await once([1], 'c'), 'One page only.', 'a short page with a cursor');
    assert.equal(await once([1, 2]), undefined, 'a short page, no cursor');
    assert.equal(await once([]), undefined, 'an empty page');
  });
});

describe('explorer paging state: the page size setting', () => {
  it('takes the fallback for what is not a finite number', () => {
    assert.equal(clampPageSize(Infinity), 50);
    assert.equal(clampPageSize(-Infinity, 20), 20);
    assert.equal(clampPageSize(NaN), 50);
    assert.equal(clampPageSize('80'), 50, 'a string from a hand-edited setting');
    assert.equal(clampPageSize(80.9), 80);
  });
});
