// Browsing tools: deployments, reports, workbooks, a report's SQL and notifications. All read-only.
import { z } from 'zod';
import type { Item, PageOf } from '../gateway';
import {
  cursorField,
  deploymentIdField,
  fenced,
  named,
  pageSizeField,
  quote,
  resolveDeployment,
} from './format';
import { defineTool, type ToolOutput } from './types';

const DEFAULT_PAGE = 50;

function pageFacts(page: PageOf<unknown>): ToolOutput['page'] {
  return {
    returned: page.items.length,
    hasMore: page.hasMore,
    ...(page.nextCursor ? { nextCursor: page.nextCursor } : {}),
  };
}

export const listDeployments = defineTool({
  name: 'list_deployments',
  title: 'List deployments',
  description:
    'Lists the deployments (semantic-layer projects) of the active Dashboard Platform profile: id and name. Use it first to find the deploymentId the other tools take. Pages with nextCursor.',
  input: z.object({ first: pageSizeField('deployments'), after: cursorField }),
  effect: 'read',
  summary: () => 'List the deployments',
  async execute(ctx, input, signal) {
    const page = await ctx.gateway.listDeployments(
      { first: input.first ?? DEFAULT_PAGE, after: input.after },
      signal,
    );
    const profile = ctx.gateway.profile();
    return {
      text: `Deployments of profile ${quote(profile.name)}${profile.defaultDeploymentId ? ` (default deployment ${profile.defaultDeploymentId})` : ''}.`,
      table: { columns: ['id', 'name'], rows: page.items.map((d) => [d.id, d.name]) },
      page: pageFacts(page),
    };
  },
});

export const searchReports = defineTool({
  name: 'search_reports',
  title: 'Search reports',
  description:
    "Searches the saved reports (queries) of a deployment by text in their name, on the server. Returns id, name, title and folder. Use get_report_sql to read one report's SQL.",
  input: z.object({
    deploymentId: deploymentIdField,
    search: z.string().optional().describe('Text to look for in report names; omit to list all.'),
    first: pageSizeField('reports'),
    after: cursorField,
  }),
  effect: 'read',
  summary: (i) => (i.search ? `Search reports for ${quote(i.search)}` : 'List reports'),
  async execute(ctx, input, signal) {
    const dep = await resolveDeployment(ctx.gateway, input.deploymentId, signal);
    const page = await ctx.gateway.listReports(
      dep.id,
      {
        first: input.first ?? DEFAULT_PAGE,
        after: input.after,
        ...(input.search ? { search: input.search } : {}),
      },
      signal,
    );
    return {
      text: `Reports in deployment ${named(dep.name, dep.id)}${input.search ? ` matching ${quote(input.search)}` : ''}.`,
      table: {
        columns: ['id', 'name', 'title', 'folderId'],
        rows: page.items.map((r) => [r.id, r.name, r.title, r.folderId]),
      },
      page: pageFacts(page),
    };
  },
});

/** Our own cursor for a client-side filtered list: the API cursor to resume from and matches to skip. */
interface FilterCursor {
  a?: string;
  s: number;
}
const encodeCursor = (c: FilterCursor) => Buffer.from(JSON.stringify(c)).toString('base64url');
function decodeCursor(text: string | undefined): FilterCursor {
  if (!text) return { s: 0 };
  try {
    const c = JSON.parse(Buffer.from(text, 'base64url').toString('utf8')) as FilterCursor;
    if (typeof c.s === 'number' && (c.a === undefined || typeof c.a === 'string')) return c;
  } catch {
    // fall through
  }
  throw new Error('The cursor is not one this tool returned; start again without "after".');
}

/** API pages read per call at most, so a rare match cannot make one call read the whole catalog. */
const MAX_SCAN_PAGES = 20;

export const searchWorkbooks = defineTool({
  name: 'search_workbooks',
  title: 'Search workbooks',
  description:
    'Finds workbooks (which hold dashboards) of a deployment whose name contains the text (case-insensitive), or lists all. Returns id, name, slug and whether a dashboard is published. Use get_dashboard_config with a workbook id to read its dashboard.',
  input: z.object({
    deploymentId: deploymentIdField,
    search: z.string().optional().describe('Text to look for in workbook names; omit to list all.'),
    first: pageSizeField('workbooks'),
    after: cursorField,
  }),
  effect: 'read',
  summary: (i) => (i.search ? `Search workbooks for ${quote(i.search)}` : 'List workbooks'),
  async execute(ctx, input, signal) {
    const dep = await resolveDeployment(ctx.gateway, input.deploymentId, signal);
    const want = input.first ?? DEFAULT_PAGE;
    const needle = input.search?.toLowerCase();
    let cursor = decodeCursor(input.after);
    const found: Item[] = [];
    let hasMore = false;
    let next: FilterCursor | undefined;
    for (let scanned = 0; ; scanned++) {
      const page = await ctx.gateway.listWorkbooks(dep.id, { first: 100, after: cursor.a }, signal);
      const matches = page.items.filter(
        (w) =>
          !needle ||
          String(w.name ?? '')
            .toLowerCase()
            .includes(needle),
      );
      const fresh = matches.slice(cursor.s);
      const room = want - found.length;
      found.push(...fresh.slice(0, room));
      if (fresh.length > room) {
        hasMore = true;
        next = { ...(cursor.a ? { a: cursor.a } : {}), s: cursor.s + room };
        break;
      }
      if (!page.hasMore) break;
      cursor = { a: page.nextCursor, s: 0 };
      if (found.length === want || scanned + 1 >= MAX_SCAN_PAGES) {
        hasMore = true;
        next = cursor;
        break;
      }
    }
    return {
      text: `Workbooks in deployment ${named(dep.name, dep.id)}${input.search ? ` whose name contains ${quote(input.search)}` : ''}.`,
      table: {
        columns: ['id', 'name', 'slug', 'published'],
        rows: found.map((w) => [w.id, w.name, w.slug, w.dashboardPublished ? 'yes' : 'no']),
      },
      page: { returned: found.length, hasMore, ...(next ? { nextCursor: encodeCursor(next) } : {}) },
    };
  },
});

export const getReportSql = defineTool({
  name: 'get_report_sql',
  title: "Read a report's SQL",
  description:
    "Reads one saved report: its name, its SQL (sqlQuery) and, when it has one, its JSON query (jsonQuery). Use it to reuse or explain a report's query; run it with run_query.",
  input: z.object({
    deploymentId: deploymentIdField,
    reportId: z.number().int().min(1).describe('Report id (from search_reports).'),
  }),
  effect: 'read',
  summary: (i) => `Read the SQL of report ${i.reportId}`,
  async execute(ctx, input, signal) {
    const dep = await resolveDeployment(ctx.gateway, input.deploymentId, signal);
    const r = await ctx.gateway.getReport(dep.id, input.reportId, signal);
    const sql = typeof r.sqlQuery === 'string' && r.sqlQuery.trim() ? r.sqlQuery : undefined;
    const json = typeof r.jsonQuery === 'string' && r.jsonQuery.trim() ? r.jsonQuery : undefined;
    const lines = [`Report ${named(r.name, r.id)} in deployment ${named(dep.name, dep.id)}.`];
    lines.push(sql ? `SQL:\n${fenced(sql, 'sql')}` : 'This report has no SQL query.');
    if (json) lines.push(`JSON query:\n${fenced(json, 'json')}`);
    return {
      text: lines.join('\n'),
      table: {
        columns: ['field', 'value'],
        rows: [
          ['id', r.id],
          ['name', r.name],
          ['title', r.title],
          ['type', r.type],
          ['folderId', r.folderId],
        ].filter(([, v]) => v !== undefined && v !== null),
      },
      data: { reportId: r.id, name: r.name, sqlQuery: sql ?? null, jsonQuery: json ?? null },
    };
  },
});

export const listNotifications = defineTool({
  name: 'list_notifications',
  title: 'List notifications',
  description:
    'Lists the scheduled notifications (dashboard e-mails/exports) of a deployment: id, dashboard, schedule, timezone, format and whether enabled. Optionally only those of one dashboard. Needs a token with the admin role.',
  input: z.object({
    deploymentId: deploymentIdField,
    dashboardId: z.number().int().min(1).optional().describe('Only notifications of this dashboard id.'),
    first: pageSizeField('notifications'),
    after: cursorField,
  }),
  effect: 'read',
  summary: (i) => `List notifications${i.dashboardId ? ` of dashboard ${i.dashboardId}` : ''}`,
  async execute(ctx, input, signal) {
    const dep = await resolveDeployment(ctx.gateway, input.deploymentId, signal);
    const page = await ctx.gateway.listNotifications(
      dep.id,
      {
        first: input.first ?? DEFAULT_PAGE,
        after: input.after,
        ...(input.dashboardId ? { dashboardId: input.dashboardId } : {}),
      },
      signal,
    );
    return {
      text: `Notifications in deployment ${named(dep.name, dep.id)}${input.dashboardId ? ` for dashboard ${input.dashboardId}` : ''}.`,
      table: {
        columns: ['id', 'dashboardId', 'schedule', 'timezone', 'format', 'enabled'],
        rows: page.items.map((n) => [
          n.id,
          n.dashboardId,
          n.humanReadableSchedule ?? n.cronExpression,
          n.timezone,
          n.notificationFormat,
          n.isEnabled === false ? 'no' : 'yes',
        ]),
      },
      page: pageFacts(page),
    };
  },
});
