/**
 * Issue 14: what download-url needs besides the cluster. The "internet" is a
 * table of remote images keyed by URL (the image catalogue's URLs by
 * default, with a simulated size and a checksum derived from the URL unless
 * a test supplies one); nothing is ever fetched. The import volumes are the
 * files in `<storage>:import/`, one folder per node for a local storage and
 * one for the cluster for a shared one, like the ISO folders.
 *
 * Kept beside the ClusterState (a WeakMap on it) so the state's own shape
 * and the simulator's handle need not change: tests reach it with
 * `simImages(sim)`.
 */
import { createHash } from 'node:crypto';
import { IMAGE_CATALOGUE, type ChecksumAlgorithm } from '../../shared/domain/image-catalogue';
import type { ClusterState } from './state';

export interface RemoteImage {
  url: string;
  /** The file's length in bytes. */
  bytes: number;
  /** The disk it holds (qcow2 virtual size), in bytes. */
  virtualBytes: number;
  format: 'qcow2' | 'raw' | 'vmdk';
  /** The file's real checksums; an algorithm not given is derived from the URL (stable per URL). */
  checksums: Partial<Record<ChecksumAlgorithm, string>>;
}

export interface ImportVolume {
  filename: string;
  bytes: number;
  virtualBytes: number;
  format: RemoteImage['format'];
  /** The checksums of what was downloaded: a re-run with a checksum is verified against them. */
  checksums: Partial<Record<ChecksumAlgorithm, string>>;
  /** Where it came from, for the checksums of algorithms not recorded. */
  url: string;
  ctime: number;
}

const GiB = 1024 ** 3;

/** Bytes per second the nodes download at (a 400 Mbit/s home link, an estimate); `simImages(sim).downloadBytesPerSec` changes it. */
export const DEFAULT_DOWNLOAD_BYTES_PER_SEC = 50_000_000;

export class SimImages {
  readonly remote = new Map<string, RemoteImage>();
  /** `node/storage` (local) or `*\/storage` (shared) → file name → volume. */
  readonly volumes = new Map<string, Map<string, ImportVolume>>();
  downloadBytesPerSec = DEFAULT_DOWNLOAD_BYTES_PER_SEC;

  constructor(private readonly state: ClusterState) {
    for (const image of IMAGE_CATALOGUE)
      this.register(image.url, { bytes: image.approxBytes, virtualBytes: Math.round(image.virtualGiB * GiB), format: 'qcow2' });
  }

  /** Adds or replaces a remote image; a test supplies the checksum it will pass to download-url. */
  register(url: string, image: Partial<Omit<RemoteImage, 'url'>> & { bytes: number }): RemoteImage {
    const entry: RemoteImage = {
      url,
      bytes: image.bytes,
      virtualBytes: image.virtualBytes ?? Math.max(image.bytes, 3 * GiB),
      format: image.format ?? 'qcow2',
      checksums: { ...image.checksums },
    };
    this.remote.set(url, entry);
    return entry;
  }

  /** Makes a URL unreachable from every node (its host does not resolve). */
  unregister(url: string): void {
    this.remote.delete(url);
  }

  /** The real checksum of a remote image (or a downloaded volume from it) under an algorithm. */
  checksum(url: string, algorithm: ChecksumAlgorithm): string {
    const given = this.remote.get(url)?.checksums[algorithm];
    return given ?? createHash(algorithm).update(`egress-desk-simulated-image:${url}`).digest('hex');
  }

  private key(node: string, storage: string): string {
    const s = this.state.node(node)?.storages.get(storage);
    return s?.shared ? `*/${storage}` : `${node}/${storage}`;
  }

  volume(node: string, storage: string, filename: string): ImportVolume | undefined {
    return this.volumes.get(this.key(node, storage))?.get(filename);
  }

  list(node: string, storage: string): ImportVolume[] {
    return [...(this.volumes.get(this.key(node, storage))?.values() ?? [])];
  }

  put(node: string, storage: string, volume: ImportVolume): void {
    const key = this.key(node, storage);
    const files = this.volumes.get(key) ?? new Map<string, ImportVolume>();
    this.volumes.set(key, files);
    files.set(volume.filename, volume);
  }

  remove(node: string, storage: string, filename: string): ImportVolume | undefined {
    const files = this.volumes.get(this.key(node, storage));
    const v = files?.get(filename);
    files?.delete(filename);
    return v;
  }
}

const worlds = new WeakMap<ClusterState, SimImages>();

/** The remote images and import volumes of a simulator (or of its state). */
export function simImages(sim: { state: ClusterState } | ClusterState): SimImages {
  const state = 'state' in sim ? sim.state : sim;
  let w = worlds.get(state);
  if (!w) {
    w = new SimImages(state);
    worlds.set(state, w);
  }
  return w;
}

/** Where a file storage keeps its files on the node (pve-storage: `local` is /var/lib/vz, NFS mounts under /mnt/pve). */
export function storagePath(storage: string, type: string): string {
  if (storage === 'local') return '/var/lib/vz';
  if (type === 'nfs') return `/mnt/pve/${storage}`;
  return `/var/lib/${storage}`;
}

/** wget's `--progress=dot:giga` rate: `9.87M`, `10.3M`, `112M` (bytes/s in binary units, as wget prints). */
export function wgetRate(bytesPerSec: number): string {
  const units = ['', 'K', 'M', 'G'];
  let v = bytesPerSec;
  let u = 0;
  while (v >= 1024 && u < units.length - 1) {
    v /= 1024;
    u++;
  }
  const text = v < 10 ? v.toFixed(2) : v < 100 ? v.toFixed(1) : v.toFixed(0);
  return `${text}${units[u]}`;
}

/** wget's short ETA: `58s`, `1m2s`, `1h3m`. */
export function wgetEta(seconds: number): string {
  const s = Math.max(0, Math.round(seconds));
  if (s < 60) return `${s}s`;
  if (s < 3600) return `${Math.floor(s / 60)}m${s % 60}s`;
  return `${Math.floor(s / 3600)}h${Math.floor((s % 3600) / 60)}m`;
}

/** One `dot:giga` row: 32 MiB as 4 clusters of 8 one-MiB dots, the offset in K, the percentage, the rate and the ETA (or `=total`). */
export function wgetRow(offsetBytes: number, rowBytes: number, total: number, rate: number, tail: string): string {
  const dots = Math.max(1, Math.ceil(rowBytes / (1024 * 1024)));
  let row = '';
  for (let i = 0; i < 32; i++) row += (i % 8 === 0 ? ' ' : '') + (i < dots ? '.' : ' ');
  const pct = Math.min(100, Math.floor(((offsetBytes + rowBytes) / total) * 100));
  return `${String(Math.floor(offsetBytes / 1024)).padStart(6)}K${row} ${String(pct).padStart(3)}% ${wgetRate(rate)}${tail}`;
}
