/**
 * A cluster profile: the seed's config field names (spec entry 15) plus the
 * client's TLS and token choices. Validated with zod; a bad profile is
 * refused with every problem listed, not only the first.
 */
import { z } from 'zod';
import { permanent } from './errors';
import type { TlsChoice } from '../pve/tls-choice';
import { MAX_VMID, MIN_VMID } from './ids';

const nodeName = z.string().regex(/^[a-z0-9]([a-z0-9-]*[a-z0-9])?$/, 'must be a Proxmox node name (lower-case letters, digits, dashes)');
const storageId = z.string().regex(/^[a-zA-Z][a-zA-Z0-9_.-]*$/, 'must be a Proxmox storage id');

const httpsUrl = z.string().refine((text) => {
  try {
    const u = new URL(text);
    return u.protocol === 'https:' && u.hostname !== '' && (u.pathname === '/' || u.pathname === '') && !u.search && !u.hash;
  } catch {
    return false;
  }
}, 'must be an https URL with a host and no path, like https://pve.example:8006');

const vmidRange = z
  .object({ min: z.number().int().min(MIN_VMID), max: z.number().int().max(MAX_VMID) })
  .refine((r) => r.min < r.max, { message: 'min must be below max', path: ['max'] });

const template = z.object({ vmid: z.number().int().min(MIN_VMID) });
const machineType = z.object({
  cores: z.number().int().positive(),
  memoryMiB: z.number().int().positive(),
  diskGiB: z.number().int().nonnegative().optional(),
});

/** How the client checks the node's certificate: the client's TlsChoice, as data. */
export const TlsChoiceSchema = z
  .discriminatedUnion('mode', [
    z.object({ mode: z.literal('system') }),
    z.object({ mode: z.literal('ca'), caPem: z.string().min(1) }),
    z.object({ mode: z.literal('pin'), fingerprint: z.string().min(1) }),
    z.object({ mode: z.literal('insecure') }),
  ])
  .and(z.object({ serverName: z.string().min(1).optional() }));

/**
 * Where the API token comes from: the client's TokenSource, as data. For
 * `secret` the profile holds only the token id; the secret stays in the
 * keychain and is handed to the client by main.
 */
export const TokenChoiceSchema = z.discriminatedUnion('kind', [
  z.object({ kind: z.literal('file'), path: z.string().min(1) }),
  z.object({ kind: z.literal('secret'), tokenId: z.string().regex(/^[^\s@!=]+@[^\s@!=]+![^\s@!=]+$/, 'must be user@realm!tokenid') }),
]);

export const ProfileSchema = z.object({
  url: httpsUrl,
  nodes: z
    .array(nodeName)
    .min(1, 'list at least one node')
    .refine((n) => new Set(n).size === n.length, 'node names must be unique'),
  isoStorage: storageId,
  storage: storageId.optional(),
  bridge: z.string().min(1).optional(),
  vlanTag: z.number().int().min(1).max(4094).optional(),
  vmidRange: vmidRange.default({ min: 100_000, max: 199_999 }),
  templates: z.record(z.string().min(1), template).refine((t) => Object.keys(t).length > 0, 'configure at least one template'),
  machineTypes: z.record(z.string().min(1), machineType).refine((m) => Object.keys(m).length > 0, 'configure at least one machine type'),
  requestTimeoutSeconds: z.number().nonnegative().default(30),
  vendorData: z.string().optional(),
  installGuestAgent: z.boolean().default(true),
  tls: TlsChoiceSchema,
  token: TokenChoiceSchema,
});

export type Profile = z.output<typeof ProfileSchema>;
export type ProfileInput = z.input<typeof ProfileSchema>;
export type MachineType = z.output<typeof machineType>;

/** Every problem as `field: message`, one per line of the error. */
export function parseProfile(input: unknown): Profile {
  const result = ProfileSchema.safeParse(input);
  if (result.success) return result.data;
  const problems = result.error.issues.map((issue) => `${issue.path.join('.') || '(profile)'}: ${issue.message}`);
  throw permanent(
    `the cluster profile has ${problems.length} problem(s):\n${problems.join('\n')}`,
    'Fix every field listed, then save the profile again.',
  );
}

// The profile's TLS choice is handed to the client as is.
const _tlsMatchesClient: (t: z.output<typeof TlsChoiceSchema>) => TlsChoice = (t) => t;
void _tlsMatchesClient;
