// Build API client (`<tenant>/build/api/v1/deployments/...`): the data model's files, uploads,
// branches and dev mode, and its git operations, each a row of the build tables
// (src/api/platform/build/*) whose method is derived from it. Same transport rules as
// PlatformClient: reads may be retried, writes never are.
import { HttpClient, type ClientOptions } from './http';
import { allBranches, BRANCHES } from './platform/build/branches';
import { tenantUrlOf } from './platform/build/common';
import { CREATION } from './platform/build/creation';
import { FILES } from './platform/build/files';
import { GIT } from './platform/build/git';
import { UPLOAD, uploadFile } from './platform/build/upload';
import { OperationsClient } from './platform/operation';
import { PlatformTransport } from './platform/transport';

export type { Branch } from './platform/build/common';
export { buildApiUrlOf, devModeDataApiUrl, writeOutcome } from './platform/build/common';
export type { WriteResponse } from './platform/build/common';
export { contentHash, hashKindOf, type HashKind } from './platform/build/hashes';
export type { DevBranch } from './platform/build/branches';
export type { ModelFile, Validation } from './platform/build/files';
export { flattenTree } from './platform/build/files';
export type { LocalFile, UploadPlan } from './platform/build/upload';
export { multipartBody, planUpload } from './platform/build/upload';

export interface BuildClientOptions extends Omit<ClientOptions, 'baseUrl'> {
  /** The profile's platform URL (`https://tenant/api`); the build API is beside it. */
  platformUrl: string;
  token: () => Promise<string | undefined>;
}

/** The build operations that are one call each. */
const ROWS = { ...FILES, ...BRANCHES, ...GIT, ...UPLOAD, ...CREATION };

export class BuildClient extends OperationsClient(ROWS, { uploadFile }) {
  private readonly t: PlatformTransport;

  constructor(opts: BuildClientOptions) {
    // Based at the tenant's root: the build rows carry their published paths (`/build/api/...`) whole.
    const { platformUrl, token, ...rest } = opts;
    const http = new HttpClient({
      ...rest,
      baseUrl: tenantUrlOf(platformUrl),
      family: 'platform',
      auth: token,
    });
    const t = new PlatformTransport(http, opts.logger);
    super(t);
    this.t = t;
  }

  close(): Promise<void> {
    return this.t.http.close();
  }

  /** Every branch of the deployment, page after page. */
  allBranches(deploymentId: number, signal?: AbortSignal) {
    return allBranches((...a) => this.listBranches(...a), deploymentId, signal);
  }
}
