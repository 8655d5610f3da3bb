// Public surface of src/api (no vscode import anywhere below).
export * from './errors';
export * from './log';
export * from './http';
export * from './ndjson';
export * from './paging';
export { DispatcherRegistry, sharedDispatchers, type DispatcherLease } from './net/agents';
export { isLoopbackHost, matchesNoProxy, resolveProxy, buildCa, parseNoProxy } from './net/network';
export * from './schemas/data';
export * from './schemas/ai';
export * from './dataClient';
export * from './aiClient';
export * from './schemas/platform';
export * from './notificationQuery';
export * from './platformClient';
export * from './buildClient';
export { warmUp } from './warmUp';
