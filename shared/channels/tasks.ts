/**
 * Channels and events of the task manager: long admin actions, their steps, Proxmox tasks and logs.
 *
 * Long because the IPC contract declares every task channel, event and input schema here, in the one place a
 * channel is declared, and the inputs are the schemas main checks each request with.
 */
import { ProxyNetwork } from '../domain/proxy-network';
import { z } from 'zod';
import { AppErrorValue } from '../errors';
import { boundedText, defineChannels, defineEvents, noInput } from '../define';
import { BuiltTemplateResult } from './templates';
import { powerActions } from '../domain/power-actions';
import { USER_DATA_MAX_CHARS } from '../domain/user-data';

/**
 * A proxy's name: a Proxmox VM name that is also a DNS label (it becomes
 * the guest's hostname): lower-case letters, digits and dashes, 1 to 63
 * characters, starting with a letter and not ending with a dash.
 */
export const ProxyName = z
  .string()
  .min(1)
  .max(63)
  .regex(/^[a-z]([a-z0-9-]*[a-z0-9])?$/, 'use lower-case letters, digits and dashes; start with a letter, end with a letter or digit');

export const taskStates = ['queued', 'running', 'succeeded', 'failed', 'cancelled', 'interrupted'] as const;
export const TaskState = z.enum(taskStates);
export type TaskState = z.infer<typeof TaskState>;

/**
 * `create-proxies`, `delete-proxies` and `power-proxies` are the parents of a bulk request (one child per VM, issue 16);
 * they run nothing themselves (`bulkParentKinds`).
 */
export const TaskKind = z.enum([
  'create-proxy',
  'create-proxies',
  'delete-proxy',
  'clean-up',
  'clean-seeds',
  'doctor',
  'build-template',
  'clean-up-build',
  'start-proxy',
  'shutdown-proxy',
  'stop-proxy',
  'reboot-proxy',
  'power-proxies',
  'delete-proxies',
  'migrate-proxy',
  'reconfigure-proxy',
  'recreate-proxy',
  'migrate-proxies',
  'reconfigure-proxies',
  'recreate-proxies',
  'rotate-credentials',
  /** Issue 26: the mark's uid emptied so the Kubernetes operator adopts the VM, and its undo. */
  'release-proxy',
  'reclaim-proxy',
]);
export type TaskKind = z.infer<typeof TaskKind>;

/** The kinds that only group a bulk request's children: their state, progress and summary are their children's. */
export const bulkParentKinds = [
  'create-proxies',
  'power-proxies',
  'delete-proxies',
  'migrate-proxies',
  'reconfigure-proxies',
  'recreate-proxies',
] as const satisfies readonly TaskKind[];
export const isBulkParentKind = (kind: TaskKind): boolean => (bulkParentKinds as readonly string[]).includes(kind);

export const StepView = z
  .object({
    name: z.string(),
    /**
     * `skipped`: not needed this time (already done); `cancelled`: the step the task was on when it was cancelled;
     * `not-run`: the task ended (failed or cancelled) before this step began.
     */
    state: z.enum(['pending', 'running', 'done', 'skipped', 'failed', 'cancelled', 'not-run']),
    node: z.string().optional(),
    upid: z.string().optional(),
  })
  .strict();
export type StepView = z.infer<typeof StepView>;

export const SeedRef = z.object({ node: boundedText(64), volid: boundedText(512) }).strict();
export type SeedRef = z.infer<typeof SeedRef>;

/** The name of a create's last step: the Proxmox part is done, the proxy is usable once the guest agent reports an address. */
export const ADDRESS_STEP = 'waiting for an address';

/**
 * A create's second part, after Proxmox's: the proxy's address, fed by the inventory's guest-agent reads. `waiting`
 * since the VM started; `ready` with the address; `gave-up` after the bound, with the reason and what to check.
 */
export const AddressWait = z
  .object({
    state: z.enum(['waiting', 'ready', 'gave-up']),
    value: z.string().optional(),
    /** When the wait began (the VM runs). */
    since: z.string(),
    /** When it ended (ready or gave up). */
    at: z.string().optional(),
    reason: z.string().optional(),
    hint: z.string().optional(),
  })
  .strict();
export type AddressWait = z.infer<typeof AddressWait>;

/** Where in the app a permanent failure is fixed; main derives it from the failure. */
export const FixAt = z.enum(['templates', 'settings', 'proxies', 'cleanup', 'nodes']);
export type FixAt = z.infer<typeof FixAt>;

export const SeedOutcome = z.object({ node: z.string(), volid: z.string(), reason: z.string() }).strict();

export const TaskView = z
  .object({
    id: z.string(),
    kind: TaskKind,
    clusterId: z.string(),
    /** What the task works on, in words: a proxy name, "3 proxies", "2 seeds". */
    target: z.string(),
    parentId: z.string().optional(),
    childIds: z.array(z.string()).optional(),
    node: z.string().optional(),
    vmid: z.number().optional(),
    state: TaskState,
    /** 0..1 */
    progress: z.number(),
    steps: z.array(StepView),
    upids: z.array(z.object({ upid: z.string(), node: z.string(), step: z.string() }).strict()),
    createdAt: z.string(),
    startedAt: z.string().optional(),
    endedAt: z.string().optional(),
    attempts: z.number(),
    /** A plain summary of the outcome, or why the task stopped. */
    message: z.string().optional(),
    error: AppErrorValue.optional(),
    /**
     * What the admin may do now: Retry only after a transient failure (or a cancel), Clean up only when something was
     * left; after a shutdown (or reboot) the guest ignored, Stop it (a hard stop, as a new task) and Wait longer (the
     * same request with its timeout doubled).
     */
    actions: z.array(z.enum(['cancel', 'retry', 'resume', 'clean-up', 'stop-it', 'wait-longer'])),
    /** A create's address, once Proxmox's part succeeded. */
    address: AddressWait.optional(),
    /** What a create that did not finish left in Proxmox, in words ("VM 150123 and its seed"); what Clean up deletes. */
    leftBehind: z.string().optional(),
    /** For a failure an admin must fix: where in the app to fix it. */
    fixAt: FixAt.optional(),
    /** A template build's outcome: the template, the doctor's verdict on it, and the catalogue (channels/templates.ts). */
    template: BuiltTemplateResult.optional(),
    /** Set when a later task (a clean-up) closed this one. */
    closedBy: z.string().optional(),
    seeds: z
      .object({ deleted: z.array(SeedOutcome), skipped: z.array(SeedOutcome) })
      .strict()
      .optional(),
  })
  .strict();
export type TaskView = z.infer<typeof TaskView>;

const id = boundedText(64).min(1);
const TaskId = z.object({ id }).strict();

export const CreateProxiesInput = z
  .object({
    clusterId: id,
    /** Absent: the app picks the healthy node with the fewest proxies, then the most free memory. */
    node: boundedText(64).optional(),
    template: boundedText(128).min(1),
    machineType: boundedText(128).min(1),
    /** With count > 1 a name is a prefix: `<name>-1`, `<name>-2`, … */
    name: ProxyName.optional(),
    count: z.number().int().min(1).max(50),
    cloudInit: boundedText(USER_DATA_MAX_CHARS),
    /** Issue 24: the proxies' bridge and VLAN over the profile's, and a static address (shared/domain/proxy-network.ts). */
    network: ProxyNetwork.optional(),
  })
  .strict();
export type CreateProxiesInput = z.infer<typeof CreateProxiesInput>;

export const PowerAction = z.enum(powerActions);

/** Issue 16: start, shut down, stop or reboot proxies; one task per VM, under one parent when there are several. */
export const PowerInput = z
  .object({
    clusterId: id,
    targets: z
      .array(z.object({ vmid: z.number().int().min(100).max(999_999_999), name: ProxyName }).strict())
      .min(1)
      .max(200),
    action: PowerAction,
    /** Shutdown and reboot: seconds the guest has to power off (default 60, Proxmox's own). */
    timeoutSeconds: z.number().int().min(1).max(3600).optional(),
    /** Required (`true`) when a target is operator-made: see acknowledgeOperatorWarning below. */
    acknowledgeOperatorWarning: z.literal(true).optional(),
  })
  .strict();
export type PowerInput = z.infer<typeof PowerInput>;

const VmTarget = z.object({ vmid: z.number().int().min(100).max(999_999_999), name: ProxyName }).strict();
const cloudInitText = boundedText(USER_DATA_MAX_CHARS);
/**
 * A VM that carries the proxy mark but that this app did not make is the operator's: it reconciles the VM and may undo
 * the change. Its power action, migrate, reconfigure, recreate or delete is refused unless this is `true` (the user saw
 * that warning: shared/domain/proxy-actions.ts OPERATOR_WARNING).
 */
const acknowledgeOperatorWarning = z.literal(true).optional();
const distinctVmids = (targets: { vmid: number }[]) => new Set(targets.map((t) => t.vmid)).size === targets.length;
const ONCE = { message: 'pick each proxy once', path: ['targets'] };

/**
 * Issue 16: migrate proxies to one other node, one task per VM. `cloudInit` is the proxy's user-data, needed only when
 * the seed's storage is local to the node (the same seed is rebuilt on the target; Proxmox cannot read an ISO back)
 * and the app keeps none for it (issue 23: main uses the user-data it put into the seed, VmRow.userDataKept).
 */
export const MigrateInput = z
  .object({
    clusterId: id,
    targets: z
      .array(VmTarget.extend({ cloudInit: cloudInitText.optional() }).strict())
      .min(1)
      .max(200)
      .refine(distinctVmids, ONCE),
    to: boundedText(64).min(1),
    acknowledgeOperatorWarning,
  })
  .strict();
export type MigrateInput = z.infer<typeof MigrateInput>;

/**
 * Issue 16: the same change on each proxy. `machineType`: a machine type of the profile (its cores and memory, which
 * wait for the next start by Proxmox; never its disk: issue 23); `diskGiB`: a larger boot disk (grown live); `cloudInit`: new user-data (a new seed with a new instance-id, read at the next boot). `reboot`
 * (default true): reboot a running VM when a change waits for its next start.
 */
export const ReconfigureInput = z
  .object({
    clusterId: id,
    targets: z.array(VmTarget).min(1).max(200).refine(distinctVmids, ONCE),
    machineType: boundedText(128).min(1).optional(),
    diskGiB: z.number().int().min(1).max(65_536).optional(),
    cloudInit: cloudInitText.optional(),
    /** Issue 24: another bridge or VLAN tag for net0 (a null tag takes it off); absent keeps net0 as it is. */
    network: ProxyNetwork.pick({ bridge: true, vlanTag: true }).optional(),
    reboot: z.boolean().optional(),
    acknowledgeOperatorWarning,
  })
  .strict()
  .refine((r) => r.machineType !== undefined || r.diskGiB !== undefined || r.cloudInit !== undefined || r.network !== undefined, {
    message: 'change at least one of the machine type, the disk size, the user-data or the network',
  });
export type ReconfigureInput = z.infer<typeof ReconfigureInput>;

/**
 * Issue 16: delete each proxy and create it again with the same name and `cloudInit` (its user-data), a new UID. The
 * template and machine type default to the ones this app made it with; a proxy it has no record of needs them here.
 * Without `cloudInit` the user-data this app put into its seed is used (issue 23); a proxy without one needs it here.
 */
export const RecreateInput = z
  .object({
    clusterId: id,
    targets: z
      .array(VmTarget.extend({ cloudInit: cloudInitText.optional() }).strict())
      .min(1)
      .max(200)
      .refine(distinctVmids, ONCE),
    template: boundedText(128).min(1).optional(),
    machineType: boundedText(128).min(1).optional(),
    acknowledgeOperatorWarning,
  })
  .strict();
export type RecreateInput = z.infer<typeof RecreateInput>;

const BulkStarted = z.object({ parentId: z.string().optional(), taskIds: z.array(z.string()) }).strict();

export const TaskLogLine = z.object({ n: z.number(), t: z.string() }).strict();

export const tasksChannels = defineChannels({
  /**
   * Every task the app knows: running, queued, interrupted and the bounded history. `notices`, when present, are
   * what the task journal has to tell the user: lines it could not read at start (and where they are kept), or why
   * tasks are refused right now (disk full, read-only data folder).
   */
  'tasks.list': {
    input: noInput,
    output: z.object({ tasks: z.array(TaskView), notices: z.array(z.string()).optional() }).strict(),
  },
  'tasks.get': { input: TaskId, output: TaskView },
  /** One task per proxy; with count > 1 they share a parent. */
  'tasks.createProxies': {
    input: CreateProxiesInput,
    output: BulkStarted,
  },
  /**
   * Provider ids `vms/<vmid>/<name>`, one task each; with several they share a parent (`parentId`). Refused before any
   * task when an ID's VMID, name and mark disagree, or a VM is operator-made without `acknowledgeOperatorWarning`.
   */
  'tasks.deleteProxies': {
    input: z
      .object({ clusterId: id, ids: z.array(boundedText(128)).min(1).max(200), acknowledgeOperatorWarning: z.literal(true).optional() })
      .strict(),
    output: BulkStarted,
  },
  /**
   * Start, shut down, stop or reboot proxies. Refused before any task when a VM's VMID, name and mark disagree, it is
   * foreign, the action does not apply to its state (shared/domain/proxy-actions.ts), or it is operator-made without
   * `acknowledgeOperatorWarning`.
   */
  'tasks.power': {
    input: PowerInput,
    output: BulkStarted,
  },
  /**
   * Migrate proxies to another node (`to`). Refused before any task when `to` is not a node of the profile or is a
   * VM's own node, a VM is gone, foreign, its VMID, name and mark disagree, or it is operator-made without
   * `acknowledgeOperatorWarning`.
   */
  'tasks.migrate': { input: MigrateInput, output: BulkStarted },
  /** Reconfigure proxies (the same change on each); refused before any task like migrate, and for a disk not larger than today's. */
  'tasks.reconfigure': { input: ReconfigureInput, output: BulkStarted },
  /** Recreate broken proxies: delete, then create with the same name, template, machine type and user-data (a new UID). */
  'tasks.recreate': { input: RecreateInput, output: BulkStarted },
  /** After a shutdown the guest ignored: `stop-it` starts a stop task for the VM; `wait-longer` reruns it with its timeout doubled. */
  'tasks.powerOffer': {
    input: z.object({ id, offer: z.enum(['stop-it', 'wait-longer']) }).strict(),
    output: z.object({ taskId: z.string() }).strict(),
  },
  /** Returns at once; the answer says what keeps running on Proxmox. */
  'tasks.cancel': { input: TaskId, output: z.object({ message: z.string() }).strict() },
  /** Reruns a failed or cancelled task with the same request (same proxy UID). */
  'tasks.retry': { input: TaskId, output: TaskView },
  /** Reruns an interrupted task with the same request (same proxy UID). */
  'tasks.resume': { input: TaskId, output: TaskView },
  /** Deletes whatever a failed, cancelled or interrupted create left; runs as a new task. */
  'tasks.cleanUp': { input: TaskId, output: z.object({ taskId: z.string() }).strict() },
  /** Reruns the connect doctor on a cluster's profile, as a task. */
  'tasks.runDoctor': { input: z.object({ clusterId: id }).strict(), output: z.object({ taskId: z.string() }).strict() },
  /** A page of a Proxmox task's log, read from the node. */
  'tasks.log': {
    input: z
      .object({
        id,
        upid: boundedText(256),
        start: z.number().int().min(0).default(0),
        limit: z.number().int().min(1).max(1000).default(200),
      })
      .strict(),
    output: z.object({ lines: z.array(TaskLogLine), total: z.number(), running: z.boolean() }).strict(),
  },
  /**
   * The window shows (`on`) or stops showing a task's log: main follows a Proxmox task's log live only while some
   * window watches it (issue 11: every read costs the node one of pveproxy's three workers).
   */
  'tasks.watchLog': { input: z.object({ id, on: z.boolean() }).strict(), output: z.object({}).strict() },
});

export const tasksEvents = defineEvents({
  /** A task changed (throttled per task). */
  'tasks.update': TaskView,
  /**
   * Something the user should hear about whatever the task's length (a proxy got its address, a create failed). The
   * desktop shell shows it as a system notification; in browser mode main publishes it here and the window shows a toast.
   */
  'tasks.notice': z
    .object({
      taskId: z.string(),
      tone: z.enum(['ok', 'warn', 'bad']),
      title: z.string(),
      body: z.string(),
      /** The alert it announces (the window's notice follows that alert's state). */
      alertId: z.number().int().optional(),
    })
    .strict(),
  /** New lines of a Proxmox task log, followed while the task runs. */
  'tasks.log': z.object({ id: z.string(), upid: z.string(), lines: z.array(TaskLogLine) }).strict(),
});
