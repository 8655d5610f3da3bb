// The dashboard config of spec 2.6-2.8 (layout, theme, widgets) and the publish input of 4.2, with
// descriptions for the JSON Schema of `*.dashboard.json` (src/dashboards/dashboardSchema.ts). Loose
// objects: fields the user or the service adds are kept.
import { EDITOR_BREAKPOINTS, EDITOR_WIDGET_TYPES } from '../../shared/dashboardEditorProtocol';
import { z } from 'zod';

const BREAKPOINTS = EDITOR_BREAKPOINTS;
export type Breakpoint = (typeof BREAKPOINTS)[number];
export const BREAKPOINT_KEYS = BREAKPOINTS;

const id = z.number().int();

// ---- 2.6 - 2.8 dashboard config (publish input shapes, with descriptions for the JSON Schema)

const gridBox = z
  .looseObject({
    h: z.number().describe('Height in grid rows.'),
    w: z.number().describe('Width in grid columns.'),
    x: z.number().describe('Column of the left edge (0-based).'),
    y: z.number().describe('Row of the top edge (0-based).'),
  })
  .describe('A position and size on the grid.');

const perBreakpoint = <T extends z.ZodType>(value: T, what: string) =>
  z
    .looseObject(
      Object.fromEntries(
        BREAKPOINTS.map((b) => [b, value.nullable().optional().describe(`${what} at the ${b} breakpoint.`)]),
      ) as Record<Breakpoint, z.ZodOptional<z.ZodNullable<T>>>,
    )
    .describe(`${what} per breakpoint (keys lg, md, sm, xs, xxs).`);

export const LayoutSchema = z
  .looseObject({
    breakpoints: perBreakpoint(z.number(), 'Minimum container width in pixels').nullable().optional(),
    cols: perBreakpoint(z.number(), 'Number of grid columns').nullable().optional(),
    containerPadding: z
      .array(z.number())
      .nullable()
      .optional()
      .describe('Padding of the grid container, [x, y] in pixels.'),
    margin: z.array(z.number()).nullable().optional().describe('Space between widgets, [x, y] in pixels.'),
    rowHeight: z.number().nullable().optional().describe('Height of one grid row in pixels.'),
  })
  .describe('The responsive grid the widgets are placed on.');
export type Layout = z.infer<typeof LayoutSchema>;

const str = (d: string) => z.string().nullable().optional().describe(d);
const borderSchema = z
  .looseObject({
    color: str('Border colour (CSS colour).'),
    radius: str('Corner radius (CSS length).'),
    style: str('Border style (CSS border-style).'),
    width: str('Border width (CSS length).'),
  })
  .nullable()
  .optional();
const titleSchema = z
  .looseObject({
    color: str('Title colour.'),
    fontFamily: str('Title font family.'),
    fontSize: str('Title font size.'),
    fontWeight: str('Title font weight.'),
  })
  .nullable()
  .optional();

export const ThemeSchema = z
  .looseObject({
    backgroundColor: str('Page background colour.'),
    fontFamily: str('Default font family.'),
    primaryColor: str('Accent colour.'),
    themeId: str('Id of a saved theme this one derives from.'),
    controls: z
      .looseObject({
        backgroundColor: str('Background of filter controls.'),
        padding: str('Padding of filter controls.'),
        border: borderSchema.describe('Border of filter controls.'),
        title: titleSchema.describe('Titles of filter controls.'),
      })
      .nullable()
      .optional()
      .describe('Filter and control widgets.'),
    dashboard: z
      .looseObject({
        backgroundColor: str('Dashboard background colour.'),
        padding: str('Dashboard padding.'),
      })
      .nullable()
      .optional()
      .describe('The dashboard canvas.'),
    widgets: z
      .looseObject({
        backgroundColor: str('Widget background colour.'),
        margin: str('Widget margin.'),
        padding: str('Widget padding.'),
        border: borderSchema.describe('Widget border.'),
        text: z
          .looseObject({
            codeFontFamily: str('Font family of code.'),
            color: str('Text colour.'),
            fontFamily: str('Text font family.'),
            secondaryColor: str('Secondary text colour.'),
          })
          .nullable()
          .optional()
          .describe('Widget text.'),
        title: titleSchema.describe('Widget titles.'),
      })
      .nullable()
      .optional()
      .describe('Widgets on the dashboard.'),
  })
  .describe('Colours, fonts, borders and paddings (all values are strings).');
export type Theme = z.infer<typeof ThemeSchema>;

/** The widget types the platform knows: one list with the dashboard editor, whose page cannot import src/api. */
export const WIDGET_TYPES = EDITOR_WIDGET_TYPES;

export const WidgetSchema = z
  .looseObject({
    id: z.string().describe('Widget id, unique in the dashboard.'),
    position: gridBox.describe('Position and size on the grid ({h, w, x, y}).'),
    config: z
      .record(z.string(), z.unknown())
      .nullable()
      .optional()
      .describe('Widget configuration (free-form).'),
    responsiveLayouts: perBreakpoint(gridBox, 'Position and size').nullable().optional(),
    style: z.record(z.string(), z.unknown()).nullable().optional().describe('Widget style (free-form).'),
    type: z
      .union([z.enum(WIDGET_TYPES), z.string()])
      .optional()
      .describe(`Widget type; known values: ${WIDGET_TYPES.join(', ')}.`),
  })
  .describe('A widget placed on the dashboard grid.');
export type Widget = z.infer<typeof WidgetSchema>;

export const DashboardConfigSchema = z
  .looseObject({
    title: z.string().nullable().optional().describe('Dashboard title.'),
    description: z
      .string()
      .nullable()
      .optional()
      .describe('Dashboard description (published with the dashboard).'),
    layout: LayoutSchema.nullable().optional(),
    settings: z
      .record(z.string(), z.unknown())
      .nullable()
      .optional()
      .describe('Dashboard settings (free-form).'),
    theme: ThemeSchema.nullable().optional(),
    widgets: z
      .array(WidgetSchema)
      .nullable()
      .optional()
      .describe('The widgets (optional in the publish input).'),
  })
  .describe('The dashboard: layout, theme, settings and widgets.');
export type DashboardConfig = z.infer<typeof DashboardConfigSchema>;

export const PublishDashboardInputSchema = z
  .looseObject({
    workbookId: id.min(1).describe('The workbook to publish (the only required field).'),
    dashboardId: id.nullable().optional().describe('The dashboard to update, when it exists already.'),
    allowEmbed: z
      .boolean()
      .nullable()
      .optional()
      .describe('Whether the published dashboard may be embedded.'),
    title: z.string().nullable().optional().describe('Title of the published dashboard.'),
    description: z.string().nullable().optional().describe('Description of the published dashboard.'),
    config: DashboardConfigSchema.nullable()
      .optional()
      .describe('The dashboard config; omit it to publish the saved draft.'),
  })
  .describe(
    'A dashboard to publish from a workbook (POST /v1/deployments/{deploymentId}/workbooks/{workbookId}/publish).',
  );
export type PublishDashboardInput = z.infer<typeof PublishDashboardInputSchema>;
