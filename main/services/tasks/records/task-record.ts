/**
 * What the task manager keeps about a task, in memory and in the journal:
 * the view the renderer sees plus the request needed to run it again. The
 * cloud-init text is kept only sealed (sealer.ts), never as clear text.
 */
import type { SeedStamp } from './proxy-records';
import type { bulkParentKinds, SeedRef, TaskView } from '../../../../shared/channels/tasks';
import type { BuildRequestRecord, BuildResumeRecord } from '../../../../shared/channels/templates';
import type { ProxyEndpoint } from '../../../../shared/domain/proxy-endpoint';
import type { ProxyNetwork } from '../../../../shared/domain/proxy-network';

export interface CreateProxyInput {
  kind: 'create-proxy';
  uid: string;
  name: string;
  node: string;
  template: string;
  machineType: string;
  /** Dropped once the proxy runs or its leftovers are cleaned up (the proxy's record keeps it: proxy-records.ts). */
  sealedCloudInit?: string;
  /** The protocol and port the user-data listens on, read when it was asked for (shared/domain/proxy-endpoint.ts). */
  endpoint?: ProxyEndpoint | undefined;
  /** Issue 24: the proxy's own bridge, VLAN and static address (checked in words before the task was made). */
  network?: ProxyNetwork | undefined;
}
export interface DeleteProxyInput {
  kind: 'delete-proxy';
  providerId: string;
  /**
   * What was at the ID when the delete was asked for: the UID in the mark of
   * the VM there, or `absent`. The run destroys only a VM that still carries
   * that UID (and the name). Missing in journals written before it existed.
   */
  expect?: { uid: string } | 'absent';
}
export interface CleanUpInput {
  kind: 'clean-up';
  ofTaskId: string;
  /** The UID the create generated: Clean up destroys only a VM whose mark carries it. */
  uid: string;
  name: string;
  /** The VMID the create worked on; undefined when it stopped before it had one, and so made nothing. */
  vmid?: number;
}
export interface CleanSeedsInput {
  kind: 'clean-seeds';
  seeds: SeedRef[];
  dryRun: boolean;
  graceMinutes: number;
}
/** A bulk request's parent (it runs nothing) and the doctor take no request of their own. */
export interface NoInput {
  kind: 'doctor' | (typeof bulkParentKinds)[number];
}
/** Issue 16: one VM's power action. The run acts only on a VM that still carries this name and the mark's UID. */
export interface PowerProxyInput {
  kind: 'start-proxy' | 'shutdown-proxy' | 'stop-proxy' | 'reboot-proxy';
  clusterId: string;
  vmid: number;
  name: string;
  uid: string;
  /** Shutdown and reboot: the guest's time to power off; Wait longer doubles it. */
  timeoutSeconds?: number | undefined;
  /** Set when the last run ended because the guest ignored the shutdown request (what offers Stop it and Wait longer). */
  timedOut?: boolean | undefined;
}
export const powerKinds = ['start-proxy', 'shutdown-proxy', 'stop-proxy', 'reboot-proxy'] as const;
/** What every day-two action on one VM keeps: the VM, and the mark's UID the run must still find on it. */
interface OneVm {
  clusterId: string;
  vmid: number;
  name: string;
  uid: string;
}
/** Issue 16: one VM's migrate. `from` is journalled when the lookup finds the VM's node, so a Resume that finds it moved finishes there. */
export interface MigrateProxyInput extends OneVm {
  kind: 'migrate-proxy';
  to: string;
  from?: string | undefined;
  /** The user-data, only when the seed must be rebuilt on the target (local seed storage); dropped once moved. */
  sealedCloudInit?: string | undefined;
}
/** Issue 16: one VM's reconfigure; the instance-id of a new seed is chosen once, so a Resume builds the same bytes. */
export interface ReconfigureProxyInput extends OneVm {
  kind: 'reconfigure-proxy';
  cores?: number | undefined;
  memoryMiB?: number | undefined;
  diskGiB?: number | undefined;
  sealedCloudInit?: string | undefined;
  instanceId?: string | undefined;
  reboot?: boolean | undefined;
  /** The new user-data's protocol and port. */
  endpoint?: ProxyEndpoint | undefined;
  /** The machine type asked for (its cores and memory above): the record says it once the run ends. */
  machineType?: string | undefined;
  /** Issue 24: net0's new bridge or VLAN tag. */
  network?: Pick<ProxyNetwork, 'bridge' | 'vlanTag'> | undefined;
}
/** Issue 16: one VM's recreate: the old VM (`uid`) deleted, then the same name made again under `newUid`. */
export interface RecreateProxyInput extends OneVm {
  kind: 'recreate-proxy';
  newUid: string;
  template: string;
  machineType: string;
  /** Where the new VM goes: the old one's node. */
  node?: string | undefined;
  /** The user-data, kept until the new VM runs. */
  sealedCloudInit?: string | undefined;
  endpoint?: ProxyEndpoint | undefined;
  /** Issue 24: the old proxy's network, from its record. */
  network?: ProxyNetwork | undefined;
}
/**
 * Issue 24: one proxy's credentials rotated in place (runners/rotate-credentials.ts). The new credentials are the
 * credential store's pending ones (sealed there, never here); the seed's user-data is the record's; the instance-id
 * is chosen once, so a Resume builds the same seed bytes.
 */
export interface RotateCredentialsInput extends OneVm {
  kind: 'rotate-credentials';
  instanceId: string;
  /** The user-data the app kept for the proxy (its record's), sealed, with its credential placeholders unfilled. */
  sealedCloudInit: string;
}
/**
 * Issue 26: the mark's uid rewritten: `release-proxy` empties it (the operator's create adopts the VM), `reclaim-proxy`
 * writes the app's `uid` back while it is still empty. The run checks the name and the uid it expects right before its write.
 */
export interface MarkProxyInput extends OneVm {
  kind: 'release-proxy' | 'reclaim-proxy';
  /** A release: the seed storage whose `<name>-seed.iso` must be on the VM. */
  seedOn?: string | undefined;
  /** An undo: the seed as its release listed it; one written again since means the operator adopted the VM. */
  releasedSeed?: SeedStamp | undefined;
}
export const isMarkInput = (input: TaskInput): input is MarkProxyInput => input.kind === 'release-proxy' || input.kind === 'reclaim-proxy';
export const isPowerInput = (input: TaskInput): input is PowerProxyInput => (powerKinds as readonly string[]).includes(input.kind);
/** A template build (runners/build-template.ts): its request with every default filled in, and what its progress journalled. */
export interface BuildTemplateTaskInput {
  kind: 'build-template';
  request: BuildRequestRecord;
  resume?: BuildResumeRecord | undefined;
  /** What a failed build could not remove, in words (its own clean-up ran). */
  leftovers?: string[] | undefined;
}
/** Clean up of an interrupted, cancelled or failed build: what its journal recorded. */
export interface CleanUpBuildInput {
  kind: 'clean-up-build';
  ofTaskId: string;
  request: BuildRequestRecord;
  resume: BuildResumeRecord;
}
export type TaskInput =
  | CreateProxyInput
  | DeleteProxyInput
  | CleanUpInput
  | CleanSeedsInput
  | NoInput
  | BuildTemplateTaskInput
  | CleanUpBuildInput
  | PowerProxyInput
  | MigrateProxyInput
  | ReconfigureProxyInput
  | RecreateProxyInput
  | RotateCredentialsInput
  | MarkProxyInput;

export type TaskRecord = Omit<TaskView, 'actions'> & { input: TaskInput };

export const finishedStates: ReadonlySet<TaskView['state']> = new Set(['succeeded', 'failed', 'cancelled', 'interrupted']);

/** Still working, or cut off and not yet resolved by a resume or a clean-up: its proxy name is in use. */
export function holdsItsName(task: TaskRecord): boolean {
  if (task.state === 'queued' || task.state === 'running') return true;
  return task.state !== 'succeeded' && task.closedBy === undefined && task.kind === 'create-proxy';
}

/** The proxy name a task works on, if any. */
export function nameOf(task: TaskRecord): string | undefined {
  const input = task.input;
  if (input.kind === 'create-proxy' || input.kind === 'clean-up') return input.name;
  if (input.kind === 'delete-proxy') return input.providerId.split('/')[2];
  if (isPowerInput(input) || isMarkInput(input) || input.kind === 'migrate-proxy' || input.kind === 'reconfigure-proxy' || input.kind === 'recreate-proxy')
    return input.name;
  if (input.kind === 'rotate-credentials') return input.name;
  return undefined;
}
