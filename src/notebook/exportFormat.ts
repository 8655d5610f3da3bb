// The bytes Export Results writes: CSV (RFC 4180 quoting, CRLF) or a JSON array of objects keyed by
// column name. Pure text, no I/O: the export worker (exportWorker.ts) writes what this returns.
import { csvCell } from '../shared/notebookOutput';

export type ExportFormat = 'csv' | 'json';

export class ExportFormatter {
  private names: string[] = [];
  /** Rows formatted so far. */
  rows = 0;

  constructor(readonly format: ExportFormat) {}

  /** What opens the file. */
  start(): string {
    return this.format === 'json' ? '[' : '';
  }

  /** The columns (a CSV header line; JSON keys for the rows that follow). */
  columns(names: string[]): string {
    this.names = names;
    return this.format === 'csv' ? names.map(csvCell).join(',') + '\r\n' : '';
  }

  /** A batch of rows. */
  batch(rows: readonly unknown[][]): string {
    let s = '';
    for (const r of rows) {
      if (this.format === 'csv') s += r.map(csvCell).join(',') + '\r\n';
      else
        s +=
          (this.rows === 0 ? '\n' : ',\n') +
          JSON.stringify(Object.fromEntries(this.names.map((c, i) => [c, r[i] ?? null])));
      this.rows++;
    }
    return s;
  }

  /** What closes the file. */
  end(): string {
    if (this.format === 'csv') return '';
    return this.rows === 0 ? ']\n' : '\n]\n';
  }
}
