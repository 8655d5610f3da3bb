// The explorer's tree as the suites walk it through its provider (the nodes a user sees as rows).
import * as vscode from 'vscode';

/* eslint-disable @typescript-eslint/no-explicit-any -- the nodes and the explorer are the extension's own objects */

/**
 * The deployment's row under Deployments, clicking "Load more" (its command) until it is listed:
 * with a small page size, or after other suites added deployments, it may not be on the first page.
 */
export async function deploymentNode(ex: any, id: number): Promise<any> {
  const list = ex.provider.roots.deployments;
  for (;;) {
    const kids: any[] = await ex.provider.getChildren(list);
    const d = kids.find((n) => n.kind === 'deployment' && n.deploymentId === id);
    if (d) return d;
    const more = kids.find((n) => n.kind === 'loadMore');
    if (!more) throw new Error(`deployment ${id} not found`);
    await vscode.commands.executeCommand('dashboardPlatform.explorer.loadMore', more);
  }
}
