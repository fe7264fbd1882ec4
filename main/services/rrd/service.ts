/**
 * Proxmox's RRD graphs for the views (issue 15): read when a view opens them, cached per (target, timeframe,
 * cf) for about one step of that timeframe (Proxmox adds a row per step, so asking sooner gets the same rows),
 * one request in flight per key however many views ask, and at most MAX_ENTRIES answers kept.
 */
import type { RrdCf, RrdSeries, RrdTimeframe } from '../../../shared/channels/rrd';
import { explainPveFailure, type RrdApi, RrdMissingError } from '../../core';
import { AppError } from '../../errors/app-error';
import type { Logger } from '../../log/logger';
import type { Cluster, ClusterDirectory } from '../clusters/cluster';
import { nodeSeries, noHistory, vmSeries } from './series';

export interface RrdVmQuery {
  clusterId: string;
  node: string;
  vmid: number;
  timeframe: RrdTimeframe;
  cf?: RrdCf;
}
export type RrdNodeQuery = Omit<RrdVmQuery, 'vmid'>;

export interface RrdService {
  vm(q: RrdVmQuery): Promise<RrdSeries>;
  node(q: RrdNodeQuery): Promise<RrdSeries>;
  /** Requests sent to Proxmox since start (for tests and benches). */
  readonly requestsSent: number;
}

export interface RrdServiceOptions {
  directory: ClusterDirectory;
  logger: Logger;
  /** Milliseconds; tests move it. */
  now?: () => number;
  /** Answers kept at most (default MAX_ENTRIES). */
  maxEntries?: number;
}

const MAX_ENTRIES = 64;
const MIN_LIFETIME_MS = 60_000;
const MAX_LIFETIME_MS = 3 * 3600_000;
/** A VM without a file gets one soon: ask again after pvestatd's next cycle or two. */
const MISSING_LIFETIME_MS = 15_000;

/** How long an answer stays fresh: its step (a new row comes once per step), within a minute and three hours. */
export function lifetimeMs(series: RrdSeries): number {
  if (series.empty && series.times.length === 0) return MISSING_LIFETIME_MS;
  return Math.min(MAX_LIFETIME_MS, Math.max(MIN_LIFETIME_MS, series.stepSeconds * 1000));
}

function rrdApiOf(cluster: Cluster): RrdApi {
  const api = cluster.api as Partial<RrdApi>;
  if (typeof api.vmRrd !== 'function' || typeof api.nodeRrd !== 'function')
    throw new AppError('permanent', `The connection to "${cluster.name}" cannot read Proxmox's history.`, 'Reconnect the cluster.');
  return api as RrdApi;
}

export function createRrdService(options: RrdServiceOptions): RrdService {
  const now = options.now ?? Date.now;
  const maxEntries = options.maxEntries ?? MAX_ENTRIES;
  const cache = new Map<string, { expiresAt: number; value: RrdSeries }>();
  const inFlight = new Map<string, Promise<RrdSeries>>();
  let requestsSent = 0;

  function remember(key: string, value: RrdSeries): void {
    cache.delete(key);
    cache.set(key, { expiresAt: now() + lifetimeMs(value), value });
    // Oldest first: a Map keeps insertion order, and a hit re-inserts (least recently used goes).
    while (cache.size > maxEntries) cache.delete(cache.keys().next().value!);
  }

  async function read(key: string, clusterId: string, what: string, fetch: (cluster: Cluster) => Promise<RrdSeries>): Promise<RrdSeries> {
    const hit = cache.get(key);
    if (hit && hit.expiresAt > now()) {
      cache.delete(key);
      cache.set(key, hit);
      return hit.value;
    }
    const running = inFlight.get(key);
    if (running) return running;
    const cluster = options.directory.get(clusterId);
    if (cluster.secretMissing?.())
      throw new AppError(
        'permanent',
        `The history of ${what} was not read: the token secret of "${cluster.name}" is not available.`,
        'Enter the token secret (the banner at the top, or Settings), then open the graphs again.',
      );
    const started = now();
    const flight = fetch(cluster)
      .then((value) => {
        remember(key, value);
        options.logger.debug('rrd read', { clusterId, what, points: value.times.length, empty: value.empty, ms: now() - started });
        return value;
      })
      .finally(() => inFlight.delete(key));
    inFlight.set(key, flight);
    requestsSent++;
    return flight;
  }

  const failure = (err: unknown, what: string): AppError => {
    const explained = explainPveFailure('rrd', err);
    return new AppError(explained.kind, `The history of ${what} could not be read: ${explained.message}`, explained.hint);
  };

  return {
    get requestsSent() {
      return requestsSent;
    },
    vm: ({ clusterId, node, vmid, timeframe, cf = 'AVERAGE' }) => {
      const what = `VM ${vmid}`;
      return read(`${clusterId}|vm|${node}|${vmid}|${timeframe}|${cf}`, clusterId, what, async (cluster) => {
        const meta = { timeframe, cf, fetchedAt: new Date(now()).toISOString() };
        try {
          return vmSeries(await rrdApiOf(cluster).vmRrd(node, vmid, timeframe, cf), meta);
        } catch (err) {
          if (err instanceof RrdMissingError) return noHistory('vm', err.message, meta);
          throw failure(err, what);
        }
      });
    },
    node: ({ clusterId, node, timeframe, cf = 'AVERAGE' }) => {
      const what = `node ${node}`;
      return read(`${clusterId}|node|${node}|${timeframe}|${cf}`, clusterId, what, async (cluster) => {
        const meta = { timeframe, cf, fetchedAt: new Date(now()).toISOString() };
        try {
          return nodeSeries(await rrdApiOf(cluster).nodeRrd(node, timeframe, cf), meta);
        } catch (err) {
          if (err instanceof RrdMissingError) return noHistory('node', err.message, meta);
          throw failure(err, what);
        }
      });
    },
  };
}
