/**
 * Room on a disk's storage for it to grow (issue 22 item 15: a reconfigure
 * to 64 TiB went out unchecked). Read from Proxmox before any write: GET
 * /nodes/{node}/storage/{storage}/status, its `avail` in bytes
 * (pve-storage API2/Storage/Status.pm read_status).
 *
 * The whole growth must fit in what is free, on every kind of storage. On
 * thick LVM Proxmox allocates the size at once and fails without room. On a
 * thin pool (lvmthin, zfspool, rbd) or a sparse file (dir, nfs, cifs,
 * btrfs) Proxmox accepts any size and takes space only as the guest writes;
 * but the guest grows its partition and filesystem to the new size at boot
 * (cloud-init growpart, resizefs) and a proxy's logs and cache fill it, and
 * a full thin pool stops every VM on it with I/O errors. So Egress Desk
 * assumes the guest will use what it is given, and says so when it refuses.
 *
 * Issue 21: a create's read of the storage serves the creates that follow on
 * that storage for ROOM_READ_REUSE_MS, each counting the growth of those
 * checked against the same read before it (so a bulk is checked as a whole,
 * stricter than a read per create, which saw none of the others' growth on a
 * thin pool). A refusal is only ever made on a read of its own, so what it
 * says is what the storage has now. In a bulk of 20 the later creates of a
 * node (those that waited for a node slot) each sent one more read, at the
 * pace's 'read' class behind the other creates' writes, just before their clone.
 */
import type { PveApi } from '../../pve/api';
import type { StorageStatus } from '../../pve/schemas';
import type { CoreContext, VmConfig } from '../calls/context';
import { bootDisk, diskBytes } from '../rules/boot-disk';
import { ProviderError } from '../rules/errors';
import { readRecent, readsPer } from './recent-read';

/** How long one read of a storage's status serves the creates that follow (with their growth counted). */
export const ROOM_READ_REUSE_MS = 30_000;

/** A storage's status as read once, and the growth the creates checked against it have claimed since. */
interface RoomRead {
  status: StorageStatus;
  claimed: number;
}

/** Per Proxmox client, `<node>/<storage>` → the last read of that storage's status for a create. */
const roomReadsOf = readsPer<PveApi, RoomRead>();

const GIB = 2 ** 30;
const gib = (bytes: number) => `${(bytes / GIB).toFixed(1)} GiB`;

/** Storage types that allocate the whole size at once; every other kind takes space as the guest writes. */
const THICK = new Set(['lvm', 'iscsidirect']);

export const DISK_ROOM_CODE = 'disk-no-room';

/** The storage a disk value lives on (`local-lvm:vm-100-disk-0,size=4G` → `local-lvm`), or undefined for a path. */
export function diskStorage(diskValue: string | undefined): string | undefined {
  const volume = (diskValue ?? '').split(',', 1)[0]!;
  const colon = volume.indexOf(':');
  return colon > 0 && !volume.startsWith('/') ? volume.slice(0, colon) : undefined;
}

/** The storage of a config's boot disk (`local-lvm` of `local-lvm:base-9001-disk-0,size=3G`), if it has one. */
export function bootDiskStorage(config: VmConfig): string | undefined {
  const disk = bootDisk(config);
  return disk ? diskStorage(config[disk]) : undefined;
}

/**
 * Refuses, before anything is sent, growing `disk` of VM `vmid` to `sizeGiB` when its storage on `node` has less free
 * space than the growth. A disk on a path (no storage) is Proxmox's to judge.
 */
export async function checkDiskRoom(
  ctx: CoreContext,
  at: { node: string; vmid: number },
  config: VmConfig,
  disk: string,
  sizeGiB: number,
  signal?: AbortSignal,
): Promise<void> {
  const storage = diskStorage(config[disk]);
  const today = diskBytes(config[disk]);
  if (!storage || today === undefined) return;
  await checkRoom(ctx, { node: at.node, storage }, { today, sizeGiB, what: `the disk ${disk} of VM ${at.vmid}` }, signal);
}

/**
 * The same rule for a create whose machine type grows the template's boot disk (issue 22's leftover): the full
 * clone copies the template's disk onto `storage`, then the resize grows it, so the whole new size must fit on every
 * node the disk lands on (the clone's node, and the chosen node when the stopped VM moves there). Checked after the
 * template is read and before the clone, so a refusal leaves nothing behind.
 */
export async function checkNewDiskRoom(
  ctx: CoreContext,
  /** `storage`: where the clone's disks go (the profile's disk storage, else the template's own). */
  create: { name: string; nodes: readonly string[]; storage: string | undefined; templateVmid: number },
  templateConfig: VmConfig,
  sizeGiB: number | undefined,
  signal?: AbortSignal,
): Promise<void> {
  const disk = bootDisk(templateConfig);
  const today = disk ? diskBytes(templateConfig[disk]) : undefined;
  const { storage } = create;
  if (!sizeGiB || !storage || today === undefined || sizeGiB * GIB <= today) return;
  const what = `the new proxy ${create.name}'s disk (a copy of template ${create.templateVmid}'s ${gib(today)})`;
  // Counted from nothing: every byte of the new disk is new on that storage.
  for (const node of new Set(create.nodes))
    await checkRoom(
      ctx,
      { node, storage },
      {
        today: 0,
        shown: today,
        sizeGiB,
        what,
        choose: 'Choose a machine type whose disk is',
        keep: "choose a machine type that keeps the template's disk size",
      },
      signal,
      true,
    );
}

/** Whether `growth` more bytes fit in what the status says is free. */
function fits(status: StorageStatus, growth: number): boolean {
  return status.active !== false && status.avail !== undefined && growth <= status.avail;
}

/**
 * The create's storage read: a recent one (ROOM_READ_REUSE_MS, or one on the wire) with room left after the growth
 * claimed against it, claimed then; else a read of its own, which is kept for the next creates and decides.
 */
async function roomForCreate(
  ctx: CoreContext,
  on: { node: string; storage: string },
  growth: number,
  signal?: AbortSignal,
): Promise<StorageStatus> {
  const reads = roomReadsOf(ctx.api);
  const key = `${on.node}/${on.storage}`;
  let own = false;
  const read = async (): Promise<RoomRead> => {
    own = true;
    return { status: await ctx.api.storageStatus(on.node, on.storage, { signal }), claimed: 0 };
  };
  let room = await readRecent(reads, key, { now: ctx.now().getTime(), maxAgeMs: ROOM_READ_REUSE_MS, signal, read });
  if (!own && !fits(room.status, room.claimed + growth)) {
    // Not enough by the shared read: the storage is read again, and that read alone may refuse.
    reads.delete(key);
    room = await readRecent(reads, key, { now: ctx.now().getTime(), maxAgeMs: ROOM_READ_REUSE_MS, signal, read });
  }
  if (fits(room.status, room.claimed + growth)) room.claimed += growth;
  else if (room.claimed > 0) return { ...room.status, avail: Math.max(0, (room.status.avail ?? 0) - room.claimed) };
  return room.status;
}

async function checkRoom(
  ctx: CoreContext,
  on: { node: string; storage: string },
  grow: { today: number; shown?: number; sizeGiB: number; what: string; choose?: string; keep?: string },
  signal?: AbortSignal,
  /** A create's check: a recent read serves it, with the growth of the creates before it counted (roomForCreate). */
  forCreate = false,
): Promise<void> {
  const { node, storage } = on;
  const { today, sizeGiB, what } = grow;
  const growth = sizeGiB * GIB - today;
  if (growth <= 0) return;
  const status = forCreate ? await roomForCreate(ctx, on, growth, signal) : await ctx.api.storageStatus(node, storage, { signal });
  const where = `storage ${storage} on ${node}`;
  const refuse = (message: string, hint: string) => new ProviderError('permanent', message, undefined, undefined, hint, DISK_ROOM_CODE);
  if (status.active === false)
    throw refuse(`${where} is not active, so ${what} cannot grow; nothing was sent`, `Activate ${storage} on ${node} in the Proxmox UI.`);
  if (status.avail === undefined)
    throw refuse(
      `Proxmox did not say how much space is free on ${where}, so growing ${what} to ${sizeGiB} GiB was not sent`,
      `Check ${storage} in the Proxmox UI (Datacenter → Storage), then try again.`,
    );
  if (growth <= status.avail) return;
  const thin = !THICK.has(status.type);
  const assumption = thin
    ? ` ${storage} is ${status.type}, which takes space only as the guest writes, so Proxmox would accept the size; Egress Desk counts the whole growth, because the guest grows its filesystem to the disk at boot and a full ${status.type === 'lvmthin' ? 'thin pool' : 'storage'} stops every VM on it.`
    : ` ${storage} is ${status.type}, which allocates the whole size at once.`;
  const from = grow.shown ?? today;
  const most = Math.floor((today + status.avail) / GIB);
  throw refuse(
    `${what} would grow from ${gib(from)} to ${sizeGiB} GiB, ${gib(growth)} ${grow.shown === undefined ? 'more' : `new on ${storage}`}, and ${where} has ${gib(status.avail)} free; nothing was sent.${assumption}`,
    most > from / GIB
      ? `${grow.choose ?? 'Choose'} at most ${most} GiB, or free space on ${storage} first.`
      : `Free space on ${storage} first, or ${grow.keep ?? 'keep the disk as it is'}.`,
  );
}
