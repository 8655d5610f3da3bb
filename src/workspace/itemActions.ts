// Report and workbook actions: open (a click: a report's read-only SQL preview), its SQL to edit
// and save back, create, refresh, connect to and disconnect from a spreadsheet, Open in Notebook;
// workbooks created, duplicated, re-slugged, upserted by slug, and their embed access shown and
// changed.
import * as vscode from 'vscode';
import { ApiError } from '../api/errors';
import { UserCancelled } from '../log';
import { dashboardConfigOf, publishedDashboardOf } from '../api/platform/workbookShapes';
import { refreshList, type ExplorerContext } from '../explorer/context';
import { displayName, plainText } from '../explorer/labels';
import type { Item } from '../explorer/loaders';
import { ExplorerNode } from '../explorer/nodes/types';
import { asArgs, listFirst, resolveDeploymentId, resolveItem } from '../explorer/targets';
import { PLATFORM_SQL_LANGUAGE } from '../shared/platformSql';
import type { WorkspaceActions } from './workspaceActions';
import {
  REPORT_DRAFT_SCHEME,
  reportRefOf,
  reportUri,
  type ReportDocuments,
  type ReportSource,
} from './reportDocuments';

/** The command of the notebook feature that opens a new query notebook (with cells when given). */
const NOTEBOOK_NEW = 'dashboardPlatform.notebook.new';

export class ItemActions {
  constructor(
    private readonly ctx: ExplorerContext,
    /** The report preview and draft documents (reportDocuments.ts). */
    private readonly reports: ReportDocuments,
    private readonly workspace: WorkspaceActions,
  ) {}

  private get targets() {
    return this.ctx.targets;
  }

  private get prompter() {
    return this.targets.prompter();
  }

  private report(arg: unknown) {
    return resolveItem(this.targets, arg, 'report', 'reportId', listFirst.reports);
  }

  private workbook(arg: unknown) {
    return resolveItem(this.targets, arg, 'workbook', 'workbookId', listFirst.workbooks);
  }

  /** A click: a report opens its read-only SQL preview, a workbook its dashboard. */
  async openItem(arg?: unknown): Promise<vscode.TextDocument> {
    const node = arg instanceof ExplorerNode ? arg : undefined;
    if (node?.kind === 'workbook') return this.openDashboard(arg);
    return this.previewReport(arg);
  }

  /** The report a command acts on: a preview or draft document's URI (editor title), else as usual. */
  private reportOf(arg: unknown) {
    const ref = arg instanceof vscode.Uri ? reportRefOf(arg) : undefined;
    return this.report(ref ? { deploymentId: ref.deploymentId, reportId: ref.reportId } : arg);
  }

  /** How the report documents read and save (reportDocuments.ts). */
  reportSource(): ReportSource {
    return {
      read: async (ref) => {
        const r = (await (await this.targets.client()).getReport(ref.deploymentId, ref.reportId)) as Item;
        return { name: displayName(r), sql: typeof r['sqlQuery'] === 'string' ? r['sqlQuery'] : '' };
      },
      write: async (ref, name, sql) => {
        await this.writeSql({ deploymentId: ref.deploymentId, id: ref.reportId, name }, sql);
      },
    };
  }

  /** Opens a document of the report (re-read from the server), in the platform's SQL dialect. */
  private async showReport(arg: unknown, draft: boolean): Promise<vscode.TextDocument> {
    const { deploymentId, item } = await this.reportOf(arg);
    const ref = { deploymentId, reportId: Number(item['id']) };
    const entry = await this.reports.refresh(ref);
    let doc = await vscode.workspace.openTextDocument(reportUri(ref, entry.name, draft));
    // The platform's SQL dialect (as in notebooks), not VS Code's generic "SQL" mode.
    if (doc.languageId !== PLATFORM_SQL_LANGUAGE)
      doc = await vscode.languages.setTextDocumentLanguage(doc, PLATFORM_SQL_LANGUAGE);
    // The preview is a preview tab (the next click replaces it); a draft stays.
    await vscode.window.showTextDocument(doc, { preview: !draft });
    return doc;
  }

  /** The report's SQL, read-only, in a tab named after the report (fetched, so it is current). */
  previewReport(arg?: unknown): Promise<vscode.TextDocument> {
    return this.showReport(arg, false);
  }

  /** The report's SQL to edit: saving the document (Ctrl+S) saves it to the report. */
  openReportSql(arg?: unknown): Promise<vscode.TextDocument> {
    return this.showReport(arg, true);
  }

  /** A workbook's dashboard (the published one, else the draft), read-only. */
  async openDashboard(arg?: unknown): Promise<vscode.TextDocument> {
    const { deploymentId, item } = await this.workbook(arg);
    const w = (await (await this.targets.client()).getWorkbook(deploymentId, Number(item['id']))) as Item;
    const config = dashboardConfigOf(w, 'published') ?? dashboardConfigOf(w, 'draft') ?? null;
    return this.ctx.json.show(
      `dashboard:${deploymentId}:${plainText(w['id'])}`,
      `dashboard-${displayName(w)}`,
      {
        workbook: displayName(w),
        published: publishedDashboardOf(w) !== undefined,
        dashboard: config,
      },
    );
  }

  /**
   * Saves SQL to a report: an edit document of a report is saved (its save is this flow); else the
   * active editor's text (or `{sql}` in the arguments) goes to the report it names or a picked one.
   */
  async saveReportSql(arg?: unknown) {
    const editor = vscode.window.activeTextEditor;
    const args = asArgs<{ sql: string }>(arg);
    const draft =
      arg instanceof vscode.Uri
        ? vscode.workspace.textDocuments.find((d) => d.uri.toString() === arg.toString())
        : editor?.document;
    if (
      draft &&
      draft.uri.scheme === REPORT_DRAFT_SCHEME &&
      args.sql === undefined &&
      !(arg instanceof ExplorerNode)
    ) {
      if (!draft.isDirty) {
        void vscode.window.showInformationMessage('The report already has this SQL: nothing to save.');
        return undefined;
      }
      // The file system's write asks, saves and reports; the buffer stays dirty if it fails.
      if (!(await draft.save())) throw new Error('The SQL was not saved to the report.');
      return undefined;
    }
    const target = await this.report(arg).then((r) => ({
      deploymentId: r.deploymentId,
      id: Number(r.item['id']),
      name: displayName(r.item),
    }));
    const sql = args.sql ?? editor?.document.getText() ?? '';
    return this.writeSql(target, sql);
  }

  private async writeSql(target: { deploymentId: number; id: number; name: string }, sql: string) {
    if (sql.trim() === '') throw new Error('A report needs SQL: the text to save is empty.');
    await this.ctx.confirmWrite(`Save the SQL of report "${target.name}"`);
    const updated = await (
      await this.targets.client()
    ).updateReport(target.deploymentId, target.id, {
      sqlQuery: sql,
    });
    this.workspace.refreshDeployment(target.deploymentId);
    void vscode.window.showInformationMessage(`Saved the SQL of "${target.name}".`);
    return updated;
  }

  /** A new report from a name and SQL (the active SQL editor's text by default), in a folder. */
  async createReport(arg?: unknown) {
    const node = arg instanceof ExplorerNode ? arg : undefined;
    const args = asArgs<{ name: string; sqlQuery: string; folderId: number | null }>(arg);
    const deploymentId = await resolveDeploymentId(this.targets, arg);
    const folder = node?.kind === 'folder' && node.data ? node.data : undefined;
    const name =
      args.name ??
      (await this.prompter.input({
        title: 'New Report (1/2)',
        prompt: folder ? `A report in "${displayName(folder)}".` : 'A report at the workspace root.',
        validate: (v) =>
          v.trim() === '' ? 'Enter a name.' : v.length > 255 ? 'At most 255 characters.' : undefined,
      }));
    const editor = vscode.window.activeTextEditor;
    const editorSql = editor && /sql/i.test(editor.document.languageId) ? editor.document.getText() : '';
    const sqlQuery =
      args.sqlQuery ??
      (await this.prompter.input({
        title: 'New Report (2/2)',
        prompt: 'The SQL query (the active SQL editor’s text is filled in).',
        value: editorSql || 'SELECT 1',
        validate: (v) => (v.trim() === '' ? 'Enter the SQL query.' : undefined),
      }));
    const folderId = folder ? Number(folder['id']) : (args.folderId ?? null);
    await this.ctx.confirmWrite(`Create the report "${plainText(name)}"`);
    const created = await (
      await this.targets.client()
    ).createReport(deploymentId, {
      name: name.trim(),
      sqlQuery,
      ...(folderId !== null ? { folderId } : {}),
    });
    this.workspace.refreshDeployment(deploymentId);
    void vscode.window.showInformationMessage(`Created the report "${displayName(created as Item)}".`);
    return created;
  }

  async refreshReport(arg?: unknown) {
    const { deploymentId, item } = await this.report(arg);
    await this.ctx.confirmWrite(`Refresh report "${displayName(item)}"`);
    const r = await (await this.targets.client()).refreshReport(deploymentId, Number(item['id']));
    this.workspace.refreshDeployment(deploymentId);
    void vscode.window.showInformationMessage(`Refreshed "${displayName(item)}".`);
    return r;
  }

  /** Removes one placement of a report in a spreadsheet (picked from the report's placements). */
  async disconnectReport(arg?: unknown) {
    const { deploymentId, item } = await this.report(arg);
    const args = asArgs<{ externalWorkbookId: string; resultLocation: string; placementId: string }>(arg);
    const c = await this.targets.client();
    let target: { placementId?: string; externalWorkbookId?: string; resultLocation?: string };
    if (args.placementId || args.externalWorkbookId) {
      target = args.placementId
        ? { placementId: args.placementId }
        : { externalWorkbookId: args.externalWorkbookId!, resultLocation: args.resultLocation ?? '' };
    } else {
      const report = (await c.getReport(deploymentId, Number(item['id']))) as Item;
      const placements = Array.isArray(report['externalWorkbookPlacements'])
        ? (report['externalWorkbookPlacements'] as Item[])
        : [];
      if (placements.length === 0)
        throw new Error(`"${displayName(item)}" is not connected to any workbook.`);
      const p = await this.prompter.pick(
        `Disconnect "${displayName(item)}" from`,
        placements.map((x) => ({
          label: plainText(x['workbookName'] ?? x['workbookId']),
          description: plainText([x['sheetName'], x['resultLocation']].filter(Boolean).join(' · ')),
          value: x,
        })),
      );
      target =
        typeof p['id'] === 'string'
          ? { placementId: p['id'] }
          : { externalWorkbookId: String(p['workbookId']), resultLocation: String(p['resultLocation']) };
    }
    await this.ctx.confirmWrite(`Disconnect report "${displayName(item)}" from a workbook`);
    const r = await c.disconnectReportFromWorkbook(deploymentId, Number(item['id']), target);
    this.workspace.refreshDeployment(deploymentId);
    return r;
  }

  /** The report's SQL as a new SQL cell of a query notebook on the report's deployment. */
  async openInNotebook(arg?: unknown) {
    const { deploymentId, item } = await this.reportOf(arg);
    const report = (await (await this.targets.client()).getReport(deploymentId, Number(item['id']))) as Item;
    const sql = typeof report['sqlQuery'] === 'string' ? report['sqlQuery'] : '';
    if (!sql.trim()) throw new Error(`The report "${displayName(report)}" has no SQL query to open.`);
    return vscode.commands.executeCommand(NOTEBOOK_NEW, {
      deploymentId,
      title: displayName(report),
      sql,
    });
  }

  async createWorkbook(arg?: unknown) {
    const node = arg instanceof ExplorerNode ? arg : undefined;
    const args = asArgs<{ name: string; folderId: number | null }>(arg);
    const deploymentId = await resolveDeploymentId(this.targets, arg);
    const folder = node?.kind === 'folder' && node.data ? node.data : undefined;
    const name =
      args.name ??
      (await this.prompter.input({
        title: 'New Workbook',
        prompt: folder ? `A workbook in "${displayName(folder)}".` : 'A workbook at the workspace root.',
        validate: (v) => (v.trim() === '' ? 'Enter a name.' : undefined),
      }));
    const folderId = folder ? Number(folder['id']) : (args.folderId ?? null);
    await this.ctx.confirmWrite(`Create the workbook "${plainText(name)}"`);
    const created = await (
      await this.targets.client()
    ).createWorkbook(deploymentId, {
      name: name.trim(),
      ...(folderId !== null ? { folderId } : {}),
    });
    this.workspace.refreshDeployment(deploymentId);
    return created;
  }

  async changeSlug(arg?: unknown) {
    const { deploymentId, item } = await this.workbook(arg);
    const args = asArgs<{ slug: string; slugTakeover: boolean }>(arg);
    const slug =
      args.slug ??
      (await this.prompter.input({
        title: `Slug of "${displayName(item)}"`,
        prompt: 'The workbook’s portable id in this deployment (lowercase; dashboards as code key on it).',
        value: typeof item['slug'] === 'string' ? item['slug'] : '',
        validate: (v) => (v.trim() === '' ? 'Enter a slug.' : undefined),
      }));
    await this.ctx.confirmWrite(`Change the slug of "${displayName(item)}" to "${plainText(slug)}"`);
    const client = await this.targets.client();
    const write = (takeover: boolean) =>
      client.updateWorkbook(deploymentId, Number(item['id']), {
        slug: slug.trim(),
        ...(takeover ? { slugTakeover: true } : {}),
      });
    try {
      await write(args.slugTakeover === true);
    } catch (e) {
      // 409: another workbook holds the slug. Taking it over is the user's decision, in a modal.
      if (!(e instanceof ApiError && e.status === 409) || args.slugTakeover !== undefined) throw e;
      const holder = await this.slugHolder(deploymentId, slug.trim(), Number(item['id']));
      const ok = await this.prompter.confirm(
        `The slug "${plainText(slug.trim())}" belongs to ${holder ? `the workbook "${holder}"` : 'another workbook'}. Take it over?`,
        `${holder ? `"${holder}"` : 'That workbook'} loses its slug, and dashboards as code that use it will point to "${displayName(item)}".`,
        'Take Over Slug',
      );
      if (!ok) throw new UserCancelled();
      await write(true);
    }
    this.workspace.refreshDeployment(deploymentId);
    return slug.trim().toLowerCase();
  }

  /** The name of the workbook holding `slug` (first pages only), for the takeover question. */
  private async slugHolder(deploymentId: number, slug: string, self: number): Promise<string | undefined> {
    const norm = (v: unknown) => (typeof v === 'string' ? v.trim().toLowerCase() : undefined);
    try {
      const page = await (await this.targets.client()).listWorkbooks(deploymentId, { first: 200 });
      const w = (page.items as Item[]).find(
        (x) => Number(x['id']) !== self && norm(x['slug']) === norm(slug),
      );
      return w ? displayName(w) : undefined;
    } catch {
      return undefined;
    }
  }

  /** Creates the workbook with a slug, or renames the one holding it (idempotent). */
  async upsertBySlug(arg?: unknown) {
    const deploymentId = await resolveDeploymentId(this.targets, arg);
    const args = asArgs<{ slug: string; name: string }>(arg);
    const slug =
      args.slug ??
      (await this.prompter.input({
        title: 'Create or Update Workbook by Slug (1/2)',
        prompt: 'The slug: the workbook holding it is updated, or a new one is created with it.',
        validate: (v) => (v.trim() === '' ? 'Enter a slug.' : undefined),
      }));
    const name =
      args.name ??
      (await this.prompter.input({
        title: 'Create or Update Workbook by Slug (2/2)',
        prompt: 'The workbook’s name.',
        validate: (v) => (v.trim() === '' ? 'Enter a name.' : undefined),
      }));
    await this.ctx.confirmWrite(`Create or update the workbook with slug "${plainText(slug)}"`);
    const w = await (
      await this.targets.client()
    ).upsertWorkbookBySlug(deploymentId, slug, { name: name.trim() });
    this.workspace.refreshDeployment(deploymentId);
    return w;
  }

  async showEmbedAccess(arg?: unknown) {
    const { deploymentId, item } = await this.workbook(arg);
    const access = await (await this.targets.client()).getEmbedAccess(deploymentId, Number(item['id']));
    await this.ctx.json.show(
      `embed-access:${deploymentId}:${plainText(item['id'])}`,
      `embed-access-${displayName(item)}`,
      access,
    );
    return access;
  }

  /** Grants or removes one embed audience, or toggles signed embedding, then shows the result. */
  async changeEmbedAccess(arg?: unknown) {
    const { deploymentId, item } = await this.workbook(arg);
    const c = await this.targets.client();
    const args = asArgs<{
      embedTenantName: string;
      allEmbedUsers: true;
      action: 'read' | 'none';
      allowEmbed: boolean;
    }>(arg);
    let input: Parameters<typeof c.updateEmbedAccess>[2];
    if (args.action !== undefined || args.allowEmbed !== undefined) {
      input = {
        ...(args.embedTenantName !== undefined ? { embedTenantName: args.embedTenantName } : {}),
        ...(args.allEmbedUsers ? { allEmbedUsers: true as const } : {}),
        ...(args.action !== undefined ? { action: args.action } : {}),
        ...(args.allowEmbed !== undefined ? { allowEmbed: args.allowEmbed } : {}),
      };
    } else {
      const now = await c.getEmbedAccess(deploymentId, Number(item['id']));
      const tenants = (now.tenants ?? []).filter((t) => t.action !== 'none').map((t) => t.embedTenantName);
      type Choice = { kind: 'all' | 'allow' | 'add' | 'remove'; tenant?: string };
      const choice = await this.prompter.pick<Choice>(`Embed access of "${displayName(item)}"`, [
        now.allEmbedUsers?.enabled
          ? { label: 'Stop sharing with all embed users', value: { kind: 'all' } }
          : { label: 'Share with all embed users', value: { kind: 'all' } },
        {
          label: now.allowEmbed ? 'Turn signed embedding off' : 'Turn signed embedding on',
          value: { kind: 'allow' },
        },
        { label: 'Share with an embed tenant…', value: { kind: 'add' } },
        ...tenants.map((t) => ({
          label: `Stop sharing with ${plainText(t)}`,
          description: 'embed tenant',
          value: { kind: 'remove' as const, tenant: t },
        })),
      ]);
      if (choice.kind === 'all')
        input = { allEmbedUsers: true, action: now.allEmbedUsers?.enabled ? 'none' : 'read' };
      else if (choice.kind === 'allow') input = { allowEmbed: !now.allowEmbed };
      else if (choice.kind === 'remove') input = { embedTenantName: choice.tenant!, action: 'none' };
      else {
        const name = await this.prompter.input({
          title: 'Share with an embed tenant',
          prompt: 'The embed tenant’s name.',
          validate: (v) => (v.trim() === '' ? 'Enter the tenant name.' : undefined),
        });
        input = { embedTenantName: name.trim(), action: 'read' };
      }
    }
    await this.ctx.confirmWrite(`Change the embed access of "${displayName(item)}"`);
    const updated = await c.updateEmbedAccess(deploymentId, Number(item['id']), input);
    this.workspace.refreshDeployment(deploymentId);
    void vscode.window.showInformationMessage(
      `Embed access of "${displayName(item)}": ${describeAccess(updated)}.`,
    );
    return updated;
  }

  async duplicateWorkbook(arg?: unknown) {
    const { deploymentId, item } = await resolveItem(
      this.targets,
      arg,
      'workbook',
      'workbookId',
      listFirst.workbooks,
    );
    const args = asArgs<{ shared: boolean }>(arg);
    const shared =
      args.shared ??
      (await this.prompter.pick('Duplicate Workbook', [
        { label: 'From my workspace', value: false },
        { label: 'From the shared workspace', description: 'shared: true', value: true },
      ]));
    await this.ctx.confirmWrite(`Duplicate workbook ${displayName(item)}`);
    const copy = await (
      await this.targets.client()
    ).duplicateWorkbook(deploymentId, Number(item['id']), { shared });
    refreshList(this.ctx, deploymentId, 'workbooks');
    void vscode.window.showInformationMessage(`Duplicated as "${displayName(copy as Item)}".`);
    return copy;
  }

  async connectReport(arg?: unknown) {
    const { deploymentId, item } = await resolveItem(
      this.targets,
      arg,
      'report',
      'reportId',
      listFirst.reports,
    );
    const args = asArgs<{ externalWorkbookId: string; resultLocation: string; endResultCell: string }>(arg);
    const required = (what: string) => (v: string) => (v.trim() === '' ? `Enter the ${what}.` : undefined);
    const externalWorkbookId =
      args.externalWorkbookId ??
      (await this.prompter.input({
        title: 'Connect Report to Workbook (1/3)',
        prompt: 'The external workbook (spreadsheet) id.',
        validate: required('external workbook id'),
      }));
    const resultLocation =
      args.resultLocation ??
      (await this.prompter.input({
        title: 'Connect Report to Workbook (2/3)',
        prompt: 'Where the result starts, e.g. Sheet1!A1.',
        value: 'Sheet1!A1',
        validate: required('result location'),
      }));
    const endResultCell =
      args.endResultCell ??
      (await this.prompter.input({
        title: 'Connect Report to Workbook (3/3)',
        prompt: 'The last cell of the result (optional), e.g. D20.',
      }));
    await this.ctx.confirmWrite(
      `Connect report ${displayName(item)} to workbook ${plainText(externalWorkbookId)}`,
    );
    const updated = await (
      await this.targets.client()
    ).connectReportToWorkbook(deploymentId, Number(item['id']), {
      externalWorkbookId: externalWorkbookId.trim(),
      resultLocation: resultLocation.trim(),
      ...(endResultCell.trim() ? { endResultCell: endResultCell.trim() } : {}),
    });
    refreshList(this.ctx, deploymentId, 'reports');
    void vscode.window.showInformationMessage(
      `Connected "${displayName(item)}" to ${plainText(externalWorkbookId)}.`,
    );
    return updated;
  }
}

function describeAccess(a: {
  allowEmbed: boolean;
  allEmbedUsers?: { enabled: boolean } | null;
  tenants?: { embedTenantName: string; action?: string | null }[] | null;
}): string {
  const tenants = (a.tenants ?? [])
    .filter((t) => t.action !== 'none')
    .map((t) => plainText(t.embedTenantName));
  return [
    `signed embedding ${a.allowEmbed ? 'on' : 'off'}`,
    a.allEmbedUsers?.enabled ? 'shared with all embed users' : undefined,
    tenants.length > 0 ? `tenants: ${tenants.join(', ')}` : undefined,
  ]
    .filter(Boolean)
    .join('; ');
}
