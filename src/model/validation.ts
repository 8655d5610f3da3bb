// Validate as you save: after a write the branch's model is compiled on the server and each error
// becomes a diagnostic at its file and line (Problems panel); a clean compile clears them.
import * as vscode from 'vscode';
import type { Validation } from '../api/buildClient';
import type { Services } from '../services';
import { locateError } from './modelPaths';
import type { Mount, Mounts } from './mounts';

export class ModelValidation implements vscode.Disposable {
  readonly diagnostics = vscode.languages.createDiagnosticCollection('dashboardPlatform.model');
  private readonly timers = new Map<Mount, ReturnType<typeof setTimeout>>();
  private readonly runs = new Map<Mount, Promise<Validation | undefined>>();
  private readonly done = new vscode.EventEmitter<{ mount: Mount; result: Validation }>();
  /** Fires after each validate with its result (tests and the status bar read it). */
  readonly onDidValidate = this.done.event;

  constructor(
    private readonly services: Services,
    private readonly mounts: Mounts,
  ) {}

  /** Validates soon; saves in quick succession (Save All) validate once. */
  schedule(mount: Mount): void {
    clearTimeout(this.timers.get(mount));
    this.timers.set(
      mount,
      setTimeout(() => {
        this.timers.delete(mount);
        void this.run(mount);
      }, 150),
    );
  }

  /** Compiles the branch and replaces its diagnostics. */
  run(mount: Mount): Promise<Validation | undefined> {
    const prev = this.runs.get(mount) ?? Promise.resolve(undefined);
    const next = prev
      .catch(() => undefined)
      .then(async () => {
        try {
          const build = await this.mounts.build();
          const result = await build.validate(mount.deploymentId, { branchName: mount.branch });
          this.apply(mount, result);
          this.done.fire({ mount, result });
          return result;
        } catch (e) {
          // A failed validate says nothing about the model: keep the last diagnostics, log why.
          this.services.log.warn(
            `Validating ${mount.deploymentName} · ${mount.branch} failed: ${e instanceof Error ? e.message : String(e)}`,
          );
          return undefined;
        }
      });
    this.runs.set(mount, next);
    return next;
  }

  private apply(mount: Mount, result: Validation): void {
    const root = mount.root.toString();
    // Clear this mount's old diagnostics, keep other mounts'.
    this.diagnostics.forEach((uri) => {
      if (uri.toString().startsWith(root)) this.diagnostics.delete(uri);
    });
    const byFile = new Map<string, vscode.Diagnostic[]>();
    for (const e of result.errors) {
      const loc = locateError(e.message, e.fileName);
      const known = loc.file && (mount.files.has(loc.file) ? loc.file : this.byBaseName(mount, loc.file));
      // An error that names no file of the branch is shown on the model folder itself.
      const key = known || '';
      const range = new vscode.Range(loc.line, loc.column, loc.line, Number.MAX_SAFE_INTEGER);
      const d = new vscode.Diagnostic(range, loc.message, vscode.DiagnosticSeverity.Error);
      d.source = `${mount.deploymentName} · ${mount.branch}`;
      byFile.set(key, [...(byFile.get(key) ?? []), d]);
    }
    for (const [path, list] of byFile) this.diagnostics.set(path ? mount.uri(path) : mount.root, list);
  }

  /** A compiler may name a file by its base name only (`orders.yml`). */
  private byBaseName(mount: Mount, file: string): string | undefined {
    const matches = [...mount.files.keys()].filter((p) => p === file || p.endsWith(`/${file}`));
    return matches.length === 1 ? matches[0] : undefined;
  }

  dispose(): void {
    for (const t of this.timers.values()) clearTimeout(t);
    this.diagnostics.dispose();
    this.done.dispose();
  }
}
