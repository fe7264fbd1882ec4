/**
 * A cluster profile as the renderer edits and sees it. Every text is
 * bounded and every object strict, because these shapes are also what a
 * renderer (or an imported file) may send. Main checks the meaning (an https
 * URL, node names, a VMID range) with the core's profile schema on top.
 * The token secret is never part of any of these shapes.
 */
import { z } from 'zod';
import { boundedText } from '../define';
import { AlertRuleSettings } from './alert-rules';
import { DEFAULT_PROXY_CHECK_URL, ProxyCheckUrl } from './proxy-check-url';
import { parseWebUrl } from './web-url';

const serverName = boundedText(253).min(1).optional();

/** How the app trusts the node's certificate; `pin` keeps the fingerprint the admin confirmed so a later change can be caught. */
export const TlsSetting = z.discriminatedUnion('mode', [
  z.object({ mode: z.literal('system'), serverName }).strict(),
  z.object({ mode: z.literal('ca'), caPem: boundedText(65_536).min(1), serverName }).strict(),
  z.object({ mode: z.literal('pin'), fingerprint: boundedText(200).min(1), serverName }).strict(),
  z.object({ mode: z.literal('insecure'), serverName }).strict(),
]);
export type TlsSetting = z.infer<typeof TlsSetting>;

/**
 * Where the token secret lives. `keyring`: encrypted with the OS keyring;
 * `session`: in memory until the app quits; `plaintext`: stored without real
 * protection, chosen knowingly where the OS has no keyring; `file`: a token
 * file (`user@realm!id=secret`) read on every request.
 */
export const SecretStorage = z.enum(['keyring', 'session', 'plaintext', 'file']);
export type SecretStorage = z.infer<typeof SecretStorage>;

export const TokenSetting = z.discriminatedUnion('secretStorage', [
  z.object({ secretStorage: z.enum(['keyring', 'session', 'plaintext']), tokenId: boundedText(256).min(1) }).strict(),
  z.object({ secretStorage: z.literal('file'), tokenFile: boundedText(4096).min(1) }).strict(),
]);
export type TokenSetting = z.infer<typeof TokenSetting>;

/** The longest cluster name. */
export const MAX_PROFILE_NAME = 100;

/**
 * The saved cluster whose name this one repeats (names are compared without case), other than
 * the one being edited: main refuses such a save, and the wizard says so while the name is typed.
 */
export function takenProfileName<P extends { id: string; name: string }>(name: string, saved: readonly P[], ownId?: string): P | undefined {
  const wanted = name.trim().toLowerCase();
  return saved.find((p) => p.id !== ownId && p.name.toLowerCase() === wanted);
}

const int = z.number().int();
const key = boundedText(64).min(1);
const atMost = (n: number) => (record: Record<string, unknown>) => Object.keys(record).length <= n;

/** The API token is the only credential: a URL must not carry another (`user:pass@`), which would be stored and shown in clear. */
export const ServerUrl = boundedText(2048).refine(
  (text) => {
    const u = parseWebUrl(text);
    return !u || (u.username === '' && u.password === ''); // not a URL at all: main's own check says so
  },
  { message: 'must not hold a user name or password (user:pass@): the API token is the only credential, and it is never kept in the URL' },
);

/**
 * A Linux bridge (or SDN vnet) name, as Proxmox's `pve-bridge-id` takes it
 * within Linux's 15-character interface names. Anything else (a `,`, `=`,
 * `;` or newline) would add options of its own to the VM's net0.
 */
export const BRIDGE_NAME = /^[A-Za-z][A-Za-z0-9_.-]{0,14}$/;
const bridgeName = z
  .string()
  .regex(BRIDGE_NAME, 'must be a Linux bridge name like vmbr0: a letter, then up to 14 letters, digits, "_", "." or "-"');

/** Names every JavaScript object answers for (`constructor`, `toString`, `__proto__`…): never a template or machine-type name. */
const RESERVED_KEYS: ReadonlySet<string> = new Set([...Object.getOwnPropertyNames(Object.prototype), 'prototype']);

/** A named catalogue (templates, machine types): the raw keys are checked, before the record would drop `__proto__` unseen. */
function catalogue<T extends z.ZodType>(
  entry: T,
  max: number,
  what: string,
): z.ZodType<Record<string, z.output<T>>, Record<string, z.input<T>>> {
  const record = z.record(key, entry).refine(atMost(max), `at most ${max} ${what}`);
  const checked = z.preprocess((raw, ctx) => {
    if (typeof raw === 'object' && raw !== null) {
      for (const k of Object.keys(raw)) {
        if (RESERVED_KEYS.has(k)) ctx.addIssue({ code: 'custom', message: `"${k}" is a reserved name; choose another`, path: [k] });
      }
    }
    return raw;
  }, record);
  return checked as unknown as z.ZodType<Record<string, z.output<T>>, Record<string, z.input<T>>>;
}

/** Proxmox token secrets are UUIDs (36 characters); anything this short is a typo or a placeholder, not a secret. */
export const MIN_SECRET_LENGTH = 16;
export const TokenSecret = boundedText(512).min(
  MIN_SECRET_LENGTH,
  `this token secret is too short to be real: Proxmox shows a 36-character secret (a UUID) when the token is made; paste all of it`,
);

export const PollIntervals = z
  .object({
    healthSeconds: z
      .number({ error: 'The health check interval must be a number of seconds.' })
      .min(1, 'Check health at most once a second: enter 1 or more seconds.')
      .max(3600, 'Check health at least once an hour: enter at most 3600 seconds.'),
    inventorySeconds: z
      .number({ error: 'The inventory refresh interval must be a number of seconds.' })
      .min(1, 'Refresh the inventory at most once a second: enter 1 or more seconds.')
      .max(3600, 'Refresh the inventory at least once an hour: enter at most 3600 seconds.'),
  })
  .strict();
export type PollIntervals = z.infer<typeof PollIntervals>;

/**
 * A catalogue image: its default template, and optionally a template per
 * node (node name -> VMID) that a create on that node clones instead (a
 * template on node-local storage is cloned on its own node only). Older
 * files hold `{vmid}` alone, which stays valid: no migration is needed.
 */
export const TemplateEntry = z
  .object({
    vmid: int,
    perNode: z.record(boundedText(63), int).refine(atMost(256), 'at most 256 nodes').optional(),
  })
  .strict();
export type TemplateEntry = z.infer<typeof TemplateEntry>;

export const ProfileFields = z
  .object({
    name: boundedText(MAX_PROFILE_NAME).trim().min(1, 'give the cluster a name'),
    url: ServerUrl,
    tls: TlsSetting,
    token: TokenSetting,
    nodes: z.array(boundedText(63)).max(256),
    isoStorage: boundedText(100),
    storage: boundedText(100).optional(),
    bridge: bridgeName.optional(),
    vlanTag: int.min(1, 'must be a VLAN tag from 1 to 4094').max(4094, 'must be a VLAN tag from 1 to 4094').optional(),
    vmidRange: z.object({ min: int, max: int }).strict().optional(),
    templates: catalogue(TemplateEntry, 256, 'templates'),
    machineTypes: catalogue(z.object({ cores: int, memoryMiB: int, diskGiB: int.optional() }).strict(), 64, 'machine types'),
    requestTimeoutSeconds: z.number().min(0).max(3600).optional(),
    vendorData: boundedText(65_536).optional(),
    installGuestAgent: z.boolean().optional(),
    pollIntervals: PollIntervals.optional(),
  })
  .strict();
export type ProfileFields = z.infer<typeof ProfileFields>;

/** Everything the UI shows about a cluster. The token ID is here; the secret never is. */
export const ProfileSummary = ProfileFields.extend({
  id: z.string(),
  /** The built-in simulated cluster. */
  demo: z.boolean(),
  /** False when the secret is needed and not held (a session secret after a restart, an imported profile). */
  secretAvailable: z.boolean(),
  createdAt: z.string(),
  updatedAt: z.string(),
});
export type ProfileSummary = z.infer<typeof ProfileSummary>;

/** What the machine offers for encrypting secrets at rest. */
export const VaultBackend = z
  .object({
    kind: z.enum(['keyring', 'basic_text', 'key_file', 'unavailable']),
    /** True only for a real OS keyring; otherwise the UI asks: session only, or store unprotected. */
    protected: z.boolean(),
    detail: z.string(),
  })
  .strict();
export type VaultBackend = z.infer<typeof VaultBackend>;

/** A profile file that could not be read: kept aside, never replaced silently. */
export const StoreProblem = z.object({ message: z.string(), backupPath: z.string().optional() }).strict();
export type StoreProblem = z.infer<typeof StoreProblem>;

/**
 * How much work the app puts on Proxmox at once (main/services/tasks/slots.ts explains the defaults:
 * 4 tasks per node, Proxmox's own bulk-action default; 2 full clones per storage; 12 in all).
 */
export const TaskLimits = z
  .object({
    perNode: z
      .number({ error: 'Tasks per node must be a number.' })
      .int('Tasks per node must be a whole number.')
      .min(1, 'Allow at least 1 task per node.')
      .max(64, 'Allow at most 64 tasks per node (Proxmox caps its own bulk actions there).'),
    clonesPerStorage: z
      .number({ error: 'Clones per storage must be a number.' })
      .int('Clones per storage must be a whole number.')
      .min(1, 'Allow at least 1 clone per storage.')
      .max(16, 'Allow at most 16 clones per storage.'),
    global: z
      .number({ error: 'Tasks in all must be a number.' })
      .int('Tasks in all must be a whole number.')
      .min(1, 'Allow at least 1 task in all.')
      .max(64, 'Allow at most 64 tasks in all.'),
  })
  .partial()
  .strict();
export type TaskLimits = z.infer<typeof TaskLimits>;
export const defaultTaskLimits = { perNode: 4, clonesPerStorage: 2, global: 12 } as const;

/** Days of history kept when AppSettings.historyRetentionDays is not set (main/services/history/). */
export const DEFAULT_HISTORY_RETENTION_DAYS = 30;

/** Settings that are not per cluster. */
export const AppSettings = z
  .object({
    theme: z.enum(['system', 'light', 'dark']),
    /** The URL the proxy check fetches through a proxy: http(s), no credentials (shared/domain/proxy-check-url.ts). */
    proxyCheckUrl: ProxyCheckUrl,
    /** Seeds and half-built proxies younger than this are never offered for cleanup. */
    cleanupGraceMinutes: z
      .number({ error: 'The cleanup grace must be a number of minutes.' })
      .int('The cleanup grace must be a whole number of minutes.')
      .min(1, 'Give a cleanup grace of at least 1 minute.')
      .max(10_080, 'Give a cleanup grace of at most 10080 minutes (one week).'),
    /** Used by clusters whose profile sets no poll intervals. */
    pollIntervals: PollIntervals,
    /** Optional: absent means the defaults (defaultTaskLimits); each number may be left out alone. */
    taskLimits: TaskLimits.optional(),
    /** Scheduled egress checks (main/services/checks/check-settings.ts has the defaults): every N minutes, 1 to 1440. */
    checkIntervalMinutes: z
      .number({ error: 'The check interval must be a number of minutes.' })
      .int('The check interval must be a whole number of minutes.')
      .min(1, 'Check at most once a minute.')
      .max(1440, 'Check at least once a day (1440 minutes).')
      .optional(),
    /** Scheduled checks on (default) or off for every cluster. */
    checksEnabled: z.boolean().optional(),
    /** Checks running at once over all clusters; default 4. */
    checkConcurrency: z
      .number({ error: 'Checks at once must be a number.' })
      .int('Checks at once must be a whole number.')
      .min(1, 'Allow at least 1 check at once.')
      .max(32, 'Allow at most 32 checks at once.')
      .optional(),
    /** Hold scheduled checks while the computer runs on battery; default false. */
    pauseChecksOnBattery: z.boolean().optional(),
    /** Clusters (profile ids) whose proxies are not checked on a schedule. */
    checksOffClusters: z.array(z.string().max(200)).max(1000).optional(),
    /** Alert rules switched off and their thresholds (shared/domain/alert-rules.ts has the defaults). */
    alertRules: AlertRuleSettings.optional(),
    /** Days of check results, node health and resolved alerts the history database keeps; default 30, 1 to 365. */
    historyRetentionDays: z
      .number({ error: 'The history retention must be a number of days.' })
      .int('The history retention must be a whole number of days.')
      .min(1, 'Keep the history at least 1 day.')
      .max(365, 'Keep the history at most 365 days.')
      .optional(),
    /** Issue 24: the user confirmed, once, that an export with credentials puts passwords in clear text. */
    exportCredentialsAcknowledged: z.boolean().optional(),
  })
  .strict();
export type AppSettings = z.infer<typeof AppSettings>;

/**
 * AppSettings as read back from the profile file: a proxy check URL that an
 * older version let through (any text) becomes the default instead of making
 * the whole file unreadable. What is saved from now on passes AppSettings.
 */
export const StoredAppSettings = AppSettings.extend({ proxyCheckUrl: ProxyCheckUrl.catch(DEFAULT_PROXY_CHECK_URL) });

export const defaultSettings: AppSettings = {
  theme: 'system',
  proxyCheckUrl: DEFAULT_PROXY_CHECK_URL,
  cleanupGraceMinutes: 15,
  pollIntervals: { healthSeconds: 30, inventorySeconds: 5 },
};
