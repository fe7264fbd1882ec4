/**
 * A cluster profile as the renderer edits and sees it. Every text is
 * bounded and every object strict, because these shapes are also what a
 * renderer (or an imported file) may send. Main checks the meaning (an https
 * URL, node names, a VMID range) with the core's profile schema on top.
 * The token secret is never part of any of these shapes.
 */
import { z } from 'zod';
import { boundedText } from '../define';

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

const int = z.number().int();
const key = boundedText(64).min(1);
const atMost = (n: number) => (record: Record<string, unknown>) => Object.keys(record).length <= n;

export const PollIntervals = z
  .object({ healthSeconds: z.number().min(1).max(3600), inventorySeconds: z.number().min(1).max(3600) })
  .strict();
export type PollIntervals = z.infer<typeof PollIntervals>;

export const ProfileFields = z
  .object({
    name: boundedText(100).trim().min(1, 'give the cluster a name'),
    url: boundedText(2048),
    tls: TlsSetting,
    token: TokenSetting,
    nodes: z.array(boundedText(63)).max(256),
    isoStorage: boundedText(100),
    storage: boundedText(100).optional(),
    bridge: boundedText(64).optional(),
    vlanTag: int.optional(),
    vmidRange: z.object({ min: int, max: int }).strict().optional(),
    templates: z.record(key, z.object({ vmid: int }).strict()).refine(atMost(256), 'at most 256 templates'),
    machineTypes: z
      .record(key, z.object({ cores: int, memoryMiB: int, diskGiB: int.optional() }).strict())
      .refine(atMost(64), 'at most 64 machine types'),
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

/** Settings that are not per cluster. */
export const AppSettings = z
  .object({
    theme: z.enum(['system', 'light', 'dark']),
    /** The URL the proxy check fetches through a proxy. */
    proxyCheckUrl: boundedText(2048),
    /** Seeds and half-built proxies younger than this are never offered for cleanup. */
    cleanupGraceMinutes: z.number().int().min(1).max(10_080),
    /** Used by clusters whose profile sets no poll intervals. */
    pollIntervals: PollIntervals,
  })
  .strict();
export type AppSettings = z.infer<typeof AppSettings>;

export const defaultSettings: AppSettings = {
  theme: 'system',
  proxyCheckUrl: 'https://api.ipify.org',
  cleanupGraceMinutes: 15,
  pollIntervals: { healthSeconds: 30, inventorySeconds: 5 },
};
