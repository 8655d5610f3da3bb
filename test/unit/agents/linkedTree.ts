// A folder with links leading out of it (a file link, a linked folder, a dangling link) and the
// outside files they point at, plus links and names that stay inside: what a cloned repository can
// carry. Used by the path tests of the tool functions and of the MCP server.
import * as fs from 'node:fs';
import * as path from 'node:path';

export const VICTIM = 'VICTIM-CONTENT-3f9a';

/** A root with links leading out of it, and the outside files they point at. */
export function linkedTree(base: string): { root: string; outside: string } {
  const root = path.join(base, 'root');
  const outside = path.join(base, 'outside');
  fs.mkdirSync(path.join(outside, 'dir'), { recursive: true });
  fs.mkdirSync(root, { recursive: true });
  const victim = `${JSON.stringify({ workbookId: 1001, title: VICTIM, description: VICTIM }, null, 2)}\n`;
  fs.writeFileSync(path.join(outside, 'victim.dashboard.json'), victim);
  fs.writeFileSync(path.join(outside, 'dir', 'victim.dashboard.json'), victim);
  fs.symlinkSync(path.join('..', 'outside', 'victim.dashboard.json'), path.join(root, 'link.dashboard.json'));
  fs.symlinkSync(path.join('..', 'outside', 'dir'), path.join(root, 'linked'), 'dir');
  fs.symlinkSync(
    path.join('..', 'outside', 'new.dashboard.json'),
    path.join(root, 'dangling.dashboard.json'),
  );
  fs.writeFileSync(
    path.join(root, 'inner.dashboard.json'),
    `${JSON.stringify({ workbookId: 1001, title: 'Inner' }, null, 2)}\n`,
  );
  fs.symlinkSync('inner.dashboard.json', path.join(root, 'alias.dashboard.json'));
  fs.writeFileSync(
    path.join(root, '..notes.dashboard.json'),
    `${JSON.stringify({ workbookId: 1001, title: 'Notes' }, null, 2)}\n`,
  );
  return { root, outside };
}
