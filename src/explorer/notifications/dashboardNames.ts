// The names of the dashboards notifications point at (a notification carries only `dashboardId`).
// Read from the deployment's workbooks, page by page until every id asked for is known, once per
// client and deployment. No `vscode`, no zod: the tree's loaders use it in the startup bundle.
import type { Page, PageParams } from '../../api/paging';
import { publishedDashboardOf } from '../../api/platform/workbookShapes';

type Item = Record<string, unknown>;

/** The part of the client read here (structural: the tree's ListingClient and test doubles fit). */
export interface WorkbookListing {
  listWorkbooks(deploymentId: number, p?: PageParams, signal?: AbortSignal): Promise<Page<Item>>;
}

/** Where a listed notification keeps its dashboard's name (a symbol: never shown in its JSON). */
export const DASHBOARD_NAME = Symbol('dashboardName');

interface Known {
  names: Map<number, string>;
  after?: string;
  done: boolean;
  busy: Promise<void>;
}

const caches = new WeakMap<object, Map<number, Known>>();

/** The dashboard's name: the published title, else the workbook's name. */
export function dashboardTitle(w: Item): string {
  const pub = publishedDashboardOf(w);
  const title = pub?.['title'];
  return typeof title === 'string' && title.trim() !== '' ? title : String(w['name'] ?? `#${w['id']}`);
}

function known(client: object, deploymentId: number): Known {
  let byDep = caches.get(client);
  if (!byDep) caches.set(client, (byDep = new Map()));
  let k = byDep.get(deploymentId);
  if (!k) byDep.set(deploymentId, (k = { names: new Map(), done: false, busy: Promise.resolve() }));
  return k;
}

/** Records names already read elsewhere (e.g. a dashboard picker's pages). */
export function rememberDashboards(client: object, deploymentId: number, workbooks: Item[]): void {
  const k = known(client, deploymentId);
  for (const w of workbooks) {
    const name = dashboardTitle(w);
    if (typeof w['id'] === 'number') k.names.set(w['id'], name);
    const pubId = publishedDashboardOf(w)?.['id'];
    if (typeof pubId === 'number') k.names.set(pubId, name);
  }
}

export function dashboardName(client: object, deploymentId: number, id: unknown): string | undefined {
  return typeof id === 'number' ? caches.get(client)?.get(deploymentId)?.names.get(id) : undefined;
}

/** Fetches workbook pages until every id is named (or the list ends). Failures leave names unknown. */
export async function resolveDashboardNames(
  client: WorkbookListing,
  deploymentId: number,
  ids: number[],
  signal?: AbortSignal,
): Promise<void> {
  const k = known(client, deploymentId);
  const run = async () => {
    while (!k.done && ids.some((id) => !k.names.has(id))) {
      const page = await client.listWorkbooks(
        deploymentId,
        k.after !== undefined ? { first: 100, after: k.after } : { first: 100 },
        signal,
      );
      rememberDashboards(client, deploymentId, page.items);
      const next = page.pageInfo?.hasNextPage ? page.pageInfo.endCursor : undefined;
      if (next) k.after = next;
      else k.done = true;
    }
  };
  // One walk at a time per deployment, so two lists loading together do not fetch the same pages.
  const mine = k.busy.then(run, run);
  k.busy = mine.catch(() => undefined);
  await mine;
}

/** Puts the dashboard's name on each listed notification (under DASHBOARD_NAME). Never fails the page. */
export async function nameDashboards(
  client: WorkbookListing,
  deploymentId: number,
  notifications: Item[],
  signal?: AbortSignal,
): Promise<void> {
  const ids = notifications.map((n) => n['dashboardId']).filter((v): v is number => typeof v === 'number');
  try {
    await resolveDashboardNames(client, deploymentId, ids, signal);
  } catch {
    // Without the right to list workbooks (or offline), rows fall back to the dashboard's id.
  }
  for (const n of notifications) {
    const name = dashboardName(client, deploymentId, n['dashboardId']);
    if (name !== undefined) (n as Record<symbol, unknown>)[DASHBOARD_NAME] = name;
  }
}
