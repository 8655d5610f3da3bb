// The questions the explorer's flows ask, behind one small interface: VS Code's quick input in the
// product, a scripted answerer in the integration tests (which still runs every `validate`, so the
// rules of a flow are tested where the user meets them).
import * as vscode from 'vscode';
import { UserCancelled } from '../log';

export interface InputQuestion {
  title: string;
  prompt: string;
  value?: string;
  placeHolder?: string;
  /** Hide the typed text (secrets). */
  password?: boolean;
  /** A message refuses the value (shown under the box); undefined accepts it. */
  validate?: (value: string) => string | undefined;
}

export interface Choice<T> {
  label: string;
  description?: string;
  detail?: string;
  value: T;
}

export interface Prompter {
  /** The accepted text; throws UserCancelled when dismissed. */
  input(q: InputQuestion): Promise<string>;
  /** The picked value; throws UserCancelled when dismissed. */
  pick<T>(title: string, choices: Choice<T>[], placeHolder?: string): Promise<T>;
  /** A modal yes/no naming what will happen; false when declined. */
  confirm(message: string, detail: string, action: string): Promise<boolean>;
}

export const vscodePrompter: Prompter = {
  async input(q) {
    const v = await vscode.window.showInputBox({
      title: q.title,
      prompt: q.prompt,
      ignoreFocusOut: true,
      ...(q.value !== undefined ? { value: q.value } : {}),
      ...(q.placeHolder !== undefined ? { placeHolder: q.placeHolder } : {}),
      ...(q.password ? { password: true } : {}),
      ...(q.validate ? { validateInput: q.validate } : {}),
    });
    if (v === undefined) throw new UserCancelled();
    return v;
  },
  async pick(title, choices, placeHolder) {
    const picked = await vscode.window.showQuickPick(
      choices.map((c) => ({ label: c.label, description: c.description, detail: c.detail, choice: c })),
      { title, placeHolder, ignoreFocusOut: true, matchOnDescription: true },
    );
    if (!picked) throw new UserCancelled();
    return picked.choice.value;
  },
  async confirm(message, detail, action) {
    const answer = await vscode.window.showWarningMessage(message, { modal: true, detail }, action);
    return answer === action;
  },
};

/**
 * Answers from a script, for tests: each `input` takes answers until one passes `validate`, and
 * records the refusal messages on the way (what the user would have seen under the box).
 */
export class ScriptedPrompter implements Prompter {
  readonly refusals: string[] = [];
  readonly asked: string[] = [];
  constructor(
    private readonly answers: (string | number | boolean | undefined)[],
    private readonly confirmAnswer = true,
  ) {}

  async input(q: InputQuestion): Promise<string> {
    this.asked.push(q.title);
    for (;;) {
      const a = this.next();
      const message = q.validate?.(a);
      if (message === undefined) return a;
      this.refusals.push(message);
    }
  }

  async pick<T>(title: string, choices: Choice<T>[]): Promise<T> {
    this.asked.push(title);
    const a = this.next();
    const c = choices.find((x) => x.label === a || String(x.value) === a);
    if (!c) throw new Error(`No choice "${a}" in "${title}": ${choices.map((x) => x.label).join(', ')}`);
    return c.value;
  }

  async confirm(message: string): Promise<boolean> {
    this.asked.push(message);
    return this.confirmAnswer;
  }

  private next(): string {
    if (this.answers.length === 0) throw new UserCancelled();
    const a = this.answers.shift();
    if (a === undefined) throw new UserCancelled();
    return String(a);
  }
}
