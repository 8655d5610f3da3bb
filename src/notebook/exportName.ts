// The file name Export Results suggests: the notebook's name, the cell, what the query reads and
// the date, so exports of different cells and days do not overwrite each other. vscode-free.

const slug = (s: string) =>
  s
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '');

/** What a query reads: the first cube after FROM, or the first member's cube of a load query. */
export function queryTopic(kind: 'sql' | 'json', text: string): string | undefined {
  if (kind === 'sql') return /\bfrom\s+"?([A-Za-z_]\w*)/i.exec(text)?.[1];
  return /"([A-Za-z_]\w*)\.[A-Za-z_]\w*"/.exec(text)?.[1];
}

export function exportFileName(opts: {
  notebookName: string;
  cellIndex: number;
  kind: 'sql' | 'json';
  query: string;
  format: 'csv' | 'json';
  date: Date;
}): string {
  const base = slug(opts.notebookName.replace(/\.dpnb$/i, '')) || 'results';
  const topic = queryTopic(opts.kind, opts.query);
  const day = opts.date.toISOString().slice(0, 10);
  const parts = [base, `cell-${opts.cellIndex + 1}`, ...(topic ? [slug(topic)] : []), day];
  return `${parts.join('-')}.${opts.format}`;
}
