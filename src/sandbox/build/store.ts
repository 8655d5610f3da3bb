// A deployment's data-model repository in the sandbox: branches, each with its working files (what
// dev mode and the file routes see), its head (the last commit) and the snapshots it was forked
// from; who is in dev mode on which branch; and the compiled model of each file set, cached by
// content so a branch compiles once per change.
import { createHash } from 'node:crypto';
import { Model } from '../data/model';
import { compileModel, type CompileResult, type SqlChecker } from './compiler';
import { changedPaths, filesKey, merge3, sameFiles, type Files } from './merge';
import { seedFilesFor } from './seedModel';

export class BuildError extends Error {
  constructor(
    readonly status: number,
    message: string,
    readonly code?: string,
    readonly extra: Record<string, unknown> = {},
  ) {
    super(message);
  }
}

export interface Branch {
  id: number;
  name: string;
  parent: string | null;
  /** The working copy: what the file routes, validate and the dev-mode Data API see. */
  files: Files;
  /** The last commit. */
  head: Files;
  /** The parent's head when this branch was forked or last pulled (merge base with the parent). */
  base: Files;
  /** The deploy branch's head at the same moment (merge base for merge-to-default). */
  deployBase: Files;
  lastHash: string | null;
  staging: boolean;
  /** When the working files last changed (a build was triggered). */
  updatedAt: string;
  /** Counts the builds of the branch (each change of its files). */
  builds: number;
}

const CACHE_SIZE = 16;

interface Compiled {
  result: CompileResult;
  model: Model;
}

export class DeploymentRepo {
  readonly branches = new Map<string, Branch>();
  /** Who (the platform credential) is in dev mode on which branch. */
  readonly devMode = new Map<string, string>();
  private nextBranchId = 1;
  /** Compilations by content key, kept while running too, so concurrent requests compile once. */
  private readonly compiled = new Map<string, Promise<Compiled>>();
  private readonly byFiles = new WeakMap<Files, Promise<Compiled>>();

  constructor(
    readonly deploymentId: number,
    readonly deploymentName: string,
    readonly deployBranch: string,
    /** Direct writes to the deploy branch are refused (edit on a branch and merge). */
    readonly deployBranchReadOnly: boolean,
    private readonly checker: () => Promise<SqlChecker | undefined>,
    /** The deploy branch's first files (a created deployment's); the sample model otherwise. */
    seedFiles: ReadonlyArray<readonly [string, string]> = seedFilesFor(deploymentId),
  ) {
    const files: Files = new Map(seedFiles.map(([p, c]) => [p, c]));
    this.add(deployBranch, null, files);
    this.branches.get(deployBranch)!.lastHash = commitHash(null, files, 'Initial commit');
    const staging = this.add('staging', deployBranch, new Map(files));
    staging.staging = true;
    staging.lastHash = this.branches.get(deployBranch)!.lastHash;
  }

  private add(name: string, parent: string | null, files: Files): Branch {
    const p = parent === null ? undefined : this.branches.get(parent);
    const b: Branch = {
      id: this.nextBranchId++,
      name,
      parent,
      files: new Map(files),
      head: new Map(files),
      base: new Map(p?.head ?? files),
      deployBase: new Map(p ? (parent === this.deployBranch ? p.head : p.deployBase) : files),
      lastHash: p?.lastHash ?? null,
      staging: false,
      updatedAt: new Date().toISOString(),
      builds: 1,
    };
    this.branches.set(name, b);
    return b;
  }

  branch(name: string): Branch {
    const b = this.branches.get(name);
    if (!b) throw new BuildError(404, `No branch named "${name}" in deployment ${this.deploymentId}.`);
    return b;
  }

  branchById(id: number): Branch {
    const b = [...this.branches.values()].find((x) => x.id === id);
    if (!b) throw new BuildError(404, `No branch with id ${id} in deployment ${this.deploymentId}.`);
    return b;
  }

  /** The branch a request means: named, by id, else the caller's dev-mode branch, else the deploy branch. */
  resolve(who: string, name?: string | null, id?: number | null): Branch {
    if (typeof name === 'string' && name) return this.branch(name);
    if (typeof id === 'number') return this.branchById(id);
    return this.branch(this.devMode.get(who) ?? this.deployBranch);
  }

  /** The caller's dev-mode branch, or a 400 saying how to enter dev mode. */
  activeBranch(who: string): Branch {
    const name = this.devMode.get(who);
    if (name === undefined)
      throw new BuildError(
        400,
        'You are not in dev mode: enter dev mode on a branch (POST /build/api/v1/deployments/{id}/dev-mode) first.',
        'not_in_dev_mode',
      );
    return this.branch(name);
  }

  createBranch(who: string, name: string, from: string | undefined, activate: boolean): Branch {
    if (!/^(?!\/)(?!.*\/\/)(?!.*\.\.)(?!.*\/$)[A-Za-z0-9._/-]{1,100}$/.test(name))
      throw new BuildError(
        400,
        `"${name}" is not a valid branch name: use letters, digits, ".", "_", "-" and "/" (no "..", no leading or trailing "/").`,
      );
    if (this.branches.has(name))
      throw new BuildError(409, `A branch named "${name}" already exists.`, 'branch_exists');
    const parent = this.branch(from ?? this.devMode.get(who) ?? this.deployBranch);
    const b = this.add(name, parent.name, parent.head);
    if (activate) this.devMode.set(who, name);
    return b;
  }

  removeBranch(name: string): void {
    const b = this.branch(name);
    if (name === this.deployBranch)
      throw new BuildError(400, `The deploy branch "${name}" cannot be deleted.`, 'deploy_branch');
    for (const child of this.branches.values()) if (child.parent === name) child.parent = b.parent;
    for (const [who, branch] of this.devMode) if (branch === name) this.devMode.delete(who);
    this.branches.delete(name);
  }

  enterDevMode(who: string, name: string | null | undefined): Branch {
    let branchName = name ?? undefined;
    if (branchName === undefined) {
      // No branch named: the caller's personal dev branch, made from the deploy branch on first use.
      branchName = `dev-${createHash('sha256').update(who).digest('hex').slice(0, 8)}`;
      if (!this.branches.has(branchName)) this.add(branchName, this.deployBranch, this.deployHead());
    }
    if (branchName === this.deployBranch)
      throw new BuildError(
        400,
        `Dev mode runs on a branch, not on the deploy branch "${branchName}": create a branch from it and enter dev mode there.`,
        'deploy_branch',
      );
    const b = this.branch(branchName);
    this.devMode.set(who, b.name);
    return b;
  }

  /** Whether the dev-mode Data API of a branch answers: someone has it open, or its staging environment is on. */
  served(b: Branch): boolean {
    return b.staging || [...this.devMode.values()].includes(b.name);
  }

  deployHead(): Files {
    return this.branch(this.deployBranch).head;
  }

  /** A write to a branch's files; the deploy branch takes it as a commit (production has no working copy). */
  write(b: Branch, apply: (files: Files) => void, message: string): void {
    this.checkWritable(b);
    const next = new Map(b.files);
    apply(next);
    b.files = next;
    touch(b);
    if (b.name === this.deployBranch) this.commit(b, message);
  }

  /** Refuses direct writes to a read-only deploy branch (403). */
  checkWritable(b: Branch): void {
    if (b.name === this.deployBranch && this.deployBranchReadOnly)
      throw new BuildError(
        403,
        `The deploy branch "${b.name}" of deployment ${this.deploymentId} is read-only: change the model on a branch and merge it.`,
        'deploy_branch_read_only',
      );
  }

  /** Records the working files as the branch's new head; false when there was nothing to commit. */
  commit(b: Branch, message: string): boolean {
    if (sameFiles(b.files, b.head) && b.lastHash !== null) return false;
    b.head = new Map(b.files);
    b.lastHash = commitHash(b.lastHash, b.head, message);
    return true;
  }

  hasPendingChanges(b: Branch): boolean {
    return !sameFiles(b.files, b.head);
  }

  /**
   * Merges a branch's last commit into `target` (its parent, or the deploy branch) from their merge
   * base. Refuses uncommitted changes on the branch, conflicts, and uncommitted changes on the
   * target that the merge would overwrite (409 each). False when there was nothing to merge.
   */
  merge(b: Branch, target: Branch, message: string): boolean {
    if (this.hasPendingChanges(b))
      throw new BuildError(
        409,
        `Branch "${b.name}" has uncommitted changes: commit them first, then merge.`,
        'uncommitted_changes',
      );
    const base = target.name === b.parent ? b.base : b.deployBase;
    const { files, conflicts } = merge3(base, target.head, b.head);
    if (conflicts.length)
      throw new BuildError(
        409,
        `Merging "${b.name}" into "${target.name}" conflicts in ${conflicts.join(', ')}: pull "${target.name}" into "${b.name}", resolve, commit and merge again.`,
        'merge_conflict',
        { files: conflicts },
      );
    const changed = this.applyToTarget(target, files);
    // The branch's commit is now in the target's history: it is the next merge base.
    if (target.name === b.parent) b.base = new Map(b.head);
    if (target.name === this.deployBranch) b.deployBase = new Map(b.head);
    if (!changed) return false;
    target.lastHash = commitHash(target.lastHash, target.head, message);
    return true;
  }

  /** Brings what was merged into the branch's parent since it was forked or last pulled. True when files changed. */
  pull(b: Branch): boolean {
    if (b.parent === null) return false;
    const parent = this.branch(b.parent);
    const { files, conflicts } = merge3(b.base, b.head, parent.head);
    if (conflicts.length)
      throw new BuildError(
        409,
        `Pulling "${parent.name}" into "${b.name}" conflicts in ${conflicts.join(', ')}: both changed them. Resolve on the branch (keep one version), commit, and pull again.`,
        'merge_conflict',
        { files: conflicts },
      );
    const changed = this.applyToTarget(b, files);
    b.base = new Map(parent.head);
    if (parent.name === this.deployBranch) b.deployBase = new Map(parent.head);
    else b.deployBase = new Map(parent.deployBase);
    if (changed) b.lastHash = commitHash(b.lastHash, b.head, `Merge branch '${parent.name}' into ${b.name}`);
    return changed;
  }

  /** Moves a branch's head to `files`, carrying the change into its working copy. */
  private applyToTarget(target: Branch, files: Files): boolean {
    const changed = changedPaths(target.head, files);
    const pending = new Set(changedPaths(target.head, target.files));
    const clash = changed.filter((p) => pending.has(p));
    if (clash.length)
      throw new BuildError(
        409,
        `Branch "${target.name}" has uncommitted changes to ${clash.join(', ')}: commit or discard them first.`,
        'uncommitted_changes',
        { files: clash },
      );
    target.head = new Map(files);
    const working = new Map(target.files);
    for (const p of changed) {
      const c = files.get(p);
      if (c === undefined) working.delete(p);
      else working.set(p, c);
    }
    target.files = working;
    if (changed.length) touch(target);
    return changed.length > 0;
  }

  /**
   * The compiled model of a file set (cached by content). The cache holds the compilation itself,
   * so the requests that arrive while it runs (a burst of queries on a fresh sandbox) wait for it
   * instead of each compiling the same files.
   */
  compile(files: Files): Promise<Compiled> {
    // File maps are never changed in place (every write makes a new one), so a branch's current map
    // finds its model without hashing; the content key serves equal file sets on other branches.
    const known = this.byFiles.get(files);
    if (known) return known;
    const key = filesKey(files);
    const hit = this.compiled.get(key);
    if (hit) {
      this.compiled.delete(key);
      this.compiled.set(key, hit);
      this.byFiles.set(files, hit);
      return hit;
    }
    const entry = this.checker().then((checker) => {
      const result = compileModel(files, checker);
      return { result, model: new Model(result.cubes) };
    });
    // A compilation that failed is not kept: the next request tries again.
    entry.catch(() => {
      if (this.compiled.get(key) === entry) this.compiled.delete(key);
      this.byFiles.delete(files);
    });
    this.compiled.set(key, entry);
    this.byFiles.set(files, entry);
    if (this.compiled.size > CACHE_SIZE) this.compiled.delete(this.compiled.keys().next().value!);
    return entry;
  }
}

function touch(b: Branch): void {
  b.updatedAt = new Date().toISOString();
  b.builds++;
}

export function commitHash(previous: string | null, files: Files, message: string): string {
  return createHash('sha1')
    .update(`${previous ?? ''}\n${filesKey(files)}\n${message}\n${Date.now()}`)
    .digest('hex');
}

/** A compile error as the build API reports it: `file:line:column: message`. */
export function errorLine(e: { fileName: string; line: number; column: number; message: string }): string {
  return `${e.fileName}:${e.line}:${e.column}: ${e.message}`;
}
