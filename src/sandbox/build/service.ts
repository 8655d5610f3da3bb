// The build side of the sandbox: one data-model repository per deployment (made on first use) and
// the compiled model each Data API request answers from: the deploy branch's, or a branch's own
// under `<deploymentUrl>/dev-mode/{branch}/cubejs-api` while it is served.
import type { DataEngine } from '../data/engine';
import { fromClause } from '../data/load';
import type { Model } from '../data/model';
import type { Row } from '../platform/seed';
import type { SqlChecker } from './compiler';
import { DeploymentRepo, errorLine } from './store';

export interface BuildDeps {
  deployments: Row[];
  engineFor: (deploymentId: number) => Promise<DataEngine>;
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
    r = new DeploymentRepo(
      deploymentId,
      String(dep.name),
      'main',
      READ_ONLY_DEPLOY_BRANCH.has(deploymentId),
      () => this.checker(deploymentId),
    );
    this.repos.set(deploymentId, r);
    return r;
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
