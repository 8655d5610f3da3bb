// Member SQL of cube files translated for the sandbox's engine: `{CUBE}`, `{cube}`, `{member}`,
// `{CUBE.member}` and `{cube.member}` references resolved, and bare column names qualified with
// the table's alias, in two forms: over the load query's aliased tables (o, c, p) and over the
// cube views that /v1/cubesql queries.

/** The sample tables the engine holds, their alias in load queries, and their columns. */
export const TABLES: Record<string, { alias: string; columns: readonly string[] }> = {
  orders: { alias: 'o', columns: ['id', 'status', 'created_at', 'amount', 'customer_id', 'product_id'] },
  customers: { alias: 'c', columns: ['id', 'name', 'city', 'country', 'segment'] },
  products: { alias: 'p', columns: ['id', 'name', 'category', 'price'] },
};

export type SqlMode = 'load' | 'view';

/** What a reference in SQL can name. */
export interface RefTarget {
  cubeTable(cube: string): string | undefined;
  /** A member's SQL in the mode (a dimension's expression, a measure's aggregate); an error sentence otherwise. */
  memberSql(cube: string, member: string, mode: SqlMode, from: 'dimension' | 'measure'): string | Error;
  hasMember(cube: string, member: string): boolean;
}

/** Splits SQL into code and single-quoted strings, so names inside literals are left alone. */
function codeParts(sql: string): { text: string; code: boolean }[] {
  const parts: { text: string; code: boolean }[] = [];
  const re = /'(?:[^']|'')*'/g;
  let last = 0;
  for (const m of sql.matchAll(re)) {
    if (m.index > last) parts.push({ text: sql.slice(last, m.index), code: true });
    parts.push({ text: m[0], code: false });
    last = m.index + m[0].length;
  }
  if (last < sql.length) parts.push({ text: sql.slice(last), code: true });
  return parts;
}

/**
 * Translates one member's SQL. Throws an Error whose message names the bad reference.
 * `from` says what kind of member the SQL belongs to (a dimension cannot use a measure).
 */
export function translateSql(
  sql: string,
  cube: string,
  table: string,
  mode: SqlMode,
  refs: RefTarget,
  from: 'dimension' | 'measure',
): string {
  const alias = mode === 'load' ? TABLES[table]!.alias : table;
  const replaced = sql.replace(
    /\$?\{\s*([A-Za-z_]\w*)(?:\.([A-Za-z_]\w*))?\s*\}/g,
    (_w, a: string, b?: string) => {
      if (b === undefined) {
        if (a === 'CUBE') return alias;
        const other = refs.cubeTable(a);
        if (other !== undefined) return mode === 'load' ? TABLES[other]!.alias : other;
        if (refs.hasMember(cube, a)) return wrap(refs.memberSql(cube, a, mode, from));
        throw new Error(`{${a}} is neither a cube nor a member of ${cube}`);
      }
      const target = a === 'CUBE' ? cube : a;
      if (refs.cubeTable(target) === undefined) throw new Error(`{${a}.${b}}: no cube named ${a}`);
      if (!refs.hasMember(target, b)) throw new Error(`{${a}.${b}}: ${target} has no member ${b}`);
      return wrap(refs.memberSql(target, b, mode, from));
    },
  );
  const columns = new Set(TABLES[table]!.columns);
  return codeParts(replaced)
    .map((p) =>
      p.code
        ? p.text.replace(/(^|[^.\w"])([A-Za-z_]\w*)(?![\w.(])/g, (whole, pre: string, name: string) =>
            columns.has(name) ? `${pre}${mode === 'load' ? `${alias}.` : ''}${name}` : whole,
          )
        : p.text,
    )
    .join('');
}

function wrap(v: string | Error): string {
  if (v instanceof Error) throw v;
  return /^[\w.*]+$/.test(v) ? v : `(${v})`;
}

/** The aggregate of a measure over its translated SQL (as the load compiler writes it). */
export function aggregateSql(agg: string | undefined, sql: string): string {
  switch (agg) {
    case 'count':
      return sql === '*' ? 'COUNT(*)' : `COUNT(${sql})`;
    case 'countDistinct':
      return `COUNT(DISTINCT ${sql})`;
    case 'sum':
      return `SUM(${sql})`;
    case 'avg':
      return `AVG(${sql})`;
    case 'max':
      return `MAX(${sql})`;
    case 'min':
      return `MIN(${sql})`;
    default:
      return sql;
  }
}
