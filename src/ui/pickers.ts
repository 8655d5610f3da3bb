// Searchable quick picks over lists that may be long: matched on label, description and detail,
// filled page by page ("Load more…" fetches the next page without closing the picker), optionally
// accepting a typed value ("Use “…”"), with a step count and a Back button inside multi-step flows.
import * as vscode from 'vscode';
import {
  GoBack,
  type Choice,
  type InputQuestion,
  type PageOfChoices,
  type PickOptions,
} from './quickInputTypes';
import { UserCancelled } from '../log';

interface Row<T> extends vscode.QuickPickItem {
  choice?: Choice<T>;
  more?: true;
  typed?: string;
}

const LOAD_MORE = '$(more) Load more…';

/** One or several values from `choices` (and pages from `opts.more`); throws UserCancelled or GoBack. */
export function showPicker<T>(
  title: string,
  choices: Choice<T>[],
  opts: PickOptions<T> & { many?: boolean },
): Promise<T[]> {
  const qp = vscode.window.createQuickPick<Row<T>>();
  qp.title = title;
  qp.placeholder = opts.placeHolder;
  qp.ignoreFocusOut = true;
  qp.matchOnDescription = true;
  qp.matchOnDetail = true;
  qp.canSelectMany = !!opts.many;
  if (opts.step) {
    qp.step = opts.step.step;
    qp.totalSteps = opts.step.totalSteps;
    if (opts.step.step > 1) qp.buttons = [vscode.QuickInputButtons.Back];
  }
  const all: Choice<T>[] = [...choices];
  let next = opts.more;
  let typedProblem: string | undefined;
  const rows = (): Row<T>[] => {
    const out: Row<T>[] = all.map((c) => ({
      label: c.label,
      description: c.description,
      detail: c.detail,
      choice: c,
    }));
    const text = qp.value.trim();
    if (opts.typed && text !== '' && !all.some((c) => c.label === text)) {
      typedProblem = opts.typed.validate(text);
      out.unshift({
        label: `Use “${text}”`,
        detail: typedProblem ?? opts.typed.hint,
        alwaysShow: true,
        typed: text,
      });
    }
    if (next) out.push({ label: LOAD_MORE, alwaysShow: true, more: true });
    return out;
  };
  const refresh = () => {
    const keep = new Set(qp.selectedItems.map((r) => r.choice));
    qp.items = rows();
    if (opts.many)
      qp.selectedItems = qp.items.filter(
        (r) => r.choice && (keep.has(r.choice) || (keep.size === 0 && opts.selected?.(r.choice.value))),
      );
    else if (opts.active) {
      const active = qp.items.find((r) => r.choice && opts.active!(r.choice.value));
      if (active) qp.activeItems = [active];
    }
  };
  const loadMore = async () => {
    if (!next) return;
    qp.busy = true;
    try {
      const page: PageOfChoices<T> = await next();
      all.push(...page.choices);
      next = page.more;
    } finally {
      qp.busy = false;
    }
    refresh();
  };
  refresh();
  return new Promise<T[]>((resolve, reject) => {
    let done = false;
    const finish = (f: () => void) => {
      done = true;
      f();
      qp.dispose();
    };
    qp.onDidTriggerButton((b) => {
      if (b === vscode.QuickInputButtons.Back) finish(() => reject(new GoBack()));
    });
    qp.onDidChangeValue(() => {
      if (opts.typed) refresh();
    });
    qp.onDidAccept(() => {
      const picked = opts.many ? qp.selectedItems : qp.activeItems;
      if (picked.some((r) => r.more) || (!opts.many && qp.activeItems[0]?.more)) {
        loadMore().catch((e: unknown) => finish(() => reject(e)));
        return;
      }
      const typed = qp.activeItems[0]?.typed;
      if (typed !== undefined && !opts.many) {
        if (typedProblem) return; // The message is shown under the item; the picker stays open.
        const value = opts.typed!.value(typed);
        finish(() => resolve([value]));
        return;
      }
      const values = picked.filter((r) => r.choice).map((r) => r.choice!.value);
      if (!opts.many && values.length === 0) return;
      finish(() => resolve(values));
    });
    qp.onDidHide(() => {
      if (!done) finish(() => reject(new UserCancelled()));
    });
    qp.show();
  });
}

/** A text box with the step count and Back button of a multi-step flow. */
export function showInput(q: InputQuestion): Promise<string> {
  const box = vscode.window.createInputBox();
  box.title = q.title;
  box.prompt = q.prompt;
  box.value = q.value ?? '';
  box.placeholder = q.placeHolder;
  box.password = q.password === true;
  box.ignoreFocusOut = true;
  if (q.step) {
    box.step = q.step.step;
    box.totalSteps = q.step.totalSteps;
    if (q.step.step > 1) box.buttons = [vscode.QuickInputButtons.Back];
  }
  const check = () => {
    box.validationMessage = q.validate?.(box.value);
  };
  return new Promise<string>((resolve, reject) => {
    let done = false;
    const finish = (f: () => void) => {
      done = true;
      f();
      box.dispose();
    };
    box.onDidChangeValue(check);
    box.onDidTriggerButton((b) => {
      if (b === vscode.QuickInputButtons.Back) finish(() => reject(new GoBack()));
    });
    box.onDidAccept(() => {
      check();
      if (box.validationMessage) return;
      finish(() => resolve(box.value));
    });
    box.onDidHide(() => {
      if (!done) finish(() => reject(new UserCancelled()));
    });
    box.show();
    if (q.value) check();
  });
}
