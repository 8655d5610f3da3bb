// Notifications, loaded on first use of one of their commands (index.ts registers the shims):
// see notificationActions.ts for what a user does with them.
import type * as vscode from 'vscode';
import { registerCommand } from '../commandRunner';
import { explorerContext, type ExplorerHost } from '../explorer/context';
import { NotificationActions } from './notificationActions';

export function createNotificationsFeature(host: ExplorerHost): {
  feature: NotificationActions;
  disposables: vscode.Disposable[];
} {
  const feature = new NotificationActions(explorerContext(host));
  const reg = (spec: { id: string; title: string }, fn: (arg?: unknown) => unknown) =>
    registerCommand(host.services, spec, fn as (...a: never[]) => unknown);
  return { feature, disposables: feature.register(reg) };
}
