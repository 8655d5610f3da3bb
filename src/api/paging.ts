// Cursor paging of the Platform API: one page at a time, or every item through an async iterator.

export interface PageInfo {
  hasNextPage: boolean;
  hasPreviousPage?: boolean;
  startCursor?: string | null;
  endCursor?: string | null;
}

/** An item of a page the client could not read: kept aside so the rest of the page still shows. */
export interface InvalidItem {
  /** Position in the page as sent. */
  index: number;
  /** The first problem, naming the field. */
  problem: string;
  value: unknown;
}

export interface Page<T> {
  items: T[];
  /** null = no more pages. */
  pageInfo: PageInfo | null;
  /** Items of this page that could not be read (absent when every item was fine). */
  invalid?: InvalidItem[];
  /** The deprecated `count` (or SCIM `totalResults`), when the server sends one. */
  total?: number;
}

export interface PageParams {
  first?: number;
  after?: string;
}

/** The cursor of the next page, or undefined when there is none. */
export function nextCursor(page: Page<unknown>): string | undefined {
  const info = page.pageInfo;
  if (!info || !info.hasNextPage) return undefined;
  return info.endCursor ?? undefined;
}

/**
 * Every item of every page, fetched lazily. Stops when there is no next cursor, or when a server
 * repeats a cursor (guards against an endless loop).
 */
export async function* paginate<T>(fetchPage: (after?: string) => Promise<Page<T>>): AsyncGenerator<T> {
  const seen = new Set<string>();
  let after: string | undefined;
  for (;;) {
    const page = await fetchPage(after);
    for (const item of page.items) yield item;
    const next = nextCursor(page);
    if (next === undefined || seen.has(next)) return;
    seen.add(next);
    after = next;
  }
}
