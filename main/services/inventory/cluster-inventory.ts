/**
 * One cluster's inventory: a refresh is one all-types `/cluster/resources`
 * listing (VMs, nodes and storages in one answer), then, only for what is
 * new, a config read per VM for its mark (none for a VM this client's own
 * create cloned: it knows the mark it wrote) and an agent read per running
 * proxy whose address is unknown. Rows are committed right after the
 * listing and again after those reads, so a big first load shows at once.
 * The address is the one on net0's NIC (core guestAddress): net0's MAC comes
 * with the mark's config read, and a guest whose agent lists more than one
 * NIC that could hold it costs one config read for it when the mark came
 * without one (a proxy this client created).
 *
 * Issue 27: what a previous run learned (memory.ts) fills the rows at the
 * first listing for every VM the listing shows unchanged, so a restart costs
 * the listing and the reads of what changed; the marks so kept are read
 * again in the background at a gentle pace (`verifyKept`).
 *
 * Long because: the refresh, the agent pass between listings and the
 * re-reading of kept marks share the caches and take turns (`inTurn`).
 */
import type { ProxyOriginFacts } from './rows';
import { type ClusterResource, guestAddress, needsNet0Mac, net0Mac, parseMark, toProviderError, writtenMarksOf } from '../../core';
import type { NodeRow, VmRow } from '../../../shared/channels/inventory';
import type { Logger } from '../../log/logger';
import type { Cluster } from '../clusters/cluster';
import { sameNodes, type RowChanges } from './diff';
import { mapLimited } from './limit';
import { knownMark, MarkCache, type KnownMark } from './marks';
import { addressStillStands, configShape, keptMark, markStillStands, type KeptVm } from './memory';
import { RowBook } from './row-book';
import { isInventoried, isTaskLock, nodeRows } from './rows';
import { GuestRuntime, type AgentRetry } from './runtime';

export interface Commit {
  changes: RowChanges;
  /** Present when a node row changed. */
  nodes?: NodeRow[];
}

export interface ClusterInventoryDeps {
  log: Logger;
  now(): number;
  maxInFlight: number;
  agentRetry: AgentRetry;
  /** Whether a mark's UID belongs to one of this app's tasks; undefined when nobody can say. */
  /** What this app made a marked VM from (its task history); undefined when it did not make it. */
  proxyOrigin?: (clusterId: string, uid: string) => ProxyOriginFacts | undefined;
  /** Issue 26: whether this app released the VM (vmid, name) for the Kubernetes operator. */
  releasedAs?: (clusterId: string, vmid: number, name: string) => boolean;
  commit(commit: Commit): void;
  /** Issue 27: what a previous run kept of this cluster (memory.ts), used at the first listing that succeeds. */
  kept?: ReadonlyMap<number, KeptVm>;
}

export interface RefreshResult {
  ok: boolean;
  /** Why the cluster is degraded, when it is. */
  problem?: { reason: string; hint: string };
}

type Extra = { kind: 'mark'; r: ClusterResource } | { kind: 'agent'; r: ClusterResource };

export class ClusterInventory {
  private readonly book: RowBook;
  nodes: NodeRow[] = [];
  private readonly marks = new MarkCache();
  private readonly guests: GuestRuntime;
  /** A config that could not be read is asked again after a pause, not on every refresh. */
  private readonly markRetryAt = new Map<number, number>();
  /** net0's MAC by VMID, from a config read ('' when net0 has none); net0's MAC stays when its bridge or VLAN changes. */
  private readonly net0Macs = new Map<number, string>();
  private readonly abort = new AbortController();
  /** The last listing's VMs, for the agent reads due between listings. */
  private listed: readonly ClusterResource[] = [];
  /** A refresh or an agent pass in progress: they take turns, never overlap. */
  private work: Promise<unknown> = Promise.resolve();
  private kept: ReadonlyMap<number, KeptVm> | undefined;
  /** VMIDs whose mark came from the kept memory and has not been read again yet (verifyKept). */
  private readonly unverified = new Set<number>();
  /** Moves when something worth keeping was learned: the service saves the memory when it did. */
  learned = 0;
  /** Whether a listing ever succeeded: before one, there is nothing to keep (and a kept file is not to be replaced). */
  listedOnce = false;

  constructor(
    readonly cluster: Cluster,
    private readonly deps: ClusterInventoryDeps,
  ) {
    this.guests = new GuestRuntime(deps.agentRetry);
    this.book = new RowBook(cluster.id);
    this.kept = deps.kept;
  }

  /** The current rows by VMID. */
  get rows(): ReadonlyMap<number, VmRow> {
    return this.book.rows;
  }

  dispose(): void {
    this.abort.abort();
  }

  refresh(): Promise<RefreshResult> {
    return this.inTurn(() => this.refreshNow());
  }

  /**
   * Between listings: asks the agents that are due now (a guest reaching the uptime its agent is expected to answer
   * at), from the last listing, and commits what they tell. Resolves with how many were asked.
   */
  readDueAgents(): Promise<number> {
    return this.inTurn(async () => {
      const { signal } = this.abort;
      const now = this.deps.now();
      const due = this.listed.filter((r) => r.node && this.markOf(r)?.managed && this.guests.due(r.vmid!, now));
      await this.readAll(due, 'agent', signal);
      if (due.length > 0 && !signal.aborted) this.apply(this.listed, this.nodes);
      return due.length;
    });
  }

  /** When (ms, the deps' clock) the next agent read of a listed proxy is due; Infinity when none is. */
  nextAgentDueAt(): number {
    let at = Number.POSITIVE_INFINITY;
    for (const r of this.listed) if (r.node && this.markOf(r)?.managed) at = Math.min(at, this.guests.dueAt(r.vmid!));
    return at;
  }

  /** How many kept marks are still to be read again. */
  get unverifiedCount(): number {
    return this.unverified.size;
  }

  /**
   * Issue 27: reads again up to `perNode` kept marks on each node, from the last listing; a mark that no longer
   * matches the VM is corrected (and said in the log). Resolves with how many were read.
   */
  verifyKept(perNode: number): Promise<number> {
    return this.inTurn(async () => {
      const { signal } = this.abort;
      const now = this.deps.now();
      const taken = new Map<string, number>();
      const due: { r: ClusterResource; before: KnownMark | undefined }[] = [];
      for (const r of this.listed) {
        if (!this.unverified.has(r.vmid!) || !r.node || (this.markRetryAt.get(r.vmid!) ?? 0) > now) continue;
        const n = taken.get(r.node) ?? 0;
        if (n >= perNode) continue;
        taken.set(r.node, n + 1);
        due.push({ r, before: this.markOf(r) });
      }
      await this.readAll(
        due.map((d) => d.r),
        'mark',
        signal,
      );
      let changed = false;
      for (const { r, before } of due) {
        if (this.markRetryAt.has(r.vmid!)) continue;
        this.unverified.delete(r.vmid!);
        const after = this.markOf(r);
        if (before && after && sameMark(before, after)) this.marks.set(r.vmid!, r.name!, before);
        else if (after) {
          changed = true;
          this.deps.log.info('a kept mark no longer matched the VM: corrected', { cluster: this.cluster.id, vmid: r.vmid });
        }
      }
      if (changed && !signal.aborted) this.apply(this.listed, this.nodes);
      return due.length;
    });
  }

  /** Issue 27: what is worth keeping across a restart (memory.ts), for every listed VM whose mark is known. */
  keep(): KeptVm[] {
    const out: KeptVm[] = [];
    for (const r of this.listed) {
      const mark = this.markOf(r);
      if (!mark || !r.node) continue;
      const vmid = r.vmid!;
      const kept: KeptVm = { vmid, name: r.name!, node: r.node, shape: configShape(r), mark: { managed: mark.managed, uid: mark.uid } };
      if (mark.createdAt) kept.mark.createdAt = mark.createdAt;
      const mac = this.net0Macs.get(vmid);
      if (mac !== undefined) kept.net0Mac = mac;
      const boot = this.guests.boot(vmid);
      if (boot) Object.assign(kept, boot);
      out.push(kept);
    }
    return out;
  }

  /** Issue 27: the kept memory, at the first listing: each VM the listing shows unchanged gets its mark and address. */
  private recall(vms: readonly ClusterResource[], kept: ReadonlyMap<number, KeptVm>): void {
    const now = this.deps.now();
    const wall = Date.now();
    let marks = 0;
    let addresses = 0;
    for (const r of vms) {
      const k = kept.get(r.vmid!);
      if (!k || !markStillStands(k, r)) continue;
      this.marks.set(k.vmid, k.name, keptMark(k));
      if (k.net0Mac !== undefined) this.net0Macs.set(k.vmid, k.net0Mac);
      this.unverified.add(k.vmid);
      marks++;
      if (k.mark.managed && !isTaskLock(r.lock) && addressStillStands(k, r, wall)) {
        this.guests.remember(k.vmid, r.uptime ?? 0, now, k.address!);
        addresses++;
      }
    }
    this.deps.log.info('inventory memory recalled', { cluster: this.cluster.id, kept: kept.size, marks, addresses, listed: vms.length });
  }

  private inTurn<T>(job: () => Promise<T>): Promise<T> {
    const run = this.work.then(job, job);
    this.work = run.catch(() => undefined);
    return run;
  }

  private async refreshNow(): Promise<RefreshResult> {
    const { signal } = this.abort;
    let listing: ClusterResource[];
    try {
      listing = await this.cluster.api.clusterResources(undefined, { signal, background: true });
    } catch (e) {
      const err = toProviderError('list', e);
      this.deps.log.info('inventory listing failed', { cluster: this.cluster.id, error: err.message });
      return { ok: false, problem: { reason: `Listing the cluster failed: ${err.message}`, hint: err.hint } };
    }
    const vms = listing.filter((r) => isInventoried(r, this.cluster.profile.vmidRange));
    this.listed = vms;
    this.listedOnce = true;
    if (this.kept) this.recall(vms, this.kept);
    this.kept = undefined;
    const wantsAddress = this.observe(vms);
    // Issue 26: a release or its undo rewrote a mark this cache holds: the written one replaces it.
    for (const w of writtenMarksOf(this.cluster.api).takeRewrites()) {
      this.marks.set(w.vmid, w.name, knownMark(parseMark(w.description)));
      this.learned++;
    }
    this.apply(vms, nodeRows(listing));
    this.forgetUnlisted();
    // Marks first: only a marked proxy's agent is asked, and a proxy learnt now gets its address in this same refresh.
    const now = this.deps.now();
    const markReads = vms.filter(
      (r) =>
        r.name && r.node && !this.marks.get(r.vmid!, r.name) && !this.takeWrittenMark(r) && (this.markRetryAt.get(r.vmid!) ?? 0) <= now,
    );
    await this.readAll(markReads, 'mark', signal);
    const agentReads = vms.filter((r) => wantsAddress.has(r.vmid!) && r.node && this.markOf(r)?.managed);
    await this.readAll(agentReads, 'agent', signal);
    if ((markReads.length > 0 || agentReads.length > 0) && !signal.aborted) this.apply(vms, this.nodes);
    return { ok: true, problem: this.nodeProblem() };
  }

  /**
   * A VM one of this client's creates cloned carries the mark that create wrote (core/provider/cluster/written-marks.ts):
   * taken from there, so a bulk's new proxies cost no config read each. True when no read is needed now (the mark is
   * known, or our clone onto it has not ended yet).
   */
  private takeWrittenMark(r: ClusterResource): boolean {
    const book = writtenMarksOf(this.cluster.api);
    // Our clone onto it still runs (or its end is not seen yet): its mark comes with its outcome, so no read now.
    if (book.pending(r.vmid!, r.name!)) return true;
    const description = book.get(r.vmid!, r.name!);
    if (description === undefined) return false;
    this.marks.set(r.vmid!, r.name!, knownMark(parseMark(description)));
    this.learned++;
    // A new VM on this VMID: a MAC read of another VM before it is not its own.
    this.net0Macs.delete(r.vmid!);
    this.markRetryAt.delete(r.vmid!);
    return true;
  }

  private markOf(r: ClusterResource) {
    return r.name ? this.marks.get(r.vmid!, r.name) : undefined;
  }

  /** Updates the guests' runtime; answers the VMIDs whose agent should be asked for an address. */
  private observe(vms: readonly ClusterResource[]): Set<number> {
    const now = this.deps.now();
    const wantsAddress = new Set<number>();
    for (const r of vms) {
      const running = r.status === 'running' && !isTaskLock(r.lock);
      if (this.guests.observe(r.vmid!, running, r.uptime ?? 0, now)) wantsAddress.add(r.vmid!);
    }
    this.marks.retain(vms);
    return wantsAddress;
  }

  /** Drops what is remembered about VMs the last listing no longer has (its rows are the listed VMs). */
  private forgetUnlisted(): void {
    const listed = this.book.rows;
    this.guests.retain(listed);
    for (const vmid of this.net0Macs.keys()) if (!listed.has(vmid)) this.net0Macs.delete(vmid);
    for (const vmid of this.markRetryAt.keys()) if (!listed.has(vmid)) this.markRetryAt.delete(vmid);
    for (const vmid of this.unverified) if (!listed.has(vmid)) this.unverified.delete(vmid);
  }

  private async readAll(list: readonly ClusterResource[], kind: Extra['kind'], signal: AbortSignal): Promise<void> {
    if (list.length === 0 || signal.aborted) return;
    await mapLimited(list, this.deps.maxInFlight, (r) => this.read({ kind, r }, signal));
  }

  private async read(extra: Extra, signal: AbortSignal): Promise<void> {
    const { r } = extra;
    const vmid = r.vmid!;
    const node = r.node!;
    try {
      if (extra.kind === 'mark') {
        const config = await this.cluster.api.vmConfig(node, vmid, { signal, background: true });
        // The name in the config is the truth: a rename between listing and read is caught next time.
        const before = { mark: this.marks.get(vmid, r.name!), mac: this.net0Macs.get(vmid) };
        if (config.name === r.name) this.marks.set(vmid, r.name!, knownMark(parseMark(config.description)));
        this.net0Macs.set(vmid, net0Mac(config.net0) ?? '');
        this.markRetryAt.delete(vmid);
        this.unverified.delete(vmid);
        // A read that confirms what was known (a kept mark read again) is nothing new to keep.
        const mark = this.marks.get(vmid, r.name!);
        if (!before.mark || !mark || !sameMark(before.mark, mark) || before.mac !== this.net0Macs.get(vmid)) this.learned++;
      } else {
        const interfaces = await this.cluster.api.agentNetworkInterfaces(node, vmid, { signal, loop: true });
        if (!this.net0Macs.has(vmid) && needsNet0Mac(interfaces)) {
          const config = await this.cluster.api.vmConfig(node, vmid, { signal, background: true });
          this.net0Macs.set(vmid, net0Mac(config.net0) ?? '');
        }
        const address = guestAddress(interfaces, this.net0Macs.get(vmid) || undefined);
        this.guests.recordAddress(vmid, address || undefined, this.deps.now());
        if (address) this.learned++;
      }
    } catch (e) {
      if (extra.kind === 'agent') this.guests.recordAddress(vmid, undefined, this.deps.now());
      else this.markRetryAt.set(vmid, this.deps.now() + this.deps.agentRetry.maxMs);
      if (!signal.aborted)
        this.deps.log.debug('inventory read skipped', {
          cluster: this.cluster.id,
          vmid,
          read: extra.kind,
          error: toProviderError('get', e).message,
        });
    }
  }

  private apply(vms: readonly ClusterResource[], nodes: NodeRow[]): void {
    const changes = this.book.update(vms, (r) => {
      const vmid = r.vmid!;
      const mark = this.markOf(r);
      const ask = this.deps.proxyOrigin;
      const made = mark?.managed && ask ? (mark.uid ? (ask(this.cluster.id, mark.uid) ?? null) : null) : undefined;
      const handedOff = mark?.managed && !mark.uid && r.name ? this.deps.releasedAs?.(this.cluster.id, vmid, r.name) === true : false;
      // The machine type's size as the profile says it: the row names the type only while the VM still has that size.
      const size = made ? this.cluster.profile.machineTypes[made.machineType] : undefined;
      const origin = made && size ? { ...made, size: { cores: size.cores, memoryMiB: size.memoryMiB } } : made;
      const facts = { mark, address: this.guests.address(vmid), startedAt: this.guests.startedAt(vmid), origin, ...(handedOff ? { handedOff } : {}) };
      return this.guests.addressedBefore(vmid) ? { ...facts, addressedBefore: true } : facts;
    });
    const nodesChanged = !sameNodes(this.nodes, nodes);
    this.nodes = nodes;
    this.deps.commit(nodesChanged ? { changes, nodes } : { changes });
  }

  /** Profile nodes that are offline or missing: their guests list as unknown, so the view is partial. */
  private nodeProblem(): RefreshResult['problem'] {
    const status = new Map(this.nodes.map((n) => [n.node, n.status]));
    const away = this.cluster.profile.nodes.filter((n) => status.get(n) !== 'online');
    if (away.length === 0) return undefined;
    const described = away.map((n) => `${n} is ${status.get(n) ?? 'not in the listing'}`).join('; ');
    return {
      reason: `Node ${described}: its VMs show as unknown.`,
      hint: 'Check that the node is powered on and joined to the cluster (pvecm status), and that the token may audit it. The view recovers by itself.',
    };
  }
}

const sameMark = (a: KnownMark, b: KnownMark): boolean => a.managed === b.managed && a.uid === b.uid && a.createdAt === b.createdAt;
