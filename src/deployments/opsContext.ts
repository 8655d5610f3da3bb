// What the deployment operations' flows share: the explorer's context (tree, targets, write
// confirmation), the
// deployment's name for messages, output channels (their lines also kept for tests), and a pause
// that ends early on cancellation.
import * as vscode from 'vscode';
import type { ExplorerContext } from '../explorer/context';
import { plainText } from '../explorer/labels';
import type { Prompter } from '../ui/prompter';
import type { TargetContext } from '../explorer/targets';

export class OpsContext implements vscode.Disposable {
  private readonly channels = new Map<string, vscode.OutputChannel>();
  /** Every line written to each channel, for the integration tests (never a secret: see `append`). */
  readonly transcripts = new Map<string, string[]>();

  readonly targets: TargetContext;

  constructor(readonly deps: ExplorerContext) {
    this.targets = deps.targets;
  }

  get prompter(): Prompter {
    return this.targets.prompter();
  }

  get log() {
    return this.deps.services.log;
  }

  client() {
    return this.targets.client();
  }

  /** Asks first on a production profile (throws UserCancelled when declined). */
  confirmWrite(what: string): Promise<void> {
    return this.deps.confirmWrite(what);
  }

  /** The deployment's name as people know it: from the tree, else from the server. */
  async deploymentName(deploymentId: number): Promise<string> {
    const shown = this.deps.provider.loadedDeployments().find((d) => d.deploymentId === deploymentId);
    if (shown) return `"${shown.name}"`;
    try {
      const d = await (await this.client()).getDeployment(deploymentId);
      return `"${plainText(d.name)}"`;
    } catch {
      return 'the deployment';
    }
  }

  channel(name: string): vscode.OutputChannel {
    let c = this.channels.get(name);
    if (!c) {
      c = vscode.window.createOutputChannel(name);
      this.channels.set(name, c);
    }
    return c;
  }

  /** Appends lines (redacted like the log) to a channel. */
  append(name: string, lines: string[]): void {
    const c = this.channel(name);
    const t = this.transcripts.get(name) ?? [];
    for (const l of lines) {
      const safe = this.log.redact(l);
      c.appendLine(safe);
      t.push(safe);
    }
    this.transcripts.set(name, t);
  }

  dispose(): void {
    for (const c of this.channels.values()) c.dispose();
    this.channels.clear();
  }
}

/** Waits `ms`, resolving early (false) when `token` is cancelled. */
export function pause(ms: number, token?: vscode.CancellationToken): Promise<boolean> {
  return new Promise((resolve) => {
    if (token?.isCancellationRequested) return resolve(false);
    const sub = token?.onCancellationRequested(() => {
      clearTimeout(timer);
      resolve(false);
    });
    const timer = setTimeout(() => {
      sub?.dispose();
      resolve(true);
    }, ms);
  });
}

/** An AbortSignal that follows a cancellation token. */
export function abortOn(token: vscode.CancellationToken): { signal: AbortSignal; dispose(): void } {
  const ctl = new AbortController();
  const sub = token.onCancellationRequested(() => ctl.abort());
  if (token.isCancellationRequested) ctl.abort();
  return { signal: ctl.signal, dispose: () => sub.dispose() };
}
