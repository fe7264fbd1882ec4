/**
 * Scheduled egress checks (issue 15): every running proxy is checked through
 * itself every few minutes; the table shows each proxy's last check and a
 * short latency trend, the drawer its history and its off switch.
 */
import { z } from 'zod';
import { boundedText, defineChannels, defineEvents } from '../define';
import { ProxyCheckStage, ProxyProtocol } from './proxy-check';

const clusterId = boundedText(200);
const vmid = z.number().int().min(100).max(999_999_999);

/** One check as the history keeps it (main/services/history/types.ts CheckRecord). Times are epoch milliseconds. */
export const CheckEntry = z
  .object({
    clusterId: z.string(),
    vmid: z.number().int(),
    at: z.number(),
    ok: z.boolean(),
    latencyMs: z.number().nonnegative().optional(),
    httpStatus: z.number().int().optional(),
    egressAddress: z.string().optional(),
    stage: ProxyCheckStage.optional(),
    problem: z.string().optional(),
    origin: z.enum(['scheduled', 'manual']),
  })
  .strict();
export type CheckEntry = z.infer<typeof CheckEntry>;

/** Issue 24: one target fetched through the proxy after a check (main/services/history/types.ts TargetCheckRecord). */
export const TargetCheckEntry = z
  .object({
    url: z.string(),
    at: z.number(),
    ok: z.boolean(),
    httpStatus: z.number().int().optional(),
    firstByteMs: z.number().nonnegative().optional(),
    totalMs: z.number().nonnegative().optional(),
    stage: ProxyCheckStage.optional(),
    problem: z.string().optional(),
    origin: z.enum(['scheduled', 'manual']),
  })
  .strict();
export type TargetCheckEntry = z.infer<typeof TargetCheckEntry>;

/** How many fetches of each target the drawer shows (its sparkline). */
export const TARGET_POINTS = 12;

export const TargetSummary = z
  .object({
    url: z.string(),
    /** The lists that name it: the proxy's tags (`tag`), the proxy's own (`proxy`). */
    from: z.array(z.union([z.object({ tag: z.string() }).strict(), z.object({ proxy: z.literal(true) }).strict()])),
    /** The last TARGET_POINTS fetches of the span, oldest first. */
    recent: z.array(TargetCheckEntry),
  })
  .strict();
export type TargetSummary = z.infer<typeof TargetSummary>;

/** How many latencies the table's sparkline draws. */
export const TREND_POINTS = 12;

export const ProxyCheckSummary = z
  .object({
    vmid: z.number().int(),
    latest: CheckEntry,
    /** The last TREND_POINTS checks' latencies, oldest first; null where a check failed. */
    trend: z.array(z.number().nonnegative().nullable()),
  })
  .strict();
export type ProxyCheckSummary = z.infer<typeof ProxyCheckSummary>;

export const LatestChecks = z.object({ clusterId: z.string(), proxies: z.array(ProxyCheckSummary) }).strict();
export type LatestChecks = z.infer<typeof LatestChecks>;

/** The protocol and port a scheduled check uses: the last ones Test used for this proxy, else the default. */
export const CheckEndpoint = z.object({ protocol: ProxyProtocol, port: z.number().int().min(1).max(65_535) }).strict();
export type CheckEndpoint = z.infer<typeof CheckEndpoint>;

export const CheckHistoryInput = z
  .object({
    clusterId,
    vmid,
    /** How far back, in hours (at most 30 days, the database's default retention). */
    hours: z.number().positive().max(720),
    /** The newest checks to send at most. */
    limit: z.number().int().min(1).max(2000).optional(),
  })
  .strict();

export const CheckHistory = z
  .object({
    /** Oldest first; the newest `limit` of the span. */
    checks: z.array(CheckEntry),
    /** The proxy's own switch: false when the user turned its scheduled checks off. */
    enabled: z.boolean(),
    /** Why the schedule does not check this proxy now, in words (checks off, cluster off, not running, no address). */
    idleReason: z.string().optional(),
    endpoint: CheckEndpoint,
    intervalMinutes: z.number().int(),
    /** Issue 24: the expected exit (addresses and CIDRs), once typed or confirmed. */
    expectedExit: z.array(z.string()).optional(),
    /** The first good check's address, proposed as the expected exit until confirmed. */
    learnedExit: z.string().optional(),
    /** Issue 24: what each check fetches after the echo (its tags' targets, then its own), with the last fetches. */
    targets: z.array(TargetSummary).optional(),
    /** Listed past the most a proxy fetches (10): not fetched. */
    targetsLeft: z.array(z.string()).optional(),
    /** The proxy's own list, and each of its tags' lists (tags without targets included, to edit). */
    ownTargets: z.array(z.string()).optional(),
    tagTargets: z.array(z.object({ tag: z.string(), urls: z.array(z.string()) }).strict()).optional(),
  })
  .strict();
export type CheckHistory = z.infer<typeof CheckHistory>;

/** A target list as sent to main: one URL an entry; main refuses it in words unless shared/domain/check-targets.ts allows it. */
const TargetInput = z.array(boundedText(2100)).max(50);

export const checksChannels = defineChannels({
  /** The latest check and the latency trend of every proxy of a cluster that has been checked (the table). */
  'checks.latest': { input: z.object({ clusterId }).strict(), output: LatestChecks },
  /** One proxy's checks over a span, its switch and why it is idle (the drawer). */
  'checks.history': { input: CheckHistoryInput, output: CheckHistory },
  /** Turn one proxy's scheduled checks on or off; kept across restarts. */
  'checks.setProxyEnabled': {
    input: z.object({ clusterId, vmid, enabled: z.boolean() }).strict(),
    output: z.object({ enabled: z.boolean() }).strict(),
  },
  /**
   * Issue 24: one proxy's expected exit: `expected` typed (an address, a CIDR or several, separated by commas; anything
   * else is invalid input in words), `confirmLearned` takes the first good check's address, `clear` removes it.
   */
  'checks.setExpectedExit': {
    input: z
      .object({
        clusterId,
        vmid,
        expected: boundedText(2000).optional(),
        confirmLearned: z.literal(true).optional(),
        clear: z.literal(true).optional(),
      })
      .strict(),
    output: z.object({ expectedExit: z.array(z.string()).optional(), learnedExit: z.string().optional() }).strict(),
  },
  /** Issue 24: the targets of one proxy (`vmid`) or of every proxy with a tag (`tag`) in the cluster; an empty list clears. */
  'checks.setTargets': {
    input: z
      .object({ clusterId, vmid: vmid.optional(), tag: boundedText(200).optional(), targets: TargetInput })
      .strict()
      .refine((i) => (i.vmid === undefined) !== (i.tag === undefined), { error: 'Name a proxy (vmid) or a tag, not both.' }),
    output: z.object({ targets: z.array(z.string()) }).strict(),
  },
});

export const checksEvents = defineEvents({
  /** A check finished (scheduled or Test) and was recorded. */
  'checks.result': CheckEntry,
  /** Issue 24: the targets a check fetched after its echo were recorded (the drawer reads them again). */
  'checks.targets': z
    .object({
      clusterId: z.string(),
      vmid: z.number().int(),
      at: z.number(),
      /** How many targets were fetched, and the ones that failed with their reason (the alert "Target unreachable"). */
      fetched: z.number().int().nonnegative(),
      failed: z.array(z.object({ url: z.string(), problem: z.string() }).strict()),
    })
    .strict(),
});
