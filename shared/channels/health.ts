/** Channels and events of node health: the core's check per node on a cadence, with an in-memory history. */
import { z } from 'zod';
import { boundedText, defineChannels, defineEvents } from '../define';

const clusterId = boundedText(200);

/** The core's CheckReason values (spec entry 16). */
export const HealthReason = z.enum([
  'Reachable',
  'Timeout',
  'Unreachable',
  'Unauthorized',
  'Forbidden',
  'APIError',
  'CertificateInvalid',
  'CredentialsUnavailable',
  'StorageNotFound',
  'TemplateNotFound',
  /** Not checked: the cluster's token secret is not held (session-only after a restart, an imported profile). */
  'SecretMissing',
]);
export type HealthReason = z.infer<typeof HealthReason>;

export const NodeHealth = z
  .object({
    node: z.string(),
    ready: z.boolean(),
    reason: HealthReason,
    /** Proxmox's or the check's own words; empty when ready. */
    message: z.string(),
    /** What to do about the reason. */
    hint: z.string(),
    latencyMs: z.number().nonnegative(),
    /** pveVersion, kernel, isoStorage, isoStorageAvailGiB, templates, tokenID. */
    details: z.record(z.string(), z.string()),
    checkedAt: z.string(),
    /** When the next check is due; later than the cadence while the node keeps failing (backoff). */
    nextCheckAt: z.string(),
    /** From the inventory's listing of the same cluster, when known. */
    cpu: z.number().optional(),
    maxcpu: z.number().optional(),
    memBytes: z.number().optional(),
    maxmemBytes: z.number().optional(),
    uptimeSeconds: z.number().optional(),
  })
  .strict();
export type NodeHealth = z.infer<typeof NodeHealth>;

/** One point of a node's trend chart. */
export const HealthPoint = z
  .object({
    at: z.string(),
    ready: z.boolean(),
    reason: HealthReason,
    latencyMs: z.number().nonnegative(),
    /** CPU use (0..1) and memory at the check, from the inventory's listing; absent until the node is listed. */
    cpu: z.number().optional(),
    memBytes: z.number().optional(),
    /** The node's memory size at the check, so a point's memory reads as a share on its own. */
    maxmemBytes: z.number().optional(),
  })
  .strict();
export type HealthPoint = z.infer<typeof HealthPoint>;

export const NodeHealthHistory = z.object({ node: z.string(), latest: NodeHealth.nullable(), history: z.array(HealthPoint) }).strict();
export type NodeHealthHistory = z.infer<typeof NodeHealthHistory>;

export const HealthSnapshot = z
  .object({ clusters: z.array(z.object({ clusterId: z.string(), nodes: z.array(NodeHealthHistory) }).strict()) })
  .strict();
export type HealthSnapshot = z.infer<typeof HealthSnapshot>;

export const HealthUpdate = z.object({ clusterId: z.string(), node: z.string(), latest: NodeHealth, point: HealthPoint }).strict();
export type HealthUpdate = z.infer<typeof HealthUpdate>;

export const healthChannels = defineChannels({
  /** The latest check and the history (at least the last hour) of every node, or of one cluster's. */
  'health.snapshot': { input: z.object({ clusterId: clusterId.optional() }).strict(), output: HealthSnapshot },
  /** Check every node of one cluster now; answers the fresh results. */
  'health.check': { input: z.object({ clusterId }).strict(), output: z.object({ nodes: z.array(NodeHealth) }).strict() },
});

export const healthEvents = defineEvents({
  /** A node was checked. */
  'health.update': HealthUpdate,
});
