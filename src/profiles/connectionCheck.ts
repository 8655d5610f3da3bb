// Add Profile's connection test, before anything is saved: what works (platform, Data API, AI) and
// what does not, with the reason. The platform lists deployments; the Data API reads /v1/meta on the
// profile's default deployment, else the first one listed, with the token the profile would use (its
// own, or one minted from the platform token). The AI API publishes no call that does not run the
// agent (only stream-chat-state and abort), so it is reported as not checked. No `vscode` here.
import type * as Api from '../api';
import type { NetworkSettings } from '../api/http';
import type { ApiLogger } from '../api/log';
import { dataApiUrlOf, envVarNames, type ProfileInput, type SecretKind } from './profileModel';

export type CheckState = 'works' | 'fails' | 'notChecked';

export interface CheckLine {
  part: 'Platform API' | 'Data API' | 'AI API';
  state: CheckState;
  detail: string;
}

export interface CheckDeps {
  api: Pick<typeof Api, 'PlatformClient' | 'DataClient' | 'dataApiUrlOfDeployment'>;
  network?: NetworkSettings;
  logger?: ApiLogger;
  env?: Record<string, string | undefined>;
}

type Secrets = Partial<Record<SecretKind, string>>;

function reason(e: unknown): string {
  return e instanceof Error ? e.message : String(e);
}

/** The secret typed in the flow, else the environment variable the saved profile would read. */
function secretOf(kind: SecretKind, name: string, secrets: Secrets, env: Record<string, string | undefined>) {
  const typed = secrets[kind]?.trim();
  if (typed) return typed;
  for (const v of envVarNames(kind, name, false)) if (env[v]?.trim()) return env[v]!.trim();
  return undefined;
}

export async function checkConnection(
  input: ProfileInput,
  secrets: Secrets,
  deps: CheckDeps,
  signal?: AbortSignal,
): Promise<CheckLine[]> {
  const env = deps.env ?? process.env;
  const platformToken = secretOf('platformToken', input.name, secrets, env);
  const lines: CheckLine[] = [];
  const common = { network: deps.network, logger: deps.logger };
  const ai: CheckLine = {
    part: 'AI API',
    state: 'notChecked',
    detail: input.agents?.[0]
      ? 'not checked: the AI API has no call that does not run the agent; the first chat will tell'
      : 'not checked: no agent URL',
  };
  if (!platformToken) {
    return [
      { part: 'Platform API', state: 'notChecked', detail: 'not checked: no platform token given' },
      { part: 'Data API', state: 'notChecked', detail: 'not checked: needs the platform token' },
      ai,
    ];
  }
  const platform = new deps.api.PlatformClient({
    baseUrl: input.platformUrl,
    token: async () => platformToken,
    ...common,
  });
  try {
    let deployments: Awaited<ReturnType<typeof platform.listDeployments>>['items'];
    try {
      deployments = (await platform.listDeployments({ first: 100 }, signal)).items;
      lines.push({
        part: 'Platform API',
        state: 'works',
        detail: `${deployments.length}${deployments.length === 100 ? '+' : ''} deployment${deployments.length === 1 ? '' : 's'} listed`,
      });
    } catch (e) {
      lines.push({ part: 'Platform API', state: 'fails', detail: reason(e) });
      lines.push({ part: 'Data API', state: 'notChecked', detail: 'not checked: the platform API failed' });
      return [...lines, ai];
    }
    const dep =
      deployments.find((d) => d.id === input.defaultDeploymentId) ??
      (input.defaultDeploymentId === undefined ? deployments[0] : undefined);
    if (!dep) {
      lines.push({
        part: 'Data API',
        state: 'notChecked',
        detail:
          input.defaultDeploymentId === undefined
            ? 'not checked: no deployments'
            : `not checked: deployment ${input.defaultDeploymentId} is not among the first 100 listed`,
      });
      return [...lines, ai];
    }
    lines.push(await checkData(input, secrets, env, deps, platform, dep, signal));
    return [...lines, ai];
  } finally {
    await platform.close().catch(() => undefined);
  }
}

async function checkData(
  input: ProfileInput,
  secrets: Secrets,
  env: Record<string, string | undefined>,
  deps: CheckDeps,
  platform: InstanceType<CheckDeps['api']['PlatformClient']>,
  dep: { id: number; name?: string | null; deploymentUrl?: string | null },
  signal?: AbortSignal,
): Promise<CheckLine> {
  const own = secretOf('dataApiToken', input.name, secrets, env);
  // As the client provider does: the profile's own token belongs to its override host or its
  // default deployment; any other deployment gets a minted one.
  const ownFits =
    own !== undefined && (input.dataApiUrl !== undefined || dep.id === input.defaultDeploymentId);
  const baseUrl =
    input.dataApiUrl ??
    deps.api.dataApiUrlOfDeployment(dep) ??
    dataApiUrlOf({ platformUrl: input.platformUrl, dataApiUrl: undefined });
  const where = `deployment "${dep.name ?? dep.id}"`;
  let token: string;
  try {
    token = ownFits ? own : await platform.mintDataApiToken(dep.id, { signal });
  } catch (e) {
    return { part: 'Data API', state: 'fails', detail: `minting a token for ${where}: ${reason(e)}` };
  }
  const data = new deps.api.DataClient({
    baseUrl,
    token: async () => token,
    network: deps.network,
    logger: deps.logger,
    cacheKey: `connection-check|${baseUrl}|${dep.id}`,
  });
  try {
    const meta = await data.meta({ signal, refresh: true });
    const cubes = meta.cubes?.length ?? 0;
    return { part: 'Data API', state: 'works', detail: `${cubes} cube${cubes === 1 ? '' : 's'} on ${where}` };
  } catch (e) {
    return { part: 'Data API', state: 'fails', detail: `${where}: ${reason(e)}` };
  } finally {
    await data.close().catch(() => undefined);
  }
}

/** "Platform API: works (3 deployments listed)" lines, for the message shown before saving. */
export function describeCheck(lines: CheckLine[]): string {
  const mark = { works: '✓', fails: '✗', notChecked: '–' } as const;
  return lines.map((l) => `${mark[l.state]} ${l.part}: ${l.detail}`).join('\n');
}

/** A deployment by name, for the default deployment picker of Add/Edit Profile. */
export interface ListedDeployment {
  id: number;
  name: string;
  detail?: string;
}

/**
 * The deployments `platformUrl` lists for the token typed in the flow (else the environment
 * variable the saved profile would read): every page, up to `max`. Throws the API's error, which
 * says what failed.
 */
export async function listDeploymentsFor(
  q: { name: string; platformUrl: string; token: string | undefined },
  deps: CheckDeps,
  signal?: AbortSignal,
  max = 500,
): Promise<{ items: ListedDeployment[]; truncated: boolean }> {
  const env = deps.env ?? process.env;
  const token = q.token?.trim() || secretOf('platformToken', q.name, {}, env);
  if (!token)
    throw new Error(
      `There is no platform token to list them with: go Back to enter one (or set ${envVarNames('platformToken', q.name || 'NAME', false)[0]}).`,
    );
  const platform = new deps.api.PlatformClient({
    baseUrl: q.platformUrl,
    token: async () => token,
    network: deps.network,
    logger: deps.logger,
  });
  const items: ListedDeployment[] = [];
  try {
    let after: string | undefined;
    do {
      const p = await platform.listDeployments({ first: 100, ...(after ? { after } : {}) }, signal);
      for (const d of p.items)
        items.push({
          id: d.id,
          name: d.name?.trim() || `Deployment ${d.id}`,
          ...(d.deploymentUrl ? { detail: String(d.deploymentUrl) } : {}),
        });
      after = p.pageInfo?.hasNextPage ? (p.pageInfo.endCursor ?? undefined) : undefined;
    } while (after && items.length < max);
    return { items, truncated: after !== undefined };
  } finally {
    await platform.close().catch(() => undefined);
  }
}
