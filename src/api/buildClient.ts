// Build API client (`<tenant>/build/api/v1/deployments/...`): the data model's files, uploads,
// branches and dev mode, and its git operations (src/api/platform/build/*). Same transport rules
// as PlatformClient: reads may be retried, writes never are.
import { HttpClient, type NetworkSettings, type RetryPolicy } from './http';
import type { ApiLogger } from './log';
import type { DispatcherRegistry } from './net/agents';
import type { PageParams } from './paging';
import * as branches from './platform/build/branches';
import { buildApiUrlOf } from './platform/build/common';
import * as files from './platform/build/files';
import * as git from './platform/build/git';
import * as upload from './platform/build/upload';
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

export interface BuildClientOptions {
  /** The profile's platform URL (`https://tenant/api`); the build API is beside it. */
  platformUrl: string;
  token: () => Promise<string | undefined>;
  network?: NetworkSettings;
  logger?: ApiLogger;
  retry?: RetryPolicy;
  dispatchers?: DispatcherRegistry;
}

export class BuildClient {
  private readonly t: PlatformTransport;

  constructor(opts: BuildClientOptions) {
    const http = new HttpClient({
      baseUrl: buildApiUrlOf(opts.platformUrl),
      family: 'platform',
      auth: opts.token,
      network: opts.network,
      logger: opts.logger,
      retry: opts.retry,
      dispatchers: opts.dispatchers,
    });
    this.t = new PlatformTransport(http, opts.logger);
  }

  close(): Promise<void> {
    return this.t.http.close();
  }

  // ---- files

  listFiles(
    deploymentId: number,
    opts?: { branchName?: string; withContent?: boolean; signal?: AbortSignal },
  ) {
    return files.listFiles(this.t, deploymentId, opts);
  }
  fileHashes(deploymentId: number, opts?: { branchName?: string; signal?: AbortSignal }) {
    return files.fileHashes(this.t, deploymentId, opts);
  }
  updateFiles(
    deploymentId: number,
    branchName: string,
    list: { path: string; content: string }[],
    signal?: AbortSignal,
  ) {
    return files.updateFiles(this.t, deploymentId, { branchName, files: list }, signal);
  }
  removeFiles(deploymentId: number, branchName: string, paths: string[], signal?: AbortSignal) {
    return files.removeFiles(
      this.t,
      deploymentId,
      { branchName, files: paths.map((path) => ({ path })) },
      signal,
    );
  }
  renameFiles(
    deploymentId: number,
    branchName: string,
    list: { path: string; newPath: string }[],
    signal?: AbortSignal,
  ) {
    return files.renameFiles(this.t, deploymentId, { branchName, files: list }, signal);
  }
  validate(deploymentId: number, opts?: { branchName?: string; devMode?: boolean; signal?: AbortSignal }) {
    return files.validate(this.t, deploymentId, opts);
  }

  // ---- branches and dev mode

  listBranches(deploymentId: number, p?: PageParams, signal?: AbortSignal) {
    return branches.listBranches(this.t, deploymentId, p, signal);
  }
  allBranches(deploymentId: number, signal?: AbortSignal) {
    return branches.allBranches(this.t, deploymentId, signal);
  }
  createBranch(
    deploymentId: number,
    input: { name: string; from?: string; activate?: boolean },
    signal?: AbortSignal,
  ) {
    return branches.createBranch(this.t, deploymentId, input, signal);
  }
  removeBranch(deploymentId: number, branchName: string, signal?: AbortSignal) {
    return branches.removeBranch(this.t, deploymentId, branchName, signal);
  }
  /** Turns a shared branch's always-on staging environment on or off; answers the branch. */
  setBranchStagingEnvironment(
    deploymentId: number,
    input: { branchName?: string; branchId?: number; enabled: boolean },
    signal?: AbortSignal,
  ) {
    return branches.setBranchStagingEnvironment(this.t, deploymentId, input, signal);
  }
  startDevMode(deploymentId: number, branchName: string, signal?: AbortSignal) {
    return branches.startDevMode(this.t, deploymentId, branchName, signal);
  }
  stopDevMode(deploymentId: number, signal?: AbortSignal) {
    return branches.stopDevMode(this.t, deploymentId, signal);
  }

  // ---- git

  commit(deploymentId: number, input: { message: string; exitDevMode?: boolean }, signal?: AbortSignal) {
    return git.commit(this.t, deploymentId, input, signal);
  }
  pull(deploymentId: number, branchName: string, signal?: AbortSignal) {
    return git.pull(this.t, deploymentId, branchName, signal);
  }
  mergeIntoParent(
    deploymentId: number,
    input: { branchName: string; message?: string; deleteBranch?: boolean; switchToParentBranch?: boolean },
    signal?: AbortSignal,
  ) {
    return git.mergeIntoParent(this.t, deploymentId, input, signal);
  }
  mergeToDefault(
    deploymentId: number,
    input: { branchName: string; message: string; removeBranchAfterMerge?: boolean },
    signal?: AbortSignal,
  ) {
    return git.mergeToDefault(this.t, deploymentId, input, signal);
  }

  // ---- upload transaction

  startUpload(deploymentId: number, opts?: { branchName?: string; signal?: AbortSignal }) {
    return upload.startUpload(this.t, deploymentId, opts);
  }
  uploadFile(
    deploymentId: number,
    transaction: string,
    file: upload.LocalFile,
    opts?: { branchName?: string; signal?: AbortSignal },
  ) {
    return upload.uploadFile(this.t, deploymentId, transaction, file, opts);
  }
  finishUpload(
    deploymentId: number,
    input: {
      transaction: { id: string };
      files: Record<string, { hash: string }>;
      commitMessage?: string;
      autoRemoveFiles?: boolean;
    },
    opts?: { branchName?: string; signal?: AbortSignal },
  ) {
    return upload.finishUpload(this.t, deploymentId, input, opts);
  }
}
