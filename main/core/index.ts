/**
 * The core's public face: everything outside main/core imports the core
 * from here (held by eslint.config.js and `npm run structure`), so what the
 * services, the app and the scripts lean on is this one list. Nothing below
 * imports Electron; the app wires a PveApi (main/core/pve/client.ts) into it.
 */
export { createProvider, type Provider, type ProviderDeps } from './provider/provider';
export type { CallOptions, CloneGate } from './provider/calls/context';
export type { CreateRequest } from './provider/cluster/placement';
export type { BridgeKind, NodeBridge } from './provider/operations/bridges';
export type { Instance } from './provider/operations/get';
export type { ListedInstance } from './provider/operations/list';
export {
  POWER_CODES,
  DEFAULT_SHUTDOWN_TIMEOUT_SECONDS,
  type PowerOptions,
  type PowerResult,
  type PowerState,
} from './provider/operations/power';
export {
  migrate,
  judgeMigration,
  MIGRATE_CODES,
  type MigrateOptions,
  type MigrateResult,
  type MigrationFacts,
  type MigrationPlan,
} from './provider/operations/migrate';
export {
  reconfigure,
  effectsOf,
  hotplugFeatures,
  RECONFIGURE_CODES,
  type ReconfigureChange,
  type ReconfigureOptions,
  type ReconfigureResult,
  type TakesEffect,
} from './provider/operations/reconfigure';
export { recreate, recreatePhaseOf, type RecreateOptions, type RecreateResult } from './provider/operations/recreate';
export {
  consoleUrl,
  consoleViewers,
  consoleOf,
  type ConsoleLink,
  type ConsoleTarget,
  type ConsoleViewer,
  type VmConsole,
} from './provider/operations/console';
export { notesOf, setNotes, NOTES_CODES, type NotesChange, type VmNotes } from './provider/operations/notes';
export {
  createSnapshotAt,
  deleteSnapshotAt,
  listSnapshotsAt,
  rollbackSnapshotAt,
  snapshotSupportAt,
  SNAPSHOT_CODES,
  snapshotSteps,
  type SnapshotListing,
  type SnapshotOptions,
  type SnapshotPlan,
  type SnapshotResult,
  type SnapshotStep,
  type SnapshotSupport,
  type VmSnapshot,
} from './provider/operations/snapshots';
export { ownSnapshot, snapshotName, SNAPSHOT_KINDS, type DiskSnapshotVerdict, type SnapshotKind } from './provider/rules/snapshots';
export { setMarkUid, withMarkUid, MARK_UID_CODES, type MarkUidChange, type MarkUidResult, type SeedStamp } from './provider/operations/mark-uid';
export { MAX_DESCRIPTION, tagProblem } from './provider/rules/notes';
export {
  HISTORY_LIMIT,
  LOG_PAGE,
  taskHistoryOf,
  historyLogOf,
  type HistoryTask,
  type TaskHistory,
  type TaskLogPage,
} from './provider/operations/task-history';
export { newInstanceId, type SeedSource } from './provider/cluster/seed-source';
export { OPERATION_PRIVILEGES, type ProxyOperation } from './provider/rules/privileges';
export type { NodeCheck, CheckReason } from './provider/operations/check';
export type { VmState } from './provider/rules/vm-state';
export {
  ProviderError,
  isProviderError,
  type ProviderErrorKind,
  type ProviderOp,
  type PowerOp,
  type DayTwoOp,
} from './provider/rules/errors';
export { ProfileSchema, parseProfile, type Profile, type ProfileInput } from './provider/rules/profile';
export { defaultBudgets, budgetsWith, type Budgets } from './provider/rules/budgets';
export {
  createSteps,
  deleteSteps,
  powerSteps,
  migrateSteps,
  reconfigureSteps,
  recreateSteps,
  stepsOf,
  stepReporter,
  type ProgressEvent,
  type StepReporter,
  type ProgressListener,
  type PowerStep,
  type MigrateStep,
  type ReconfigureStep,
  type RecreateStep,
} from './provider/calls/progress';
export { formatProviderId, parseProviderId } from './provider/rules/ids';
export { vmidFor } from './provider/rules/vmid';

// The provider's parts the services build on: reads of a listing and of configs, marks and ownership, landing.
export { bootDisk, configOption, diskBytes, type VmConfig } from './provider/rules/boot-disk';
export { toProviderError } from './provider/rules/classify';
export type { DeleteOptions, DeleteReport } from './provider/operations/delete';
export { KeyedLock } from './provider/calls/keyed-lock';
export { judgeLandings, readLandingFacts, templateVmidFor, type Landing } from './provider/cluster/landing';
export { isCandidate } from './provider/operations/list';
export { clusterListing } from './provider/cluster/lookup';
export { parseMark, type Mark } from './provider/rules/mark';
export { driveRefs, notTheOne, readConfigs, seedHolds, vmReasonToKeep, vmsToRead, type ConfigRead } from './provider/cluster/ownership';
export { ownEntry } from './provider/cluster/placement';
export { operationsBlockedBy, OPERATOR_ROOT_PRIVILEGES, SEED_STORAGE_PRIVILEGES } from './provider/rules/privileges';
export { hasUserInfo } from './provider/rules/profile';
export { grantCommands, roleCommand } from './provider/rules/pveum';
export { isSharedStorage } from './provider/cluster/seed-source';
export { splitTags } from './provider/rules/tags';
export { isBudgetExhausted, taskWatcherFor } from './provider/calls/task-watcher';
export { runTaskStep, type TaskStep } from './provider/calls/task-step';
export { LOCK_SUSPENDED } from './provider/calls/tasks';
export { cloudInitDriveSlot, templateProblems, type TemplateNeeds, type TemplateProblem } from './provider/cluster/template';
export { guestAddress, net0Mac, needsNet0Mac } from './provider/rules/guest-address';
export { writtenMarksOf } from './provider/cluster/written-marks';

// The Proxmox API client: its port, its errors and their classes, schemas of what it reads, tokens and UPIDs.
export { apiErrorFromAnswer } from './pve/answer';
export type { PveApi } from './pve/api';
export type { TemplateBuildApi } from './pve/build-api';
export { createPveClient, type PveClient } from './pve/client';
export { createVerifyingConnector } from './pve/connector';
export { isApiError, missingPrivilege, TaskFailedError, type ApiError } from './pve/errors';
export { explainPveFailure } from './pve/explain';
export { ClassifiedError, TlsVerificationError, TokenFileError, TransportError } from './pve/failures';
export { DEFAULT_REQUESTS_PER_NODE } from './pve/node-gate';
export { DEFAULT_PACE, type PaceOptions } from './pve/pace';
export { RrdMissingError, type NodeRrdRow, type RrdApi, type VmRrdRow } from './pve/rrd-api';
export type { SnapshotApi, SnapshotEntry } from './pve/snapshot-api';
export { AgentNetworkSchema, ClusterResourcesSchema, VmConfigSchema, type ClusterResource, type StorageEntry } from './pve/schemas';
export type { TlsChoice } from './pve/tls-choice';
export { readToken, type TokenSource } from './pve/token';
export { parseUpid, taskSucceeded } from './pve/upid';

// The NoCloud seed ISO.
export { buildSeedIso } from './seed/nocloud';

// The template builder (issue 14).
export {
  buildSteps,
  buildTemplate,
  cleanupTemplateBuild,
  TemplateBuildError,
  type BuildBudgets,
  type BuildProgressEvent,
  type Leftover,
} from './templates/build';
export { preflightVerdict, readPreflightFacts, type BuildTemplateRequest } from './templates/preflight';
export { BUILD_IMAGE_KEY, buildIdOf } from './templates/recipe';
