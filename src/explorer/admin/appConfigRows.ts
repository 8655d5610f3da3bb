// The app config as readable rows for the tree: every published field of AppConfigResponse under
// a name a person reads ("Creator mode › Localized titles › de: Analytik"), booleans as yes/no,
// null as "not set", the deprecated light/dark theme schemes marked as such, a published enum's
// unknown value shown as sent and marked, and every field the published schema does not name
// kept and shown under its own key. Pure (no vscode, no zod): the tree is in the startup bundle.

export interface ConfigRow {
  /** Stable within its parent (the field name or list index). */
  key: string;
  label: string;
  /** The value as shown (scalars only). */
  value?: string;
  /** Why the row is marked: deprecated, not published, unknown enum value. */
  note?: string;
  /** The raw value, for the tooltip and "Copy". */
  raw: unknown;
  children?: ConfigRow[];
}

type Obj = Record<string, unknown>;
interface FieldSpec {
  label: string;
  note?: string;
  /** The published values of an enum field. */
  values?: readonly string[];
  fields?: Record<string, FieldSpec>;
  /** Rows for each list entry (e.g. a localized title as "de: Analytik"). */
  entry?: (v: unknown, i: number) => ConfigRow;
}

const seed: Record<string, FieldSpec> = {
  color: { label: 'Colour' },
  hue: { label: 'Hue' },
  saturation: { label: 'Saturation' },
};
const scheme: Record<string, FieldSpec> = {
  accentColor: { label: 'Accent colour' },
  backgroundColor: { label: 'Background colour' },
  foregroundColor: { label: 'Foreground colour' },
  contrast: { label: 'Contrast' },
  logoUrl: { label: 'Logo URL' },
};
const DEPRECATED_SCHEME = 'deprecated: use palette and logoUrl instead';
const fontRef: Record<string, FieldSpec> = {
  fontRef: { label: 'Font' },
  fontWeight: { label: 'Weight' },
};

export const APP_CONFIG_FIELDS: Record<string, FieldSpec> = {
  appTheme: {
    label: 'Theme',
    fields: {
      palette: {
        label: 'Palette',
        fields: {
          accent: { label: 'Accent', fields: seed },
          base: { label: 'Base', fields: seed },
          contrastLevel: { label: 'Contrast level' },
          pastel: { label: 'Pastel' },
          surfaceMode: { label: 'Surface mode', values: ['neutral', 'tinted'] },
          themes: {
            label: 'Semantic colours',
            fields: {
              danger: { label: 'Danger', fields: seed },
              note: { label: 'Note', fields: seed },
              success: { label: 'Success', fields: seed },
              warning: { label: 'Warning', fields: seed },
              code: { label: 'Code', fields: { saturation: { label: 'Saturation' } } },
            },
          },
        },
      },
      logoUrl: { label: 'Logo URL' },
      typography: {
        label: 'Typography',
        fields: {
          body: { label: 'Body', fields: fontRef },
          heading: { label: 'Heading', fields: fontRef },
          fonts: {
            label: 'Fonts',
            entry: (f, i) => {
              const o = (f ?? {}) as Obj;
              const name = o['name'] ?? o['family'] ?? o['id'] ?? `font ${i + 1}`;
              return {
                key: String(i),
                label: String(name),
                value: `${o['format'] ?? ''} ${o['url'] ?? ''}`.trim(),
                raw: f,
              };
            },
          },
        },
      },
      light: { label: 'Light scheme', note: DEPRECATED_SCHEME, fields: scheme },
      dark: { label: 'Dark scheme', note: DEPRECATED_SCHEME, fields: scheme },
    },
  },
  applyThemeGlobally: { label: 'Apply theme globally' },
  creatorMode: {
    label: 'Creator mode',
    fields: {
      workspaceTitle: { label: 'Workspace title' },
      showWorkspaceTitle: { label: 'Show workspace title' },
      localizedTitles: {
        label: 'Localized titles',
        entry: (t, i) => {
          const o = (t ?? {}) as Obj;
          return {
            key: String(i),
            label: String(o['locale'] ?? '?'),
            value: String(o['value'] ?? ''),
            raw: t,
          };
        },
      },
      showGeneratedSql: { label: 'Show generated SQL' },
      showSemanticSql: { label: 'Show semantic SQL' },
    },
  },
  embedding: {
    label: 'Embedding',
    fields: {
      locale: { label: 'Locale' },
      timezone: { label: 'Time zone' },
      allowAi: { label: 'Allow AI' },
      showDashboardChat: { label: 'Dashboard chat' },
      showWorkbookChat: { label: 'Workbook chat' },
      showAiWidgets: { label: 'AI widgets' },
      enableDashboardComments: { label: 'Dashboard comments' },
    },
  },
  timezoneSettings: {
    label: 'Time zone settings',
    fields: {
      enabled: { label: 'Enabled' },
      timezone: { label: 'Time zone' },
      allowUserOverride: { label: 'Users may override' },
    },
  },
  sheetsUi: { label: 'Sheets UI', fields: { showAppliedFilters: { label: 'Show applied filters' } } },
  restrictDataDownload: { label: 'Restrict data download' },
  sheetsAgentChatEnabled: { label: 'Sheets agent chat' },
};

export const NOT_PUBLISHED = 'not in the published schema';

function scalar(v: unknown): string {
  if (v === null || v === undefined) return 'not set';
  if (typeof v === 'boolean') return v ? 'yes' : 'no';
  if (typeof v === 'string') return v === '' ? '(empty)' : v;
  if (typeof v === 'number') return String(v);
  return JSON.stringify(v);
}

const isObj = (v: unknown): v is Obj => typeof v === 'object' && v !== null && !Array.isArray(v);

function row(key: string, v: unknown, spec: FieldSpec | undefined): ConfigRow {
  const label = spec?.label ?? key;
  const note = spec ? spec.note : NOT_PUBLISHED;
  const base: ConfigRow = { key, label, raw: v, ...(note ? { note } : {}) };
  if (spec?.entry && Array.isArray(v))
    return { ...base, value: `${v.length}`, children: v.map((x, i) => spec.entry!(x, i)) };
  if (isObj(v)) return { ...base, children: rowsOf(v, spec?.fields ?? {}) };
  if (Array.isArray(v))
    return {
      ...base,
      value: `${v.length}`,
      children: v.map((x, i) =>
        row(String(i), x, spec ? { label: `${i + 1}`, fields: spec.fields ?? {} } : undefined),
      ),
    };
  const value = scalar(v);
  if (spec?.values && typeof v === 'string' && !spec.values.includes(v))
    return { ...base, value, note: `not a published value (${spec.values.join(', ')})` };
  return { ...base, value };
}

/** Rows for an object: the published fields in their reading order, then the unknown ones. */
function rowsOf(o: Obj, fields: Record<string, FieldSpec>): ConfigRow[] {
  const known = Object.keys(fields).filter((k) => k in o);
  const unknown = Object.keys(o).filter((k) => !(k in fields));
  return [...known.map((k) => row(k, o[k], fields[k])), ...unknown.map((k) => row(k, o[k], undefined))];
}

export function appConfigRows(config: Obj): ConfigRow[] {
  return rowsOf(config, APP_CONFIG_FIELDS);
}
