/**
 * Alerts (issue 15): open and recent alerts with acknowledge, the rules'
 * thresholds, and the webhook targets alerts are sent to (ntfy, Gotify,
 * generic JSON). A target's token goes in write-only: no answer ever
 * carries it back, only whether one is kept.
 */
import { z } from 'zod';
import { boundedText, defineChannels, defineEvents, noInput } from '../define';
import { AlertRuleId, AlertRuleSettings } from '../domain/alert-rules';
import { httpUrlProblem } from '../domain/web-url';

export const AlertView = z
  .object({
    id: z.number().int(),
    rule: AlertRuleId,
    clusterId: z.string(),
    /** Stable across raises: 'vm:105', 'node:pve1', 'storage:pve1/local', 'templates'. */
    target: z.string(),
    /** The target in words: 'proxy egress-a (105)'. */
    label: z.string(),
    raisedAt: z.string(),
    resolvedAt: z.string().optional(),
    acknowledgedAt: z.string().optional(),
    reason: z.string(),
    hint: z.string(),
  })
  .strict();
export type AlertView = z.infer<typeof AlertView>;

export const AlertsList = z
  .object({
    /** Raised and not yet resolved, newest first. */
    open: z.array(AlertView),
    /** Raised or resolved in the last 7 days, newest first (open ones included). */
    recent: z.array(AlertView),
    /** How often proxies are checked, for the empty state's words. */
    checkIntervalMinutes: z.number().optional(),
  })
  .strict();
export type AlertsList = z.infer<typeof AlertsList>;

export const AlertRuleView = z
  .object({
    id: AlertRuleId,
    title: z.string(),
    explains: z.string(),
    enabled: z.boolean(),
    /** Absent for a rule that is only on or off. */
    threshold: z.object({ key: z.string(), value: z.number(), defaultValue: z.number(), unit: z.string() }).strict().optional(),
  })
  .strict();
export type AlertRuleView = z.infer<typeof AlertRuleView>;

const minutes = z
  .number({ error: 'Minutes must be a number.' })
  .int('Minutes must be a whole number.')
  .min(0, 'Minutes must be at least 0.')
  .max(10_080, 'At most 10080 minutes (a week).');

/** One alert target of one cluster ('vm:105', 'node:pve1'), with its words for the lists. */
const tunedTarget = { clusterId: boundedText(128), target: boundedText(128), label: boundedText(200) };

/** A target kept quiet: nothing new is raised for it (or told) until `until`; absent: muted until unmuted. */
export const AlertSnooze = z
  .object({ ...tunedTarget, until: z.iso.datetime({ offset: true, error: 'A snooze ends at an ISO time.' }).optional() })
  .strict();
export type AlertSnooze = z.infer<typeof AlertSnooze>;

/** One target's own settings, over its rules' (issue 23's per-proxy overrides). */
export const AlertOverride = z
  .object({
    ...tunedTarget,
    /** Rules switched off for this target only. */
    disabled: z.array(AlertRuleId).max(6).optional(),
    /** Raise only once the condition has held this long, in place of the rule's hold-down. */
    holdDownMinutes: minutes.optional(),
  })
  .strict();
export type AlertOverride = z.infer<typeof AlertOverride>;

/** How alerts are tuned (alert-tuning.json in the data folder): hold-down per rule, overrides and snoozes per target. */
export const AlertTuning = z
  .object({
    /** Raise a rule's alert only once its condition has held this many minutes (absent or 0: as soon as the rule says). */
    holdDownMinutes: z.partialRecord(AlertRuleId, minutes),
    overrides: z.array(AlertOverride).max(500),
    snoozes: z.array(AlertSnooze).max(500),
  })
  .strict();
export type AlertTuning = z.infer<typeof AlertTuning>;

/** The last post to a webhook target: a failure is said in words (what happened, what to do), the time it happened. */
export const WebhookDelivery = z
  .object({ targetId: z.string(), ok: z.boolean(), at: z.string(), message: z.string(), hint: z.string().optional() })
  .strict();
export type WebhookDelivery = z.infer<typeof WebhookDelivery>;

export const WebhookFormat = z.enum(['ntfy', 'gotify', 'generic']);
export type WebhookFormat = z.infer<typeof WebhookFormat>;

/** Where a webhook posts: http(s), no user or password in it (a token goes in the secret field, sealed). */
export const WebhookUrl = z
  .string()
  .trim()
  .max(2048, 'The URL is longer than 2048 characters.')
  .superRefine((text, ctx) => {
    const message = httpUrlProblem(text, {
      example: 'such as https://ntfy.sh or http://192.168.1.20:8080',
      notHttp: (protocol) => `A webhook is posted over http:// or https://, not ${protocol}.`,
      credentials: 'Put no user name or password in the URL: enter the token in the Token field, where it is kept sealed.',
    });
    if (message) ctx.addIssue({ code: 'custom', message, input: text });
  });

/**
 * The topics ntfy keeps for its own web app and API, which every ntfy server refuses to publish to (ntfy's
 * server/config.go, DefaultDisallowedTopics; compared as given, as ntfy does). A server may add more of its own.
 */
export const NTFY_RESERVED_TOPICS: readonly string[] = [
  'docs',
  'static',
  'file',
  'app',
  'metrics',
  'account',
  'settings',
  'signup',
  'login',
  'v1',
];

const ntfyTopic = z
  .string()
  .trim()
  .regex(/^[-_A-Za-z0-9]{1,64}$/, 'An ntfy topic is 1–64 letters, digits, - or _.')
  .refine((topic) => !NTFY_RESERVED_TOPICS.includes(topic), {
    error: (issue) =>
      `ntfy keeps the topic "${String(issue.input)}" for its own pages and API: every ntfy server refuses it. Choose another name.`,
  });

/**
 * Where a webhook's token is kept: the same three choices as a cluster's token secret (shared/domain/profile.ts
 * TokenSetting): sealed by the OS keyring; this session only (in memory, entered again after a restart); or, only
 * where the OS has no protected keyring and the user chose it, on disk without real protection.
 */
export const WebhookSecretStorage = z.enum(['keyring', 'session', 'plaintext']);
export type WebhookSecretStorage = z.infer<typeof WebhookSecretStorage>;

export const WebhookTarget = z
  .object({
    id: z.string(),
    name: z.string(),
    format: WebhookFormat,
    /** ntfy and Gotify: the server; generic: the full URL posted to. */
    url: z.string(),
    /** ntfy only. */
    topic: z.string().optional(),
    enabled: z.boolean(),
    /** Whether a token is held now (sealed, or in memory for this session); the token itself never leaves main. */
    hasSecret: z.boolean(),
    /** Where the token is kept; absent: no token. */
    secretStorage: WebhookSecretStorage.optional(),
    /** The token was kept for a session only and the app restarted: enter it again; alerts skip this target until then. */
    secretNeeded: z.boolean().optional(),
    /** The last alert posted to it in this run (a test post not counted): whether it arrived, and if not why. */
    lastDelivery: WebhookDelivery.optional(),
  })
  .strict();
export type WebhookTarget = z.infer<typeof WebhookTarget>;

export const SaveWebhookTargetInput = z
  .object({
    id: boundedText(64).optional(),
    name: z.string().trim().min(1, 'Give the target a name.').max(80, 'A name of at most 80 characters.'),
    format: WebhookFormat,
    url: WebhookUrl,
    topic: ntfyTopic.optional(),
    enabled: z.boolean(),
    /** Write-only: a new token (ntfy access token, Gotify app token, generic Bearer token). Absent keeps the held one. */
    secret: boundedText(1024).optional(),
    /** Drops the held token. */
    clearSecret: z.boolean().optional(),
    /**
     * Where to keep the token; absent: the keyring. Refused as for a cluster's secret: 'keyring' where the OS has no
     * protected keyring, 'plaintext' where it has one. Changing it without a new token moves the held one.
     */
    secretStorage: WebhookSecretStorage.optional(),
  })
  .strict()
  .superRefine((input, ctx) => {
    if (input.format === 'ntfy' && !input.topic)
      ctx.addIssue({ code: 'custom', path: ['topic'], message: 'ntfy needs a topic to post to.' });
    if (input.format === 'gotify' && !input.secret && !input.id)
      ctx.addIssue({ code: 'custom', path: ['secret'], message: "Gotify needs the application's token." });
  });
export type SaveWebhookTargetInput = z.infer<typeof SaveWebhookTargetInput>;

export const WebhookTargets = z
  .object({
    targets: z.array(WebhookTarget),
    /** Where tokens are kept, in words (the OS keyring, or a key file when none is offered). */
    secretStorage: z.string(),
  })
  .strict();
export type WebhookTargets = z.infer<typeof WebhookTargets>;

const targetId = z.object({ id: boundedText(64) }).strict();

export const alertsChannels = defineChannels({
  /** Open alerts and those of the last days. */
  'alerts.list': { input: noInput, output: AlertsList },
  /** Marks an alert as seen: it leaves the Nav's count. (Acknowledging a changed egress address also accepts it.) */
  'alerts.acknowledge': { input: z.object({ id: z.number().int().nonnegative() }).strict(), output: AlertView },
  'alerts.rules': { input: noInput, output: z.object({ rules: z.array(AlertRuleView) }).strict() },
  /** Saves thresholds and switches (into the settings), answers the rules as now in force. */
  'alerts.setRules': {
    input: z.object({ rules: AlertRuleSettings }).strict(),
    output: z.object({ rules: z.array(AlertRuleView) }).strict(),
  },
  'alerts.targets': { input: noInput, output: WebhookTargets },
  'alerts.saveTarget': { input: SaveWebhookTargetInput, output: WebhookTarget },
  'alerts.removeTarget': { input: targetId, output: z.object({ removed: z.boolean() }).strict() },
  /** Posts a test message to the target now and says what the server answered. */
  'alerts.testTarget': { input: targetId, output: z.object({ message: z.string() }).strict() },
  /** The hold-downs, overrides and snoozes in force (snoozes that ended are left out). */
  'alerts.tuning': { input: noInput, output: AlertTuning },
  /** Saves the hold-downs and the overrides (snoozes keep theirs); answers the tuning now in force. */
  'alerts.setTuning': {
    input: z.object({ holdDownMinutes: AlertTuning.shape.holdDownMinutes, overrides: AlertTuning.shape.overrides }).strict(),
    output: AlertTuning,
  },
  /**
   * Keeps one target quiet for `minutes` (absent: muted until unmuted): its open alerts are acknowledged, nothing new is
   * raised or told for it until then; what still holds at the end is raised then.
   */
  'alerts.snooze': {
    input: z.object({ ...tunedTarget, minutes: minutes.min(1, 'Snooze for at least 1 minute.').optional() }).strict(),
    output: AlertTuning,
  },
  /** Ends a snooze or a mute now. */
  'alerts.unsnooze': { input: z.object({ clusterId: boundedText(128), target: boundedText(128) }).strict(), output: AlertTuning },
});

export const alertsEvents = defineEvents({
  'alert.raised': AlertView,
  'alert.resolved': AlertView,
  /** Acknowledged in some window: every window's list and Nav count follow at once. */
  'alert.acknowledged': AlertView,
  /** A post of an alert to a webhook target arrived, or failed after its retries (shown in Alerts and Settings). */
  'alert.delivery': WebhookDelivery,
  /** The tuning changed in some window. */
  'alert.tuning': AlertTuning,
});
