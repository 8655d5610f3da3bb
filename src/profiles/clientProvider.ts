// Builds the API clients for the active profile (or a named one: a query notebook runs on the
// profile it was saved for), caches them per profile, and drops (closes) them when the profile is
// switched or edited, its secrets change, or the network settings change.
// The Data API of a deployment is reached on the host the deployment publishes (`deploymentUrl`)
// unless the profile overrides it; a deployment other than the profile's default gets a token
// minted for it from the platform token.
import * as os from 'node:os';
import * as vscode from 'vscode';
import { ApiError } from '../api/errors';
import type { ApiLogger } from '../api/log';
import type { NetworkSettings } from '../api/http';
import type { DataClient } from '../api/dataClient';
import type { AiClient, SessionSettings } from '../api/aiClient';
import type { PlatformClient } from '../api/platformClient';
import type { BuildClient } from '../api/buildClient';
import { requireTrustedWorkspace } from '../config/safetySettings';
import { lazyModule } from '../lazyModule';
import { dataApiUrlOf, defaultExternalId, jwtExpiry, sessionIdentityOf, type Profile } from './profileModel';
import type { ActiveProfile, ProfileService } from './profileService';
import type * as Api from '../api';

export interface ClientProvider {
  /**
   * For the active profile (or the named one); throws a clear error if there is none or it has no
   * token. `profile` in these methods names a configured profile to use instead of the active one.
   */
  platform(profile?: string): Promise<PlatformClient>;
  /**
   * The Data API of a deployment (argument or the profile's default): on the profile's Data API URL
   * override, else the deployment's published host; with the profile's Data API token for its
   * default deployment, else a token minted for that deployment.
   */
  data(deploymentId?: number, profile?: string): Promise<DataClient>;
  /** The build API (data-model files, branches, dev mode, git operations) of the active profile. */
  build(): Promise<BuildClient>;
  /** The Data API of a branch in dev mode: `<deploymentUrl>/dev-mode/{branch}/cubejs-api`. */
  devData(deploymentId: number | undefined, branch: string, profile?: string): Promise<DataClient>;
  /** `agentUrl` defaults to the profile's first agent. */
  ai(agentUrl?: string): Promise<AiClient>;
  /** The profile's AI session identity (internalId or externalId, else a default external id). */
  sessionSettings(): SessionSettings;
  /** Profile switched or edited, secrets or network changed: drop cached state. */
  readonly onDidChange: vscode.Event<void>;
}

export interface PlatformClientOptions {
  baseUrl: string;
  token: () => Promise<string | undefined>;
  network?: NetworkSettings;
  logger?: ApiLogger;
}

export interface ClientProviderDeps {
  profiles: ProfileService;
  logger: ApiLogger;
  network: () => Promise<NetworkSettings>;
  createPlatform: (opts: PlatformClientOptions) => PlatformClient;
}

interface Closable {
  close?(): Promise<void>;
}

interface MintedToken {
  token: string;
  expiresAt: number;
}

/** The HTTP stack loads with the first client (see src/lazy.ts). */
const api = () => lazyModule<typeof Api>('src/api/index.ts');

/** The default AI session identity: this OS user on this machine. */
export function machineExternalId(): string {
  let user = '';
  try {
    user = os.userInfo().username;
  } catch {
    // No user name (some containers): the machine id alone identifies the session.
  }
  return defaultExternalId(user, vscode.env.machineId);
}

const MINT_MARGIN_MS = 60_000;
const MINT_DEFAULT_LIFETIME_MS = 10 * 60_000;

class ProfileClients {
  platform: PlatformClient | undefined;
  build: BuildClient | undefined;
  readonly data = new Map<string, DataClient>();
  readonly ai = new Map<string, AiClient>();
  readonly minted = new Map<number, MintedToken>();
  /** Data API base URL per deployment, from its published deploymentUrl (undefined: none). */
  readonly hosts = new Map<number, Promise<string | undefined>>();

  async close(): Promise<void> {
    const all: Closable[] = [
      this.platform as Closable | undefined,
      this.build as Closable | undefined,
      ...this.data.values(),
      ...this.ai.values(),
    ].filter((c): c is Closable => !!c);
    this.platform = undefined;
    this.build = undefined;
    this.data.clear();
    this.ai.clear();
    this.minted.clear();
    this.hosts.clear();
    await Promise.allSettled(all.map((c) => c.close?.()));
  }
}

export class ProfileClientProvider implements ClientProvider, vscode.Disposable {
  private readonly emitter = new vscode.EventEmitter<void>();
  readonly onDidChange = this.emitter.event;
  private readonly cache = new Map<string, ProfileClients>();
  private networkPromise: Promise<NetworkSettings> | undefined;
  private readonly disposables: vscode.Disposable[] = [];

  constructor(private readonly deps: ClientProviderDeps) {
    const { profiles } = deps;
    this.disposables.push(
      profiles.onDidChangeActiveProfile(() => this.reset()),
      profiles.onDidChangeProfiles(() => this.reset()),
      profiles.onDidChangeSecrets(() => this.reset()),
      this.emitter,
    );
  }

  /** Drops every cached client (and the network settings) and fires onDidChange. */
  reset(): void {
    const old = [...this.cache.values()];
    this.cache.clear();
    this.networkPromise = undefined;
    void Promise.allSettled(old.map((c) => c.close()));
    this.emitter.fire();
  }

  private network(): Promise<NetworkSettings> {
    this.networkPromise ??= this.deps.network();
    return this.networkPromise;
  }

  private async current(profileName?: string): Promise<{
    active: ActiveProfile;
    profile: Profile;
    clients: ProfileClients;
    /** Where the Data API is when neither the override nor the deployment says. */
    fallbackDataUrl: string;
  }> {
    const active = profileName === undefined ? this.deps.profiles.active() : this.named(profileName);
    if (!active) {
      throw new Error(
        'No Dashboard Platform profile is active. Add a profile or choose "Sandbox" from the status bar.',
      );
    }
    let profile = active.profile;
    let fallbackDataUrl: string;
    if (active.isSandbox) {
      const h = await this.deps.profiles.sandbox.start();
      profile = { ...profile, platformUrl: h.urls.platform, dataApiUrl: h.urls.dataApi };
      profile = this.deps.profiles.get(profile.name) ?? profile;
      // The sandbox's own Data API is the fallback, not an override: its deployments publish hosts.
      fallbackDataUrl = profile.dataApiUrl ?? h.urls.dataApi;
      profile = { ...profile, dataApiUrl: undefined };
    } else {
      fallbackDataUrl = dataApiUrlOf(profile);
    }
    const key = profile.name.toLowerCase();
    let clients = this.cache.get(key);
    if (!clients) {
      clients = new ProfileClients();
      this.cache.set(key, clients);
    }
    return { active, profile, clients, fallbackDataUrl };
  }

  /** A configured profile by name (not necessarily the active one); a clear error if unknown. */
  private named(name: string): ActiveProfile {
    const profile = this.deps.profiles.get(name);
    if (!profile) {
      throw new ApiError(
        'validation',
        `There is no profile named "${name}" here. Pick a profile for the notebook, or add one with that name.`,
        { code: 'NO_PROFILE' },
      );
    }
    return { profile, isSandbox: this.deps.profiles.isSandbox(profile.name) };
  }

  /**
   * The secret before the first request: asks when sending it needs the user's decision (a
   * workspace profile not trusted yet, a token stored for another host). Requests then read it
   * without asking (`getSecret`), so a token the user did not allow for this host is never sent.
   */
  private async requireSecret(
    profile: Profile,
    kind: 'platformToken' | 'dataApiToken' | 'aiApiKey',
    what: string,
    agentUrl?: string,
  ): Promise<string> {
    const found = await this.deps.profiles.secretForUse(kind, profile.name, agentUrl);
    if (!found) {
      throw new ApiError(
        'auth',
        `Profile "${profile.name}" has no ${what}. Run "Dashboard Platform: Set Token…" to add one.`,
        { code: 'SIGNED_OUT' },
      );
    }
    return found.value;
  }

  async platform(profileName?: string): Promise<PlatformClient> {
    const { profile, clients } = await this.current(profileName);
    if (clients.platform) return clients.platform;
    const name = profile.name;
    await this.requireSecret(profile, 'platformToken', 'platform API token');
    clients.platform = this.deps.createPlatform({
      baseUrl: profile.platformUrl,
      token: async () => (await this.deps.profiles.getSecret('platformToken', name))?.value,
      network: await this.network(),
      logger: this.deps.logger,
    });
    return clients.platform;
  }

  async data(deploymentId?: number, profileName?: string): Promise<DataClient> {
    requireTrustedWorkspace('Queries');
    const { profile, clients, fallbackDataUrl } = await this.current(profileName);
    const name = profile.name;
    const deployment = deploymentId ?? profile.defaultDeploymentId;
    const { profiles } = this.deps;
    // Asks now if the stored Data API token needs a decision (another host, an untrusted profile).
    const own = (await profiles.hasSecret('dataApiToken', name))
      ? await profiles.secretForUse('dataApiToken', name)
      : undefined;
    const platformToken = await profiles.hasSecret('platformToken', name);
    // The profile's own Data API token belongs to its override host or its default deployment.
    const ownFits =
      own !== undefined &&
      (profile.dataApiUrl !== undefined ||
        deployment === undefined ||
        deployment === profile.defaultDeploymentId);
    const baseUrl =
      profile.dataApiUrl ??
      (deployment !== undefined && platformToken
        ? await this.deploymentHost(clients, deployment, name)
        : undefined) ??
      fallbackDataUrl;
    const cacheKey = `${baseUrl}|${ownFits ? 'token' : 'mint'}:${deployment ?? ''}`;
    const cached = clients.data.get(cacheKey);
    if (cached) return cached;
    let token: () => Promise<string | undefined>;
    if (ownFits) {
      token = async () => (await this.deps.profiles.getSecret('dataApiToken', name))?.value;
    } else {
      if (deployment === undefined) {
        throw new ApiError(
          'validation',
          `Profile "${name}" has no Data API token and no default deployment to mint one for. Set a Data API token or a default deployment in the profile.`,
        );
      }
      await this.requireSecret(
        profile,
        'platformToken',
        `platform API token (needed to mint a Data API token for deployment ${deployment})`,
      );
      token = () => this.mint(clients, deployment, name);
    }
    this.deps.logger.debug(
      `Data API of ${deployment !== undefined ? `deployment ${deployment}` : `profile "${name}"`}: ${baseUrl} (${ownFits ? "profile's token" : 'minted token'})`,
    );
    const client = new (api().DataClient)({
      baseUrl,
      token,
      network: await this.network(),
      logger: this.deps.logger,
      cacheKey: `${baseUrl}|${deployment ?? profile.name}`,
    });
    clients.data.set(cacheKey, client);
    return client;
  }

  async build(): Promise<BuildClient> {
    const { profile, clients } = await this.current();
    if (clients.build) return clients.build;
    const name = profile.name;
    await this.requireSecret(profile, 'platformToken', 'platform API token');
    clients.build = new (api().BuildClient)({
      platformUrl: profile.platformUrl,
      token: async () => (await this.deps.profiles.getSecret('platformToken', name))?.value,
      network: await this.network(),
      logger: this.deps.logger,
    });
    return clients.build;
  }

  async devData(deploymentId: number | undefined, branch: string, profileName?: string): Promise<DataClient> {
    requireTrustedWorkspace('Queries');
    const { profile, clients } = await this.current(profileName);
    const deployment = deploymentId ?? profile.defaultDeploymentId;
    if (deployment === undefined) {
      throw new ApiError(
        'validation',
        "A dev branch belongs to a deployment: pick the notebook's deployment first (Select Notebook Deployment…).",
      );
    }
    const d = await (await this.platform(profileName)).getDeployment(deployment);
    if (!d.deploymentUrl) {
      throw new ApiError(
        'validation',
        `Deployment "${d.name}" publishes no URL, so its branches in dev mode cannot be queried.`,
      );
    }
    const baseUrl = api().devModeDataApiUrl(d.deploymentUrl, branch);
    const cached = clients.data.get(`${baseUrl}|dev`);
    if (cached) return cached;
    const name = profile.name;
    const own = await this.deps.profiles.getSecret('dataApiToken', name);
    // The profile's own Data API token is for its default deployment; others get a minted one.
    const token =
      own !== undefined && deployment === profile.defaultDeploymentId
        ? async () => (await this.deps.profiles.getSecret('dataApiToken', name))?.value
        : () => this.mint(clients, deployment, name);
    const client = new (api().DataClient)({
      baseUrl,
      token,
      network: await this.network(),
      logger: this.deps.logger,
      cacheKey: `${baseUrl}|dev`,
    });
    clients.data.set(`${baseUrl}|dev`, client);
    return client;
  }

  /** The Data API base URL a deployment publishes, looked up once per profile (undefined: none). */
  private deploymentHost(
    clients: ProfileClients,
    deploymentId: number,
    profileName: string,
  ): Promise<string | undefined> {
    let host = clients.hosts.get(deploymentId);
    if (!host) {
      host = (async () => {
        const d = await (await this.platform(profileName)).getDeployment(deploymentId);
        const url = api().dataApiUrlOfDeployment(d);
        if (!url)
          this.deps.logger.info(`Deployment ${deploymentId} publishes no Data API URL; using the profile's.`);
        return url;
      })();
      // A failed lookup is not remembered: the next query asks again.
      host.catch(() => clients.hosts.delete(deploymentId));
      clients.hosts.set(deploymentId, host);
    }
    return host;
  }

  private async mint(clients: ProfileClients, deploymentId: number, profileName: string): Promise<string> {
    const cached = clients.minted.get(deploymentId);
    if (cached && cached.expiresAt - MINT_MARGIN_MS > Date.now()) return cached.token;
    const platform = await this.platform(profileName);
    const token = await platform.mintDataApiToken(deploymentId);
    const expiresAt = jwtExpiry(token) ?? Date.now() + MINT_DEFAULT_LIFETIME_MS;
    clients.minted.set(deploymentId, { token, expiresAt });
    this.deps.logger.debug(`Minted a Data API token for deployment ${deploymentId}`);
    return token;
  }

  async ai(agentUrl?: string): Promise<AiClient> {
    const { profile, clients } = await this.current();
    const url = agentUrl ?? profile.agents[0]?.url;
    if (!url) {
      throw new ApiError(
        'validation',
        `Profile "${profile.name}" has no AI agent. Edit the profile to add an agent URL.`,
      );
    }
    const cached = clients.ai.get(url);
    if (cached) return cached;
    await this.requireSecret(profile, 'aiApiKey', 'AI API key', url);
    const name = profile.name;
    const client = new (api().AiClient)({
      baseUrl: url,
      apiKey: async () => (await this.deps.profiles.getSecret('aiApiKey', name, url))?.value,
      network: await this.network(),
      logger: this.deps.logger,
    });
    clients.ai.set(url, client);
    return client;
  }

  sessionSettings(): SessionSettings {
    return { ...sessionIdentityOf(this.deps.profiles.active()?.profile, machineExternalId()) };
  }

  dispose(): void {
    for (const d of this.disposables.splice(0)) d.dispose();
    const old = [...this.cache.values()];
    this.cache.clear();
    void Promise.allSettled(old.map((c) => c.close()));
  }
}
