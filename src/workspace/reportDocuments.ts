// A report's SQL as a named document, never an Untitled buffer: a click opens the read-only preview
// (`dashboard-platform-report:/<name>.sql?deployment=…&report=…`: the tab and breadcrumb read the
// name, the ids stay in the query; one tab per report, re-fetched on
// each click), and "Edit Report SQL" opens the same SQL under `dashboard-platform-report-draft:`,
// whose save (Ctrl+S) is "Save SQL to Report": the buffer stays dirty until the server confirms.
// Both are file systems so a reopened window reads them again from the server. Startup bundle: the
// client and the write come through callbacks, so nothing heavy loads before a report is opened.
import * as vscode from 'vscode';
import { plainText } from '../explorer/labels';

export const REPORT_SCHEME = 'dashboard-platform-report';
export const REPORT_DRAFT_SCHEME = 'dashboard-platform-report-draft';

export interface ReportRef {
  deploymentId: number;
  reportId: number;
}

/** What the file systems need from the platform: the report's SQL and name, and the save. */
export interface ReportSource {
  read(ref: ReportRef): Promise<{ name: string; sql: string }>;
  /** Saves the SQL (confirmations included); rejects when the server did not confirm it. */
  write(ref: ReportRef, name: string, sql: string): Promise<void>;
}

/** A report name as a file name: no path separators or control characters, at most 120 chars. */
export function reportFileName(name: string): string {
  const clean = plainText(name, 120)
    .replace(/[/\\]+/g, ' ')
    .trim();
  return `${clean || 'report'}.sql`;
}

export function reportUri(ref: ReportRef, name: string, draft = false): vscode.Uri {
  return vscode.Uri.from({
    scheme: draft ? REPORT_DRAFT_SCHEME : REPORT_SCHEME,
    path: `/${reportFileName(name)}`,
    query: `deployment=${ref.deploymentId}&report=${ref.reportId}`,
  });
}

/** The report a preview or draft URI names, or undefined for any other URI. */
export function reportRefOf(uri: vscode.Uri | undefined): ReportRef | undefined {
  if (!uri || (uri.scheme !== REPORT_SCHEME && uri.scheme !== REPORT_DRAFT_SCHEME)) return undefined;
  const m = /^deployment=(\d+)&report=(\d+)$/.exec(uri.query);
  return m && /^\/[^/]+$/.test(uri.path) ? { deploymentId: Number(m[1]), reportId: Number(m[2]) } : undefined;
}

const strictUtf8 = new TextDecoder('utf-8', { fatal: true });

/**
 * The SQL of saved bytes. Strict: bytes that are not UTF-8 (a draft saved as Latin-1 or UTF-16) are
 * refused with what to do, never saved with U+FFFD in place of the characters.
 */
export function reportSql(content: Uint8Array): string {
  try {
    return strictUtf8.decode(content);
  } catch {
    throw vscode.FileSystemError.Unavailable(
      'The SQL was not saved: it is not UTF-8 text. Switch the file\'s encoding to UTF-8 (Change File Encoding in the status bar, "Save with Encoding") and save again.',
    );
  }
}

const key = (ref: ReportRef) => `${ref.deploymentId}/${ref.reportId}`;

interface Entry {
  name: string;
  bytes: Uint8Array;
  mtime: number;
}

/**
 * The report file systems (the preview one is registered read-only). They share one cache so a
 * confirmed save updates the open preview too.
 */
export class ReportDocuments implements vscode.Disposable {
  private readonly cache = new Map<string, Entry>();
  private readonly emitters = {
    preview: new vscode.EventEmitter<vscode.FileChangeEvent[]>(),
    draft: new vscode.EventEmitter<vscode.FileChangeEvent[]>(),
  };
  private source: (() => Promise<ReportSource>) | undefined;

  /** Connects the platform (set by the explorer at activation; loaded on first use). */
  useSource(source: () => Promise<ReportSource>): void {
    this.source = source;
  }

  register(): vscode.Disposable[] {
    return [
      vscode.workspace.registerFileSystemProvider(REPORT_SCHEME, this.provider('preview'), {
        isReadonly: true,
        isCaseSensitive: true,
      }),
      vscode.workspace.registerFileSystemProvider(REPORT_DRAFT_SCHEME, this.provider('draft'), {
        isCaseSensitive: true,
      }),
    ];
  }

  private async src(): Promise<ReportSource> {
    if (!this.source) throw vscode.FileSystemError.Unavailable('The explorer is not ready yet.');
    return this.source();
  }

  /** Fetches the report's SQL now; fires a change for open documents when it differs. */
  async refresh(ref: ReportRef): Promise<Entry> {
    const got = await (await this.src()).read(ref);
    return this.store(ref, got.name, got.sql);
  }

  private store(ref: ReportRef, name: string, sql: string): Entry {
    const bytes = new TextEncoder().encode(sql);
    const before = this.cache.get(key(ref));
    const same = before !== undefined && Buffer.from(before.bytes).equals(Buffer.from(bytes));
    const entry: Entry = same ? { ...before, name } : { name, bytes, mtime: Date.now() };
    this.cache.set(key(ref), entry);
    if (!same && before !== undefined) {
      // Open documents of this report re-read it (a dirty draft keeps its edits: VS Code asks).
      for (const which of ['preview', 'draft'] as const)
        this.emitters[which].fire([
          { type: vscode.FileChangeType.Changed, uri: reportUri(ref, name, which === 'draft') },
        ]);
    }
    return entry;
  }

  private async entry(uri: vscode.Uri): Promise<{ ref: ReportRef; entry: Entry }> {
    const ref = reportRefOf(uri);
    if (!ref) throw vscode.FileSystemError.FileNotFound(uri);
    const cached = this.cache.get(key(ref));
    if (cached) return { ref, entry: cached };
    try {
      return { ref, entry: await this.refresh(ref) };
    } catch (e) {
      throw vscode.FileSystemError.Unavailable(e instanceof Error ? e.message : String(e));
    }
  }

  private provider(which: 'preview' | 'draft'): vscode.FileSystemProvider {
    const readOnly = () => vscode.FileSystemError.NoPermissions('A report holds one SQL query only.');
    return {
      onDidChangeFile: this.emitters[which].event,
      // Changes are pushed by refresh() and saves; there is nothing to poll.
      watch: () => new vscode.Disposable(() => undefined),
      stat: async (uri) => {
        if (!/\.sql$/.test(uri.path)) {
          // The folders of the path (VS Code may stat a parent).
          return { type: vscode.FileType.Directory, ctime: 0, mtime: 0, size: 0 };
        }
        const { entry } = await this.entry(uri);
        return {
          type: vscode.FileType.File,
          ctime: entry.mtime,
          mtime: entry.mtime,
          size: entry.bytes.byteLength,
          ...(which === 'preview' ? { permissions: vscode.FilePermission.Readonly } : {}),
        };
      },
      readFile: async (uri) => (await this.entry(uri)).entry.bytes,
      writeFile: async (uri, content) => {
        if (which === 'preview') throw readOnly();
        const { ref, entry } = await this.entry(uri);
        const sql = reportSql(content);
        await (await this.src()).write(ref, entry.name, sql);
        // Saved on the server: the preview shows it too.
        this.store(ref, entry.name, sql);
      },
      readDirectory: () => [],
      createDirectory: () => {
        throw readOnly();
      },
      delete: () => {
        throw readOnly();
      },
      rename: () => {
        throw readOnly();
      },
    };
  }

  dispose(): void {
    this.emitters.preview.dispose();
    this.emitters.draft.dispose();
    this.cache.clear();
  }
}
