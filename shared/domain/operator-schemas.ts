/**
 * Issue 26: the two shapes the Kubernetes operator (the engine this app was
 * ported from) reads, as strict zod schemas, so every file of a hand-off
 * bundle is checked against them before it is written and every manifest a
 * user opens is checked before anything is made from it.
 *
 * - The providers-config entry: `../shared/seeds/extracted/proxmox-provider-guide.md`,
 *   "Config reference" (the operator's `ProxmoxConfig`, validated at load by
 *   `validateProxmox`, "unknown keys are rejected"), with the validation
 *   column of proxmox-provider-spec.md entry 15 and the entry's own
 *   `name`/`type` from "Cluster-side setup", step 2.
 * - `Proxy`: the guide's "Placement" table (`zone`, `machineType`, `image`,
 *   `region`) and the fields the seeds' sample-proxy-proxmox.yaml uses
 *   (`mode`, `provider`, `port`, `cloudInit.inline`, `attributes`). The guide
 *   has no table of the whole Proxy spec, so a field the sample does not show
 *   is rejected here rather than guessed at.
 */
import { z } from 'zod';
import { parseWebUrl } from './web-url';

/** Spec entry 15: node names. */
export const OPERATOR_NODE_NAME = /^[a-z0-9]([a-z0-9-]*[a-z0-9])?$/;
/** Spec entry 15: a Proxmox storage id. */
export const OPERATOR_STORAGE_ID = /^[a-zA-Z][a-zA-Z0-9_.-]*$/;
/** A Kubernetes object name: an RFC 1123 subdomain (lowercase letters, digits, `-` and `.`, alphanumeric at both ends, at most 253). */
export const K8S_OBJECT_NAME = /^[a-z0-9]([a-z0-9.-]*[a-z0-9])?$/;
export const K8S_OBJECT_NAME_MAX = 253;

export function isK8sObjectName(name: string): boolean {
  return name.length <= K8S_OBJECT_NAME_MAX && K8S_OBJECT_NAME.test(name) && name.split('.').every((part) => /^[a-z0-9]([a-z0-9-]*[a-z0-9])?$/.test(part));
}

const httpsUrl = z.string().refine(
  (text) => {
    const u = parseWebUrl(text);
    return u !== undefined && u.protocol === 'https:' && u.host !== '' && /^https:\/\/[^/?#\s]+\/?$/i.test(text);
  },
  { message: 'must be an https URL with a host and no path, like https://192.168.0.8:8006' },
);
const posInt = z.number().int().positive();

/** Guide, "Config reference": the `proxmox:` block. */
export const OperatorProxmoxConfig = z
  .object({
    url: httpsUrl,
    tokenFile: z.string().min(1),
    caFile: z.string().min(1).optional(),
    insecureSkipTLSVerify: z.boolean().optional(),
    nodes: z
      .array(z.string().regex(OPERATOR_NODE_NAME, 'must be a node name: lowercase letters, digits and dashes'))
      .min(1, 'needs at least one node')
      .refine((nodes) => new Set(nodes).size === nodes.length, 'node names must be unique'),
    isoStorage: z.string().regex(OPERATOR_STORAGE_ID, 'must be a Proxmox storage id'),
    storage: z.string().regex(OPERATOR_STORAGE_ID, 'must be a Proxmox storage id').optional(),
    bridge: z.string().min(1).optional(),
    vlanTag: z.number().int().min(1).max(4094).optional(),
    vmidRange: z
      .object({ min: z.number().int().min(100), max: z.number().int().max(999_999_999) })
      .strict()
      .refine((r) => r.min < r.max, 'vmidRange.min must be below vmidRange.max')
      .optional(),
    templates: z
      .record(z.string().min(1), z.object({ vmid: z.number().int().min(100) }).strict())
      .refine((t) => Object.keys(t).length > 0, 'needs at least one template'),
    machineTypes: z
      .record(z.string().min(1), z.object({ cores: posInt, memoryMiB: posInt, diskGiB: z.number().int().min(0).optional() }).strict())
      .refine((t) => Object.keys(t).length > 0, 'needs at least one machine type'),
    requestTimeoutSeconds: z.number().min(0).optional(),
    vendorData: z.string().optional(),
    installGuestAgent: z.boolean().optional(),
  })
  .strict();
export type OperatorProxmoxConfig = z.infer<typeof OperatorProxmoxConfig>;

/** Guide, "Cluster-side setup" step 2: one entry of the providers config. */
export const OperatorProviderEntry = z
  .object({
    name: z.string().regex(OPERATOR_NODE_NAME, 'must be a provider name: lowercase letters, digits and dashes'),
    type: z.literal('proxmox'),
    proxmox: OperatorProxmoxConfig,
  })
  .strict();
export type OperatorProviderEntry = z.infer<typeof OperatorProviderEntry>;

export const PROXY_API_VERSION = 'crawl.example.com/v1alpha1';

const objectName = z.string().refine(isK8sObjectName, 'must be a Kubernetes object name: lowercase letters, digits, "-" and ".", at most 253');

/** Guide, "Placement" and the sample Proxy. */
export const OperatorProxy = z
  .object({
    apiVersion: z.literal(PROXY_API_VERSION),
    kind: z.literal('Proxy'),
    metadata: z
      .object({
        name: objectName,
        namespace: objectName.optional(),
        labels: z.record(z.string(), z.string()).optional(),
        annotations: z.record(z.string(), z.string()).optional(),
      })
      .strict(),
    spec: z
      .object({
        mode: z.literal('Managed'),
        provider: z.string().min(1),
        placement: z
          .object({
            zone: z.string().min(1).optional(),
            region: z.string().optional(),
            machineType: z.string().min(1),
            image: z.string().min(1),
          })
          .strict(),
        port: z.number().int().min(1).max(65_535),
        cloudInit: z.object({ inline: z.string().min(1) }).strict(),
        attributes: z.record(z.string(), z.string()).optional(),
      })
      .strict(),
  })
  .strict();
export type OperatorProxy = z.infer<typeof OperatorProxy>;

/** The words of a zod failure, each with its path: for refusals a user reads. */
export function schemaProblems(error: z.ZodError): string[] {
  return error.issues.map((i) => (i.path.length > 0 ? `${i.path.join('.')}: ${i.message}` : i.message));
}
