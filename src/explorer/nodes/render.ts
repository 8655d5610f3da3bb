// How each kind of server object looks in the tree: label, description, icon, tooltip and the
// contextValue its menus key on. Every server string goes through labels.ts.
import * as vscode from 'vscode';
import { publishedDashboardOf } from '../../api/platform/workbookShapes';
import { exactTime, relativeTime } from '../../shared/relativeTime';
import { displayName, plainText, tooltipLines } from '../labels';
import type { Item } from '../loaders';

export interface Look {
  label: string;
  description?: string;
  icon: vscode.ThemeIcon;
  contextValue: string;
  tooltip: vscode.MarkdownString;
}

/** The tree row of a node with id `id` that looks like `l`. */
export function lookTreeItem(id: string, l: Look, state: vscode.TreeItemCollapsibleState): vscode.TreeItem {
  const t = new vscode.TreeItem(l.label, state);
  t.id = id;
  if (l.description !== undefined) t.description = l.description;
  t.iconPath = l.icon;
  t.tooltip = l.tooltip;
  t.contextValue = l.contextValue;
  return t;
}

/** A row of the tree's own making (a section, a page): fixed words, so its tooltip is plain text. */
export function fixedTreeItem(
  id: string,
  f: { label: string; icon: string; contextValue: string; tooltip: string },
  state: vscode.TreeItemCollapsibleState,
): vscode.TreeItem {
  const t = new vscode.TreeItem(f.label, state);
  t.id = id;
  t.iconPath = new vscode.ThemeIcon(f.icon);
  t.contextValue = f.contextValue;
  t.tooltip = f.tooltip;
  return t;
}

/** A tooltip that renders nothing but the (already escaped) text: no HTML, no command links. */
export function safeTooltip(markdown: string): vscode.MarkdownString {
  const md = new vscode.MarkdownString(markdown, false);
  md.isTrusted = false;
  md.supportHtml = false;
  return md;
}

/** "updated 3 days ago" for a row; the exact time goes in the tooltip (`when`). */
export function ago(v: unknown): string | undefined {
  return relativeTime(v);
}
/** "3 days ago (2026-01-05 09:00 UTC)", or the value as sent when it is not a date. */
export function when(v: unknown): string | undefined {
  const r = relativeTime(v);
  return r === undefined
    ? v === undefined || v === null
      ? undefined
      : plainText(v)
    : `${r} (${exactTime(v)})`;
}

/** The folder an item is in, by name: the last entry of its published `folderPath`. */
export function folderName(i: Item): string | undefined {
  const path = Array.isArray(i['folderPath']) ? (i['folderPath'] as Item[]) : [];
  const last = path[path.length - 1];
  return last && typeof last['name'] === 'string' ? plainText(last['name']) : undefined;
}
function folderPathText(i: Item): string | undefined {
  const path = Array.isArray(i['folderPath']) ? (i['folderPath'] as Item[]) : [];
  const names = path
    .map((p) => (p && typeof p['name'] === 'string' ? plainText(p['name']) : ''))
    .filter(Boolean);
  return names.length > 0 ? names.join(' / ') : undefined;
}

function str(v: unknown): string | undefined {
  return typeof v === 'string' && v !== '' ? v : typeof v === 'number' ? String(v) : undefined;
}

export function deploymentLook(d: Item): Look {
  return {
    label: displayName(d),
    // A deployment whose setup is not finished says at which step (Continue Setup moves it on).
    description:
      typeof d['creationStep'] === 'string' && d['creationStep'] !== 'ready'
        ? `#${plainText(d['id'])} · setup: ${plainText(d['creationStep'])}`
        : `#${plainText(d['id'])}`,
    icon: new vscode.ThemeIcon('server-environment'),
    contextValue: 'dp.deployment',
    tooltip: safeTooltip(
      tooltipLines(displayName(d), [
        ['id', d['id']],
        ['url', d['deploymentUrl']],
        ['creation step', d['creationStep']],
      ]),
    ),
  };
}

export function environmentLook(e: Item): Look {
  const branch = str(e['branch']);
  return {
    label: plainText(e['type'] ?? `Environment ${plainText(e['id'])}`),
    ...(branch !== undefined ? { description: plainText(branch) } : {}),
    icon: new vscode.ThemeIcon('layers'),
    contextValue: 'dp.environment',
    tooltip: safeTooltip(
      tooltipLines(`Environment ${plainText(e['id'])}`, [
        ['type', e['type']],
        ['branch', branch],
      ]),
    ),
  };
}

export function folderLook(f: Item): Look {
  return {
    label: displayName(f),
    icon: vscode.ThemeIcon.Folder,
    contextValue: 'dp.folder',
    tooltip: safeTooltip(
      tooltipLines(displayName(f), [
        ['id', f['id']],
        ['path', folderPathText(f)],
        ['updated', when(f['updatedAt'])],
      ]),
    ),
  };
}

/** `inTree`: shown under its folder in the workspace tree, so the row leaves the folder name out. */
export function reportLook(r: Item, inTree = false): Look {
  const publicId = str(r['publicId']);
  const placements = Array.isArray(r['externalWorkbookPlacements'])
    ? r['externalWorkbookPlacements'].length
    : 0;
  const workbook =
    str(r['externalWorkbookId']) ??
    (placements > 0 ? `${placements} workbook${placements > 1 ? 's' : ''}` : undefined);
  const folder = inTree ? undefined : folderName(r);
  const updated = ago(r['updatedAt']);
  const description = [
    workbook !== undefined ? `↔ ${plainText(workbook, 40)}` : undefined,
    folder,
    updated,
  ].filter((x): x is string => x !== undefined);
  return {
    label: displayName(r, 'name', 'title'),
    ...(description.length > 0 ? { description: description.join(' · ') } : {}),
    icon: new vscode.ThemeIcon('graph'),
    contextValue: publicId !== undefined ? 'dp.report.public' : 'dp.report',
    tooltip: safeTooltip(
      tooltipLines(displayName(r, 'name', 'title'), [
        ['public id', publicId],
        // The name, never the bare id; the path when the service sends it.
        [
          'folder',
          folderPathText(r) ??
            (r['folderId'] === null || r['folderId'] === undefined ? 'workspace root' : undefined),
        ],
        ['updated', when(r['updatedAt'])],
        ['created', when(r['createdAt'])],
        ['external workbook', workbook],
        ['result location', r['resultLocation']],
      ]),
    ),
  };
}

export function workbookLook(w: Item, inTree = false): Look {
  const published = publishedDashboardOf(w);
  const description = [
    published || w['dashboardPublished'] ? 'published' : undefined,
    inTree ? undefined : folderName(w),
    ago(w['updatedAt']),
  ].filter((x): x is string => x !== undefined);
  return {
    label: displayName(w),
    ...(description.length > 0 ? { description: description.join(' · ') } : {}),
    icon: new vscode.ThemeIcon('notebook'),
    contextValue: published?.['publicId'] ? 'dp.workbook.public' : 'dp.workbook',
    tooltip: safeTooltip(
      tooltipLines(displayName(w), [
        ['slug', w['slug']],
        ['folder', folderPathText(w)],
        ['updated', when(w['updatedAt'])],
      ]),
    ),
  };
}

export function recipientLook(r: Item): Look {
  const type = plainText(r['type']);
  const who =
    str(r['email']) ??
    str(r['username']) ??
    (str(r['externalId']) !== undefined
      ? `${plainText(r['embedTenantName'])}/${plainText(r['externalId'])}`
      : undefined) ??
    str(r['channelName']) ??
    str(r['channelId']) ??
    str(r['userId']) ??
    '(recipient)';
  const icon = type === 'SLACK' ? 'comment-discussion' : type === 'EMBED_USER' ? 'organization' : 'person';
  return {
    label: plainText(who),
    description: type,
    icon: new vscode.ThemeIcon(icon),
    contextValue: 'dp.recipient',
    tooltip: safeTooltip(
      tooltipLines(plainText(who), [
        ['type', type],
        ['user id', r['userId']],
        ['embed user id', r['embedUserId']],
        ['tenant', r['embedTenantName']],
        ['external id', r['externalId']],
        ['channel', r['channelId']],
      ]),
    ),
  };
}

export function envVarLook(v: Item): Look {
  // Values may be secrets: the row shows the name only; "Open as JSON" shows everything on request.
  return {
    label: displayName(v),
    description: '••••',
    icon: new vscode.ThemeIcon('symbol-variable'),
    contextValue: 'dp.envVar',
    tooltip: safeTooltip(tooltipLines(displayName(v), [['value', 'hidden (open as JSON to see it)']])),
  };
}

/** The primary (else first) e-mail of a SCIM user. */
function scimEmail(u: Item): string | undefined {
  const emails = Array.isArray(u['emails']) ? (u['emails'] as Item[]) : [];
  const primary = emails.find((e) => e && e['primary'] === true) ?? emails[0];
  return str(primary?.['value']);
}

/** A SCIM user: its userName, with the person's name and an inactive mark. */
/** A SCIM user's roles (RFC 7643 `roles`: values, or their display names), comma-separated. */
function scimRoles(u: Item): string | undefined {
  if (!Array.isArray(u['roles'])) return undefined;
  const names = (u['roles'] as unknown[])
    .map((r) => (r && typeof r === 'object' ? ((r as Item)['display'] ?? (r as Item)['value']) : r))
    .filter((n): n is string => typeof n === 'string' && n !== '');
  return names.length > 0 ? names.join(', ') : 'none';
}

export function userLook(u: Item): Look {
  const name = (u['name'] ?? {}) as Item;
  const person = [str(name['givenName']), str(name['familyName'])].filter(Boolean).join(' ');
  const email = scimEmail(u);
  const label = plainText(str(u['userName']) ?? email ?? `User ${plainText(u['id'])}`);
  const inactive = u['active'] === false;
  return {
    label,
    description: [person, inactive ? 'inactive' : ''].filter(Boolean).join(' · '),
    icon: new vscode.ThemeIcon('person', inactive ? new vscode.ThemeColor('disabledForeground') : undefined),
    contextValue: 'dp.user',
    tooltip: safeTooltip(
      tooltipLines(label, [
        ['id', u['id']],
        ['name', person],
        ['e-mail', email],
        ['external id', u['externalId']],
        ['roles', scimRoles(u)],
        [
          'active',
          u['active'] === undefined || u['active'] === null ? undefined : u['active'] ? 'yes' : 'no',
        ],
      ]),
    ),
  };
}
