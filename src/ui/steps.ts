// Runs the steps of a multi-step input: each step knows whether it applies to the answers so far,
// is shown as "step n of m" (m counts the steps that apply now, so it follows the answers), and
// Back returns to the step answered before, with the earlier answer as its default.
import { GoBack, type StepInfo } from './quickInputTypes';

export interface Step<S> {
  applies?(state: S): boolean;
  run(state: S, step: StepInfo): Promise<void>;
}

export async function runSteps<S>(state: S, steps: Step<S>[]): Promise<void> {
  const done: number[] = [];
  const applies = (i: number) => steps[i]!.applies?.(state) ?? true;
  let i = 0;
  while (i < steps.length) {
    if (!applies(i)) {
      i++;
      continue;
    }
    let remaining = 0;
    for (let j = i; j < steps.length; j++) if (applies(j)) remaining++;
    const info = { step: done.length + 1, totalSteps: done.length + remaining };
    try {
      await steps[i]!.run(state, info);
      done.push(i);
      i++;
    } catch (e) {
      if (!(e instanceof GoBack) || done.length === 0) throw e;
      i = done.pop()!;
    }
  }
}
