// Journeys: a day's task walked the way a user walks it, as phases (mocha suites) that can be
// separated by a window reload, the seam where state is lost (see README.md in this folder).
//
//   journey('Journey: …', [
//     phase('create a branch and edit', () => { it('…', async () => { … }); }),
//     reloadWindow(),
//     phase('after the reload, the branch is still there', () => { it('…', async () => { … }); }),
//   ]);
//
// The runner (../index.ts) runs every journey after the other suites, each phase group in its own
// mocha run; at a reloadWindow() it saves where it is and the test host reloads the window
// (workbench.action.reloadWindow), which restarts the extension host; the new test host resumes
// with the next phase. Module state is lost in a reload: keep() holds values across it.

/** A value a journey keeps across a reload (saved in the harness's run-state file). */
export type Kept = null | boolean | number | string | Kept[] | { [k: string]: Kept };

export interface JourneyPhase {
  kind: 'phase';
  title: string;
  /** Registers the phase's tests (`it`, hooks), as a `describe` callback does. */
  tests: (this: Mocha.Suite) => void;
}

export interface WindowReload {
  kind: 'reload';
}

/** A group of phases (its tests run in one mocha run) and whether a reload comes before it. */
interface Segment {
  phases: { phase: JourneyPhase; index: number }[];
  afterReload: boolean;
}

/** What the runner learns about a journey when its file is loaded. */
export interface JourneyInfo {
  title: string;
  file: string;
  /** Phase groups separated by reloads. */
  segments: number;
  phases: number;
}

/**
 * How journey() registers, set by the runner: `collect` (the pass of all other suites: nothing
 * runs, journeys are listed), `run` (one segment of one journey), `skip` (every test of the
 * segments from `target.segment` on is registered as skipped, saying why).
 */
export interface JourneyRegistry {
  mode: 'collect' | 'run' | 'skip';
  target?: { title: string; segment: number; reason?: string };
  /** The file mocha is loading (journey() records it). */
  loadingFile?: string;
  journeys: JourneyInfo[];
  /** keep() values by journey title. */
  values: Record<string, Record<string, Kept>>;
  /** Why tests or suites were skipped, for the result. */
  reasons: Map<object, string>;
  /** Whether the running segment had a failure (later tests in it are skipped). */
  failed: boolean;
}

// On globalThis: the runner and the journey files share it even when a test file is loaded again.
const KEY = Symbol.for('dashboard-platform.journeys');
export function journeyRegistry(): JourneyRegistry {
  const g = globalThis as { [KEY]?: JourneyRegistry };
  g[KEY] ??= { mode: 'collect', journeys: [], values: {}, reasons: new Map(), failed: false };
  return g[KEY];
}

export function phase(title: string, tests: (this: Mocha.Suite) => void): JourneyPhase {
  return { kind: 'phase', title, tests };
}

/** Ends the phase group before it: the window reloads (the extension host restarts) before the next. */
export function reloadWindow(): WindowReload {
  return { kind: 'reload' };
}

function segmentsOf(steps: readonly (JourneyPhase | WindowReload)[]): Segment[] {
  const out: Segment[] = [{ phases: [], afterReload: false }];
  let index = 0;
  for (const s of steps) {
    if (s.kind === 'reload') {
      if (out.at(-1)!.phases.length === 0) throw new Error('a reloadWindow() must follow a phase');
      out.push({ phases: [], afterReload: true });
    } else out.at(-1)!.phases.push({ phase: s, index: index++ });
  }
  if (out.at(-1)!.phases.length === 0) throw new Error('a journey ends with a phase, not a reloadWindow()');
  return out;
}

/** Registers a journey (see the file comment). */
export function journey(
  title: string,
  steps: readonly (JourneyPhase | WindowReload)[],
  opts: { timeout?: number } = {},
): void {
  const reg = journeyRegistry();
  const segments = segmentsOf(steps);
  const phases = segments.reduce((n, s) => n + s.phases.length, 0);
  if (reg.mode === 'collect') {
    reg.journeys.push({ title, file: reg.loadingFile ?? '', segments: segments.length, phases });
    return;
  }
  const target = reg.target;
  if (!target || target.title !== title) return;
  const chosen = reg.mode === 'run' ? [segments[target.segment]] : segments.slice(target.segment);
  describe(title, function () {
    this.timeout(opts.timeout ?? 240_000);
    if (reg.mode === 'skip') {
      reg.reasons.set(this, target.reason ?? 'skipped');
      before(function () {
        this.skip();
      });
    } else {
      // A journey's steps build on each other: after a failure the rest of the phase is skipped.
      beforeEach(function () {
        if (!reg.failed) return;
        if (this.currentTest) reg.reasons.set(this.currentTest, 'an earlier step of the journey failed');
        this.skip();
      });
      afterEach(function () {
        if (this.currentTest?.state === 'failed') reg.failed = true;
      });
    }
    for (const seg of chosen) {
      if (!seg) continue;
      for (const { phase: p, index } of seg.phases) {
        const label = `phase ${index + 1}/${phases}${seg.afterReload && p === seg.phases[0]!.phase ? ' (after a window reload)' : ''}: ${p.title}`;
        describe(label, p.tests);
      }
    }
  });
}

/**
 * A value of the running journey that survives its window reloads: the first call makes it
 * (`make`), later calls, in this phase or one after a reload, answer the same value.
 */
export function keep<T extends Kept>(key: string, make: () => T): T {
  const reg = journeyRegistry();
  const title = reg.target?.title;
  if (!title) throw new Error('keep() is for a journey while it runs (inside journey()).');
  const values = (reg.values[title] ??= {});
  if (!(key in values)) values[key] = make();
  return values[key] as T;
}
