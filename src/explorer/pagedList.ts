// Paging state of one tree list, free of `vscode` so it can be unit-tested and benchmarked in plain
// Node. A list fetches nothing until asked; each `loadFirst`/`loadMore` makes exactly one request
// (concurrent calls share it); items are appended in place so what is shown keeps its identity.
import type { InvalidItem, Page } from '../api/paging';

/** Fetches one page: `after` is undefined for the first page. */
export type PageFetcher<T> = (args: {
  first: number;
  after?: string;
  signal?: AbortSignal;
}) => Promise<Page<T>>;

export type PagedListStatus = 'idle' | 'loading' | 'ready' | 'error';

export interface PagedListOptions {
  pageSize: number;
  /**
   * When set, only the first page is ever fetched and the list shows this sentence instead of a
   * "Load more" entry (e.g. the server cannot page reports sorted by lastViewedAt).
   */
  singlePageReason?: string;
}

export interface PagedListSnapshot<T> {
  status: PagedListStatus;
  items: readonly T[];
  /** A further page exists and can be requested with `loadMore`. */
  hasMore: boolean;
  /** Set when the last request failed; `retry` repeats that request. */
  error?: unknown;
  /** Set when the list stops after one page although the server has more. */
  truncatedReason?: string;
  /** Number of pages fetched successfully so far. */
  pages: number;
  /** Items the client could not read, in page order (each shown as an error row). */
  invalid: readonly InvalidItem[];
}

/** Clamps a configured page size to the API's limits (1..200). */
export function clampPageSize(n: unknown, fallback = 50): number {
  const v = typeof n === 'number' && Number.isFinite(n) ? Math.trunc(n) : fallback;
  return Math.min(200, Math.max(1, v));
}

export class PagedList<T> {
  private items: T[] = [];
  private invalid: InvalidItem[] = [];
  private cursor: string | undefined;
  private started = false;
  private exhausted = false;
  private truncated = false;
  private pagesLoaded = 0;
  private lastError: unknown;
  private inFlight: Promise<void> | undefined;
  private abort: AbortController | undefined;
  /** Bumped by `reset` so a response to a request made before it is dropped. */
  private generation = 0;

  constructor(
    private readonly fetchPage: PageFetcher<T>,
    private readonly options: PagedListOptions,
  ) {}

  get loaded(): boolean {
    return this.started;
  }

  snapshot(): PagedListSnapshot<T> {
    const status: PagedListStatus = this.inFlight
      ? 'loading'
      : this.lastError !== undefined
        ? 'error'
        : this.started
          ? 'ready'
          : 'idle';
    return {
      status,
      items: this.items,
      hasMore: this.started && !this.exhausted && this.lastError === undefined,
      error: this.lastError,
      truncatedReason: this.truncated ? this.options.singlePageReason : undefined,
      pages: this.pagesLoaded,
      invalid: this.invalid,
    };
  }

  /**
   * Loads the first page if nothing was requested yet; otherwise resolves at once (a failure stays
   * shown until `retry`, so re-rendering never re-sends a failing request on its own).
   */
  ensureLoaded(): Promise<void> {
    if (this.inFlight) return this.inFlight;
    if (this.started || this.lastError !== undefined) return Promise.resolve();
    return this.fetchNext();
  }

  /** Fetches the next page and appends it; a no-op when there is none or one is already loading. */
  loadMore(): Promise<void> {
    if (this.inFlight) return this.inFlight;
    if (!this.started) return this.fetchNext();
    if (this.exhausted && this.lastError === undefined) return Promise.resolve();
    return this.fetchNext();
  }

  /** Repeats the request that failed (the first page, or the page after the items shown). */
  retry(): Promise<void> {
    if (this.inFlight) return this.inFlight;
    return this.fetchNext();
  }

  /** Drops everything; the next `ensureLoaded` starts again from the first page. */
  reset(): void {
    this.generation++;
    this.abort?.abort();
    this.abort = undefined;
    this.inFlight = undefined;
    this.items = [];
    this.invalid = [];
    this.cursor = undefined;
    this.started = false;
    this.exhausted = false;
    this.truncated = false;
    this.pagesLoaded = 0;
    this.lastError = undefined;
  }

  dispose(): void {
    this.reset();
  }

  private fetchNext(): Promise<void> {
    const generation = this.generation;
    const abort = new AbortController();
    this.abort = abort;
    this.lastError = undefined;
    const run = async (): Promise<void> => {
      try {
        const page = await this.fetchPage({
          first: this.options.pageSize,
          ...(this.cursor !== undefined ? { after: this.cursor } : {}),
          signal: abort.signal,
        });
        if (generation !== this.generation) return;
        this.started = true;
        this.pagesLoaded++;
        // Appending in place: earlier items keep their position and identity.
        for (const item of page.items) this.items.push(item);
        for (const bad of page.invalid ?? []) this.invalid.push(bad);
        const info = page.pageInfo;
        const next = info && info.hasNextPage ? (info.endCursor ?? undefined) : undefined;
        if (this.options.singlePageReason !== undefined) {
          this.exhausted = true;
          // Say why there is no "Load more" whenever there could be more: a full page, or a cursor.
          this.truncated = next !== undefined || page.items.length >= this.options.pageSize;
        } else if (next === undefined || next === this.cursor) {
          // No cursor, or the server repeated one: stop instead of looping.
          this.exhausted = true;
        } else {
          this.cursor = next;
        }
      } catch (e) {
        if (generation !== this.generation) return;
        this.lastError = e;
      } finally {
        if (generation === this.generation) {
          this.inFlight = undefined;
          this.abort = undefined;
        }
      }
    };
    this.inFlight = run();
    return this.inFlight;
  }
}

/**
 * Loads the list `current()` names until no reset replaced it meanwhile, and answers that list. A
 * refresh or a profile switch while a page is on its way replaces a node's list: rendering the new
 * one then, never asked, would show an expanded list with no rows and no status at all.
 */
export async function loadCurrent<T>(current: () => PagedList<T>): Promise<PagedList<T>> {
  for (;;) {
    const list = current();
    await list.ensureLoaded();
    if (list === current()) return list;
  }
}
