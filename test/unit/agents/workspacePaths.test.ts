// Files an agent touches stay inside the allowed root by REAL path: a link to a file outside, a
// linked folder, a dangling link, for reads and writes, through the helper and through the tool
// functions (propose_dashboard_change, publish_dashboard) as the MCP server runs them.
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { PlatformGateway, type ClientSource } from '../../../src/agents/gateway';
import { findTool, runTool } from '../../../src/agents/tools';
import {
  PathRefusedError,
  isInside,
  readInside,
  resolveInside,
  writeInside,
} from '../../../src/agents/tools/workspacePaths';
import { rootedFiles } from '../../../src/mcp/mcpServer';
import { VICTIM, linkedTree } from './linkedTree';

const quiet = { info() {}, warn() {} };

describe('workspace paths: real paths, links refused', () => {
  let base: string;
  let root: string;
  let outside: string;
  const victimText = () => fs.readFileSync(path.join(outside, 'victim.dashboard.json'), 'utf8');
  const victimDirText = () => fs.readFileSync(path.join(outside, 'dir', 'victim.dashboard.json'), 'utf8');

  beforeEach(() => {
    base = fs.mkdtempSync(path.join(os.tmpdir(), 'dp-paths-'));
    ({ root, outside } = linkedTree(base));
  });
  afterEach(() => fs.rmSync(base, { recursive: true, force: true }));

  it('isInside compares whole segments', () => {
    assert.equal(isInside('/a/b', '/a/b'), true);
    assert.equal(isInside('/a/b', '/a/b/c'), true);
    assert.equal(isInside('/a/b', '/a/bc'), false);
    assert.equal(isInside('/a/b', '/a'), false);
    assert.equal(isInside('/a/b', '/a/b/..c'), true);
  });

  it('refuses a file link and a linked folder leading out, for reads and writes, and never reads them', async () => {
    for (const file of [
      'link.dashboard.json',
      'linked/victim.dashboard.json',
      path.join(root, 'link.dashboard.json'),
    ]) {
      await assert.rejects(resolveInside([root], file), PathRefusedError, file);
      await assert.rejects(
        readInside([root], file),
        /leads outside the folder agents may use through a link/,
        file,
      );
      await assert.rejects(writeInside([root], file, 'overwritten'), PathRefusedError, file);
    }
    await assert.rejects(writeInside([root], 'linked/new.dashboard.json', 'x'), PathRefusedError);
    assert.ok(!fs.existsSync(path.join(outside, 'dir', 'new.dashboard.json')));
    assert.ok(victimText().includes(VICTIM) && victimDirText().includes(VICTIM));
  });

  it('refuses a dangling link (writing through it would create the outside target)', async () => {
    await assert.rejects(
      writeInside([root], 'dangling.dashboard.json', '{}'),
      /link whose target does not exist/,
    );
    assert.ok(!fs.existsSync(path.join(outside, 'new.dashboard.json')));
  });

  it('refuses ../ and absolute paths outside, allows a link inside, a "..name" file and a new file', async () => {
    await assert.rejects(resolveInside([root], '../outside/victim.dashboard.json'), PathRefusedError);
    await assert.rejects(
      resolveInside([root], path.join(outside, 'victim.dashboard.json')),
      PathRefusedError,
    );
    const alias = await readInside([root], 'alias.dashboard.json');
    assert.match(alias.text, /Inner/);
    assert.equal(alias.display, 'alias.dashboard.json');
    await writeInside([root], 'alias.dashboard.json', '{"workbookId":1001,"title":"Changed"}\n');
    assert.match(fs.readFileSync(path.join(root, 'inner.dashboard.json'), 'utf8'), /Changed/);
    assert.ok(
      fs.lstatSync(path.join(root, 'alias.dashboard.json')).isSymbolicLink(),
      'the link stays a link',
    );
    assert.match((await readInside([root], '..notes.dashboard.json')).text, /Notes/);
    const fresh = await resolveInside([root], 'fresh.dashboard.json');
    assert.equal(fresh.exists, false);
    await writeInside([root], 'fresh.dashboard.json', '{}');
    assert.equal(fs.readFileSync(path.join(root, 'fresh.dashboard.json'), 'utf8'), '{}');
  });

  it('accepts a root that is itself reached through a link (both sides compared by real path)', async () => {
    const viaLink = path.join(base, 'root-link');
    fs.symlinkSync(root, viaLink, 'dir');
    assert.match((await readInside([viaLink], 'inner.dashboard.json')).text, /Inner/);
    await assert.rejects(readInside([viaLink], 'link.dashboard.json'), PathRefusedError);
  });

  describe('through the tool functions (as the MCP server runs them)', () => {
    let published = 0;
    const gateway = new PlatformGateway(
      {
        platform: async () =>
          ({
            getDeployment: async () => ({ id: 1, name: 'Main' }),
            publishDashboard: async () => {
              published++;
              return { versionNumber: 9, status: 'published' };
            },
          }) as never,
        data: async () => {
          throw new Error('unused');
        },
      } as ClientSource,
      () => ({ name: 'P', production: false, sandbox: false, defaultDeploymentId: 1 }),
    );
    const run = (name: string, args: Record<string, unknown>, write = true) =>
      runTool(findTool(name)!, { gateway, redact: (s) => s, files: rootedFiles(root, write) }, args, {
        log: quiet,
        surface: 'test',
      });

    it('propose_dashboard_change refuses the links (read and write) and returns nothing of the outside file', async () => {
      for (const file of ['link.dashboard.json', 'linked/victim.dashboard.json']) {
        for (const args of [
          { file, changes: [{ path: ['title'], value: 'pwned' }] },
          { file, content: '{"workbookId": 1001, "title": "pwned"}' },
        ]) {
          const r = await run('propose_dashboard_change', args);
          assert.equal(r.ok, false, file);
          assert.match(r.text, /refused/, file);
          assert.ok(!r.text.includes(VICTIM), `${file}: the outside file's content is not returned`);
        }
      }
      assert.ok(victimText().includes(VICTIM) && !victimText().includes('pwned'));
      assert.ok(victimDirText().includes(VICTIM) && !victimDirText().includes('pwned'));
    });

    it('publish_dashboard refuses to read a linked file and publishes nothing', async () => {
      published = 0;
      for (const file of ['link.dashboard.json', 'linked/victim.dashboard.json']) {
        const r = await run('publish_dashboard', { file });
        assert.equal(r.ok, false);
        assert.match(r.text, /refused/);
        assert.ok(!r.text.includes(VICTIM));
      }
      assert.equal(published, 0);
      const ok = await run('publish_dashboard', { file: 'inner.dashboard.json' });
      assert.ok(ok.ok, ok.text);
      assert.equal(published, 1);
    });

    it('propose_dashboard_change still edits a file inside, through a link inside', async () => {
      const r = await run('propose_dashboard_change', {
        file: 'alias.dashboard.json',
        changes: [{ path: ['title'], value: 'Edited' }],
      });
      assert.ok(r.ok, r.text);
      assert.match(fs.readFileSync(path.join(root, 'inner.dashboard.json'), 'utf8'), /"title": "Edited"/);
    });
  });
});
