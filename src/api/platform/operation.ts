// Each published operation is declared once, as data (a row of its family's table): method, path
// template, the schemas of its query, body and answer, whether it reads, writes or destroys, and
// the words its messages are made of. `callOperation` is the one call path every row goes through
// (path ids checked, input validated before sending, reads retried and read tolerantly, writes sent
// once with the outcome-unknown rule), and `OperationsClient` derives the typed client methods from
// a table, so an operation has no hand-written function or delegate unless it does more than call.
import { z } from 'zod';
import type { QueryValue, RequestOptions } from '../http';
import type { Page } from '../paging';
import { ApiError } from '../errors';
import { definedQuery, parseInput, positiveId, readItems, type PlatformTransport } from './transport';

export type HttpMethod = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
export type OperationKind = 'read' | 'write' | 'destroy';

export interface Operation {
  method: HttpMethod;
  /** Family-relative template as published (without the `/api` base): `/v1/deployments/{deploymentId}`. */
  path: string;
  /** Declared only where the method does not say it (see `kindOf`); `table` fills it in. */
  kind: OperationKind;
  /**
   * Path parameters that are text (SCIM ids); every other one is an id of at least 1. The names in
   * TEXT_PARAMS are text wherever they stand: `table` adds them.
   */
  text?: readonly string[];
  /** How a path id is named when it is refused (`Role id`); the parameter's name otherwise. */
  names?: Readonly<Record<string, string>>;
  /** Query parameters the call may send (unknown keys are dropped, undefined ones not sent). */
  query?: z.ZodType;
  /** The strict input schema of the body: what is sent is checked against it first. */
  body?: z.ZodType;
  /** The answer: one JSON value. */
  answer?: z.ZodType;
  /** The answer is a list page of these (read tolerantly: a bad item is set aside, never fatal). */
  item?: z.ZodType;
  /** The answer is one unpaged JSON array of these: one page, read tolerantly like a list page. */
  each?: z.ZodType;
  /** Without an answer: resolve to nothing rather than to the status. */
  nothing?: true;
  /**
   * What is being done, e.g. "Assigning a role" (prefixes generic messages); made from the checked
   * input (the body, else the query) where the words name what is sent ("Saving model/a.yml").
   */
  action?: Words;
  /**
   * The 403 sentence; else the family's `forbidden` of its verb and noun ("Listing roles"), or of
   * the action when the family has no noun.
   */
  forbidden?: string;
  /** The verb of the family's 403 sentence when not the kind's ("Assigning" roles, not "Changing"). */
  verb?: string;
  /** The 404 sentence (`{name}` stands for that path parameter's value); else the family's `gone`. */
  notFound?: string;
  /**
   * The 409 sentence, when a conflict means something the user can act on ("pick another name"),
   * made from the checked input like `action`; else the generic "refresh and try again".
   */
  conflict?: Words;
  /**
   * How the user checks a write whose outcome is unknown (from the checked input, like `action`);
   * else made from the family's `place` and what the write does (create, change or delete).
   */
  check?: Words;
  /** What a refused input is reported as (`Folder not created`); the action otherwise. */
  refused?: string;
  /** Anything else the request needs (accept, timeout). */
  extra?: Partial<RequestOptions>;
}

/** A message's words, fixed or made from the checked input (typed by the row that declares it). */
export type Words = string | ((input: never) => string);

/** Defaults a family gives every row of its table. */
export interface FamilyDefaults {
  /** The 403 sentence made from what is refused (e.g. "Listing roles needs the admin role…"). */
  forbidden?: (what: string) => string;
  /** What the rows act on, plural (`roles`): each row's 403 sentence names it after the row's verb. */
  many?: string;
  /** The 404 sentence of every row that names one by its path (`The role no longer exists: …`). */
  gone?: string;
  names?: Readonly<Record<string, string>>;
  /** The list a user refreshes to see a write's effect (`Roles`): the rows' default check hint. */
  place?: string;
}

export const ADMIN_HINT = 'needs the admin role. Use a token of an admin user.';
/** The 403 sentence of the operations only an admin may call. */
export const adminOnly = (what: string): string => `${what} ${ADMIN_HINT}`;

/** The verb a 403 sentence puts before the family's noun: by what the row does, unless it names its own. */
export function verbOf(op: Operation): string {
  if (op.verb) return op.verb;
  if (op.kind === 'read') return op.path.endsWith('}') ? 'Reading' : 'Listing';
  return op.kind === 'destroy' ? 'Deleting' : op.method === 'POST' ? 'Creating' : 'Changing';
}

/** "Refresh <place> to see whether …": by what the write does (POST creates, DELETE deletes, else changes). */
export function placeCheck(op: Operation, place: string | undefined): string | undefined {
  if (place === undefined || op.kind === 'read') return undefined;
  const outcome =
    op.kind === 'destroy'
      ? 'it was deleted'
      : op.method === 'POST'
        ? 'it was created before creating it again'
        : 'the change was saved';
  return `Refresh ${place} to see whether ${outcome}.`;
}

export type Table = Readonly<Record<string, Operation>>;

/** A row as declared: its kind may be left to its method. */
export type Row = Omit<Operation, 'kind'> & { kind?: OperationKind };
type Declared<T> = { readonly [K in keyof T]: T[K] & { kind: OperationKind } };

/** What a method does unless its row says otherwise: GET reads, DELETE destroys, the others write. */
export const kindOf = (method: HttpMethod): OperationKind =>
  method === 'GET' ? 'read' : method === 'DELETE' ? 'destroy' : 'write';

/** Path parameters the documents type as text in every operation that has them. */
export const TEXT_PARAMS = [
  'embedTenantName',
  'publicId',
  'syncJobId',
  'jobId',
  'slug',
  'owner',
  'repo',
] as const;

/** Declares a family's table, keeping each row's literal types (the client's types come from them). */
export function table<const T extends Readonly<Record<string, Row>>>(
  defaults: FamilyDefaults,
  rows: T,
): Declared<T> {
  for (const [name, row] of Object.entries(rows)) {
    const op = row as Operation;
    op.kind ??= kindOf(op.method);
    const text = [...op.path.matchAll(PARAM)]
      .map((m) => m[1]!)
      .filter((p) => TEXT_PARAMS.includes(p as never));
    if (text.length > 0) op.text = [...new Set([...(op.text ?? []), ...text])];
    OP_DEFAULTS.set(op, defaults);
    ALL.push({ name, op, defaults });
  }
  return rows as Declared<T>;
}

const OP_DEFAULTS = new WeakMap<Operation, FamilyDefaults>();

/** A row with other words (a rename through the patch row), still of its family. */
export function variant<O extends Operation>(op: O, words: Partial<Operation>): O {
  const copy = { ...op, ...words };
  OP_DEFAULTS.set(copy, OP_DEFAULTS.get(op) ?? {});
  return copy;
}
const ALL: { name: string; op: Operation; defaults: FamilyDefaults }[] = [];

/** Every declared operation (the contract suite, the fault matrix and the sandbox iterate this). */
export function declaredOperations(): readonly { name: string; op: Operation; defaults: FamilyDefaults }[] {
  return ALL;
}

// ---- the types of the derived methods

type ParamNames<P extends string> = P extends `${string}{${infer N}}${infer R}` ? [N, ...ParamNames<R>] : [];
type TextOf<O> = (O extends { text: readonly (infer S)[] } ? S : never) | (typeof TEXT_PARAMS)[number];
type ArgTypes<N extends readonly string[], S> = { [I in keyof N]: N[I] extends S ? string : number };
type PathArgs<O extends Operation> = ArgTypes<ParamNames<O['path']>, TextOf<O>>;
type QueryArg<O> = O extends { query: z.ZodType } ? [query?: z.input<O['query']>] : [];
// A row with a body and a query takes the body, then the query.
type InputArgs<O> = O extends { body: z.ZodType }
  ? undefined extends z.input<O['body']>
    ? [input?: z.input<O['body']>, ...QueryArg<O>]
    : [input: z.input<O['body']>, ...QueryArg<O>]
  : O extends { query: z.ZodType }
    ? [query?: z.input<O['query']>]
    : [];
export type ResultOf<O> = O extends { nothing: true }
  ? void
  : O extends { item: z.ZodType }
    ? Page<z.output<O['item']>>
    : O extends { each: z.ZodType }
      ? Page<z.output<O['each']>>
      : O extends { answer: z.ZodType }
        ? z.output<O['answer']>
        : number;
export type OperationMethod<O extends Operation> = (
  ...args: [...PathArgs<O>, ...InputArgs<O>, signal?: AbortSignal]
) => Promise<ResultOf<O>>;
export type ClientOf<T extends Table> = { readonly [K in keyof T]: OperationMethod<T[K]> };

// ---- the one call path

const PARAM = /\{([^}]+)\}/g;

/** The path with its parameters filled in: ids must be whole numbers of at least 1, text is encoded. */
export function fillPath(op: Operation, args: readonly unknown[], defaults: FamilyDefaults = {}): string {
  let i = 0;
  return op.path.replace(PARAM, (_, name: string) => {
    const value = args[i++];
    const label = op.names?.[name] ?? defaults.names?.[name] ?? name;
    if (!op.text?.includes(name)) return String(positiveId(value as number, label));
    if (value === undefined || value === '') throw new ApiError('validation', `${label} is required.`);
    return encodeURIComponent(String(value));
  });
}

/** A message with the path parameters' values in place of `{name}`. */
function withParams(text: string, path: string, args: readonly unknown[]): string {
  const names = [...path.matchAll(PARAM)].map((m) => m[1]!);
  return text.replace(PARAM, (whole, name: string) =>
    names.includes(name) ? String(args[names.indexOf(name)]) : whole,
  );
}

/** The number of path parameters of a template. */
export const paramCount = (path: string): number => path.match(PARAM)?.length ?? 0;

export async function callOperation(
  t: PlatformTransport,
  op: Operation,
  args: readonly unknown[],
  defaults: FamilyDefaults = OP_DEFAULTS.get(op) ?? {},
  form?: Form,
): Promise<unknown> {
  const n = paramCount(op.path);
  const path = fillPath(op, args, defaults);
  // The inputs follow the path arguments: the body, then the query (either may be alone).
  const inputs = (op.body !== undefined ? 1 : 0) + (op.query !== undefined ? 1 : 0);
  const signal = args[n + inputs] as AbortSignal | undefined;
  const refused = op.refused ?? (typeof op.action === 'string' ? op.action : `${op.method} ${op.path}`);
  const body = op.body ? parseInput(op.body, args[n], refused) : undefined;
  const query = op.query
    ? definedQuery(
        parseInput(
          op.query as z.ZodType<Record<string, QueryValue | undefined>>,
          args[op.body ? n + 1 : n] ?? {},
          refused,
        ),
      )
    : undefined;
  const words = (w: Words | undefined) =>
    typeof w === 'function' ? w((form?.fields ?? body ?? query) as never) : w;
  const action = words(op.action);
  const check = words(op.check) ?? placeCheck(op, defaults.place);
  const what = defaults.many ? `${verbOf(op)} ${defaults.many}` : action;
  const forbidden = op.forbidden ?? (what && defaults.forbidden?.(what));
  const notFound = op.notFound ?? (n > 0 ? defaults.gone : undefined);
  const hints: Partial<RequestOptions> = {
    ...op.extra,
    signal,
    ...(action ? { action } : {}),
    ...(forbidden ? { forbiddenHint: forbidden } : {}),
  };
  const conflict = words(op.conflict);
  if (notFound || conflict)
    hints.messages = {
      ...(notFound ? { notFound: withParams(notFound, op.path, args) } : {}),
      ...(conflict ? { conflict } : {}),
    };
  if (op.kind === 'read') {
    if (op.item) return t.list(path, op.item, query ?? {}, hints);
    const answer = await t.get(path, op.answer!, { ...hints, ...(query ? { query } : {}) });
    if (!op.each) return answer;
    const { items, invalid } = readItems(answer as unknown[], op.each, action ?? path, t.log);
    return invalid.length > 0 ? { items, pageInfo: null, invalid } : { items, pageInfo: null };
  }
  const writeHints = { ...hints, ...(query ? { query } : {}), ...(check ? { check: { hint: check } } : {}) };
  if (form)
    return t.write(op.method, path, form.body, op.answer ?? z.unknown(), {
      ...writeHints,
      headers: { ...op.extra?.headers, 'content-type': form.contentType },
    });
  if (!op.answer) {
    const status = await t.writeNoContent(op.method, path, { ...writeHints, ...(op.body ? { body } : {}) });
    return op.nothing ? undefined : status;
  }
  return t.write(op.method, path, body, op.answer, writeHints);
}

/** A body the caller encoded itself (a multipart form), and the fields its messages are made from. */
export interface Form {
  fields: Record<string, string>;
  body: Uint8Array;
  contentType: string;
}

/** One row sent with a form body: path, query, words and the write rules still come from the row. */
export function callForm<O extends Operation>(
  t: PlatformTransport,
  op: O,
  form: Form,
  ...args: Parameters<OperationMethod<O>>
): Promise<ResultOf<O>> {
  return callOperation(t, op, args, undefined, form) as Promise<ResultOf<O>>;
}

/** One row called directly (by a function that does more than the call). */
export function call<O extends Operation>(
  t: PlatformTransport,
  op: O,
  ...args: Parameters<OperationMethod<O>>
): Promise<ResultOf<O>> {
  return callOperation(t, op, args) as Promise<ResultOf<O>>;
}

/** The client of one or more tables: a method per row, typed from the row. */
export function bindTable<T extends Table>(t: PlatformTransport, rows: T): ClientOf<T> {
  const out: Record<string, unknown> = {};
  for (const [name, op] of Object.entries(rows))
    out[name] = (...args: unknown[]) => callOperation(t, op, args);
  return out as ClientOf<T>;
}

/** A family function that does more than one call: it takes the transport first (`addRecipients(t, …)`). */
// `never[]`: any argument list is assignable to it, so each function keeps its own parameters.
export type FamilyFunction = (t: PlatformTransport, ...args: never[]) => unknown;
type WithoutTransport<F> = F extends (t: PlatformTransport, ...args: infer A) => infer R
  ? (...args: A) => R
  : never;
export type FunctionsOf<F> = { readonly [K in keyof F]: WithoutTransport<F[K]> };

/**
 * A base class whose instances carry the methods of `rows` and of the family functions `fns`
 * (bound to the transport), so a client class holds only what neither does.
 */
export function OperationsClient<
  T extends Table,
  F extends Readonly<Record<string, FamilyFunction>> = Record<never, never>,
>(rows: T, fns?: F): new (t: PlatformTransport) => ClientOf<T> & FunctionsOf<F> {
  return class {
    constructor(t: PlatformTransport) {
      Object.assign(this, bindTable(t, rows));
      for (const [name, fn] of Object.entries(fns ?? {}))
        Object.assign(this, { [name]: (...args: never[]) => fn(t, ...args) });
    }
  } as unknown as new (t: PlatformTransport) => ClientOf<T> & FunctionsOf<F>;
}
