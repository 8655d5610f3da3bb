// Compiles a branch's cube files into the model the Data API serves: cube and member names, types,
// SQL (references resolved, and checked against the engine when a checker is given), joins,
// segments and pre-aggregation references. Every error carries its file, line and column; one bad
// member never hides the errors of the others.
import type { CubeDef, Granularity, MemberDef, MemberType, PreAggregationDef } from '../data/modelTypes';
import {
  cubeName,
  readCubeFile,
  str,
  type CompileError,
  type CubeDecl,
  type Decl,
  type Pos,
} from './cubeFile';
import { aggregateSql, TABLES, translateSql, type RefTarget, type SqlMode } from './sqlRefs';

export type { CompileError } from './cubeFile';

export interface CompileResult {
  cubes: CubeDef[];
  errors: CompileError[];
}

/** Tries an expression over the given tables; an error sentence when the engine refuses it. */
export type SqlChecker = (expr: string, tables: ReadonlySet<string>) => string | undefined;

const MEASURE_TYPES: Record<string, { agg?: MemberDef['agg']; type: MemberType; needsSql: boolean }> = {
  count: { agg: 'count', type: 'number', needsSql: false },
  count_distinct: { agg: 'countDistinct', type: 'number', needsSql: true },
  count_distinct_approx: { agg: 'countDistinct', type: 'number', needsSql: true },
  sum: { agg: 'sum', type: 'number', needsSql: true },
  avg: { agg: 'avg', type: 'number', needsSql: true },
  min: { agg: 'min', type: 'number', needsSql: true },
  max: { agg: 'max', type: 'number', needsSql: true },
  number: { type: 'number', needsSql: true },
  string: { type: 'string', needsSql: true },
  time: { type: 'time', needsSql: true },
  boolean: { type: 'boolean', needsSql: true },
};
const DIMENSION_TYPES = new Set(['string', 'number', 'time', 'boolean']);
const FORMATS = new Set(['percent', 'currency', 'number', 'imageUrl', 'id', 'link']);
const RELATIONSHIPS = new Set([
  'many_to_one',
  'one_to_many',
  'one_to_one',
  'belongs_to',
  'has_many',
  'has_one',
]);
const GRANULARITIES = new Set(['second', 'minute', 'hour', 'day', 'week', 'month', 'quarter', 'year']);

// Titles as the engine makes them (inflection's titleize): words capitalised, except the small
// words it keeps in lower case after the first ("created_at" is "Created at").
const SMALL_WORDS = new Set(
  'and or nor a an the so but to of at by from into on onto off out in over with for'.split(' '),
);
export const humanize = (name: string) =>
  name
    .replace(/([a-z\d])([A-Z])/g, '$1_$2')
    .split(/[_\s]+/)
    .filter(Boolean)
    .map((w, i) => {
      const l = w.toLowerCase();
      return i > 0 && SMALL_WORDS.has(l) ? l : l[0]!.toUpperCase() + l.slice(1);
    })
    .join(' ');

/** The engine's name of a measure type (the YAML's snake case in camel case). */
const aggTypeOf = (type: string) => type.replace(/_([a-z])/g, (_w, c: string) => c.toUpperCase());

/** A `public`/`shown` flag of a declaration (public wins, as in the engine), else the default. */
function visibleOf(d: Decl, fallback: boolean): boolean {
  for (const key of ['public', 'shown']) {
    const v = d.props.get(key)?.value;
    if (typeof v === 'boolean') return v;
  }
  return fallback;
}

/** Only YAML files under model/ are cube files; other files (cube.py, README) are not compiled. */
export const isModelFile = (path: string) => /^model\/.+\.ya?ml$/i.test(path);

// Parsing YAML is most of a compile, and an edit changes one file: each file's reading is kept by
// path and content (the declarations are never changed after reading).
const READ_CACHE_SIZE = 256;
const readCache = new Map<string, { decls: CubeDecl[]; errors: CompileError[] }>();
function readCached(path: string, text: string): { decls: CubeDecl[]; errors: CompileError[] } {
  const key = `${path}\0${text}`;
  let hit = readCache.get(key);
  if (!hit) {
    const errors: CompileError[] = [];
    hit = { decls: readCubeFile(path, text, errors), errors };
    readCache.set(key, hit);
    if (readCache.size > READ_CACHE_SIZE) readCache.delete(readCache.keys().next().value!);
  }
  return hit;
}

export function compileModel(files: Iterable<readonly [string, string]>, check?: SqlChecker): CompileResult {
  const errors: CompileError[] = [];
  const fail = (file: string, pos: Pos, message: string) => errors.push({ fileName: file, ...pos, message });
  const decls: CubeDecl[] = [];
  for (const [path, text] of files) {
    if (isModelFile(path)) {
      const read = readCached(path, text);
      decls.push(...read.decls);
      errors.push(...read.errors);
    } else if (/^model\/.+\.(js|jinja|py)$/i.test(path))
      fail(path, { line: 1, column: 1 }, 'The sandbox compiles YAML cube files only (.yml, .yaml).');
  }

  // Cubes by name; a duplicate is an error at the second declaration.
  const byName = new Map<string, { decl: CubeDecl; table: string; members: Map<string, Decl> }>();
  for (const d of decls) {
    const name = cubeName(d);
    const prior = byName.get(name);
    if (prior) {
      fail(d.file, d.props.get('name')!.pos, `Cube ${name} is already defined in ${prior.decl.file}.`);
      continue;
    }
    const table = tableOf(d);
    if (table === undefined) continue;
    const members = new Map<string, Decl>();
    for (const m of [...d.measures, ...d.dimensions, ...d.segments]) {
      const mn = cubeName(m);
      if (members.has(mn)) fail(m.file, m.props.get('name')!.pos, `${name}.${mn} is defined twice.`);
      else members.set(mn, m);
    }
    byName.set(name, { decl: d, table, members });
  }

  function tableOf(d: CubeDecl): string | undefined {
    const what = `Cube ${cubeName(d)}`;
    const sqlTable = str(d, 'sql_table', errors, what);
    const sql = str(d, 'sql', errors, what);
    const p = d.props.get(sqlTable !== undefined ? 'sql_table' : 'sql')?.pos ?? d.pos;
    if (sqlTable === undefined && sql === undefined) {
      fail(d.file, d.pos, `${what}: "sql_table" (or "sql") is required.`);
      return undefined;
    }
    const table =
      sqlTable?.replace(/^(public|main)\./, '') ?? /^\s*select\s+\*\s+from\s+(\w+)\s*;?\s*$/i.exec(sql!)?.[1];
    if (table === undefined || !(table in TABLES)) {
      fail(
        d.file,
        p,
        `${what}: the sandbox's data source has the tables ${Object.keys(TABLES).join(', ')}` +
          ` (got ${sqlTable ?? sql}).`,
      );
      return undefined;
    }
    return table;
  }

  // Member SQL, resolved on demand with cycle detection, per mode.
  const resolved = new Map<string, string | Error>();
  const resolving = new Set<string>();
  const refs: RefTarget = {
    cubeTable: (c) => byName.get(c)?.table,
    hasMember: (c, m) => byName.get(c)?.members.has(m) ?? false,
    memberSql: (c, m, mode, from) => {
      const cube = byName.get(c)!;
      const decl = cube.members.get(m)!;
      const kind = cube.decl.measures.includes(decl) ? 'measure' : 'dimension';
      if (kind === 'measure' && from === 'dimension')
        return new Error(`{${c}.${m}} is a measure; a dimension cannot use a measure`);
      const key = `${mode} ${c}.${m}`;
      const done = resolved.get(key);
      if (done !== undefined) return done;
      if (resolving.has(key)) return new Error(`${c}.${m} refers to itself (a reference cycle)`);
      resolving.add(key);
      let out: string | Error;
      try {
        out = memberExpr(c, decl, kind, mode);
      } catch (e) {
        out = e instanceof Error ? e : new Error(String(e));
      }
      resolving.delete(key);
      resolved.set(key, out);
      return out;
    },
  };
  /** A dimension's SQL, or a measure's aggregate, in the mode. */
  function memberExpr(c: string, d: Decl, kind: 'measure' | 'dimension', mode: SqlMode): string {
    const cube = byName.get(c)!;
    const sql = typeof d.props.get('sql')?.value === 'string' ? String(d.props.get('sql')!.value) : undefined;
    if (kind === 'dimension') return translateSql(sql ?? '', c, cube.table, mode, refs, 'dimension');
    const t = MEASURE_TYPES[String(d.props.get('type')?.value)] ?? MEASURE_TYPES.number!;
    return aggregateSql(t.agg, measureInner(c, d, mode));
  }
  /** What a measure aggregates: its SQL (`*` for a plain count), limited to rows its filters keep. */
  function measureInner(c: string, d: Decl, mode: SqlMode): string {
    const table = byName.get(c)!.table;
    const sql = typeof d.props.get('sql')?.value === 'string' ? String(d.props.get('sql')!.value) : undefined;
    const inner = sql === undefined ? '*' : translateSql(sql, c, table, mode, refs, 'measure');
    const filters = d.props.get('filters')?.value;
    if (filters === undefined || filters === null) return inner;
    if (!Array.isArray(filters) || filters.some((f) => typeof (f as { sql?: unknown })?.sql !== 'string'))
      throw new Error('filters must be a list of {sql}');
    const conds = filters.map(
      (f) => `(${translateSql((f as { sql: string }).sql, c, table, mode, refs, 'dimension')})`,
    );
    return conds.length ? `CASE WHEN ${conds.join(' AND ')} THEN ${inner === '*' ? '1' : inner} END` : inner;
  }

  const cubes: CubeDef[] = [];
  for (const [name, { decl, table }] of byName) {
    const title = str(decl, 'title', errors, `Cube ${name}`) ?? humanize(name);
    const cube: CubeDef & {
      table: string;
      joins: { name: string; relationship: string }[];
      joinSql: Record<string, string>;
    } = {
      name,
      title,
      description: str(decl, 'description', errors, `Cube ${name}`) ?? '',
      table,
      measures: [],
      dimensions: [],
      segments: [],
      joins: [],
      joinSql: {},
      fileName: decl.file,
    };
    const tables = new Set([table]);
    for (const j of decl.joins) {
      const jn = cubeName(j);
      const what = `${name} joins ${jn}`;
      const target = byName.get(jn);
      if (!target) fail(j.file, j.props.get('name')!.pos, `${what}: no cube named ${jn}.`);
      const rel = str(j, 'relationship', errors, what);
      if (rel === undefined || !RELATIONSHIPS.has(rel))
        fail(
          j.file,
          j.props.get('relationship')?.pos ?? j.pos,
          `${what}: relationship must be one of ${[...RELATIONSHIPS].join(', ')}.`,
        );
      const sql = str(j, 'sql', errors, what);
      if (sql === undefined) fail(j.file, j.pos, `${what}: "sql" (the join condition) is required.`);
      else if (target) {
        try {
          const expr = translateSql(sql, name, table, 'load', refs, 'dimension');
          const problem = check?.(expr, new Set([table, target.table]));
          if (problem) fail(j.file, j.props.get('sql')!.pos, `${what}: sql: ${problem}`);
        } catch (e) {
          fail(j.file, j.props.get('sql')!.pos, `${what}: sql: ${(e as Error).message}.`);
        }
      }
      if (target && rel) {
        cube.joins.push({ name: jn, relationship: rel });
        if (sql !== undefined) cube.joinSql[jn] = sql;
        tables.add(target.table);
      }
    }
    /** `drill_members` as full names (`status`, `CUBE.status`, `customers.city`); unknown ones are errors. */
    const drillMembersOf = (d: Decl, cubeOwn: string, what: string): string[] | undefined => {
      const prop = d.props.get('drill_members');
      if (prop === undefined || prop.value === null) return undefined;
      const list = Array.isArray(prop.value) ? prop.value : [prop.value];
      const out: string[] = [];
      for (const ref of list) {
        const parts = String(ref).split('.');
        const [c, m] =
          parts.length === 2 ? [parts[0] === 'CUBE' ? cubeOwn : parts[0]!, parts[1]!] : [cubeOwn, parts[0]!];
        if (!byName.get(c)?.members.has(m))
          fail(d.file, prop.pos, `${what}: drill_members: ${String(ref)} is not a member.`);
        else out.push(`${c}.${m}`);
      }
      return out;
    };
    const member = (d: Decl, kind: 'measure' | 'dimension'): MemberDef | undefined => {
      const mn = cubeName(d);
      const what = `${name}.${mn}`;
      const type = str(d, 'type', errors, what);
      const typePos = d.props.get('type')?.pos ?? d.pos;
      let memberType: MemberType;
      let agg: MemberDef['agg'];
      const sql = str(d, 'sql', errors, what);
      if (kind === 'measure') {
        const t = type === undefined ? undefined : MEASURE_TYPES[type];
        if (!t) {
          fail(d.file, typePos, `${what}: type must be one of ${Object.keys(MEASURE_TYPES).join(', ')}.`);
          return undefined;
        }
        if (t.needsSql && sql === undefined) {
          fail(d.file, d.pos, `${what}: a ${type} measure needs "sql".`);
          return undefined;
        }
        memberType = t.type;
        agg = t.agg;
      } else {
        if (type === undefined || !DIMENSION_TYPES.has(type)) {
          fail(d.file, typePos, `${what}: type must be one of ${[...DIMENSION_TYPES].join(', ')}.`);
          return undefined;
        }
        if (sql === undefined) {
          fail(d.file, d.pos, `${what}: a dimension needs "sql".`);
          return undefined;
        }
        memberType = type as MemberType;
      }
      const format = str(d, 'format', errors, what);
      if (format !== undefined && !FORMATS.has(format))
        fail(
          d.file,
          d.props.get('format')!.pos,
          `${what}: format must be one of ${[...FORMATS].join(', ')}.`,
        );
      const sqlPos = d.props.get('sql')?.pos ?? d.pos;
      const loadSql = refs.memberSql(name, mn, 'load', kind);
      const viewSql = refs.memberSql(name, mn, 'view', kind);
      if (loadSql instanceof Error || viewSql instanceof Error) {
        fail(
          d.file,
          sqlPos,
          `${what}: sql: ${((loadSql as Error).message ?? (viewSql as Error).message) + '.'}`,
        );
        return undefined;
      }
      const problem = check?.(loadSql, tables);
      if (problem) {
        fail(d.file, sqlPos, `${what}: sql: ${problem}`);
        return undefined;
      }
      const own = str(d, 'title', errors, what);
      const shortTitle = own ?? humanize(mn);
      const meta = d.props.get('meta')?.value as Record<string, unknown> | null | undefined;
      const fullTitle = `${title} ${shortTitle}`;
      const description = str(d, 'description', errors, what);
      const primaryKey = kind === 'dimension' && d.props.get('primary_key')?.value === true;
      const drill = kind === 'measure' ? drillMembersOf(d, name, what) : undefined;
      return {
        cube: name,
        name: mn,
        title: fullTitle,
        shortTitle,
        type: memberType,
        ...(description !== undefined ? { description } : {}),
        // Primary keys are hidden unless the model shows them, as in the engine.
        visible: visibleOf(d, !primaryKey),
        ...(primaryKey ? { primaryKey } : {}),
        ...(drill ? { drillMembers: drill } : {}),
        ...(sql !== undefined ? { source: sql } : {}),
        ...(kind === 'measure' && type !== undefined ? { aggType: aggTypeOf(type) } : {}),
        ...(meta && typeof meta === 'object' && !Array.isArray(meta) ? { meta } : {}),
        // The load compiler aggregates `sql` by `agg`; a measure without one is its whole expression.
        sql: agg ? measureInner(name, d, 'load') : loadSql,
        ...(agg ? { agg } : {}),
        viewAgg: kind === 'measure' ? viewSql : undefined,
        ...(format ? { format } : {}),
        ...(meta && typeof meta === 'object' && meta.sandbox_slow === true ? { slow: true } : {}),
      };
    };
    for (const d of decl.measures) {
      const m = member(d, 'measure');
      if (m) cube.measures.push(m);
    }
    for (const d of decl.dimensions) {
      const m = member(d, 'dimension');
      if (m) {
        delete m.viewAgg;
        cube.dimensions.push(m);
      }
    }
    for (const s of decl.segments) {
      const sn = cubeName(s);
      const sqlText = str(s, 'sql', errors, `${name}.${sn}`);
      const pos = s.props.get('sql')?.pos ?? s.pos;
      if (sqlText === undefined) {
        fail(s.file, pos, `${name}.${sn}: a segment needs "sql".`);
        continue;
      }
      try {
        const sql = translateSql(sqlText, name, table, 'load', refs, 'dimension');
        const problem = check?.(sql, tables);
        if (problem) fail(s.file, pos, `${name}.${sn}: sql: ${problem}`);
        else {
          const description = str(s, 'description', errors, `${name}.${sn}`);
          cube.segments.push({
            name: sn,
            title: str(s, 'title', errors, `${name}.${sn}`) ?? humanize(sn),
            sql,
            ...(description !== undefined ? { description } : {}),
            visible: visibleOf(s, true),
            source: sqlText,
          });
        }
      } catch (e) {
        fail(s.file, pos, `${name}.${sn}: sql: ${(e as Error).message}.`);
      }
    }
    if (checkPreAggregations(decl, name, byName, fail)) cube.preAggregations = preAggregationsOf(decl, name);
    cubes.push(cube);
  }
  return { cubes, errors };
}

/** A reference of a pre-aggregation (`CUBE.count`, `orders.count`, `count`) as a full member name. */
function fullRef(ref: string, cube: string): string {
  const parts = ref.split('.');
  return parts.length === 2 ? `${parts[0] === 'CUBE' ? cube : parts[0]}.${parts[1]}` : `${cube}.${parts[0]}`;
}

/** The source text of a list of references, the way the engine prints it (`[CUBE.a, CUBE.b]`). */
const refsText = (v: unknown): string | undefined =>
  v === undefined || v === null ? undefined : Array.isArray(v) ? `[${v.map(String).join(', ')}]` : String(v);

/** The declared rollups of a cube whose pre-aggregations all checked out (checkPreAggregations). */
function preAggregationsOf(decl: CubeDecl, cube: string): PreAggregationDef[] {
  return decl.preAggregations.map((p) => {
    const list = (key: string) => {
      const v = p.props.get(key)?.value;
      return v === undefined || v === null
        ? []
        : (Array.isArray(v) ? v : [v]).map((r) => fullRef(String(r), cube));
    };
    const time = p.props.get('time_dimension')?.value;
    const granularity = p.props.get('granularity')?.value;
    return {
      name: cubeName(p),
      type: String(p.props.get('type')?.value ?? 'rollup'),
      measures: list('measures'),
      dimensions: list('dimensions'),
      ...(typeof time === 'string' ? { timeDimension: fullRef(time, cube) } : {}),
      ...(typeof granularity === 'string' ? { granularity: granularity as Granularity } : {}),
      source: {
        measures: refsText(p.props.get('measures')?.value),
        dimensions: refsText(p.props.get('dimensions')?.value),
        timeDimension: refsText(time),
      },
    };
  });
}

/** Checks a cube's pre-aggregations; true when all of them are fine. */
function checkPreAggregations(
  decl: CubeDecl,
  cube: string,
  byName: Map<string, { decl: CubeDecl; members: Map<string, Decl> }>,
  report: (file: string, pos: Pos, message: string) => void,
): boolean {
  let ok = true;
  const fail = (file: string, pos: Pos, message: string) => {
    ok = false;
    report(file, pos, message);
  };
  for (const p of decl.preAggregations) {
    const what = `${cube} pre_aggregations ${cubeName(p)}`;
    const type = p.props.get('type')?.value ?? 'rollup';
    if (!['rollup', 'original_sql', 'rollup_join', 'rollup_lambda'].includes(String(type)))
      fail(p.file, p.props.get('type')!.pos, `${what}: unknown type "${String(type)}".`);
    const kindOf = (ref: string): { kind: 'measure' | 'dimension'; type: unknown } | string => {
      const parts = ref.split('.');
      const [c, m] =
        parts.length === 2 ? [parts[0] === 'CUBE' ? cube : parts[0]!, parts[1]!] : [cube, parts[0]!];
      const target = byName.get(c);
      const d = target?.members.get(m);
      if (!target || !d) return `${ref} is not a member (write CUBE.member or cube.member)`;
      if (target.decl.segments.includes(d)) return `${ref} is a segment`;
      return {
        kind: target.decl.measures.includes(d) ? 'measure' : 'dimension',
        type: d.props.get('type')?.value,
      };
    };
    const expect = (key: string, kind: 'measure' | 'dimension', time: boolean) => {
      const prop = p.props.get(key);
      if (prop === undefined) return;
      const list = Array.isArray(prop.value) ? prop.value : [prop.value];
      for (const ref of list) {
        const k = typeof ref === 'string' ? kindOf(ref) : `${String(ref)} is not a member name`;
        if (typeof k === 'string') fail(p.file, prop.pos, `${what}: ${key}: ${k}.`);
        else if (k.kind !== kind)
          fail(p.file, prop.pos, `${what}: ${key}: ${String(ref)} is a ${k.kind}, not a ${kind}.`);
        else if (time && k.type !== 'time')
          fail(p.file, prop.pos, `${what}: ${key}: ${String(ref)} is not a time dimension.`);
      }
    };
    expect('measures', 'measure', false);
    expect('dimensions', 'dimension', false);
    expect('time_dimension', 'dimension', true);
    for (const key of ['granularity', 'partition_granularity']) {
      const g = p.props.get(key);
      if (g && !GRANULARITIES.has(String(g.value)))
        fail(p.file, g.pos, `${what}: ${key} must be one of ${[...GRANULARITIES].join(', ')}.`);
    }
    if (p.props.has('time_dimension') && !p.props.has('granularity'))
      fail(p.file, p.pos, `${what}: a time_dimension needs a granularity.`);
  }
  return ok;
}
