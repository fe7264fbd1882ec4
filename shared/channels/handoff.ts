/**
 * Issue 26: handing a cluster's proxies to the Kubernetes operator. Main
 * builds the bundle (shared/domain/operator-bundle.ts) from the profile, the
 * inventory and what it kept of each proxy's seed; the renderer sees the
 * refusals in words, or the list of files (never their contents: a manifest
 * may hold a proxy's password), and asks main to save them as a folder.
 */
import { z } from 'zod';
import { boundedText, defineChannels } from '../define';
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

export const handoffChannels = defineChannels({
  /** The bundle's refusals or its files, written nowhere. */
  'handoff.preview': { input: HandoffInput, output: HandoffPreview },
  /** The bundle saved as a new folder where the user picks (0700, files 0600); refused in words before anything is written. */
  'handoff.save': { input: HandoffInput, output: z.object({ saved: z.boolean(), path: z.string().optional() }).strict() },
  /** Each proxy's mark's uid emptied (a `release-proxy` task each), so the operator's create adopts it; refused in words first. */
  'handoff.release': { input: HandoffTargets, output: Started },
  /** Undo while the uid is still empty: the app's UID written back (a `reclaim-proxy` task each). */
  'handoff.undo': { input: HandoffTargets, output: Started },
});
