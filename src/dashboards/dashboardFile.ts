// A `*.dashboard.json` file: its text parsed into a publish input, with every problem located
// (line/column of a JSON syntax error; a zod issue at the location of the value its path names).
// vscode-free, so it is unit-tested in plain Node. Parsing never drops fields: the zod schemas are
// loose, so whatever the user wrote is what gets published.
import { dashboardConfigOf, publishedDashboardOf } from '../api/platform/workspace';
import {
  PublishDashboardInputSchema,
  type DashboardConfig,
  type PublishDashboardInput,
} from '../api/schemas/platform';
import { themeProblems } from '../shared/cssValues';
import { LineIndex, nestingDepth } from '../shared/jsonLocate';

/** At most this many problems are listed (the last entry then says how many more there are). */
export const MAX_PROBLEMS = 100;
/** Deeper files are refused with a clear problem (the locating parser recurses per level). */
export const MAX_DEPTH = 256;

/** Counts the work spent locating problems (for tests: it must grow linearly with the file). */
export interface LocateStats {
  work: number;
}

export type JsonPath = (string | number)[];

export interface DashboardProblem {
  message: string;
  /** The JSON path of the offending value ([] for the whole file or a syntax error). */
  path: JsonPath;
  /** 0-based offset and length in the text, and 0-based line and column of the offset. */
  offset: number;
  length: number;
  line: number;
  column: number;
}

export type DashboardFileResult =
  | { ok: true; input: PublishDashboardInput }
  | {
      ok: false;
      problems: DashboardProblem[];
      /**
       * The input when its shape is valid and only values are not (a theme value the browser
       * would drop): editors keep working on it, a publish refuses it.
       */
      input?: PublishDashboardInput;
    };

interface Located {
  offset: number;
  length: number;
}

class JsonSyntaxError extends Error {
  constructor(
    message: string,
    readonly offset: number,
  ) {
    super(message);
  }
}

function hasControlChar(s: string): boolean {
  for (let k = 0; k < s.length; k++) if (s.charCodeAt(k) < 0x20) return true;
  return false;
}

/** The location key of a child value: built per value, so cheap (no path arrays, no stringify of paths). */
function childKey(parent: string, segment: string | number): string {
  return typeof segment === 'number' ? `${parent}[${segment}]` : `${parent}.${JSON.stringify(segment)}`;
}

/** A small strict JSON parser that records where each value (by JSON path) starts and ends. */
function parseLocated(text: string): { value: unknown; locations: Map<string, Located> } {
  const locations = new Map<string, Located>();
  let i = 0;
  const ws = () => {
    for (
      let c = text.charCodeAt(i);
      c === 0x20 || c === 0x0a || c === 0x0d || c === 0x09;
      c = text.charCodeAt(++i)
    );
  };
  const fail = (what: string): never => {
    throw new JsonSyntaxError(i >= text.length ? `Unexpected end of file: ${what}` : `${what}`, i);
  };
  const str = (): string => {
    const start = i;
    // Most strings have no escape: one native search and a slice instead of a loop per character.
    const q = text.indexOf('"', i + 1);
    if (q > 0) {
      const raw = text.slice(i + 1, q);
      if (!raw.includes('\\') && !hasControlChar(raw)) {
        i = q + 1;
        return raw;
      }
    }
    i++;
    let out = '';
    while (i < text.length && text[i] !== '"') {
      const c = text[i]!;
      if (c === '\\') {
        const e = text[i + 1];
        const simple: Record<string, string> = {
          '"': '"',
          '\\': '\\',
          '/': '/',
          b: '\b',
          f: '\f',
          n: '\n',
          r: '\r',
          t: '\t',
        };
        if (e !== undefined && e in simple) {
          out += simple[e];
          i += 2;
        } else if (e === 'u' && /^[0-9a-fA-F]{4}$/.test(text.slice(i + 2, i + 6))) {
          out += String.fromCharCode(parseInt(text.slice(i + 2, i + 6), 16));
          i += 6;
        } else {
          fail('Invalid escape in string');
        }
      } else if (c < ' ') {
        fail('Control character in string');
      } else {
        out += c;
        i++;
      }
    }
    if (i >= text.length) {
      i = start;
      fail('Unterminated string');
    }
    i++;
    return out;
  };
  /** The members of an object or array (at its opening bracket) up to `close`, each read by `member`. */
  const members = (close: '}' | ']', member: () => void): void => {
    i++;
    ws();
    if (text[i] === close) {
      i++;
      return;
    }
    for (;;) {
      member();
      ws();
      if (text[i] === ',') {
        i++;
        continue;
      }
      if (text[i] === close) {
        i++;
        return;
      }
      fail(`Expected ',' or '${close}'`);
    }
  };
  const value = (path: string): unknown => {
    ws();
    const start = i;
    const c = text[i];
    let v: unknown;
    if (c === '{') {
      const obj: Record<string, unknown> = {};
      members('}', () => {
        ws();
        if (text[i] !== '"') fail('Expected a property name in double quotes');
        const key = str();
        ws();
        if (text[i] !== ':') fail(`Expected ':' after "${key}"`);
        i++;
        // Defined, not assigned: a "__proto__" member is data (as JSON.parse keeps it), never the
        // object's prototype, whose fields the schema would then read as the file's.
        Object.defineProperty(obj, key, {
          value: value(childKey(path, key)),
          enumerable: true,
          writable: true,
          configurable: true,
        });
      });
      v = obj;
    } else if (c === '[') {
      const arr: unknown[] = [];
      members(']', () => arr.push(value(childKey(path, arr.length))));
      v = arr;
    } else if (c === '"') {
      v = str();
    } else {
      const m = /^(?:true|false|null|-?(?:0|[1-9]\d*)(?:\.\d+)?(?:[eE][+-]?\d+)?)/.exec(
        text.slice(i, i + 400),
      );
      if (!m) fail('Expected a value');
      const tok = m![0];
      v = JSON.parse(tok);
      i += tok.length;
    }
    locations.set(path, { offset: start, length: i - start });
    return v;
  };
  const v = value('');
  ws();
  if (i < text.length) fail('Unexpected text after the end of the JSON value');
  return { value: v, locations };
}

function problem(lines: LineIndex, message: string, path: JsonPath, at: Located): DashboardProblem {
  return { message, path, ...at, ...lines.position(at.offset) };
}

/** Formats a JSON path for messages: `config.widgets[0].position.x`. */
export function formatPath(path: JsonPath): string {
  return path.reduce<string>((s, p) => (typeof p === 'number' ? `${s}[${p}]` : s ? `${s}.${p}` : p), '');
}

/** Parses and validates a `*.dashboard.json` text. */
export function parseDashboardFile(text: string, stats?: LocateStats): DashboardFileResult {
  const depth = nestingDepth(text);
  if (depth > MAX_DEPTH) {
    const message = `The file nests values ${depth} levels deep; at most ${MAX_DEPTH} are supported. Flatten the deepest values.`;
    return { ok: false, problems: [{ message, path: [], offset: 0, length: 0, line: 0, column: 0 }] };
  }
  // Valid files (the common case, on every edit) take the fast path; the locating parser runs only
  // to say where the problems are.
  let value: unknown;
  let syntaxOk = true;
  try {
    value = JSON.parse(text);
  } catch {
    syntaxOk = false;
  }
  if (syntaxOk) {
    const fast = PublishDashboardInputSchema.safeParse(value);
    if (fast.success && themeProblems(fast.data.config?.theme).length === 0) {
      return { ok: true, input: fast.data };
    }
  }
  return locateProblems(text, stats);
}

function locateProblems(text: string, stats: LocateStats | undefined): DashboardFileResult {
  const lines = new LineIndex(text);
  try {
    return locateWith(text, lines);
  } finally {
    if (stats) stats.work += lines.work;
  }
}

function locateWith(text: string, lines: LineIndex): DashboardFileResult {
  let parsed: ReturnType<typeof parseLocated>;
  try {
    parsed = parseLocated(text);
  } catch (e) {
    if (!(e instanceof JsonSyntaxError)) throw e;
    return {
      ok: false,
      problems: [problem(lines, `Invalid JSON: ${e.message}`, [], { offset: e.offset, length: 1 })],
    };
  }
  const result = PublishDashboardInputSchema.safeParse(parsed.value);
  // Theme values go into the platform's CSS as they are: one the browser would drop is a problem.
  const theme = result.success
    ? themeProblems(result.data.config?.theme).map((t) => ({
        path: ['config', 'theme', ...t.path] as JsonPath,
        message: t.message,
      }))
    : [];
  if (result.success && theme.length === 0) return { ok: true, input: result.data };
  const issues = result.success
    ? theme
    : result.error.issues.map((issue) => ({
        path: issue.path.filter((p): p is string | number => typeof p !== 'symbol'),
        message: issue.message,
      }));
  const problems = issues.slice(0, MAX_PROBLEMS).map((issue) => {
    const path = issue.path;
    // The deepest existing value on the path (a missing field is reported at its parent object).
    let at: Located | undefined;
    const keys = [''];
    for (const p of path) keys.push(childKey(keys.at(-1)!, p));
    for (let n = path.length; n >= 0 && !at; n--) at = parsed.locations.get(keys[n]!);
    const where = formatPath(path);
    return problem(
      lines,
      where ? `${where}: ${issue.message}` : issue.message,
      path,
      at ?? { offset: 0, length: 0 },
    );
  });
  const valuesOnly = result.success ? { input: result.data } : {};
  if (issues.length > MAX_PROBLEMS) {
    const more = issues.length - MAX_PROBLEMS;
    problems.push({
      message: `…and ${more} more problem${more === 1 ? '' : 's'} (fix the ones above first).`,
      path: [],
      offset: 0,
      length: 0,
      line: 0,
      column: 0,
    });
  }
  return { ok: false, problems, ...valuesOnly };
}

/** The workbook fields getWorkbook returns that a dashboard file is pulled from. */
export interface WorkbookDashboards {
  id: number;
  name: string;
  dashboardDraft?: unknown;
  dashboardPublished?: unknown;
  publishedDashboard?: unknown;
}

/**
 * The publish input for a workbook's current dashboard: the draft by default, or what is published.
 * Every field of the source config is kept.
 */
export function dashboardFromWorkbook(
  workbook: WorkbookDashboards,
  source: 'draft' | 'published' = 'draft',
): PublishDashboardInput {
  const w = workbook as unknown as Record<string, unknown>;
  const published = publishedDashboardOf(w);
  const config =
    source === 'published'
      ? (dashboardConfigOf(w, 'published') ?? dashboardConfigOf(w, 'draft'))
      : (dashboardConfigOf(w, 'draft') ?? dashboardConfigOf(w, 'published'));
  const input: PublishDashboardInput = { workbookId: workbook.id };
  if (published && typeof published.id === 'number') input.dashboardId = published.id;
  if (published && typeof published.allowEmbed === 'boolean') input.allowEmbed = published.allowEmbed;
  // An older server's wrapper carried title and description next to the config; what is
  // published has them on the published Dashboard (null there when it has none).
  const raw = w[source === 'published' ? 'dashboardPublished' : 'dashboardDraft'];
  const wrapper =
    typeof raw === 'object' && raw !== null && raw !== config ? (raw as Record<string, unknown>) : undefined;
  const top = source === 'published' ? (wrapper ?? published) : wrapper;
  for (const key of ['title', 'description'] as const) {
    const value = top && key in top ? top[key] : config?.[key];
    if (typeof value === 'string') input[key] = value;
    else if (value === null && source === 'published' && top) input[key] = null;
  }
  if (config) input.config = config as DashboardConfig;
  return input;
}

/** The text written to a `*.dashboard.json` file. */
export function formatDashboardFile(input: PublishDashboardInput): string {
  return `${JSON.stringify(input, null, 2)}\n`;
}

/** A file name for a workbook's dashboard: `<slug>.dashboard.json`. */
export function dashboardFileName(workbookName: string): string {
  const slug = workbookName
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '');
  return `${slug || 'dashboard'}.dashboard.json`;
}

/**
 * A picked save target as a `*.dashboard.json` path: save dialogs that compare only the last
 * extension (".json") append the filter's "dashboard.json" again, and a name typed without it
 * would not open in the dashboard tools at all.
 */
export function normaliseDashboardPath(path: string): string {
  let p = path;
  while (/\.dashboard\.json\.dashboard\.json$/i.test(p)) p = p.slice(0, -'.dashboard.json'.length);
  if (/\.dashboard\.json$/i.test(p)) return p;
  return `${p.replace(/\.json$/i, '')}.dashboard.json`;
}

/**
 * The draft a file saves: its config, with the file's title and description (a draft keeps them in
 * the config; pulling the draft back reads them from there).
 */
export function draftOf(input: PublishDashboardInput): Record<string, unknown> {
  const draft: Record<string, unknown> = { ...(input.config ?? {}) };
  if (input.title !== undefined) draft.title = input.title;
  if (input.description !== undefined) draft.description = input.description;
  return draft;
}
