// Which data-model branch in dev mode the user works on, shared by features loaded apart (the
// model sets it; the chat answers from it; notebook member checks hear when it was rebuilt). It
// lives in the services object because each lazily loaded bundle has its own copy of a module.
import * as vscode from 'vscode';

export interface ModelBranchTarget {
  deploymentId: number;
  deploymentName: string;
  branch: string;
}

export class ModelBranchState implements vscode.Disposable {
  private value: ModelBranchTarget | undefined;
  private readonly changed = new vscode.EventEmitter<ModelBranchTarget | undefined>();
  private readonly rebuiltEmitter = new vscode.EventEmitter<{ deploymentId: number; branch: string }>();
  /** The branch in view changed (undefined: none, or the read-only default branch). */
  readonly onDidChange = this.changed.event;
  /** A branch's model was compiled again after a save: its /v1/meta may differ. */
  readonly onDidRebuild = this.rebuiltEmitter.event;

  /** The model's active branch in dev mode, if any. */
  get current(): ModelBranchTarget | undefined {
    return this.value;
  }

  set(target: ModelBranchTarget | undefined): void {
    const v = this.value;
    if (
      v?.deploymentId === target?.deploymentId &&
      v?.branch === target?.branch &&
      v?.deploymentName === target?.deploymentName
    )
      return;
    this.value = target;
    this.changed.fire(target);
  }

  rebuilt(deploymentId: number, branch: string): void {
    this.rebuiltEmitter.fire({ deploymentId, branch });
  }

  dispose(): void {
    this.changed.dispose();
    this.rebuiltEmitter.dispose();
  }
}
