// What a model offers the sandbox agent, read from its /v1/meta: cubes and their visible members,
// each with the phrases a question may name it by, the joins between cubes, and what to tell a
// user the model can answer.
import type { Meta } from '../../api/schemas/data';
import { content, words } from './words';

export interface Member {
  /** `cube.member` */
  name: string;
  cube: string;
  /** The member's own name (`total_amount`). */
  short: string;
  title: string;
  shortTitle: string;
  type: string;
  kind: 'measure' | 'dimension';
  aggType?: string;
  /** `currency`, `percent`, `number`, ... when the model says. */
  format?: string;
  /** Token sequences the member answers to (shortTitle, name, with and without its cube). */
  phrases: string[][];
  /** Every word of those phrases. */
  words: Set<string>;
}

export interface Cube {
  name: string;
  title: string;
  /** The cube's name and title as words (`order`). */
  words: Set<string>;
  /** Cubes this one declares joins to; undefined when the model does not say. */
  joins?: string[];
  measures: Member[];
  dimensions: Member[];
  segments: { name: string; title: string; words: string[] }[];
}

export interface Catalog {
  cubes: Cube[];
  members: Map<string, Member>;
}

const visible = (x: { isVisible?: boolean; public?: boolean }) => x.isVisible !== false && x.public !== false;

export function catalogOf(meta: Meta): Catalog {
  const members = new Map<string, Member>();
  const cubes: Cube[] = [];
  for (const c of meta.cubes) {
    if (c.public === false) continue;
    const cubeWords = new Set([...words(c.name), ...words(c.title ?? '')]);
    const member = (m: (typeof c.measures)[number], kind: Member['kind']): Member => {
      const short = m.name.includes('.') ? m.name.slice(m.name.indexOf('.') + 1) : m.name;
      const title = m.title ?? `${c.title ?? c.name} ${short}`;
      const shortTitle = m.shortTitle ?? short.replace(/_/g, ' ');
      const own = (ws: string[]) => {
        // A member's phrase without its cube's words ("Orders Count" -> "count"), unless that is all.
        const rest = ws.filter((w) => !cubeWords.has(w));
        return rest.length ? rest : ws;
      };
      const phrases = [words(shortTitle), words(short), own(words(title))]
        .map((p) => content(p))
        .filter((p) => p.length > 0);
      const cubeWord = words(c.name)[0]!;
      for (const p of [...phrases]) phrases.push([cubeWord, ...p]);
      const unique = [...new Map(phrases.map((p) => [p.join(' '), p])).values()];
      return {
        name: m.name,
        cube: c.name,
        short,
        title,
        shortTitle,
        type: m.type,
        kind,
        ...(m.aggType ? { aggType: m.aggType } : {}),
        ...(typeof m.format === 'string' ? { format: m.format } : {}),
        phrases: unique,
        words: new Set(unique.flat()),
      };
    };
    const cube: Cube = {
      name: c.name,
      title: c.title ?? c.name,
      words: cubeWords,
      ...(c.joins ? { joins: c.joins.map((j) => j.name) } : {}),
      measures: c.measures.filter(visible).map((m) => member(m, 'measure')),
      dimensions: c.dimensions.filter(visible).map((m) => member(m, 'dimension')),
      segments: (c.segments ?? [])
        .filter((s) => (s as { isVisible?: boolean }).isVisible !== false)
        .map((s) => {
          const title = s.shortTitle ?? s.title ?? s.name;
          return { name: s.name, title, words: content(words(title)).filter((w) => !cubeWords.has(w)) };
        }),
    };
    for (const m of [...cube.measures, ...cube.dimensions]) members.set(m.name, m);
    cubes.push(cube);
  }
  return { cubes, members };
}

/** Whether one query can hold members of all these cubes (one of them declares joins to the rest). */
export function joinable(catalog: Catalog, cubes: Iterable<string>): boolean {
  const names = [...new Set(cubes)];
  if (names.length < 2) return true;
  return catalog.cubes.some(
    (c) =>
      names.includes(c.name) &&
      (c.joins === undefined || names.every((n) => n === c.name || c.joins!.includes(n))),
  );
}

/** A cube's count measure (what "how many <cube>" asks for). */
export function countOf(cube: Cube): Member | undefined {
  return (
    cube.measures.find((m) => m.aggType === 'count') ??
    cube.measures.find((m) => m.short === 'count') ??
    cube.measures.find((m) => m.aggType === 'countDistinct' && m.words.has('count'))
  );
}

/** The dimension that names a cube's rows (its `name`, else its first string dimension). */
export function labelOf(cube: Cube): Member | undefined {
  const strings = cube.dimensions.filter((d) => d.type === 'string' && !/(^|_)id$/.test(d.short));
  return strings.find((d) => d.short === 'name' || d.words.has('name')) ?? strings[0];
}

/** The time dimension of a cube (the first). */
export function timeOf(cube: Cube | undefined): Member | undefined {
  return cube?.dimensions.find((d) => d.type === 'time');
}

/** What the agent can answer, for a refusal: the measures and dimensions of the model. */
export function capabilities(catalog: Catalog): { measures: string[]; dimensions: string[] } {
  return {
    measures: catalog.cubes.flatMap((c) => c.measures.map((m) => m.title)),
    dimensions: catalog.cubes.flatMap((c) =>
      c.dimensions.filter((d) => !/(^|_)id$/.test(d.short)).map((d) => d.title),
    ),
  };
}

/** Questions this model can answer, for a refusal: a measure by a dimension, over time, a count. */
export function exampleQuestions(catalog: Catalog, max = 3): string[] {
  const out: string[] = [];
  for (const cube of catalog.cubes) {
    const sum =
      cube.measures.find((m) => m.aggType === 'sum') ?? cube.measures.find((m) => m.aggType === 'avg');
    const count = countOf(cube);
    const category = cube.dimensions.find((d) => d.type === 'string' && !/(^|_)(id|name)$/.test(d.short));
    const time = timeOf(cube);
    if (sum && category)
      out.push(`Which ${category.shortTitle.toLowerCase()} has the highest ${sum.shortTitle.toLowerCase()}?`);
    if (sum && time) out.push(`What was the ${sum.shortTitle.toLowerCase()} by month over the last year?`);
    if (count && category)
      out.push(`How many ${cube.title.toLowerCase()} are there by ${category.shortTitle.toLowerCase()}?`);
  }
  return out.slice(0, max);
}
