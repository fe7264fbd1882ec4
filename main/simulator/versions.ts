/**
 * Proxmox VE version profiles: what the simulator answers differently on
 * 7.4, 8.4 and 9.2. One row per version, one field per difference, each
 * field citing the Proxmox source that makes it so. Default 9.2, the
 * captured host's release (Phase 0: pve-manager 9.2.20).
 *
 * Sources (git history of github.com/proxmox/*):
 * - version / repoid: pve-manager PVE/API2.pm `version` returns version,
 *   release and repoid on every release; 7.x versions are Debian style
 *   (`7.4-19`) with an 8-hex repoid, 8.0 on are `8.4.21` with 16 hex
 *   (pve-manager 0e77456f "expand repoid to 16 chars", 2023-05-29, before
 *   8.0.0). Values: the stable-7 bump to 7.4-19 (f98bf8d4), the stable-8
 *   bump to 8.4.21 (2606ac85), and the captured 9.2.20.
 * - resizeIsTask: qemu-server 606d9d76 "fix #2315: api: have resize endpoint
 *   spawn a worker task", first released in qemu-server 8.0.2 (debian/changelog);
 *   stable-7 (7.4-x) still declares `returns => { type => 'null'}` and does
 *   the resize inside the request, dying with its error text at once.
 * - approximateSize: pve-storage 7ce747e + 225a872 ("fix #6819"), released in
 *   9.1.5: a qcow2 volume on an `lvm` storage whose LV is inactive lists
 *   `approximate-size` (the LV's size) instead of `size`. qcow2 on LVM exists
 *   only from PVE 9.0 (snapshot-as-volume-chain), so 7.4 and 8.4 never do.
 * - currentKernel: pve-manager 20ad4e0e adds `current-kernel` to node status,
 *   released in 8.1.0; `kversion` stays on every release.
 * - memoryAvailable: pve-manager 8fd3420b adds `memory.available`, 9.0.0~20.
 * - memhost: pve-manager e3ac6efa adds `memhost` to guest entries of
 *   /cluster/resources, 9.0.0~15.
 *
 * - downloadUrlContents / importDiskImages (issue 14): download-url's `content`
 *   enum was `['iso', 'vztmpl']` until pve-storage 8.2.8 (40df25d "api: allow ova
 *   upload/download", 2024-11-18) added `import`, for .ova only; pve-storage 8.3.6
 *   (76f695f "import: allow upload of guest images files into import storage",
 *   2025-04-07, debian/changelog) lets it take .qcow2/.raw/.vmdk, first shipped with
 *   PVE 8.4 (April 2025). So 7.4 refuses `content=import` at parameter verification
 *   (400, enum), and 8.4 and 9.2 accept disk images. The `import` content type itself
 *   is pve-storage 8.1.1 (PVE 8.2); qemu-server 8.2.7 (0d41c7f5) accepts an `import`
 *   volume in `import-from`, pve-storage 8.2.8 (357deeb) its access check.
 *
 * - rrdFormat (issue 15): pve-cluster 1a483ba "rrd: adapt to new RRD format with different aggregation
 *   windows" (9.0.3) reads `pve-{node,vm}-9.0/<id>` files with 1 min / 30 min / 6 h / 1 week archives of
 *   1440 rows; 7.4 and 8.4 read `pve2-node/<node>` and `pve2-vm/<vmid>` (src/PVE/RRD.pm create_rrd_data,
 *   `$setup_pve2`: 70 rows at 1 min, 30 min, 3 h, 12 h, 7 days). 9.2 ships pve-cluster 9.1, so it has
 *   af3f945 (month at 30 min, 1440 rows) and 6126f5d (fix #6615: a newest row holding only `time` is
 *   dropped), and pve-manager 42bc19a7 (the node's `decade` timeframe). See rrd-model.ts.
 *
 * - migratePreconditionExtras (issue 25): GET /nodes/{node}/qemu/{vmid}/migrate (qemu-server API2/Qemu.pm
 *   migrate_vm_precondition) answers running, allowed_nodes, not_allowed_nodes, local_disks and local_resources on
 *   every release; qemu-server bc1a5860 (8.0.4) adds `mapped-resources`, 0f55e8be (8.3.9) `mapped-resource-info`,
 *   dc76a590 (9.0.10, fix #5180) `has-dbus-vmstate` (debian/changelog bumps after each).
 *
 * - rollbackStartNeedsPowerMgmt (issue 25): POST …/snapshot/{snapname}/rollback with `start=1` checks VM.PowerMgmt on
 *   /vms/{vmid} before the task (qemu-server 7ba9640b "api: snapshot: rollback: check VM.PowerMgmt up front when
 *   starting", 2026-04-30, released in 9.1.10; not on stable-bookworm or stable-7). The `start` parameter itself is
 *   on all three (76b29aaf, "fix #4228", 7.2-7).
 *
 * Not a difference: the guest agent's refusal (`{result: {error: {class,
 * desc}}}` at 200) has the same shape on all three (qemu-server 1928c201,
 * 5.0-22; PVE/API2/Qemu/Agent.pm returns `{result => $res}` on stable-7,
 * stable-bookworm and master alike). Its class and text come from the
 * guest's qemu-ga, not from Proxmox.
 */

export const PVE_VERSIONS = ['7.4', '8.4', '9.2'] as const;
export type PveVersion = (typeof PVE_VERSIONS)[number];
export const DEFAULT_PVE_VERSION: PveVersion = '9.2';

export interface VersionProfile {
  release: PveVersion;
  /** The `/version` answer's data. */
  version: { release: string; version: string; repoid: string };
  /** Node status `pveversion`: `pve-manager/<version>/<repoid>`. */
  pveversion: string;
  resizeIsTask: boolean;
  approximateSize: boolean;
  currentKernel: boolean;
  memoryAvailable: boolean;
  memhost: boolean;
  /** download-url's `content` enum (issue 14). */
  downloadUrlContents: readonly string[];
  /** download-url and upload take .qcow2/.raw/.vmdk for `content=import` (issue 14). */
  importDiskImages: boolean;
  /** The RRD files and archives `…/rrddata` reads (issue 15, rrd-model.ts). */
  rrdFormat: 'pve2' | 'pve-9.0';
  /** The migrate precondition's keys beyond 7.4's (issue 25). */
  migratePreconditionExtras: readonly ('mapped-resources' | 'mapped-resource-info' | 'has-dbus-vmstate')[];
  /**
   * `GET /nodes/{node}/network` lists a bridge only to a token with SDN.Audit or SDN.Use on
   * /sdn/zones/localnetwork/<bridge> (pve-manager d2894179, 2023-06-06, "api2: network: check permissions for local
   * bridges": 8.0 on). 7.4 lists every bridge to anyone.
   */
  bridgeAcl: boolean;
  /** A rollback with `start=1` also needs VM.PowerMgmt (issue 25, snapshots). */
  rollbackStartNeedsPowerMgmt: boolean;
}

const row = (
  release: PveVersion,
  version: string,
  repoid: string,
  since: Pick<
    VersionProfile,
    | 'resizeIsTask'
    | 'approximateSize'
    | 'currentKernel'
    | 'memoryAvailable'
    | 'memhost'
    | 'downloadUrlContents'
    | 'importDiskImages'
    | 'rrdFormat'
    | 'migratePreconditionExtras'
    | 'bridgeAcl'
    | 'rollbackStartNeedsPowerMgmt'
  >,
): VersionProfile => ({ release, version: { release, version, repoid }, pveversion: `pve-manager/${version}/${repoid}`, ...since });

export const VERSION_PROFILES: Record<PveVersion, VersionProfile> = {
  '7.4': row('7.4', '7.4-19', 'f98bf8d4', {
    resizeIsTask: false,
    approximateSize: false,
    currentKernel: false,
    memoryAvailable: false,
    memhost: false,
    downloadUrlContents: ['iso', 'vztmpl'],
    importDiskImages: false,
    rrdFormat: 'pve2',
    migratePreconditionExtras: [],
    bridgeAcl: false,
    rollbackStartNeedsPowerMgmt: false,
  }),
  '8.4': row('8.4', '8.4.21', '2606ac850d46da29', {
    resizeIsTask: true,
    approximateSize: false,
    currentKernel: true,
    memoryAvailable: false,
    memhost: false,
    downloadUrlContents: ['iso', 'vztmpl', 'import'],
    importDiskImages: true,
    rrdFormat: 'pve2',
    migratePreconditionExtras: ['mapped-resources', 'mapped-resource-info'],
    bridgeAcl: true,
    rollbackStartNeedsPowerMgmt: false,
  }),
  '9.2': row('9.2', '9.2.20', '49318c671b82f31e', {
    resizeIsTask: true,
    approximateSize: true,
    currentKernel: true,
    memoryAvailable: true,
    memhost: true,
    downloadUrlContents: ['iso', 'vztmpl', 'import'],
    importDiskImages: true,
    rrdFormat: 'pve-9.0',
    migratePreconditionExtras: ['mapped-resources', 'mapped-resource-info', 'has-dbus-vmstate'],
    bridgeAcl: true,
    rollbackStartNeedsPowerMgmt: true,
  }),
};

export function versionProfile(version: PveVersion | undefined): VersionProfile {
  const p = VERSION_PROFILES[version ?? DEFAULT_PVE_VERSION];
  if (!p) throw new Error(`the simulator has no Proxmox VE ${String(version)} profile (it knows ${PVE_VERSIONS.join(', ')})`);
  return p;
}

/** The node status answer (the reconstructed 9.2 one) in this version's shape. */
export function nodeStatusFor(profile: VersionProfile, captured: Record<string, unknown>): Record<string, unknown> {
  const out: Record<string, unknown> = { ...captured, pveversion: profile.pveversion };
  if (!profile.currentKernel) delete out['current-kernel'];
  if (!profile.memoryAvailable && typeof out.memory === 'object' && out.memory !== null) {
    const { available: _available, ...memory } = out.memory as Record<string, unknown>;
    out.memory = memory;
  }
  return out;
}

/**
 * A volume entry of a content listing: `approximate-size` in place of `size`
 * for an inactive qcow2 LV on an `lvm` storage, where pve-storage 9.1.5+
 * would not activate the LV to read the qcow2 header.
 */
export function volumeSizeFields(
  profile: VersionProfile,
  storageType: string,
  format: string,
  lvActive: boolean,
  bytes: number,
): { size: number } | { 'approximate-size': number } {
  if (profile.approximateSize && storageType === 'lvm' && format === 'qcow2' && !lvActive) return { 'approximate-size': bytes };
  return { size: bytes };
}
