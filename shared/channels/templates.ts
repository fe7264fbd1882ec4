/**
 * Channels of the template builder (issue 14): the preflight of a build (what
 * the token may do, where the image goes, the VMID, room, and for a release too
 * old for the API the shell commands), starting a build as a task, and Verify
 * (the doctor's verdict on a template made by hand, then into the catalogue).
 *
 * The journal keeps a build's request and what it learned (BuildRequestRecord,
 * BuildResumeRecord): both are declared here once, as schemas, so the journal's
 * check and the task record cannot drift apart.
 */
import { z } from 'zod';
import { boundedText, defineChannels, defineEvents } from '../define';
import { CustomImageUrl } from '../domain/custom-image-url';
import { CHECKSUM_ALGORITHMS, IMPORT_FILE_NAME } from '../domain/image-catalogue';
import { BRIDGE_NAME } from '../domain/profile';
import { TemplateVerdict } from './doctor';

const id = boundedText(64).min(1);
const nodeName = boundedText(63).min(1);
const storageId = boundedText(100).min(1);

/** A template's name: a Proxmox VM name (a DNS label). */
export const TemplateName = z
  .string()
  .min(1)
  .max(63)
  .regex(/^[a-z]([a-z0-9-]*[a-z0-9])?$/, 'use lower-case letters, digits and dashes; start with a letter, end with a letter or digit');

export const BuildImage = z.discriminatedUnion('kind', [
  z.object({ kind: z.literal('catalogue'), id: boundedText(64).min(1) }).strict(),
  z
    .object({
      kind: z.literal('custom'),
      url: boundedText(2048).regex(/^https?:\/\/[^\s]+$/, 'must be an http(s) URL'),
      fileName: boundedText(200).optional(),
      label: boundedText(200).optional(),
    })
    .strict(),
]);
export type BuildImage = z.infer<typeof BuildImage>;

/**
 * The image as the form sends it: a custom URL is checked in words by the
 * shared schema (http/https, a disk image file Proxmox imports). The journal's
 * record keeps the looser BuildImage, so a build journalled before stays readable.
 */
export const BuildImageInput = z.discriminatedUnion('kind', [
  BuildImage.options[0],
  z
    .object({
      kind: z.literal('custom'),
      url: CustomImageUrl,
      fileName: boundedText(200).regex(IMPORT_FILE_NAME, 'must end in .qcow2, .raw or .vmdk').optional(),
      label: boundedText(200).optional(),
    })
    .strict(),
]);

export const BuildChecksum = z.object({ algorithm: z.enum(CHECKSUM_ALGORITHMS), value: boundedText(256) }).strict();

/** What the builder form sends: the cluster, the node and the image; everything else has a default main fills in. */
export const BuildTemplateInput = z
  .object({
    clusterId: id,
    node: nodeName,
    image: BuildImageInput,
    checksum: BuildChecksum.optional(),
    /** Default: the first active storage on the node with `import` content. */
    importStorage: storageId.optional(),
    /** Default: the profile's disk storage when the node has it with images content, else the node's first such storage. */
    targetStorage: storageId.optional(),
    /** Default: the profile's bridge, else vmbr0. */
    bridge: z.string().regex(BRIDGE_NAME, 'must be a Linux bridge name like vmbr0').optional(),
    vlanTag: z.number().int().min(1).max(4094).optional(),
    vmid: z.number().int().min(100).max(999_999_999).optional(),
    name: TemplateName.optional(),
    cores: z.number().int().min(1).max(128).optional(),
    memoryMiB: z.number().int().min(256).max(1_048_576).optional(),
    keepImage: z.boolean().optional(),
    verifyCertificates: z.boolean().optional(),
  })
  .strict();
export type BuildTemplateInput = z.infer<typeof BuildTemplateInput>;

/** A build's request as the journal keeps it: every default filled in, so a resume sends exactly what the first run did. */
export const BuildRequestRecord = z.object({
  buildId: z.string(),
  node: z.string(),
  image: BuildImage,
  checksum: BuildChecksum.optional(),
  importStorage: z.string().optional(),
  targetStorage: z.string(),
  bridge: z.string(),
  vlanTag: z.number().optional(),
  vmid: z.number().optional(),
  name: z.string().optional(),
  cores: z.number().optional(),
  memoryMiB: z.number().optional(),
  keepImage: z.boolean().optional(),
  verifyCertificates: z.boolean().optional(),
  proxyRange: z.object({ min: z.number(), max: z.number() }).optional(),
  tokenId: z.string(),
});
export type BuildRequestRecord = z.infer<typeof BuildRequestRecord>;

/** What the progress events told the journal (main/core/templates/build.ts BuildResume). */
export const BuildResumeRecord = z.object({
  vmid: z.number().optional(),
  volid: z.string().optional(),
  downloadedByUs: z.boolean().optional(),
  downloadUpid: z.string().optional(),
  createUpid: z.string().optional(),
  templateUpid: z.string().optional(),
});
export type BuildResumeRecord = z.infer<typeof BuildResumeRecord>;

export const PreflightIssue = z.object({ code: z.string(), message: z.string(), fix: z.string().optional() }).strict();
export type PreflightIssue = z.infer<typeof PreflightIssue>;

export const StorageChoice = z
  .object({
    storage: z.string(),
    type: z.string(),
    content: z.array(z.string()),
    availBytes: z.number().optional(),
    active: z.boolean(),
    /** Holds `import` content: the image may be downloaded there. */
    importContent: z.boolean(),
    /** File based (dir, NFS, CIFS…): could be given import content with `pvesm set`. */
    fileBased: z.boolean(),
    /** Holds VM disks: the template's disk may go there. */
    images: z.boolean(),
  })
  .strict();
export type StorageChoice = z.infer<typeof StorageChoice>;

export const BuildPreflightView = z
  .object({
    /** True when the API build may start. */
    ok: z.boolean(),
    path: z.enum(['api', 'shell']),
    node: z.string(),
    release: z.string().optional(),
    /** Why the API path is unavailable on this release. */
    reason: z.string().optional(),
    image: z
      .object({ id: z.string(), label: z.string(), url: z.string(), fileName: z.string(), approxBytes: z.number().optional() })
      .strict(),
    /** The publisher's checksum list for a catalogue image: where the value is, and its algorithm. */
    checksumList: z
      .object({ algorithm: z.enum(CHECKSUM_ALGORITHMS), url: z.string(), entry: z.string() })
      .strict()
      .optional(),
    vmid: z.number(),
    name: z.string(),
    importStorage: z.string().optional(),
    targetStorage: z.string(),
    bridge: z.string(),
    vlanTag: z.number().optional(),
    existingImage: z.object({ volid: z.string(), size: z.number() }).strict().optional(),
    blockers: z.array(PreflightIssue),
    warnings: z.array(PreflightIssue),
    privileges: z.array(z.object({ path: z.string(), missing: z.array(z.string()), why: z.string() }).strict()),
    /** pveum commands that close every privilege gap. */
    grantCommands: z.array(z.string()),
    /** On a release too old for the API path: root's commands on the node, as one block. */
    shell: z.string().optional(),
    /** The node's storages and bridges, for the form's choices. */
    storages: z.array(StorageChoice),
    bridges: z.array(z.string()),
    /** The catalogue key the template will be added under. */
    catalogueKey: z.string(),
  })
  .strict();
export type BuildPreflightView = z.infer<typeof BuildPreflightView>;

/** A build's outcome on its task: the template, the doctor's verdict on it, and what happened to the catalogue. */
export const BuiltTemplateResult = z
  .object({
    catalogueKey: z.string(),
    node: z.string(),
    vmid: z.number(),
    name: z.string(),
    verdict: TemplateVerdict,
    /** added: a new key; per-node: added as this node's template of an existing key; unchanged: already there; not-saved: with the reason. */
    catalogue: z.enum(['added', 'per-node', 'unchanged', 'not-saved']),
    catalogueNote: z.string().optional(),
    imageKept: z.boolean(),
  })
  .strict();
export type BuiltTemplateResult = z.infer<typeof BuiltTemplateResult>;

export const VerifyTemplateInput = z
  .object({
    clusterId: id,
    vmid: z.number().int().min(100).max(999_999_999),
    /** The catalogue key to add it under when it is suitable; absent: only the verdict. */
    key: boundedText(64).min(1).optional(),
  })
  .strict();

export const templatesChannels = defineChannels({
  /** Reads only: can this token build this image on this node over the API, and if not, exactly what to run. */
  'templates.preflight': { input: BuildTemplateInput, output: BuildPreflightView },
  /** Starts a build as a task (kind `build-template`): Resume and Clean up after an interruption, like a create. */
  'templates.build': { input: BuildTemplateInput, output: z.object({ taskId: z.string() }).strict() },
  /** The doctor's verdict on a template (one made by the shell commands), added to the catalogue when suitable and a key is given. */
  'templates.verify': {
    input: VerifyTemplateInput,
    output: z
      .object({ verdict: TemplateVerdict, catalogue: BuiltTemplateResult.shape.catalogue, catalogueNote: z.string().optional() })
      .strict(),
  },
});

export const templatesEvents = defineEvents({});
