// Picking a report of a deployment by name: a quick pick that lists the reports (sorted by name)
// and searches the server as the user types, so a deployment with thousands of reports is still
// one box away. Keyboard-first; the widget's current report is marked.
import * as vscode from 'vscode';
import type { Services } from '../services';

interface ReportItem extends vscode.QuickPickItem {
  id: number;
}

/** How long typing pauses before the server is searched. */
const SEARCH_DELAY_MS = 250;
const PAGE = 100;

export async function pickReport(
  services: Services,
  deploymentId: number,
  opts: { title: string; current?: number },
): Promise<{ id: number; name: string } | undefined> {
  const client = await services.clients.platform();
  const qp = vscode.window.createQuickPick<ReportItem>();
  qp.title = opts.title;
  qp.placeholder = 'Type to search the reports by name';
  qp.matchOnDescription = true;
  qp.busy = true;
  let generation = 0;
  const load = async (search: string) => {
    const mine = ++generation;
    qp.busy = true;
    try {
      const page = await client.listReports(deploymentId, {
        first: PAGE,
        sortBy: 'name',
        ...(search.trim() ? { search: search.trim() } : {}),
      });
      if (mine !== generation) return;
      const items = page.items.map((r): ReportItem => ({
        id: r.id,
        label: r.title ?? r.name,
        description: [r.title && r.title !== r.name ? r.name : undefined, `id ${r.id}`]
          .filter(Boolean)
          .join(' · '),
        ...(r.id === opts.current ? { detail: 'Current report' } : {}),
      }));
      qp.items = items;
      const more = page.pageInfo?.hasNextPage ? ` (first ${items.length}; type to narrow)` : '';
      qp.placeholder =
        items.length === 0
          ? `No report matches "${search.trim()}"`
          : `Type to search the reports by name${more}`;
      // The current report is preselected only while nothing is typed: once the user searches,
      // the first match must be the one Enter takes.
      const current = items.find((i) => i.id === opts.current);
      if (current && !qp.value) qp.activeItems = [current];
    } catch (e) {
      if (mine !== generation) return;
      qp.items = [];
      qp.placeholder = `Could not list the reports: ${(e as Error).message}`;
      services.log.warn(`Report picker: ${(e as Error).message}`);
    } finally {
      if (mine === generation) qp.busy = false;
    }
  };
  let timer: ReturnType<typeof setTimeout> | undefined;
  return new Promise<{ id: number; name: string } | undefined>((resolve) => {
    const subs = [
      qp.onDidChangeValue((v) => {
        if (timer) clearTimeout(timer);
        timer = setTimeout(() => void load(v), SEARCH_DELAY_MS);
      }),
      qp.onDidAccept(() => {
        const picked = qp.selectedItems[0] ?? qp.activeItems[0];
        if (!picked) return;
        resolve({ id: picked.id, name: picked.label });
        qp.hide();
      }),
      qp.onDidHide(() => {
        if (timer) clearTimeout(timer);
        for (const s of subs) s.dispose();
        qp.dispose();
        resolve(undefined);
      }),
    ];
    qp.show();
    void load('');
  });
}
