/**
 * What the Proxmox web UI and Pulse ask pveproxy for, and how often, read from their sources (not from this app:
 * nothing here imports the app's routes or cadences). The replayer (replay.ts) issues these requests against the
 * simulator on its clock, so their counts come from the same request log as the app's.
 *
 * Sources, with the commits read:
 * - pve-manager (www/manager6) 14a22df35955d97dfc1af21e117dc894a29df0c9
 * - proxmox-widget-toolkit (src/data) 44904302e61e25aa4c1984963b054604cba2200a
 * - Pulse (rcourtman/Pulse, internal/monitoring, pkg/proxmox) c313a80daa58e950d531251ab1f45c48f1d291e1
 */

export const SOURCES = {
  pveManager: '14a22df35955d97dfc1af21e117dc894a29df0c9',
  widgetToolkit: '44904302e61e25aa4c1984963b054604cba2200a',
  pulse: 'c313a80daa58e950d531251ab1f45c48f1d291e1',
} as const;

/** What the replayer knows of the cluster when it builds a cycle (what the UI or Pulse would have read from it). */
export interface ClusterView {
  nodes: string[];
  /** The VM whose summary panel is open in the web UI. */
  openVm: { node: string; vmid: number };
  /** Every VM (not templates): node, vmid, whether it runs; Pulse learns these from its /cluster/resources read. */
  vms: { node: string; vmid: number; running: boolean }[];
}

/**
 * One ExtJS store of the web UI: Proxmox.data.UpdateStore reloads `interval` ms after its previous load ended plus
 * twice that load's duration (widget-toolkit src/data/UpdateStore.js:15 default 3000, :46-48 `getInterval() + runtime * 2`).
 */
export interface UiStore {
  name: string;
  intervalMs: number;
  /** Where the store and its interval are defined. */
  cite: string;
  path(view: ClusterView): string;
}

/**
 * The web UI with the same information on screen as the app's Proxies list, node health, storage use, task list and
 * one open proxy drawer with its charts: the resource tree and the datacenter summary (VMs' status, nodes, storage),
 * the task log at the bottom, and one VM's summary (its status, its addresses from the guest agent, its RRD charts).
 * The datacenter summary and the VM summary are two content panels, so two tabs of the UI; the tree and the task log
 * are in both, and counted once (they are per-tab stores, so two tabs would poll them twice: we count the cheaper).
 */
export const PVE_UI_STORES: UiStore[] = [
  {
    name: 'resource tree (PVE.data.ResourceStore)',
    intervalMs: 3000,
    cite: 'pve-manager www/manager6/data/ResourceStore.js:2 extends Proxmox.data.UpdateStore (default interval, UpdateStore.js:15), url :374; started at login, Workspace.js:164',
    path: () => '/cluster/resources',
  },
  {
    name: 'task log (pve-cluster-tasks)',
    intervalMs: 3000,
    cite: 'pve-manager www/manager6/dc/Tasks.js:13-18 UpdateStore (default interval), started on show :157; in the bottom status panel, panel/StatusPanel.js:34',
    path: () => '/cluster/tasks',
  },
  {
    name: 'datacenter summary: nodes (pve-cluster-status)',
    intervalMs: 3000,
    cite: 'pve-manager www/manager6/dc/Summary.js:90-96 interval 3000, /cluster/status, started :306',
    path: () => '/cluster/status',
  },
  {
    name: 'datacenter summary: health (pve-cluster-ceph)',
    intervalMs: 3000,
    cite: 'pve-manager www/manager6/dc/Health.js:142-152 interval 3000, /nodes/{first node}/ceph/status, started unconditionally (a cluster without Ceph answers an error, still asked)',
    path: (v) => `/nodes/${v.nodes[0]}/ceph/status`,
  },
  {
    name: 'VM summary: status (statusStore)',
    intervalMs: 1000,
    cite: 'pve-manager www/manager6/qemu/Config.js:30-32 ObjectStore (an UpdateStore, widget-toolkit src/data/ObjectStore.js:7) interval 1000, started :522',
    path: (v) => `/nodes/${v.openVm.node}/qemu/${v.openVm.vmid}/status/current`,
  },
  {
    name: 'VM summary: addresses (IPViewQEMU ipStore)',
    intervalMs: 10_000,
    cite: 'pve-manager www/manager6/panel/IPView.js:177-183 interval 10000, agent/network-get-interfaces (shown in panel/GuestStatusView.js:167)',
    path: (v) => `/nodes/${v.openVm.node}/qemu/${v.openVm.vmid}/agent/network-get-interfaces`,
  },
  {
    name: 'VM summary: charts (RRDStore)',
    intervalMs: 30_000,
    cite: 'pve-manager www/manager6/panel/GuestSummary.js:87-88 Proxmox.data.RRDStore, started :194; widget-toolkit src/data/RRDStore.js:35-37 default interval 30000, :19 ?timeframe=hour&cf=AVERAGE (:26, :28)',
    path: (v) => `/nodes/${v.openVm.node}/qemu/${v.openVm.vmid}/rrddata?timeframe=hour&cf=AVERAGE`,
  },
];

/** Not replayed (said in the report): the ticket renewal, once per 15 min (Workspace.js:99-119, Ext.TaskManager), a POST to /access/ticket. */
export const PVE_UI_NOT_REPLAYED = [
  'POST /access/ticket every 15 min (www/manager6/Workspace.js:119): the login ticket renewal, 0.07 requests a minute; the simulator takes API tokens only',
  "Hidden: ExtJS's UpdateStore does not look at the page's visibility (UpdateStore.js:38-52), so a hidden tab runs the same schedule; a browser may throttle a hidden tab's timers (Chrome: chained timers to once a minute after 5 min hidden), which is the browser's doing, not the UI's",
];

/** One request of a Pulse cycle, with the source of the call and the endpoint. */
export interface PulseCall {
  name: string;
  cite: string;
  /** Once per how many cycles, or per TTL: the call is made when its cached answer is older than this (ms). */
  ttlMs?: number;
  paths(view: ClusterView): string[];
}

/** Pulse polls each PVE instance every 10 s (PVEPollingInterval), adaptive polling off by default. */
export const PULSE_CYCLE_MS = 10_000;
export const PULSE_CYCLE_CITE =
  'Pulse internal/config/config.go:821 PVEPollingInterval 10 s (:171 PVE_POLLING_INTERVAL), :822 AdaptivePollingEnabled false';

/**
 * One Pulse cycle (internal/monitoring/monitor_pve.go:1371 pollPVEInstance): the nodes, each node's status, the
 * cluster's VMs, then each running VM's status and guest filesystems, the guest metadata on a 5 min cache, each
 * stopped VM's config, and the storage. Backups are off by default (BackupPollingInterval 0, config.go:819;
 * monitor_backups.go:2492) and Ceph only when detected: neither replayed.
 */
export const PULSE_CALLS: PulseCall[] = [
  {
    name: 'nodes',
    cite: 'internal/monitoring/monitor_pve.go:1433 fetchPVENodes → :484 client.GetNodes (GET /nodes)',
    paths: () => ['/nodes'],
  },
  {
    name: 'node status',
    cite: 'internal/monitoring/monitor_pve.go:1461 pollPVENodesParallel → monitor_polling_node.go:113 GetNodeStatus (GET /nodes/{node}/status), each online node',
    paths: (v) => v.nodes.map((n) => `/nodes/${n}/status`),
  },
  {
    name: 'pending updates',
    cite: 'internal/monitoring/monitor_polling_node_helpers.go:365-367 GetNodePendingUpdates (pkg/proxmox/client.go:2914 GET /nodes/{node}/apt/update), cached pendingUpdatesCacheTTL 30 min (monitor.go:1268)',
    ttlMs: 30 * 60_000,
    paths: (v) => v.nodes.map((n) => `/nodes/${n}/apt/update`),
  },
  {
    name: 'VMs',
    cite: 'internal/monitoring/monitor_pve.go:1506 pollGuestsWithFallback → monitor_pve_guest_poll.go:51 GetClusterResources(ctx, "vm") (GET /cluster/resources?type=vm)',
    paths: () => ['/cluster/resources?type=vm'],
  },
  {
    name: 'running VM status',
    cite: 'internal/monitoring/monitor_pve_guest_builders.go:241-243 GetVMStatus for every running qemu VM (pkg/proxmox/client.go:2338 GET /nodes/{node}/qemu/{vmid}/status/current)',
    paths: (v) => v.vms.filter((m) => m.running).map((m) => `/nodes/${m.node}/qemu/${m.vmid}/status/current`),
  },
  {
    name: 'running VM filesystems',
    cite: 'internal/monitoring/monitor_pve_guest_builders.go:299 updateVMDisksFromGuestAgentFSInfo → :776 fetchVMFSInfo → :536 GetVMFSInfo (pkg/proxmox/client.go:1950 GET /nodes/{node}/qemu/{vmid}/agent/get-fsinfo), each cycle for a VM whose agent is on',
    paths: (v) => v.vms.filter((m) => m.running).map((m) => `/nodes/${m.node}/qemu/${m.vmid}/agent/get-fsinfo`),
  },
  {
    name: 'guest metadata: addresses',
    cite: 'internal/monitoring/guest_metadata.go:274-275 GetVMNetworkInterfaces (pkg/proxmox/client.go:2094 agent/network-get-interfaces), cached guestMetadataCacheTTL 5 min (guest_metadata.go:20)',
    ttlMs: 5 * 60_000,
    paths: (v) => v.vms.filter((m) => m.running).map((m) => `/nodes/${m.node}/qemu/${m.vmid}/agent/network-get-interfaces`),
  },
  {
    name: 'guest metadata: OS',
    cite: 'internal/monitoring/guest_metadata.go:311-312 GetVMAgentInfo (pkg/proxmox/client.go:1564 agent/get-osinfo), cached 5 min (guest_metadata.go:20)',
    ttlMs: 5 * 60_000,
    paths: (v) => v.vms.filter((m) => m.running).map((m) => `/nodes/${m.node}/qemu/${m.vmid}/agent/get-osinfo`),
  },
  {
    name: 'guest metadata: agent version',
    cite: 'internal/monitoring/guest_metadata.go:365-366 GetVMAgentVersion (pkg/proxmox/client.go:1584 agent/info), cached 5 min (guest_metadata.go:20)',
    ttlMs: 5 * 60_000,
    paths: (v) => v.vms.filter((m) => m.running).map((m) => `/nodes/${m.node}/qemu/${m.vmid}/agent/info`),
  },
  {
    name: 'stopped VM start-at-boot',
    cite: 'internal/monitoring/monitor_pve_guest_builders.go:354-356 fetchVMOnBoot → :516-518 GetVMConfig (GET /nodes/{node}/qemu/{vmid}/config), each cycle for a stopped VM',
    paths: (v) => v.vms.filter((m) => !m.running).map((m) => `/nodes/${m.node}/qemu/${m.vmid}/config`),
  },
  {
    name: 'storage',
    cite: 'internal/monitoring/monitor_pve.go:1529 pollStorageAsync → monitor_pve_storage.go:65 GetAllStorage (pkg/proxmox/client.go:1227 GET /storage) and :92 GetStorage per node (pkg/proxmox/client.go:1197 GET /nodes/{node}/storage)',
    paths: (v) => ['/storage', ...v.nodes.map((n) => `/nodes/${n}/storage`)],
  },
];

export const PULSE_NOT_REPLAYED = [
  'Backups and snapshots (internal/monitoring/monitor_pve.go:1530 pollPVEBackupsAsync): off by default (BackupPollingInterval 0, internal/config/config.go:819)',
  'Ceph (internal/monitoring/ceph.go:28 pollCephCluster): only when Ceph is detected; the simulated cluster has none',
  "A node's RRD memory read (internal/monitoring/monitor.go:1360, cached 30 s, :1327): only when the node's status lacks memory figures",
  'Hidden: Pulse polls from its server whatever its browser window shows; its cycle is the same with no window open',
];
