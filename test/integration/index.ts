// Runs every integration suite inside VS Code. Both routes use it: @vscode/test-electron calls
// `run()` (extensionTestsPath), the code-server test host calls `runSuites()` and writes the result.
//
// Journeys (journeys/journey.ts) run after the other suites, one phase group per mocha run. When a
// group ends with a window reload, runSuites saves the results so far and where it is in the
// run-state file (`statePath`) and answers `reload`: the test host reloads the window, and the new
// extension host's test host calls runSuites again, which resumes from that file. The result it
// finally answers holds every pass's tests. Without a run-state file (test-electron) a journey
// with a reload is reported as skipped, saying why.
import * as fs from 'node:fs';
import * as path from 'node:path';
import Mocha from 'mocha';
import { journeyRegistry, type JourneyInfo, type Kept } from './journeys/journey';

export interface SuiteResult {
  passed: number;
  failed: number;
  pending: number;
  durationMs: number;
  failures: { title: string; error: string }[];
  tests: { title: string; state: 'passed' | 'failed' | 'pending'; durationMs?: number }[];
  /** Why tests were skipped: one entry per reason. */
  skipped?: { reason: string; tests: number; suites: string[] }[];
  /** Window reloads the journeys made during the run. */
  reloads?: number;
  /** Set when the caller must reload the window and call runSuites again (see the file comment). */
  reload?: { journey: string; afterPhase: string };
}

/** What survives a window reload (the run-state file). */
interface RunState {
  result: SuiteResult;
  /** The pass running now; found set on a start that was not asked for: the host restarted mid-pass. */
  running?: string;
  awaitingReload?: boolean;
  normalDone: boolean;
  queue: (JourneyInfo & { next: number; stopped?: string })[];
  values: Record<string, Record<string, Kept>>;
  done?: boolean;
}

function testFiles(dir: string): string[] {
  const out: string[] = [];
  for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) out.push(...testFiles(full));
    else if (entry.name.endsWith('.test.js')) out.push(full);
  }
  return out.sort();
}

const emptyResult = (): SuiteResult => ({
  passed: 0,
  failed: 0,
  pending: 0,
  durationMs: 0,
  failures: [],
  tests: [],
  skipped: [],
  reloads: 0,
});

/** Mocha's reading of a grep string: `/re/flags` or a regular expression's source. */
function grepRegExp(grep: string): RegExp {
  const m = /^\/(.*)\/([gimy]{0,4})$/.exec(grep);
  return m ? new RegExp(m[1]!, m[2]) : new RegExp(grep);
}

export async function runSuites(
  opts: { progress?: (line: string) => void; grep?: string; dir?: string; statePath?: string } = {},
): Promise<SuiteResult> {
  const progress = opts.progress ?? ((line: string) => console.log(line));
  const reg = journeyRegistry();
  const t0 = Date.now();
  const statePath = opts.statePath;
  const save = (st: RunState) => {
    if (statePath) fs.writeFileSync(statePath, JSON.stringify(st, null, 2));
  };
  let st: RunState | undefined =
    statePath && fs.existsSync(statePath)
      ? (JSON.parse(fs.readFileSync(statePath, 'utf8')) as RunState)
      : undefined;
  if (st?.done) return st.result;
  if (st) {
    if (st.awaitingReload) {
      st.result.reloads = (st.result.reloads ?? 0) + 1;
      progress('[runner] the window reloaded; resuming');
    } else if (st.running) {
      // The extension host restarted without being asked (a suite added a workspace folder, say).
      const title = `${st.running}: the extension host restarted during the run`;
      st.result.failed++;
      st.result.failures.push({
        title,
        error:
          'VS Code restarted the extension host while this pass ran, so its remaining tests did not run.',
      });
      st.result.tests.push({ title, state: 'failed' });
      progress(`  ✖ ${title}`);
      if (!st.normalDone) st.normalDone = true;
      else if (st.queue[0])
        st.queue[0].stopped = 'an earlier phase was cut short by a restart of the extension host';
    }
    st.awaitingReload = false;
    st.running = undefined;
  }
  st ??= { result: emptyResult(), normalDone: false, queue: [], values: {} };
  const state = st;

  /** One mocha run of `files`; its tests join the result as they finish (saved, in case of a restart). */
  const pass = async (name: string, files: string[], grep: string | undefined) => {
    state.running = name;
    save(state);
    const mocha = new Mocha({ ui: 'bdd', timeout: 60_000, color: false, reporter: 'base' });
    if (grep) mocha.grep(grep);
    mocha.suite.on('pre-require', (_ctx: unknown, file: string) => (reg.loadingFile = file));
    for (const file of files) {
      // A journey file runs once per phase group: load it afresh each time.
      delete require.cache[require.resolve(file)];
      mocha.addFile(file);
    }
    const r = state.result;
    let failed = 0;
    await new Promise<void>((resolve) => {
      const runner = mocha.run(() => resolve());
      runner.on('pass', (test) => {
        r.passed++;
        r.tests.push({ title: test.fullTitle(), state: 'passed', durationMs: test.duration });
        progress(`  ✔ ${test.fullTitle()} (${test.duration ?? 0} ms)`);
        save(state);
      });
      runner.on('fail', (test, err: Error) => {
        r.failed++;
        failed++;
        reg.failed = true;
        const error = err?.stack ?? String(err);
        r.failures.push({ title: test.fullTitle(), error });
        r.tests.push({ title: test.fullTitle(), state: 'failed' });
        progress(`  ✖ ${test.fullTitle()}\n${error.replace(/^/gm, '      ')}`);
        save(state);
      });
      runner.on('pending', (test) => {
        r.pending++;
        r.tests.push({ title: test.fullTitle(), state: 'pending' });
        let reason = reg.reasons.get(test);
        for (let s: Mocha.Suite | undefined = test.parent; s && !reason; s = s.parent)
          reason = reg.reasons.get(s);
        reason ??= 'marked as skipped';
        let top = test.parent;
        while (top?.parent && !top.parent.root) top = top.parent;
        const groups = (r.skipped ??= []);
        let g = groups.find((x) => x.reason === reason);
        if (!g) groups.push((g = { reason, tests: 0, suites: [] }));
        g.tests++;
        const suite = top?.title || test.fullTitle();
        if (!g.suites.includes(suite)) g.suites.push(suite);
        progress(`  - ${test.fullTitle()} (skipped: ${reason})`);
      });
    });
    mocha.dispose();
    state.running = undefined;
    return failed;
  };

  // `dir`: another folder of *.test.js files (the README's screenshot walk).
  const files = testFiles(opts.dir ?? __dirname);
  if (!state.normalDone) {
    reg.mode = 'collect';
    reg.journeys = [];
    await pass('the suites', files, opts.grep);
    state.normalDone = true;
    // A journey runs whole when the grep names it (its phases' tests all start with its title).
    const re = opts.grep ? grepRegExp(opts.grep) : undefined;
    state.queue = reg.journeys.filter((j) => !re || re.test(j.title)).map((j) => ({ ...j, next: 0 }));
    save(state);
  }

  while (state.queue.length > 0) {
    const j = state.queue[0]!;
    const skipRest = (reason: string) => ({ title: j.title, segment: j.next, reason });
    if (j.next < j.segments && (j.stopped || (!statePath && j.segments > 1))) {
      reg.mode = 'skip';
      reg.target = skipRest(
        j.stopped ??
          'it reloads the window, which only the code-server harness can survive (node scripts/run-integration.mjs)',
      );
      await pass(`journey "${j.title}" (skipped)`, [j.file], undefined);
      j.next = j.segments;
    }
    if (j.next >= j.segments) {
      state.queue.shift();
      save(state);
      continue;
    }
    reg.mode = 'run';
    reg.target = { title: j.title, segment: j.next };
    reg.values = state.values;
    reg.failed = false;
    const failed = await pass(
      `journey "${j.title}", phase group ${j.next + 1}/${j.segments}`,
      [j.file],
      undefined,
    );
    state.values = reg.values;
    j.next++;
    if (failed > 0 && j.next < j.segments) j.stopped = 'an earlier phase of the journey failed';
    if (j.next < j.segments && !j.stopped) {
      state.awaitingReload = true;
      state.result.durationMs += Date.now() - t0;
      save(state);
      return {
        ...state.result,
        reload: { journey: j.title, afterPhase: `phase group ${j.next}/${j.segments}` },
      };
    }
  }
  reg.mode = 'collect';
  reg.target = undefined;
  state.result.durationMs += Date.now() - t0;
  state.done = true;
  save(state);
  return state.result;
}

/** The @vscode/test-electron entry point: rejects when any test failed. */
export async function run(): Promise<void> {
  const result = await runSuites({ grep: process.env.DP_TEST_GREP });
  console.log(`${result.passed} passed, ${result.failed} failed, ${result.pending} skipped`);
  for (const s of result.skipped ?? [])
    console.log(`  skipped: ${s.tests} tests in ${s.suites.join(', ')}: ${s.reason}`);
  if (result.failed > 0) throw new Error(`${result.failed} integration test(s) failed`);
}
