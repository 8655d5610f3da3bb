// The .vsix holds what runs, and only that. The shipped list comes from vsce itself (the same
// .vscodeignore and rules `npm run package` applies); what runs is followed from the manifest:
// package.json's paths, then every file a reached file names (a worker, the MCP server's sandbox,
// sql.js's WebAssembly, the codicon font), the lazily loaded bundles of dist/bundles.json and the
// webview pages the host opens by name. Needs a build (node esbuild.mjs; npm test builds first).
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';

const root = path.resolve(__dirname, '../../..');
const dist = path.join(root, 'dist');

/** Files vsce always wants beside the code (the manifest and the Marketplace's pages). */
const METADATA = new Set(['package.json', 'README.md', 'CHANGELOG.md', 'LICENSE']);
/** Text files whose references are followed. */
const TEXT = /\.(js|css|json|md)$/;

function filesUnder(dir: string): string[] {
  if (!fs.existsSync(path.join(root, dir))) return [];
  return (fs.readdirSync(path.join(root, dir), { recursive: true, withFileTypes: true }) as fs.Dirent[])
    .filter((d) => d.isFile())
    .map((d) => path.relative(root, path.join(d.parentPath, d.name)).split(path.sep).join('/'));
}

const escape = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/** The files of dist/ and media/ that the extension and its MCP server load, with why. */
function loadedFiles(): Map<string, string> {
  const candidates = [...filesUnder('dist'), ...filesUnder('media')];
  const byName = new Map<string, string[]>();
  for (const c of candidates) {
    const b = path.posix.basename(c);
    byName.set(b, [...(byName.get(b) ?? []), c]);
  }
  const names = new RegExp(`["'\`/(](${[...byName.keys()].map(escape).join('|')})["'\`?#)]`, 'g');
  const reached = new Map<string, string>();
  const queue: string[] = [];
  const reach = (file: string, why: string) => {
    if (reached.has(file) || !fs.existsSync(path.join(root, file))) return;
    reached.set(file, why);
    queue.push(file);
  };
  // The manifest: main, the notebook renderer, schemas, grammars, icons, walkthrough pages.
  const walk = (v: unknown) => {
    if (typeof v === 'string') {
      const p = v.replace(/^\.\//, '');
      if (/^(dist|media)\//.test(p)) reach(p, 'package.json');
    } else if (v && typeof v === 'object') Object.values(v).forEach(walk);
  };
  walk(JSON.parse(fs.readFileSync(path.join(root, 'package.json'), 'utf8')));
  while (queue.length) {
    const file = queue.shift()!;
    if (!TEXT.test(file)) continue;
    // Source map comments name the bundle itself and load nothing.
    const text = fs.readFileSync(path.join(root, file), 'utf8').replace(/\/\/# sourceMappingURL=.*$/gm, '');
    // A file's name as a string or path end: "exportWorker.js", url("./codicon.ttf?…").
    for (const m of text.matchAll(names)) {
      for (const c of byName.get(m[1]!) ?? []) if (c !== file) reach(c, file);
    }
    if (file === 'dist/bundles.json') {
      // src/lazyModule.ts requires `${bundle}.js` beside the startup bundle.
      const lazy = JSON.parse(text) as Record<string, string>;
      for (const b of new Set(Object.values(lazy))) reach(`dist/${b}.js`, 'dist/bundles.json');
    }
    if (file.startsWith('dist/') && file.endsWith('.js')) {
      // src/ui/webviewHtml.ts: a page `name` loads dist/webview/<name>.js and media/<name>.css.
      for (const m of text.matchAll(/name:\s*"([\w-]+)",\s*title:/g)) {
        reach(`dist/webview/${m[1]}.js`, `${file} (webview page)`);
        reach(`media/${m[1]}.css`, `${file} (webview page)`);
      }
    }
  }
  return reached;
}

async function shippedFiles(): Promise<string[]> {
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  const vsce = require('@vscode/vsce') as {
    listFiles(o: { cwd: string; packageManager: string }): Promise<string[]>;
  };
  return (await vsce.listFiles({ cwd: root, packageManager: 'none' })).map((f) =>
    f.split(path.sep).join('/'),
  );
}

describe('package: the .vsix holds what runs', function () {
  let shipped: string[];
  before(async function () {
    this.timeout(120_000); // vsce walks the whole folder, node_modules included
    // The unit suite runs after the build in npm test; alone, without dist/, there is nothing to check.
    if (!fs.existsSync(path.join(dist, 'bundles.json'))) {
      console.log('      skipped: dist/ is not built (run node esbuild.mjs)');
      this.skip();
    }
    shipped = await shippedFiles();
  });

  it('ships every file the extension and its MCP server load, and nothing else', async () => {
    const loaded = loadedFiles();
    const extra = shipped.filter((f) => !METADATA.has(f) && !loaded.has(f));
    const missing = [...loaded.keys()].filter((f) => !shipped.includes(f));
    assert.deepEqual(extra, [], `shipped but never loaded: ${extra.join(', ')}`);
    assert.deepEqual(
      missing,
      [],
      `loaded but not shipped: ${missing.map((f) => `${f} (named by ${loaded.get(f)})`).join(', ')}`,
    );
    // The walk found the pieces that are loaded only by name.
    for (const f of [
      'dist/extension.js',
      'dist/api.js',
      'dist/notebook.js',
      'dist/exportWorker.js',
      'dist/sandboxWorker.js',
      'dist/mcp.js',
      'dist/sandbox.js',
      'dist/sql-wasm.wasm',
      'dist/webview/chat.js',
      'dist/codicons/codicon.ttf',
      'media/chat.css',
      'media/webview.css',
    ])
      assert.ok(loaded.has(f), `${f} is loaded`);
  });

  it('leaves out the sandbox CLI, source maps and sources', () => {
    assert.ok(shipped.includes('dist/extension.js'), 'the list is the package');
    assert.deepEqual(
      shipped.filter(
        (f) => f.startsWith('dist/cli/') || f.endsWith('.map') || /^(src|test|webview)\//.test(f),
      ),
      [],
    );
  });
});
