/**
 * The cloud images Egress Desk can build a proxy template from (issue 14),
 * as data: the renderer lists them, main builds from them, the simulator
 * knows their URLs. Nothing here is fetched by the app itself.
 *
 * Checksums. Proxmox's `download-url` verifies a download against ONE value
 * (`checksum` + `checksum-algorithm`, pve-storage src/PVE/API2/Storage/Status.pm
 * `download_url`, then pve-common PVE::Tools::download_file_from_url); it cannot
 * read a publisher's checksum list. The publishers only give lists
 * (Debian: SHA512SUMS next to the image; Ubuntu: SHA256SUMS), and the "latest"
 * / "current" images change with every point release, so no value can be
 * pinned here. Each entry therefore stores the ALGORITHM and the URL of the
 * LIST; the UI shows that URL and asks the user to paste the line or value
 * for `checksumListEntry` (or a preflight that can reach the list fills it in).
 * A build without a value still runs, unverified, and says so.
 *
 * File names. download-url with `content=import` accepts only
 * `[a-zA-Z0-9-.+=_]+\.(ova|qcow2|raw|vmdk)` (pve-storage `$UPLOAD_IMPORT_EXT_RE_1`,
 * commit 76f695f, 8.3.6): Ubuntu's `.img` is a qcow2 file, so it is stored under
 * a `.qcow2` name (the name Proxmox keeps in `<storage>:import/<fileName>`).
 *
 * URLs: cloud.debian.org/images/cloud/<codename>/latest/ (Debian's cloud team
 * page, "genericcloud": the image without hardware drivers, for VMs), and
 * cloud-images.ubuntu.com/noble/current/ (Ubuntu's cloud image listing).
 */

/** Proxmox's `checksum-algorithm` enum for download-url (the official API schema). */
export const CHECKSUM_ALGORITHMS = ['md5', 'sha1', 'sha224', 'sha256', 'sha384', 'sha512'] as const;
export type ChecksumAlgorithm = (typeof CHECKSUM_ALGORITHMS)[number];

/** Hex digits per algorithm, to check a pasted value before any request. */
export const CHECKSUM_HEX_LENGTH: Record<ChecksumAlgorithm, number> = {
  md5: 32,
  sha1: 40,
  sha224: 56,
  sha256: 64,
  sha384: 96,
  sha512: 128,
};

export type ImageArch = 'amd64' | 'arm64';

export interface CatalogueImage {
  kind: 'catalogue';
  /** Stable key, also the default template name suffix. */
  id: string;
  label: string;
  distro: 'debian' | 'ubuntu';
  release: string;
  arch: ImageArch;
  /** The publisher's download URL (https). */
  url: string;
  /** The file name on the Proxmox storage (`<storage>:import/<fileName>`): ends in .qcow2. */
  fileName: string;
  /** The publisher's checksum list: where to read the value, and its algorithm. */
  checksum: { algorithm: ChecksumAlgorithm; listUrl: string; listEntry: string };
  /** About how big the download is, for the free-space preflight (an estimate; the real size is known after download). */
  approxBytes: number;
  /** The disk the image becomes (its virtual size), in GiB, for the free-space preflight. */
  virtualGiB: number;
}

export interface CustomImage {
  kind: 'custom';
  id: 'custom';
  label: string;
  /** The checksum is optional for a custom URL; when given, the algorithm is the user's choice. */
  checksumOptional: true;
}

export type ImageChoice = CatalogueImage | CustomImage;

const MiB = 1024 * 1024;

function debian(release: '12' | '13', codename: string, arch: ImageArch, approxMiB: number): CatalogueImage {
  const file = `debian-${release}-genericcloud-${arch}.qcow2`;
  const base = `https://cloud.debian.org/images/cloud/${codename}/latest/`;
  return {
    kind: 'catalogue',
    id: `debian-${release}-${arch}`,
    label: `Debian ${release} (${codename}) genericcloud, ${arch}`,
    distro: 'debian',
    release,
    arch,
    url: `${base}${file}`,
    fileName: file,
    checksum: { algorithm: 'sha512', listUrl: `${base}SHA512SUMS`, listEntry: file },
    approxBytes: approxMiB * MiB,
    virtualGiB: 3,
  };
}

function ubuntuNoble(arch: ImageArch, approxMiB: number): CatalogueImage {
  const published = `noble-server-cloudimg-${arch}.img`;
  const base = 'https://cloud-images.ubuntu.com/noble/current/';
  return {
    kind: 'catalogue',
    id: `ubuntu-24.04-${arch}`,
    label: `Ubuntu 24.04 LTS (noble) cloud image, ${arch}`,
    distro: 'ubuntu',
    release: '24.04',
    arch,
    url: `${base}${published}`,
    // The .img is qcow2 inside; Proxmox's import content takes .qcow2 names only.
    fileName: `noble-server-cloudimg-${arch}.qcow2`,
    checksum: { algorithm: 'sha256', listUrl: `${base}SHA256SUMS`, listEntry: `*${published}` },
    approxBytes: approxMiB * MiB,
    virtualGiB: 3.5,
  };
}

export const IMAGE_CATALOGUE: readonly CatalogueImage[] = [
  debian('12', 'bookworm', 'amd64', 340),
  debian('12', 'bookworm', 'arm64', 320),
  debian('13', 'trixie', 'amd64', 350),
  debian('13', 'trixie', 'arm64', 330),
  ubuntuNoble('amd64', 600),
  ubuntuNoble('arm64', 580),
];

export const CUSTOM_IMAGE: CustomImage = {
  kind: 'custom',
  id: 'custom',
  label: 'Another cloud image (URL)',
  checksumOptional: true,
};

export const IMAGE_CHOICES: readonly ImageChoice[] = [...IMAGE_CATALOGUE, CUSTOM_IMAGE];

export function catalogueImage(id: string): CatalogueImage | undefined {
  return IMAGE_CATALOGUE.find((i) => i.id === id);
}

/** A file name download-url accepts for `content=import` (pve-storage SAFE_CHAR_CLASS_RE + UPLOAD_IMPORT_EXT_RE_1). */
export const IMPORT_FILE_NAME = /^[a-zA-Z0-9\-.+=_]+\.(?:qcow2|raw|vmdk)$/;

/**
 * The value of a pasted checksum: a bare hex string, or a line of the
 * publisher's list (`<hex>  <file>` or `<hex> *<file>`). Undefined when it
 * does not hold a hex string of the algorithm's length.
 */
export function checksumFromPaste(text: string, algorithm: ChecksumAlgorithm): string | undefined {
  const hex = text.trim().split(/\s+/)[0]?.toLowerCase() ?? '';
  return new RegExp(`^[0-9a-f]{${CHECKSUM_HEX_LENGTH[algorithm]}}$`).test(hex) ? hex : undefined;
}

/** A name for a custom URL's file on the storage: its last path segment made safe, ending in .qcow2 unless it is .raw/.vmdk. */
export function importFileNameFor(url: string): string {
  const last = url.split(/[?#]/)[0]!.split('/').pop() ?? '';
  const safe = last.replace(/[^a-zA-Z0-9\-.+=_]/g, '_') || 'image';
  if (/\.(?:qcow2|raw|vmdk)$/.test(safe)) return safe;
  return `${safe.replace(/\.img$/, '')}.qcow2`;
}
