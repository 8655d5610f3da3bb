// The decisions of the deployment-management flows, apart from VS Code so they are tested in plain
// Node: the create body from the user's answers, the settings a user edits (how each is asked,
// sent and said), what a delete's answer means, the setup steps offered, and the watch of a new
// deployment's first build.
import type { CreateDeploymentInput } from '../api/platform/build/creation';
import {
  CREATION_STEPS,
  RELEASE_CHANNELS,
  type CreationStep,
  type DeploymentSettings,
  type UpdateDeploymentInput,
} from '../api/platform/deployments';
import type { BuildStatus } from '../api/platform/health';
import { isFailedBuild } from '../api/platform/health';
import { plainText } from '../explorer/labels';

/** A region as listed (`GET /v1/regions`). */
export interface RegionChoice {
  name: string;
  provider?: string | null;
}

const PROVIDERS = ['aws', 'gcp'] as const;

/**
 * The published create body: a region's provider is its cloud when it is one the document names
 * (aws, gcp), Cube Cloud's own otherwise; the target platform is that provider. An empty starter
 * project starts at the `databases` step (connecting a data source comes next); a deployment from
 * GitHub waits at `github` until a repository is connected.
 */
export function createBody(name: string, region: RegionChoice, fromGithub: boolean): CreateDeploymentInput {
  const provider = (PROVIDERS as readonly string[]).includes(region.provider ?? '')
    ? (region.provider as (typeof PROVIDERS)[number])
    : 'cubecloud';
  return {
    name: name.trim(),
    cloudProvider: provider,
    creationMethod: fromGithub ? 'github' : 'cubecloud',
    creationStep: fromGithub ? 'github' : 'databases',
    deployMode: 'git',
    isManaged: true,
    region: region.name,
    targetPlatform: region.provider ?? provider,
  };
}

/** A deployment's name as the user types it: refused when empty, kept as typed otherwise. */
export const nameRefusal = (v: string): string | undefined =>
  v.trim() ? undefined : 'Type a name for the deployment.';

/** A custom domain: empty removes it; otherwise a host name like cube.example.com. */
const HOST = /^(?=.{1,253}$)([a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?\.)+[a-z]{2,63}$/i;
export const domainRefusal = (v: string): string | undefined =>
  v.trim() === '' || HOST.test(v.trim())
    ? undefined
    : 'Type a host name like cube.example.com (no https://, no path), or leave it empty to remove it.';

/** One setting a user can edit: how it is shown now, and how it is asked and sent. */
export type SettingEdit =
  | {
      key: 'name' | 'customDomain';
      label: string;
      kind: 'text';
      refuse: (v: string) => string | undefined;
      body: (v: string) => UpdateDeploymentInput;
    }
  | {
      key: 'releaseChannel' | 'deployBranchReadOnly' | 'deployBranchMergeAllowed';
      label: string;
      kind: 'choice';
      options: { label: string; value: string | boolean }[];
      body: (v: string | boolean) => UpdateDeploymentInput;
    };

export const SETTING_EDITS: SettingEdit[] = [
  { key: 'name', label: 'Name', kind: 'text', refuse: nameRefusal, body: (v) => ({ name: v.trim() }) },
  {
    key: 'customDomain',
    label: 'Custom domain',
    kind: 'text',
    refuse: domainRefusal,
    body: (v) => ({ customDomain: v.trim() === '' ? '' : v.trim().toLowerCase() }),
  },
  {
    key: 'releaseChannel',
    label: 'Release channel',
    kind: 'choice',
    options: RELEASE_CHANNELS.map((c) => ({ label: c, value: c })),
    body: (v) => ({ releaseChannel: v as (typeof RELEASE_CHANNELS)[number] }),
  },
  {
    key: 'deployBranchReadOnly',
    label: 'Deploy branch read-only',
    kind: 'choice',
    options: [
      { label: 'On', value: true },
      { label: 'Off', value: false },
    ],
    body: (v) => ({ deployBranchReadOnly: v === true }),
  },
  {
    key: 'deployBranchMergeAllowed',
    label: 'Merges into the deploy branch allowed',
    kind: 'choice',
    options: [
      { label: 'On', value: true },
      { label: 'Off', value: false },
    ],
    body: (v) => ({ deployBranchMergeAllowed: v === true }),
  },
];

/** A setting's value as a person reads it. */
export function shownValue(s: DeploymentSettings, key: SettingEdit['key']): string {
  const v = (s as Record<string, unknown>)[key];
  if (v === true) return 'On';
  if (v === false) return 'Off';
  if (v === null || v === undefined || v === '') return 'none';
  return String(v);
}

/**
 * Whether an edit's body would leave every setting as it is (an empty custom domain is the same as
 * none): accepting the value shown, or picking the current choice, sends nothing.
 */
export function unchangedEdit(s: DeploymentSettings, body: UpdateDeploymentInput): boolean {
  const same = (a: unknown, b: unknown): boolean =>
    a === b || ((a === '' || a === null || a === undefined) && (b === '' || b === null || b === undefined));
  return Object.entries(body).every(([k, v]) => same((s as Record<string, unknown>)[k], v));
}

/**
 * What the user is told once the server confirms an edit, from what it answers (not what was
 * typed): a rename names the old and the new name, any other setting its new value.
 */
export function savedEditMessage(before: string, saved: DeploymentSettings, edit: SettingEdit): string {
  const after = plainText(saved.name);
  if (edit.key === 'name') return `Renamed the deployment "${plainText(before)}" to "${after}".`;
  return `Saved: ${edit.label.toLowerCase()} of "${after}" is ${plainText(shownValue(saved, edit.key))}.`;
}

/** What a delete's answer means: only `success: true` confirms it. */
export function deleteOutcome(r: { success?: boolean }): 'deleted' | 'refused' | 'unknown' {
  return r.success === true ? 'deleted' : r.success === false ? 'refused' : 'unknown';
}

/** The onboarding steps in words (unknown ones are shown as sent). */
const STEP_WORDS: Record<CreationStep, string> = {
  project: 'Project: choose how the project is created',
  upload: 'Upload: upload the data model files',
  schema: 'Schema: generate the data model',
  github: 'GitHub: connect a repository',
  ssh: 'SSH: connect a git repository over SSH',
  databases: 'Databases: connect a data source',
  ready: 'Ready: setup finished',
  demo: 'Demo: a demo project',
};
export const stepWords = (s: string | null | undefined): string =>
  s ? (STEP_WORDS[s as CreationStep] ?? s) : 'not given';

/** The steps a user may move a deployment to: `ready` first (the usual end of setup). */
export function stepChoices(current: string | null | undefined): { step: CreationStep; label: string }[] {
  const order: CreationStep[] = ['ready', ...CREATION_STEPS.filter((s) => s !== 'ready' && s !== 'project')];
  return order.filter((s) => s !== current).map((step) => ({ step, label: STEP_WORDS[step] }));
}

/** Build statuses that are still running (anything else is where the build ended). */
const RUNNING = /^(pending|queued|building|in[_ ]progress|running|started)$/i;
export const buildRunning = (b: Pick<BuildStatus, 'status'>): boolean => RUNNING.test(b.status);

export type FirstBuild =
  | { outcome: 'succeeded'; status: BuildStatus }
  | { outcome: 'failed'; status: BuildStatus }
  /** Ended with a status the extension does not know: shown as sent. */
  | { outcome: 'ended'; status: BuildStatus }
  | { outcome: 'running'; status?: BuildStatus }
  | { outcome: 'cancelled' };

/**
 * Reads the first build's status until it ends, `rounds` times at most (each round waits with
 * `pause`, which answers false when the user cancelled): a build still running after that is left
 * to the user to watch (Show Build Status).
 */
export async function watchFirstBuild(
  read: () => Promise<BuildStatus>,
  pause: () => Promise<boolean>,
  rounds = 30,
): Promise<FirstBuild> {
  let last: BuildStatus | undefined;
  for (let i = 0; i < rounds; i++) {
    last = await read();
    if (!buildRunning(last))
      return {
        outcome: isFailedBuild(last) ? 'failed' : /^succe/i.test(last.status) ? 'succeeded' : 'ended',
        status: last,
      };
    if (!(await pause())) return { outcome: 'cancelled' };
  }
  return { outcome: 'running', ...(last ? { status: last } : {}) };
}
