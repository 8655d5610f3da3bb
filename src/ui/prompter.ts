// The questions a flow asks, behind one small interface (no `vscode` here, so flows and their
// scripted answers run in plain Node too): VS Code's quick input in the product
// (src/ui/vscodePrompter.ts: searchable, paged pickers with a step count and Back), a scripted
// answerer in the tests (which still runs every `validate`, so the rules of a flow are tested where
// the user meets them, and can press Back with the answer BACK).
import { UserCancelled } from '../log';
import {
  GoBack,
  type Choice,
  type InputQuestion,
  type PageOfChoices,
  type PickOptions,
  type StepInfo,
} from './quickInputTypes';

export { GoBack, type Choice, type InputQuestion, type PageOfChoices, type PickOptions, type StepInfo };

export interface Prompter {
  /** The accepted text; throws UserCancelled when dismissed, GoBack on Back. */
  input(q: InputQuestion): Promise<string>;
  /** The picked value; throws UserCancelled when dismissed, GoBack on Back. */
  pick<T>(title: string, choices: Choice<T>[], placeHolder?: string | PickOptions<T>): Promise<T>;
  /** The checked values (possibly none). */
  pickMany<T>(title: string, choices: Choice<T>[], opts?: PickOptions<T>): Promise<T[]>;
  /** A modal yes/no naming what will happen; false when declined. */
  confirm(message: string, detail: string, action: string): Promise<boolean>;
}

export const pickOptions = <T>(o: string | PickOptions<T> | undefined): PickOptions<T> =>
  typeof o === 'string' ? { placeHolder: o } : (o ?? {});

/** The scripted answer that presses Back. */
export const BACK = '$back';
type Answer = string | number | boolean | undefined | string[];

/**
 * Answers from a script, for tests: each `input` takes answers until one passes `validate`, and
 * records the refusal messages on the way (what the user would have seen under the box). A pick
 * answer names a choice by label, id or value, or is typed text when the picker accepts it; a
 * multi pick takes an array (or "" for none). Pages are loaded until the named choice appears.
 */
export class ScriptedPrompter implements Prompter {
  readonly refusals: string[] = [];
  /** Titles asked, with "(Step n of m)" when the question is a step. */
  readonly asked: string[] = [];
  /** The choices offered at each pick, by title (tests check names and order). */
  readonly offered = new Map<string, string[]>();
  /** The same rows with their descriptions and details (what the user reads beside each label). */
  readonly rows = new Map<string, { label: string; description?: string; detail?: string }[]>();
  constructor(
    private readonly answers: Answer[],
    private readonly confirmAnswer = true,
  ) {}

  async input(q: InputQuestion): Promise<string> {
    this.ask(q.title, q.step);
    for (;;) {
      const a = this.next(q.step);
      const message = q.validate?.(a);
      if (message === undefined) return a;
      this.refusals.push(message);
    }
  }

  async pick<T>(title: string, choices: Choice<T>[], o?: string | PickOptions<T>): Promise<T> {
    const opts = pickOptions(o);
    this.ask(title, opts.step);
    for (;;) {
      const a = this.next(opts.step);
      const all = await this.loadAll(choices, opts);
      this.offered.set(
        title,
        all.map((c) => c.label),
      );
      this.rows.set(
        title,
        all.map(({ label, description, detail }) => ({ label, description, detail })),
      );
      const c = all.find((x) => x.label === a || x.id === a || String(x.value) === a);
      if (c) return c.value;
      if (!opts.typed)
        throw new Error(`No choice "${a}" in "${title}": ${all.map((x) => x.label).join(', ')}`);
      const message = opts.typed.validate(a);
      if (message === undefined) return opts.typed.value(a);
      this.refusals.push(message);
    }
  }

  async pickMany<T>(title: string, choices: Choice<T>[], opts: PickOptions<T> = {}): Promise<T[]> {
    this.ask(title, opts.step);
    const raw = this.answers.length > 0 ? this.answers[0] : undefined;
    if (raw === BACK && opts.step && opts.step.step > 1) {
      this.answers.shift();
      throw new GoBack();
    }
    if (this.answers.length === 0 || raw === undefined) throw new UserCancelled();
    this.answers.shift();
    const names = Array.isArray(raw) ? raw : String(raw) === '' ? [] : [String(raw)];
    const all = await this.loadAll(choices, opts);
    this.offered.set(
      title,
      all.map((c) => c.label),
    );
    return names.map((a) => {
      const c = all.find((x) => x.label === a || x.id === a || String(x.value) === a);
      if (!c) throw new Error(`No choice "${a}" in "${title}": ${all.map((x) => x.label).join(', ')}`);
      return c.value;
    });
  }

  async confirm(message: string): Promise<boolean> {
    this.asked.push(message);
    return this.confirmAnswer;
  }

  private ask(title: string, step: StepInfo | undefined): void {
    this.asked.push(step ? `${title} (Step ${step.step} of ${step.totalSteps})` : title);
  }

  /** Every page, as a user pressing "Load more…" until the end would see them. */
  private async loadAll<T>(choices: Choice<T>[], opts: PickOptions<T>): Promise<Choice<T>[]> {
    const all = [...choices];
    let more = opts.more;
    while (more) {
      const page = await more();
      all.push(...page.choices);
      more = page.more;
    }
    return all;
  }

  private next(step?: StepInfo): string {
    if (this.answers.length === 0) throw new UserCancelled();
    const a = this.answers.shift();
    if (a === undefined) throw new UserCancelled();
    if (a === BACK && step && step.step > 1) throw new GoBack();
    return Array.isArray(a) ? a.join(',') : String(a);
  }
}
