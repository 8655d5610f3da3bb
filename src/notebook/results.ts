// Building result payloads from cubesql chunks and load responses. vscode-free (used by the bench).
import { columnKind, type ResultColumn, type ResultPayload } from '../shared/notebookOutput';
import type { CubeSqlChunk, CubeSqlCount } from '../api/dataClient';
import { memberAnnotation, rollupsUsed, type LoadResponse, type NumberFormat } from '../api/schemas/data';

/** Accumulates streamed cubesql rows up to `cap`, counting every row. */
export class CubeSqlAccumulator {
  columns: ResultColumn[] = [];
  rows: unknown[][] = [];
  total = 0;
  constructor(readonly cap: number) {}

  /** `count` chunks are rows past the cap that the client counted without parsing (parseRows). */
  add(chunk: CubeSqlChunk | CubeSqlCount): void {
    if (chunk.type === 'schema') {
      this.columns = chunk.schema.map((c) => {
        const kind = columnKind(c.column_type);
        return {
          name: c.name,
          kind,
          type: c.column_type,
          ...(c.format ? { format: c.format } : {}),
          measure: kind === 'number',
        };
      });
      return;
    }
    if (chunk.type === 'count') {
      this.total += chunk.rows;
      return;
    }
    this.total += chunk.rows.length;
    const room = this.cap - this.rows.length;
    if (room > 0) {
      if (chunk.rows.length <= room) for (const r of chunk.rows) this.rows.push(r);
      else for (let i = 0; i < room; i++) this.rows.push(chunk.rows[i]!);
    }
  }

  payload(partial: boolean, elapsedMs?: number): ResultPayload {
    return {
      version: 1,
      source: 'cubesql',
      columns: this.columns,
      rows: this.rows,
      totalRows: this.total,
      partial,
      capped: this.total > this.rows.length,
      ...(elapsedMs !== undefined ? { elapsedMs } : {}),
    };
  }
}

type AnnotationEntry = {
  title?: string;
  shortTitle?: string;
  type?: string;
  format?: unknown;
  granularity?: { name?: unknown; title?: unknown };
};

/** The d3 specifier of the engine's default formats, for a member whose meta gave none. */
const DEFAULT_SPECIFIERS: Record<string, string> = { currency: '$,.2~f', percent: '.2~%', number: ',.2~f' };

export interface LoadPayloadOptions {
  /** Number formats by member name (from /v1/meta: MemberIndex). */
  formats?: ReadonlyMap<string, NumberFormat | undefined>;
}

/**
 * The first result of a load response as a table payload: columns titled from the annotation,
 * the engine's extra copy of each time dimension without its granularity left out (it repeats the
 * granularity column), numbers formatted as the model says, and the rollups that served it.
 */
export function loadPayload(
  res: LoadResponse,
  cap: number,
  elapsedMs?: number,
  opts: LoadPayloadOptions = {},
): ResultPayload {
  const result = res.results[0];
  if (!result) return { version: 1, source: 'load', columns: [], rows: [], totalRows: 0 };
  const ann = result.annotation;
  const info = new Map<string, { a: AnnotationEntry; measure: boolean; time: boolean }>();
  // Annotation groups are published as bare objects: an entry of another shape titles nothing.
  const add = (group: Record<string, unknown>, measure: boolean, time: boolean) => {
    for (const k of Object.keys(group))
      info.set(k, { a: (memberAnnotation(group, k) ?? {}) as AnnotationEntry, measure, time });
  };
  add(ann.measures, true, false);
  add(ann.dimensions, false, false);
  add(ann.timeDimensions, false, true);
  // "orders.created_at" beside "orders.created_at.month": the same values under the old name.
  const grained = Object.keys(ann.timeDimensions)
    .map((k) => k.split('.'))
    .filter((p) => p.length === 3)
    .map((p) => `${p[0]}.${p[1]}`);
  const repeated = (k: string) => grained.includes(k) && !(k in ann.dimensions);
  const data = result.data;
  let names: string[];
  let rows: unknown[][];
  if (Array.isArray(data)) {
    const keys = new Set<string>();
    for (const k of info.keys()) keys.add(k);
    for (const r of data.slice(0, 100)) for (const k of Object.keys(r)) keys.add(k);
    // keep only keys that appear in rows, in annotation order first
    const present = new Set<string>();
    for (const r of data.slice(0, 100)) for (const k of Object.keys(r)) present.add(k);
    // Dimensions (time first) before measures, as a table reads best; otherwise as they came.
    names = [...keys]
      .filter((k) => !repeated(k) && (present.size === 0 ? info.has(k) : present.has(k)))
      .map((k, i) => ({ k, i, rank: info.get(k)?.time ? 0 : info.get(k)?.measure ? 2 : 1 }))
      .sort((a, b) => a.rank - b.rank || a.i - b.i)
      .map((x) => x.k);
    rows = data.slice(0, cap).map((r) => names.map((n) => r[n] ?? null));
  } else {
    const members = data.members;
    const keep = members.map((m, i) => [m, i] as const).filter(([m]) => !repeated(m));
    names = keep.map(([m]) => m);
    if ('dataset' in data) {
      rows = (data.dataset as unknown[][]).slice(0, cap).map((r) => keep.map(([, i]) => r[i]));
    } else {
      const cols = data.columns as unknown[][];
      const n = cols[0]?.length ?? 0;
      rows = [];
      for (let r = 0; r < Math.min(n, cap); r++) rows.push(keep.map(([, i]) => cols[i]?.[r]));
    }
  }
  const total = Array.isArray(data)
    ? data.length
    : 'dataset' in data
      ? (data.dataset as unknown[]).length
      : ((data.columns[0] as unknown[] | undefined)?.length ?? 0);
  const columns: ResultColumn[] = names.map((n) => {
    const i = info.get(n);
    const kind = i?.time ? 'time' : i?.measure ? 'number' : columnKind(i?.a.type);
    const grain = typeof i?.a.granularity?.title === 'string' ? i.a.granularity.title : undefined;
    const format = typeof i?.a.format === 'string' ? i.a.format : undefined;
    const member = i?.time && n.split('.').length === 3 ? n.split('.').slice(0, 2).join('.') : n;
    const fmt = kind === 'number' ? opts.formats?.get(member) : undefined;
    const specifier =
      fmt?.specifier ?? (kind === 'number' && format ? DEFAULT_SPECIFIERS[format] : undefined);
    return {
      name: n,
      title: i?.a.title ? (grain ? `${i.a.title} (${grain})` : i.a.title) : n,
      kind,
      ...(i?.a.type ? { type: i.a.type } : {}),
      ...(format ? { format } : {}),
      ...(specifier ? { specifier } : {}),
      ...(fmt?.currency ? { currency: fmt.currency } : {}),
      measure: i?.measure ?? false,
    };
  });
  const rollups = rollupsUsed(result).map((r) => ({
    id: r.id,
    ...(r.lastUpdatedAt !== undefined ? { builtAt: new Date(r.lastUpdatedAt).toISOString() } : {}),
  }));
  return {
    version: 1,
    source: 'load',
    columns,
    rows,
    totalRows: total,
    capped: total > rows.length,
    ...(elapsedMs !== undefined ? { elapsedMs } : {}),
    ...(rollups.length ? { rollups } : {}),
    ...(typeof result.lastRefreshTime === 'string' ? { lastRefreshTime: result.lastRefreshTime } : {}),
  };
}
