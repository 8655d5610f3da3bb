// What the question flows and the pickers share (no `vscode`): choices, pages of choices, the step
// of a multi-step flow, and the Back signal.

export interface Choice<T> {
  label: string;
  description?: string;
  detail?: string;
  /** What a scripted answer may name instead of the label (e.g. an id). */
  id?: string;
  value: T;
}

/** The next page of a long list; `more` absent on the last page. */
export interface PageOfChoices<T> {
  choices: Choice<T>[];
  more?: () => Promise<PageOfChoices<T>>;
}

export interface StepInfo {
  step: number;
  totalSteps: number;
}

export interface InputQuestion {
  title: string;
  prompt: string;
  value?: string;
  placeHolder?: string;
  /** Hides what is typed (secrets-like values). */
  password?: boolean;
  /** A message refuses the value (shown under the box); undefined accepts it. */
  validate?: (value: string) => string | undefined;
  step?: StepInfo;
}

export interface PickOptions<T> {
  placeHolder?: string;
  step?: StepInfo;
  /** Fetches the next page ("Load more…"). */
  more?: () => Promise<PageOfChoices<T>>;
  /** Accepts a typed value that is not in the list. */
  typed?: { validate: (text: string) => string | undefined; value: (text: string) => T; hint?: string };
  /** The item highlighted first (single pick). */
  active?: (value: T) => boolean;
  /** The items checked first (multi pick). */
  selected?: (value: T) => boolean;
}

/** The user pressed Back: the flow returns to the previous step. */
export class GoBack extends Error {
  constructor() {
    super('Back');
    this.name = 'GoBack';
  }
}
