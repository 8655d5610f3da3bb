// What the benchmarks share: numeric command-line options, quantiles, and the way every figure is
// printed (median with its spread over the repetitions, and the machine's load while measuring).
import * as os from 'node:os';

/** The number after `--name` on the command line, or `fallback`. */
export function arg(name: string, fallback: number): number {
  const i = process.argv.indexOf(`--${name}`);
  return i >= 0 ? Number(process.argv[i + 1]) : fallback;
}

/** The string after `--name` on the command line, or undefined. */
export function argText(name: string): string | undefined {
  const i = process.argv.indexOf(`--${name}`);
  return i >= 0 ? process.argv[i + 1] : undefined;
}

/** The q-quantile (0..1) of the values, by the nearest rank below. */
export function quantile(xs: number[], q: number): number {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.floor(q * s.length))] ?? NaN;
}

/** Median of numbers. */
export function median(xs: number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  const m = Math.floor(s.length / 2);
  return s.length % 2 ? s[m]! : (s[m - 1]! + s[m]!) / 2;
}

export const fmt = (n: number, d = 0): string =>
  n.toLocaleString('en-US', { maximumFractionDigits: d, minimumFractionDigits: d });

/** "median (min to max, n=N)": how every repeated figure is printed. */
export function spread(xs: number[], d = 0, unit = ''): string {
  if (!xs.length) return 'n/a';
  const lo = Math.min(...xs);
  const hi = Math.max(...xs);
  return `${fmt(median(xs), d)}${unit} (${fmt(lo, d)} to ${fmt(hi, d)}, n=${xs.length})`;
}

/** Load averages are sampled while a benchmark runs, so its figures carry the load they met. */
export class LoadMeter {
  private readonly samples: number[] = [];
  private readonly timer: NodeJS.Timeout;
  constructor(everyMs = 2000) {
    this.sample();
    this.timer = setInterval(() => this.sample(), everyMs);
    this.timer.unref();
  }
  private sample(): void {
    this.samples.push(os.loadavg()[0]!);
  }
  /** "load 1-min avg 3.1 to 5.2 on 2 CPUs" over the samples taken so far. */
  text(): string {
    this.sample();
    return `load (1-min average) ${fmt(Math.min(...this.samples), 1)} to ${fmt(Math.max(...this.samples), 1)} on ${os.cpus().length} CPUs`;
  }
  stop(): string {
    clearInterval(this.timer);
    return this.text();
  }
}

/** The i-th order of `modes` for repetition `rep`: rotated each repetition so drift hits all alike. */
export function rotation<T>(modes: readonly T[], rep: number): T[] {
  const k = rep % modes.length;
  const order = [...modes.slice(k), ...modes.slice(0, k)];
  return rep % 2 ? order.reverse() : order;
}
