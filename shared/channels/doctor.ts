/**
 * The connect doctor: given a URL and a token (or a saved profile), check
 * TLS, the token, what the cluster offers and what the token may do, and
 * answer with a report the wizard can act on. The secret goes in and never
 * comes back: the report carries the token id only.
 */
import { z } from 'zod';
import { boundedText, defineChannels, defineEvents } from '../define';
import { ServerUrl, TlsSetting, TokenSecret } from '../domain/profile';

const tokenIdPattern = /^[^\s@!=]+@[^\s@!=]+![^\s@!=]+$/;

/** The TLS choice to try: the same shape a saved profile holds. */
export const DoctorTlsInput = TlsSetting;
export type DoctorTlsInput = TlsSetting;

export const DoctorRunInput = z
  .object({
    url: ServerUrl.optional(),
    tokenId: boundedText(256).regex(tokenIdPattern, 'must be user@realm!tokenid').optional(),
    secret: TokenSecret.optional(),
    /** Rerun on a saved profile: its URL, TLS choice and token are used unless given here; another server (URL) needs the secret. */
    profileId: boundedText(128).optional(),
    tls: DoctorTlsInput.optional(),
    /** Chosen by the caller to match `doctor.progress` events to this run. */
    runId: boundedText(64).optional(),
  })
  .strict()
  .refine((i) => i.url !== undefined || i.profileId !== undefined, { message: 'give a URL or a profile', path: ['url'] });
export type DoctorRunInput = z.infer<typeof DoctorRunInput>;

export const SectionStatus = z.enum(['ok', 'warn', 'fail', 'skipped']);
export type SectionStatus = z.infer<typeof SectionStatus>;

const sectionBase = {
  status: SectionStatus,
  /** True when the admin must act before the next steps can run. */
  blocking: z.boolean(),
  message: z.string(),
  hint: z.string(),
};

export const CertificateInfo = z
  .object({
    subjectCommonName: z.string().optional(),
    subjectAltNames: z.array(z.string()),
    issuerCommonName: z.string().optional(),
    validFrom: z.string(),
    validTo: z.string(),
    fingerprint: z.string(),
    selfSigned: z.boolean(),
  })
  .strict();
export type CertificateInfo = z.infer<typeof CertificateInfo>;

/** A TLS choice that verified: exactly what a saved profile's `tls` holds. */
export const TlsChoiceValue = TlsSetting;
export type TlsChoiceValue = TlsSetting;

export const TlsOffer = z.enum(['pin', 'ca', 'server-name', 'insecure']);
export type TlsOffer = z.infer<typeof TlsOffer>;

export const TlsSection = z
  .object({
    ...sectionBase,
    data: z
      .object({
        certificate: CertificateInfo.optional(),
        /** The name the certificate was checked against (the URL's host or the override). */
        checkedName: z.string().optional(),
        hostnameMatches: z.boolean().optional(),
        verifiesAgainstSystemRoots: z.boolean().optional(),
        verifiesAgainstCa: z.boolean().optional(),
        /** What the admin may choose next. */
        offers: z.array(TlsOffer),
        /** Names from the certificate usable as the server-name override. */
        serverNameCandidates: z.array(z.string()),
        /** Set when a pinned certificate changed: never re-trusted without the admin. */
        changed: z.object({ pinned: z.string(), presented: z.string() }).strict().optional(),
        /** The TLS choice that verified; what a saved profile should hold. */
        choice: TlsChoiceValue.optional(),
      })
      .strict(),
  })
  .strict();
export type TlsSection = z.infer<typeof TlsSection>;

export const TokenSection = z
  .object({
    ...sectionBase,
    data: z
      .object({
        tokenId: z.string().optional(),
        version: z.string().optional(),
        release: z.string().optional(),
        /** What this Proxmox VE release changes for the app, one plain sentence each (version-notes.ts). */
        versionNotes: z.array(z.string()).optional(),
        /** What Proxmox answered when it refused, e.g. 401 and its text. */
        answer: z.object({ status: z.number(), text: z.string() }).strict().optional(),
        cause: z.enum(['wrong-token', 'no-credentials', 'unreachable', 'other']).optional(),
      })
      .strict(),
  })
  .strict();
export type TokenSection = z.infer<typeof TokenSection>;

export const TemplateVerdict = z
  .object({
    vmid: z.number(),
    name: z.string(),
    node: z.string(),
    suitable: z.boolean(),
    /** Why create would refuse it. */
    problems: z.array(z.object({ code: z.string(), message: z.string(), fix: z.string() }).strict()),
    /** Not refusals, but worth knowing. */
    notes: z.array(z.string()),
  })
  .strict();
export type TemplateVerdict = z.infer<typeof TemplateVerdict>;

/**
 * One template the saved profile's catalogue names, for one node of the
 * profile: the VMID a create on that node clones (the entry's per-node one
 * when it names one, else its default) and the doctor's verdict on it; no
 * verdict: no VM with that VMID was found.
 */
export const CatalogueTemplateCheck = z
  .object({
    key: z.string(),
    node: z.string(),
    vmid: z.number(),
    /** The VMID is the entry's `perNode` one for this node (not its default). */
    perNode: z.boolean(),
    verdict: TemplateVerdict.optional(),
  })
  .strict();
export type CatalogueTemplateCheck = z.infer<typeof CatalogueTemplateCheck>;

export const DiscoverySection = z
  .object({
    ...sectionBase,
    data: z
      .object({
        nodes: z.array(z.object({ node: z.string(), status: z.string() }).strict()),
        isoStorages: z.array(
          z
            .object({
              node: z.string(),
              storage: z.string(),
              type: z.string(),
              content: z.array(z.string()),
              shared: z.boolean(),
              active: z.boolean(),
              availBytes: z.number().optional(),
              /** Holds ISO images and nothing else. */
              dedicated: z.boolean(),
            })
            .strict(),
        ),
        seedStorage: z.object({ storage: z.string(), reason: z.string(), dedicated: z.boolean() }).strict().optional(),
        templates: z.array(TemplateVerdict),
        /** A saved profile's catalogue, judged per node (absent for a URL-and-token run with no profile). */
        catalogue: z.array(CatalogueTemplateCheck).optional(),
        bridges: z.array(z.object({ node: z.string(), iface: z.string(), vlanAware: z.boolean() }).strict()),
        vmidRange: z.object({ min: z.number(), max: z.number(), used: z.number(), free: z.number(), usedBy: z.array(z.string()) }).strict(),
        /** Calls the token was not allowed to make, or that failed. */
        problems: z.array(z.string()),
      })
      .strict(),
  })
  .strict();
export type DiscoverySection = z.infer<typeof DiscoverySection>;

export const PrivilegeCheck = z
  .object({
    path: z.string(),
    role: z.string(),
    required: z.array(z.string()),
    missing: z.array(z.string()),
  })
  .strict();
export type PrivilegeCheck = z.infer<typeof PrivilegeCheck>;

export const PrivilegesSection = z
  .object({
    ...sectionBase,
    data: z
      .object({
        checks: z.array(PrivilegeCheck),
        /** `pveum` commands, in order, that grant what is missing (run as root on a node). */
        commands: z.array(z.string()),
      })
      .strict(),
  })
  .strict();
export type PrivilegesSection = z.infer<typeof PrivilegesSection>;

/** What the wizard needs to save a working profile; the secret is not in it. */
export const SuggestedProfile = z
  .object({
    url: z.string(),
    tls: TlsChoiceValue.optional(),
    tokenId: z.string().optional(),
    nodes: z.array(z.string()),
    isoStorage: z.string().optional(),
    isoStorageReason: z.string().optional(),
    templates: z.record(z.string(), z.object({ vmid: z.number() }).strict()),
    bridge: z.string().optional(),
    bridgeVlanAware: z.boolean().optional(),
    vmidRange: z.object({ min: z.number(), max: z.number() }).strict(),
    vmidFree: z.number().optional(),
    /**
     * Proxmox's name for the cluster (GET /cluster/status, the `type: cluster` entry), or for a node
     * that is in no cluster its node name; absent when that read was refused (it needs Sys.Audit on /).
     */
    clusterName: z.string().optional(),
  })
  .strict();
export type SuggestedProfile = z.infer<typeof SuggestedProfile>;

export const DoctorReport = z
  .object({
    url: z.string(),
    ranAt: z.string(),
    /** Every section passed (ok or warn) and none blocks: the suggested profile will work. */
    ready: z.boolean(),
    tls: TlsSection,
    token: TokenSection,
    discovery: DiscoverySection,
    privileges: PrivilegesSection,
    suggestedProfile: SuggestedProfile,
  })
  .strict();
export type DoctorReport = z.infer<typeof DoctorReport>;

export const DoctorStep = z.enum(['tls', 'token', 'discovery', 'privileges']);
export type DoctorStep = z.infer<typeof DoctorStep>;

export const DoctorProgress = z
  .object({
    runId: z.string(),
    step: DoctorStep,
    state: z.enum(['running', 'done']),
    status: SectionStatus.optional(),
  })
  .strict();
export type DoctorProgress = z.infer<typeof DoctorProgress>;

export const doctorChannels = defineChannels({
  /** Check a URL and token (or a saved profile): TLS, token, discovery, privileges. */
  'doctor.run': { input: DoctorRunInput, output: DoctorReport },
});

export const doctorEvents = defineEvents({
  /** One per step start and end of a run that gave a runId. */
  'doctor.progress': DoctorProgress,
});
