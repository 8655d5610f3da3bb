// Deterministic sample data for the Platform API: the same seed gives the same deployments,
// folders, reports, workbooks, notifications, users and tenants on every start. Every item carries
// the fields the published documents require; some fields the documents allow to be null are null.
import { rng } from '../../shared/random';
import { CUTS, SUBJECTS, dashboardConfig } from './seedDashboards';

export type Row = Record<string, unknown> & { id: number };

/** A notification recipient as the documents publish it (`NotificationRecipient`). */
export interface Recipient {
  type: 'USER' | 'EMBED_USER' | 'SLACK';
  userId?: number | null;
  email?: string | null;
  username?: string | null;
  embedUserId?: number | null;
  embedTenantName?: string | null;
  externalId?: string | null;
  channelId?: string | null;
  channelName?: string | null;
  /** When it was added (newest first in lists); not sent. */
  addedAt?: number;
}

export interface PlatformData {
  deployments: Row[];
  environments: Map<number, Record<string, unknown>[]>;
  folders: Map<number, Row[]>;
  reports: Map<number, Row[]>;
  workbooks: Map<number, Row[]>;
  notifications: Map<number, Row[]>;
  recipients: Map<number, Recipient[]>;
  envVars: Map<number, { name: string; value: string }[]>;
  /** Tenant users (served as SCIM Users). */
  users: Row[];
  embedTenants: Set<string>;
  appConfig: Record<string, unknown>;
  nextId: () => number;
}

const FOLDER_NAMES = [
  'Finance',
  'Sales',
  'Marketing',
  'Operations',
  'Product',
  'Executive',
  'Support',
  'Growth',
];
const TIMEZONES = ['UTC', 'Europe/Berlin', 'America/New_York', 'Asia/Tokyo', 'Europe/London'];
const BASE_TIME = Date.UTC(2026, 0, 5, 9, 0, 0);

const iso = (ms: number) => new Date(ms).toISOString();

/** Public ids as the documents constrain them: exactly 12 letters and digits, e.g. pub1x0000003. */
export function publicIdOf(prefix: 'pub' | 'rep', deploymentId: number, n: number): string {
  const head = `${prefix}${deploymentId}x`;
  return `${head}${String(n).padStart(12 - head.length, '0')}`.slice(0, 12);
}

export function seedPlatform(seed = 42, notificationsInFirstDeployment = 230): PlatformData {
  const r = rng(seed);
  // Ids of created objects start above every seeded one (notifications are deployment × 100,000 + n):
  // a created notification sharing a seeded id was listed while its twin was the one changed.
  let next = 1_000_000;
  const nextId = () => ++next;
  // deploymentUrl is set by startSandbox once each deployment's Data API host listens.
  const deployments: Row[] = [
    { id: 1, name: 'Analytics', creationStep: 'ready', deploymentUrl: '' },
    { id: 2, name: 'Analytics (Production)', creationStep: 'ready', deploymentUrl: '' },
    { id: 3, name: 'Marketing Sandbox', creationStep: 'ready', deploymentUrl: '' },
  ];
  const data: PlatformData = {
    deployments,
    environments: new Map(),
    folders: new Map(),
    reports: new Map(),
    workbooks: new Map(),
    notifications: new Map(),
    recipients: new Map(),
    envVars: new Map(),
    users: [],
    embedTenants: new Set(['acme', 'globex', 'initech']),
    appConfig: {
      // Every published field (AppConfigResponse), the deprecated light/dark schemes included.
      appTheme: {
        palette: {
          accent: { color: '#4f46e5', hue: null, saturation: null },
          base: { color: null, hue: 220, saturation: 12 },
          contrastLevel: 50,
          pastel: false,
          surfaceMode: 'tinted',
          themes: {
            danger: { color: '#dc2626' },
            success: { color: 'rgb(22 163 74)' },
            code: { saturation: 40 },
          },
        },
        logoUrl: 'https://sandbox.example/logo.svg',
        typography: null,
        light: {
          accentColor: '#4f46e5',
          backgroundColor: '#ffffff',
          foregroundColor: '#111827',
          contrast: 1,
          logoUrl: 'https://sandbox.example/logo.svg',
        },
        dark: {
          accentColor: '#818cf8',
          backgroundColor: '#111827',
          foregroundColor: '#f9fafb',
          contrast: 1,
          logoUrl: 'https://sandbox.example/logo-dark.svg',
        },
      },
      applyThemeGlobally: true,
      restrictDataDownload: false,
      sheetsAgentChatEnabled: false,
      creatorMode: {
        showGeneratedSql: true,
        showSemanticSql: false,
        showWorkspaceTitle: true,
        workspaceTitle: 'Analytics',
        localizedTitles: [
          { locale: 'de', value: 'Analytik' },
          { locale: 'fr-FR', value: 'Analytique' },
        ],
      },
      embedding: {
        allowAi: true,
        enableDashboardComments: false,
        locale: 'en',
        showAiWidgets: null,
        showDashboardChat: true,
        showWorkbookChat: false,
        timezone: 'Europe/Berlin',
      },
      sheetsUi: { showAppliedFilters: true },
      timezoneSettings: { enabled: true, timezone: 'UTC', allowUserOverride: false },
    },
    nextId,
  };
  for (let u = 1; u <= 12; u++) {
    data.users.push({
      id: u,
      email: u === 1 ? 'admin@sandbox.example' : `user${u}@sandbox.example`,
      firstName: `User${u}`,
      lastName: 'Sandbox',
      role: u === 1 ? 'admin' : 'member',
      createdAt: iso(BASE_TIME - u * 86_400_000),
    });
  }
  const owner = (u: number) => {
    const user = data.users[(u - 1) % data.users.length]!;
    return { id: user.id, email: user.email, firstName: user.firstName, picture: null };
  };
  for (const d of deployments) {
    const did = d.id;
    data.environments.set(
      did,
      (['development', 'staging', 'production'] as const).map((type, i) => ({
        id: String(did * 100 + i + 1),
        type,
        branch: i === 2 ? 'main' : i === 1 ? 'staging' : null,
        user: i === 0 ? 'user2@sandbox.example' : null,
        api_credentials: [
          { type: 'rest', version: 1, url: null, host: null, port: null, database: null },
          { type: 'sql', version: 1, url: null, host: '127.0.0.1', port: 15432, database: 'db' },
        ],
      })),
    );
    const folders: Row[] = [];
    const folder = (id: number, name: string, parentId: number | null, position: number): Row => ({
      id,
      name,
      parentId,
      deploymentId: did,
      type: 'FOLDER',
      position,
      createdAt: iso(BASE_TIME + position * 3_600_000),
      updatedAt: iso(BASE_TIME + position * 7_200_000),
      createdBy: 1,
      updatedBy: position % 3 === 0 ? null : 1,
      user: position % 4 === 0 ? null : owner(1),
    });
    FOLDER_NAMES.forEach((name, i) => folders.push(folder(did * 100 + i + 1, name, null, i)));
    for (let i = 0; i < 8; i++) {
      const parent = folders[i % FOLDER_NAMES.length]!;
      const name = `${parent.name as string} ${['Archive', 'Drafts', 'Q1', 'Q2'][i % 4]}`;
      folders.push(folder(did * 100 + 20 + i, name, parent.id, i));
    }
    data.folders.set(did, folders);

    const reportCount = did === 1 ? 320 : 60;
    const reports: Row[] = [];
    for (let i = 0; i < reportCount; i++) {
      const name = `${SUBJECTS[i % SUBJECTS.length]} ${CUTS[Math.floor(i / SUBJECTS.length) % CUTS.length]}${i >= SUBJECTS.length * CUTS.length ? ` ${Math.floor(i / (SUBJECTS.length * CUTS.length)) + 1}` : ''}`;
      const created = BASE_TIME + Math.floor(r() * 300) * 86_400_000;
      const userId = 1 + (i % 4);
      reports.push({
        id: did * 10_000 + i + 1,
        publicId: publicIdOf('rep', did, i + 1),
        type: 'REPORT',
        name,
        title: i % 10 === 9 ? null : name,
        description: null,
        folderId: folders[i % folders.length]!.id,
        sqlQuery: `SELECT status, MEASURE(count) FROM orders GROUP BY 1 -- ${name}`,
        createdAt: iso(created),
        updatedAt: iso(created + Math.floor(r() * 30) * 86_400_000),
        // Not published: kept for sortBy=lastViewedAt and stripped from responses.
        _lastViewedAt: iso(created + Math.floor(r() * 60) * 86_400_000),
        createdBy: userId,
        userId,
        user: owner(userId),
        refreshedByUser: owner(userId),
        // The documents allow null: some reports say nothing about the caller's rights.
        canEdit: i % 7 === 3 ? null : true,
        canManage: i % 7 === 3 ? null : i % 5 !== 0,
        externalWorkbookPlacements: [],
        deploymentId: did,
      });
    }
    data.reports.set(did, reports);

    const workbooks: Row[] = [];
    for (let i = 0; i < 25; i++) {
      const title = `${SUBJECTS[i % SUBJECTS.length]} Dashboard${i >= SUBJECTS.length ? ` ${Math.floor(i / SUBJECTS.length) + 1}` : ''}`;
      // Widget n shows "<subject n> <cut n>", the report at 13 * n in the seeded naming order.
      const config = dashboardConfig(title, r, i % 4 === 3, (n) => {
        const k = (13 * (n % SUBJECTS.length)) % reports.length;
        return reports[k]!.id as number;
      });
      const published = i % 3 !== 2;
      const id = did * 1000 + i + 1;
      workbooks.push({
        id,
        type: 'WORKBOOK',
        name: title,
        slug: title.toLowerCase().replace(/[^a-z0-9]+/g, '-'),
        deploymentId: did,
        folderId: folders[i % FOLDER_NAMES.length]!.id,
        createdBy: 1,
        userId: 1,
        user: owner(1),
        createdAt: iso(BASE_TIME + i * 86_400_000),
        updatedAt: iso(BASE_TIME + i * 86_400_000 + 3_600_000),
        isFavorite: i % 5 === 0 ? null : false,
        meta: {},
        calculatedFields: {},
        // Draft and published are DashboardConfigs; the published Dashboard is publishedDashboard.
        dashboardDraft: config,
        dashboardPublished: published ? config : null,
        publishedDashboard: published
          ? {
              id,
              publicId: publicIdOf('pub', did, i + 1),
              deploymentId: did,
              workbookId: id,
              versionId: id * 10 + 1,
              versionNumber: 1,
              status: 'published',
              allowEmbed: i % 2 === 0,
              title: config.title ?? title,
              description: config.description ?? null,
              config,
              reportSnapshots: [],
              createdBy: null,
              fromSharedWorkspace: null,
              restrictDataDownload: null,
              useBoardDashboards: null,
            }
          : null,
      });
    }
    data.workbooks.set(did, workbooks);

    const notifCount = did === 1 ? notificationsInFirstDeployment : did === 2 ? 40 : 0;
    const notifications: Row[] = [];
    for (let i = 0; i < notifCount; i++) {
      const hour = Math.floor(r() * 24);
      const wb = workbooks[i % workbooks.length]!;
      const weekly = i % 4 === 0;
      const id = did * 100_000 + i + 1;
      // Some filters carry the flags the documents define: an edit that does not touch them must
      // keep them.
      const filters =
        i % 5 === 0
          ? [{ member: 'orders.status', operator: 'equals', value: 'shipped', caseSensitive: true }]
          : i % 5 === 1
            ? [{ member: 'customers.segment', operator: 'is_empty', value: null }]
            : i % 5 === 2
              ? [
                  {
                    member: 'orders.created_at',
                    operator: 'between',
                    value: ['2026-01-01', '2026-03-31'],
                    startInclusive: true,
                    endInclusive: false,
                  },
                  {
                    member: 'orders.status',
                    operator: 'not_equals',
                    value: 'Cancelled',
                    caseSensitive: false,
                  },
                ]
              : null;
      notifications.push({
        id,
        dashboardId: wb.id,
        deploymentId: did,
        cronExpression: weekly ? `0 ${hour} * * 1` : `0 ${hour} * * *`,
        timezone: TIMEZONES[i % TIMEZONES.length],
        isEnabled: i % 7 !== 0,
        humanReadableSchedule: weekly
          ? `Every Monday at ${String(hour).padStart(2, '0')}:00`
          : `Every day at ${String(hour).padStart(2, '0')}:00`,
        notificationEnabled: i % 9 !== 0,
        notificationAiSummary: i % 8 === 0,
        notificationFormat: i % 2 === 0 ? 'pdf' : 'png',
        filters,
        memberSwitchers: null,
        timeGrains: i % 6 === 0 ? [{ member: 'orders.created_at', grain: 'week' }] : null,
        _dashboardPublicId: (wb.publishedDashboard as { publicId?: string } | null)?.publicId ?? null,
        _createdAt: iso(BASE_TIME + i * 3_600_000),
      });
      const u = 1 + (i % 12);
      const recips: Recipient[] = [
        { type: 'USER', userId: u, email: `user${u}@sandbox.example`, username: `user${u}` },
      ];
      if (i % 3 === 0)
        recips.push({
          type: 'EMBED_USER',
          embedUserId: 5000 + (i % 10),
          embedTenantName: 'acme',
          externalId: `ext-${i % 10}`,
          email: null,
        });
      if (i % 4 === 0 && u !== 1)
        recips.push({ type: 'USER', userId: 1, email: 'admin@sandbox.example', username: 'admin' });
      if (i % 5 === 0)
        recips.push({ type: 'SLACK', channelId: `C0${1000 + (i % 7)}`, channelName: '#metrics' });
      recips.forEach((x, k) => (x.addedAt = BASE_TIME + i * 3_600_000 + k));
      data.recipients.set(id, recips);
    }
    data.notifications.set(did, notifications);
    data.envVars.set(
      did,
      [
        'CUBEJS_DB_TYPE',
        'CUBEJS_DB_HOST',
        'CUBEJS_DB_NAME',
        'CUBEJS_CACHE_TTL',
        'CUBEJS_TIMEZONE',
        'FEATURE_AI',
        'FEATURE_EMBED',
        'SANDBOX_REGION',
        'CUBEJS_DB_PASS',
      ].map((name, i) => ({ name, value: name.includes('HOST') ? '127.0.0.1' : `value-${i + 1}` })),
    );
  }
  return data;
}
