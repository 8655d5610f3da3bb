// The app config (`GET /v1/app-config`, tag "App Theme") typed as the published AppConfigResponse:
// theme (palette, logo, typography, and the deprecated light/dark schemes, kept as sent), creator
// mode with its localized titles, embedding settings, time zone settings and the Sheets UI. Read
// tolerantly: every object is loose (unknown fields survive a read and are shown as they are),
// every field is optional, ranges and enums are not enforced on read (an unknown surface mode is
// shown, not refused). The published document has no operation that writes the app config, so
// there is no input schema here.
import { z } from 'zod';
import { table } from '../operation';
import { maybe } from '../transport';

const num = z.number();

export const PaletteSeedSchema = z.looseObject({
  color: maybe(z.string()),
  hue: maybe(num),
  saturation: maybe(num),
});

export const AppThemePaletteSchema = z.looseObject({
  accent: maybe(PaletteSeedSchema),
  base: maybe(PaletteSeedSchema),
  contrastLevel: maybe(num),
  pastel: maybe(z.boolean()),
  /** Published enum neutral | tinted; other values are kept and shown. */
  surfaceMode: maybe(z.string()),
  themes: maybe(
    z.looseObject({
      code: maybe(z.looseObject({ saturation: maybe(num) })),
      danger: maybe(PaletteSeedSchema),
      note: maybe(PaletteSeedSchema),
      success: maybe(PaletteSeedSchema),
      warning: maybe(PaletteSeedSchema),
    }),
  ),
});

/** Deprecated in the published document ("use palette and logoUrl instead"); kept as sent. */
export const AppThemeSchemeSchema = z.looseObject({
  accentColor: z.string().optional(),
  backgroundColor: z.string().optional(),
  foregroundColor: z.string().optional(),
  contrast: num.optional(),
  logoUrl: z.string().optional(),
});

const FontRefSchema = z.looseObject({ fontRef: z.string().optional(), fontWeight: num.optional() });

export const AppThemeSchema = z.looseObject({
  palette: maybe(AppThemePaletteSchema),
  logoUrl: maybe(z.string()),
  typography: maybe(
    z.looseObject({
      fonts: maybe(
        z.array(
          z.looseObject({
            id: z.string().optional(),
            url: z.string().optional(),
            format: z.string().optional(),
            family: maybe(z.string()),
            name: maybe(z.string()),
          }),
        ),
      ),
      body: maybe(FontRefSchema),
      heading: maybe(FontRefSchema),
    }),
  ),
  light: maybe(AppThemeSchemeSchema),
  dark: maybe(AppThemeSchemeSchema),
});

export const LocalizedValueSchema = z.looseObject({ locale: z.string(), value: z.string() });

export const CreatorModeSchema = z.looseObject({
  localizedTitles: maybe(z.array(LocalizedValueSchema)),
  showGeneratedSql: maybe(z.boolean()),
  showSemanticSql: maybe(z.boolean()),
  showWorkspaceTitle: maybe(z.boolean()),
  workspaceTitle: maybe(z.string()),
});

export const EmbedSettingsSchema = z.looseObject({
  allowAi: maybe(z.boolean()),
  enableDashboardComments: maybe(z.boolean()),
  locale: maybe(z.string()),
  showAiWidgets: maybe(z.boolean()),
  showDashboardChat: maybe(z.boolean()),
  showWorkbookChat: maybe(z.boolean()),
  timezone: maybe(z.string()),
});

export const AppConfigResponseSchema = z.looseObject({
  appTheme: maybe(AppThemeSchema),
  applyThemeGlobally: z.boolean().optional(),
  creatorMode: maybe(CreatorModeSchema),
  embedding: maybe(EmbedSettingsSchema),
  restrictDataDownload: z.boolean().optional(),
  sheetsAgentChatEnabled: z.boolean().optional(),
  sheetsUi: maybe(z.looseObject({ showAppliedFilters: maybe(z.boolean()) })),
  timezoneSettings: maybe(
    z.looseObject({
      allowUserOverride: maybe(z.boolean()),
      enabled: maybe(z.boolean()),
      timezone: maybe(z.string()),
    }),
  ),
});
export type AppConfigResponse = z.infer<typeof AppConfigResponseSchema>;

/** The app config, reached on `PlatformClient`. */
export const APP_CONFIG = table(
  {},
  {
    getAppConfig: {
      method: 'GET',
      path: '/v1/app-config',
      answer: AppConfigResponseSchema,
      action: 'Reading the app config',
    },
  },
);
