// A one-page form in a quick pick: every field on one list with its value beside it, and the
// action (Create Role, Save) on top. Picking a field edits it and comes back to the form; Escape
// inside a field returns to the form unchanged, Escape on the form cancels. The action is taken
// only when nothing stands in its way: otherwise the form stays, saying what is missing.
import { UserCancelled } from '../log';
import type { Prompter } from '../ui/prompter';

export interface FormField {
  /** What a scripted answer names (and the row's label). */
  label: string;
  /** The value as the user reads it ("(none)" when empty). */
  shown(): string;
  edit(): Promise<void>;
}

export interface FormSubmit {
  label: string;
  /** Why the action cannot be taken yet; undefined when it can. */
  problem(): string | undefined;
}

const SUBMIT = Symbol('submit');

/** Runs the form until its action is picked with nothing in the way (throws UserCancelled on Escape). */
export async function onePageForm(
  prompter: Prompter,
  title: string,
  fields: FormField[],
  submit: FormSubmit,
): Promise<void> {
  let note: string | undefined;
  for (;;) {
    const problem = submit.problem();
    const picked = await prompter.pick<FormField | typeof SUBMIT>(
      title,
      [
        {
          label: submit.label,
          description: problem ? `not yet: ${problem}` : 'ready',
          value: SUBMIT,
        },
        ...fields.map((f) => ({ label: f.label, description: f.shown(), value: f })),
      ],
      { placeHolder: note ?? `Pick a field to change it, then ${submit.label}` },
    );
    if (picked === SUBMIT) {
      if (!problem) return;
      note = `${submit.label}: ${problem}`;
      continue;
    }
    note = undefined;
    try {
      await picked.edit();
    } catch (e) {
      // Escape in a field leaves it as it was and returns to the form.
      if (!(e instanceof UserCancelled)) throw e;
    }
  }
}

/** A yes / no / not set choice as the form shows it. */
export const onOff = (v: boolean | null | undefined): string =>
  v === true ? 'on' : v === false ? 'off' : '(not set)';
