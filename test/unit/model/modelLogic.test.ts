// The vscode-free logic of the data model feature: model URIs, where a compiler error points,
// the default branch, the YAML cursor context for completions and hover, the upload hash diff,
// the source-tree reading, and the build and dev-mode URLs.
import * as assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { buildApiUrlOf, devModeDataApiUrl, flattenTree, planUpload } from '../../../src/api';
import { defaultBranchOf, locateError, modelUriPath, parseModelUri } from '../../../src/model/modelPaths';
import { currentCube, referenceAt, yamlContext } from '../../../src/model/yamlContext';

const YAML = `cubes:
  - name: orders
    sql_table: orders
    joins:
      - name: customers
        relationship: many_to_one
        sql: "{CUBE}.customer_id = {customers.id}"
    measures:
      - name: count
        type: count
    pre_aggregations:
      - name: by_status
        measures:
          - count
        time_dimension: created_at
  - name: customers
    sql: "SELECT * FROM customers"
`.split('\n');

describe('model: paths and errors', () => {
  it('round-trips a branch with slashes through a model URI path', () => {
    const p = modelUriPath('dev/ann orders', 'model/cubes/orders.yml');
    assert.equal(p, '/dev%2Fann%20orders/model/cubes/orders.yml');
    assert.deepEqual(parseModelUri('7', p), {
      deploymentId: 7,
      branch: 'dev/ann orders',
      path: 'model/cubes/orders.yml',
    });
    assert.deepEqual(parseModelUri('7', '/main'), { deploymentId: 7, branch: 'main', path: '' });
    assert.equal(parseModelUri('x', '/main'), undefined);
    assert.equal(parseModelUri('0', '/main'), undefined);
    // A branch segment that is not valid percent-encoding is no model URI.
    assert.equal(parseModelUri('7', '/%E0%A4%A/model/a.yml'), undefined);
  });

  it('finds file, line and column in the forms compilers print (0-based)', () => {
    assert.deepEqual(locateError('model/cubes/orders.yml:12:5 unknown type "sumx"'), {
      file: 'model/cubes/orders.yml',
      line: 11,
      column: 4,
      message: 'model/cubes/orders.yml:12:5 unknown type "sumx"',
    });
    const words = locateError('Unknown measure type at line 7, column 3', 'model/cubes/a.yml');
    assert.deepEqual([words.file, words.line, words.column], ['model/cubes/a.yml', 6, 2]);
    const paren = locateError('Bad indentation (4:9)', '/model/b.yml');
    assert.deepEqual([paren.file, paren.line, paren.column], ['model/b.yml', 3, 8]);
    const none = locateError('Cube orders is defined twice', null);
    assert.deepEqual([none.file, none.line, none.column], [undefined, 0, 0]);
  });

  it('takes the branch without a parent as the default', () => {
    assert.equal(defaultBranchOf([{ name: 'dev', parentBranch: 'master' }, { name: 'master' }]), 'master');
    assert.equal(defaultBranchOf([{ name: 'x' }, { name: 'main', parentBranch: null }]), 'main');
    assert.equal(defaultBranchOf([{ name: 'a', parentBranch: 'b' }]), 'a');
    assert.equal(defaultBranchOf([]), undefined);
  });
});

describe('model: YAML context', () => {
  const at = (line: number, before: string) => yamlContext(YAML, line, before);

  it('knows the cube a line belongs to', () => {
    assert.equal(currentCube(YAML, 9), 'orders');
    assert.equal(currentCube(YAML, 16), 'customers');
    assert.equal(currentCube(['measures:'], 0), undefined);
  });

  it('offers cubes after { and in a join name, members after cube. and CUBE.', () => {
    assert.deepEqual(at(6, '        sql: "{cus'), { kind: 'cube', prefix: 'cus' });
    assert.deepEqual(at(6, '        sql: "{customers.i'), { kind: 'member', cube: 'customers', prefix: 'i' });
    assert.deepEqual(at(6, '        sql: "{CUBE.'), { kind: 'member', cube: 'orders', prefix: '' });
    assert.deepEqual(at(4, '      - name: cu'), { kind: 'cube', prefix: 'cu' });
    assert.equal(at(8, '      - name: cou'), undefined, 'a measure name is free text');
  });

  it('offers the cube members in a pre-aggregation', () => {
    assert.deepEqual(at(13, '          - co'), { kind: 'member', cube: 'orders', prefix: 'co' });
    assert.deepEqual(at(14, '        time_dimension: cr'), { kind: 'member', cube: 'orders', prefix: 'cr' });
  });

  it('names a cube however its `- name:` line is spaced or quoted, and not from a comment', () => {
    const cube = (item: string) => currentCube(['cubes:', '  # - name: legacy', item, '    sql_table: t'], 3);
    const cases: [string, string | undefined][] = [
      ['  - name: orders', 'orders'],
      ['  -  name: orders', 'orders'],
      ['  - name : orders', 'orders'],
      ['  - name:  orders', 'orders'],
      ['  - name: "orders"', 'orders'],
      ["  - name: 'orders'", 'orders'],
      ['  - name: orders  ', 'orders'],
      ['  - title: orders', undefined],
    ];
    for (const [item, name] of cases) assert.equal(cube(item), name, item);
  });

  it('offers a pre-aggregation’s members only in its own lists and time_dimension, in a cube', () => {
    const cases: [number, string, unknown][] = [
      [13, '          - co', { kind: 'member', cube: 'orders', prefix: 'co' }],
      [13, '          -  co', { kind: 'member', cube: 'orders', prefix: 'co' }],
      [13, '          # co', undefined],
      [13, '          x - co', undefined],
      [13, '          - a b', undefined],
      [14, '        time_dimension: cr', { kind: 'member', cube: 'orders', prefix: 'cr' }],
      [14, '        time_dimension : cr', { kind: 'member', cube: 'orders', prefix: 'cr' }],
      [14, '        time_dimension:  cr', { kind: 'member', cube: 'orders', prefix: 'cr' }],
      [14, '        # time_dimension: cr', undefined],
      [14, '        time_dimension: created_at, x', undefined],
      // A time_dimension outside a pre-aggregation is free text.
      [9, '        time_dimension: cr', undefined],
    ];
    for (const [line, before, context] of cases) assert.deepEqual(at(line, before), context, before);
    // A view file has no cubes: a pre-aggregation there offers nothing.
    const view = [
      'views:',
      '  - name: v',
      '    pre_aggregations:',
      '      - name: p',
      '        measures:',
      '          - co',
    ];
    assert.equal(yamlContext(view, 5, '          - co'), undefined);
  });

  it('reads the reference under the cursor for hover', () => {
    assert.deepEqual(referenceAt(YAML, 6, 40), { cube: 'customers', member: 'id' });
    assert.deepEqual(referenceAt(YAML, 6, 16), { cube: 'orders' });
    assert.deepEqual(referenceAt(YAML, 4, 18), { cube: 'customers' });
  });

  it('takes the word the cursor touches, from its first character to just after its last', () => {
    const line = ['x orders.count y'];
    assert.deepEqual(
      [1, 2, 5, 14, 15].map((c) => referenceAt(line, 0, c)),
      [
        { cube: 'x' },
        { cube: 'orders', member: 'count' },
        { cube: 'orders', member: 'count' },
        { cube: 'orders', member: 'count' },
        { cube: 'y' },
      ],
    );
    assert.equal(referenceAt(line, 3, 0), undefined);
    // Before the first word (its indentation): nothing.
    assert.equal(referenceAt(['   x'], 0, 1), undefined);
  });

  it('reads a cube reference only right before the cursor, braced or bare', () => {
    assert.deepEqual(at(6, '        sql: "{customers.id} = {cus'), { kind: 'cube', prefix: 'cus' });
    assert.deepEqual(at(6, '        sql: orders.st'), { kind: 'member', cube: 'orders', prefix: 'st' });
    assert.deepEqual(at(6, '        sql: "${customers.'), { kind: 'member', cube: 'customers', prefix: '' });
  });
});

describe('model: upload plan and source tree', () => {
  const enc = (s: string) => new TextEncoder().encode(s);
  const sha1 = (s: string) => createHash('sha1').update(s).digest('hex');

  it('sends only changed and new files, lists removed ones, keeps the server hashes of the rest', () => {
    const local = [
      { path: 'model/a.yml', content: enc('a') },
      { path: 'model/b.yml', content: enc('b2') },
      { path: 'model/new.yml', content: enc('n') },
    ];
    const remote = new Map([
      ['model/a.yml', sha1('a')],
      ['model/b.yml', sha1('b')],
      ['model/gone.yml', sha1('g')],
    ]);
    const plan = planUpload(local, remote);
    assert.deepEqual(
      plan.changed.map((f) => f.path),
      ['model/b.yml', 'model/new.yml'],
    );
    assert.deepEqual(plan.added, ['model/new.yml']);
    assert.deepEqual(plan.removed, ['model/gone.yml']);
    assert.equal(plan.unchanged, 1);
    assert.equal(plan.manifest['model/a.yml']!.hash, sha1('a'));
    // The kind that matched (SHA-1) names the new hashes too.
    assert.equal(plan.manifest['model/b.yml']!.hash, sha1('b2'));
  });

  it('recognises git blob ids and MD5 as the server hash', () => {
    const blob = createHash('sha1').update('blob 1\0x').digest('hex');
    const md5 = createHash('md5').update('y').digest('hex');
    const plan = planUpload(
      [
        { path: 'x.yml', content: enc('x') },
        { path: 'y.yml', content: enc('y') },
      ],
      new Map([
        ['x.yml', blob],
        ['y.yml', md5],
      ]),
    );
    assert.equal(plan.changed.length, 0);
  });

  it('flattens nested and flat source trees, skipping nameless nodes', () => {
    const files = flattenTree([
      { name: 'model', type: 'directory', children: [{ name: 'orders.yml', content: 'cubes: []' }] },
      { path: '/model/views/v.yml', hash: 'h1' },
      { fileName: 'README.md', type: 'file' },
      { type: 'file' },
      42,
    ]);
    assert.deepEqual(files, [
      { path: 'model/orders.yml', content: 'cubes: []' },
      { path: 'model/views/v.yml', hash: 'h1' },
      { path: 'README.md' },
    ]);
  });

  it('puts the build API beside /api and dev mode under the deployment URL', () => {
    assert.equal(buildApiUrlOf('https://t.example.com/api'), 'https://t.example.com/build/api');
    assert.equal(buildApiUrlOf('http://127.0.0.1:4100/api/'), 'http://127.0.0.1:4100/build/api');
    assert.equal(
      devModeDataApiUrl('https://d1.example.com', 'dev/ann'),
      'https://d1.example.com/dev-mode/dev%2Fann/cubejs-api',
    );
    assert.equal(
      devModeDataApiUrl('http://127.0.0.1:4101/cubejs-api', 'b1'),
      'http://127.0.0.1:4101/dev-mode/b1/cubejs-api',
    );
  });
});
