/**
 * What the app keeps per proxy for its scheduled checks, keyed by cluster and
 * VMID, in `checks.json` in the data folder (0600, written atomically), so it
 * survives restarts: the off switch, and the protocol and port Test last used
 * (the app cannot see which proxy software a guest runs; the admin's own Test
 * says it), its expected exit, and the targets (issue 24) listed for the
 * proxy and for each tag of a cluster. Without a data folder it lives in memory.
 *
 * A file that cannot be read or does not parse is set aside as
 * `checks.corrupt-<time>.json` (private-json-file.ts) and the app starts with every proxy on:
 * losing a switch is better than refusing to start.
 */
import { join } from 'node:path';
import { z } from 'zod';
import { CheckEndpoint } from '../../../shared/channels/checks';
import { DEFAULT_ENDPOINT } from '../../../shared/domain/proxy-endpoint';
import { MAX_TARGETS } from '../../../shared/domain/check-targets';
import { exitWithin } from '../../../shared/domain/expected-exit';
import type { Logger } from '../../log/logger';
import { readPrivateJson, writePrivateJson } from '../../files/private-json-file';

export const CHECKS_FILE = 'checks.json';

const TargetUrls = z.array(z.string().max(2048)).max(MAX_TARGETS);

const ProxyPrefs = z
  .object({
    off: z.boolean().optional(),
    endpoint: CheckEndpoint.optional(),
    /** Issue 24: the expected exit the user typed or confirmed (addresses and CIDRs, shared/domain/expected-exit.ts). */
    expectedExit: z.array(z.string().max(64)).max(32).optional(),
    /** The first good check's address, proposed as the expected exit until the user confirms it. */
    learnedExit: z.string().max(64).optional(),
    /** Issue 24: the proxy's own targets (shared/domain/check-targets.ts), fetched after its tags'. */
    targets: TargetUrls.optional(),
  })
  .strict();
type ProxyPrefs = z.infer<typeof ProxyPrefs>;
const SwitchesFile = z
  .object({
    version: z.literal(1),
    proxies: z.record(z.string(), ProxyPrefs),
    /** Each tag's targets, keyed `cluster/tag` (a tag is a cluster's: Proxmox keeps it on the VM). */
    tagTargets: z.record(z.string(), TargetUrls).optional(),
  })
  .strict();

/** Squid's port, the Create dialog's first preset: what a proxy never tested, of unknown user-data, is checked on. */
export const DEFAULT_CHECK_ENDPOINT: CheckEndpoint = DEFAULT_ENDPOINT;

export const proxyKey = (clusterId: string, vmid: number) => `${clusterId}/${vmid}`;

export class ProxySwitches {
  private readonly proxies = new Map<string, ProxyPrefs>();
  private readonly tags = new Map<string, string[]>();
  private readonly file: string | undefined;
  private readonly log: Logger;

  constructor(options: { dataDir?: string; logger: Logger }) {
    const log = (this.log = options.logger.child({ part: 'check-switches' }));
    this.file = options.dataDir ? join(options.dataDir, CHECKS_FILE) : undefined;
    if (!this.file) return;
    const parsed = readPrivateJson(this.file, SwitchesFile, log); // a broken file: set aside, every proxy starts on
    for (const [key, prefs] of Object.entries(parsed?.proxies ?? {})) this.proxies.set(key, prefs);
    for (const [key, urls] of Object.entries(parsed?.tagTargets ?? {})) this.tags.set(key, urls);
  }

  /** Issue 24: the proxy's own targets. */
  targets(clusterId: string, vmid: number): readonly string[] {
    return this.proxies.get(proxyKey(clusterId, vmid))?.targets ?? [];
  }

  /** A tag's targets in a cluster. */
  tagTargets(clusterId: string, tag: string): readonly string[] | undefined {
    return this.tags.get(`${clusterId}/${tag}`);
  }

  /** Every tag of the cluster that has targets. */
  targetedTags(clusterId: string): { tag: string; urls: readonly string[] }[] {
    const prefix = `${clusterId}/`;
    return [...this.tags].filter(([k]) => k.startsWith(prefix)).map(([k, urls]) => ({ tag: k.slice(prefix.length), urls }));
  }

  /** Sets the proxy's own targets (already checked by parseTargets); an empty list removes them. */
  setTargets(clusterId: string, vmid: number, urls: readonly string[]): void {
    this.update(proxyKey(clusterId, vmid), (p) => ({ ...p, targets: urls.length ? [...urls] : undefined }));
  }

  setTagTargets(clusterId: string, tag: string, urls: readonly string[]): void {
    if (urls.length) this.tags.set(`${clusterId}/${tag}`, [...urls]);
    else this.tags.delete(`${clusterId}/${tag}`);
    this.save();
  }

  enabled(clusterId: string, vmid: number): boolean {
    return this.proxies.get(proxyKey(clusterId, vmid))?.off !== true;
  }

  endpoint(clusterId: string, vmid: number): CheckEndpoint | undefined {
    return this.proxies.get(proxyKey(clusterId, vmid))?.endpoint;
  }

  setEnabled(clusterId: string, vmid: number, enabled: boolean): void {
    this.update(proxyKey(clusterId, vmid), (p) => ({ ...p, off: enabled ? undefined : true }));
  }

  /** Remembers the protocol and port a Test used, for the scheduled checks. */
  setEndpoint(clusterId: string, vmid: number, endpoint: CheckEndpoint): void {
    const before = this.endpoint(clusterId, vmid);
    if (before?.protocol === endpoint.protocol && before.port === endpoint.port) return;
    this.update(proxyKey(clusterId, vmid), (p) => ({ ...p, endpoint }));
  }

  /** Issue 24: the proxy's expected exit, once typed or confirmed. */
  expectedExit(clusterId: string, vmid: number): readonly string[] | undefined {
    return this.proxies.get(proxyKey(clusterId, vmid))?.expectedExit;
  }

  learnedExit(clusterId: string, vmid: number): string | undefined {
    return this.proxies.get(proxyKey(clusterId, vmid))?.learnedExit;
  }

  /**
   * A good check's address. Without an expected exit it is the proposal (the first one is kept until confirmed).
   * With one, the latest address outside it is proposed instead (a proxy moved to another VLAN or uplink: "Expect
   * the new exit" in the drawer), and a check back inside withdraws the proposal.
   */
  learnExit(clusterId: string, vmid: number, address: string): void {
    const p = this.proxies.get(proxyKey(clusterId, vmid));
    const proposal = !p?.expectedExit ? (p?.learnedExit ?? address) : exitWithin(p.expectedExit, address) ? undefined : address;
    if (proposal === p?.learnedExit) return;
    this.update(proxyKey(clusterId, vmid), (q) => {
      const { learnedExit: _, ...rest } = q;
      return proposal ? { ...rest, learnedExit: proposal } : rest;
    });
  }

  /** Sets (or, with undefined, clears) the expected exit; the proposal goes either way (a cleared one learns again). */
  setExpectedExit(clusterId: string, vmid: number, entries: readonly string[] | undefined): void {
    this.update(proxyKey(clusterId, vmid), (p) => {
      const { learnedExit: _, expectedExit: _old, ...rest } = p;
      return entries ? { ...rest, expectedExit: [...entries] } : rest;
    });
  }

  /** A deleted VM's switch must not carry over to a new VM that gets its VMID. */
  forget(clusterId: string, vmids?: readonly number[]): void {
    const keys = vmids ? vmids.map((v) => proxyKey(clusterId, v)) : [...this.proxies.keys()].filter((k) => k.startsWith(`${clusterId}/`));
    let changed = false;
    for (const key of keys) changed = this.proxies.delete(key) || changed;
    // A cluster removed takes its tags' targets with it.
    if (!vmids) for (const key of [...this.tags.keys()]) if (key.startsWith(`${clusterId}/`)) changed = this.tags.delete(key) || changed;
    if (changed) this.save();
  }

  private update(key: string, change: (p: ProxyPrefs) => ProxyPrefs): void {
    const next = change(this.proxies.get(key) ?? {});
    if (next.off === undefined) delete next.off;
    if (next.targets === undefined) delete next.targets;
    if (Object.values(next).every((v) => v === undefined)) this.proxies.delete(key);
    else this.proxies.set(key, next);
    this.save();
  }

  private save(): void {
    if (!this.file) return;
    const body = {
      version: 1 as const,
      proxies: Object.fromEntries(this.proxies),
      ...(this.tags.size ? { tagTargets: Object.fromEntries(this.tags) } : {}),
    };
    try {
      writePrivateJson(this.file, body);
    } catch (e) {
      // Kept in memory for this run; said once per failure, never thrown at the switch.
      this.log.warn('check switches could not be saved', { file: this.file, reason: (e as NodeJS.ErrnoException).code ?? String(e) });
    }
  }
}
