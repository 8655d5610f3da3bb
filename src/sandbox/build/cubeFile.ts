// Reads one YAML cube file into plain cube declarations with the line and column of every node,
// checking the structure (known keys, required names, value types) as it goes. References between
// cubes and members are checked later, when every file has been read (compiler.ts).
import { isMap, isScalar, isSeq, LineCounter, parseDocument, type Node, type YAMLMap } from 'yaml';

export interface Pos {
  line: number;
  column: number;
}
export interface CompileError extends Pos {
  fileName: string;
  message: string;
}

/** A declaration's scalar properties with where each was written. */
export interface Decl {
  file: string;
  pos: Pos;
  props: Map<string, { value: unknown; pos: Pos }>;
}
export interface CubeDecl extends Decl {
  joins: Decl[];
  measures: Decl[];
  dimensions: Decl[];
  segments: Decl[];
  preAggregations: Decl[];
}

const CUBE_KEYS = new Set([
  'name',
  'sql_table',
  'sql',
  'title',
  'description',
  'public',
  'shown',
  'data_source',
  'extends',
  'refresh_key',
  'meta',
  'joins',
  'measures',
  'dimensions',
  'segments',
  'pre_aggregations',
  'hierarchies',
  'folders',
  'sql_alias',
]);
/** The keys measures and dimensions share. */
const MEMBER_KEYS = ['name', 'sql', 'type', 'title', 'description', 'format', 'public', 'shown', 'meta'];
const KEYS: Record<string, Set<string>> = {
  joins: new Set(['name', 'sql', 'relationship']),
  measures: new Set([...MEMBER_KEYS, 'filters', 'drill_members', 'rolling_window', 'multi_stage']),
  dimensions: new Set([
    ...MEMBER_KEYS,
    'primary_key',
    'sub_query',
    'propagate_filters_to_sub_query',
    'case',
    'granularities',
  ]),
  segments: new Set(['name', 'sql', 'title', 'description', 'public', 'shown', 'meta']),
  pre_aggregations: new Set([
    'name',
    'type',
    'measures',
    'dimensions',
    'time_dimension',
    'granularity',
    'segments',
    'partition_granularity',
    'refresh_key',
    'scheduled_refresh',
    'build_range_start',
    'build_range_end',
    'indexes',
    'external',
  ]),
};

/** Reads a cube file; errors go to `errors` and never stop the rest of the file. */
export function readCubeFile(fileName: string, text: string, errors: CompileError[]): CubeDecl[] {
  const lines = new LineCounter();
  const doc = parseDocument(text, { lineCounter: lines, prettyErrors: false, uniqueKeys: true });
  const at = (node: Node | null | undefined): Pos => {
    const offset = node?.range?.[0] ?? 0;
    const p = lines.linePos(offset);
    return { line: p.line, column: p.col };
  };
  const fail = (pos: Pos, message: string) => errors.push({ fileName, ...pos, message });
  if (doc.errors.length) {
    for (const e of doc.errors) {
      const p = lines.linePos(e.pos[0]);
      fail({ line: p.line, column: p.col }, `YAML syntax: ${e.message.split('\n')[0]}`);
    }
    return [];
  }
  const root = doc.contents;
  if (root === null) return [];
  if (!isMap(root)) {
    fail(at(root), 'A cube file is a mapping with a "cubes" list (and optionally "views").');
    return [];
  }
  for (const pair of root.items) {
    const key = isScalar(pair.key) ? String(pair.key.value) : '';
    if (key !== 'cubes')
      fail(
        at(pair.key as Node),
        key === 'views'
          ? 'views are not supported by the sandbox; declare cubes only.'
          : `Unknown top-level key "${key}": a cube file holds "cubes".`,
      );
  }
  const cubes = root.get('cubes', true) as Node | undefined;
  if (cubes === undefined) return [];
  if (!isSeq(cubes)) {
    fail(at(cubes), '"cubes" must be a list of cubes.');
    return [];
  }
  const out: CubeDecl[] = [];
  for (const item of cubes.items) {
    if (!isMap(item)) {
      fail(at(item as Node), 'Each cube is a mapping with at least a "name".');
      continue;
    }
    const decl = declOf(item, CUBE_KEYS, 'cube');
    if (!decl) continue;
    const list = (key: string): Decl[] => {
      const node = item.get(key, true) as Node | undefined;
      if (node === undefined) return [];
      if (!isSeq(node)) {
        fail(at(node), `${cubeName(decl)}: "${key}" must be a list.`);
        return [];
      }
      return node.items.flatMap((x) => {
        if (!isMap(x)) {
          fail(at(x as Node), `${cubeName(decl)}: each entry of "${key}" is a mapping with a "name".`);
          return [];
        }
        return declOf(x, KEYS[key]!, `${cubeName(decl)} ${key}`) ?? [];
      });
    };
    out.push({
      ...decl,
      joins: list('joins'),
      measures: list('measures'),
      dimensions: list('dimensions'),
      segments: list('segments'),
      preAggregations: list('pre_aggregations'),
    });
  }
  return out;

  function declOf(map: YAMLMap, keys: Set<string>, what: string): Decl | undefined {
    const props = new Map<string, { value: unknown; pos: Pos }>();
    for (const pair of map.items) {
      const keyNode = pair.key as Node;
      const key = isScalar(keyNode) ? String(keyNode.value) : '';
      if (!keys.has(key)) {
        fail(at(keyNode), `${what}: unknown property "${key}".`);
        continue;
      }
      const valueNode = pair.value as Node | null;
      props.set(key, { value: valueNode?.toJSON() ?? null, pos: at(valueNode ?? keyNode) });
    }
    const name = props.get('name');
    if (name === undefined) {
      fail(at(map), `${what}: "name" is required.`);
      return undefined;
    }
    if (typeof name.value !== 'string' || !/^[A-Za-z_]\w*$/.test(name.value)) {
      fail(name.pos, `${what}: name "${String(name.value)}" must be letters, digits and underscores.`);
      return undefined;
    }
    return { file: fileName, pos: at(map), props };
  }
}

export function cubeName(d: Decl): string {
  return String(d.props.get('name')?.value ?? '?');
}

/** A string property, or undefined; an error when it is there but not a string. */
export function str(d: Decl, key: string, errors: CompileError[], what: string): string | undefined {
  const p = d.props.get(key);
  if (p === undefined || p.value === null) return undefined;
  if (typeof p.value === 'string' || typeof p.value === 'number') return String(p.value);
  errors.push({ fileName: d.file, ...p.pos, message: `${what}: "${key}" must be a string.` });
  return undefined;
}
