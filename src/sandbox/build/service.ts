// The build side of the sandbox: one data-model repository per deployment (made on first use) and
// the compiled model each Data API request answers from: the deploy branch's, or a branch's own
// under `<deploymentUrl>/dev-mode/{branch}/cubejs-api` while it is served.
import type { DataEngine } from '../data/engine';
import { fromClause } from '../data/load';
import type { Model } from '../data/model';
import type { Row } from '../platform/seed';
import type { SqlChecker } from './compiler';
import { filesKey } from './merge';
import { DeploymentRepo, errorLine } from './store';

export interface BuildDeps {
  deployments: Row[];
  engineFor: (deploymentId: number) => Promise<DataEngine>;
  /** A created deployment's deploy branch and first files (undefined: a seeded deployment). */
  starter?: (
    deploymentId: number,
  ) => { deployBranch: string; files: ReadonlyArray<readonly [string, string]> } | undefined;
}

/** Deployments whose deploy branch refuses direct writes (the production one of the sample tenant). */
const READ_ONLY_DEPLOY_BRANCH = new Set([2]);

export class BuildService {
  private readonly repos = new Map<number, DeploymentRepo>();

  constructor(private readonly deps: BuildDeps) {}

  /** The repository of an existing deployment. */
  repo(deploymentId: number): DeploymentRepo | undefined {
    let r = this.repos.get(deploymentId);
    if (r) return r;
    const dep = this.deps.deployments.find((d) => d.id === deploymentId);
    if (!dep) return undefined;
    const starter = this.deps.starter?.(deploymentId);
    r = new DeploymentRepo(
      deploymentId,
      String(dep.name),
      starter?.deployBranch ?? 'main',
      READ_ONLY_DEPLOY_BRANCH.has(deploymentId),
      () => this.checker(deploymentId),
      starter?.files,
    );
    this.repos.set(deploymentId, r);
    return r;
  }

  /** Forgets a deployment's repository: the next use makes it again (from its starter, if any). */
  drop(deploymentId: number): void {
    this.repos.delete(deploymentId);
  }

  /** Member SQL is tried on the deployment's engine (`SELECT expr FROM tables LIMIT 0`). */
  private async checker(deploymentId: number): Promise<SqlChecker> {
    const engine = await this.deps.engineFor(deploymentId);
    return (expr, tables) => {
      try {
        engine.prepare(`SELECT ${expr} FROM ${fromClause(tables)} LIMIT 0`).free();
        return undefined;
      } catch (e) {
        return e instanceof Error ? e.message : String(e);
      }
    };
  }

  /**
   * A branch's latest build in the published `BuildStatusResponse` shape (for
   * `GET /api/v1/deployments/{id}/build-status`): the branch's files compiled, `error` with the
   * compiler's lines when they do not. Undefined for an unknown deployment or branch.
   */
  async buildStatus(deploymentId: number, branchName?: string): Promise<Record<string, unknown> | undefined> {
    const repo = this.repo(deploymentId);
    const b = repo?.branches.get(branchName ?? repo.deployBranch);
    if (!repo || !b) return undefined;
    const { result } = await repo.compile(b.files);
    return {
      deploymentId,
      branchName: b.name,
      mode: b.name === repo.deployBranch ? 'production' : 'dev_mode',
      status: result.errors.length ? 'error' : 'success',
      deploymentStatus: 'running',
      errorText: result.errors.length ? `Compile errors:\n${result.errors.map(errorLine).join('\n')}` : null,
      buildJobId: b.id * 10_000 + b.builds,
      filesHash: filesKey(b.files),
      lastHash: b.lastHash,
      updatedAt: b.updatedAt,
    };
  }

  /** The model a Data API request answers from, or the error to answer. */
  async modelFor(
    deploymentId: number,
    devBranch: string | undefined,
  ): Promise<Model | { status: number; error: string }> {
    const repo = this.repo(deploymentId);
    if (!repo) return { status: 404, error: `Deployment ${deploymentId} not found.` };
    const b = repo.branches.get(devBranch ?? repo.deployBranch);
    if (!b) return { status: 404, error: `No branch named "${devBranch}" in deployment ${deploymentId}.` };
    if (devBranch !== undefined && !repo.served(b))
      return {
        status: 404,
        error: `Branch "${devBranch}" is not running: enter dev mode on it or enable its staging environment.`,
      };
    const { result, model } = await repo.compile(b.files);
    if (result.errors.length)
      return {
        status: 400,
        error: `Compile errors in branch "${b.name}":\n${result.errors.map(errorLine).join('\n')}`,
      };
    return model;
  }
}
