/**
 * The health poller: the core's check for each node of each cluster on a
 * cadence (default 30 s), one poller per node so a node that fails backs
 * off alone and recovers by itself. Each result carries the reason, a fix
 * hint, details and latency, plus the node's CPU, memory and uptime from the
 * inventory's listing (no extra request); a history per node feeds the
 * trend charts.
 */
import { createProvider, type NodeCheck, type Provider } from '../../core';
import type { HealthPoint, HealthReason, HealthSnapshot, HealthUpdate, NodeHealth, NodeHealthHistory } from '../../../shared/channels/health';
import type { NodeRow } from '../../../shared/channels/inventory';
import type { Logger } from '../../log/logger';
import type { Cluster, ClusterDirectory } from '../clusters/cluster';
import { backoffDelay, Poller } from '../polling/poller';
import { realTimers, type Timers } from '../polling/timers';
import { HealthHistory } from './history';
import { healthHints } from './reasons';

export interface HealthOptions {
  clusters: ClusterDirectory;
  publish(update: HealthUpdate): void;
  logger: Logger;
  /** Node rows of the last inventory listing, for CPU, memory and uptime. */
  nodeStats?: (clusterId: string) => readonly NodeRow[];
  /** Default 30 s. */
  intervalMs?: number;
  /** The longest wait while a node keeps failing; default 5 min. */
  maxBackoffMs?: number;
  /** Default 2 h (at least the hour the trend charts show). */
  historyMs?: number;
  timers?: Timers;
}

export interface HealthService {
  start(): void;
  stop(): void;
  snapshot(clusterId?: string): HealthSnapshot;
  /** Checks every node of the cluster now and answers the results. */
  checkNow(clusterId: string): Promise<NodeHealth[]>;
  idle(): Promise<void>;
}

interface NodeEntry {
  node: string;
  poller: Poller;
  provider: Provider;
  history: HealthHistory;
  latest: NodeHealth | null;
}

interface ClusterEntry {
  cluster: Cluster;
  nodes: NodeEntry[];
  abort: AbortController;
}

export function createHealthService(options: HealthOptions): HealthService {
  const log = options.logger.child({ service: 'health' });
  const timers = options.timers ?? realTimers;
  const intervalMs = options.intervalMs ?? 30_000;
  const maxBackoffMs = options.maxBackoffMs ?? 300_000;
  const historyMs = options.historyMs ?? 2 * 3_600_000;
  // A point per cadence over the kept span, with room for extra manual checks.
  const maxPoints = Math.ceil((historyMs / intervalMs) * 2) + 10;
  const clusters = new Map<string, ClusterEntry>();
  const unsubscribe: (() => void)[] = [];

  function toHealth(entry: ClusterEntry, check: Checked, failures: number): NodeHealth {
    const checkedAt = new Date();
    const health: NodeHealth = {
      node: check.node,
      ready: check.ready,
      reason: check.reason,
      message: check.message,
      hint: healthHints[check.reason],
      latencyMs: check.latencyMs,
      details: check.details,
      checkedAt: checkedAt.toISOString(),
      nextCheckAt: new Date(checkedAt.getTime() + backoffDelay(intervalMs, failures, maxBackoffMs)).toISOString(),
    };
    const stats = options.nodeStats?.(entry.cluster.id).find((n) => n.node === check.node);
    if (stats?.cpu !== undefined) health.cpu = stats.cpu;
    if (stats?.maxcpu !== undefined) health.maxcpu = stats.maxcpu;
    if (stats?.memBytes !== undefined) health.memBytes = stats.memBytes;
    if (stats?.maxmemBytes !== undefined) health.maxmemBytes = stats.maxmemBytes;
    if (stats?.uptimeSeconds !== undefined) health.uptimeSeconds = stats.uptimeSeconds;
    return health;
  }

  async function checkNode(entry: ClusterEntry, node: NodeEntry): Promise<boolean> {
    // No secret, no request: the node is not checked, and nothing says it is broken.
    const check = secretMissing(entry.cluster, node.node) ?? (await node.provider.check({ signal: entry.abort.signal }))[0];
    if (!check || entry.abort.signal.aborted) return false;
    const health = toHealth(entry, asSecretMissing(check), check.ready ? 0 : node.poller.failures + 1);
    const point: HealthPoint = { at: health.checkedAt, ready: health.ready, reason: health.reason, latencyMs: health.latencyMs };
    if (health.cpu !== undefined) point.cpu = health.cpu;
    if (health.memBytes !== undefined) point.memBytes = health.memBytes;
    if (health.maxmemBytes !== undefined) point.maxmemBytes = health.maxmemBytes;
    if (node.latest?.reason !== health.reason)
      log.info('node health', { cluster: entry.cluster.id, node: node.node, reason: health.reason });
    node.latest = health;
    node.history.add(point);
    options.publish({ clusterId: entry.cluster.id, node: node.node, latest: health, point });
    // A missing secret is no failure to back off from: the next check after it is entered runs on the cadence.
    return health.ready || health.reason === 'SecretMissing';
  }

  function open(cluster: Cluster): ClusterEntry {
    const entry: ClusterEntry = { cluster, nodes: [], abort: new AbortController() };
    for (const node of cluster.profile.nodes) {
      // A one-node provider: the core's check, for this node alone, on the cluster's client (no request at creation).
      const provider = createProvider({ ...cluster.profile, nodes: [node] }, { api: cluster.api, logger: options.logger });
      const nodeEntry: NodeEntry = {
        node,
        provider,
        history: new HealthHistory(historyMs, maxPoints),
        latest: null,
        poller: new Poller({ run: () => checkNode(entry, nodeEntry), cadenceMs: () => intervalMs, maxBackoffMs, timers }),
      };
      entry.nodes.push(nodeEntry);
    }
    return entry;
  }

  function close(entry: ClusterEntry): void {
    entry.abort.abort();
    entry.nodes.forEach((n) => n.poller.stop());
    clusters.delete(entry.cluster.id);
  }

  function sync(): void {
    const current = new Map(options.clusters.list().map((c) => [c.id, c]));
    for (const entry of [...clusters.values()]) if (current.get(entry.cluster.id) !== entry.cluster) close(entry);
    for (const cluster of current.values()) {
      if (clusters.has(cluster.id)) continue;
      const entry = open(cluster);
      clusters.set(cluster.id, entry);
      entry.nodes.forEach((n) => n.poller.start());
    }
  }

  function entryOf(clusterId: string): ClusterEntry {
    options.clusters.get(clusterId); // the directory's not-found error
    const entry = clusters.get(clusterId);
    if (!entry) throw new Error(`health: cluster ${clusterId} is not being checked`);
    return entry;
  }

  const historyOf = (n: NodeEntry): NodeHealthHistory => ({ node: n.node, latest: n.latest, history: n.history.list() });

  return {
    start() {
      if (unsubscribe.length > 0) return;
      unsubscribe.push(options.clusters.subscribe(sync));
      sync();
    },
    stop() {
      unsubscribe.splice(0).forEach((u) => u());
      [...clusters.values()].forEach(close);
    },
    snapshot(clusterId) {
      const list = clusterId === undefined ? [...clusters.values()] : [entryOf(clusterId)];
      return { clusters: list.map((e) => ({ clusterId: e.cluster.id, nodes: e.nodes.map(historyOf) })) };
    },
    async checkNow(clusterId) {
      const entry = entryOf(clusterId);
      await Promise.all(entry.nodes.map((n) => n.poller.trigger()));
      return entry.nodes.flatMap((n) => (n.latest ? [n.latest] : []));
    },
    async idle() {
      await Promise.all([...clusters.values()].flatMap((e) => e.nodes.map((n) => n.poller.idle())));
    },
  };
}

/** A secret that failed to decrypt surfaces in the check's words; one never held is known before any request. */
const SECRET_UNAVAILABLE = /token secret of cluster .* (is not available|could not be decrypted)/;

/** A check's result with the reasons the service adds to the core's (SecretMissing). */
type Checked = Omit<NodeCheck, 'reason'> & { reason: HealthReason };

function secretMissing(cluster: Cluster, node: string): Checked | undefined {
  if (!cluster.secretMissing?.()) return undefined;
  return {
    node,
    address: '',
    ready: false,
    reason: 'SecretMissing',
    message: `Not checked: the token secret of cluster "${cluster.name}" is not available.`,
    latencyMs: 0,
    details: {},
  };
}

/** A check that failed only because the secret could not be had reads as SecretMissing, not as an API error. */
export function asSecretMissing(check: Checked): Checked {
  return !check.ready && SECRET_UNAVAILABLE.test(check.message) ? { ...check, reason: 'SecretMissing' } : check;
}
