// Completions, hover and diagnostics of query cells from the model's /v1/meta, in plain Node with a
// stand-in for `vscode`: what each JSON key and SQL position offers (labels, kinds, details, the
// text inserted, the FROM added with a bare column), what a hover says, the problems marked in a
// JSON cell, and which notebooks are checked again when their branch's model is rebuilt.
import assert from 'node:assert/strict';
import type { Meta } from '../../../src/api/schemas/data';
import { checkLoadQuery, FILTER_OPERATORS, MemberIndex } from '../../../src/notebook/memberIndex';
import { notebookDevBranch } from '../../../src/notebook/devBranch';
import { CubeSqlAccumulator, loadPayload } from '../../../src/notebook/results';
import type * as ProvidersModule from '../../../src/notebook/memberProviders';
import { fakeNotebook, installVscodeFake, type FakeNotebook, type VsHooks } from './vscodeFake';

const META = {
  cubes: [
    {
      name: 'orders',
      title: 'Orders',
      description: 'Every order',
      measures: [
        { name: 'orders.count', type: 'number', title: 'Count', description: 'How many' },
        { name: 'orders.total', type: 'number', title: 'Total' },
      ],
      dimensions: [
        { name: 'orders.status', type: 'string' },
        { name: 'orders.created_at', type: 'time' },
      ],
      segments: [{ name: 'orders.big', title: 'Big' }],
    },
    {
      name: 'users',
      measures: [{ name: 'users.count', type: 'number' }],
      dimensions: [{ name: 'users.city', type: 'string' }],
    },
  ],
} as unknown as Meta;

interface Pos {
  line: number;
  character: number;
}

function textDoc(text: string, languageId: string, id: string) {
  const lines = text.split('\n');
  const offsetAt = (p: Pos) => lines.slice(0, p.line).reduce((n, l) => n + l.length + 1, 0) + p.character;
  const positionAt = (o: number): Pos => {
    let line = 0;
    while (line < lines.length - 1 && o > lines[line]!.length) {
      o -= lines[line]!.length + 1;
      line++;
    }
    return { line, character: o };
  };
  return {
    languageId,
    uri: { toString: () => `cell:${id}` },
    getText: (r?: { start: Pos; end: Pos }) => (r ? text.slice(offsetAt(r.start), offsetAt(r.end)) : text),
    offsetAt,
    positionAt,
    lineAt: (l: number) => ({ text: lines[l]! }),
  };
}

type Doc = ReturnType<typeof textDoc>;
type Item = {
  label: string;
  kind: number;
  detail?: string;
  documentation?: string;
  sortText?: string;
  filterText?: string;
  insertText?: { value: string };
  additionalTextEdits?: { position: Pos; newText: string }[];
};

describe('notebook results and load checks, the edges', () => {
  it('a SQL result without its schema line has no columns, and its rows are kept', () => {
    const acc = new CubeSqlAccumulator(5);
    acc.add({ type: 'rows', rows: [[1], [2]] });
    assert.deepEqual(acc.payload(true), {
      version: 1,
      source: 'cubesql',
      columns: [],
      rows: [[1], [2]],
      totalRows: 2,
      partial: true,
      capped: false,
    });
  });
  it('order as pairs: each member checked where it is; order as an object: its keys; anything else: nothing', () => {
    const index = new MemberIndex(META);
    const text = '{"order":[["orders.count","asc"],["orders.big","desc"],["orders.nope","asc"],"x"]}';
    const problems = checkLoadQuery(text, index);
    assert.deepEqual(
      problems.map((p) => [p.message, text.slice(p.start, p.end)]),
      [
        ['"orders.big" is a segment, not allowed in order.', '"orders.big"'],
        [
          'Unknown member "orders.nope" in order: cube "orders" has no such member (members the model hides, such as primary keys, cannot be queried).',
          '"orders.nope"',
        ],
      ],
    );
    assert.deepEqual(checkLoadQuery('{"order":{"orders.count":"asc"}}', index), []);
    assert.deepEqual(checkLoadQuery('{"order":"orders.nope"}', index), []);
    assert.deepEqual(checkLoadQuery('{"order":null}', index), []);
    assert.deepEqual(checkLoadQuery('{', index), []);
  });
  it('a rollup without its build time has no build time', () => {
    const p = loadPayload(
      {
        results: [
          {
            annotation: { measures: {}, dimensions: {}, timeDimensions: {} },
            data: [],
            usedPreAggregations: { t: { preAggregationId: 'orders.main' } },
          },
        ],
      } as never,
      10,
    );
    assert.deepEqual(p.rollups, [{ id: 'orders.main' }]);
  });
  it('the dev branch of a notebook: a non-blank string in its metadata', () => {
    assert.equal(notebookDevBranch({ metadata: { devBranch: 'b' } } as never), 'b');
    assert.equal(notebookDevBranch({ metadata: { devBranch: ' ' } } as never), undefined);
    assert.equal(notebookDevBranch({ metadata: { devBranch: 1 } } as never), undefined);
    assert.equal(notebookDevBranch({ metadata: undefined } as never), undefined);
  });
  it('a load query that is not an object has nothing to check', () => {
    const index = new MemberIndex(META);
    assert.deepEqual(
      ['null', '3', '"x"', '[]'].map((t) => checkLoadQuery(t, index)),
      [[], [], [], []],
    );
    assert.deepEqual(index.cubes.get('orders'), { title: 'Orders', description: 'Every order' });
  });
});

describe('notebook member completions, hover and diagnostics', () => {
  let fake: ReturnType<typeof installVscodeFake>;
  let hooks: VsHooks;
  let M: typeof ProvidersModule;
  let n = 0;
  const metaCalls: unknown[] = [];
  let failMeta = false;

  before(() => {
    fake = installVscodeFake();
    hooks = fake.hooks;
    M = fake.load('../../../src/notebook/memberProviders');
  });
  after(() => fake.uninstall());

  /** A notebook holding the documents, open in the stand-in, with the providers registered. */
  function setUp(
    docs: Doc[],
    meta: Record<string, unknown> = {},
    rebuilt?: (l: (e: unknown) => void) => void,
  ) {
    hooks.reset();
    metaCalls.length = 0;
    const nb: FakeNotebook = fakeNotebook(meta);
    nb.cells = docs.map((document, index) => ({
      index,
      kind: 2,
      notebook: nb,
      metadata: {},
      outputs: [],
      document,
    }));
    hooks.notebookDocuments = [nb];
    const listeners: ((e: unknown) => void)[] = [];
    const disposables = M.registerMemberProviders(
      async (x) => {
        metaCalls.push(x);
        return {
          meta: async () => {
            if (failMeta) throw new Error('meta failed');
            return META;
          },
        } as never;
      },
      rebuilt
        ? (((l: (e: unknown) => void) => (listeners.push(l), { dispose: () => undefined })) as never)
        : undefined,
    );
    return { nb, disposables, fireRebuilt: (e: unknown) => listeners.forEach((l) => l(e)) };
  }

  const complete = async (
    text: string,
    languageId: string,
    at = text.length,
    full = text,
  ): Promise<Item[]> => {
    const d = textDoc(full, languageId, `c${n++}`);
    setUp([d]);
    const items = await hooks.completion!.provider.provideCompletionItems(d, d.positionAt(at));
    return JSON.parse(JSON.stringify(items)) as Item[];
  };
  const brief = (items: Item[]) => items.map((i) => [i.label, i.kind, i.detail, i.documentation]);

  describe('JSON cells', () => {
    it('measures offer measures; dimensions dimensions; time dimensions those of time; segments segments', async () => {
      assert.deepEqual(brief(await complete('{"measures":["', 'json')), [
        ['orders.count', 4, 'measure · number', 'How many'],
        ['orders.total', 4, 'measure · number', 'Total'],
        ['users.count', 4, 'measure · number', undefined],
      ]);
      assert.deepEqual(brief(await complete('{"dimensions":["', 'json')), [
        ['orders.status', 9, 'dimension · string', undefined],
        ['orders.created_at', 9, 'dimension · time', undefined],
        ['users.city', 9, 'dimension · string', undefined],
      ]);
      assert.deepEqual(
        (await complete('{"timeDimensions":[{"dimension":"', 'json')).map((i) => i.label),
        ['orders.created_at'],
      );
      assert.deepEqual(brief(await complete('{"segments":["', 'json')), [
        ['orders.big', 9, 'segment', 'Big'],
      ]);
      assert.deepEqual(
        (await complete('{"filters":[{"member":"', 'json')).map((i) => i.label),
        [
          'orders.count',
          'orders.total',
          'orders.status',
          'orders.created_at',
          'orders.big',
          'users.count',
          'users.city',
        ],
      );
    });

    it('an operator offers the filter operators; outside a member key nothing', async () => {
      const ops = await complete('{"filters":[{"member":"orders.status","operator":"', 'json');
      assert.deepEqual(
        ops.map((i) => [i.label, i.kind]),
        FILTER_OPERATORS.map((o) => [o, 23]),
      );
      assert.deepEqual(
        (await complete('{"filters":[{"member":"orders.status","operator": eq', 'json')).length,
        FILTER_OPERATORS.length,
      );
      assert.deepEqual(await complete('{"limit": ', 'json'), []);
    });
  });

  describe('SQL cells', () => {
    it('in a query reading a cube: its columns by name, measures as MEASURE(…), then the cubes', async () => {
      const items = await complete('SELECT ', 'dashboard-platform-sql', 7, 'SELECT  FROM orders');
      assert.deepEqual(
        items.map((i) => [i.label, i.detail, i.sortText, i.insertText?.value, i.filterText]),
        [
          ['count', 'orders.count · measure · number', '0orders.count', 'MEASURE(count)', 'count'],
          ['total', 'orders.total · measure · number', '0orders.total', 'MEASURE(total)', 'total'],
          ['status', 'orders.status · dimension · string', '0orders.status', undefined, undefined],
          ['created_at', 'orders.created_at · dimension · time', '0orders.created_at', undefined, undefined],
          ['orders', 'Orders', '2orders', undefined, undefined],
          ['users', undefined, '2users', undefined, undefined],
        ],
      );
      assert.deepEqual(
        items.map((i) => i.kind),
        [4, 4, 9, 9, 6, 6],
      );
      assert.equal(items[4]!.documentation, 'Every order');
      assert.equal(items[0]!.documentation, 'How many');
    });

    it('after an alias and a dot: that cube’s columns as they are', async () => {
      const items = await complete('SELECT o.', 'sql', 9, 'SELECT o. FROM orders o');
      assert.deepEqual(
        items.map((i) => [i.label, i.sortText, i.insertText?.value]),
        [
          ['count', '0orders.count', undefined],
          ['total', '0orders.total', undefined],
          ['status', '0orders.status', undefined],
          ['created_at', '0orders.created_at', undefined],
        ],
      );
    });

    it('after FROM: the cubes first', async () => {
      const items = await complete('SELECT * FROM ', 'sql');
      assert.deepEqual(
        items.map((i) => [i.label, i.sortText]),
        [
          ['orders', '0orders'],
          ['users', '0users'],
        ],
      );
    });

    it('reading no cube yet: every member by its full name, inserting the bare column and the FROM', async () => {
      const items = await complete('SELECT ', 'sql');
      const count = items.find((i) => i.label === 'orders.count')!;
      assert.deepEqual(
        [count.sortText, count.filterText, count.insertText?.value, count.additionalTextEdits],
        ['1orders.count', 'orders.count count', 'MEASURE(count)$0\nFROM orders', undefined],
      );
      const city = items.find((i) => i.label === 'users.city')!;
      assert.equal(city.insertText?.value, 'city$0\nFROM users');
      assert.ok(!items.some((i) => i.label === 'orders.big'), 'no segment in SQL');
      // A later clause: the FROM goes in before it, as its own edit.
      const before = await complete('SELECT ', 'sql', 7, 'SELECT \nWHERE x = 1');
      const status = before.find((i) => i.label === 'orders.status')!;
      assert.equal(status.insertText?.value, 'status');
      assert.deepEqual(status.additionalTextEdits, [
        { position: { line: 1, character: 0 }, newText: 'FROM orders\n' },
      ]);
    });

    it('nothing without the model or outside a notebook', async () => {
      failMeta = true;
      try {
        assert.deepEqual(await complete('SELECT ', 'sql'), []);
      } finally {
        failMeta = false;
      }
      const stray = textDoc('SELECT ', 'sql', 'stray');
      setUp([]);
      assert.deepEqual(
        await hooks.completion!.provider.provideCompletionItems(stray, stray.positionAt(7)),
        [],
      );
    });
  });

  describe('hover', () => {
    const hover = async (line: string, character: number) => {
      const d = textDoc(line, 'sql', `h${n++}`);
      setUp([d]);
      const h = (await hooks.hover!.provideHover(d, { line: 0, character })) as
        { contents: { value: string }; range: { start: Pos; end: Pos } } | undefined;
      return h && { text: h.contents.value, from: h.range.start.character, to: h.range.end.character };
    };
    it('a member: its title, kind, type, name and description; a cube: its title and description', async () => {
      assert.deepEqual(await hover('SELECT orders.count FROM orders', 10), {
        text: '**Count** — measure (number)\n\n\n```text\norders.count\n```\nHow many',
        from: 7,
        to: 19,
      });
      assert.deepEqual(await hover('SELECT users.count FROM users', 7), {
        text: '**users.count** — measure (number)\n\n\n```text\nusers.count\n```\n',
        from: 7,
        to: 18,
      });
      assert.deepEqual(await hover('SELECT 1 FROM orders', 20), {
        text: '**Orders** — cube\n\nEvery order',
        from: 14,
        to: 20,
      });
      assert.deepEqual(await hover('SELECT 1 FROM users', 16), {
        text: '**users** — cube\n\n',
        from: 14,
        to: 19,
      });
    });
    it('nothing for an unknown word, a space, or without the model', async () => {
      assert.equal(await hover('SELECT nope FROM orders', 8), undefined);
      assert.equal(await hover('SELECT  1', 7), undefined);
      failMeta = true;
      try {
        assert.equal(await hover('SELECT 1 FROM orders', 16), undefined);
      } finally {
        failMeta = false;
      }
    });
  });

  describe('diagnostics of JSON cells', () => {
    const until = async (check: () => boolean) => {
      while (!check()) await new Promise((r) => setTimeout(r, 20));
    };
    const marks = (key: string) =>
      (
        hooks.diagnostics!.byUri.get(key) as
          { message: string; severity: number; source: string; range: { start: Pos; end: Pos } }[] | undefined
      )?.map((d) => [d.message, d.severity, d.source, d.range.start.character, d.range.end.character]);

    it('marks unknown members where they are typed, when a JSON cell opens or changes', async () => {
      const text = '{"measures":["orders.cuont"]}';
      const d = textDoc(text, 'json', 'd1');
      setUp([d]);
      assert.equal(hooks.diagnostics!.byUri.size, 0);
      for (const l of hooks.listeners.textOpen ?? []) l(d);
      await until(() => hooks.diagnostics!.byUri.has('cell:d1'));
      assert.deepEqual(marks('cell:d1'), [
        [
          'Unknown member "orders.cuont" in measures. Did you mean "orders.count"?',
          0,
          'Dashboard Platform',
          13,
          27,
        ],
      ]);
      hooks.diagnostics!.byUri.clear();
      for (const l of hooks.listeners.textChange ?? []) l({ document: d });
      await until(() => hooks.diagnostics!.byUri.has('cell:d1'));
      assert.equal(marks('cell:d1')!.length, 1);
    });

    it('checks a notebook again when it moves or when its branch’s model is rebuilt, and only then', async () => {
      const a = textDoc('{"measures":["orders.count"]}', 'json', 'a');
      const sql = textDoc('SELECT 1', 'sql', 's');
      const { nb, fireRebuilt } = setUp([a, sql], { devBranch: 'feat', deploymentId: 2 }, () => undefined);
      // Another branch, another deployment: nothing; this one: the JSON cell (not the SQL one).
      fireRebuilt({ deploymentId: 2, branch: 'other' });
      fireRebuilt({ deploymentId: 3, branch: 'feat' });
      fireRebuilt({ deploymentId: 2, branch: 'feat' });
      await until(() => hooks.diagnostics!.byUri.has('cell:a'));
      assert.deepEqual(marks('cell:a'), []);
      assert.equal(metaCalls.length, 1, 'one check');
      assert.equal(hooks.diagnostics!.byUri.has('cell:s'), false);
      hooks.diagnostics!.byUri.clear();
      for (const l of hooks.listeners.notebookChange ?? []) l({ notebook: nb, metadata: nb.metadata });
      await until(() => hooks.diagnostics!.byUri.has('cell:a'));
      assert.equal(metaCalls.length, 2);
      // A notebook without a deployment is rechecked for its branch on any deployment.
      nb.metadata = { devBranch: 'feat' };
      hooks.diagnostics!.byUri.clear();
      fireRebuilt({ deploymentId: 9, branch: 'feat' });
      await until(() => hooks.diagnostics!.byUri.has('cell:a'));
      assert.equal(metaCalls.length, 3);
    });
  });
});
