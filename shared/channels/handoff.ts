/**
 * Issue 26: handing a cluster's proxies to the Kubernetes operator. Main
 * builds the bundle (shared/domain/operator-bundle.ts) from the profile, the
 * inventory and what it kept of each proxy's seed; the renderer sees the
 * refusals in words, or the list of files (never their contents: a manifest
 * may hold a proxy's password, `proxmox-token` the API token), and asks main
 * to save them as a folder.
 */
import { z } from 'zod';
import { boundedText, defineChannels } from '../define';
import { ProfileDraft } from '../domain/operator-profile';
import { OPERATOR_NODE_NAME } from '../domain/operator-schemas';

const vmid = z.number().int().min(100).max(999_999_999);

export const HandoffInput = z
  .object({
    clusterId: boundedText(200),
    vmids: z.array(vmid).min(1).max(500),
    /** The providers-config entry's name; every Proxy's spec.provider names it. */
    providerName: boundedText(63).regex(OPERATOR_NODE_NAME, 'A provider name is lowercase letters, digits and dashes, like proxmox-home'),
    /** Fill each proxy's credentials into its cloudInit.inline (only once the export warning was confirmed). */
    includeCredentials: z.boolean(),
    /**
     * Put the cluster's API token line in the bundle as `proxmox-token` (0600), for the Secret's `token` key; only
     * when the user ticked it and confirmed its warning in the dialog. The preview lists the file, never its text.
     */
    includeToken: z.boolean().optional(),
  })
  .strict();
export type HandoffInput = z.infer<typeof HandoffInput>;

export const HandoffPreview = z
  .object({
    /** Why the operator cannot take the selection, in words; empty when the bundle can be written. */
    refusals: z.array(z.string()),
    files: z.array(z.object({ path: z.string(), secret: z.boolean(), bytes: z.number().int() }).strict()),
    /** The README the bundle carries (it holds no secret). */
    readme: z.string().optional(),
  })
  .strict();
export type HandoffPreview = z.infer<typeof HandoffPreview>;

const VmTarget = z.object({ vmid, name: boundedText(63).min(1) }).strict();
/** The proxies a release or its undo is for; each gets its own journalled task. */
export const HandoffTargets = z
  .object({ clusterId: boundedText(200), targets: z.array(VmTarget).min(1).max(200) })
  .strict();
export type HandoffTargets = z.infer<typeof HandoffTargets>;
const Started = z.object({ taskIds: z.array(z.string()) }).strict();

/** The most text Take in manifests takes at once (pasted, or the files opened, together). */
export const MANIFESTS_MAX_CHARS = 1_048_576;

/** Issue 26, the other way: YAML with the operator's Proxy objects (and providers-config entries) for a cluster. */
export const HandoffImportInput = z
  .object({
    clusterId: boundedText(200),
    yaml: boundedText(MANIFESTS_MAX_CHARS),
    /** False: only read and check; true: also make each Proxy as the app's own proxy (nothing when anything misfits). */
    create: z.boolean(),
  })
  .strict();
export type HandoffImportInput = z.infer<typeof HandoffImportInput>;
export const HandoffImportResult = z
  .object({
    proxies: z.array(
      z.object({ name: z.string(), node: z.string().optional(), template: z.string(), machineType: z.string(), port: z.number() }).strict(),
    ),
    /** providers-config entries found: each may be made a new cluster profile (its token and trust are the user's to give). */
    providers: z.array(z.object({ name: z.string(), url: z.string() }).strict()),
    /**
     * Each providers-config entry as an offer of a new cluster profile (shared/domain/operator-profile.ts): the
     * draft the connect wizard opens with, only when no problem stands; what does not map, in words; and the
     * saved cluster that already talks to that URL, offered instead of a duplicate.
     */
    offers: z.array(
      z
        .object({
          provider: z.string(),
          url: z.string().optional(),
          draft: ProfileDraft.optional(),
          notes: z.array(z.string()),
          problems: z.array(z.string()),
          existing: z.object({ id: z.string(), name: z.string() }).strict().optional(),
        })
        .strict(),
    ),
    /** What cannot be taken, in words; when any, nothing was made. */
    problems: z.array(z.string()),
    taskIds: z.array(z.string()),
  })
  .strict();
export type HandoffImportResult = z.infer<typeof HandoffImportResult>;

export const handoffChannels = defineChannels({
  /** The bundle's refusals or its files, written nowhere. */
  'handoff.preview': { input: HandoffInput, output: HandoffPreview },
  /** The bundle saved as a new folder where the user picks (0700, files 0600); refused in words before anything is written. */
  'handoff.save': { input: HandoffInput, output: z.object({ saved: z.boolean(), path: z.string().optional() }).strict() },
  /** Each proxy's mark's uid emptied (a `release-proxy` task each), so the operator's create adopts it; refused in words first. */
  'handoff.release': { input: HandoffTargets, output: Started },
  /** Undo while the uid is still empty: the app's UID written back (a `reclaim-proxy` task each). */
  'handoff.undo': { input: HandoffTargets, output: Started },
  /** Manifests read (and, asked, made as the app's own proxies with the same names, placement and cloud-init). */
  'handoff.import': { input: HandoffImportInput, output: HandoffImportResult },
});
