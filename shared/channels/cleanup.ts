/** Channels of the orphan-seed cleanup: a scan that explains every row, and a delete that runs as a task. */
import { z } from 'zod';
import { boundedText, defineChannels, defineEvents } from '../define';
import { SeedRef } from './tasks';

export const SeedRow = z
  .object({
    node: z.string(),
    volid: z.string(),
    /** The proxy name the seed belongs to (`<name>-seed.iso`). */
    name: z.string(),
    sizeBytes: z.number(),
    /** Undefined when Proxmox gave no creation time. */
    ageSeconds: z.number().optional(),
    /** Why it is (or is not) an orphan, in plain words. */
    reason: z.string(),
  })
  .strict();
export type SeedRow = z.infer<typeof SeedRow>;

export const VmRow = z.object({ node: z.string(), vmid: z.number(), name: z.string(), reason: z.string() }).strict();
export type VmRow = z.infer<typeof VmRow>;

/** A VM a template build made and never converted (issue 14): its description carries the build id. */
export const TemplateBuildRow = z
  .object({
    node: z.string(),
    vmid: z.number(),
    name: z.string(),
    /** The `egress-desk-template-build=<id>` of its description: the delete re-checks it at this VMID right before the destroy. */
    buildId: z.string(),
    startedAt: z.string().optional(),
    imageUrl: z.string().optional(),
    /** The build's task, when the journal still offers Resume / Clean up on it. */
    taskId: z.string().optional(),
    reason: z.string(),
  })
  .strict();
export type TemplateBuildRow = z.infer<typeof TemplateBuildRow>;

/** An image in `import` content a template build left (journal) or named like a catalogue image's file, that no VM uses. */
export const ImportImageRow = z
  .object({
    node: z.string(),
    storage: z.string(),
    volid: z.string(),
    sizeBytes: z.number(),
    ageSeconds: z.number().optional(),
    taskId: z.string().optional(),
    reason: z.string(),
  })
  .strict();
export type ImportImageRow = z.infer<typeof ImportImageRow>;

export const CleanupReport = z
  .object({
    clusterId: z.string(),
    scannedAt: z.string(),
    graceMinutes: z.number(),
    /** Seeds that may be deleted. */
    orphans: z.array(SeedRow),
    /** Seeds that stay, each with the reason. */
    kept: z.array(SeedRow),
    /** Marked VMs that are stopped and older than the grace period: a create that never finished. */
    halfBuilt: z.array(VmRow),
    /** Marked VMs whose seed is not on the ISO storage. */
    missingSeed: z.array(VmRow),
    /** VMs named like proxies without the Egress Desk mark: information only, never touched. */
    foreign: z.array(VmRow),
    /** Template builds that did not finish: VMs carrying a build id that are not templates (issue 14). */
    templateBuilds: z.array(TemplateBuildRow).optional(),
    /** Leftover downloaded images in `import` content (issue 14): listed with the reason, not deleted from here. */
    importImages: z.array(ImportImageRow).optional(),
    /** Nodes whose seeds could not be listed or whose VMs could not all be read. */
    problems: z.array(z.object({ node: z.string(), message: z.string() }).strict()),
  })
  .strict();
export type CleanupReport = z.infer<typeof CleanupReport>;

export const cleanupChannels = defineChannels({
  'cleanup.scan': {
    input: z.object({ clusterId: boundedText(64).min(1), graceMinutes: z.number().min(0).max(10_080).optional() }).strict(),
    output: CleanupReport,
  },
  /** Deletes the selected seeds after a last re-check of each, as one task; a dry run deletes nothing. */
  'cleanup.deleteSeeds': {
    input: z
      .object({
        clusterId: boundedText(64).min(1),
        seeds: z.array(SeedRef).min(1).max(500),
        dryRun: z.boolean(),
        graceMinutes: z.number().min(0).max(10_080).optional(),
      })
      .strict(),
    output: z.object({ taskId: z.string() }).strict(),
  },
  /**
   * Deletes half-built template VMs through the build's own clean-up, one task each: the VM is destroyed only when,
   * right before the destroy, its description still carries this build id at this VMID and it is not a template.
   */
  'cleanup.deleteTemplateBuilds': {
    input: z
      .object({
        clusterId: boundedText(64).min(1),
        builds: z
          .array(
            z
              .object({ node: boundedText(63).min(1), vmid: z.number().int().min(100).max(999_999_999), buildId: boundedText(128).min(1) })
              .strict(),
          )
          .min(1)
          .max(50),
      })
      .strict(),
    output: z.object({ taskIds: z.array(z.string()) }).strict(),
  },
});

export const cleanupEvents = defineEvents({});
