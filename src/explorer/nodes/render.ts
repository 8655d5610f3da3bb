// How each kind of server object looks in the tree: label, description, icon, tooltip and the
// contextValue its menus key on. Every server string goes through labels.ts.
import * as vscode from 'vscode';
import { publishedDashboardOf } from '../../api/platform/workbookShapes';
import { displayName, plainText, tooltipLines } from '../labels';
import type { Item } from '../loaders';

export interface Look {
  label: string;
  description?: string;
  icon: vscode.ThemeIcon;
  contextValue: string;
  tooltip: vscode.MarkdownString;
}

/** A tooltip that renders nothing but the (already escaped) text: no HTML, no command links. */
export function safeTooltip(markdown: string): vscode.MarkdownString {
  const md = new vscode.MarkdownString(markdown, false);
  md.isTrusted = false;
  md.supportHtml = false;
  return md;
}

function str(v: unknown): string | undefined {
  return typeof v === 'string' && v !== '' ? v : typeof v === 'number' ? String(v) : undefined;
}

export function deploymentLook(d: Item): Look {
  return {
    label: displayName(d),
    description: `#${plainText(d['id'])}`,
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
        ['path', f['folderPath']],
      ]),
    ),
  };
}

export function reportLook(r: Item): Look {
  const publicId = str(r['publicId']);
  const placements = Array.isArray(r['externalWorkbookPlacements'])
    ? r['externalWorkbookPlacements'].length
    : 0;
  const workbook =
    str(r['externalWorkbookId']) ??
    (placements > 0 ? `${placements} workbook${placements > 1 ? 's' : ''}` : undefined);
  return {
    label: displayName(r, 'name', 'title'),
    ...(workbook !== undefined ? { description: `↔ ${plainText(workbook, 40)}` } : {}),
    icon: new vscode.ThemeIcon('graph'),
    contextValue: publicId !== undefined ? 'dp.report.public' : 'dp.report',
    tooltip: safeTooltip(
      tooltipLines(displayName(r, 'name', 'title'), [
        ['id', r['id']],
        ['public id', publicId],
        ['folder', r['folderId']],
        ['updated', r['updatedAt']],
        ['external workbook', workbook],
        ['result location', r['resultLocation']],
      ]),
    ),
  };
}

export function workbookLook(w: Item): Look {
  const published = publishedDashboardOf(w);
  return {
    label: displayName(w),
    ...(published || w['dashboardPublished'] ? { description: 'published' } : {}),
    icon: new vscode.ThemeIcon('notebook'),
    contextValue: published?.['publicId'] ? 'dp.workbook.public' : 'dp.workbook',
    tooltip: safeTooltip(
      tooltipLines(displayName(w), [
        ['id', w['id']],
        ['slug', w['slug']],
        ['updated', w['updatedAt']],
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
        [
          'active',
          u['active'] === undefined || u['active'] === null ? undefined : u['active'] ? 'yes' : 'no',
        ],
      ]),
    ),
  };
}
