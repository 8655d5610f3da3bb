// A `*.dashboard.json` file: its text parsed into a publish input, with every problem located
// (line/column of a JSON syntax error; a zod issue at the location of the value its path names).
// vscode-free, so it is unit-tested in plain Node. Parsing never drops fields: the zod schemas are
// loose, so whatever the user wrote is what gets published.
import {
  PublishDashboardInputSchema,
  type DashboardConfig,
  type PublishDashboardInput,
} from '../api/schemas/platform';
import { themeProblems } from '../shared/cssValues';

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
  { ok: true; input: PublishDashboardInput } | { ok: false; problems: DashboardProblem[] };

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

/** A small strict JSON parser that records where each value (by JSON path) starts and ends. */
function parseLocated(text: string): { value: unknown; locations: Map<string, Located> } {
  const locations = new Map<string, Located>();
  let i = 0;
  const ws = () => {
    while (i < text.length && ' \t\n\r'.includes(text[i]!)) i++;
  };
  const fail = (what: string): never => {
    throw new JsonSyntaxError(i >= text.length ? `Unexpected end of file: ${what}` : `${what}`, i);
  };
  const str = (): string => {
    const start = i;
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
  const value = (path: JsonPath): unknown => {
    ws();
    const start = i;
    const c = text[i];
    let v: unknown;
    if (c === '{') {
      i++;
      const obj: Record<string, unknown> = {};
      ws();
      if (text[i] === '}') i++;
      else {
        for (;;) {
          ws();
          if (text[i] !== '"') fail('Expected a property name in double quotes');
          const key = str();
          ws();
          if (text[i] !== ':') fail(`Expected ':' after "${key}"`);
          i++;
          obj[key] = value([...path, key]);
          ws();
          if (text[i] === ',') {
            i++;
            continue;
          }
          if (text[i] === '}') {
            i++;
            break;
          }
          fail("Expected ',' or '}'");
        }
      }
      v = obj;
    } else if (c === '[') {
      i++;
      const arr: unknown[] = [];
      ws();
      if (text[i] === ']') i++;
      else {
        for (;;) {
          arr.push(value([...path, arr.length]));
          ws();
          if (text[i] === ',') {
            i++;
            continue;
          }
          if (text[i] === ']') {
            i++;
            break;
          }
          fail("Expected ',' or ']'");
        }
      }
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
    locations.set(JSON.stringify(path), { offset: start, length: i - start });
    return v;
  };
  const v = value([]);
  ws();
  if (i < text.length) fail('Unexpected text after the end of the JSON value');
  return { value: v, locations };
}

function lineColumn(text: string, offset: number): { line: number; column: number } {
  let line = 0;
  let lineStart = 0;
  for (let k = 0; k < offset && k < text.length; k++) {
    if (text[k] === '\n') {
      line++;
      lineStart = k + 1;
    }
  }
  return { line, column: offset - lineStart };
}

function problem(text: string, message: string, path: JsonPath, at: Located): DashboardProblem {
  return { message, path, ...at, ...lineColumn(text, at.offset) };
}

/** Formats a JSON path for messages: `config.widgets[0].position.x`. */
export function formatPath(path: JsonPath): string {
  return path.reduce<string>((s, p) => (typeof p === 'number' ? `${s}[${p}]` : s ? `${s}.${p}` : p), '');
}

/** Parses and validates a `*.dashboard.json` text. */
export function parseDashboardFile(text: string): DashboardFileResult {
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
  return locateProblems(text);
}

function locateProblems(text: string): DashboardFileResult {
  let parsed: ReturnType<typeof parseLocated>;
  try {
    parsed = parseLocated(text);
  } catch (e) {
    if (!(e instanceof JsonSyntaxError)) throw e;
    return {
      ok: false,
      problems: [problem(text, `Invalid JSON: ${e.message}`, [], { offset: e.offset, length: 1 })],
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
  const problems = issues.map((issue) => {
    const path = issue.path;
    // The deepest existing value on the path (a missing field is reported at its parent object).
    let at: Located | undefined;
    for (let n = path.length; n >= 0 && !at; n--) at = parsed.locations.get(JSON.stringify(path.slice(0, n)));
    const where = formatPath(path);
    return problem(
      text,
      where ? `${where}: ${issue.message}` : issue.message,
      path,
      at ?? { offset: 0, length: 0 },
    );
  });
  return { ok: false, problems };
}

/** The workbook fields getWorkbook returns that a dashboard file is pulled from. */
export interface WorkbookDashboards {
  id: number;
  name: string;
  dashboardDraft?: unknown;
  dashboardPublished?: unknown;
}

/**
 * The publish input for a workbook's current dashboard: the draft by default, or what is published.
 * Every field of the source config is kept.
 */
export function dashboardFromWorkbook(
  workbook: WorkbookDashboards,
  source: 'draft' | 'published' = 'draft',
): PublishDashboardInput {
  const asRecord = (v: unknown) =>
    typeof v === 'object' && v !== null && !Array.isArray(v) ? (v as Record<string, unknown>) : undefined;
  const draft = asRecord(workbook.dashboardDraft);
  const published = asRecord(workbook.dashboardPublished);
  const from = source === 'published' ? (published ?? draft) : (draft ?? published);
  const input: PublishDashboardInput = { workbookId: workbook.id };
  if (published && typeof published.id === 'number') input.dashboardId = published.id;
  if (published && typeof published.allowEmbed === 'boolean') input.allowEmbed = published.allowEmbed;
  const config = asRecord(from?.config);
  const title = from?.title ?? config?.title;
  const description = from?.description ?? config?.description;
  if (typeof title === 'string') input.title = title;
  if (typeof description === 'string') input.description = description;
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
