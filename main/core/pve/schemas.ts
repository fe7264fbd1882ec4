/**
 * One zod schema per Proxmox endpoint: the single source of the response
 * types (api.ts infers from these). Each accepts what Proxmox really sends
 * (numbers as strings and back, 0/1 flags, absent and extra fields; extra
 * fields are dropped) and rejects what the app cannot use.
 *
 * Schemas describe the `data` member of the answer unless they say otherwise.
 *
 * Long because it is one schema per endpoint, by design: the one place the
 * response types come from, with the Proxmox source or capture beside each
 * answer that needs one.
 */
import { z } from 'zod';
import { fastArrayOf } from './fast-array';
import { pveBoolean, pveInteger, pveList, pveNumber, pveString } from './scalars';

const upidPattern = /^UPID:[^:]+:[0-9A-Fa-f]{8}:[0-9A-Fa-f]{8,}:[0-9A-Fa-f]{8}:[^:]+:[^:]*:[^:]+:$/;

/** Every asynchronous call answers with the UPID of the task it started. */
export const UpidSchema = z.string().regex(upidPattern, 'expected a task id (UPID:…)');

/**
 * A call that may or may not start a task. PUT …/resize answers `{"data":null}` once the
 * disk is grown on qemu-server before 8.0.2 (PVE 7.4 and older) and a UPID from 8.0.2
 * (PVE 8.0) on: qemu-server 606d9d76 "fix #2315: api: have resize endpoint spawn a
 * worker task", listed under qemu-server (8.0.2) in debian/changelog.
 */
export const MaybeUpidSchema = z.union([UpidSchema, z.null()]);

/**
 * `/version`: the same three keys on 7.4, 8.x and 9.x (pve-manager PVE/API2.pm sets
 * all three; `console` only when datacenter.cfg has one, and is dropped here). Only the
 * shapes differ: 7.4 writes `version` as `7.4-19` and an 8-hex `repoid`; 8.0 on write
 * `8.4.21` and 16 hex (pve-manager 0e77456f, "expand repoid to 16 chars").
 */
export const VersionSchema = z.object({ version: z.string(), release: z.string(), repoid: z.string() });

export const NodeEntrySchema = z.object({
  node: z.string(),
  status: z.string(),
  cpu: pveNumber.optional(),
  maxcpu: pveInteger.optional(),
  mem: pveNumber.optional(),
  maxmem: pveNumber.optional(),
  disk: pveNumber.optional(),
  maxdisk: pveNumber.optional(),
  uptime: pveNumber.optional(),
  level: z.string().optional(),
  ssl_fingerprint: z.string().optional(),
});
export const NodesSchema = z.array(NodeEntrySchema);

export const ClusterStatusEntrySchema = z.object({
  type: z.string(),
  id: z.string(),
  name: z.string(),
  online: pveBoolean.optional(),
  local: pveBoolean.optional(),
  ip: z.string().optional(),
  nodeid: pveInteger.optional(),
  level: z.string().optional(),
  quorate: pveBoolean.optional(),
  nodes: pveInteger.optional(),
  version: pveInteger.optional(),
});
export const ClusterStatusSchema = z.array(ClusterStatusEntrySchema);

/**
 * A `/cluster/resources` entry. Only `id` and `type` are always there (F8: a VM mid-clone has no name).
 * Optional because older releases lack them: guest `tags` since pve-manager 7.2-14 (d18b6982; `lock`
 * since 6.0, f79372c0), a node's `hastate` since 8.2.9 (993d05ab); 9.0 adds `memhost` and `type:
 * network` entries (e3ac6efa, 1804cdf1), which are dropped or pass as another type.
 */
export const ClusterResourceSchema = z.object({
  id: z.string(),
  type: z.string(),
  node: z.string().optional(),
  status: z.string().optional(),
  vmid: pveInteger.optional(),
  name: pveString.optional(),
  template: pveBoolean.optional(),
  tags: pveString.optional(),
  lock: z.string().optional(),
  pool: z.string().optional(),
  hastate: z.string().optional(),
  storage: z.string().optional(),
  content: pveList.optional(),
  shared: pveBoolean.optional(),
  plugintype: z.string().optional(),
  maxcpu: pveNumber.optional(),
  maxmem: pveNumber.optional(),
  maxdisk: pveNumber.optional(),
  mem: pveNumber.optional(),
  cpu: pveNumber.optional(),
  disk: pveNumber.optional(),
  uptime: pveNumber.optional(),
  netin: pveNumber.optional(),
  netout: pveNumber.optional(),
});
const fullListing = z.array(ClusterResourceSchema);
const fastListing = fastArrayOf<z.output<typeof ClusterResourceSchema>>(ClusterResourceSchema);
/**
 * The listing, decoded every refresh (5,000 VMs and more): the usual
 * answer takes the fast path, anything else the full schema, whose result
 * and issues are passed on unchanged.
 */
export const ClusterResourcesSchema = z.unknown().transform((value, ctx) => {
  const fast = fastListing(value);
  if (fast) return fast;
  const full = fullListing.safeParse(value);
  if (full.success) return full.data;
  // Already-finished issues (message and path set): zod passes them through as they are.
  for (const issue of full.error.issues) ctx.issues.push(issue as (typeof ctx.issues)[number]);
  return z.NEVER;
});

const KernelInfoSchema = z.object({
  release: z.string(),
  sysname: z.string().optional(),
  version: z.string().optional(),
  machine: z.string().optional(),
});

/**
 * Node status; `kernel` is read from `current-kernel.release` (pve-manager 8.1.0 on, 20ad4e0e) or
 * `kversion` (every release, kept "for legacy compat"). 9.0 adds `memory.available` (8fd3420b), dropped here.
 */
export const NodeStatusSchema = z
  .object({
    pveversion: z.string(),
    kversion: z.string().optional(),
    'current-kernel': KernelInfoSchema.optional(),
    cpu: pveNumber,
    memory: z.object({ used: pveNumber, total: pveNumber, free: pveNumber.optional() }),
    uptime: pveNumber,
    loadavg: z.array(pveString).optional(),
    cpuinfo: z.object({ cpus: pveInteger.optional(), model: z.string().optional(), sockets: pveInteger.optional() }).optional(),
    rootfs: z.object({ used: pveNumber, total: pveNumber }).optional(),
  })
  .transform(({ kversion, 'current-kernel': current, ...rest }) => ({
    ...rest,
    kernel: current?.release ?? kversion?.split(/\s+/)[1],
    /** `x86_64` or `aarch64` (uname -m), from `current-kernel.machine` (8.1 on); absent before. */
    ...(current?.machine ? { machine: current.machine } : {}),
  }));

export const StorageEntrySchema = z.object({
  storage: z.string(),
  type: z.string(),
  content: pveList,
  shared: pveBoolean.optional(),
  active: pveBoolean.optional(),
  enabled: pveBoolean.optional(),
  avail: pveNumber.optional(),
  total: pveNumber.optional(),
  used: pveNumber.optional(),
});
export const StorageListSchema = z.array(StorageEntrySchema);

export const StorageStatusSchema = z.object({
  type: z.string(),
  content: pveList,
  active: pveBoolean.optional(),
  enabled: pveBoolean.optional(),
  shared: pveBoolean.optional(),
  avail: pveNumber.optional(),
  total: pveNumber.optional(),
  used: pveNumber.optional(),
});

/**
 * A content listing entry. Since pve-storage 9.1.5 `size` is optional and an inactive qcow2
 * volume on LVM carries `approximate-size` (the LV's size) instead (pve-storage 7ce747e and
 * 225a872, "fix #6819"). `size` is then taken from it and `sizeKind` says so; an entry with
 * neither (which pve-storage's schema allows) reads as size 0, `sizeKind: 'unknown'`.
 */
export const StorageVolumeSchema = z
  .object({
    volid: z.string(),
    format: z.string(),
    size: pveNumber.optional(),
    'approximate-size': pveNumber.optional(),
    content: z.string(),
    ctime: pveInteger.optional(),
    vmid: pveInteger.optional(),
    notes: z.string().optional(),
  })
  .transform(({ size, 'approximate-size': approximate, ...rest }) => ({
    ...rest,
    size: size ?? approximate ?? 0,
    sizeKind: size !== undefined ? ('exact' as const) : approximate !== undefined ? ('approximate' as const) : ('unknown' as const),
  }));
export const StorageContentSchema = z.array(StorageVolumeSchema);

/** A VM config with every scalar rendered as a string (F19: `cores` is a number, `memory` a string). */
export const VmConfigSchema = z.record(z.string(), z.union([z.string(), z.number().transform((n) => String(n))]));

export const VmStatusSchema = z.object({
  status: z.string(),
  qmpstatus: z.string().optional(),
  lock: z.string().optional(),
  name: pveString.optional(),
  vmid: pveInteger.optional(),
  uptime: pveNumber.optional(),
  cpu: pveNumber.optional(),
  cpus: pveNumber.optional(),
  mem: pveNumber.optional(),
  maxmem: pveNumber.optional(),
  maxdisk: pveNumber.optional(),
  agent: pveBoolean.optional(),
  tags: pveString.optional(),
});

/** Task status: the same fields in 7.4 and 9.x (pve-manager PVE/API2/Tasks.pm read_task_status); `exitstatus` once stopped. */
export const TaskStatusSchema = z.object({
  status: z.enum(['running', 'stopped']),
  exitstatus: z.string().optional(),
  type: z.string(),
  id: pveString.optional(),
  node: z.string(),
  upid: z.string(),
  starttime: pveInteger,
  pid: pveInteger.optional(),
  pstart: pveInteger.optional(),
  user: z.string().optional(),
  tokenid: z.string().optional(),
});

/**
 * One entry of `GET /nodes/{node}/tasks` (pve-manager PVE/API2/Tasks.pm `node_tasks`, the same fields on
 * 7.4, 8.x and 9.x). Running tasks (from the node's `active` file) carry `status: RUNNING` and no
 * `endtime`, and keep the whole `user@realm!token` as `user`; archived ones carry `endtime`, their
 * exit status as `status`, and a token's task splits into `user` and `tokenid`. Every field but `upid`
 * is optional here: the watcher can fall back to the status call for a task it cannot read.
 */
export const TaskListEntrySchema = z.object({
  upid: z.string(),
  node: z.string().optional(),
  type: z.string().optional(),
  id: pveString.optional(),
  user: z.string().optional(),
  tokenid: z.string().optional(),
  starttime: pveInteger.optional(),
  endtime: pveInteger.optional(),
  status: pveString.optional(),
});
export const TaskListSchema = z.array(TaskListEntrySchema);

/**
 * GET /nodes/{node}/qemu/{vmid}/migrate (qemu-server API2/Qemu.pm migrate_vm_precondition; apidata.js's returns):
 * what would keep a migrate from working, read before anything is changed (issue 25). `local_resources` lists every
 * device that ties the VM to its node, mapped ones too; `mapped-resources` (qemu-server 8.0.4 on) names the mapped.
 */
export const MigratePreconditionSchema = z.object({
  running: pveBoolean.optional(),
  allowed_nodes: z.array(z.string()).optional(),
  not_allowed_nodes: z.record(z.string(), z.object({ unavailable_storages: z.array(z.string()).optional() }).passthrough()).optional(),
  local_disks: z.array(z.object({ volid: z.string(), cdrom: pveBoolean.optional(), size: pveInteger.optional() }).passthrough()).optional(),
  local_resources: z.array(z.string()).optional(),
  'mapped-resources': z.array(z.string()).optional(),
});

/**
 * The placeholder Proxmox answers for an empty log: pve-common src/PVE/Tools.pm dump_logfile adds `{n: 1, t: "no
 * content"}` with a count of 1 when the file has no line ("HACK: ExtJS store.guaranteeRange() does not like empty
 * array"). A new task's log is empty until its worker writes; the placeholder's number is the real first line's.
 */
function isEmptyLogPlaceholder(data: readonly { n: number; t: string }[], total: number | undefined): boolean {
  return data.length === 1 && data[0]!.n === 1 && data[0]!.t === 'no content' && (total === undefined || total === 1);
}

/**
 * The whole task-log answer, not just `data`: Proxmox puts `total` beside it. An empty log's placeholder reads as no
 * lines (issue 25): shown, it stood for a line, and the real first line, numbered 1 too, was skipped as read. A log
 * whose only line really is `no content` reads the same way until its next line comes, as in Proxmox's own view.
 */
export const TaskLogAnswerSchema = z
  .object({
    data: z.array(z.object({ n: pveInteger, t: z.string() })),
    total: pveInteger.optional(),
  })
  .transform(({ data, total }) =>
    isEmptyLogPlaceholder(data, total) ? { lines: [], total: 0 } : { lines: data, total: total ?? data.length },
  );

export const AgentInterfaceSchema = z.object({
  name: z.string(),
  'hardware-address': z.string().optional(),
  'ip-addresses': z.array(z.object({ 'ip-address': z.string(), 'ip-address-type': z.string(), prefix: pveInteger.optional() })).optional(),
});
/** The agent answers `{result: [...]}` inside `data` (F21). */
export const AgentNetworkSchema = z.object({ result: z.array(AgentInterfaceSchema) }).transform((d) => d.result);

/**
 * A guest agent that refuses a command still answers 200: qemu-server's QMPClient turns the
 * agent's QMP error into `{error: {class, desc}}` (commit 1928c201, qemu-server 5.0-22) and
 * PVE/API2/Qemu/Agent.pm returns `{result => $res}`, the same on 7.4, 8.x and 9.x.
 */
export const AgentErrorSchema = z.object({
  class: z.string().optional(),
  desc: z.string().optional(),
});
export const AgentNetworkAnswerSchema = z
  .object({ result: z.union([z.array(AgentInterfaceSchema), z.object({ error: AgentErrorSchema })]) })
  .transform((d) =>
    Array.isArray(d.result)
      ? { refused: false as const, interfaces: d.result }
      : { refused: true as const, agentClass: d.result.error.class ?? 'GenericError', desc: d.result.error.desc ?? '' },
  );

export const NetworkInterfaceSchema = z.object({
  iface: z.string(),
  type: z.string(),
  active: pveBoolean.optional(),
  autostart: pveBoolean.optional(),
  bridge_vlan_aware: pveBoolean.optional(),
  /** An SDN vnet's (type `vnet`, pve-network SDN.pm get_local_vnets). */
  vlanaware: pveBoolean.optional(),
  bridge_ports: z.string().optional(),
  'bridge-vids': z.string().optional(),
  cidr: z.string().optional(),
  address: z.string().optional(),
  gateway: z.string().optional(),
  comments: z.string().optional(),
});
export const NetworkSchema = z.array(NetworkInterfaceSchema);

/** `path -> privilege -> 0|1` (1: the grant propagates to sub-paths). */
export const PermissionsSchema = z.record(
  z.string(),
  z.record(
    z.string(),
    pveBoolean.transform((b) => (b ? 1 : 0) as 0 | 1),
  ),
);

/** A 4xx/5xx body: `{message, errors?, data: null}`. Used only to read the error text. */
export const ErrorBodySchema = z.object({
  message: z.string().optional(),
  errors: z.record(z.string(), pveString).optional(),
});

export type Version = z.infer<typeof VersionSchema>;
export type NodeEntry = z.infer<typeof NodeEntrySchema>;
export type ClusterStatusEntry = z.infer<typeof ClusterStatusEntrySchema>;
export type ClusterResource = z.infer<typeof ClusterResourceSchema>;
export type NodeStatus = z.infer<typeof NodeStatusSchema>;
export type StorageEntry = z.infer<typeof StorageEntrySchema>;
export type StorageStatus = z.infer<typeof StorageStatusSchema>;
export type StorageVolume = z.infer<typeof StorageVolumeSchema>;
export type VmConfig = z.infer<typeof VmConfigSchema>;
export type VmStatus = z.infer<typeof VmStatusSchema>;
export type TaskStatus = z.infer<typeof TaskStatusSchema>;
export type TaskLog = z.infer<typeof TaskLogAnswerSchema>;
export type MigratePrecondition = z.infer<typeof MigratePreconditionSchema>;
export type TaskListEntry = z.infer<typeof TaskListEntrySchema>;
export type AgentInterface = z.infer<typeof AgentInterfaceSchema>;
export type AgentNetworkAnswer = z.infer<typeof AgentNetworkAnswerSchema>;
export type NetworkInterface = z.infer<typeof NetworkInterfaceSchema>;
export type Permissions = z.infer<typeof PermissionsSchema>;
