// The sandbox's state as data, so it can be saved between runs (stateFile.ts). Generic over the
// object graphs the routes keep: plain objects, arrays, Maps, Sets, Dates, bytes and primitives,
// with shared objects and cycles kept as such, and instances of the classes named as data holders
// (their fields). Nothing here knows a family: a route that adds a field or a list to its state
// has it saved without a change here.
//
// A value that is behaviour, not data (a function) is left out. An object of any other class (a
// promise, an abort controller, a timer) is a running activity: the record holding it is left out
// (a turn that was running when the sandbox stopped does not come back).
//
// Restoring merges a saved graph into the live one in place, since the routes hold references to
// the objects they were given: a live plain object, array, Map or Set keeps its identity and takes
// the saved content; an instance of a data class takes the saved fields and keeps the others.

export type Json = null | boolean | number | string | Json[] | { [k: string]: Json };

/** A class whose instances are data holders (their fields are saved and merged back in place). */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export type DataClass = abstract new (...args: any[]) => object;

export interface CodecOptions {
  dataClasses?: readonly DataClass[];
  /** Replaces a value before it is saved (so a secret never reaches the file); `path` names where it is. */
  redact?: (path: readonly string[], value: unknown) => unknown;
}

/** The saved data does not fit the sandbox's state (hand-edited, or from an unknown shape). */
export class RestoreError extends Error {}

type Kind = 'omit' | 'live' | 'prim' | 'array' | 'plain' | 'map' | 'set' | 'date' | 'bytes' | 'data';

/** The key marking a tagged value in the encoding; a plain object that has it is itself wrapped. */
const TAG = '$';

function kindOf(v: unknown, dataClasses: readonly DataClass[]): Kind {
  if (v === undefined || typeof v === 'function' || typeof v === 'symbol') return 'omit';
  if (v === null || typeof v !== 'object') return 'prim';
  if (Array.isArray(v)) return 'array';
  if (v instanceof Map) return 'map';
  if (v instanceof Set) return 'set';
  if (v instanceof Date) return 'date';
  if (v instanceof Uint8Array) return 'bytes';
  const proto = Object.getPrototypeOf(v) as unknown;
  if (proto === Object.prototype || proto === null) return 'plain';
  if (dataClasses.some((c) => v instanceof c)) return 'data';
  return 'live';
}

const isContainer = (k: Kind) => k === 'array' || k === 'plain' || k === 'map' || k === 'set';

/**
 * Calls `fn` with each direct child of a container or data instance and its key (a Map: each key,
 * as `key:<k>`, and each value); stops early when `fn` returns true, and answers whether it did.
 */
function someChild(v: object, kind: Kind, fn: (k: string | number, x: unknown) => boolean): boolean {
  if (kind === 'array') {
    const a = v as unknown[];
    for (let i = 0; i < a.length; i++) if (fn(i, a[i])) return true;
  } else if (kind === 'plain' || kind === 'data') {
    const o = v as Record<string, unknown>;
    for (const k in o) if (Object.hasOwn(o, k) && fn(k, o[k])) return true;
  } else if (kind === 'map') {
    for (const [k, x] of v as Map<unknown, unknown>)
      if (fn(`key:${String(k)}`, k) || fn(String(k), x)) return true;
  } else if (kind === 'set') {
    let i = 0;
    for (const x of v as Set<unknown>) if (fn(i++, x)) return true;
  }
  return false;
}

/** Encodes `root` as JSON-ready data (see the file comment for what is left out). */
export function encode(root: unknown, opts: CodecOptions = {}): Json {
  return new Encoder(opts).run(root);
}

class Encoder {
  private readonly dataClasses: readonly DataClass[];
  private readonly redact: CodecOptions['redact'];
  /**
   * Pass 1: each object reached, how many times (more than once: saved once, then referenced) and
   * whether it holds a running activity (then left out).
   */
  private readonly seen = new Map<object, { n: number; transient: boolean }>();
  private readonly ids = new Map<object, number>();
  private readonly path: string[] = [];

  constructor(opts: CodecOptions) {
    this.dataClasses = opts.dataClasses ?? [];
    this.redact = opts.redact;
  }

  run(root: unknown): Json {
    this.count(root);
    const out = this.enc(root);
    return out === SKIP ? null : out;
  }

  private value(v: unknown): unknown {
    return this.redact ? this.redact(this.path, v) : v;
  }

  private count(raw: unknown): void {
    const v = this.value(raw);
    const kind = kindOf(v, this.dataClasses);
    if (!(isContainer(kind) || kind === 'data')) return;
    const o = v as object;
    const info = this.seen.get(o);
    if (info) {
      info.n++;
      return;
    }
    const transient =
      isContainer(kind) && someChild(o, kind, (_k, x) => kindOf(x, this.dataClasses) === 'live');
    this.seen.set(o, { n: 1, transient });
    if (transient) return;
    someChild(o, kind, (k, x) => {
      this.path.push(String(k));
      this.count(x);
      this.path.pop();
      return false;
    });
  }

  private enc(raw: unknown): Json | typeof SKIP {
    const v = this.value(raw);
    const kind = kindOf(v, this.dataClasses);
    switch (kind) {
      case 'omit':
      case 'live':
        return SKIP;
      case 'prim':
        if (typeof v === 'bigint') return { [TAG]: 'BigInt', v: v.toString() };
        if (typeof v === 'number' && !Number.isFinite(v)) return { [TAG]: 'Num', v: String(v) };
        return v as Json;
      case 'date':
        return { [TAG]: 'Date', v: Number.isNaN((v as Date).getTime()) ? null : (v as Date).toISOString() };
      case 'bytes':
        return { [TAG]: 'Bytes', v: Buffer.from(v as Uint8Array).toString('base64') };
      default:
        break;
    }
    const o = v as object;
    const info = this.seen.get(o);
    if (info?.transient) return SKIP;
    const id = this.ids.get(o);
    if (id !== undefined) return { [TAG]: 'Ref', id };
    if (info && info.n > 1) {
      const n = this.ids.size + 1;
      this.ids.set(o, n);
      return { [TAG]: 'Def', id: n, v: this.container(o, kind) };
    }
    return this.container(o, kind);
  }

  private child(k: string | number, x: unknown): Json | typeof SKIP {
    this.path.push(String(k));
    const e = this.enc(x);
    this.path.pop();
    return e;
  }

  private fields(o: object): { [k: string]: Json } {
    const out: { [k: string]: Json } = {};
    const rec = o as Record<string, unknown>;
    for (const k in rec) {
      if (!Object.hasOwn(rec, k)) continue;
      const e = this.child(k, rec[k]);
      if (e !== SKIP) out[k] = e;
    }
    return out;
  }

  private container(o: object, kind: Kind): Json {
    switch (kind) {
      case 'array': {
        const a = o as unknown[];
        const out: Json[] = new Array<Json>(a.length);
        for (let i = 0; i < a.length; i++) {
          const e = this.child(i, a[i]);
          out[i] = e === SKIP ? { [TAG]: 'Undef' } : e;
        }
        return out;
      }
      case 'plain': {
        const f = this.fields(o);
        return Object.hasOwn(o, TAG) ? { [TAG]: 'Obj', v: f } : f;
      }
      case 'map': {
        const entries: Json[] = [];
        for (const [k, x] of o as Map<unknown, unknown>) {
          const ek = this.child(`key:${String(k)}`, k);
          const ev = this.child(String(k), x);
          if (ek !== SKIP && ev !== SKIP) entries.push([ek, ev]);
        }
        return { [TAG]: 'Map', v: entries };
      }
      case 'set': {
        const items: Json[] = [];
        let i = 0;
        for (const x of o as Set<unknown>) {
          const e = this.child(i++, x);
          if (e !== SKIP) items.push(e);
        }
        return { [TAG]: 'Set', v: items };
      }
      default:
        return { [TAG]: 'Data', class: o.constructor.name, v: this.fields(o) };
    }
  }
}

const SKIP = Symbol('skip');

const isRecord = (j: unknown): j is { [k: string]: Json } =>
  typeof j === 'object' && j !== null && !Array.isArray(j);

function tagOf(j: Json): string | undefined {
  if (!isRecord(j)) return undefined;
  const t = j[TAG];
  return typeof t === 'string' ? t : undefined;
}

function fail(message: string): never {
  throw new RestoreError(message);
}

/**
 * The key paths of the plain objects and data instances reachable from `root` through plain
 * objects and data instances only (not through lists or maps), as JSON strings. Saved with the
 * state: a restore keeps a live field the saved file does not have when the code that saved it
 * did not have that field either (a newer version added it).
 */
export function shapeOf(root: unknown, opts: CodecOptions = {}): string[] {
  const dataClasses = opts.dataClasses ?? [];
  const out: string[] = [];
  const seen = new Set<object>();
  const walk = (v: unknown, path: string[]) => {
    const kind = kindOf(v, dataClasses);
    if ((kind !== 'plain' && kind !== 'data') || seen.has(v as object)) return;
    seen.add(v as object);
    for (const [k, x] of Object.entries(v as object)) {
      const kk = kindOf(x, dataClasses);
      if (kk === 'omit' || kk === 'live') continue;
      const p = [...path, k];
      out.push(JSON.stringify(p));
      walk(x, p);
    }
  };
  walk(root, []);
  return out;
}

export interface RestoreOptions extends CodecOptions {
  /** The shape saved with the data (see shapeOf); absent: every live field the data lacks is removed. */
  shape?: readonly string[];
}

/** Decodes saved data into new objects (no live graph to merge into). */
export function decode(j: Json, opts: CodecOptions = {}): unknown {
  return new Restorer(opts).fresh(j);
}

/**
 * Merges saved data into the live graph `root` in place (see the file comment). Throws a
 * RestoreError when the data does not fit: the caller then restores a known-good state the same way.
 */
export function restoreInto(root: object, j: Json, opts: RestoreOptions = {}): void {
  const r = new Restorer(opts);
  if (!isRecord(j) || tagOf(j) !== undefined) fail('the saved state is not an object of named parts');
  r.into(root, j, []);
}

class Restorer {
  private readonly dataClasses: readonly DataClass[];
  private readonly shape: Set<string> | undefined;
  private readonly defs = new Map<number, unknown>();
  /** Where the restore is, for messages (keys from the root, through lists and maps too). */
  private readonly where: string[] = [];

  constructor(opts: RestoreOptions) {
    this.dataClasses = opts.dataClasses ?? [];
    this.shape = opts.shape ? new Set(opts.shape) : undefined;
  }

  private define(id: Json | undefined, value: unknown): void {
    if (id === undefined) return;
    if (typeof id !== 'number' || this.defs.has(id))
      fail(`a shared object has a bad or repeated id (${String(id)})`);
    this.defs.set(id, value);
  }

  /** A new value from saved data; a list or Set fills `target` (emptied first) when given. */
  fresh(j: Json, id?: Json, target?: unknown[] | Set<unknown>): unknown {
    if (Array.isArray(j)) {
      const out = (target as unknown[] | undefined) ?? [];
      this.define(id, out);
      const items = j.map((x) => (tagOf(x) === 'Undef' ? undefined : this.fresh(x)));
      out.length = 0;
      out.push(...items);
      return out;
    }
    if (!isRecord(j)) return j;
    const tag = tagOf(j);
    if (tag === undefined || tag === 'Obj') {
      const src = tag === 'Obj' ? j.v : j;
      if (!isRecord(src)) fail('a wrapped object has no fields');
      const out: Record<string, unknown> = {};
      this.define(id, out);
      for (const [k, x] of Object.entries(src)) out[k] = this.fresh(x);
      return out;
    }
    switch (tag) {
      case 'Map': {
        const out = new Map<unknown, unknown>();
        this.define(id, out);
        for (const [k, v] of this.pairs(j)) out.set(this.fresh(k), this.fresh(v));
        return out;
      }
      case 'Set': {
        const out = (target as Set<unknown> | undefined) ?? new Set<unknown>();
        this.define(id, out);
        const items = this.list(j).map((x) => this.fresh(x));
        out.clear();
        for (const x of items) out.add(x);
        return out;
      }
      case 'Def':
        if (id !== undefined) fail('a shared object is defined twice over');
        return this.fresh(j.v!, j.id);
      case 'Ref': {
        if (typeof j.id !== 'number' || !this.defs.has(j.id))
          fail(`a reference to an unknown object (${String(j.id)})`);
        return this.defs.get(j.id);
      }
      case 'Date':
        return new Date(typeof j.v === 'string' ? j.v : NaN);
      case 'Bytes':
        if (typeof j.v !== 'string') fail('saved bytes are not base64 text');
        return new Uint8Array(Buffer.from(j.v, 'base64'));
      case 'BigInt':
        if (typeof j.v !== 'string' || !/^-?\d+$/.test(j.v)) fail('a saved big integer is not one');
        return BigInt(j.v);
      case 'Num':
        if (j.v !== 'NaN' && j.v !== 'Infinity' && j.v !== '-Infinity')
          fail(`a saved number is not one (${String(j.v)})`);
        return Number(j.v);
      case 'Undef':
        return undefined;
      case 'Data':
        return fail(
          `an object of class ${String(j.class)} cannot be made from saved data (nothing live to restore it into)`,
        );
      default:
        return fail(`unknown tag "${tag}" in the saved data`);
    }
  }

  private list(j: { [k: string]: Json }): Json[] {
    const v = j.v;
    if (!Array.isArray(v)) fail(`a saved ${String(j[TAG])} has no list of entries`);
    return v;
  }

  /** A saved Map's entries as `[key, value]`. */
  private pairs(j: { [k: string]: Json }): [Json, Json][] {
    return this.list(j).map((e) => {
      if (!Array.isArray(e) || e.length !== 2) fail('a Map entry is not a [key, value] pair');
      return [e[0]!, e[1]!];
    });
  }

  /**
   * The value for a slot holding `live` after restoring `j` into it: `live` itself, merged, when
   * both are the same kind of container; a new value otherwise. `path` is set while the slot is
   * reached through plain objects and data instances only (a field of the state's structure).
   */
  into(live: unknown, j: Json, path: string[] | undefined): unknown {
    let id: Json | undefined;
    if (tagOf(j) === 'Def') {
      id = (j as { [k: string]: Json }).id;
      j = (j as { [k: string]: Json }).v!;
    }
    const kind = kindOf(live, this.dataClasses);
    const tag = tagOf(j);
    if ((Array.isArray(j) && kind === 'array') || (tag === 'Set' && kind === 'set'))
      return this.fresh(j, id, live as unknown[] | Set<unknown>);
    if (isRecord(j) && (tag === undefined || tag === 'Obj') && kind === 'plain') {
      const src = tag === 'Obj' ? j.v : j;
      if (!isRecord(src)) fail('a wrapped object has no fields');
      this.define(id, live);
      this.fields(live as Record<string, unknown>, src, path, true);
      return live;
    }
    if (tag === 'Map' && kind === 'map') {
      const map = live as Map<unknown, unknown>;
      this.define(id, map);
      const old = new Map(map);
      const entries = this.pairs(j as { [k: string]: Json }).map(([k, v]) => [this.fresh(k), v] as const);
      map.clear();
      for (const [key, v] of entries)
        map.set(
          key,
          this.at(String(key), () => this.into(old.get(key), v, undefined)),
        );
      return map;
    }
    if (tag === 'Data' && kind === 'data') {
      const rec = j as { [k: string]: Json };
      const o = live as Record<string, unknown>;
      if (rec.class !== o.constructor.name)
        fail(`saved ${String(rec.class)} where the sandbox keeps a ${o.constructor.name}`);
      if (!isRecord(rec.v)) fail(`a saved ${String(rec.class)} has no fields`);
      this.define(id, o);
      // A data instance's class defines its fields: the ones not saved (caches, deps) stay.
      this.fields(o, rec.v, path, false);
      return o;
    }
    // The code relies on these kinds (a Map's methods, a class's): saved data of another kind
    // does not fit. Plain objects and lists may legitimately become null or another value.
    const expected = { map: 'Map', set: 'Set', date: 'Date', data: 'Data' }[kind as string];
    if (expected !== undefined && tag !== expected)
      fail(
        `${this.where.join('.') || 'the state'} is saved as ${describe(j)} where the sandbox keeps ${kind === 'data' ? `a ${(live as object).constructor.name}` : `a ${expected}`}`,
      );
    return this.fresh(j, id);
  }

  private at<T>(key: string, fn: () => T): T {
    this.where.push(key);
    try {
      return fn();
    } finally {
      this.where.pop();
    }
  }

  private fields(
    live: Record<string, unknown>,
    src: { [k: string]: Json },
    path: string[] | undefined,
    removeMissing: boolean,
  ): void {
    if (removeMissing) {
      for (const k of Object.keys(live)) {
        if (Object.hasOwn(src, k)) continue;
        const v = live[k];
        const kind = kindOf(v, this.dataClasses);
        // Not data (behaviour, a running activity): never saved, so never removed.
        if (kind === 'omit' || kind === 'live') continue;
        if (
          isContainer(kind) &&
          someChild(v as object, kind, (_k, x) => kindOf(x, this.dataClasses) === 'live')
        )
          continue;
        // A field the saving code did not have (a newer version added it) keeps its live value.
        if (path !== undefined && this.shape && !this.shape.has(JSON.stringify([...path, k]))) continue;
        delete live[k];
      }
    }
    for (const [k, x] of Object.entries(src)) {
      const next = this.at(k, () => this.into(live[k], x, path === undefined ? undefined : [...path, k]));
      if (next === undefined && tagOf(x) === 'Undef') delete live[k];
      else live[k] = next;
    }
  }
}

function describe(j: Json): string {
  if (Array.isArray(j)) return 'a list';
  const tag = tagOf(j);
  if (tag) return `a ${tag}`;
  return j === null ? 'null' : isRecord(j) ? 'an object' : `a ${typeof j}`;
}

/**
 * Merges two saved states made from a common `base` (another window's sandbox saved `theirs` while
 * this one changed `ours`): what only one side changed is taken from it; lists both sides appended
 * to keep both appendices; Maps, Sets and objects merge entry by entry; numbers both changed keep
 * the larger (id counters); any other change both made keeps `ours` and is named in `conflicts`.
 */
export function merge3(
  base: Json | undefined,
  ours: Json,
  theirs: Json,
  conflicts: string[] = [],
  path = '',
): Json {
  if (same(ours, theirs)) return ours;
  if (base !== undefined && same(base, ours)) return theirs;
  if (base !== undefined && same(base, theirs)) return ours;
  if (typeof ours === 'number' && typeof theirs === 'number') return Math.max(ours, theirs);
  if (Array.isArray(ours) && Array.isArray(theirs)) {
    const b = Array.isArray(base) ? base : [];
    if (isPrefix(b, ours) && isPrefix(b, theirs)) return [...ours, ...theirs.slice(b.length)];
  } else if (isRecord(ours) && isRecord(theirs)) {
    const to = tagOf(ours);
    const tt = tagOf(theirs);
    const tb = isRecord(base) ? tagOf(base) : undefined;
    if (to === undefined && tt === undefined)
      return mergeKeyed(isRecord(base) && tb === undefined ? base : {}, ours, theirs, conflicts, path);
    if (to === tt && (to === 'Map' || to === 'Set') && Array.isArray(ours.v) && Array.isArray(theirs.v)) {
      // Entries by their saved key (a Map's values merge; a Set's members are kept or removed);
      // the prefix keeps number-like keys in their order.
      const keys = new Map<string, Json>();
      const keyed = (j: Json | undefined) => {
        const out: { [k: string]: Json } = {};
        if (!isRecord(j) || !Array.isArray(j.v)) return out;
        for (const e of j.v) {
          const key = to === 'Map' && Array.isArray(e) && e.length === 2 ? e[0]! : e;
          const k = `k:${JSON.stringify(key)}`;
          keys.set(k, key);
          out[k] = to === 'Map' && Array.isArray(e) && e.length === 2 ? e[1]! : e;
        }
        return out;
      };
      const merged = mergeKeyed(tb === to ? keyed(base) : {}, keyed(ours), keyed(theirs), conflicts, path);
      return {
        [TAG]: to,
        v: Object.entries(merged).map(([k, v]) => (to === 'Map' ? [keys.get(k)!, v] : v)),
      };
    }
    if (
      to === 'Data' &&
      tt === 'Data' &&
      ours.class === theirs.class &&
      isRecord(ours.v) &&
      isRecord(theirs.v)
    ) {
      const bv = isRecord(base) && tb === 'Data' && isRecord(base.v) ? base.v : {};
      return { ...ours, v: mergeKeyed(bv, ours.v, theirs.v, conflicts, path) };
    }
  }
  conflicts.push(path || '(the whole state)');
  return ours;
}

function mergeKeyed(
  base: { [k: string]: Json },
  ours: { [k: string]: Json },
  theirs: { [k: string]: Json },
  conflicts: string[],
  path: string,
): { [k: string]: Json } {
  const out: { [k: string]: Json } = {};
  for (const k of new Set([...Object.keys(ours), ...Object.keys(theirs), ...Object.keys(base)])) {
    const b = Object.hasOwn(base, k) ? base[k] : undefined;
    const o = Object.hasOwn(ours, k) ? ours[k] : undefined;
    const t = Object.hasOwn(theirs, k) ? theirs[k] : undefined;
    const p = path ? `${path}.${k}` : k;
    let v: Json | undefined;
    if (o === undefined && t === undefined) v = undefined;
    else if (o === undefined)
      v = b !== undefined && same(b, t!) ? undefined : t; // ours removed it
    else if (t === undefined)
      v = b !== undefined && same(b, o) ? undefined : o; // theirs removed it
    else v = merge3(b, o, t, conflicts, p);
    if (v !== undefined) out[k] = v;
  }
  return out;
}

function isPrefix(prefix: Json[], list: Json[]): boolean {
  return prefix.length <= list.length && prefix.every((x, i) => same(x, list[i]!));
}

/** Structural equality of saved data (encodings are deterministic, so key order is the same). */
export function same(a: Json, b: Json): boolean {
  if (a === b) return true;
  if (typeof a !== 'object' || typeof b !== 'object' || a === null || b === null) return false;
  return JSON.stringify(a) === JSON.stringify(b);
}
