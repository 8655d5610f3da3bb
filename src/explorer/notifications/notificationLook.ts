// How a notification row reads: its schedule as people say it, the dashboard by name, paused when
// it is; a click opens its details. (Startup bundle: no zod.)
import * as vscode from 'vscode';
import { COMMANDS } from '../../commands';
import { plainText, tooltipLines } from '../labels';
import type { Item } from '../loaders';
import { safeTooltip, type Look } from '../nodes/render';
import { DASHBOARD_NAME } from './dashboardNames';

/** The dashboard's name, else "dashboard #id" (when the workbooks could not be read). */
export function notificationDashboard(n: Item): string {
  const name = (n as Record<symbol, unknown>)[DASHBOARD_NAME];
  if (typeof name === 'string' && name !== '') return plainText(name);
  return n['dashboardId'] !== undefined ? `dashboard #${plainText(n['dashboardId'])}` : 'a dashboard';
}

export function notificationSchedule(n: Item): string {
  return plainText(n['humanReadableSchedule'] ?? n['cronExpression'] ?? `Notification ${n['id']}`);
}

/** The row; `self` is what a click passes to Open Notification. */
export function notificationLook(n: Item, self?: unknown): Look & { command: vscode.Command } {
  const enabled = n['isEnabled'] !== false;
  const schedule = notificationSchedule(n);
  const dashboard = notificationDashboard(n);
  return {
    label: schedule,
    description: [dashboard, plainText(n['timezone']), enabled ? '' : 'paused']
      .filter((s) => s !== '')
      .join(' · '),
    icon: new vscode.ThemeIcon(
      enabled ? 'bell' : 'bell-slash',
      enabled ? undefined : new vscode.ThemeColor('disabledForeground'),
    ),
    contextValue: enabled ? 'dp.notification.enabled' : 'dp.notification.disabled',
    tooltip: safeTooltip(
      tooltipLines(schedule, [
        ['dashboard', dashboard],
        ['timezone', n['timezone']],
        ['format', String(n['notificationFormat'] ?? '').toUpperCase() || undefined],
        ['state', enabled ? 'active' : 'paused'],
        ['cron', n['cronExpression']],
        ['filters', describeFilters(n['filters'])],
        ['id', n['id']],
      ]),
    ),
    command: {
      command: COMMANDS.notificationsOpen.id,
      title: 'Open Notification',
      arguments: [self ?? n],
    },
  };
}

/** "orders.status equals "shipped"; orders.total greater_than 5": operators as the service sent them. */
export function describeFilters(filters: unknown): string | undefined {
  if (!Array.isArray(filters) || filters.length === 0) return undefined;
  return filters
    .map((f: Item) =>
      [
        f?.['member'],
        f?.['operator'],
        f?.['value'] === undefined || f?.['value'] === null ? undefined : JSON.stringify(f['value']),
      ]
        .filter((x) => x !== undefined && x !== null)
        .map(String)
        .join(' '),
    )
    .join('; ');
}
