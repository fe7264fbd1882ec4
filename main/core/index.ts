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
export {
  migrate,
  judgeMigration,
  MIGRATE_CODES,
  type MigrateOptions,
  type MigrateResult,
  type MigrationFacts,
  type MigrationPlan,
} from './provider/migrate';
export {
  reconfigure,
  effectsOf,
  hotplugFeatures,
  RECONFIGURE_CODES,
  type ReconfigureChange,
  type ReconfigureOptions,
  type ReconfigureResult,
  type TakesEffect,
} from './provider/reconfigure';
export { recreate, recreatePhaseOf, type RecreateOptions, type RecreateResult } from './provider/recreate';
export {
  consoleUrl,
  consoleViewers,
  consoleOf,
  type ConsoleLink,
  type ConsoleTarget,
  type ConsoleViewer,
  type VmConsole,
} from './provider/console';
export { newInstanceId, type SeedSource } from './provider/seed-source';
export { OPERATION_PRIVILEGES, type ProxyOperation } from './provider/privileges';
export type { NodeCheck, CheckReason } from './provider/check';
export type { VmState } from './provider/vm-state';
export { ProviderError, isProviderError, type ProviderErrorKind, type ProviderOp, type PowerOp, type DayTwoOp } from './provider/errors';
export { ProfileSchema, parseProfile, type Profile, type ProfileInput } from './provider/profile';
export { defaultBudgets, budgetsWith, type Budgets } from './provider/budgets';
export {
  createSteps,
  deleteSteps,
  powerSteps,
  migrateSteps,
  reconfigureSteps,
  recreateSteps,
  stepsOf,
  type ProgressEvent,
  type ProgressListener,
  type PowerStep,
  type MigrateStep,
  type ReconfigureStep,
  type RecreateStep,
} from './provider/progress';
export { formatProviderId, parseProviderId } from './provider/ids';
export { vmidFor } from './provider/vmid';
