/**
 * Reconfigure a proxy's VM (issue 16), under the per-name lock: its machine
 * (cores, memory, a larger boot disk) and its cloud-init user-data. The marks
 * (description and tag) are never written.
 *
 * When each change takes effect on a running VM, as qemu-server applies a
 * config write (proxmox/qemu-server@e6352be6 src/PVE/QemuServer.pm
 * vmconfig_hotplug_pending; `hotplug` defaults to `network,disk,usb`):
 * - cores: never live. Only `vcpus` is hotplugged (with `cpu` in `hotplug`);
 *   `cores` falls to "skip non-hot-pluggable options" and stays pending until
 *   the VM is next started by Proxmox (a stop and start, or Proxmox's reboot,
 *   which starts a new QEMU; a reboot from inside the guest does not).
 * - memory: live only with `memory` in `hotplug` and `numa: 1`
 *   (QemuServer/Memory.pm: "NUMA needs to be enabled for memory hotplug"),
 *   both in force since the VM's start; otherwise pending until the next start.
 * - disk size: live (PUT …/resize grows the volume and tells QEMU); growing
 *   only ("shrinking disks is not supported", API2/Qemu.pm resize_vm), so a
 *   size not larger than today's is refused here before any request, and so
 *   is a growth larger than the free space of the disk's storage
 *   (disk-room.ts, one read of the storage's status).
 * - user-data: the guest reads its seed at boot, so it takes effect at the
 *   next boot; the new seed carries a new instance-id so cloud-init runs
 *   again.
 * A stopped VM takes every change at its next start. With `reboot` (the
 * default), a running VM with anything pending is rebooted through Proxmox.
 *
 * The seed swap. pve-storage's upload overwrites an existing file in place
 * (API2/Storage/Status.pm upload: `cp -- <tmp> <dest>`, "we simply overwrite
 * the destination file if it already exists"), with no clean-up of a half
 * written local file when the copy fails (disk full). Writing over the seed
 * the VM uses could leave it a broken seed. So the new seed is first uploaded
 * under a temporary name (`<name>-seed.next.iso`) and the CD-ROM pointed at
 * it (stage-seed); only then is it written under the seed's own name, the
 * CD-ROM pointed back, and the temporary copy deleted (replace-seed). The VM
 * always holds a complete seed, and ends with the same volume name.
 *
 * Resumable: a CD-ROM holding the temporary copy means stage-seed is done;
 * every other step is safe to repeat (config writes replace, the resize is
 * skipped once the disk is that large, uploads overwrite).
 *
 * Long because it is one operation whose steps share the lookup's reads (the
 * config, the status), and the pure rules beside them (effectsOf,
 * checkChange) that its tests call directly.
 */
import { bootDisk, diskBytes } from '../rules/boot-disk';
import { rewriteNet0 } from '../rules/net0';
import type { ProxyNetwork } from '../../../../shared/domain/proxy-network';
import type { CoreContext, VmConfig } from '../calls/context';
import { toProviderError } from '../rules/classify';
import { checkDiskRoom, DISK_ROOM_CODE } from '../cluster/disk-room';
import { ProviderError } from '../rules/errors';
import { parseProviderId } from '../rules/ids';
import { DEFAULT_SHUTDOWN_TIMEOUT_SECONDS, waitBackUp, type PowerOptions } from './power';
import { progressReporter, type ProgressReporter } from '../calls/progress';
import { resolveVm } from '../cluster/resources';
import { buildProxySeed, cdromVolume, stagedSeedIsoName, stagedSeedVolumeId } from '../cluster/seed-source';
import { LOCK_SUSPENDED } from '../calls/tasks';
import { runTaskStep } from '../calls/task-step';
import { goneError, lockedError, readConfigOrGone, refuseIfNotTheOne } from '../cluster/vm-lookup';

/** What to change; at least one field. */
export interface ReconfigureChange {
  cores?: number;
  memoryMiB?: number;
  /** Larger than the boot disk's size today. */
  diskGiB?: number;
  /**
   * New user-data, with the new instance-id its seed carries (seed-source.ts newInstanceId; kept by the caller), and the
   * proxy's network, so a static address's network-config is written into the new seed again (issue 24).
   */
  userData?: { text: string; instanceId: string; network?: ProxyNetwork | undefined };
  /**
   * Issue 24: another bridge or VLAN tag on net0 (model and MAC kept; a null tag takes it off). With `network` in
   * `hotplug` (the default) a running VM's NIC moves at once (qemu-server vmconfig_update_net: a changed bridge or
   * tag is set on the tap device without re-plugging it).
   */
  network?: { bridge?: string; vlanTag?: number | null };
}

export interface ReconfigureOptions extends PowerOptions {
  /** Reboot a running VM when something waits for its next start (default true). */
  reboot?: boolean;
}

export type TakesEffect = 'now' | 'next-boot';

export interface ReconfigureResult {
  id: string;
  node: string;
  vmid: number;
  /** When each changed field takes effect (what the task's summary says). */
  effects: { field: 'cores' | 'memory' | 'disk' | 'user-data' | 'network'; takesEffect: TakesEffect }[];
  /** The VM was rebooted so the changes apply. */
  rebooted: boolean;
  /** The seed's instance-id, when the user-data changed. */
  instanceId?: string;
  message: string;
}

export const RECONFIGURE_CODES = {
  nothingToChange: 'nothing-to-change',
  diskNotLarger: 'disk-not-larger',
  /** A disk size was asked for, but the VM has no boot disk whose size can be read. */
  noBootDisk: 'no-boot-disk',
  /** The disk's storage has less free space than the growth (disk-room.ts). */
  diskNoRoom: DISK_ROOM_CODE,
  notTheOne: 'not-the-one',
} as const;

const invalid = (message: string, hint: string, code: string) => new ProviderError('permanent', message, undefined, undefined, hint, code);

/** The `hotplug` features in force (qemu-server parse_hotplug_features: `1` is the default set, `0` none). */
export function hotplugFeatures(config: VmConfig): Set<string> {
  const raw = config.hotplug ?? '1';
  if (raw === '0') return new Set();
  return new Set((raw === '1' ? 'network,disk,usb' : raw).split(',').map((s) => s.trim()));
}

/** When each field of `change` takes effect on a VM with this config, running or not. Pure. */
export function effectsOf(config: VmConfig, change: ReconfigureChange, running: boolean): ReconfigureResult['effects'] {
  const out: ReconfigureResult['effects'] = [];
  const later = (live: boolean): TakesEffect => (running && live ? 'now' : 'next-boot');
  const hot = hotplugFeatures(config);
  if (change.cores !== undefined) out.push({ field: 'cores', takesEffect: later(false) });
  if (change.memoryMiB !== undefined) out.push({ field: 'memory', takesEffect: later(hot.has('memory') && config.numa === '1') });
  // A stopped VM's disk is grown at once too: it is there when it starts.
  if (change.diskGiB !== undefined) out.push({ field: 'disk', takesEffect: 'now' });
  if (change.userData !== undefined) out.push({ field: 'user-data', takesEffect: 'next-boot' });
  if (change.network !== undefined)
    out.push({ field: 'network', takesEffect: running ? (hot.has('network') ? 'now' : 'next-boot') : 'now' });
  return out;
}

/** net0 with the change's bridge and tag, its model and MAC kept; no net0 is refused before any write. */
function newNet0(vmid: number, config: VmConfig, network: NonNullable<ReconfigureChange['network']>): string {
  if (!config.net0)
    throw invalid(`VM ${vmid} has no net0 to move to another bridge or VLAN`, 'Give the VM a network device first.', 'no-net0');
  return rewriteNet0(config.net0, network.bridge, network.vlanTag);
}

/** The refusals a config alone decides, before any request that changes the VM. */
export function checkChange(vmid: number, config: VmConfig, change: ReconfigureChange): { disk?: string } {
  if (
    change.cores === undefined &&
    change.memoryMiB === undefined &&
    change.diskGiB === undefined &&
    change.userData === undefined &&
    change.network === undefined
  )
    throw invalid(
      'nothing to change: give cores, memory, a disk size, user-data or a network',
      'Choose what to change.',
      RECONFIGURE_CODES.nothingToChange,
    );
  if (change.diskGiB === undefined) return {};
  const disk = bootDisk(config);
  const bytes = disk ? diskBytes(config[disk]) : undefined;
  if (!disk || bytes === undefined)
    throw invalid(
      `VM ${vmid} has no boot disk with a readable size to grow`,
      "Check the VM's disks in the Proxmox UI.",
      RECONFIGURE_CODES.noBootDisk,
    );
  if (change.diskGiB * 2 ** 30 <= bytes)
    throw invalid(
      `the disk ${disk} of VM ${vmid} is ${(bytes / 2 ** 30).toFixed(1)} GiB today; ${change.diskGiB} GiB is not larger, and Proxmox cannot shrink a disk; nothing was sent`,
      `Choose a size above ${Math.ceil(bytes / 2 ** 30)} GiB, or keep the disk as it is.`,
      RECONFIGURE_CODES.diskNotLarger,
    );
  return { disk };
}

/**
 * Steps (progress.ts reconfigureSteps): lookup, configure (cores, memory), resize, stage-seed, replace-seed, reboot,
 * wait-running; each skipped when not asked for or not needed. Resumable: rerun with the same change (the same
 * instance-id); a CD-ROM on the temporary seed means stage-seed is done.
 */
export async function reconfigure(
  ctx: CoreContext,
  id: string,
  change: ReconfigureChange,
  options: ReconfigureOptions = {},
): Promise<ReconfigureResult> {
  const { signal } = options;
  const report = progressReporter('reconfigure', options.onProgress);
  try {
    const { vmid, name } = parseProviderId(id);
    const release = await ctx.locks.acquire(name, signal);
    try {
      return await run(ctx, id, vmid, name, change, options, report);
    } finally {
      release();
    }
  } catch (e) {
    throw toProviderError('reconfigure', e, id);
  }
}

async function run(
  ctx: CoreContext,
  id: string,
  vmid: number,
  name: string,
  change: ReconfigureChange,
  options: ReconfigureOptions,
  report: ProgressReporter,
): Promise<ReconfigureResult> {
  const { signal } = options;
  report('lookup', 'started', { vmid });
  const r = await resolveVm(ctx, vmid, { signal });
  if (!r?.node) throw goneError(vmid);
  if (r.lock && r.lock !== LOCK_SUSPENDED) throw lockedError(vmid, r.lock);
  const node = r.node;
  const config = await readConfigOrGone(ctx, node, vmid, signal);
  refuseIfNotTheOne(vmid, config, { name, ...(options.expect ? { uid: options.expect.uid } : {}) }, RECONFIGURE_CODES.notTheOne);
  if (config.lock && config.lock !== LOCK_SUSPENDED) throw lockedError(vmid, config.lock);
  const { disk } = checkChange(vmid, config, change);
  const net0 = change.network === undefined ? undefined : newNet0(vmid, config, change.network);
  if (disk && change.diskGiB !== undefined) await checkDiskRoom(ctx, { node, vmid }, config, disk, change.diskGiB, signal);
  const seedBytes = change.userData
    ? buildProxySeed(
        ctx,
        name,
        { userData: change.userData.text, instanceId: change.userData.instanceId, network: change.userData.network },
        config,
      )
    : undefined;
  const status = await ctx.api.vmStatus(node, vmid, { signal });
  const running = status.status === 'running' && config.lock !== LOCK_SUSPENDED;
  report('lookup', 'done', { node, vmid });
  const at = { node, vmid };

  const machine: Record<string, number | string> = {};
  if (change.cores !== undefined) machine.cores = change.cores;
  if (change.memoryMiB !== undefined) machine.memory = change.memoryMiB;
  if (net0 !== undefined) machine.net0 = net0;
  if (Object.keys(machine).length > 0) {
    report('configure', 'started', at);
    await ctx.api.setVmConfig(node, vmid, machine, { signal });
    report('configure', 'done', at);
  } else report('configure', 'skipped', at);

  if (disk && change.diskGiB !== undefined) {
    const submit = () => ctx.api.resize(node, vmid, disk, `${change.diskGiB}G`, { signal });
    await runTaskStep(ctx, report, { step: 'resize', at, submit, budgetMs: ctx.budgets.resizeMs, signal });
  } else report('resize', 'skipped', at);

  if (seedBytes) await swapSeed(ctx, node, vmid, name, seedBytes, config, report, signal);
  else {
    report('stage-seed', 'skipped', at);
    report('replace-seed', 'skipped', at);
  }

  const effects = effectsOf(config, change, running);
  const pending = running && effects.some((e) => e.takesEffect === 'next-boot');
  let rebooted = false;
  if (pending && options.reboot !== false) {
    const timeout = options.timeoutSeconds ?? DEFAULT_SHUTDOWN_TIMEOUT_SECONDS;
    const submit = () => ctx.api.reboot(node, vmid, { timeout }, { signal });
    await runTaskStep(ctx, report, { step: 'reboot', at, submit, budgetMs: timeout * 1000 + ctx.budgets.stopMs, signal });
    report('wait-running', 'started', at);
    await waitBackUp(ctx, node, vmid, signal);
    report('wait-running', 'done', at);
    rebooted = true;
  } else {
    report('reboot', 'skipped', at);
    report('wait-running', 'skipped', at);
  }
  const applied = effects.map(
    (e) => `${e.field} ${rebooted || e.takesEffect === 'now' ? 'applied' : running ? 'at next boot' : 'at next start'}`,
  );
  ctx.log.info('proxmox vm reconfigured', { vmid, node, fields: effects.map((e) => e.field), rebooted });
  return {
    id,
    node,
    vmid,
    effects,
    rebooted,
    ...(change.userData ? { instanceId: change.userData.instanceId } : {}),
    message: `reconfigured: ${applied.join(', ')}${rebooted ? ' (rebooted)' : ''}`,
  };
}

/** stage-seed, then replace-seed: the CD-ROM never holds a half-written seed. */
async function swapSeed(
  ctx: CoreContext,
  node: string,
  vmid: number,
  name: string,
  bytes: Uint8Array,
  config: VmConfig,
  report: ProgressReporter,
  signal?: AbortSignal,
): Promise<void> {
  const { isoStorage } = ctx.profile;
  const at = { node, vmid };
  const staged = stagedSeedVolumeId(isoStorage, name);
  const seed = ctx.seed.seedVolumeId(isoStorage, name);
  // Each seed step holds more than its task: the steps' own `started` and `done` frame them.
  const task = (step: 'stage-seed' | 'replace-seed', submit: () => Promise<string>, budgetMs: number) =>
    runTaskStep(ctx, report, { step, at, submit, budgetMs, signal, started: false, done: false });
  const upload = (step: 'stage-seed' | 'replace-seed', file: string) =>
    task(step, () => ctx.api.uploadIso(node, isoStorage, file, bytes, { signal }), ctx.budgets.uploadMs);

  if (cdromVolume(config) === staged) report('stage-seed', 'skipped', at);
  else {
    report('stage-seed', 'started', at);
    await upload('stage-seed', stagedSeedIsoName(name));
    await ctx.api.setVmConfig(node, vmid, { ide2: `${staged},media=cdrom` }, { signal });
    report('stage-seed', 'done', at);
  }

  report('replace-seed', 'started', at);
  await upload('replace-seed', ctx.seed.seedIsoName(name));
  await ctx.api.setVmConfig(node, vmid, { ide2: `${seed},media=cdrom` }, { signal });
  await task('replace-seed', () => ctx.api.deleteVolume(node, isoStorage, staged, { signal }), ctx.budgets.seedDeleteMs);
  report('replace-seed', 'done', at);
}
