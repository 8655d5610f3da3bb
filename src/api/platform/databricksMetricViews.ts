// Databricks Metric Views of a deployment (in preview on the platform): the publication settings of
// one Databricks data source (read, and saved with optimistic versioning), and a preview that
// converts the deployment's views offline into Metric View YAML: started, then polled for its
// status, cancelled, or read for its result once completed. Inputs are as strict as the published
// documents; answers are read tolerantly (unknown fields and enum values kept).
import { z } from 'zod';
import { table } from './operation';
import { maybe } from './transport';

const SELECTION = ['all', 'selected', 'pattern'] as const;
const DELETION = ['retain', 'delete-managed'] as const;
const names = z.record(z.string(), z.string());
// Enum values in answers are read as text: a value the documents do not list yet is shown as it is.

export const MetricViewIntegrationSchema = z.looseObject({
  publicId: z.string(),
  deploymentId: z.number(),
  dataSourceName: z.string(),
  configurationVersion: z.number(),
  configuration: z.looseObject({
    version: z.unknown(),
    enabled: z.boolean(),
    targetCatalog: z.string(),
    targetSchema: z.string(),
    selectionMode: z.string(),
    deletionPolicy: z.string(),
    targetNamePrefix: maybe(z.string()),
    viewNames: maybe(z.array(z.string())),
    viewNameRegex: maybe(z.string()),
    targetNames: maybe(names),
    sourceOverrides: maybe(names),
  }),
  accessTest: maybe(z.record(z.string(), z.unknown())),
  createdAt: maybe(z.string()),
  updatedAt: maybe(z.string()),
});
export type MetricViewIntegration = z.infer<typeof MetricViewIntegrationSchema>;

export const SaveMetricViewIntegrationInputSchema = z.strictObject({
  /** 0 creates the settings; otherwise the `configurationVersion` last read. */
  expectedConfigurationVersion: z.number().int().min(0),
  enabled: z.boolean(),
  targetCatalog: z.string().max(255),
  targetSchema: z.string().max(255),
  selectionMode: z.enum(SELECTION),
  deletionPolicy: z.enum(DELETION).optional(),
  targetNamePrefix: z.string().max(255).optional(),
  viewNames: z.array(z.string()).max(128).optional(),
  viewNameRegex: z.string().max(128).optional(),
  targetNames: names.optional(),
  sourceOverrides: names.optional(),
});
export type SaveMetricViewIntegrationInput = z.infer<typeof SaveMetricViewIntegrationInputSchema>;

export const MetricViewPreviewInputSchema = z.strictObject({
  dataSourceName: z.string(),
  selectionMode: z.enum(SELECTION),
  /** Required only when `selectionMode` is `selected`. */
  viewNames: z.array(z.string()).nullable().optional(),
  viewNameRegex: z.string().nullable().optional(),
  targetNames: names.nullable().optional(),
  sourceOverrides: names.nullable().optional(),
});
export type MetricViewPreviewInput = z.infer<typeof MetricViewPreviewInputSchema>;

export const MetricViewPreviewStartSchema = z.looseObject({
  previewId: z.string(),
  deploymentId: z.number(),
  dataSourceName: z.string(),
  buildJobId: z.number(),
  commit: maybe(z.string()),
  reused: z.boolean(),
  status: z.string(),
  statusUrl: maybe(z.string()),
  resultUrl: maybe(z.string()),
});

export const MetricViewPreviewStatusSchema = z.looseObject({
  previewId: z.string(),
  deploymentId: z.number(),
  dataSourceName: z.string(),
  status: z.string(),
  progress: z.looseObject({
    stage: z.string(),
    percentComplete: z.number(),
    message: z.string(),
  }),
  resultAvailable: z.boolean(),
  error: maybe(z.string()),
  startedAt: maybe(z.string()),
  updatedAt: maybe(z.string()),
});
export type MetricViewPreviewStatus = z.infer<typeof MetricViewPreviewStatusSchema>;

export const MetricViewIssueSchema = z.looseObject({
  code: z.string(),
  severity: z.string(),
  stage: z.string(),
  message: z.string(),
  element: maybe(z.string()),
});

export const MetricViewResultSchema = z.looseObject({
  cubeViewName: z.string(),
  metricViewName: z.string(),
  outcome: z.string(),
  eligibleForPublication: z.boolean(),
  issues: z.array(MetricViewIssueSchema),
  datasetSources: z.array(z.record(z.string(), z.unknown())),
  counts: z.looseObject({
    dimensions: z.number(),
    measures: z.number(),
    joins: z.number(),
    warnings: z.number(),
    errors: z.number(),
  }),
  metricViewYaml: maybe(z.string()),
  metricViewSha256: maybe(z.string()),
  source: maybe(z.string()),
});
export type MetricViewResult = z.infer<typeof MetricViewResultSchema>;

export const MetricViewPreviewResultSchema = z.looseObject({
  previewId: z.string(),
  deploymentId: z.number(),
  dataSourceName: z.string(),
  buildJobId: z.number(),
  commit: maybe(z.string()),
  completedAt: maybe(z.string()),
  durationMs: maybe(z.number()),
  version: z.unknown(),
  outcome: z.string(),
  sourceSha256: maybe(z.string()),
  views: z.array(MetricViewResultSchema),
  runtime: maybe(z.record(z.string(), z.unknown())),
});
export type MetricViewPreviewResult = z.infer<typeof MetricViewPreviewResultSchema>;

const settings = '/v1/deployments/{deploymentId}/databricks-metric-view-integrations/{dataSourceName}';
const previews = '/v1/deployments/{deploymentId}/databricks-metric-view-previews';
const gonePreview =
  'The Databricks Metric View preview {previewId} no longer exists (previews are kept for at most seven days): start a new one.';

/** Reached as `platform.ops`. */
export const DATABRICKS = table(
  {
    // The documents: previews need SchemaRead or SchemaUpdate access to the deployment.
    forbidden: (what) =>
      `${what} needs access to this deployment's data model (SchemaRead or SchemaUpdate). Ask an admin to grant it.`,
    names: { dataSourceName: 'Data source name', previewId: 'Preview id' },
  },
  {
    getMetricViewIntegration: {
      method: 'GET',
      path: settings,
      kind: 'read',
      text: ['dataSourceName'],
      answer: MetricViewIntegrationSchema,
      action: 'Reading the Databricks Metric View settings',
      notFound:
        'No Databricks Metric View settings for data source "{dataSourceName}": it is not a Databricks data source of this deployment, or its settings were never saved.',
    },
    /** Optimistic versioning: `expectedConfigurationVersion` 0 creates, else the version last read. */
    saveMetricViewIntegration: {
      method: 'PUT',
      path: settings,
      kind: 'write',
      text: ['dataSourceName'],
      body: SaveMetricViewIntegrationInputSchema,
      answer: MetricViewIntegrationSchema,
      action: 'Saving the Databricks Metric View settings',
      refused: 'Settings not saved',
      notFound:
        'Data source "{dataSourceName}" is not a Databricks data source of this deployment: pick one the deployment connects to Databricks.',
      conflict:
        'The Databricks Metric View settings were changed since they were read: open them again and redo the change.',
      check: 'Open the Databricks Metric View settings again to see whether the change was saved.',
    },
    /** Queues the conversion of the latest successful build's views; poll its status, then read the result. */
    startMetricViewPreview: {
      method: 'POST',
      path: previews,
      kind: 'write',
      body: MetricViewPreviewInputSchema,
      answer: MetricViewPreviewStartSchema,
      action: 'Starting a Databricks Metric View preview',
      refused: 'Preview not started',
      notFound:
        'The data source is not a Databricks data source of this deployment: pick one the deployment connects to Databricks.',
      conflict:
        'The deployment has no successful build to convert: fix its data model and build it, then preview again.',
      check: 'Start the preview again: an exact retry while the same preview runs reuses it.',
    },
    getMetricViewPreview: {
      method: 'GET',
      path: `${previews}/{previewId}`,
      kind: 'read',
      text: ['previewId'],
      answer: MetricViewPreviewStatusSchema,
      action: 'Reading the Databricks Metric View preview',
      notFound: gonePreview,
    },
    cancelMetricViewPreview: {
      method: 'DELETE',
      path: `${previews}/{previewId}`,
      kind: 'destroy',
      text: ['previewId'],
      nothing: true,
      verb: 'Cancelling',
      action: 'Cancelling the Databricks Metric View preview',
      notFound: gonePreview,
      conflict: 'The preview has already finished: there is nothing to cancel.',
      check: 'Read the preview’s status to see whether it was cancelled.',
    },
    /** 409 while the preview runs, or when it ended without a conversion result. */
    getMetricViewPreviewResult: {
      method: 'GET',
      path: `${previews}/{previewId}/result`,
      kind: 'read',
      text: ['previewId'],
      answer: MetricViewPreviewResultSchema,
      action: 'Reading the Databricks Metric View preview result',
      notFound: gonePreview,
      conflict:
        'The preview has no result: it is still running, or it failed or was cancelled. Read its status.',
    },
  },
);
