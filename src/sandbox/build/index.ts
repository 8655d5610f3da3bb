// The build API of the sandbox (`/build/api/v1/deployments/...` on the tenant host): data-model
// files, branches, dev mode, validate, commit, pull, merge and the upload transaction. See
// ../README.md "Data model (build API)".
import type { Router } from '../http';
import { registerBranchRoutes } from './branchRoutes';
import { registerFileRoutes } from './fileRoutes';
import { registerMergeRoutes } from './mergeRoutes';
import { BuildService, type BuildDeps } from './service';
import { registerUploadRoutes } from './uploadRoutes';

export { BuildService } from './service';

export function registerBuildRoutes(router: Router, deps: BuildDeps): BuildService {
  const svc = new BuildService(deps);
  registerFileRoutes(router, svc);
  registerBranchRoutes(router, svc);
  registerMergeRoutes(router, svc);
  registerUploadRoutes(router, svc);
  return svc;
}
