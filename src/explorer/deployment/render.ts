// How the deployment operations' objects look in the tree: dbt sync runs, versions, pods,
// environment tokens (never the token itself) and the build status.
import * as vscode from 'vscode';
import { escapeMarkdown, plainText, tooltipLines } from '../labels';
import type { Item } from '../loaders';
import { safeTooltip, type Look } from '../nodes/render';

const str = (v: unknown) => (typeof v === 'string' && v !== '' ? v : undefined);
const FINISHED = new Set(['COMPLETED', 'FAILED', 'CANCELLED', 'UNKNOWN']);

export const isRunningSync = (r: Item) => !FINISHED.has(String(r['status'] ?? ''));

/** "3 min ago" / "in 3 min" style (the exact time is in tooltips). */
export function relativeTime(iso: unknown, now = Date.now()): string | undefined {
  const t = typeof iso === 'string' ? Date.parse(iso) : NaN;
  if (Number.isNaN(t)) return undefined;
  const s = Math.round(Math.abs(now - t) / 1000);
  if (s < 60) return 'just now';
  const m = Math.round(s / 60);
  const h = Math.round(m / 60);
  const span = m < 60 ? `${m} min` : h < 48 ? `${h} h` : `${Math.round(h / 24)} days`;
  return t > now ? `in ${span}` : `${span} ago`;
}

function duration(ms: unknown): string | undefined {
  if (typeof ms !== 'number') return undefined;
  return ms < 1000
    ? `${ms} ms`
    : ms < 120_000
      ? `${(ms / 1000).toFixed(1)} s`
      : `${Math.round(ms / 60_000)} min`;
}

export function dbtSyncLook(r: Item): Look {
  const status = plainText(r['status'] ?? 'unknown');
  const running = isRunningSync(r);
  const icon =
    status === 'COMPLETED'
      ? new vscode.ThemeIcon('pass', new vscode.ThemeColor('testing.iconPassed'))
      : status === 'FAILED'
        ? new vscode.ThemeIcon('error', new vscode.ThemeColor('testing.iconFailed'))
        : running
          ? new vscode.ThemeIcon('sync~spin')
          : new vscode.ThemeIcon('circle-slash');
  const when = relativeTime(r['startedAt']);
  const state = running ? 'running' : status === 'COMPLETED' ? 'completed' : 'finished';
  return {
    label: `${plainText(r['branchName'] ?? 'dbt sync')} · ${status.toLowerCase()}`,
    description: [when, duration(r['durationMs']), str(r['trigger'])].filter(Boolean).join(' · '),
    icon,
    contextValue: `dp.dbtSync.${state}`,
    tooltip: safeTooltip(
      tooltipLines(`dbt sync ${plainText(r['syncJobId'])}`, [
        ['status', status],
        ['branch', r['branchName']],
        ['started', r['startedAt']],
        ['completed', r['completedAt']],
        ['trigger', r['trigger']],
        ['stage', r['lastStage']],
        ['failed phase', r['failedPhase']],
        ['error', r['errorMessage']],
      ]),
    ),
  };
}

export function versionLook(v: Item): Look {
  const current = v['isCurrent'] === true;
  return {
    label: plainText(v['version']),
    description: [
      current ? 'current' : undefined,
      str(v['releaseChannel']),
      v['isLatestInChannel'] ? 'latest in channel' : undefined,
    ]
      .filter(Boolean)
      .join(' · '),
    icon: new vscode.ThemeIcon(current ? 'check' : 'tag'),
    contextValue: 'dp.version',
    tooltip: safeTooltip(
      tooltipLines(`Cube ${plainText(v['version'])}`, [
        ['release channel', v['releaseChannel']],
        ['channel version', v['releaseChannelVersion']],
        ['current', current ? 'yes' : 'no'],
      ]),
    ),
  };
}

export function podLook(p: Item): Look {
  const status = str(p['status']);
  const bad = p['ready'] === false || (status !== undefined && status !== 'Running');
  return {
    label: plainText(p['name']),
    description: [status, typeof p['restartCount'] === 'number' ? `${p['restartCount']} restarts` : undefined]
      .filter(Boolean)
      .join(' · '),
    icon: bad
      ? new vscode.ThemeIcon('warning', new vscode.ThemeColor('problemsWarningIcon.foreground'))
      : new vscode.ThemeIcon('vm-running'),
    contextValue: 'dp.pod',
    tooltip: safeTooltip(
      tooltipLines(plainText(p['name']), [
        ['type', p['type']],
        ['status', status],
        ['ready', p['ready']],
        ['restarts', p['restartCount']],
        ['containers', Array.isArray(p['containers']) ? p['containers'].join(', ') : undefined],
      ]),
    ),
  };
}

/** A token row: when it was created and when it expires; the token itself is never shown. */
export function envTokenLook(t: Item): Look {
  const expires = str(t['expires_at']);
  const expired = expires !== undefined && Date.parse(expires) < Date.now();
  return {
    label: `Token created ${relativeTime(t['created_at']) ?? plainText(t['created_at'])}`,
    description: expired ? 'expired' : `expires ${relativeTime(expires) ?? '(unknown)'}`,
    icon: new vscode.ThemeIcon('key'),
    contextValue: 'dp.envToken',
    tooltip: safeTooltip(
      tooltipLines('Environment token', [
        ['created', t['created_at']],
        ['expires', expires],
        ['security context', t['security_context']],
        ['token', 'hidden'],
      ]),
    ),
  };
}

export function buildStatusLook(b: Item, failed: boolean): Look {
  const status = plainText(b['status'] ?? 'unknown');
  const when = relativeTime(b['updatedAt']);
  return {
    label: `Build: ${status}`,
    description: [str(b['branchName']), when].filter(Boolean).join(' · '),
    icon: failed
      ? new vscode.ThemeIcon('error', new vscode.ThemeColor('errorForeground'))
      : new vscode.ThemeIcon('pass', new vscode.ThemeColor('testing.iconPassed')),
    contextValue: failed ? 'dp.buildStatus.failed' : 'dp.buildStatus',
    tooltip: safeTooltip(
      tooltipLines(`Build ${status}`, [
        ['branch', b['branchName']],
        ['mode', b['mode']],
        ['deployment', b['deploymentStatus']],
        ['updated', b['updatedAt']],
        ['error', b['errorText']],
      ]),
    ),
  };
}

/** The reason shown in a failed deployment's tooltip, escaped. */
export function problemTooltipLine(b: Item): string {
  return `**Build failed** (${escapeMarkdown(b['status'])}): ${escapeMarkdown(b['errorText'] ?? 'no reason given', 400)}`;
}
