// The explorer's whole tree against the sandbox, in plain Node with a stand-in for `vscode`: every
// list expanded (deployments, workspace, folders, reports, workbooks, notifications and their
// recipients, env variables, dbt syncs, health, environments and their tokens, App config,
// Administration), each row as VS Code would show it (label, description, tooltip, icon and its
// colour, context value that picks its menu, click command, collapsible state). The first two rows
// of every distinct look and place are compared with test/unit/explorer/treeWalk.expected.txt; times that
// move with the clock (relative ages, timestamps the sandbox makes at start) and the sandbox's port
// are normalised. On a difference the test writes the tree it saw to a temporary file and names it:
// a deliberate change of the tree is reviewed there and copied over the expected file by hand.
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { PlatformClient } from '../../../src/api';
import { startSandbox, type SandboxHandle } from '../../../src/sandbox';
import type * as ProviderModule from '../../../src/explorer/explorerProvider';
import type { ExplorerNode } from '../../../src/explorer/nodes/types';
import { useTreeStandIn, type TreeStub } from './treeStandIn';

interface Row {
  depth: number;
  node: ExplorerNode;
  text: string;
  /** What makes two rows alike: kind, context value, icon, command, collapsible state, place. */
  look: string;
}

const root = path.resolve(__dirname, '..', '..', '..', '..');
const EXPECTED = path.join(root, 'test', 'unit', 'explorer', 'treeWalk.expected.txt');

/** Times and the port that differ from run to run, replaced by placeholders. */
export function normalise(text: string): string {
  return text
    .replace(/\d{4}\\?-\d{2}\\?-\d{2}T\d{2}\\?:\d{2}\\?:\d{2}(\\?\.\d+)?Z/g, '<timestamp>')
    .replace(/127\\?\.0\\?\.0\\?\.1\\?:\d+/g, '<sandbox>')
    .replace(
      /\b(just now|yesterday|last (week|month|year)|in \d+ \w+|\d+ (second|minute|hour|day|week|month|year)s? ago|a (minute|second|moment) ago)\b/g,
      '<ago>',
    )
    .replace(/\b\d+(\.\d+)? s\b/g, '<seconds>');
}

describe('explorer: the whole tree against the sandbox, as VS Code shows it', function () {
  this.timeout(120_000);
  let sb: SandboxHandle;
  let stub: TreeStub;
  let standIn: { uninstall(): void };
  let M: typeof ProviderModule;

  before(async () => {
    stub = { settings: {} };
    standIn = useTreeStandIn(() => stub);
    // eslint-disable-next-line @typescript-eslint/no-require-imports
    M = require('../../../src/explorer/explorerProvider') as typeof ProviderModule;
    sb = await startSandbox({});
  });
  after(async () => {
    await sb?.close();
    standIn.uninstall();
  });

  function provider(token: string, hasProfile = true): ProviderModule.ExplorerProvider {
    const client = new PlatformClient({
      baseUrl: sb.urls.platform,
      token: async () => token,
      retry: { retries: 0, baseDelayMs: 1, maxDelayMs: 1 },
    });
    return new M.ExplorerProvider(
      async () => client as never,
      () => hasProfile,
    );
  }

  async function walk(p: ProviderModule.ExplorerProvider, from?: ExplorerNode, maxDepth = 8): Promise<Row[]> {
    const out: Row[] = [];
    const go = async (node: ExplorerNode | undefined, depth: number) => {
      for (const k of await p.getChildren(node)) {
        const t = p.getTreeItem(k) as unknown as {
          label: unknown;
          description?: string;
          tooltip?: string | { value: string };
          contextValue?: string;
          iconPath?: { id: string; color?: { id: string } };
          collapsibleState: number;
          command?: { command: string; arguments?: unknown[]; title?: string };
          id?: string;
        };
        const tip = typeof t.tooltip === 'string' ? t.tooltip : t.tooltip?.value;
        const icon = t.iconPath ? `${t.iconPath.id}${t.iconPath.color ? `~${t.iconPath.color.id}` : ''}` : '';
        const command = t.command
          ? `${t.command.command}${t.command.title ? ` "${t.command.title}"` : ''}`
          : '';
        const look = [k.kind, t.contextValue ?? '', icon, command, t.collapsibleState].join(' | ');
        // Where the row is: its id with numbers and times taken out (a workbook in the Workbooks
        // list and one in the Workspace read differently).
        const place = normalise(k.id).replace(/\d+/g, '#');
        const text = normalise(
          [
            `${'  '.repeat(depth)}${String(t.label)}`,
            `  description: ${t.description ?? ''}`,
            `  look: ${look}`,
            `  id: ${t.id ?? ''}`,
            ...(tip ? tip.split('\n').map((l) => `  tip: ${l}`) : []),
          ].join('\n'),
        );
        out.push({ depth, node: k, text, look: `${look} | ${place}` });
        if (t.collapsibleState !== 0 && depth < maxDepth) await go(k, depth + 1);
      }
    };
    await go(from, 0);
    return out;
  }

  /** The first two rows of each look, in tree order. */
  function sample(rows: Row[]): string {
    const seen = new Map<string, number>();
    const kept: string[] = [];
    for (const r of rows) {
      const n = seen.get(r.look) ?? 0;
      seen.set(r.look, n + 1);
      if (n < 2) kept.push(r.text);
    }
    return `${kept.join('\n')}\n`;
  }

  it('every kind of row reads as expected (labels, descriptions, tooltips, icons, menus, commands)', async () => {
    const p = provider(sb.tokens.admin);
    const rows = await walk(p);
    assert.ok(rows.length > 1000, `the whole sandbox tree (${rows.length} rows)`);
    const actual = sample(rows);
    const expected = fs.existsSync(EXPECTED) ? fs.readFileSync(EXPECTED, 'utf8') : '';
    if (actual !== expected) {
      const file = path.join(os.tmpdir(), `dp-treeWalk-actual-${process.pid}.txt`);
      fs.writeFileSync(file, actual);
      const a = actual.split('\n');
      const e = expected.split('\n');
      const at = a.findIndex((l, i) => l !== e[i]);
      assert.fail(
        `The tree differs from ${path.relative(root, EXPECTED)} at line ${at + 1}:\n  expected: ${e[at]}\n  actual:   ${a[at]}\nThe whole tree seen: ${file}`,
      );
    }
    p.dispose();
  });

  it('ids are unique and stable: a second walk gives the same ids, and each row’s parent holds it', async () => {
    const p = provider(sb.tokens.admin);
    const first = await walk(p, undefined, 3);
    const ids = first.map((r) => r.node.id);
    assert.equal(new Set(ids).size, ids.length, 'no two rows share an id');
    const again = await walk(p, undefined, 3);
    assert.deepEqual(
      again.map((r) => r.node.id),
      ids,
    );
    // A server item's node is the same object on every render (status rows are made anew; VS Code
    // keeps expansion and selection by id).
    const items = new Set([
      'deployment',
      'folder',
      'report',
      'workbook',
      'notification',
      'recipient',
      'envVar',
      'user',
    ]);
    const remade = again.filter((r, i) => items.has(r.node.kind) && r.node !== first[i]!.node);
    assert.deepEqual(
      remade.map((r) => r.node.id),
      [],
    );
    assert.ok(again.filter((r) => items.has(r.node.kind)).length > 50);
    for (const r of first.filter((x) => x.depth > 0)) assert.ok(r.node.parent, `${r.node.id} has a parent`);
    assert.ok(first.filter((x) => x.depth > 0).length > 50);
    p.dispose();
  });

  it('a member’s token: Administration lists are refused once each, with no retry row', async () => {
    const p = provider(sb.tokens.member);
    const top = await p.getChildren();
    const admin = top.find(
      (n) => n.kind === 'adminSection' || String(p.getTreeItem(n).label) === 'Administration',
    );
    assert.ok(admin, 'Administration is shown');
    const rows = await walk(p, admin, 2);
    const errors = rows.filter((r) => r.node.kind === 'error');
    assert.ok(errors.length > 0, rows.map((r) => r.text).join('\n'));
    for (const e of errors) {
      assert.match(e.text, /needs the admin role/);
      assert.doesNotMatch(e.look, /retry/i, 'a member stays a member: no retry');
    }
    p.dispose();
  });

  it('no profile: an empty tree, so the welcome view shows', async () => {
    const p = provider(sb.tokens.admin, false);
    assert.deepEqual(await p.getChildren(), []);
    p.dispose();
  });
});
