/**
 * The app's record of each proxy it has had a hand in, for what Proxmox does
 * not hold (issue 16), keyed by cluster and the mark's UID:
 * - the template and machine type this app made it with (recreate's
 *   defaults; the inventory's "made here", so not the operator's);
 * - the instance-id of the seed this app last wrote to it. A reconfigure's
 *   new user-data gets a new instance-id, which lives only inside the ISO,
 *   and Proxmox cannot read an ISO back (seed-source.ts), so a later migrate
 *   with a node-local seed reads it here to rebuild the same bytes on the
 *   target. A wrong one would go unnoticed (same size) and make cloud-init
 *   rerun its first-boot modules. While a seed swap is under way the new id
 *   is `pendingInstanceId`: the seed on Proxmox may be either one;
 * - the user-data of that seed, sealed (sealer.ts: never clear text), so a
 *   migrate that rebuilds a local seed does not ask the user for what the
 *   app wrote itself (issue 23 item 4); and the protocol and port that
 *   user-data makes the proxy listen on (shared/domain/proxy-endpoint.ts),
 *   for the drawer, Test and the scheduled checks (item 5).
 *
 * `proxy-records.json` in the task folder (0600, written atomically, like
 * every file there). At start, the creates the journal still holds fill any
 * gap (a file from before this record existed, or one set aside). A file
 * that does not parse is set aside as `proxy-records.corrupt-<time>.json`.
 */
import { join } from 'node:path';
import { z } from 'zod';
import { AppError } from '../../../errors/app-error';
import type { Logger } from '../../../log/logger';
import { readPrivateJson, writePrivateJson } from '../../../files/private-json-file';
import type { ProxyEndpoint } from '../../../../shared/domain/proxy-endpoint';
import { ProxyNetwork } from '../../../../shared/domain/proxy-network';

export const PROXY_RECORDS_FILE = 'proxy-records.json';

/** A seed volume as its storage listed it (the core's SeedStamp). */
export const SeedStamp = z.object({ volid: z.string(), size: z.number(), ctime: z.number().int().optional() }).strict();
export type SeedStamp = z.infer<typeof SeedStamp>;

const ProxyRecord = z
  .object({
    template: z.string().optional(),
    machineType: z.string().optional(),
    /** The instance-id in the seed this app last wrote whole; absent: create's own, the proxy's name. */
    seedInstanceId: z.string().optional(),
    /** A seed swap (reconfigure) began writing this instance-id and has not ended yet. */
    pendingInstanceId: z.string().optional(),
    /** The user-data of the seed this app last wrote whole, sealed by the task sealer. */
    sealedUserData: z.string().optional(),
    /** The protocol and port that user-data listens on; absent when it names no daemon the app knows. */
    endpoint: z
      .object({ protocol: z.enum(['http', 'socks5']), port: z.number().int().min(1).max(65_535) })
      .strict()
      .optional(),
    /** Issue 24: the network it was made with; a static address is written into every seed the app rebuilds. */
    network: ProxyNetwork.optional(),
    /**
     * Issue 26: released for the Kubernetes operator's adoption (the mark's uid emptied) on this VM; undo writes this
     * UID back while the seed is still the one listed at the release (the operator's adoption uploads it again).
     */
    released: z.object({ vmid: z.number().int(), name: z.string(), seed: SeedStamp.optional(), adopted: z.boolean().optional() }).strict().optional(),
  })
  .strict();
export type ProxyRecord = z.infer<typeof ProxyRecord>;
const RecordsFile = z.object({ version: z.literal(1), proxies: z.record(z.string(), ProxyRecord) }).strict();

/** Catalogue keys of the profile a proxy was made from. */
export interface ProxyOrigin {
  template: string;
  machineType: string;
  /** Whether the app keeps the user-data of the seed it last wrote (a migrate needs no paste). */
  userDataKept?: boolean;
}

/** What the app put into a proxy's seed: its user-data (sealed) and the endpoint read from it. */
export interface SeedContent {
  sealedUserData?: string | undefined;
  endpoint?: ProxyEndpoint | undefined;
  network?: ProxyNetwork | undefined;
}

/** What a seed rebuild may take from the record. */
export type SeedRecord =
  | { state: 'unknown' }
  | { state: 'pending'; instanceId: string }
  /** `instanceId` undefined: the seed is still create's (its instance-id is the proxy's name). */
  | { state: 'known'; instanceId: string | undefined };

const keyOf = (clusterId: string, uid: string) => `${clusterId}/${uid}`;

export class ProxyRecords {
  private readonly proxies = new Map<string, ProxyRecord>();
  private readonly file: string | undefined;
  private readonly log: Logger;

  constructor(options: { dir?: string; logger: Logger }) {
    const log = (this.log = options.logger.child({ part: 'proxy-records' }));
    this.file = options.dir ? join(options.dir, PROXY_RECORDS_FILE) : undefined;
    if (!this.file) return;
    const parsed = readPrivateJson(this.file, RecordsFile, log); // a broken file: set aside, journal fills the gaps
    for (const [key, record] of Object.entries(parsed?.proxies ?? {})) this.proxies.set(key, record);
  }

  /** The template and machine type this app made the proxy with; undefined when it did not make it (or forgot). */
  origin(clusterId: string, uid: string): ProxyOrigin | undefined {
    const r = this.proxies.get(keyOf(clusterId, uid));
    if (r?.template === undefined || r.machineType === undefined) return undefined;
    const kept = this.sealedUserData(clusterId, uid) !== undefined;
    return { template: r.template, machineType: r.machineType, ...(kept ? { userDataKept: true } : {}) };
  }

  /** Whether this app made the proxy: an operator-made one (marked, not made here) is not. */
  ours(clusterId: string, uid: string): boolean {
    return this.origin(clusterId, uid) !== undefined;
  }

  /**
   * Proxies this app makes (a create or recreate request), in one write; `persist: false` only fills the memory
   * (the journal's creates at start). A write that fails is logged, not thrown: the journal holds the same creates.
   */
  noteOrigins(made: readonly ({ clusterId: string; uid: string } & ProxyOrigin & SeedContent)[], persist = true): void {
    let changed = false;
    for (const m of made) {
      const key = keyOf(m.clusterId, m.uid);
      const before = this.proxies.get(key);
      // A journal's create whose user-data was dropped (it ran) keeps what the file knows of its seed.
      const seed = m.sealedUserData !== undefined ? { sealedUserData: m.sealedUserData, endpoint: m.endpoint } : {};
      const next = dropUndefined({
        ...before,
        template: m.template,
        machineType: m.machineType,
        ...seed,
        ...(m.network ? { network: m.network } : {}),
      });
      if (sameRecord(before, next)) continue;
      this.proxies.set(key, next);
      changed = true;
    }
    if (changed && persist) {
      try {
        this.save();
      } catch (e) {
        this.log.warn('proxy records could not be saved', { file: this.file, reason: (e as NodeJS.ErrnoException).code ?? String(e) });
      }
    }
  }

  /** The sealed user-data of the seed this app last wrote whole to the proxy; undefined when it has none. */
  sealedUserData(clusterId: string, uid: string): string | undefined {
    const r = this.proxies.get(keyOf(clusterId, uid));
    return r?.pendingInstanceId === undefined ? r?.sealedUserData : undefined;
  }

  /** Issue 24: the network the app made the proxy with (its seed's network-config), or undefined. */
  network(clusterId: string, uid: string): ProxyNetwork | undefined {
    return this.proxies.get(keyOf(clusterId, uid))?.network;
  }

  /** The protocol and port the proxy's seed makes it listen on, as far as the app wrote that seed. */
  endpoint(clusterId: string, uid: string): ProxyEndpoint | undefined {
    return this.proxies.get(keyOf(clusterId, uid))?.endpoint;
  }

  /** Issue 24: a reconfigure moved net0 to this bridge or tag: the record's network says where the VM is now. */
  networkMoved(clusterId: string, uid: string, moved: Pick<ProxyNetwork, 'bridge' | 'vlanTag'>): void {
    const key = keyOf(clusterId, uid);
    const before = this.proxies.get(key);
    if (!before) return;
    this.proxies.set(key, { ...before, network: { ...before.network, ...moved } });
    try {
      this.save();
    } catch (e) {
      this.log.warn('proxy records could not be saved', { file: this.file, reason: (e as NodeJS.ErrnoException).code ?? String(e) });
    }
  }

  /** A reconfigure to this machine type ended: the record says what the VM is now. */
  machineTypeChanged(clusterId: string, uid: string, machineType: string): void {
    const key = keyOf(clusterId, uid);
    const before = this.proxies.get(key);
    if (!before || before.machineType === machineType) return;
    this.proxies.set(key, { ...before, machineType });
    try {
      this.save();
    } catch (e) {
      this.log.warn('proxy records could not be saved', { file: this.file, reason: (e as NodeJS.ErrnoException).code ?? String(e) });
    }
  }

  /** Issue 26: the app's UID of the proxy it released on this VM (its mark's uid is empty now), or undefined. */
  releasedAs(clusterId: string, vmid: number, name: string): string | undefined {
    return this.releaseOf(clusterId, vmid, name)?.uid;
  }

  /** Issue 26: the app's UID of the proxy it released on this VM, and its seed as the release listed it. */
  releaseOf(clusterId: string, vmid: number, name: string): { uid: string; seed?: SeedStamp | undefined; adopted: boolean } | undefined {
    for (const [key, r] of this.proxies)
      if (key.startsWith(`${clusterId}/`) && r.released?.vmid === vmid && r.released.name === name)
        return { uid: key.slice(clusterId.length + 1), seed: r.released.seed, adopted: r.released.adopted === true };
    return undefined;
  }

  /** Issue 26: an undo found the operator's seed on the released VM: it is the operator's, and stays released. */
  noteAdopted(clusterId: string, uid: string): void {
    this.change(clusterId, uid, (r) => (r.released ? { ...r, released: { ...r.released, adopted: true } } : r));
  }

  /** Issue 26: a release ended (`vm`) or its undo did (undefined). Throws when it cannot be kept. */
  noteReleased(clusterId: string, uid: string, vm: { vmid: number; name: string; seed?: SeedStamp | undefined } | undefined): void {
    this.change(clusterId, uid, (r) => {
      const { released: _, ...rest } = r;
      if (!vm) return rest;
      const { seed, ...at } = vm;
      return { ...rest, released: seed ? { ...at, seed } : at };
    });
  }

  /** What the record says of the proxy's seed. */
  seed(clusterId: string, uid: string): SeedRecord {
    const r = this.proxies.get(keyOf(clusterId, uid));
    if (!r) return { state: 'unknown' };
    if (r.pendingInstanceId !== undefined) return { state: 'pending', instanceId: r.pendingInstanceId };
    if (r.seedInstanceId !== undefined) return { state: 'known', instanceId: r.seedInstanceId };
    // Never reconfigured: a proxy this app made carries create's seed; of any other the record knows nothing.
    return r.template !== undefined ? { state: 'known', instanceId: undefined } : { state: 'unknown' };
  }

  /** A seed swap is about to write `instanceId`. Throws when it cannot be kept: the swap must not begin unrecorded. */
  seedSwapBegins(clusterId: string, uid: string, instanceId: string): void {
    this.change(clusterId, uid, (r) => ({ ...r, pendingInstanceId: instanceId }));
  }

  /** The seed under the proxy's own name now carries `instanceId`, whole. Throws when it cannot be kept. */
  seedWritten(clusterId: string, uid: string, instanceId: string, content: SeedContent = {}): void {
    this.change(clusterId, uid, (r) => {
      const { pendingInstanceId: _, sealedUserData: _old, endpoint: _was, ...rest } = r;
      return dropUndefined({ ...rest, seedInstanceId: instanceId, sealedUserData: content.sealedUserData, endpoint: content.endpoint });
    });
  }

  private change(clusterId: string, uid: string, edit: (r: ProxyRecord) => ProxyRecord): void {
    const key = keyOf(clusterId, uid);
    const before = this.proxies.get(key);
    const next = edit(before ?? {});
    this.proxies.set(key, next);
    try {
      this.save();
    } catch (e) {
      if (before) this.proxies.set(key, before);
      else this.proxies.delete(key);
      const code = (e as NodeJS.ErrnoException).code;
      throw new AppError(
        code === 'ENOSPC' ? 'transient' : 'permanent',
        `Egress Desk could not record the seed it writes to this proxy in ${this.file ?? 'its data folder'} (${code ?? String(e)}), so it did not go on: a later migrate needs that record.`,
        code === 'ENOSPC' ? 'Free some disk space, then retry.' : 'Check that the data folder is writable, then retry.',
      );
    }
  }

  private save(): void {
    if (!this.file) return;
    const body = { version: 1 as const, proxies: Object.fromEntries(this.proxies) };
    writePrivateJson(this.file, body);
  }
}

function dropUndefined(r: ProxyRecord): ProxyRecord {
  return Object.fromEntries(Object.entries(r).filter(([, v]) => v !== undefined)) as ProxyRecord;
}

function sameRecord(a: ProxyRecord | undefined, b: ProxyRecord): boolean {
  return a !== undefined && JSON.stringify(a) === JSON.stringify(b);
}
