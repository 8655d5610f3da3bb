import assert from 'node:assert/strict';
import type { Page } from '../../src/api/paging';
import { clampPageSize, loadCurrent, PagedList, type PageFetcher } from '../../src/explorer/pagedList';

/** A fake server of `total` numbered items, recording every request. */
function server(total: number, opts: { failOn?: number[]; repeatCursor?: boolean } = {}) {
  const calls: { first: number; after?: string }[] = [];
  let n = 0;
  const fetch: PageFetcher<number> = async ({ first, after }) => {
    calls.push(after !== undefined ? { first, after } : { first });
    n++;
    if (opts.failOn?.includes(n)) throw new Error(`boom ${n}`);
    const start = after === undefined ? 0 : Number(after);
    const items = Array.from({ length: Math.max(0, Math.min(first, total - start)) }, (_, i) => start + i);
    const end = start + items.length;
    const page: Page<number> = {
      items,
      pageInfo:
        end < total
          ? {
              hasNextPage: true,
              hasPreviousPage: start > 0,
              endCursor: opts.repeatCursor && after !== undefined ? after : String(end),
            }
          : null,
    };
    return page;
  };
  return { fetch, calls };
}

describe('explorer paging state (PagedList)', () => {
  it('fetches nothing until asked, then exactly one request a page, appending in order', async () => {
    const s = server(25);
    const list = new PagedList(s.fetch, { pageSize: 10 });
    assert.equal(s.calls.length, 0);
    assert.equal(list.snapshot().status, 'idle');
    await list.ensureLoaded();
    await list.ensureLoaded(); // already loaded: no second request
    assert.deepEqual(list.snapshot().items, [0, 1, 2, 3, 4, 5, 6, 7, 8, 9]);
    assert.equal(list.snapshot().hasMore, true);
    await list.loadMore();
    await list.loadMore();
    const snap = list.snapshot();
    assert.deepEqual(
      snap.items,
      Array.from({ length: 25 }, (_, i) => i),
    );
    assert.equal(snap.hasMore, false);
    assert.equal(snap.pages, 3);
    assert.deepEqual(s.calls, [{ first: 10 }, { first: 10, after: '10' }, { first: 10, after: '20' }]);
    await list.loadMore(); // exhausted: no request
    assert.equal(s.calls.length, 3);
  });

  it('keeps the item array identity-stable: earlier items are never replaced', async () => {
    const objs = Array.from({ length: 6 }, (_, i) => ({ id: i }));
    const list = new PagedList<{ id: number }>(
      async ({ after }) => {
        const start = after ? Number(after) : 0;
        return {
          items: objs.slice(start, start + 3),
          pageInfo: start + 3 < 6 ? { hasNextPage: true, hasPreviousPage: false, endCursor: '3' } : null,
        };
      },
      { pageSize: 3 },
    );
    await list.ensureLoaded();
    const first = list.snapshot().items[0];
    await list.loadMore();
    assert.equal(list.snapshot().items[0], first);
    assert.equal(list.snapshot().items.length, 6);
  });

  it('shares one in-flight request between concurrent callers', async () => {
    const s = server(30);
    const list = new PagedList(s.fetch, { pageSize: 10 });
    await Promise.all([list.ensureLoaded(), list.ensureLoaded(), list.loadMore()]);
    assert.equal(s.calls.length, 1);
    await Promise.all([list.loadMore(), list.loadMore()]);
    assert.equal(s.calls.length, 2);
  });

  it('treats pageInfo null, hasNextPage false and a repeated cursor as the end', async () => {
    const a = server(5);
    const l1 = new PagedList(a.fetch, { pageSize: 10 });
    await l1.ensureLoaded();
    assert.equal(l1.snapshot().hasMore, false);
    const b = server(100, { repeatCursor: true });
    const l2 = new PagedList(b.fetch, { pageSize: 10 });
    await l2.ensureLoaded();
    await l2.loadMore(); // returns the same cursor it was given
    assert.equal(l2.snapshot().hasMore, false);
    await l2.loadMore();
    assert.equal(b.calls.length, 2);
    const l3 = new PagedList<number>(
      async () => ({ items: [1], pageInfo: { hasNextPage: false, hasPreviousPage: false, endCursor: 'x' } }),
      { pageSize: 1 },
    );
    await l3.ensureLoaded();
    assert.equal(l3.snapshot().hasMore, false);
  });

  it('an empty first page is ready with no items and no "more"', async () => {
    const list = new PagedList(server(0).fetch, { pageSize: 10 });
    await list.ensureLoaded();
    assert.deepEqual(list.snapshot(), {
      status: 'ready',
      items: [],
      hasMore: false,
      error: undefined,
      truncatedReason: undefined,
      pages: 1,
      invalid: [],
    });
  });

  it('a failed page keeps what is shown; re-rendering does not re-send; retry repeats that page', async () => {
    const s = server(30, { failOn: [2] });
    const list = new PagedList(s.fetch, { pageSize: 10 });
    await list.ensureLoaded();
    await list.loadMore();
    let snap = list.snapshot();
    assert.equal(snap.status, 'error');
    assert.match(String((snap.error as Error).message), /boom 2/);
    assert.equal(snap.items.length, 10);
    assert.equal(snap.hasMore, false);
    await list.ensureLoaded();
    assert.equal(s.calls.length, 2);
    await list.retry();
    snap = list.snapshot();
    assert.equal(snap.status, 'ready');
    assert.equal(snap.items.length, 20);
    assert.deepEqual(s.calls[2], { first: 10, after: '10' });
  });

  it('a failed first page becomes an error that retry turns into items', async () => {
    const s = server(3, { failOn: [1] });
    const list = new PagedList(s.fetch, { pageSize: 10 });
    await list.ensureLoaded();
    assert.equal(list.snapshot().status, 'error');
    await list.ensureLoaded();
    assert.equal(s.calls.length, 1);
    await list.retry();
    assert.deepEqual(list.snapshot().items, [0, 1, 2]);
  });

  it('a single-page list stops after the first page and says why', async () => {
    const s = server(30);
    const list = new PagedList(s.fetch, { pageSize: 10, singlePageReason: 'cannot page' });
    await list.ensureLoaded();
    await list.loadMore();
    const snap = list.snapshot();
    assert.equal(s.calls.length, 1);
    assert.equal(snap.hasMore, false);
    assert.equal(snap.truncatedReason, 'cannot page');
    const short = new PagedList(server(3).fetch, { pageSize: 10, singlePageReason: 'cannot page' });
    await short.ensureLoaded();
    assert.equal(short.snapshot().truncatedReason, undefined);
  });

  it('reset drops the state and a response that arrives after it', async () => {
    let release!: () => void;
    const gate = new Promise<void>((r) => (release = r));
    let calls = 0;
    const list = new PagedList<number>(
      async () => {
        calls++;
        if (calls === 1) await gate;
        return { items: [calls], pageInfo: null };
      },
      { pageSize: 1 },
    );
    const first = list.ensureLoaded();
    list.reset();
    release();
    await first;
    assert.equal(list.snapshot().status, 'idle');
    await list.ensureLoaded();
    assert.deepEqual(list.snapshot().items, [2]);
  });

  it('clamps the page size setting to 1..200', () => {
    assert.equal(clampPageSize(0), 1);
    assert.equal(clampPageSize(500), 200);
    assert.equal(clampPageSize(50.7), 50);
    assert.equal(clampPageSize('x'), 50);
    assert.equal(clampPageSize(undefined, 20), 20);
  });
});

describe('explorer paging: a list replaced while it loads (loadCurrent)', () => {
  it('loads the list that replaced it, so the rows shown are never those of a list nobody asked', async () => {
    const s = server(5);
    let current = new PagedList(s.fetch, { pageSize: 10 });
    const loading = loadCurrent(() => current);
    // A refresh while the first page is on its way: the node drops its list and makes a new one.
    current.dispose();
    current = new PagedList(s.fetch, { pageSize: 10 });
    const list = await loading;
    assert.equal(list, current);
    assert.equal(list.snapshot().status, 'ready');
    assert.deepEqual(list.snapshot().items, [0, 1, 2, 3, 4]);
    assert.equal(s.calls.length, 2, 'the replaced request, then the new list');
  });

  it('answers a list that stayed the same after one request', async () => {
    const s = server(3);
    const only = new PagedList(s.fetch, { pageSize: 10 });
    assert.equal(await loadCurrent(() => only), only);
    assert.deepEqual(only.snapshot().items, [0, 1, 2]);
    assert.equal(s.calls.length, 1);
  });
});
