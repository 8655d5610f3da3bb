// Dashboard tools: read a workbook's dashboard config, and propose a change to a local
// *.dashboard.json. A proposal is never published: it becomes an edit the user accepts or not.
import { applyEdits, modify, type JSONPath } from 'jsonc-parser';
import { z } from 'zod';
import { dashboardFromWorkbook, formatPath, parseDashboardFile } from '../../dashboards/dashboardFile';
import { deploymentIdField, fenced, named, quote, resolveDeployment } from './format';
import { unifiedDiff } from './diff';
import { defineTool } from './types';

/** Longest config text returned in full; larger configs are summarised by the widget table. */
const MAX_CONFIG_CHARS = 20_000;

export const getDashboardConfig = defineTool({
  name: 'get_dashboard_config',
  title: 'Read a dashboard config',
  description:
    'Reads the dashboard of a workbook (the draft by default, or the published one) as the JSON a local *.dashboard.json file holds: workbookId, title, description and config (layout, theme, settings, widgets). Also lists the widgets with their type and grid position. Use it before propose_dashboard_change.',
  input: z.object({
    deploymentId: deploymentIdField,
    workbookId: z.number().int().min(1).describe('Workbook id (from search_workbooks).'),
    source: z
      .enum(['draft', 'published'])
      .optional()
      .describe('Which dashboard: the draft (default) or the published one.'),
  }),
  effect: 'read',
  summary: (i) => `Read the ${i.source ?? 'draft'} dashboard of workbook ${i.workbookId}`,
  async execute(ctx, input, signal) {
    const dep = await resolveDeployment(ctx.gateway, input.deploymentId, signal);
    const w = await ctx.gateway.getWorkbook(dep.id, input.workbookId, signal);
    const file = dashboardFromWorkbook(
      {
        id: w.id,
        name: String(w.name ?? ''),
        dashboardDraft: w.dashboardDraft,
        dashboardPublished: w.dashboardPublished,
      },
      input.source ?? 'draft',
    );
    const widgets = (file.config?.widgets ?? []) as Record<string, unknown>[];
    const json = JSON.stringify(file, null, 2);
    const body =
      json.length <= MAX_CONFIG_CHARS
        ? fenced(json, 'json')
        : `The config is ${json.length} characters, too long to return whole; the widgets are listed below.`;
    return {
      text: `Dashboard (${input.source ?? 'draft'}) of workbook ${named(w.name, w.id)} in deployment ${named(dep.name, dep.id)}: ${widgets.length} widget${widgets.length === 1 ? '' : 's'}${file.config ? '' : ' (no config yet)'}.\n${body}`,
      table: {
        columns: ['id', 'type', 'x', 'y', 'w', 'h', 'title'],
        rows: widgets.map((wd) => {
          const p = (wd.position ?? {}) as Record<string, unknown>;
          const cfg = (wd.config ?? {}) as Record<string, unknown>;
          return [wd.id, wd.type, p.x, p.y, p.w, p.h, cfg.title ?? wd.title];
        }),
      },
      data: { dashboard: file },
    };
  },
});

const ChangeSchema = z.object({
  path: z
    .array(z.union([z.string(), z.number().int().min(0)]))
    .describe('JSON path of the value in the file, e.g. ["config","widgets",0,"position","w"] or ["title"].'),
  value: z
    .unknown()
    .optional()
    .describe('The new value (any JSON). Omit together with remove: true to delete.'),
  remove: z.boolean().optional().describe('Delete the value at path.'),
});

export const proposeDashboardChange = defineTool({
  name: 'propose_dashboard_change',
  title: 'Propose a dashboard change',
  description:
    'Proposes a change to a local *.dashboard.json file (a dashboard as code), as JSON-path edits (set or remove a value; the rest of the file keeps its formatting) or as the whole new file text. The result must be a valid dashboard file. The change is shown to the user as a diff to apply or discard; it is never published (publishing stays a separate, confirmed user action). Read the file or get_dashboard_config first.',
  input: z.object({
    file: z
      .string()
      .min(1)
      .describe(
        'Path of the *.dashboard.json file, relative to the workspace folder (or absolute inside it).',
      ),
    changes: z
      .array(ChangeSchema)
      .min(1)
      .optional()
      .describe('Edits to make, in order (one of changes or content).'),
    content: z.string().optional().describe('The whole new text of the file (one of changes or content).'),
    reason: z.string().optional().describe('One sentence on why, shown to the user with the diff.'),
  }),
  effect: 'write',
  summary: (i) =>
    `Propose ${i.changes ? `${i.changes.length} change${i.changes.length === 1 ? '' : 's'}` : 'a new text'} to ${quote(i.file)}${i.reason ? `: ${quote(i.reason)}` : ''}`,
  async execute(ctx, input, signal) {
    if (!ctx.files) throw new Error('This client cannot edit files.');
    if (!/\.dashboard\.json$/i.test(input.file))
      throw new Error('Only *.dashboard.json files can be changed by this tool.');
    if ((input.changes === undefined) === (input.content === undefined)) {
      throw new Error('Give exactly one of "changes" or "content".');
    }
    const { text: oldText, display } = await ctx.files.read(input.file);
    let newText = input.content ?? oldText;
    for (const c of input.changes ?? []) {
      const value = c.remove ? undefined : c.value;
      if (!c.remove && c.value === undefined)
        throw new Error(`The change at ${formatPath(c.path)} has no value; give value or remove: true.`);
      newText = applyEdits(
        newText,
        modify(newText, c.path as JSONPath, value, { formattingOptions: formattingOf(oldText) }),
      );
    }
    const parsed = parseDashboardFile(newText);
    if (!parsed.ok) {
      const list = parsed.problems.slice(0, 5).map((p) => `line ${p.line + 1}: ${p.message}`);
      throw new Error(
        `The proposed file would not be a valid dashboard, so nothing was changed:\n${list.join('\n')}`,
      );
    }
    const diff = unifiedDiff(oldText, newText, display);
    if (!diff) return { text: `The proposal leaves ${quote(display)} unchanged; nothing to do.` };
    const summary = input.reason ?? `${input.changes?.length ?? 1} change(s) proposed by an agent`;
    const outcome = await ctx.files.propose(
      { file: input.file, display, oldText, newText, diff, summary },
      signal,
    );
    return {
      text: `${outcome.applied ? 'Applied' : 'Not applied'}: ${outcome.detail}\nNothing was published.\n${fenced(diff, 'diff')}`,
      data: { applied: outcome.applied, file: display, diff },
    };
  },
});

/** The file's own indentation, so edits keep it. */
function formattingOf(text: string) {
  const indent = /\n([ \t]+)"/.exec(text)?.[1] ?? '  ';
  return {
    insertSpaces: !indent.includes('\t'),
    tabSize: indent.includes('\t') ? 1 : indent.length,
    eol: text.includes('\r\n') ? '\r\n' : '\n',
  };
}

export const publishDashboard = defineTool({
  name: 'publish_dashboard',
  title: 'Publish a dashboard',
  description:
    "Publishes a local *.dashboard.json file to the platform: the dashboard of the workbook its workbookId names becomes the published version, which the workbook's viewers see at once. This is a path to production: the user confirms every call, and an MCP server refuses it unless its settings allow production writes. Each publish makes a new version and is never retried; when the outcome is unknown, check the publish history before publishing again. Edit the file first with propose_dashboard_change.",
  input: z.object({
    deploymentId: deploymentIdField,
    file: z
      .string()
      .min(1)
      .describe(
        'Path of the *.dashboard.json file to publish, relative to the workspace folder (or absolute inside it).',
      ),
  }),
  effect: 'production',
  summary: (i) => `Publish the dashboard in ${quote(i.file)}`,
  async execute(ctx, input, signal) {
    if (!ctx.files) throw new Error('This client cannot read files.');
    if (!/\.dashboard\.json$/i.test(input.file))
      throw new Error('Only *.dashboard.json files can be published by this tool.');
    const { text, display } = await ctx.files.read(input.file);
    const parsed = parseDashboardFile(text);
    if (!parsed.ok) {
      const list = parsed.problems.slice(0, 5).map((p) => `line ${p.line + 1}: ${p.message}`);
      throw new Error(`${display} is not a valid dashboard, so nothing was published:\n${list.join('\n')}`);
    }
    const dep = await resolveDeployment(ctx.gateway, input.deploymentId, signal);
    const workbookId = parsed.input.workbookId;
    const result = await ctx.gateway.publishDashboard(dep.id, workbookId, parsed.input, signal);
    const version = result.versionNumber !== undefined ? `version ${result.versionNumber}` : 'a new version';
    return {
      text: `Published ${quote(display)} to workbook ${workbookId} in deployment ${named(dep.name, dep.id)}: ${version}, status ${quote(String(result.status ?? 'published'))}. Its viewers see it now.`,
      data: {
        file: display,
        workbookId,
        deploymentId: dep.id,
        ...(result.versionNumber !== undefined ? { versionNumber: result.versionNumber } : {}),
        status: result.status ?? 'published',
        ...(result.publicId !== undefined ? { publicId: result.publicId } : {}),
      },
    };
  },
});
