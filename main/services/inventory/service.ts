/**
 * The inventory service: one poller per cluster of the directory, each
 * refresh one listing (see cluster-inventory.ts), every change published as
 * a delta with a revision, a snapshot on demand. Cadence follows the
 * window's visibility; a failing cluster backs off and recovers by itself;
 * `refreshNow` is the task manager's "an operation just finished".
 *
 * Issue 27: with a memory (memory.ts), what each cluster's inventory learned
 * is saved (after the first refresh that learned something, then at most
 * every SAVE_GAP_MS, and when it stops) and given back at the next start;
 * the kept marks are read again at VERIFY_PER_NODE per node.
 *
 * Long because: each cluster's poller, its agent pass between listings, the
 * re-reading of kept marks and the memory's saves are scheduled here.
 */
import type { ProxyOriginFacts } from './rows';
import type {
  ClusterInventory as ClusterInventoryValue,
  InventoryDelta,
  InventorySnapshot,
  InventoryStatus,
  NodeRow,
  VmRow,
} from '../../../shared/channels/inventory';
import type { Logger } from '../../log/logger';
import type { Cluster, ClusterDirectory } from '../clusters/cluster';
import { ClusterInventory, type Commit, type RefreshResult } from './cluster-inventory';
import { isEmpty, sameRecord } from './diff';
import { backoffDelay, Poller } from '../polling/poller';
import { defaultAgentRetry, type AgentRetry } from './runtime';
import { realTimers, type Timers } from '../polling/timers';
import { ManualVisibility, type WindowVisibility } from './visibility';
import { VERIFY_GAP_MS, VERIFY_PER_NODE, type InventoryMemory } from './memory';

export interface InventoryOptions {
  clusters: ClusterDirectory;
  publish(delta: InventoryDelta): void;
  logger: Logger;
  visibility?: WindowVisibility;
  /** Default 5 s. */
  visibleIntervalMs?: number;
  /** Default 60 s. */
  hiddenIntervalMs?: number;
  /** The longest wait while a cluster fails; default 2 min. */
  maxBackoffMs?: number;
  /** Requests in flight per cluster for mark and agent reads; default 3. */
  maxInFlight?: number;
  agentRetry?: AgentRetry;
  timers?: Timers;
  /** What this app made a marked VM from (its task history); undefined when it did not make it. */
  proxyOrigin?: (clusterId: string, uid: string) => ProxyOriginFacts | undefined;
  /** Issue 26: whether this app released the VM for the Kubernetes operator (its mark's uid is empty). */
  releasedAs?: (clusterId: string, vmid: number, name: string) => boolean;
  /** Issue 27: where what was learned is kept across restarts; none keeps nothing (every start is a cold one). */
  memory?: InventoryMemory;
}

export interface InventoryService {
  start(): void;
  stop(): void;
  /** Every cluster, or one (a not-found AppError for an unknown id is the directory's). */
  snapshot(clusterId?: string): InventorySnapshot;
  /** Refresh now; resolves when the listing and its reads are in. */
  refreshNow(clusterId: string): Promise<void>;
  /**
   * An operation that changed the cluster ended: refresh now, or, when an operation's refresh began less than
   * AFTER_OPERATION_GAP_MS ago, once at the end of that gap (one held for the lot).
   */
  refreshAfterOperation(clusterId: string): void;
  vm(clusterId: string, vmid: number): VmRow | undefined;
  nodes(clusterId: string): NodeRow[];
  readonly revision: number;
  /** Resolves when no refresh is running (tests and benchmarks). */
  idle(): Promise<void>;
}

interface Entry {
  cluster: Cluster;
  inventory: ClusterInventory;
  poller: Poller;
  status: InventoryStatus;
  lastSuccessAt?: string;
  /** The next agent pass between listings (a new guest reaching its expected boot), and the one running. */
  agentTimer?: unknown;
  agentTimerAt?: number;
  agentPass?: Promise<unknown>;
  /** When the last refresh for an ended operation began, and the one held for the end of the gap. */
  afterOperation?: { at: number; held?: unknown };
  /** Issue 27: the next re-read of kept marks and the one running; what was learned when last saved, and when. */
  verifyTimer?: unknown;
  verifyPass?: Promise<unknown>;
  savedLearned: number;
  savedAt?: number;
}

/** Issue 27: the shortest gap between two saves of a cluster's memory (a save writes every known VM). */
export const SAVE_GAP_MS = 30_000;

/**
 * Issue 11: the shortest gap between two refreshes for operations that ended. A refresh is a listing at the node the
 * URL reaches, the busiest node of a bulk (it also answers every create's lookup); a bulk of twenty ended twenty
 * operations within seconds and, a run queueing one more, listed that node back to back (scripts/bench-bulk.ts:
 * eleven listings in its twenty seconds). One create's refresh still runs at once.
 */
export const AFTER_OPERATION_GAP_MS = 2_000;

export function createInventoryService(options: InventoryOptions): InventoryService {
  const log = options.logger.child({ service: 'inventory' });
  const timers = options.timers ?? realTimers;
  const visibility = options.visibility ?? new ManualVisibility('visible');
  const maxBackoffMs = options.maxBackoffMs ?? 120_000;
  const cadence = () => (visibility.current() === 'visible' ? (options.visibleIntervalMs ?? 5_000) : (options.hiddenIntervalMs ?? 60_000));
  const entries = new Map<string, Entry>();
  let revision = 0;
  let started = false;
  const unsubscribe: (() => void)[] = [];

  function publish(
    clusterId: string,
    delta: Omit<InventoryDelta, 'revision' | 'clusterId' | 'added' | 'changed' | 'removed'> & Partial<Commit['changes']>,
  ): void {
    revision++;
    options.publish({ revision, clusterId, added: [], changed: [], removed: [], ...delta });
  }

  function open(cluster: Cluster): Entry {
    const inventory = new ClusterInventory(cluster, {
      log,
      now: () => timers.now(),
      maxInFlight: options.maxInFlight ?? 3,
      agentRetry: options.agentRetry ?? defaultAgentRetry,
      proxyOrigin: options.proxyOrigin,
      releasedAs: options.releasedAs,
      // The demo is simulated anew at each start (another URL, the same VMs): nothing to keep.
      kept: cluster.demo ? undefined : options.memory?.load(cluster.id, cluster.profile.url),
      commit: ({ changes, nodes }) => {
        if (entries.get(cluster.id) !== entry || (isEmpty(changes) && !nodes)) return;
        publish(cluster.id, nodes ? { ...changes, nodes } : changes);
      },
    });
    const poller = new Poller({ run: () => run(entry), cadenceMs: cadence, maxBackoffMs, timers });
    const entry: Entry = { cluster, inventory, poller, status: { state: 'starting', failures: 0, intervalMs: cadence() }, savedLearned: 0 };
    return entry;
  }

  async function run(entry: Entry): Promise<boolean> {
    if (entry.cluster.secretMissing?.()) return secretMissing(entry);
    const result: RefreshResult = await entry.inventory.refresh();
    armAgentPass(entry);
    armVerify(entry);
    save(entry, false);
    if (!result.ok && entry.cluster.secretMissing?.()) return secretMissing(entry);
    const failures = result.ok ? 0 : entry.poller.failures + 1;
    if (result.ok) entry.lastSuccessAt = new Date().toISOString();
    const status: InventoryStatus = {
      state: result.problem ? 'degraded' : 'ok',
      failures,
      intervalMs: backoffDelay(cadence(), failures, maxBackoffMs),
    };
    if (result.problem) Object.assign(status, result.problem);
    if (entry.lastSuccessAt) status.lastSuccessAt = entry.lastSuccessAt;
    // The time of the last success alone is no news: it rides along in the snapshot and the next status delta.
    const news = !sameRecord({ ...status, lastSuccessAt: undefined }, { ...entry.status, lastSuccessAt: undefined });
    if (entries.get(entry.cluster.id) !== entry) return result.ok;
    if (news && status.state !== entry.status.state)
      log.info('inventory status', { cluster: entry.cluster.id, state: status.state, reason: status.reason });
    entry.status = status;
    if (news) publish(entry.cluster.id, { status });
    return result.ok;
  }

  /** No secret, no listing: the status says why, and nothing calls the cluster degraded or empty. */
  function secretMissing(entry: Entry): boolean {
    const status: InventoryStatus = {
      state: 'secret-missing',
      reason: `The token secret of cluster "${entry.cluster.name}" is not available, so its VMs are not listed.`,
      hint: "Enter the secret again (Enter secret, or the cluster's settings); listing resumes at once.",
      failures: 0,
      intervalMs: cadence(),
    };
    if (entry.lastSuccessAt) status.lastSuccessAt = entry.lastSuccessAt;
    if (entries.get(entry.cluster.id) !== entry) return true;
    const news = !sameRecord({ ...status, lastSuccessAt: undefined }, { ...entry.status, lastSuccessAt: undefined });
    if (news && status.state !== entry.status.state) log.info('inventory status', { cluster: entry.cluster.id, state: status.state });
    entry.status = status;
    if (news) publish(entry.cluster.id, { status });
    return true;
  }

  /**
   * Issue 11: a new proxy's address is due when its guest reaches the uptime its agent answers at (runtime.ts), which
   * seldom falls on a listing: the agents due are asked then, with no listing, so a create's address step ends
   * within a moment of the agent's answer rather than up to a cadence later.
   */
  function armAgentPass(entry: Entry): void {
    if (entries.get(entry.cluster.id) !== entry) return;
    const at = entry.inventory.nextAgentDueAt();
    if (!Number.isFinite(at) || at === entry.agentTimerAt) return;
    if (entry.agentTimer !== undefined) timers.clearTimeout(entry.agentTimer);
    entry.agentTimerAt = at;
    entry.agentTimer = timers.setTimeout(
      () => {
        entry.agentTimer = entry.agentTimerAt = undefined;
        if (entries.get(entry.cluster.id) !== entry || entry.cluster.secretMissing?.()) return;
        entry.agentPass = entry.inventory
          .readDueAgents()
          .catch(() => 0)
          // Each read moves its guest's next try on. A pass that found nothing due (its timer fired a moment early
          // by the clock it reads) arms again too: left to the next listing, an address came up to a cadence late
          // (issue 21, bench-bulk: the last proxy's read 3 s after its agent could answer).
          .then(() => armAgentPass(entry));
      },
      Math.max(1, at - timers.now()),
    );
  }

  /**
   * Issue 27: the kept marks are read again, VERIFY_PER_NODE per node every VERIFY_GAP_MS while a window is shown, until none is left: a
   * restart's row is corrected within minutes if the VM changed in a way the listing does not show (memory.ts).
   */
  function armVerify(entry: Entry): void {
    if (entries.get(entry.cluster.id) !== entry || entry.verifyTimer !== undefined || entry.verifyPass !== undefined) return;
    if (entry.inventory.unverifiedCount === 0) return;
    entry.verifyTimer = timers.setTimeout(() => {
      entry.verifyTimer = undefined;
      if (entries.get(entry.cluster.id) !== entry || entry.cluster.secretMissing?.()) return;
      // Hidden, nothing is on screen to correct: the pass waits for a window (the visibility listener arms it again).
      if (visibility.current() !== 'visible') return;
      entry.verifyPass = entry.inventory
        .verifyKept(VERIFY_PER_NODE)
        .catch(() => 0)
        .then(() => {
          entry.verifyPass = undefined;
          save(entry, false);
          armVerify(entry);
        });
    }, VERIFY_GAP_MS);
  }

  /**
   * Saves what the cluster's inventory learned since the last save: at once the first time, then at most every
   * SAVE_GAP_MS. On the way out (`closing`) whatever was listed is saved, so a VM migrated meanwhile is kept on its
   * new node.
   */
  function save(entry: Entry, closing: boolean): void {
    const memory = options.memory;
    const learned = entry.inventory.learned;
    if (!memory || entry.cluster.demo || !entry.inventory.listedOnce) return;
    if (!closing && learned === entry.savedLearned) return;
    if (!closing && entry.savedAt !== undefined && timers.now() - entry.savedAt < SAVE_GAP_MS) return;
    memory.save(entry.cluster.id, entry.cluster.profile.url, entry.inventory.keep());
    entry.savedLearned = learned;
    entry.savedAt = timers.now();
  }

  function close(entry: Entry, announce: boolean, removed = false): void {
    if (removed && !entry.cluster.demo) {
      try {
        options.memory?.forget(entry.cluster.id);
      } catch (e) {
        log.info('inventory memory of a removed cluster not removed', { cluster: entry.cluster.id, reason: String(e) });
      }
    }
    else save(entry, true);
    if (entry.verifyTimer !== undefined) timers.clearTimeout(entry.verifyTimer);
    entry.verifyTimer = undefined;
    if (entry.afterOperation?.held !== undefined) timers.clearTimeout(entry.afterOperation.held);
    if (entry.agentTimer !== undefined) timers.clearTimeout(entry.agentTimer);
    entry.agentTimer = entry.agentTimerAt = undefined;
    entry.poller.stop();
    entry.inventory.dispose();
    entries.delete(entry.cluster.id);
    if (announce) publish(entry.cluster.id, { removed: [...entry.inventory.rows.keys()], clusterRemoved: true });
  }

  /** Follows the directory: new clusters start polling, removed or rebuilt ones stop. */
  function sync(): void {
    const current = new Map(options.clusters.list().map((c) => [c.id, c]));
    for (const entry of [...entries.values()]) {
      const now = current.get(entry.cluster.id);
      if (now !== entry.cluster) close(entry, true, now === undefined);
    }
    for (const cluster of current.values()) {
      if (entries.has(cluster.id)) continue;
      const entry = open(cluster);
      entries.set(cluster.id, entry);
      entry.poller.start();
    }
  }

  function entryOf(clusterId: string): Entry {
    options.clusters.get(clusterId); // throws the directory's not-found error
    const entry = entries.get(clusterId);
    if (!entry) throw new Error(`inventory: cluster ${clusterId} is not being polled`);
    return entry;
  }

  function value(entry: Entry): ClusterInventoryValue {
    return {
      clusterId: entry.cluster.id,
      name: entry.cluster.name,
      status: entry.status,
      nodes: entry.inventory.nodes,
      vms: [...entry.inventory.rows.values()],
    };
  }

  return {
    start() {
      if (started) return;
      started = true;
      unsubscribe.push(options.clusters.subscribe(sync));
      unsubscribe.push(
        visibility.subscribe(() =>
          entries.forEach((e) => {
            e.poller.reschedule();
            armVerify(e);
          }),
        ),
      );
      sync();
    },
    stop() {
      started = false;
      unsubscribe.splice(0).forEach((u) => u());
      for (const entry of [...entries.values()]) close(entry, false);
    },
    snapshot(clusterId) {
      const list = clusterId === undefined ? [...entries.values()] : [entryOf(clusterId)];
      return { revision, clusters: list.map(value) };
    },
    async refreshNow(clusterId) {
      await entryOf(clusterId).poller.trigger();
    },
    refreshAfterOperation(clusterId) {
      const entry = entries.get(clusterId);
      if (!entry || entry.afterOperation?.held !== undefined) return;
      const run = () => {
        entry.afterOperation = { at: timers.now() };
        entry.poller
          .trigger()
          .catch((e: unknown) => log.info('inventory refresh after an operation failed', { clusterId, error: String(e) }));
      };
      const last = entry.afterOperation;
      const wait = last ? last.at + AFTER_OPERATION_GAP_MS - timers.now() : 0;
      if (!last || wait <= 0) return run();
      last.held = timers.setTimeout(() => {
        if (entries.get(clusterId) === entry) run();
      }, wait);
    },
    vm: (clusterId, vmid) => entries.get(clusterId)?.inventory.rows.get(vmid),
    nodes: (clusterId) => entries.get(clusterId)?.inventory.nodes ?? [],
    get revision() {
      return revision;
    },
    async idle() {
      await Promise.all([...entries.values()].map(async (e) => {
        await e.poller.idle();
        await e.agentPass;
        await e.verifyPass;
      }));
    },
  };
}
