// The import-circle check (scripts/check-cycles.mjs, a step of `npm run lint`): a project whose
// files import each other in a loop, type-only imports included, is reported with the loop's
// files; the same project with the loop opened passes.
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import { createRequire } from 'node:module';
import * as os from 'node:os';
import * as path from 'node:path';

interface Circle {
  files: string[];
  loop: string[];
}
interface CheckCycles {
  findCircles(root: string, folders?: string[]): Circle[];
  describeCircles(found: Circle[]): string;
}

const root = path.resolve(__dirname, '..', '..', '..');
// Node 20.19+ loads an ES module through require (the check script is one).
const checker = createRequire(__filename)(path.join(root, 'scripts', 'check-cycles.mjs')) as CheckCycles;

/** A throwaway project: tsconfig.json plus `files` (path -> text); returns its root. */
function project(files: Record<string, string>): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'dp-check-cycles-'));
  fs.writeFileSync(
    path.join(dir, 'tsconfig.json'),
    JSON.stringify({ compilerOptions: { module: 'commonjs', moduleResolution: 'node10' } }),
  );
  for (const [file, text] of Object.entries(files)) {
    fs.mkdirSync(path.dirname(path.join(dir, file)), { recursive: true });
    fs.writeFileSync(path.join(dir, file), text);
  }
  return dir;
}

describe('import circle check', () => {
  const dirs: string[] = [];
  const make = (files: Record<string, string>) => {
    const d = project(files);
    dirs.push(d);
    return d;
  };
  after(() => {
    for (const d of dirs) fs.rmSync(d, { recursive: true, force: true });
  });

  const layered = {
    'src/feature/commands.ts': "import { Tree } from '../tree';\nexport const run = (t: Tree) => t;\n",
    'src/tree/index.ts': "import { label } from './labels';\nexport class Tree { name = label('x'); }\n",
    'src/tree/labels.ts': 'export const label = (s: string) => s;\n',
    'webview/panel/index.ts': "import { label } from '../../src/tree/labels';\nlabel('y');\n",
  };

  it('passes a project whose imports run one way', () => {
    assert.deepEqual(checker.findCircles(make(layered)), []);
  });

  it('reports a circle closed by a type-only import, naming its files and a loop', () => {
    const dir = make({
      ...layered,
      // The tree reaching back into a feature closes feature -> tree -> labels -> feature.
      'src/tree/labels.ts':
        "import type { run } from '../feature/commands';\nexport type Run = typeof run;\nexport const label = (s: string) => s;\n",
    });
    const found = checker.findCircles(dir);
    assert.equal(found.length, 1);
    assert.deepEqual(found[0]!.files, ['src/feature/commands.ts', 'src/tree/index.ts', 'src/tree/labels.ts']);
    assert.deepEqual(found[0]!.loop, [
      'src/feature/commands.ts',
      'src/tree/index.ts',
      'src/tree/labels.ts',
      'src/feature/commands.ts',
    ]);
    assert.match(
      checker.describeCircles(found),
      /Import circle 1 \(3 files\): src\/feature\/commands\.ts -> /,
    );
  });

  it('follows re-exports and finds two separate circles, leaving files outside them out', () => {
    const dir = make({
      ...layered,
      'src/a.ts': "export * from './b';\nexport const a = 1;\n",
      'src/b.ts': "export { a as fromA } from './a';\nexport const b = 2;\n",
      'webview/x.ts': "import { y } from './y';\nexport const x = () => y;\n",
      'webview/y.ts': "import { x } from './x';\nexport const y = () => x;\n",
    });
    const found = checker.findCircles(dir);
    assert.deepEqual(
      found.map((c) => c.files),
      [
        ['src/a.ts', 'src/b.ts'],
        ['webview/x.ts', 'webview/y.ts'],
      ],
    );
  });
});
