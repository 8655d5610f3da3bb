// First-use loading of features: commands registered as small shims until the feature is needed.
import * as vscode from 'vscode';

import { COMMANDS } from './commands';

export { lazyModule } from './lazyModule';

/**
 * A feature whose code loads on first use. Until then its commands are small shims: the first call
 * of any of them loads the feature (which registers the real commands) and runs the command again.
 */
export class LazyFeature<T> implements vscode.Disposable {
  private value: T | undefined;
  private shims: vscode.Disposable[] = [];

  constructor(
    private readonly commandIds: readonly string[],
    private readonly loader: () => T,
  ) {
    this.shim();
  }

  get loaded(): boolean {
    return this.value !== undefined;
  }

  /** The feature, loaded now if it was not yet. */
  get(): T {
    if (this.value === undefined) {
      this.disposeShims();
      try {
        this.value = this.loader();
      } catch (e) {
        this.shim();
        throw e;
      }
    }
    return this.value;
  }

  dispose(): void {
    this.disposeShims();
  }

  private shim(): void {
    this.shims = this.commandIds.map((id) =>
      vscode.commands.registerCommand(id, (...args: unknown[]) => {
        this.get();
        return vscode.commands.executeCommand(id, ...args);
      }),
    );
  }

  private disposeShims(): void {
    for (const s of this.shims.splice(0)) s.dispose();
  }
}

/** The command ids of `table` whose id starts with `prefix` (e.g. 'dashboardPlatform.chat.'). */
export function commandIds(table: Record<string, { id: string }>, prefix: string): string[] {
  return Object.values(table)
    .map((c) => c.id)
    .filter((id) => id.startsWith(prefix));
}

/**
 * The command ids of the features that act on the explorer's rows, whose ids all read
 * 'dashboardPlatform.explorer.…': those of `table` whose key is `feature` followed by a capital
 * (e.g. 'admin' takes adminCreateUser, not administer…).
 */
export function featureCommandIds(table: Record<string, { id: string }>, feature: string): string[] {
  return Object.entries(table)
    .filter(([key]) => key.startsWith(feature) && /^[A-Z]/.test(key.slice(feature.length)))
    .map(([, c]) => c.id);
}

/** What a feature's activation part hands the extension: the feature (loaded on first use) and what to dispose. */
export interface Registered<T> {
  readonly feature: T;
  disposables: vscode.Disposable[];
}

/**
 * The activation part of a feature: shims for `ids` until first use,
 * which loads the feature through `load`; the loaded feature's disposables join `subscriptions`.
 */
export function registerLazyFeature<T>(
  ids: string[],
  subscriptions: vscode.Disposable[],
  load: () => { feature: T; disposables: vscode.Disposable[] },
): Registered<T> {
  const lazy = new LazyFeature(ids, () => {
    const { feature, disposables } = load();
    subscriptions.push(...disposables);
    return feature;
  });
  return {
    get feature() {
      return lazy.get();
    },
    disposables: [lazy],
  };
}

/** A feature acting on the explorer's rows: its commands are the COMMANDS entries whose key starts with `feature`. */
export function registerRowFeature<T>(
  host: { services: { context: { subscriptions: vscode.Disposable[] } } },
  feature: string,
  load: () => { feature: T; disposables: vscode.Disposable[] },
): Registered<T> {
  return registerLazyFeature(featureCommandIds(COMMANDS, feature), host.services.context.subscriptions, load);
}
