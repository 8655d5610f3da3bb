// The generic codec behind the sandbox's saved state (src/sandbox/persistence.ts): what a saved
// graph keeps, what it leaves out, how a restore merges into the live objects the routes hold, and
// the three-way merge of two windows' saves.
import assert from 'node:assert/strict';
import {
  RestoreError,
  decode,
  encode,
  merge3,
  restoreInto,
  shapeOf,
  type Json,
} from '../../src/sandbox/persistence';

class Repo {
  branches = new Map<string, { files: Map<string, string> }>();
  nextId = 1;
  /** A cache of running work: never saved, never touched by a restore. */
  readonly compiled = new Map<string, Promise<number>>();
  readonly check = () => true;
}

const roundTrip = (v: unknown) => decode(JSON.parse(JSON.stringify(encode(v))) as Json);

describe('sandbox state codec', () => {
  it('keeps Maps, Sets, Dates, bytes, odd numbers, "$" keys, shared objects and cycles', () => {
    const shared = { name: 'shared' };
    const cyclic: Record<string, unknown> = { name: 'loop' };
    cyclic.self = cyclic;
    const value = {
      map: new Map<unknown, unknown>([
        [1, 'one'],
        ['two', { n: 2 }],
      ]),
      set: new Set(['a', 'b']),
      when: new Date('2026-01-05T09:00:00.000Z'),
      bytes: new Uint8Array([0, 255, 7]),
      odd: [NaN, Infinity, -Infinity, 12n, undefined, null],
      tagged: { $: 'not a tag', v: 1 },
      a: shared,
      b: [shared],
      cyclic,
    };
    const back = roundTrip(value) as typeof value;
    assert.deepEqual(back.map, value.map);
    assert.deepEqual(back.set, value.set);
    assert.equal(back.when.toISOString(), '2026-01-05T09:00:00.000Z');
    assert.deepEqual([...back.bytes], [0, 255, 7]);
    assert.ok(Number.isNaN(back.odd[0]));
    assert.deepEqual(back.odd.slice(1), [Infinity, -Infinity, 12n, undefined, null]);
    assert.deepEqual(back.tagged, { $: 'not a tag', v: 1 });
    assert.strictEqual(back.a, back.b[0], 'an object reached twice is one object again');
    assert.strictEqual(back.cyclic.self, back.cyclic, 'a cycle survives');
  });

  it('leaves out behaviour and records of running work, and keeps the fields of data classes', () => {
    const state = {
      chats: new Map([
        ['c1', { id: 'c1', messages: ['hi'], run: { done: false, controller: new AbortController() } }],
      ]),
      pending: [Promise.resolve(1)],
      makeId: () => 1,
      repo: new Repo(),
    };
    state.repo.branches.set('main', { files: new Map([['a.yml', 'x']]) });
    state.repo.compiled.set('k', Promise.resolve(1));
    const saved = encode(state, { dataClasses: [Repo] }) as Record<string, Json>;
    const text = JSON.stringify(saved);
    assert.doesNotMatch(text, /controller|"run"|makeId|compiled|check/, text);
    assert.ok(!('pending' in saved), 'a list holding a promise is running work');
    assert.match(text, /"messages":\["hi"\]/);
    assert.match(text, /"class":"Repo"/);
    assert.match(text, /a\.yml/);
  });

  it('restores into the live objects in place, so references the routes hold see the saved data', () => {
    const live = {
      list: [1, 2],
      byId: new Map([[1, { n: 1 }]]),
      tags: new Set(['x']),
      settings: { a: 1, b: 2, fresh: 'sample' },
      repo: new Repo(),
      fn: () => 'kept',
    };
    const { list, byId, tags, settings, repo } = live;
    const cache = repo.compiled;
    const saved = encode(
      {
        list: [3],
        byId: new Map([[2, { n: 2 }]]),
        tags: new Set(['y']),
        settings: { a: 5 },
        repo: Object.assign(new Repo(), { nextId: 9 }),
      },
      { dataClasses: [Repo] },
    ) as Record<string, Json>;
    // The saving code had settings.b (the user removed it) but not settings.fresh (added since).
    const shape = [...shapeOf(live), JSON.stringify(['settings', 'b'])].filter(
      (p) => p !== JSON.stringify(['settings', 'fresh']),
    );
    restoreInto(live, saved, { dataClasses: [Repo], shape });
    assert.strictEqual(live.list, list);
    assert.deepEqual(list, [3]);
    assert.strictEqual(live.byId, byId);
    assert.deepEqual([...byId], [[2, { n: 2 }]]);
    assert.strictEqual(live.tags, tags);
    assert.deepEqual([...tags], ['y']);
    assert.strictEqual(live.settings, settings);
    assert.deepEqual(settings, { a: 5, fresh: 'sample' }, 'removed stays removed; a newer field stays');
    assert.strictEqual(live.repo, repo);
    assert.equal(repo.nextId, 9);
    assert.strictEqual(repo.compiled, cache, 'a data class keeps the fields that were not saved');
    assert.equal(live.fn(), 'kept');
  });

  it('refuses saved data of another kind where the code relies on a Map or a class', () => {
    const live = { byId: new Map<number, unknown>(), repo: new Repo() };
    assert.throws(() => restoreInto(live, { byId: [[1, 2]] }), RestoreError);
    assert.throws(() => restoreInto(live, { repo: { nextId: 2 } }, { dataClasses: [Repo] }), RestoreError);
    assert.throws(() => restoreInto(live, { byId: { $: 'Nope', v: [] } }), /unknown tag "Nope"/);
    assert.throws(() => decode({ $: 'Ref', id: 4 }), /unknown object/);
  });

  it('merges two windows: each side’s changes, both appendices, the larger counter', () => {
    const base = encode({
      list: [1],
      byId: new Map([
        [1, 'a'],
        [2, 'b'],
      ]),
      counter: 5,
      title: 'x',
    });
    const ours = encode({
      list: [1, 2],
      byId: new Map([
        [1, 'a'],
        [2, 'B'],
      ]),
      counter: 6,
      title: 'ours',
    });
    const theirs = encode({
      list: [1, 3],
      byId: new Map([
        [1, 'a'],
        [2, 'b'],
        [3, 'c'],
      ]),
      counter: 7,
      title: 'theirs',
    });
    const conflicts: string[] = [];
    const merged = decode(merge3(base, ours, theirs, conflicts)) as Record<string, unknown>;
    assert.deepEqual(merged.list, [1, 2, 3]);
    assert.deepEqual(
      merged.byId,
      new Map([
        [1, 'a'],
        [2, 'B'],
        [3, 'c'],
      ]),
    );
    assert.equal(merged.counter, 7);
    assert.equal(merged.title, 'ours');
    assert.deepEqual(conflicts, ['title']);
    const removed = decode(
      merge3(
        base,
        encode({ ...(decode(base) as object), title: 'x' }),
        encode({ list: [1], counter: 5, title: 'x' }),
      ),
    );
    assert.ok(!('byId' in (removed as object)), 'a removal on one side is kept');
  });
});
