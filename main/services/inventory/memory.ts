/**
 * Issue 27 item 4: what the inventory learned of a cluster, kept across
 * restarts in the data folder (`inventory/<cluster>.json`, 0600, written
 * atomically), so a restart shows the proxies with their marks and
 * addresses after one listing instead of a config read and an agent read per
 * VM (bench-inventory: 2,001 requests at 1,000 VMs, 10,001 at 5,000).
 *
 * What is kept, per VM: its mark (managed, UID, created-at: no secret, the
 * UID is the proxy's public identity), net0's MAC, and for a running proxy
 * its agent address with the boot it belongs to (uptime and start time).
 * Nothing else: the VM's description is never kept (only the parsed mark),
 * nor any token or proxy credential (test/integration/services/inventory/
 * restart.test.ts reads the file for a sentinel). The file names the
 * cluster's URL, which the profile schema keeps free of `user:pass@`.
 *
 * The key, and why it is safe. `/cluster/resources` carries no config
 * digest, so a kept mark is trusted only while everything the listing says
 * of the VM's config is as it was when the mark was read: VMID, name, node,
 * tags, cores, memory, boot disk size, template flag. A VM renamed, moved,
 * resized, retagged or deleted and recreated under other values while the
 * app was closed is read again on the first refresh. An address is kept
 * only for the same boot: the guest still running, its uptime not below the
 * kept one, and its start time (now − uptime) within START_DRIFT_MS of the
 * kept one; a guest restarted meanwhile has its agent asked again, as
 * runtime.ts does for an uptime going backwards while the app runs. A file
 * from another cluster URL, another version, or that does not parse is
 * ignored with a log line: that costs a cold start, never a failure. The
 * demo cluster keeps nothing: it is simulated anew at each start.
 *
 * What the key can miss: a description edited by hand (or a VM deleted and
 * recreated with the same VMID, name, node and size) while the app was
 * closed. Two things cover it. Every write (delete, reconfigure, power,
 * migrate) reads the VM's config afresh and checks the name, mark and UID
 * right before its request (core/provider/cluster/ownership.ts notTheOne), as
 * without this memory, so a kept mark never lets a write touch a VM that is
 * not ours. And every kept mark is read again in the background, spread over
 * the first half hour, VERIFY_PER_NODE per node every VERIFY_GAP_MS (a
 * twelfth of the node's pace, core/pve/pace.ts DEFAULT_PACE: 3 a second, one
 * per pveproxy worker) and only while a window is shown, so a row that was
 * wrong is corrected without a burst and a hidden app adds nothing alerts do
 * not need.
 */
import { readFileSync, rmSync } from 'node:fs';
import { createHash } from 'node:crypto';
import { join } from 'node:path';
import { z } from 'zod';
import type { ClusterResource } from '../../core';
import type { Logger } from '../../log/logger';
import { ensurePrivateDir, writePrivateFileAtomic } from '../../files/data-dir';
import type { KnownMark } from './marks';

export const MEMORY_VERSION = 1;
/** A kept start time that differs from the listing's by less than this is the same boot (runtime.ts START_DRIFT_MS). */
export const SAME_BOOT_MS = 30_000;
/**
 * Kept marks read again per node in each pass, a pass every VERIFY_GAP_MS while a window is shown: a quarter of a
 * request a second per node, a twelfth of DEFAULT_PACE's 3, so a restart's first minute stays within issue 27's 50
 * requests at 1,000 known proxies (13 listings and 30 reads on two nodes); at 1,000 VMs on two nodes every kept mark
 * is read again within about 35 minutes. Writes never wait for it (they read the config themselves).
 */
export const VERIFY_PER_NODE = 1;
export const VERIFY_GAP_MS = 4_000;

const KeptVmSchema = z
  .object({
    vmid: z.number().int().nonnegative(),
    name: z.string().min(1),
    node: z.string().min(1),
    /** What the listing said of the VM's config when the mark was read (configShape). */
    shape: z.string(),
    mark: z.object({ managed: z.boolean(), uid: z.string(), createdAt: z.string().optional() }).strict(),
    /** net0's MAC from the config read ('' when net0 has none). */
    net0Mac: z.string().optional(),
    address: z.string().optional(),
    /** The boot the address belongs to: the listing's uptime (s) and the start time (ms, wall clock). */
    uptime: z.number().nonnegative().optional(),
    startedAtMs: z.number().optional(),
  })
  .strict();
export type KeptVm = z.infer<typeof KeptVmSchema>;

const MemoryFileSchema = z
  .object({ version: z.literal(MEMORY_VERSION), clusterId: z.string(), url: z.string(), savedAt: z.string(), vms: z.array(KeptVmSchema) })
  .strict();

/** What the listing says of a VM's config, besides its name and node: a change means the config changed. */
export function configShape(r: ClusterResource): string {
  return [r.tags ?? '', r.maxcpu ?? '', r.maxmem ?? '', r.maxdisk ?? '', r.template === true ? 't' : ''].join('|');
}

/** Whether the kept mark still stands for this listing entry (the key: see the header). */
export function markStillStands(kept: KeptVm, r: ClusterResource): boolean {
  return kept.vmid === r.vmid && kept.name === r.name && kept.node === r.node && kept.shape === configShape(r);
}

/** Whether the kept address is of the guest's current boot (see the header); `wallNow` in ms. */
export function addressStillStands(kept: KeptVm, r: ClusterResource, wallNow: number): boolean {
  if (!kept.address || kept.uptime === undefined || kept.startedAtMs === undefined || r.status !== 'running') return false;
  const uptime = r.uptime ?? 0;
  if (uptime < kept.uptime) return false;
  return Math.abs(wallNow - uptime * 1000 - kept.startedAtMs) <= SAME_BOOT_MS;
}

export const keptMark = (k: KeptVm): KnownMark => ({ managed: k.mark.managed, uid: k.mark.uid, createdAt: k.mark.createdAt });

/** Where the inventory keeps and finds what it learned, per cluster. */
export interface InventoryMemory {
  /** The VMs kept for this cluster at this URL, by VMID; undefined when there is nothing usable (a cold start). */
  load(clusterId: string, url: string): Map<number, KeptVm> | undefined;
  save(clusterId: string, url: string, vms: readonly KeptVm[]): void;
  /** The cluster was removed: its memory goes with it. */
  forget(clusterId: string): void;
}

/** A file name for any cluster id: its safe characters, and a hash so two ids never share a file. */
function fileName(clusterId: string): string {
  const hash = createHash('sha256').update(clusterId).digest('hex').slice(0, 8);
  return `${clusterId.replace(/[^A-Za-z0-9_-]/g, '_').slice(0, 40)}-${hash}.json`;
}

/** The memory as files in `dir` (the data folder's `inventory`). A file that cannot be used is ignored, logged. */
export function fileInventoryMemory(dir: string, logger: Logger): InventoryMemory {
  const log = logger.child({ part: 'inventory-memory' });
  let saveFailed = false;
  const path = (clusterId: string) => join(dir, fileName(clusterId));
  return {
    load(clusterId, url) {
      const file = path(clusterId);
      let text: string;
      try {
        text = readFileSync(file, 'utf8');
      } catch (e) {
        const code = (e as NodeJS.ErrnoException).code;
        if (code !== 'ENOENT') log.warn('inventory memory unreadable: a cold start', { cluster: clusterId, file, reason: code ?? 'error' });
        return undefined;
      }
      let json: unknown;
      try {
        json = JSON.parse(text);
      } catch {
        log.warn('inventory memory is not JSON: ignored, a cold start', { cluster: clusterId, file });
        return undefined;
      }
      const version = (json as { version?: unknown } | null)?.version;
      if (version !== MEMORY_VERSION) {
        log.info('inventory memory of another version: ignored, a cold start', { cluster: clusterId, file, version: String(version) });
        return undefined;
      }
      const parsed = MemoryFileSchema.safeParse(json);
      if (!parsed.success) {
        log.warn('inventory memory is not the expected shape: ignored, a cold start', { cluster: clusterId, file });
        return undefined;
      }
      if (parsed.data.clusterId !== clusterId || parsed.data.url !== url) {
        log.info('inventory memory of another cluster address: ignored, a cold start', { cluster: clusterId, file });
        return undefined;
      }
      return new Map(parsed.data.vms.map((v) => [v.vmid, v]));
    },
    save(clusterId, url, vms) {
      const body = { version: MEMORY_VERSION, clusterId, url, savedAt: new Date().toISOString(), vms };
      try {
        ensurePrivateDir(dir);
        writePrivateFileAtomic(path(clusterId), Buffer.from(JSON.stringify(body), 'utf8'));
        saveFailed = false;
      } catch (e) {
        // Only the next start's cost depends on it: said once, not on every save.
        if (!saveFailed)
          log.warn('inventory memory not saved: the next start reads every VM again', {
            cluster: clusterId,
            reason: (e as NodeJS.ErrnoException).code ?? String(e),
          });
        saveFailed = true;
      }
    },
    forget(clusterId) {
      rmSync(path(clusterId), { force: true });
    },
  };
}
