// The Prompter of the product: VS Code's quick input (src/ui/pickers.ts).
import * as vscode from 'vscode';
import { UserCancelled } from '../log';
import { showInput, showPicker } from './pickers';
import { pickOptions, type Prompter } from './prompter';

export const vscodePrompter: Prompter = {
  input: (q) => showInput(q),
  async pick(title, choices, o) {
    const [v] = await showPicker(title, choices, pickOptions(o));
    if (v === undefined) throw new UserCancelled();
    return v;
  },
  pickMany: (title, choices, o) => showPicker(title, choices, { ...pickOptions(o), many: true }),
  async confirm(message, detail, action) {
    const answer = await vscode.window.showWarningMessage(message, { modal: true, detail }, action);
    return answer === action;
  },
};
