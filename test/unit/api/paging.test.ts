import * as assert from 'node:assert/strict';
import { nextCursor, paginate, type Page } from '../../../src/api/paging';
import { collect } from './helpers';

describe('api/paging', () => {
  it('nextCursor: null pageInfo or no next page means no more', () => {
    assert.equal(nextCursor({ items: [], pageInfo: null }), undefined);
    assert.equal(
      nextCursor({ items: [], pageInfo: { hasNextPage: false, hasPreviousPage: true, endCursor: 'c' } }),
      undefined,
    );
    assert.equal(
      nextCursor({ items: [], pageInfo: { hasNextPage: true, hasPreviousPage: false, endCursor: 'c2' } }),
      'c2',
    );
    assert.equal(
      nextCursor({ items: [], pageInfo: { hasNextPage: true, hasPreviousPage: false, endCursor: null } }),
      undefined,
    );
  });

  it('paginate walks every page lazily, passing the cursor', async () => {
    const pages: Record<string, Page<number>> = {
      '': { items: [1, 2], pageInfo: { hasNextPage: true, hasPreviousPage: false, endCursor: 'a' } },
      a: { items: [3], pageInfo: { hasNextPage: true, hasPreviousPage: true, endCursor: 'b' } },
      b: { items: [4, 5], pageInfo: null },
    };
    const asked: (string | undefined)[] = [];
    const all = await collect(
      paginate(async (after) => {
        asked.push(after);
        return pages[after ?? ''];
      }),
    );
    assert.deepEqual(all, [1, 2, 3, 4, 5]);
    assert.deepEqual(asked, [undefined, 'a', 'b']);

    asked.length = 0;
    for await (const x of paginate(async (after) => {
      asked.push(after);
      return pages[after ?? ''];
    })) {
      if (x === 2) break;
    }
    assert.deepEqual(asked, [undefined], 'stopping early fetches no further page');
  });

  it('stops when a server repeats a cursor', async () => {
    let calls = 0;
    const all = await collect(
      paginate(async () => {
        calls++;
        return { items: [calls], pageInfo: { hasNextPage: true, hasPreviousPage: false, endCursor: 'same' } };
      }),
    );
    assert.deepEqual(all, [1, 2]);
  });
});
