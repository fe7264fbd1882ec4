/**
 * Finding the boot disk and its size (spec entry 6). Proxmox appends the
 * seed's `ide2` to the boot order (F19), so CD-ROMs are skipped.
 */
export type VmConfig = Record<string, string>;

/** A Proxmox disk slot: where a boot disk, a CD-ROM or a cloud-init drive can sit. */
export const diskKeyPattern = /^(ide|sata|scsi|virtio)[0-9]+$/;

/** The value of `key=` among a config value's comma-separated options, or ''. */
export function configOption(value: string | undefined, key: string): string {
  for (const option of (value ?? '').split(',')) {
    if (option.startsWith(`${key}=`)) return option.slice(key.length + 1);
  }
  return '';
}

/** The first disk of `boot: order=…` that is not a CD-ROM, else `bootdisk`, else the first of scsi0, virtio0, sata0, ide0. */
export function bootDisk(config: VmConfig): string | undefined {
  const isDisk = (key: string | undefined): key is string =>
    key !== undefined && diskKeyPattern.test(key) && config[key] !== undefined && configOption(config[key], 'media') !== 'cdrom';
  const ordered = configOption(config.boot, 'order').split(';').find(isDisk);
  if (ordered) return ordered;
  if (isDisk(config.bootdisk)) return config.bootdisk;
  return ['scsi0', 'virtio0', 'sata0', 'ide0'].find(isDisk);
}

const unitShift: Record<string, number> = { K: 10, M: 20, G: 30, T: 40 };

/** A disk value's `size=` in bytes (Proxmox's `<n>[KMGT]`, bytes without a suffix), or undefined. */
export function diskBytes(diskValue: string | undefined): number | undefined {
  const size = configOption(diskValue, 'size');
  const match = /^([0-9]+(?:\.[0-9]+)?)([KMGT]?)$/.exec(size);
  if (!match) return undefined;
  const shift = unitShift[match[2] ?? ''] ?? 0;
  return Math.floor(Number(match[1]) * 2 ** shift);
}
