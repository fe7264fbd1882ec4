/**
 * The core's public face: the Proxmox provider. Nothing below imports
 * Electron; the app wires a PveApi (main/core/pve/client.ts) into it.
 */
export { createProvider, type Provider, type ProviderDeps } from './provider/provider';
export type { CallOptions, CloneGate } from './provider/context';
export type { CreateRequest } from './provider/placement';
export type { Instance } from './provider/get';
export type { ListedInstance } from './provider/list';
export { POWER_CODES, DEFAULT_SHUTDOWN_TIMEOUT_SECONDS, type PowerOptions, type PowerResult, type PowerState } from './provider/power';
export type { NodeCheck, CheckReason } from './provider/check';
export type { VmState } from './provider/vm-state';
export { ProviderError, isProviderError, type ProviderErrorKind, type ProviderOp, type PowerOp } from './provider/errors';
export { ProfileSchema, parseProfile, type Profile, type ProfileInput } from './provider/profile';
export { defaultBudgets, budgetsWith, type Budgets } from './provider/budgets';
export { createSteps, deleteSteps, powerSteps, type ProgressEvent, type ProgressListener, type PowerStep } from './provider/progress';
export { formatProviderId, parseProviderId } from './provider/ids';
export { vmidFor } from './provider/vmid';
