// The dashboard editor's edits on a large dashboard file: our path (JSON-path changes in place, or
// through jsonc-parser for structure, then one minimal replacement) against the baseline of
// re-serialising the whole publish input and replacing the whole document, in the same run. Both
// start from the publish input the host already parsed for the editor's state (the parse after each
// change is the same for both and is printed on its own). Prints the time per edit and the
// characters each edit hands to VS Code (what the undo stack and every open editor of the file must
// take in), with ratios. The two paths alternate (order rotated each repetition); each repetition's
// median per edit is kept and the figures are printed as median (min to max) over the repetitions,
// with the machine's load.
// Run: npx tsc -p tsconfig.json && node out/bench/dashboardEdit.bench.js [--widgets N] [--edits N] [--reps N]
import { performance } from 'node:perf_hooks';
import { editDashboardText, minimalReplacement } from '../src/dashboards/dashboardEdits';
import { formatDashboardFile, parseDashboardFile } from '../src/dashboards/dashboardFile';
import type { PublishDashboardInput } from '../src/api/schemas/platform';
import type { EditorEdit } from '../src/shared/dashboardEditorProtocol';
import { LoadMeter, arg, fmt, median, quantile, rotation, spread } from './benchArgs';

const WIDGETS = arg('widgets', 1000);
const EDITS = arg('edits', 200);
const REPS = arg('reps', 7);

function dashboard(n: number): string {
  const widgets = Array.from({ length: n }, (_, i) => ({
    id: `w${i}`,
    type: i % 3 === 0 ? 'TEXT' : 'CHART',
    position: { h: 4, w: 6, x: (i % 2) * 6, y: Math.floor(i / 2) * 4 },
    responsiveLayouts: {
      lg: { h: 4, w: 6, x: (i % 2) * 6, y: Math.floor(i / 2) * 4 },
      sm: { h: 4, w: 6, x: 0, y: i * 4 },
    },
    config: { title: `Widget ${i}`, reportId: i, text: `## Section ${i}` },
    style: {},
  }));
  return formatDashboardFile({
    workbookId: 1,
    title: 'Big',
    config: { title: 'Big', layout: { rowHeight: 60 }, theme: { primaryColor: '#5b5fc7' }, widgets },
  });
}

function edits(n: number): EditorEdit[] {
  return Array.from({ length: n }, (_, i): EditorEdit => {
    const id = `w${(i * 37) % WIDGETS}`;
    return i % 2 === 0
      ? { type: 'moveWidget', id, x: i % 7, y: 1000 + i, breakpoint: 'lg' }
      : {
          type: 'setTheme',
          path: ['primaryColor'],
          value: `#${(i * 4099).toString(16).padStart(6, '0').slice(0, 6)}`,
        };
  });
}

/** The baseline: apply the edit to the parsed object and replace the whole text. */
function baselineEdit(parsed: PublishDashboardInput, e: EditorEdit): string {
  const input = structuredClone(parsed) as Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any
  if (e.type === 'moveWidget') {
    const w = input.config.widgets.find((x: { id: string }) => x.id === e.id);
    w.responsiveLayouts[e.breakpoint!] = { ...w.responsiveLayouts[e.breakpoint!], x: e.x, y: e.y };
  } else if (e.type === 'setTheme') {
    input.config.theme.primaryColor = e.value;
  }
  return formatDashboardFile(input as never);
}

const parseTimes: number[] = [];

function run(
  name: string,
  apply: (text: string, e: EditorEdit, input: PublishDashboardInput) => { text: string; handed: number },
) {
  let text = dashboard(WIDGETS);
  const times: number[] = [];
  let handed = 0;
  for (const e of edits(EDITS)) {
    const p0 = performance.now();
    const parsed = parseDashboardFile(text);
    parseTimes.push(performance.now() - p0);
    if (!parsed.ok) throw new Error('invalid');
    const t0 = performance.now();
    const r = apply(text, e, parsed.input);
    times.push(performance.now() - t0);
    handed += r.handed;
    text = r.text;
  }
  return { name, times, handed, text };
}

const load = new LoadMeter();
const size = dashboard(WIDGETS).length;
const paths = {
  ours: (text: string, e: EditorEdit, input: PublishDashboardInput) => {
    const next = editDashboardText(text, e, input).text;
    return { text: next, handed: minimalReplacement(text, next)?.text.length ?? 0 };
  },
  baseline: (_text: string, e: EditorEdit, input: PublishDashboardInput) => {
    const next = baselineEdit(input, e);
    return { text: next, handed: next.length };
  },
};
type PathName = keyof typeof paths;
const medians: Record<PathName, number[]> = { ours: [], baseline: [] };
const p95s: Record<PathName, number[]> = { ours: [], baseline: [] };
const last = {} as Record<PathName, ReturnType<typeof run>>;
run('warm-up', paths.ours);
run('warm-up', paths.baseline);
for (let r = 0; r < REPS; r++)
  for (const name of rotation(['ours', 'baseline'] as const, r)) {
    const got = run(name, paths[name]);
    medians[name].push(quantile(got.times, 0.5));
    p95s[name].push(quantile(got.times, 0.95));
    last[name] = got;
  }
const ours = last.ours;
const base = last.baseline;
// Same content (the baseline also reorders keys into the schema's order, which ours does not).
const canonical = (v: unknown): unknown =>
  Array.isArray(v)
    ? v.map(canonical)
    : v && typeof v === 'object'
      ? Object.fromEntries(
          Object.keys(v)
            .sort()
            .map((k) => [k, canonical((v as Record<string, unknown>)[k])]),
        )
      : v;
if (JSON.stringify(canonical(JSON.parse(ours.text))) !== JSON.stringify(canonical(JSON.parse(base.text)))) {
  throw new Error('the two paths disagree on the result');
}
console.log(
  `dashboard: ${WIDGETS} widgets, ${(size / 1024).toFixed(0)} KiB; ${EDITS} edits (moves and theme colours); ${REPS} repetitions, paths alternated; ${load.stop()}`,
);
for (const name of ['ours', 'baseline'] as const) {
  console.log(
    `${name.padEnd(9)} per edit: median ${spread(medians[name], 2, ' ms')}, p95 ${spread(p95s[name], 2, ' ms')}; ` +
      `${fmt(last[name].handed / EDITS)} characters handed to VS Code per edit`,
  );
}
console.log(
  `ratio baseline/ours per repetition: time median ${spread(
    medians.baseline.map((b, i) => b / medians.ours[i]!),
    2,
    'x',
  )}, characters per edit ${fmt(base.handed / Math.max(1, ours.handed))}x`,
);
console.log(`parse + validate after each change (both paths): median ${fmt(median(parseTimes), 2)} ms`);
