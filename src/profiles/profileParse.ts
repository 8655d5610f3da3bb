// The `dashboardPlatform.profiles` setting parsed without zod, so activation with stored profiles
// loads neither zod nor the HTTP stack (dist/api.js). It applies exactly the rules of ProfileSchema
// (profileSchema.ts, still used by the Add Profile flow); a unit test runs both over the same
// inputs, random ones included, and requires the same verdict, path and output.
import {
  PROFILE_COLORS,
  SANDBOX_PROFILE_NAME,
  normalizeUrl,
  validateAgentUrl,
  validateUrl,
} from './profileModel';
import type { Profile } from './profileSchema';

/** The first problem of an entry: where (a path like ['agents', 0, 'url']) and what. */
export interface EntryIssue {
  path: (string | number)[];
  message: string;
}

type Result<T> = { ok: true; value: T } | { ok: false; issue: EntryIssue };
type Obj = Record<string, unknown>;

const fail = (path: (string | number)[], message: string): { ok: false; issue: EntryIssue } => ({
  ok: false,
  issue: { path, message },
});

function kindOf(v: unknown): string {
  if (v === null) return 'null';
  if (Array.isArray(v)) return 'array';
  return typeof v;
}

const isObject = (v: unknown): v is Obj => typeof v === 'object' && v !== null && !Array.isArray(v);

function str(v: unknown, path: (string | number)[]): Result<string> {
  return typeof v === 'string' ? { ok: true, value: v } : fail(path, `expected a string, got ${kindOf(v)}`);
}

function url(
  v: unknown,
  path: string[] | (string | number)[],
  check: (s: string) => string | undefined,
): Result<string> {
  const s = str(v, path);
  if (!s.ok) return s;
  const problem = check(s.value);
  return problem ? fail(path, problem) : { ok: true, value: normalizeUrl(s.value) };
}

function name(v: unknown): Result<string> {
  const s = str(v, ['name']);
  if (!s.ok) return s;
  const t = s.value.trim();
  if (t.length < 1) return fail(['name'], 'needs a name');
  if (t.length > 64) return fail(['name'], 'at most 64 characters');
  if (t.toLowerCase() === SANDBOX_PROFILE_NAME.toLowerCase())
    return fail(['name'], `"${SANDBOX_PROFILE_NAME}" is the built-in profile; choose another name`);
  return { ok: true, value: t };
}

function agents(v: unknown): Result<Profile['agents']> {
  if (v === undefined) return { ok: true, value: [] };
  if (!Array.isArray(v)) return fail(['agents'], `expected an array, got ${kindOf(v)}`);
  const out: Profile['agents'] = [];
  for (let i = 0; i < v.length; i++) {
    const a: unknown = v[i];
    if (!isObject(a)) return fail(['agents', i], `expected an object, got ${kindOf(a)}`);
    const label = str(a.label, ['agents', i, 'label']);
    if (!label.ok) return label;
    if (label.value.trim().length < 1) return fail(['agents', i, 'label'], 'needs a label');
    const u = url(a.url, ['agents', i, 'url'], (s) => validateAgentUrl(s));
    if (!u.ok) return u;
    out.push({ ...a, label: label.value.trim(), url: u.value });
  }
  return { ok: true, value: out };
}

/** One entry of the setting, as ProfileSchema.safeParse would read it. */
export function parseProfileEntry(entry: unknown): Result<Profile> {
  if (!isObject(entry)) return fail([], `expected an object, got ${kindOf(entry)}`);
  const out: Obj = { ...entry };
  const n = name(entry.name);
  if (!n.ok) return n;
  out.name = n.value;
  const p = url(entry.platformUrl, ['platformUrl'], (s) => validateUrl(s, 'platform URL'));
  if (!p.ok) return p;
  out.platformUrl = p.value;
  if (entry.dataApiUrl !== undefined) {
    const d = url(entry.dataApiUrl, ['dataApiUrl'], (s) => validateUrl(s, 'Data API URL'));
    if (!d.ok) return d;
    out.dataApiUrl = d.value;
  }
  const a = agents(entry.agents);
  if (!a.ok) return a;
  out.agents = a.value;
  const id = entry.defaultDeploymentId;
  if (id !== undefined) {
    if (typeof id !== 'number' || !Number.isFinite(id))
      return fail(['defaultDeploymentId'], `expected a number, got ${kindOf(id)}`);
    if (!Number.isSafeInteger(id)) return fail(['defaultDeploymentId'], 'expected an integer');
    if (id <= 0) return fail(['defaultDeploymentId'], 'expected a positive number');
  }
  if (entry.production !== undefined && typeof entry.production !== 'boolean')
    return fail(['production'], `expected a boolean, got ${kindOf(entry.production)}`);
  if (entry.environment !== undefined) {
    const e = str(entry.environment, ['environment']);
    if (!e.ok) return e;
    const t = e.value.trim();
    if (t.length > 32) return fail(['environment'], 'at most 32 characters');
    out.environment = t;
  }
  if (entry.color !== undefined && !(PROFILE_COLORS as readonly unknown[]).includes(entry.color))
    return fail(['color'], `expected one of ${PROFILE_COLORS.join(', ')}`);
  if (entry.session !== undefined) {
    const s = entry.session;
    if (!isObject(s)) return fail(['session'], `expected an object, got ${kindOf(s)}`);
    for (const k of ['externalId', 'internalId', 'email'] as const) {
      if (s[k] !== undefined && typeof s[k] !== 'string')
        return fail(['session', k], `expected a string, got ${kindOf(s[k])}`);
    }
    out.session = { ...s };
  }
  return { ok: true, value: out as Profile };
}

export interface ParsedProfiles {
  profiles: Profile[];
  /** One sentence per rejected entry, naming the entry and the field. */
  problems: string[];
}

const SECRET_FIELD = /token|api_?key|secret|password|authorization/i;

/**
 * Parses the `dashboardPlatform.profiles` setting: bad entries are skipped and reported, not fatal.
 * Zod-free (profileParse.ts, the same rules as ProfileSchema), so activation loads no zod.
 */
export function parseProfiles(raw: unknown): ParsedProfiles {
  const profiles: Profile[] = [];
  const problems: string[] = [];
  if (raw === undefined || raw === null) return { profiles, problems };
  if (!Array.isArray(raw)) {
    return { profiles, problems: ['dashboardPlatform.profiles must be an array of profiles.'] };
  }
  const seen = new Set<string>();
  raw.forEach((entry: unknown, i) => {
    const result = parseProfileEntry(entry);
    const label =
      entry && typeof entry === 'object' && typeof (entry as { name?: unknown }).name === 'string'
        ? `"${(entry as { name: string }).name}"`
        : `#${i + 1}`;
    if (!result.ok) {
      const path = result.issue.path.join('.') || '(entry)';
      problems.push(`Profile ${label} is ignored: ${path}: ${result.issue.message}`);
      return;
    }
    const data = result.value;
    // Secrets never come from settings: a token pasted into a profile is dropped and reported.
    const leaked = Object.keys(data).filter((k) => SECRET_FIELD.test(k));
    for (const k of leaked) delete (data as Record<string, unknown>)[k];
    if (leaked.length) {
      problems.push(
        `Profile ${label}: ${leaked.join(', ')} ignored. Secrets are never read from settings; remove them from settings.json and use "Dashboard Platform: Set Token…" or an environment variable.`,
      );
    }
    const key = data.name.toLowerCase();
    if (seen.has(key)) {
      problems.push(`Profile ${label} is ignored: another profile has the same name.`);
      return;
    }
    seen.add(key);
    profiles.push(data);
  });
  return { profiles, problems };
}
