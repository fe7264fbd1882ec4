/**
 * The seam between the app and Proxmox: one method per endpoint. The HTTP
 * client (client.ts) and the simulator-backed tests implement it; the core
 * codes against it. Response types come from schemas.ts, never restated.
 * Every path is under https://host:8006/api2/json.
 */
import type {
  AgentInterface,
  ClusterResource,
  ClusterStatusEntry,
  NetworkInterface,
  NodeEntry,
  NodeStatus,
  Permissions,
  StorageEntry,
  StorageStatus,
  StorageVolume,
  TaskListEntry,
  TaskLog,
  MigratePrecondition,
  TaskStatus,
  Version,
  VmConfig,
  VmStatus,
} from './schemas';

export interface CallOptions {
  /** Cancels this request alone, promptly; other requests are unaffected. */
  signal?: AbortSignal;
  /** A read no operation waits on (the inventory's): it yields to every operation's request at the pace (pace.ts). */
  background?: boolean;
  /**
   * Issue 22: a read a loop repeats (a follower, a poller, a watcher): the client holds it to the node's pace always,
   * busy or not, so no loop can send a node more than the pace allows however fast it answers (pace.ts).
   */
  loop?: boolean;
}

/** A task id, `UPID:node:pid:pstart:starttime:type:id:user:`; see upid.ts. */
export type Upid = string;

export type ResourceType = 'vm' | 'node' | 'storage';

export interface CloneParams {
  newid: number;
  name: string;
  description: string;
  full: 1;
  /** Target storage for the full clone's disks; default: the template's. */
  storage?: string;
  /** Target node; default: the template's node. */
  target?: string;
}

/**
 * A migration (issue 11: offline; issue 16: online too). qemu-server API2/Qemu.pm migrate_vm refuses a running VM
 * without `online` ("can't migrate running VM without --online"), and QemuMigrate.pm scan_local_volumes refuses a
 * running VM's attached local disk without `with-local-disks`; offline, local disks are always copied.
 */
export interface MigrateParams {
  target: string;
  /** Live migration of a running VM; Proxmox ignores it for a stopped one ("Doing offline migration instead"). */
  online?: 1;
  /** Copy disks on node-local storage to the same storage on the target (required online, implied offline). */
  'with-local-disks'?: 1;
}

/** `POST …/status/shutdown` (apidata.js `vm_shutdown`). */
export interface ShutdownParams {
  /** Seconds to wait for the guest to power off; Proxmox's default is 60. */
  timeout?: number;
  /** 1: stop the VM hard when the timeout passes. The core sends 0, so a guest that ignores ACPI is reported, not killed. */
  forceStop?: 0 | 1;
}

/** `POST …/status/reboot` (apidata.js `vm_reboot`). */
export interface RebootParams {
  /** Seconds to wait for the shutdown half. */
  timeout?: number;
}

export interface TaskLogRange {
  /** First line to return (0-based). */
  start?: number;
  limit?: number;
}

/** `GET /nodes/{node}/tasks` filters (the official schema's names; see apidata.js `node_tasks`). */
export interface TaskListQuery {
  /** `active`: running (and just-ended, not yet archived) tasks; `archive` (Proxmox's default): ended ones; `all`: both. */
  source?: 'active' | 'archive' | 'all';
  /** Only tasks started at or after this UNIX epoch (seconds). */
  since?: number;
  vmid?: number;
  typefilter?: string;
  /** A case-insensitive substring of the task's user. */
  userfilter?: string;
  /** Proxmox's default is 50. */
  limit?: number;
  start?: number;
}

export interface PveApi {
  /** GET /version */
  version(opts?: CallOptions): Promise<Version>;
  /** GET /nodes */
  nodes(opts?: CallOptions): Promise<NodeEntry[]>;
  /** GET /cluster/status */
  clusterStatus(opts?: CallOptions): Promise<ClusterStatusEntry[]>;
  /**
   * Issue 11: the node whose pveproxy the URL reaches (GET /cluster/status, the node entry with `local`: "Indicates
   * if this is the responding node", pve-api apidata.js), learned once; undefined when the listing is refused.
   * Absent on fakes.
   */
  apiNode?(opts?: CallOptions): Promise<string | undefined>;
  /** Issue 11: an operation (a create) starts, for the client's pace (pace.ts, 'under-load'); returns its end. */
  beginOperation?(): () => void;
  /** GET /cluster/resources[?type=] */
  clusterResources(type?: ResourceType, opts?: CallOptions): Promise<ClusterResource[]>;
  /** GET /nodes/{node}/status */
  nodeStatus(node: string, opts?: CallOptions): Promise<NodeStatus>;
  /** GET /nodes/{node}/storage */
  storageList(node: string, opts?: CallOptions): Promise<StorageEntry[]>;
  /** GET /nodes/{node}/storage/{storage}/status */
  storageStatus(node: string, storage: string, opts?: CallOptions): Promise<StorageStatus>;
  /** GET /nodes/{node}/storage/{storage}/content[?content=] */
  storageContent(node: string, storage: string, content?: string, opts?: CallOptions): Promise<StorageVolume[]>;
  /** POST /nodes/{node}/storage/{storage}/upload, multipart `content=iso` + file part `filename` (F12). */
  uploadIso(node: string, storage: string, filename: string, bytes: Uint8Array, opts?: CallOptions): Promise<Upid>;
  /** DELETE /nodes/{node}/storage/{storage}/content/{volid} (volid escaped, `/` as %2F); an imgdel task (F13). */
  deleteVolume(node: string, storage: string, volid: string, opts?: CallOptions): Promise<Upid>;
  /** GET /nodes/{node}/qemu/{vmid}/config, every scalar as a string. */
  vmConfig(node: string, vmid: number, opts?: CallOptions): Promise<VmConfig>;
  /** PUT /nodes/{node}/qemu/{vmid}/config, form-encoded and synchronous. */
  setVmConfig(node: string, vmid: number, params: Record<string, string | number>, opts?: CallOptions): Promise<void>;
  /** POST /nodes/{node}/qemu/{vmid}/clone */
  clone(node: string, vmid: number, params: CloneParams, opts?: CallOptions): Promise<Upid>;
  /** POST /nodes/{node}/qemu/{vmid}/migrate: a `qmigrate` task on `node`; needs VM.Migrate on /vms/{vmid}. */
  migrate(node: string, vmid: number, params: MigrateParams, opts?: CallOptions): Promise<Upid>;
  /** GET /nodes/{node}/qemu/{vmid}/migrate[?target=]: what would block a migrate (local devices, disks); needs VM.Migrate. */
  migratePrecondition?(node: string, vmid: number, target: string, opts?: CallOptions): Promise<MigratePrecondition>;
  /**
   * PUT /nodes/{node}/qemu/{vmid}/resize: a task (F20) from qemu-server 8.0.2 (PVE 8.0) on;
   * null on PVE 7.4, where the disk is already grown when the answer comes.
   */
  resize(node: string, vmid: number, disk: string, size: string, opts?: CallOptions): Promise<Upid | null>;
  /** POST /nodes/{node}/qemu/{vmid}/status/start */
  start(node: string, vmid: number, opts?: CallOptions): Promise<Upid>;
  /** POST /nodes/{node}/qemu/{vmid}/status/stop */
  stop(node: string, vmid: number, opts?: CallOptions): Promise<Upid>;
  /**
   * POST /nodes/{node}/qemu/{vmid}/status/shutdown: a `qmshutdown` task (ACPI power button, or the guest agent's
   * guest-shutdown). Without forceStop the task fails with `VM quit/powerdown failed - got timeout` when the guest is
   * still up after `timeout` seconds (Proxmox's default 60); a paused VM is refused at once (`VM is paused - cannot
   * shutdown`). Needs VM.PowerMgmt on /vms/{vmid}.
   */
  shutdown(node: string, vmid: number, params: ShutdownParams, opts?: CallOptions): Promise<Upid>;
  /**
   * POST /nodes/{node}/qemu/{vmid}/status/reboot: a `qmreboot` task that shuts the guest down (as shutdown, `timeout`
   * seconds) and lets qmeventd start it again. Refused at once unless the VM runs (`VM <vmid> not running`) and is
   * not paused. Needs VM.PowerMgmt.
   */
  reboot(node: string, vmid: number, params?: RebootParams, opts?: CallOptions): Promise<Upid>;
  /**
   * POST /nodes/{node}/qemu/{vmid}/status/resume: a `qmresume` task; resumes a paused VM, or starts a hibernated one
   * (`lock: suspended`) from its saved state. Refused at once otherwise (`VM <vmid> not running`). Needs VM.PowerMgmt.
   */
  resume(node: string, vmid: number, opts?: CallOptions): Promise<Upid>;
  /** GET /nodes/{node}/qemu/{vmid}/status/current */
  vmStatus(node: string, vmid: number, opts?: CallOptions): Promise<VmStatus>;
  /** DELETE /nodes/{node}/qemu/{vmid}?purge=1&destroy-unreferenced-disks=1 */
  destroy(node: string, vmid: number, opts?: CallOptions): Promise<Upid>;
  /** GET /nodes/{node}/tasks/{upid}/status */
  taskStatus(node: string, upid: Upid, opts?: CallOptions): Promise<TaskStatus>;
  /**
   * GET /nodes/{node}/tasks[?source=&since=&…]: every visible task on a node in one answer, for the
   * task watcher (one request per node per cycle). Optional: an implementation without it (the unit
   * tests' fakes) is watched one status call per task.
   */
  nodeTasks?(node: string, query?: TaskListQuery, opts?: CallOptions): Promise<TaskListEntry[]>;
  /** GET /nodes/{node}/tasks/{upid}/log[?start=&limit=] */
  taskLog(node: string, upid: Upid, range?: TaskLogRange, opts?: CallOptions): Promise<TaskLog>;
  /**
   * DELETE /nodes/{node}/tasks/{upid}: stops a running task (its worker gets SIGTERM and ends with exitstatus
   * "received interrupt"); a task that already ended is left as it is. Allowed for the task's owner, else it needs
   * Sys.Modify on /nodes/{node}. Answers `{data: null}`.
   */
  stopTask(node: string, upid: Upid, opts?: CallOptions): Promise<void>;
  /** GET /nodes/{node}/qemu/{vmid}/agent/network-get-interfaces (F21); an agent that refuses it throws AgentRefusedError. */
  agentNetworkInterfaces(node: string, vmid: number, opts?: CallOptions): Promise<AgentInterface[]>;
  /** GET /nodes/{node}/network[?type=] */
  network(node: string, type?: string, opts?: CallOptions): Promise<NetworkInterface[]>;
  /** GET /access/permissions[?path=]: what the token may do. */
  permissions(path?: string, opts?: CallOptions): Promise<Permissions>;
}
