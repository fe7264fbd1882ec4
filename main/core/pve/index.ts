/** The Proxmox VE API client's public surface. */
export type { PveApi, CallOptions, CloneParams, ResourceType, TaskLogRange, Upid } from './api';
export type * from './schemas';
export { createPveClient, type PveClient, type PveClientOptions } from './client';
export type { TlsChoice } from './tls-choice';
export { readToken, parseTokenLine, type TokenSource, type ApiToken } from './token';
export * from './errors';
export { explainPveFailure, type ExplainedFailure } from './explain';
export { parseUpid, formatUpid, taskSucceeded, type ParsedUpid } from './upid';
export { DEFAULT_REQUEST_TIMEOUT_MS } from './transport';
export { CONNECT_TIMEOUT_MS } from './connector';
