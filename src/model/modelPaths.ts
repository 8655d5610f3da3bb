// Where a model file lives in the editor, without vscode: `dpmodel://<deploymentId>/<branch>/<path>`
// (the branch as one encoded segment, since branch names contain slashes), and where a
// compilation error points (its file and line) from the validate answer.

export const MODEL_SCHEME = 'dpmodel';

export interface ModelLocation {
  deploymentId: number;
  branch: string;
  /** Project-relative path, '' for the root. */
  path: string;
}

/** The path part of a model URI: `/<encoded branch>/<file path>`. */
export function modelUriPath(branch: string, path = ''): string {
  return `/${encodeURIComponent(branch)}${path ? `/${path.replace(/^\/+/, '')}` : ''}`;
}

/** Reads authority and path of a model URI; undefined when it is not one. */
export function parseModelUri(authority: string, uriPath: string): ModelLocation | undefined {
  const deploymentId = Number(authority);
  if (!Number.isInteger(deploymentId) || deploymentId < 1) return undefined;
  const m = /^\/([^/]+)(?:\/(.*))?$/.exec(uriPath);
  if (!m) return undefined;
  let branch: string;
  try {
    branch = decodeURIComponent(m[1]!);
  } catch {
    return undefined;
  }
  return { deploymentId, branch, path: (m[2] ?? '').replace(/\/+$/, '') };
}

export interface ErrorLocation {
  /** Project-relative path of the file, when the error names one. */
  file?: string;
  /** 0-based. */
  line: number;
  column: number;
  message: string;
}

/**
 * Where a compiler error points. The published error has `fileName` and `message` only, so the
 * line and column come from the message in the forms compilers print: `file.yml:12:5`,
 * `line 12, column 5`, `(12:5)`, `at line 12`. No line found: the file's first line.
 */
export function locateError(message: string, fileName?: string | null): ErrorLocation {
  let file = fileName?.replace(/\\/g, '/').replace(/^\/+/, '') || undefined;
  let line: number | undefined;
  let column: number | undefined;
  const fileLine = /([\w./-]+\.(?:ya?ml|js|jinja|sql|json)):(\d+)(?::(\d+))?/i.exec(message);
  const words = /\bline\s+(\d+)(?:\s*,?\s*col(?:umn)?\s+(\d+))?/i.exec(message);
  const paren = /\((\d+):(\d+)\)/.exec(message);
  if (fileLine) {
    file ??= fileLine[1];
    line = Number(fileLine[2]);
    column = fileLine[3] ? Number(fileLine[3]) : undefined;
  } else if (words) {
    line = Number(words[1]);
    column = words[2] ? Number(words[2]) : undefined;
  } else if (paren) {
    line = Number(paren[1]);
    column = Number(paren[2]);
  }
  return {
    file,
    line: line && line > 0 ? line - 1 : 0,
    column: column && column > 0 ? column - 1 : 0,
    message,
  };
}

/** The default (deploy) branch among a deployment's branches: the one without a parent. */
export function defaultBranchOf(
  branches: readonly { name: string; parentBranch?: string | null }[],
): string | undefined {
  const roots = branches.filter((b) => !b.parentBranch);
  const pick = roots.find((b) => b.name === 'main') ?? roots.find((b) => b.name === 'master') ?? roots[0];
  return pick?.name ?? branches[0]?.name;
}
