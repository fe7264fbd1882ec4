/** Proxmox volume and size strings: `local-lvm:vm-100-disk-1,size=4G`, `32G`, `+2G`. */

const UNIT: Record<string, number> = { '': 1, K: 1024, M: 1024 ** 2, G: 1024 ** 3, T: 1024 ** 4 };
const DISK_KEY = /^(scsi|virtio|sata|ide)\d+$|^efidisk0$|^tpmstate0$/;

export function parseSize(text: string): number | undefined {
  const m = /^(\d+(?:\.\d+)?)([KMGT]?)$/.exec(text);
  return m ? Math.round(Number(m[1]) * UNIT[m[2] ?? '']!) : undefined;
}

export function formatSize(bytes: number): string {
  for (const unit of ['T', 'G', 'M', 'K'] as const) {
    const size = UNIT[unit]!;
    if (bytes % size === 0) return `${bytes / size}${unit}`;
  }
  return String(bytes);
}

export function optionOf(value: string, key: string): string | undefined {
  for (const part of value.split(',')) {
    const [k, v] = part.split('=');
    if (k === key) return v;
  }
  return undefined;
}

export function withOption(value: string, key: string, wanted: string): string {
  const parts = value.split(',');
  const i = parts.findIndex((p) => p.startsWith(`${key}=`));
  if (i >= 0) parts[i] = `${key}=${wanted}`;
  else parts.push(`${key}=${wanted}`);
  return parts.join(',');
}

/** Disk slots that hold a volume (a CD-ROM or a cloud-init drive is not a disk). */
export function diskEntries(config: Record<string, string | number>): [string, string][] {
  return Object.entries(config)
    .filter(([k, v]) => DISK_KEY.test(k) && typeof v === 'string' && !v.includes('media=cdrom') && !v.includes('cloudinit'))
    .map(([k, v]) => [k, String(v)]);
}

export function diskSize(value: string): number {
  return parseSize(optionOf(value, 'size') ?? '0') ?? 0;
}

/** The boot disk's size, the first disk of `boot: order=…` (ide2 skipped), else the first disk. */
export function bootDiskBytes(config: Record<string, string | number>): number {
  const disks = new Map(diskEntries(config));
  const order = /order=([^,]+)/.exec(String(config.boot ?? ''))?.[1]?.split(';') ?? [];
  const first = order.find((k) => disks.has(k)) ?? [...disks.keys()][0];
  return first ? diskSize(disks.get(first)!) : 0;
}
