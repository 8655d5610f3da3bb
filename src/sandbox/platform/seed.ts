// Deterministic sample data for the Platform API: the same seed gives the same deployments,
// folders, reports, workbooks, notifications, users and tenants on every start.

export function rng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

export type Row = Record<string, unknown> & { id: number };

export interface Recipient {
  type: 'USER' | 'EMBED_USER' | 'SLACK';
  userId?: number;
  email?: string;
  username?: string;
  embedTenantName?: string;
  externalId?: string;
}

export interface PlatformData {
  deployments: Row[];
  environments: Map<number, Row[]>;
  folders: Map<number, Row[]>;
  reports: Map<number, Row[]>;
  workbooks: Map<number, Row[]>;
  notifications: Map<number, Row[]>;
  recipients: Map<number, Recipient[]>;
  envVars: Map<number, Row[]>;
  users: Row[];
  embedTenants: Set<string>;
  appConfig: Record<string, unknown>;
  nextId: () => number;
}

const SUBJECTS = [
  'Revenue',
  'Orders',
  'Customers',
  'Churn',
  'Margin',
  'Refunds',
  'Sessions',
  'Conversion',
  'Inventory',
  'Shipping',
  'Returns',
  'Signups',
];
const CUTS = [
  'by Region',
  'by Month',
  'by Product',
  'by Channel',
  'by Segment',
  'Trend',
  'Top 10',
  'Cohorts',
  'Forecast',
  'by Country',
  'Weekly',
  'YoY',
];
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

/** Row-wraps boxes of the given sizes onto a grid of `cols` columns without overlaps. */
function pack(
  sizes: { w: number; h: number }[],
  cols: number,
): { x: number; y: number; w: number; h: number }[] {
  let x = 0;
  let y = 0;
  let rowHeight = 0;
  return sizes.map(({ w: wanted, h }) => {
    const w = Math.min(wanted, cols);
    if (x + w > cols) {
      x = 0;
      y += rowHeight;
      rowHeight = 0;
    }
    const box = { x, y, w, h };
    x += w;
    rowHeight = Math.max(rowHeight, h);
    return box;
  });
}

export function dashboardConfig(title: string, r: () => number): Record<string, unknown> {
  const types = ['CHART', 'CHART', 'TEXT', 'FILTER', 'CHART', 'TIME_GRAIN', 'CHART', 'DIVIDER'];
  const count = 4 + Math.floor(r() * 4);
  const sizes = Array.from({ length: count }, (_, i) => ({
    w: i === 0 ? 12 : 4 + 2 * Math.floor(r() * 3),
    h: i === 0 ? 2 : 3 + Math.floor(r() * 3),
  }));
  const lg = pack(sizes, 12);
  const md = pack(sizes, 10);
  const stacked = (cols: number) =>
    pack(
      sizes.map(({ h }) => ({ w: cols, h })),
      cols,
    );
  const [sm, xs, xxs] = [stacked(6), stacked(4), stacked(2)];
  const widgets = [];
  for (let i = 0; i < count; i++) {
    const type = types[i % types.length]!;
    widgets.push({
      id: `w${i + 1}`,
      type,
      position: lg[i]!,
      responsiveLayouts: { lg: lg[i]!, md: md[i]!, sm: sm[i]!, xs: xs[i]!, xxs: xxs[i]! },
      config:
        type === 'TEXT'
          ? { text: `## ${title}` }
          : {
              reportId: 1 + Math.floor(r() * 50),
              title: `${SUBJECTS[i % SUBJECTS.length]} ${CUTS[i % CUTS.length]}`,
            },
      style: {},
    });
  }
  return {
    title,
    description: `${title}: the numbers the team reviews every week.`,
    layout: {
      breakpoints: { lg: 1200, md: 996, sm: 768, xs: 480, xxs: 0 },
      cols: { lg: 12, md: 10, sm: 6, xs: 4, xxs: 2 },
      containerPadding: [16, 16],
      margin: [12, 12],
      rowHeight: 60,
    },
    settings: { kind: 'CLASSIC' },
    theme: {
      backgroundColor: '#f7f7f9',
      fontFamily: 'Inter, sans-serif',
      primaryColor: '#5b5fc7',
      dashboard: { backgroundColor: '#f7f7f9', padding: '16px' },
      widgets: {
        backgroundColor: '#ffffff',
        padding: '12px',
        margin: '0',
        border: { color: '#e1e1e8', radius: '8px', style: 'solid', width: '1px' },
        title: { color: '#1f1f29', fontFamily: 'Inter, sans-serif', fontSize: '14px', fontWeight: '600' },
        text: {
          color: '#33333d',
          secondaryColor: '#6b6b78',
          fontFamily: 'Inter, sans-serif',
          codeFontFamily: 'monospace',
        },
      },
      controls: {
        backgroundColor: '#ffffff',
        padding: '8px',
        border: { color: '#e1e1e8', radius: '6px', style: 'solid', width: '1px' },
      },
    },
    widgets,
  };
}

export function seedPlatform(seed = 42, notificationsInFirstDeployment = 230): PlatformData {
  const r = rng(seed);
  let next = 100_000;
  const nextId = () => ++next;
  const deployments: Row[] = [
    { id: 1, name: 'Analytics', region: 'eu-west-1', status: 'RUNNING', createdAt: iso(BASE_TIME) },
    {
      id: 2,
      name: 'Analytics (Production)',
      region: 'us-east-1',
      status: 'RUNNING',
      createdAt: iso(BASE_TIME + 86_400_000),
    },
    {
      id: 3,
      name: 'Marketing Sandbox',
      region: 'eu-central-1',
      status: 'RUNNING',
      createdAt: iso(BASE_TIME + 2 * 86_400_000),
    },
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
      appTheme: { primaryColor: '#5b5fc7', logoUrl: null },
      applyThemeGlobally: true,
      creatorMode: {
        showGeneratedSql: true,
        showSemanticSql: false,
        localizedTitles: [{ locale: 'de', value: 'Analytik' }],
      },
      embedding: { locale: 'en' },
    },
    nextId,
  };
  for (let u = 1; u <= 12; u++) {
    data.users.push({
      id: u,
      email: u === 1 ? 'admin@sandbox.example' : `user${u}@sandbox.example`,
      firstName: `User${u}`,
      role: u === 1 ? 'admin' : 'member',
    });
  }
  for (const d of deployments) {
    const did = d.id;
    data.environments.set(
      did,
      ['development', 'staging', 'production'].map((name, i) => ({
        id: did * 10 + i + 1,
        name,
        branch: i === 2 ? 'main' : name,
        deploymentId: did,
      })),
    );
    const folders: Row[] = [];
    FOLDER_NAMES.forEach((name, i) =>
      folders.push({ id: did * 100 + i + 1, name, parentId: null, deploymentId: did }),
    );
    for (let i = 0; i < 8; i++) {
      const parent = folders[i % FOLDER_NAMES.length]!;
      folders.push({
        id: did * 100 + 20 + i,
        name: `${parent.name as string} ${['Archive', 'Drafts', 'Q1', 'Q2'][i % 4]}`,
        parentId: parent.id,
        deploymentId: did,
      });
    }
    data.folders.set(did, folders);

    const reportCount = did === 1 ? 320 : 60;
    const reports: Row[] = [];
    for (let i = 0; i < reportCount; i++) {
      const name = `${SUBJECTS[i % SUBJECTS.length]} ${CUTS[Math.floor(i / SUBJECTS.length) % CUTS.length]}${i >= SUBJECTS.length * CUTS.length ? ` ${Math.floor(i / (SUBJECTS.length * CUTS.length)) + 1}` : ''}`;
      const created = BASE_TIME + Math.floor(r() * 300) * 86_400_000;
      reports.push({
        id: did * 10_000 + i + 1,
        name,
        title: name,
        kind: i % 3 === 0 ? 'table' : 'vega',
        folderId: folders[i % folders.length]!.id,
        sqlQuery: `SELECT status, MEASURE(count) FROM orders GROUP BY 1 -- ${name}`,
        createdAt: iso(created),
        updatedAt: iso(created + Math.floor(r() * 30) * 86_400_000),
        lastViewedAt: iso(created + Math.floor(r() * 60) * 86_400_000),
        canEdit: true,
        canManage: i % 5 !== 0,
        externalWorkbookPlacements: [],
        deploymentId: did,
      });
    }
    data.reports.set(did, reports);

    const workbooks: Row[] = [];
    for (let i = 0; i < 25; i++) {
      const title = `${SUBJECTS[i % SUBJECTS.length]} Dashboard${i >= SUBJECTS.length ? ` ${Math.floor(i / SUBJECTS.length) + 1}` : ''}`;
      const config = dashboardConfig(title, r);
      const published = i % 3 !== 2;
      workbooks.push({
        id: did * 1000 + i + 1,
        name: title,
        slug: title.toLowerCase().replace(/[^a-z0-9]+/g, '-'),
        deploymentId: did,
        folderId: folders[i % FOLDER_NAMES.length]!.id,
        createdBy: 1,
        createdAt: iso(BASE_TIME + i * 86_400_000),
        dashboardDraft: { config, title, description: config.description },
        dashboardPublished: published
          ? {
              id: did * 1000 + i + 1,
              publicId: `pub-${did}-${i + 1}`,
              versionNumber: 1,
              status: 'published',
              title,
              config,
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
      notifications.push({
        id,
        dashboardId: wb.id,
        dashboardPublicId: `pub-${did}-${(i % workbooks.length) + 1}`,
        deploymentId: did,
        cronExpression: weekly ? `0 ${hour} * * 1` : `0 ${hour} * * *`,
        timezone: TIMEZONES[i % TIMEZONES.length],
        isEnabled: i % 7 !== 0,
        humanReadableSchedule: weekly
          ? `Every Monday at ${String(hour).padStart(2, '0')}:00`
          : `Every day at ${String(hour).padStart(2, '0')}:00`,
        notificationEnabled: i % 9 !== 0,
        notificationFormat: i % 2 === 0 ? 'pdf' : 'png',
        filters: i % 5 === 0 ? [{ member: 'orders.status', operator: 'equals', value: 'shipped' }] : null,
        timeGrains: i % 6 === 0 ? [{ member: 'orders.created_at', grain: 'week' }] : null,
        createdAt: iso(BASE_TIME + i * 3_600_000),
      });
      const recips: Recipient[] = [
        { type: 'USER', userId: 1 + (i % 12), email: `user${1 + (i % 12)}@sandbox.example` },
      ];
      if (i % 3 === 0)
        recips.push({ type: 'EMBED_USER', embedTenantName: 'acme', externalId: `ext-${i % 10}` });
      if (i % 4 === 0) recips.push({ type: 'USER', userId: 1, email: 'admin@sandbox.example' });
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
      ].map((name, i) => ({
        id: did * 100 + i + 1,
        name,
        value: name.includes('HOST') ? '127.0.0.1' : `value-${i + 1}`,
        deploymentId: did,
      })),
    );
  }
  return data;
}
