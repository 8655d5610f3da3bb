// How the Administration rows look: names first (ids only in tooltips), server text through the
// plain-text and Markdown-escaping helpers like every other row.
import * as vscode from 'vscode';
import type { Item } from '../loaders';
import { displayName, plainText, tooltipLines } from '../labels';
import { safeTooltip, userLook, type Look } from '../nodes/render';

const str = (v: unknown): string | undefined => (typeof v === 'string' && v !== '' ? v : undefined);
const icon = (name: string, color?: string) =>
  new vscode.ThemeIcon(name, color ? new vscode.ThemeColor(color) : undefined);

/** A user under Administration: its menus follow its state (an active user can only be deactivated). */
export function adminUserLook(u: Item): Look {
  return { ...userLook(u), contextValue: `dp.user.admin.${u['active'] === false ? 'inactive' : 'active'}` };
}

export function scimGroupLook(g: Item): Look {
  const label = plainText(str(g['displayName']) ?? `Group ${plainText(g['id'])}`);
  const members = Array.isArray(g['members']) ? g['members'].length : undefined;
  return {
    label,
    description: members === undefined ? undefined : `${members} member${members === 1 ? '' : 's'}`,
    icon: icon('organization'),
    contextValue: 'dp.scimGroup',
    tooltip: safeTooltip(
      tooltipLines(label, [
        ['id', g['id']],
        ['members', members],
      ]),
    ),
  };
}

export function memberLook(m: Item): Look {
  const label = plainText(str(m['display']) ?? `User ${plainText(m['value'])}`);
  return {
    label,
    icon: icon('person'),
    contextValue: 'dp.scimMember',
    tooltip: safeTooltip(tooltipLines(label, [['user id', m['value']]])),
  };
}

/** Every action of a role's policies, in order, without repeats. */
export function roleActionsOf(r: Item): string[] {
  const policies = Array.isArray(r['policies']) ? (r['policies'] as Item[]) : [];
  return [...new Set(policies.flatMap((p) => (Array.isArray(p['actions']) ? p['actions'].map(String) : [])))];
}

export function roleLook(r: Item): Look {
  const label = displayName(r);
  const actions = roleActionsOf(r);
  const policies = Array.isArray(r['policies']) ? (r['policies'] as Item[]) : [];
  return {
    label,
    description: plainText(
      str(r['description']) ?? `${actions.length} action${actions.length === 1 ? '' : 's'}`,
    ),
    icon: icon('shield'),
    contextValue: 'dp.role',
    tooltip: safeTooltip(
      tooltipLines(label, [
        ['description', r['description']],
        ...policies.map((p, i): [string, unknown] => [
          `policy ${i + 1}`,
          `${plainText(p['resourceType'])} ${(Array.isArray(p['resources']) ? p['resources'] : []).join(', ')}: ${(Array.isArray(p['actions']) ? p['actions'] : []).join(', ')}`,
        ]),
      ]),
    ),
  };
}

/** Actions that grant more than reading get a warning colour (secrets, downloads, management). */
const SENSITIVE = /Manage|SecretsManage|DownloadData|Delete|^All$/;
export function actionLook(a: Item): Look {
  const name = plainText(a['name']);
  return {
    label: name,
    icon: SENSITIVE.test(name) ? icon('key', 'problemsWarningIcon.foreground') : icon('check'),
    contextValue: 'dp.roleAction',
    tooltip: safeTooltip(tooltipLines(name, [['granted on', a['scope']]])),
  };
}

export function embedTenantLook(t: Item): Look {
  const label = displayName(t);
  const users = typeof t['userCount'] === 'number' ? t['userCount'] : undefined;
  return {
    label,
    description: [str(t['displayName']), users === undefined ? '' : `${users} user${users === 1 ? '' : 's'}`]
      .filter(Boolean)
      .map((s) => plainText(s))
      .join(' · '),
    icon: icon('globe'),
    contextValue: 'dp.embedTenant',
    tooltip: safeTooltip(
      tooltipLines(label, [
        ['display name', t['displayName']],
        ['users', users],
        ['created', t['createdAt']],
      ]),
    ),
  };
}

export function embedGroupLook(g: Item): Look {
  const label = displayName(g);
  return {
    label,
    description:
      typeof g['userCount'] === 'number'
        ? `${g['userCount']} member${g['userCount'] === 1 ? '' : 's'}`
        : undefined,
    icon: icon('organization'),
    contextValue: 'dp.embedGroup',
    tooltip: safeTooltip(
      tooltipLines(label, [
        ['description', g['description']],
        ['members', g['userCount']],
        ['id', g['id']],
      ]),
    ),
  };
}

export function embedUserLook(u: Item): Look {
  const label = plainText(
    str(u['email']) ?? str(u['username']) ?? str(u['externalId']) ?? `#${plainText(u['id'])}`,
  );
  return {
    label,
    description: plainText(str(u['externalId']) ?? ''),
    icon: icon('person'),
    contextValue: 'dp.embedUser',
    tooltip: safeTooltip(
      tooltipLines(label, [
        ['name', u['firstName']],
        ['external id', u['externalId']],
        ['user name', u['username']],
        ['last login', u['lastLogin']],
      ]),
    ),
  };
}

/** A member under an embed group: removable from the group (the user stays in the tenant). */
export function embedMemberLook(u: Item): Look {
  return { ...embedUserLook(u), contextValue: 'dp.embedGroupMember' };
}

export function regionLook(r: Item): Look {
  const label = plainText(str(r['title']) ?? str(r['name']) ?? `#${plainText(r['id'])}`);
  return {
    label,
    description: plainText(
      [str(r['provider']), r['isPublic'] === false ? 'private' : ''].filter(Boolean).join(' · '),
    ),
    icon: icon('globe'),
    contextValue: 'dp.region',
    tooltip: safeTooltip(
      tooltipLines(label, [
        ['name', r['name']],
        ['provider', r['provider']],
      ]),
    ),
  };
}

export function oauthIntegrationLook(o: Item): Look {
  const label = displayName(o);
  return {
    label,
    description: plainText(str(o['type']) ?? ''),
    icon: icon('plug'),
    contextValue: 'dp.oauthIntegration',
    tooltip: safeTooltip(
      tooltipLines(label, [
        ['type', o['type']],
        ['client id', o['clientId']],
        ['authorization URL', o['authUrl']],
        ['token URL', o['tokenUrl']],
        ['redirect URI', o['redirectUri']],
        ['client secret', 'write-only (never shown)'],
      ]),
    ),
  };
}

export function oidcConfigLook(o: Item): Look {
  const label = displayName(o);
  const off = o['isEnabled'] === false;
  return {
    label,
    description: plainText([str(o['audienceType']), off ? 'disabled' : ''].filter(Boolean).join(' · ')),
    icon: icon('key', off ? 'disabledForeground' : undefined),
    contextValue: 'dp.oidcTokenConfig',
    tooltip: safeTooltip(
      tooltipLines(label, [
        ['audience', o['audience']],
        ['audience type', o['audienceType']],
        ['target env variable', o['targetEnvVar']],
        ['enabled', o['isEnabled'] === undefined ? undefined : o['isEnabled'] ? 'yes' : 'no'],
      ]),
    ),
  };
}

/** A token of the user; `integration` is the integration's name when known. */
export function userTokenLook(t: Item): Look {
  const label = plainText(str(t['integrationName']) ?? `Integration ${plainText(t['integrationId'])}`);
  return {
    label,
    description: plainText(str(t['status']) ?? ''),
    icon: icon('key'),
    contextValue: 'dp.userOAuthToken',
    tooltip: safeTooltip(
      tooltipLines(label, [
        ['status', t['status']],
        ['access token expires', t['accessTokenExpiresAt']],
      ]),
    ),
  };
}
