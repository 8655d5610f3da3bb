// The sandbox's administration data: SCIM groups, custom roles and who holds them, embed tenants'
// details (groups, users), embed sessions, and account settings. Kept in SandboxState (`admin`)
// so tests can observe effects through GET /__sandbox/state. No secret is ever stored: an OAuth
// integration records only that a client secret was sent.

import { createAttributeState, type AttributeState } from './attributeState';

export interface AdminRole {
  id: number;
  name: string;
  description: string | null;
  policies: { resourceType: string; actions: string[]; resources: string[] }[];
}

export interface EmbedTenantDetails {
  id: number;
  displayName: string | null;
  createdAt: string;
  groups: { id: number; name: string; description: string | null; members: number[] }[];
  users: {
    id: number;
    username: string;
    email: string | null;
    externalId: string | null;
    firstName: string | null;
    /** The account-wide groups provisioning gave the user (absent: never set). */
    groups?: string[];
  }[];
}

export interface EmbedSession {
  deploymentId: number;
  externalId: string;
  embedTenantName: string | null;
  publicDashboardId: string | null;
  dashboardTitle: string;
  tenantGroups: string[];
  revoked: boolean;
  at: string;
}

export interface AdminState {
  groups: { id: string; displayName: string; members: string[] }[];
  roles: AdminRole[];
  /** Role ids held, by user id. */
  roleAssignments: Record<string, number[]>;
  /** Deactivated user ids. */
  deactivated: number[];
  embedTenants: Record<string, EmbedTenantDetails>;
  embedSessions: Record<string, EmbedSession>;
  tenantSettings: Record<string, unknown>;
  regions: { id: number; name: string; title: string; provider: string; isPublic: boolean }[];
  oauthIntegrations: Record<string, unknown>[];
  /** How many times a client secret was sent, by integration id (the secret itself is dropped). */
  oauthSecretWrites: Record<number, number>;
  oidcTokenConfigs: Record<string, unknown>[];
  /** The OAuth tokens users hold (the admin token's user is 1, the member token's 2). */
  userOAuthTokens: Record<string, unknown>[];
  /** Sign-ins started and not finished yet, by their state (the sandbox's sign-in page finishes one). */
  oauthSignIns: Record<string, { userId: number; integrationId: number; at: string }>;
  /** Each user's own settings (PATCH /v1/users/me/settings merges into them), by user id. */
  userSettings: Record<string, Record<string, unknown>>;
  // users
  /** User attribute definitions and values per user. */
  attributes: AttributeState;
  /** Folders shared with an embed tenant (null: with all embed users); their workbooks are inherited. */
  embedFolderShares: { deploymentId: number; folderId: number; embedTenantName: string | null }[];
}

const AT = '2026-01-05T09:00:00.000Z';

export function createAdminState(tenants: Iterable<string>): AdminState {
  const embedTenants: Record<string, EmbedTenantDetails> = {};
  let n = 0;
  for (const name of tenants) {
    n++;
    const users = [1, 2, 3].map((u) => ({
      id: n * 100 + u,
      username: `${name}-user${u}`,
      email: `user${u}@${name}.example`,
      externalId: `${name}-ext-${u}`,
      firstName: `${name[0]!.toUpperCase()}${name.slice(1)} user ${u}`,
    }));
    embedTenants[name] = {
      id: n,
      displayName: `${name[0]!.toUpperCase()}${name.slice(1)} Inc.`,
      createdAt: AT,
      groups: [
        {
          id: n * 10 + 1,
          name: 'viewers',
          description: 'Read-only embed users',
          members: [users[0]!.id, users[1]!.id],
        },
        { id: n * 10 + 2, name: 'creators', description: null, members: [users[2]!.id] },
      ],
      users,
    };
  }
  return {
    groups: [
      { id: 'g-analysts', displayName: 'Analysts', members: ['2', '3', '4'] },
      { id: 'g-finance', displayName: 'Finance', members: ['5', '6'] },
      { id: 'g-engineering', displayName: 'Engineering', members: ['1', '7'] },
    ],
    roles: [
      {
        id: 501,
        name: 'analyst',
        description: 'Explores and downloads data in Analytics',
        policies: [
          { resourceType: 'Global', actions: ['AIBIExplore'], resources: ['All'] },
          { resourceType: 'Deployment', actions: ['DeploymentRead', 'DownloadData'], resources: ['1'] },
        ],
      },
      {
        id: 502,
        name: 'secrets-manager',
        description: 'Manages deployment secrets',
        policies: [
          { resourceType: 'Global', actions: ['AIBIDevelop'], resources: ['All'] },
          { resourceType: 'Deployment', actions: ['DeploymentRead', 'SecretsManage'], resources: ['All'] },
        ],
      },
      {
        id: 503,
        name: 'viewer',
        description: null,
        policies: [{ resourceType: 'Global', actions: ['AIBIView'], resources: ['All'] }],
      },
    ],
    roleAssignments: { '2': [501], '3': [503] },
    deactivated: [],
    embedTenants,
    embedSessions: {},
    tenantSettings: {
      auditLogEnabled: false,
      auditLogEnabledCurrent: false,
      auditLogEnabledTimestamp: 0,
      hasSupportAccess: true,
      useAIBIUserInterface: true,
      maintenanceWindowEnabled: false,
      maintenanceWindowDay: 'Sunday',
      maintenanceWindowTime: '02:00',
      oidcEnabled: false,
    },
    regions: [
      { id: 1, name: 'aws-us-east-1', title: 'AWS US East (N. Virginia)', provider: 'aws', isPublic: true },
      { id: 2, name: 'gcp-europe-west3', title: 'GCP Europe (Frankfurt)', provider: 'gcp', isPublic: true },
      { id: 3, name: 'azure-westeurope', title: 'Azure West Europe', provider: 'azure', isPublic: false },
    ],
    oauthIntegrations: [
      {
        id: 601,
        name: 'Snowflake OAuth',
        type: 'snowflake',
        authUrl: 'https://acme.snowflakecomputing.com/oauth/authorize',
        tokenUrl: 'https://acme.snowflakecomputing.com/oauth/token-request',
        clientId: 'sandbox-client',
        redirectUri: 'https://sandbox.example/oauth/callback',
        scopes: ['session:role:analyst'],
        config: null,
        createdAt: AT,
        updatedAt: AT,
      },
    ],
    oauthSecretWrites: { 601: 1 },
    oidcTokenConfigs: [
      {
        id: 701,
        name: 'warehouse-federation',
        audience: 'sts.amazonaws.com',
        audienceType: 'aws',
        isEnabled: true,
        subFormat: null,
        targetEnvVar: 'CUBEJS_DB_OIDC_TOKEN',
        customClaims: null,
        createdAt: AT,
        updatedAt: AT,
      },
    ],
    userOAuthTokens: [
      {
        id: 801,
        userId: 1,
        integrationId: 601,
        status: 'active',
        accessTokenExpiresAt: '2026-12-31T00:00:00.000Z',
        refreshTokenExpiresAt: null,
        createdAt: AT,
        updatedAt: AT,
      },
    ],
    oauthSignIns: {},
    userSettings: {
      '1': {
        alternatingRowColors: true,
        defaultDeploymentId: 1,
        locale: 'en-US',
        theme: 'system',
        timezone: 'UTC',
      },
    },
    attributes: createAttributeState(),
    embedFolderShares: [],
  };
}

/** Marks a user deactivated or not (the platform's users and SCIM's `active` share the one list). */
export function setDeactivated(admin: AdminState, userId: number, deactivated: boolean): void {
  admin.deactivated = admin.deactivated.filter((x) => x !== userId);
  if (deactivated) admin.deactivated.push(userId);
}
