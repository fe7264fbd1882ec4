/**
 * The two rules about a cluster's nodes and storage, fed by the node health
 * checks and the inventory's node rows (the templates' rule is
 * template-rules.ts, fed by template-watch.ts):
 *
 * - node-unreachable: the node's check says Unreachable or Timeout (its API,
 *   or pveproxy's 595 for a node that is down) for longer than the threshold;
 *   resolved by any answer from the node (even a refusal: it is reachable).
 * - seed-storage-low: the profile's seed (ISO) storage has less than X % free
 *   on a node (a shared storage once for the cluster), from the listing's
 *   `disk`/`maxdisk` of the storage (GET /nodes/{node}/storage: used, total).
 */
import type { HealthReason } from '../../../shared/channels/health';
import type { NodeRow } from '../../../shared/channels/inventory';
import type { AlertThresholds } from '../../../shared/domain/alert-rules';
import type { AlertEngine } from './engine';
import { withoutStop } from './proxy-rules';

/** The node did not answer at all: its API is away, or pveproxy answered 595 for it (pve-manager: "no route to host"). */
const UNREACHABLE: readonly HealthReason[] = ['Unreachable', 'Timeout'];
/** Not checked (no secret): says nothing about the node either way. */
const SAYS_NOTHING: readonly HealthReason[] = ['SecretMissing', 'CredentialsUnavailable'];

export const nodeTarget = (node: string) => `node:${node}`;

export interface NodeHealthInput {
  clusterId: string;
  node: string;
  reason: HealthReason;
  message: string;
}

export class ClusterRules {
  constructor(
    private readonly engine: AlertEngine,
    private readonly thresholds: () => AlertThresholds,
    private readonly clusterName: (clusterId: string) => string,
  ) {}

  observeNodeHealth({ clusterId, node, reason, message }: NodeHealthInput): void {
    if (SAYS_NOTHING.includes(reason)) return;
    const t = this.thresholds();
    const target = nodeTarget(node);
    if (UNREACHABLE.includes(reason) && t.enabled['node-unreachable']) {
      this.engine.active(
        { rule: 'node-unreachable', clusterId, target, label: `node ${node} of ${this.clusterName(clusterId)}` },
        {
          reason: `Node ${node} does not answer (${reason === 'Timeout' ? 'timed out' : 'unreachable'}): ${withoutStop(message || 'no answer')}.`,
          hint: 'Check that the node is powered on and on the network, and that pveproxy runs on it (systemctl status pveproxy). Its proxies carry no traffic while it is away.',
          holdMs: t.nodeUnreachableSeconds * 1000,
        },
      );
    } else {
      this.engine.clear('node-unreachable', clusterId, target);
    }
  }

  /** The cluster's node rows as last listed; `seedStorage` is the profile's ISO storage. */
  observeNodes(clusterId: string, nodes: readonly NodeRow[], seedStorage: string): void {
    const t = this.thresholds();
    const seenShared = new Set<string>();
    for (const row of nodes) {
      if (row.status !== 'online') continue; // an offline node lists no usage: the node rule speaks for it
      const storage = row.storages.find((s) => s.storage === seedStorage);
      if (!storage || storage.totalBytes === undefined || storage.usedBytes === undefined || storage.totalBytes <= 0) continue;
      if (storage.shared && seenShared.has(storage.storage)) continue;
      if (storage.shared) seenShared.add(storage.storage);
      const target = storage.shared ? `storage:${storage.storage}` : `storage:${row.node}/${storage.storage}`;
      const label = storage.shared ? `shared seed storage ${storage.storage}` : `seed storage ${storage.storage} on ${row.node}`;
      const free = storage.totalBytes - storage.usedBytes;
      const freePercent = (free / storage.totalBytes) * 100;
      if (t.enabled['seed-storage-low'] && freePercent < t.seedStorageFreePercent) {
        this.engine.active(
          { rule: 'seed-storage-low', clusterId, target, label },
          {
            reason: `The ${label} has ${Math.floor(freePercent)} % free (${gib(free)} of ${gib(storage.totalBytes)}), under the ${t.seedStorageFreePercent} % set.`,
            hint: 'Delete orphaned seed ISOs in Cleanup, remove ISO images nobody uses from the storage in Proxmox, or grow it: every new proxy uploads its seed ISO there.',
          },
        );
      } else {
        this.engine.clear('seed-storage-low', clusterId, target);
      }
    }
  }
}

function gib(bytes: number): string {
  return `${(bytes / 2 ** 30).toFixed(1)} GiB`;
}
