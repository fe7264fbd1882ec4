/**
 * A cluster profile: the seed's config field names (spec entry 15) plus the
 * client's TLS and token choices. Validated with zod; a bad profile is
 * refused with every problem listed, not only the first.
 */
import { z } from 'zod';
import { permanent } from './errors';
import type { TlsChoice } from '../../pve/tls-choice';
import { MAX_VMID, MIN_VMID } from './ids';
import { BRIDGE_NAME, BRIDGE_NAME_MESSAGE, MAX_VLAN_TAG, MIN_VLAN_TAG } from './net0';

const nodeName = z.string().regex(/^[a-z0-9]([a-z0-9-]*[a-z0-9])?$/, 'must be a Proxmox node name (lower-case letters, digits, dashes)');
const storageId = z.string().regex(/^[a-zA-Z][a-zA-Z0-9_.-]*$/, 'must be a Proxmox storage id');

const httpsUrl = z
  .string()
  .refine((text) => {
    try {
      const u = new URL(text);
      return u.protocol === 'https:' && u.hostname !== '' && (u.pathname === '/' || u.pathname === '') && !u.search && !u.hash;
    } catch {
      return false;
    }
  }, 'must be an https URL with a host and no path, like https://pve.example:8006')
  .refine((text) => !hasUserInfo(text), {
    message: 'must not hold a user name or password (user:pass@): the API token is the only credential, and it is never kept in the URL',
    abort: true,
  });

/** True when the URL carries `user:pass@` (or just `user@`); an unparsable text is refused by the check before. */
export function hasUserInfo(text: string): boolean {
  try {
    const u = new URL(text);
    return u.username !== '' || u.password !== '';
  } catch {
    return false;
  }
}

/**
 * Names every JavaScript object answers for (`constructor`, `toString`,
 * `__proto__`…): a catalogue key named so would be found on any object, or
 * set its prototype. Refused as template and machine-type names, and the
 * catalogues are handed out without a prototype besides.
 */
const RESERVED_KEYS: ReadonlySet<string> = new Set([...Object.getOwnPropertyNames(Object.prototype), 'prototype']);

export function isReservedKey(key: string): boolean {
  return RESERVED_KEYS.has(key);
}

export const reservedKeyMessage = (key: string) => `"${key}" is a reserved name; choose another`;

/** Looks at the raw keys, before the record drops `__proto__` on its own. */
function refuseReservedKeys(raw: unknown, ctx: z.RefinementCtx): unknown {
  if (typeof raw === 'object' && raw !== null) {
    for (const key of Object.keys(raw))
      if (isReservedKey(key)) ctx.addIssue({ code: 'custom', message: reservedKeyMessage(key), path: [key] });
  }
  return raw;
}

function withoutPrototype<T>(record: Record<string, T>): Record<string, T> {
  return Object.assign(Object.create(null) as Record<string, T>, record);
}

/** A catalogue (templates, machine types): named entries, at least one unless `emptyMessage` is undefined, no reserved name, no prototype. */
function catalogue<T extends z.ZodType>(
  entry: T,
  emptyMessage: string | undefined,
): z.ZodType<Record<string, z.output<T>>, Record<string, z.input<T>>> {
  const record = z
    .record(z.string().min(1), entry)
    .refine((r) => emptyMessage === undefined || Object.keys(r).length > 0, emptyMessage)
    .transform((r) => withoutPrototype(r as Record<string, z.output<T>>));
  // The raw keys are looked at first; what the catalogue takes in is still its entries' input.
  return z.preprocess<unknown, typeof record, Record<string, z.input<T>>>(refuseReservedKeys, record);
}

const vmidRange = z
  .object({ min: z.number().int().min(MIN_VMID), max: z.number().int().max(MAX_VMID) })
  .refine((r) => r.min < r.max, { message: 'min must be below max', path: ['max'] });

/**
 * A catalogue image: its default template, and optionally one template per
 * node (issue 11), which a create on that node clones instead: a template on
 * node-local storage can only be cloned on its own node.
 */
const template = z.object({
  vmid: z.number().int().min(MIN_VMID),
  // Looked up with Object.hasOwn only (landing.ts templateVmidFor), so an inherited key never answers.
  perNode: z.record(nodeName, z.number().int().min(MIN_VMID)).optional(),
});
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
  bridge: z.string().regex(BRIDGE_NAME, BRIDGE_NAME_MESSAGE).optional(),
  vlanTag: z.number().int().min(MIN_VLAN_TAG).max(MAX_VLAN_TAG).optional(),
  vmidRange: vmidRange.default({ min: 100_000, max: 199_999 }),
  // May be empty: a cluster with no suitable template is saved, then the template builder fills it (issue 14).
  templates: catalogue(template, undefined),
  machineTypes: catalogue(machineType, 'configure at least one machine type'),
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
