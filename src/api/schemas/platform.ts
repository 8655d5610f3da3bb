// Platform (management) API shapes, gathered from the resource families in src/api/platform/ (each
// family keeps its own schemas next to its operations). Reads are tolerant (loose objects,
// optional/nullable as published, unknown enum values kept); inputs are strict.
export * from './dashboard';
export { PageInfoSchema, ListEnvelopeSchema } from '../platform/transport';
export * from '../platform/deployments';
export * from '../platform/workspace';
export * from '../platform/dashboards';
export * from '../platform/notifications';
export * from '../platform/dbtSync';
export * from '../platform/account';
export * from '../platform/dashboardExports';
export * from '../platform/envVars';
export * from '../platform/environmentTokens';
export * from '../platform/health';
