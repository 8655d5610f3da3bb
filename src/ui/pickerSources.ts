// The long lists the flows pick from, page by page: a deployment's dashboards (published
// workbooks), the tenant's users, and the IANA timezones with the user's own zone first.
import type { PlatformClient } from '../api/platformClient';
import { publishedDashboardOf } from '../api/platform/workbookShapes';
import { dashboardTitle, rememberDashboards } from '../explorer/notifications/dashboardNames';
import type { Item } from '../explorer/loaders';
import type { Choice, PageOfChoices } from './quickInputTypes';

export const PICKER_PAGE = 50;

export interface DashboardRef {
  dashboardId: number;
  name: string;
}

/** The first page of a deployment's published dashboards; "Load more…" brings the next. */
export async function dashboardChoices(
  client: PlatformClient,
  deploymentId: number,
  after?: string,
): Promise<PageOfChoices<DashboardRef>> {
  const page = await client.listWorkbooks(
    deploymentId,
    after ? { first: PICKER_PAGE, after } : { first: PICKER_PAGE },
  );
  const items = page.items as Item[];
  rememberDashboards(client, deploymentId, items);
  const choices: Choice<DashboardRef>[] = [];
  for (const w of items) {
    const pub = publishedDashboardOf(w);
    // Only a published dashboard can be sent on a schedule.
    if (!pub) continue;
    const id = typeof pub['id'] === 'number' ? pub['id'] : Number(w['id']);
    const name = dashboardTitle(w);
    choices.push({
      label: name,
      description: typeof pub['publicId'] === 'string' ? pub['publicId'] : undefined,
      detail: typeof w['slug'] === 'string' ? `workbook ${w['slug']}` : undefined,
      id: String(id),
      value: { dashboardId: id, name },
    });
  }
  const next = page.pageInfo?.hasNextPage ? page.pageInfo.endCursor : undefined;
  return next ? { choices, more: () => dashboardChoices(client, deploymentId, next) } : { choices };
}

export interface UserRef {
  email: string;
  name?: string;
}

/** The tenant's users (SCIM), a page at a time, by e-mail with their names to search on. */
export async function userChoices(client: PlatformClient, after?: string): Promise<PageOfChoices<UserRef>> {
  const page = await client.listUsers(after ? { first: PICKER_PAGE, after } : { first: PICKER_PAGE });
  const choices: Choice<UserRef>[] = [];
  for (const u of page.items) {
    const email = u.emails?.find((e) => e.primary)?.value ?? u.emails?.[0]?.value ?? u.userName;
    if (!email) continue;
    const name = [u.name?.givenName, u.name?.familyName].filter(Boolean).join(' ') || undefined;
    choices.push({ label: email, description: name, value: { email, ...(name ? { name } : {}) } });
  }
  const next = page.pageInfo?.hasNextPage ? page.pageInfo.endCursor : undefined;
  return next ? { choices, more: () => userChoices(client, next) } : { choices };
}

/** Every IANA zone the runtime knows, the user's own first, then UTC, then A to Z. */
export function timezoneChoices(current?: string): Choice<string>[] {
  const own = Intl.DateTimeFormat().resolvedOptions().timeZone || 'UTC';
  const all = (Intl as { supportedValuesOf?: (k: string) => string[] }).supportedValuesOf?.('timeZone') ?? [];
  const first = [...new Set([current, own, 'UTC'].filter((z): z is string => !!z))];
  const rest = all.filter((z) => !first.includes(z));
  const offset = (zone: string) => {
    try {
      return new Intl.DateTimeFormat('en-US', { timeZone: zone, timeZoneName: 'shortOffset' })
        .formatToParts(new Date())
        .find((p) => p.type === 'timeZoneName')?.value;
    } catch {
      return undefined;
    }
  };
  return [...first, ...rest].map((zone) => ({
    label: zone,
    description: [offset(zone), zone === own ? 'your timezone' : zone === current ? 'current' : undefined]
      .filter(Boolean)
      .join(' · '),
    value: zone,
  }));
}
