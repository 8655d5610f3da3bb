// Starter prompts for an empty chat, built from the semantic model's cubes (/v1/meta): questions a
// new user can click that the agent can answer from this deployment's data. vscode-free.
import type { Meta } from '../api/schemas/data';

const label = (m: { name: string; title?: string; shortTitle?: string }) =>
  (m.shortTitle ?? m.title ?? m.name.split('.').pop() ?? m.name).toLowerCase();

/**
 * Up to `max` prompts: a measure over time, the top value of a category by a measure, a count over
 * time or by a category, per public cube. Sums are preferred to averages, and categories are
 * dimensions a question can name a value of (not ids or names).
 */
export function starterPrompts(meta: Meta, max = 4): string[] {
  const out: string[] = [];
  const cubes = meta.cubes.filter((c) => c.public !== false && c.measures.length > 0);
  for (const cube of cubes) {
    const visible = <T extends { isVisible?: boolean; public?: boolean }>(xs: T[]) =>
      xs.filter((x) => x.isVisible !== false && x.public !== false);
    const measures = visible(cube.measures);
    const sum =
      measures.find((m) => m.aggType === 'sum') ??
      measures.find((m) => m.aggType === 'avg') ??
      measures.find((m) => m.type === 'number' && !/count/i.test(m.aggType ?? '') && !/count$/i.test(m.name));
    const count = measures.find((m) => m.aggType === 'count' || /count$/i.test(m.name));
    const time = visible(cube.dimensions).find((d) => d.type === 'time');
    const category = visible(cube.dimensions).find(
      (d) => d.type === 'string' && !/(^|\.|_)(id|name)$/i.test(d.name),
    );
    const cubeName = (cube.title ?? cube.name).toLowerCase();
    if (sum && time) out.push(`What was the ${label(sum)} by month over the last year?`);
    if (sum && category) out.push(`Which ${label(category)} has the highest ${label(sum)}?`);
    if (count && time) out.push(`How many ${cubeName} were there each week in the last 3 months?`);
    else if (count && category) out.push(`How many ${cubeName} are there by ${label(category)}?`);
    else if (count) out.push(`How many ${cubeName} are there?`);
  }
  return [...new Set(out)].slice(0, max);
}
