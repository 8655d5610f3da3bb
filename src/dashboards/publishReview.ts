// The review shown before a publish: what is published and what would be published, both written
// by one formatter in the local file's style (its indentation, short number arrays inline or not)
// and in the local file's key and widget order, so the diff shows only real changes; plus a
// one-line summary of them ("2 widgets moved, theme.primaryColor changed"). vscode-free.
import type { PublishDashboardInput } from '../api/schemas/platform';

type Rec = Record<string, unknown>;
const isRec = (v: unknown): v is Rec => typeof v === 'object' && v !== null && !Array.isArray(v);

export interface FileStyle {
  indent: string;
  /** Arrays of numbers, strings and booleans on one line (`[16, 16]`). */
  inlineScalarArrays: boolean;
}

/** The indentation and array style of a JSON text. */
export function detectStyle(text: string): FileStyle {
  const m = /\n([ \t]+)\S/.exec(text);
  const indent = m ? (m[1]!.startsWith('\t') ? '\t' : m[1]!) : '  ';
  return { indent, inlineScalarArrays: /\[[^\n[\]{}]*[^\s[\]][^\n[\]{}]*\]/.test(text) };
}

/** JSON in a given style. */
export function formatJson(value: unknown, style: FileStyle): string {
  const write = (v: unknown, depth: number): string => {
    const pad = style.indent.repeat(depth + 1);
    const end = style.indent.repeat(depth);
    if (Array.isArray(v)) {
      if (v.length === 0) return '[]';
      if (style.inlineScalarArrays && v.every((x) => x === null || typeof x !== 'object')) {
        return `[${v.map((x) => JSON.stringify(x)).join(', ')}]`;
      }
      return `[\n${v.map((x) => pad + write(x, depth + 1)).join(',\n')}\n${end}]`;
    }
    if (isRec(v)) {
      const keys = Object.keys(v).filter((k) => v[k] !== undefined);
      if (keys.length === 0) return '{}';
      return `{\n${keys.map((k) => `${pad}${JSON.stringify(k)}: ${write(v[k], depth + 1)}`).join(',\n')}\n${end}}`;
    }
    return JSON.stringify(v) ?? 'null';
  };
  return `${write(value, 0)}\n`;
}

/** `value` with its keys in the order `like` has them (others after) and widgets in `like`'s order. */
export function orderLike(value: unknown, like: unknown, path: string[] = []): unknown {
  if (Array.isArray(value)) {
    const likeArr = Array.isArray(like) ? like : [];
    if (path.join('.') === 'config.widgets') {
      const idOf = (w: unknown) => (isRec(w) && typeof w.id === 'string' ? w.id : undefined);
      const rank = new Map(likeArr.map((w, i) => [idOf(w), i]));
      const sorted = [...value].sort(
        (a, b) => (rank.get(idOf(a)) ?? Infinity) - (rank.get(idOf(b)) ?? Infinity),
      );
      return sorted.map((w) =>
        orderLike(
          w,
          likeArr.find((l) => idOf(l) !== undefined && idOf(l) === idOf(w)),
          [...path, '*'],
        ),
      );
    }
    return value.map((v, i) => orderLike(v, likeArr[i], [...path, '*']));
  }
  if (!isRec(value)) return value;
  const likeRec = isRec(like) ? like : {};
  const keys = [
    ...Object.keys(likeRec).filter((k) => k in value),
    ...Object.keys(value).filter((k) => !(k in likeRec)),
  ];
  return Object.fromEntries(keys.map((k) => [k, orderLike(value[k], likeRec[k], [...path, k])]));
}

/** Paths (dotted) of the leaves that differ between two values; arrays of scalars are one leaf. */
function changedLeaves(a: unknown, b: unknown, prefix: string): string[] {
  if (isRec(a) && isRec(b)) {
    const keys = new Set([...Object.keys(a), ...Object.keys(b)]);
    return [...keys].flatMap((k) => changedLeaves(a[k], b[k], prefix ? `${prefix}.${k}` : k));
  }
  return JSON.stringify(a) === JSON.stringify(b) ? [] : [prefix];
}

const plural = (n: number, one: string, many = `${one}s`) => `${n} ${n === 1 ? one : many}`;

/** Named changes, or counted when there are many of them. */
function named(paths: string[], what: string): string[] {
  if (paths.length === 0) return [];
  if (paths.length <= 3) return paths.map((p) => `${p} changed`);
  return [`${plural(paths.length, `${what} value`)} changed`];
}

function widgetChanges(before: unknown[], after: unknown[]): string[] {
  const byId = (list: unknown[]) =>
    new Map(
      list.filter(isRec).flatMap((w) => (typeof w.id === 'string' ? [[w.id, w] as [string, Rec]] : [])),
    );
  const b = byId(before);
  const a = byId(after);
  let moved = 0;
  let resized = 0;
  let changed = 0;
  const boxes = (w: Rec) => [
    w.position,
    ...Object.values(isRec(w.responsiveLayouts) ? w.responsiveLayouts : {}),
  ];
  for (const [id, w] of a) {
    const old = b.get(id);
    if (!old) continue;
    const was = boxes(old).map((x) => (isRec(x) ? x : {}));
    const now = boxes(w).map((x) => (isRec(x) ? x : {}));
    const differs = (keys: string[]) =>
      was.length !== now.length || was.some((box, i) => keys.some((k) => box[k] !== now[i]![k]));
    if (differs(['x', 'y'])) moved++;
    if (differs(['w', 'h'])) resized++;
    const rest = (x: Rec) => ({ ...x, position: undefined, responsiveLayouts: undefined });
    if (JSON.stringify(rest(old)) !== JSON.stringify(orderLike(rest(w), rest(old)))) changed++;
  }
  const added = [...a.keys()].filter((id) => !b.has(id)).length;
  const removed = [...b.keys()].filter((id) => !a.has(id)).length;
  const out: string[] = [];
  if (added) out.push(`${plural(added, 'widget')} added`);
  if (removed) out.push(`${plural(removed, 'widget')} removed`);
  if (moved) out.push(`${plural(moved, 'widget')} moved`);
  if (resized) out.push(`${plural(resized, 'widget')} resized`);
  if (changed) out.push(`${plural(changed, 'widget')} reconfigured`);
  return out;
}

/** What the publish changes against what is published, as short phrases. */
export function summariseChanges(
  published: PublishDashboardInput | undefined,
  local: PublishDashboardInput,
): string[] {
  const config = (x: PublishDashboardInput | undefined): Rec => (isRec(x?.config) ? x.config : {});
  const widgets = (c: Rec) => (Array.isArray(c.widgets) ? c.widgets : []);
  if (!published) return [`first publish, ${plural(widgets(config(local)).length, 'widget')}`];
  const before = config(published);
  const after = config(local);
  const out: string[] = [];
  const top = (x: PublishDashboardInput) => ({ ...x, config: undefined });
  out.push(...changedLeaves(top(published), top(local), '').map((p) => `${p} changed`));
  out.push(...widgetChanges(widgets(before), widgets(after)));
  out.push(...named(changedLeaves(before.theme, after.theme, 'theme'), 'theme'));
  out.push(...named(changedLeaves(before.layout, after.layout, 'layout'), 'layout'));
  const others = changedLeaves(
    { ...before, widgets: undefined, theme: undefined, layout: undefined },
    { ...after, widgets: undefined, theme: undefined, layout: undefined },
    'config',
  );
  out.push(...named(others, 'config'));
  return out;
}

export interface PublishReview {
  /** What is published, normalised ('' when nothing is). */
  left: string;
  /** What would be published, normalised the same way. */
  right: string;
  changes: string[];
  summary: string;
}

/**
 * What the server stores for a field a publish leaves out, by path under the publish input
 * (`config.kind`; `config.widgets[].style` for every widget). A field the file does not write
 * whose published value is this fill is not a change the publish makes, so the review hides it.
 */
export type ServerFills = Record<string, unknown>;

/**
 * Fills the documents let us know before any publish: `config.kind` is CLASSIC or APP
 * (wire-formats.md), and a dashboard without an `app` source is a CLASSIC one. Fills learned from
 * the server's own answers (learnServerFills) are added to these.
 */
export const DOCUMENTED_SERVER_FILLS: ServerFills = { 'config.kind': 'CLASSIC' };

const same = (a: unknown, b: unknown) => JSON.stringify(a) === JSON.stringify(b);
const childPath = (path: string, key: string) => (path ? `${path}.${key}` : key);
const widgetKey = (w: unknown) => (isRec(w) && typeof w.id === 'string' ? w.id : undefined);

/**
 * `published` without the fields the file does not write whose value is what the server fills
 * when they are left out: null (every field of the documents' input shapes here is nullable, so
 * leaving one out and sending null mean the same) or a known fill. A null the file writes for a
 * field the answer leaves out is likewise no change: it is copied to the published side.
 */
export function withoutServerFills(
  published: unknown,
  local: unknown,
  fills: ServerFills,
  path = '',
): unknown {
  if (path === 'config.widgets' && Array.isArray(published) && Array.isArray(local)) {
    return published.map((w) =>
      withoutServerFills(
        w,
        local.find((l) => widgetKey(l) !== undefined && widgetKey(l) === widgetKey(w)),
        fills,
        `${path}[]`,
      ),
    );
  }
  if (!isRec(published) || !isRec(local)) return published;
  const out: Rec = {};
  for (const [k, v] of Object.entries(published)) {
    const at = childPath(path, k);
    if (!(k in local) && (v === null || (at in fills && same(fills[at], v)))) continue;
    out[k] = withoutServerFills(v, local[k], fills, at);
  }
  for (const [k, v] of Object.entries(local)) if (v === null && !(k in published)) out[k] = null;
  return out;
}

/**
 * The fields the server added to what was sent (the publish answer's config against the body's),
 * with their values: how this server fills a field left out. Nulls are not recorded (they are
 * always hidden); widgets are matched by id and recorded once for all widgets.
 */
export function learnServerFills(sent: unknown, answer: unknown, path = 'config'): ServerFills {
  const out: ServerFills = {};
  if (path === 'config.widgets' && Array.isArray(sent) && Array.isArray(answer)) {
    for (const w of answer) {
      const mine = sent.find((s) => widgetKey(s) !== undefined && widgetKey(s) === widgetKey(w));
      Object.assign(out, learnServerFills(mine, w, `${path}[]`));
    }
    return out;
  }
  if (!isRec(sent) || !isRec(answer)) return out;
  for (const [k, v] of Object.entries(answer)) {
    const at = childPath(path, k);
    if (!(k in sent)) {
      if (v !== null && v !== undefined) out[at] = v;
    } else Object.assign(out, learnServerFills(sent[k], v, at));
  }
  return out;
}

/** The review of publishing `file` (read from `localText`) over `published`. */
export function publishReview(
  localText: string,
  file: PublishDashboardInput,
  published: PublishDashboardInput | undefined,
  fills: ServerFills = DOCUMENTED_SERVER_FILLS,
): PublishReview {
  const local = file;
  const style = detectStyle(localText);
  // Top-level fields the file leaves out are not sent: they are not changes this publish makes.
  const sent =
    published &&
    (withoutServerFills(
      Object.fromEntries(Object.entries(published).filter(([k]) => k === 'config' || k in local)),
      local,
      fills,
    ) as PublishDashboardInput);
  const changes = summariseChanges(sent, local);
  return {
    left: sent ? formatJson(orderLike(sent, local), style) : '',
    right: formatJson(local, style),
    changes,
    summary: changes.length === 0 ? 'no changes' : summaryText(changes),
  };
}

function summaryText(changes: string[]): string {
  const shown = changes.slice(0, 4).join(', ');
  return changes.length > 4 ? `${shown} and ${changes.length - 4} more` : shown;
}

/** What a review was made from, and what it found. */
export interface ReviewBasis {
  /** The file's text when the review was made. */
  text: string;
  /** The published version it compared against (undefined: nothing was published). */
  publishedVersion: number | undefined;
  changes: readonly string[];
}

/** What "Publish These Changes" may do with a review, given the file and the server now. */
export type ReviewCheck =
  { kind: 'publish' } | { kind: 'nothing' } | { kind: 'stale'; why: 'file' | 'published'; detail: string };

/**
 * Whether a review may still be published: only while the file holds exactly the text it reviewed
 * (saved) and the server still publishes the version it compared against; and only when it found
 * something to publish. A stale review is reviewed again, never published as it was.
 */
export function checkReview(
  basis: ReviewBasis,
  now: { text: string; dirty: boolean; publishedVersion: number | undefined },
): ReviewCheck {
  if (now.dirty || now.text !== basis.text) {
    return {
      kind: 'stale',
      why: 'file',
      detail: now.dirty ? 'has unsaved changes' : 'changed since this review',
    };
  }
  if (now.publishedVersion !== basis.publishedVersion) {
    const v = (n: number | undefined) => (n === undefined ? 'none' : String(n));
    return {
      kind: 'stale',
      why: 'published',
      detail: `version ${v(basis.publishedVersion)} → ${v(now.publishedVersion)}`,
    };
  }
  return basis.changes.length === 0 ? { kind: 'nothing' } : { kind: 'publish' };
}
