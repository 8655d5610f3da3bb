// Add Profile and Edit Profile as five counted steps with Back ("Add Profile (2/5)"): name,
// platform URL, platform token, the default deployment picked by name from the deployments that URL
// and token list, then a review that is a small form (environment, Data API, AI agent; each row
// changed in place) confirmed once. Optional settings never cost a step. No `vscode` here: the
// questions go through a Prompter, so the flow runs under a scripted answerer in plain Node.
import { UserCancelled } from '../log';
import type { Choice, InputQuestion, Prompter } from '../ui/prompter';
import { runSteps, type Step } from '../ui/steps';
import { originOf } from './secretBinding';
import {
  SECRET_LABELS,
  ENV_VARS,
  sessionIdProblem,
  validateAgentUrl,
  validateUrl,
  type Profile,
  type ProfileInput,
  type SecretKind,
} from './profileModel';

export type SecretsInput = Partial<Record<SecretKind, string>>;

export interface ProfileDraft {
  input: ProfileInput;
  secrets: SecretsInput;
}

/** A deployment as the picker shows it. */
export interface DeploymentChoice {
  id: number;
  name: string;
  detail?: string;
}

export interface ProfileFormDeps {
  prompter: Prompter;
  /** Why a name cannot be used (taken, reserved, no letter), or undefined. */
  nameProblem(name: string): string | undefined;
  /**
   * The deployments the platform at `platformUrl` lists for `token` (undefined: the token the
   * profile would use without one typed, or none). Throws a sentence saying what failed.
   */
  listDeployments(q: {
    name: string;
    platformUrl: string;
    token: string | undefined;
  }): Promise<{ items: DeploymentChoice[]; truncated: boolean }>;
  /** The external id chats run as when the profile sets none. */
  machineExternalId: string;
}

type Environment = 'development' | 'staging' | 'production';
const ENVIRONMENTS: { value: Environment; label: string; description?: string }[] = [
  { value: 'development', label: 'Development' },
  { value: 'staging', label: 'Staging', description: 'yellow status bar' },
  { value: 'production', label: 'Production', description: 'red status bar, writes confirmed' },
];

interface State {
  name: string;
  platformUrl: string;
  token: string;
  dataApiUrl: string;
  dataApiToken: string;
  agentUrl: string;
  aiApiKey: string;
  session: Profile['session'];
  deployment: { id: number; name?: string } | undefined;
  environment: Environment;
}

function environmentOf(p: Partial<Profile> | undefined): Environment {
  if (p?.production || p?.environment === 'production' || p?.color === 'error') return 'production';
  if (p?.environment === 'staging' || p?.color === 'warning') return 'staging';
  return 'development';
}

/**
 * Asks for every field of a profile, prefilled from `current` (Edit) or from a draft of Add the
 * user went back to edit after the connection test. Throws UserCancelled when dismissed.
 */
export async function askProfileForm(
  deps: ProfileFormDeps,
  current?: Profile,
  draft?: ProfileDraft,
): Promise<ProfileDraft> {
  const p = deps.prompter;
  const title = current ? `Edit Profile ${current.name}` : 'Add Profile';
  const pre = (draft?.input ?? current) as Partial<Profile> | undefined;
  const st: State = {
    name: pre?.name ?? '',
    platformUrl: pre?.platformUrl ?? '',
    token: draft?.secrets.platformToken ?? '',
    dataApiUrl: pre?.dataApiUrl ?? '',
    dataApiToken: draft?.secrets.dataApiToken ?? '',
    agentUrl: pre?.agents?.[0]?.url ?? '',
    aiApiKey: draft?.secrets.aiApiKey ?? '',
    session: pre?.session,
    deployment: pre?.defaultDeploymentId !== undefined ? { id: pre.defaultDeploymentId } : undefined,
    environment: environmentOf(pre),
  };
  const keepOrSet = (typed: string, kept: string) => (typed ? 'set (hidden)' : current ? kept : 'not set');

  // A step that asks for one text field of the state (trimmed), starting from its current value.
  const textStep = (
    key: 'name' | 'platformUrl' | 'token',
    q: Omit<InputQuestion, 'title' | 'value' | 'step'>,
  ): Step<State> => ({
    run: async (s, step) => {
      s[key] = (await p.input({ title, ...q, value: s[key], step })).trim();
    },
  });

  const steps: Step<State>[] = [
    textStep('name', {
      prompt: 'Profile name: how the status bar and pickers name this connection',
      placeHolder: 'Analytics EU',
      validate: (v) => deps.nameProblem(v.trim()),
    }),
    textStep('platformUrl', {
      prompt: 'Platform API base URL: your tenant host (or custom domain) followed by /api',
      placeHolder: 'https://mytenant.example.com/api',
      validate: (v) => validateUrl(v, 'platform URL'),
    }),
    textStep('token', {
      prompt: `${SECRET_LABELS.platformToken} (kept in VS Code's SecretStorage, sent only to this URL's host; ${
        current
          ? 'leave empty to keep the current one'
          : `leave empty to use ${ENV_VARS.platformToken} or set it later`
      })`,
      password: true,
    }),
    { run: (s, step) => pickDeployment(deps, title, s, step) },
    {
      // The review is a small form: confirm, or change an optional row and come back here.
      run: async (s, step) => {
        for (;;) {
          type Row =
            'confirm' | 'environment' | 'dataApiUrl' | 'dataApiToken' | 'agent' | 'identity' | 'aiKey';
          const env = ENVIRONMENTS.find((e) => e.value === s.environment)!;
          const identity = s.session?.internalId
            ? `internal user ${s.session.internalId}`
            : `external id ${s.session?.externalId ?? `${deps.machineExternalId} (this machine's default)`}`;
          const rows: Choice<Row>[] = [
            {
              label: current ? '$(check) Save the changes' : '$(check) Test the connection and save',
              description: `${s.name} · ${hostOf(s.platformUrl)}`,
              detail: [
                `Default deployment: ${deploymentText(s.deployment)}`,
                env.label,
                current ? '' : 'Nothing is saved before the test; its result is shown first',
              ]
                .filter(Boolean)
                .join(' · '),
              id: 'confirm',
              value: 'confirm',
            },
            { label: 'Environment', description: env.label, id: 'environment', value: 'environment' },
            {
              label: 'Data API URL',
              description: s.dataApiUrl || 'each deployment’s own (recommended)',
              id: 'dataApiUrl',
              value: 'dataApiUrl',
            },
            {
              label: 'Data API token',
              description: s.dataApiToken
                ? 'set (hidden)'
                : current
                  ? 'kept as it is'
                  : 'minted from the platform token when needed',
              id: 'dataApiToken',
              value: 'dataApiToken',
            },
            { label: 'AI agent URL', description: s.agentUrl || 'none', id: 'agent', value: 'agent' },
            ...(s.agentUrl
              ? [
                  {
                    label: 'AI session identity',
                    description: identity,
                    id: 'identity',
                    value: 'identity' as Row,
                  },
                  {
                    label: 'AI API key',
                    description: keepOrSet(s.aiApiKey, 'kept as it is'),
                    id: 'aiKey',
                    value: 'aiKey' as Row,
                  },
                ]
              : []),
          ];
          const row = await p.pick<Row>(title, rows, {
            placeHolder: 'Review, change a row, then confirm (or go Back)',
            step,
          });
          if (row === 'confirm') return;
          await editRow(deps, title, s, row, current !== undefined);
        }
      },
    },
  ];
  await runSteps(st, steps);

  const agents = [...(current?.agents ?? [])];
  if (st.agentUrl) {
    if (!agents.some((a) => a.url === st.agentUrl)) {
      if (agents.length && current)
        agents[0] = { ...agents[0], url: st.agentUrl, label: agents[0]?.label ?? 'Agent' };
      else agents.unshift({ label: 'Agent', url: st.agentUrl });
    }
  } else if (current) agents.shift();
  const input: ProfileInput = {
    ...current,
    name: st.name,
    platformUrl: st.platformUrl,
    dataApiUrl: st.dataApiUrl || undefined,
    agents,
    session: st.agentUrl ? st.session : current?.session,
    defaultDeploymentId: st.deployment?.id,
    production: st.environment === 'production' || undefined,
    color: st.environment === 'production' ? 'error' : st.environment === 'staging' ? 'warning' : undefined,
    environment: st.environment === 'development' ? undefined : st.environment,
  };
  const secrets: SecretsInput = {
    platformToken: st.token || undefined,
    dataApiToken: st.dataApiToken || undefined,
    aiApiKey: st.agentUrl ? st.aiApiKey || undefined : undefined,
  };
  return { input, secrets };
}

function hostOf(url: string): string {
  try {
    return new URL(url).host;
  } catch {
    return url;
  }
}

function deploymentText(d: State['deployment']): string {
  if (!d) return 'none (commands ask)';
  return d.name ?? `deployment ${d.id}`;
}

/**
 * Step 4: the deployments the URL and token list, by name; "No default deployment" first. When the
 * list cannot be read the picker says why and offers to try again, to go Back, or to go on without.
 */
async function pickDeployment(
  deps: ProfileFormDeps,
  title: string,
  s: State,
  step: { step: number; totalSteps: number },
): Promise<void> {
  type Pick = DeploymentChoice | 'none' | 'retry' | 'keep';
  for (;;) {
    let listed: DeploymentChoice[] = [];
    let truncated = false;
    let problem: string | undefined;
    try {
      ({ items: listed, truncated } = await deps.listDeployments({
        name: s.name,
        platformUrl: s.platformUrl,
        token: s.token || undefined,
      }));
    } catch (e) {
      problem = e instanceof Error ? e.message : String(e);
    }
    const known = listed.find((d) => d.id === s.deployment?.id);
    if (known) s.deployment = { id: known.id, name: known.name };
    const choices: Choice<Pick>[] = [
      ...listed.map((d) => ({
        label: d.name,
        description: `id ${d.id}`,
        ...(d.detail ? { detail: d.detail } : {}),
        id: String(d.id),
        value: d as Pick,
      })),
      ...(s.deployment && !known
        ? [
            {
              label: `Keep ${deploymentText(s.deployment)}`,
              description: problem
                ? 'could not check it'
                : truncated
                  ? 'not among those listed'
                  : 'not listed for this token',
              id: 'keep',
              value: 'keep' as Pick,
            },
          ]
        : []),
      {
        label: 'No default deployment',
        description: 'commands ask which deployment',
        id: 'none',
        value: 'none',
      },
      ...(problem
        ? [{ label: '$(refresh) Try again', detail: problem, id: 'retry', value: 'retry' as Pick }]
        : []),
    ];
    const picked = await deps.prompter.pick<Pick>(title, choices, {
      placeHolder: problem
        ? 'Could not list the deployments (see why below): go Back to fix the URL or token, or go on without'
        : listed.length === 0
          ? 'This token sees no deployments: go on without a default, or go Back to change the token'
          : 'Default deployment: the one commands use unless you pick another (type to search)',
      step,
      active: (v) =>
        typeof v === 'object' ? v.id === s.deployment?.id : v === (s.deployment ? 'keep' : 'none'),
    });
    if (picked === 'retry') continue;
    if (picked === 'none') s.deployment = undefined;
    else if (picked !== 'keep') s.deployment = { id: picked.id, name: picked.name };
    return;
  }
}

async function editRow(
  deps: ProfileFormDeps,
  title: string,
  s: State,
  row: 'environment' | 'dataApiUrl' | 'dataApiToken' | 'agent' | 'identity' | 'aiKey',
  editing: boolean,
): Promise<void> {
  const p = deps.prompter;
  // A row's question dismissed with Escape returns to the review, not out of the whole flow.
  try {
    if (row === 'environment') {
      s.environment = await p.pick(
        `${title}: environment`,
        ENVIRONMENTS.map((e) => ({
          label: e.label,
          description: e.description,
          id: e.value,
          value: e.value,
        })),
        { active: (v) => v === s.environment, placeHolder: 'Production asks before every write' },
      );
    } else if (row === 'dataApiUrl') {
      s.dataApiUrl = (
        await p.input({
          title: `${title}: Data API URL`,
          prompt:
            'Leave empty: each deployment is queried on the host it publishes. Set it only to send every query to one Data API, e.g. through a gateway.',
          placeHolder: 'empty = each deployment’s own (recommended)',
          value: s.dataApiUrl,
          validate: (v) => (v.trim() ? validateUrl(v, 'Data API URL') : undefined),
        })
      ).trim();
    } else if (row === 'dataApiToken') {
      s.dataApiToken = (
        await p.input({
          title: `${title}: Data API token`,
          prompt: `${SECRET_LABELS.dataApiToken} (optional: ${editing ? 'leave empty to keep the current one' : 'leave empty to mint one from the platform token'})`,
          password: true,
          value: s.dataApiToken,
        })
      ).trim();
    } else if (row === 'agent') {
      s.agentUrl = (
        await p.input({
          title: `${title}: AI agent URL`,
          prompt: 'AI agent URL (optional; more can be added in settings). Leave empty for none.',
          placeHolder: 'https://ai.example.com/api/v1/public/{account}/agents/{agentId}',
          value: s.agentUrl,
          validate: (v) => (v.trim() ? validateAgentUrl(v) : undefined),
        })
      ).trim();
    } else if (row === 'identity') {
      s.session = await askIdentity(p, `${title}: AI session identity`, s.session, deps.machineExternalId);
    } else {
      s.aiApiKey = (
        await p.input({
          title: `${title}: AI API key`,
          prompt: `${SECRET_LABELS.aiApiKey} (${editing ? 'leave empty to keep the current one' : 'optional'})`,
          password: true,
          value: s.aiApiKey,
        })
      ).trim();
    }
  } catch (e) {
    if (!(e instanceof UserCancelled)) throw e;
  }
}

/** Who the AI agent answers as: an external id (default: this machine's) or an existing username. */
async function askIdentity(
  p: Prompter,
  title: string,
  current: Profile['session'],
  fallback: string,
): Promise<Profile['session']> {
  type Field = 'externalId' | 'internalId';
  const field = await p.pick<Field>(
    title,
    [
      {
        label: 'External user id',
        description: current?.externalId ?? `default: ${fallback}`,
        detail: 'Chats run as an external user with this id (lowercase).',
        id: 'externalId',
        value: 'externalId',
      },
      {
        label: 'Internal user (username)',
        description: current?.internalId ?? '',
        detail: 'Chats run as an existing user of the tenant, with that user’s permissions.',
        id: 'internalId',
        value: 'internalId',
      },
    ],
    { active: (v) => v === (current?.internalId ? 'internalId' : 'externalId') },
  );
  const value = (
    await p.input({
      title,
      prompt:
        field === 'externalId'
          ? `External user id (lowercase; leave empty for the default ${fallback})`
          : 'Username of an existing user of the tenant (often an e-mail address)',
      value: current?.[field] ?? '',
      validate: (v) =>
        field === 'internalId' && !v.trim() ? 'Enter the username.' : sessionIdProblem(field, v.trim()),
    })
  ).trim();
  const rest: Record<string, unknown> = { ...current };
  delete rest.externalId;
  delete rest.internalId;
  // An empty external id keeps the machine default (not stored, so it follows the machine).
  const session = { ...rest, ...(value ? { [field]: value } : {}) };
  return Object.keys(session).length > 0 ? session : undefined;
}

/**
 * The platform token to list deployments with while the profile is being written: the one typed,
 * else the stored one of the profile being edited, but only while the URL keeps its origin (a token
 * is never sent to a host it was not stored for).
 */
export function tokenForListing(
  typed: string | undefined,
  editing: { platformUrl: string; storedToken: () => Promise<string | undefined> } | undefined,
  platformUrl: string,
): Promise<string | undefined> {
  if (typed) return Promise.resolve(typed);
  if (!editing) return Promise.resolve(undefined);
  const same =
    originOf(editing.platformUrl) !== undefined && originOf(editing.platformUrl) === originOf(platformUrl);
  return same ? editing.storedToken() : Promise.resolve(undefined);
}
