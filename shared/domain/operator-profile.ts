/**
 * Issue 26, the other way, for the cluster: a providers-config entry of the
 * Kubernetes operator (guide, "Config reference") read into a draft of the
 * app's own cluster profile, which the connect wizard opens pre-filled.
 *
 * What maps is carried field for field (url, nodes, isoStorage, storage,
 * bridge, vlanTag, vmidRange, templates, machineTypes,
 * requestTimeoutSeconds, vendorData, installGuestAgent). What does not is
 * said in words and left to the wizard: the token (`tokenFile` is a path in
 * the operator's pod, never read from this disk), the trust (`caFile` the
 * same; `insecureSkipTLSVerify: true` never becomes the app's trust: the
 * wizard's own certificate step decides). An entry the operator would
 * refuse, or one the app's profile cannot hold (a bridge name Proxmox's
 * net0 refuses, a timeout over an hour, a reserved catalogue name), is
 * refused with every problem naming its key, and nothing is drafted. Pure.
 */
import { z } from 'zod';
import { OperatorProviderEntry, schemaProblems } from './operator-schemas';
import { ProfileFields } from './profile';
import { parseWebUrl } from './web-url';

/** The profile fields a providers-config entry can give: everything but the trust, the token and the app's own polling. */
export const ProfileDraft = ProfileFields.omit({ tls: true, token: true, pollIntervals: true });
export type ProfileDraft = z.infer<typeof ProfileDraft>;

/** One providers-config entry found in the text, as an offer of a new cluster profile. */
export interface ProfileOffer {
  /** The entry's `name` as written (or a stand-in when it has none). */
  provider: string;
  /** The entry's `proxmox.url` as written, when it is a string. */
  url?: string | undefined;
  /** The draft, only when `problems` is empty. */
  draft?: ProfileDraft | undefined;
  /** What the entry says that the profile does not take, and what the wizard asks for instead. */
  notes: string[];
  /** Why no profile can be made from the entry, each naming its key; empty when the draft stands. */
  problems: string[];
}

function notesOf(entry: OperatorProviderEntry): string[] {
  const c = entry.proxmox;
  const notes = [
    `tokenFile ${c.tokenFile} is a path inside the operator’s pod and is not read: paste the token ID and secret in the wizard.`,
  ];
  if (c.caFile !== undefined)
    notes.push(
      `caFile ${c.caFile} is a path inside the operator’s pod and is not read: choose the CA (or pin the certificate) at the wizard’s trust step.`,
    );
  if (c.insecureSkipTLSVerify === true)
    notes.push('insecureSkipTLSVerify: true is not carried over: the wizard’s trust step checks the certificate and asks how to trust it.');
  return notes;
}

/** The operator's key for a profile field's problem path (the entry's `name` is the cluster name). */
function operatorKey(path: readonly PropertyKey[]): string {
  if (path.length === 0) return 'proxmox';
  if (path[0] === 'name') return 'name';
  return ['proxmox', ...path.map(String)].join('.');
}

/** A stand-in the words can use for an entry with no usable name. */
function providerLabel(raw: unknown): string {
  const name = raw && typeof raw === 'object' ? (raw as { name?: unknown }).name : undefined;
  return typeof name === 'string' && name !== '' ? name : '(unnamed entry)';
}

/** A providers-config entry (as parsed from YAML, unchecked) as an offer of a cluster profile. */
export function profileOfferOf(raw: unknown): ProfileOffer {
  const provider = providerLabel(raw);
  const rawUrl = raw && typeof raw === 'object' ? (raw as { proxmox?: { url?: unknown } }).proxmox?.url : undefined;
  const offer: ProfileOffer = { provider, ...(typeof rawUrl === 'string' ? { url: rawUrl } : {}), notes: [], problems: [] };
  const entry = OperatorProviderEntry.safeParse(raw);
  if (!entry.success) {
    offer.problems = schemaProblems(entry.error);
    return offer;
  }
  const c = entry.data.proxmox;
  const mapped = {
    name: entry.data.name,
    url: c.url,
    nodes: c.nodes,
    isoStorage: c.isoStorage,
    ...(c.storage !== undefined ? { storage: c.storage } : {}),
    ...(c.bridge !== undefined ? { bridge: c.bridge } : {}),
    ...(c.vlanTag !== undefined ? { vlanTag: c.vlanTag } : {}),
    ...(c.vmidRange !== undefined ? { vmidRange: { min: c.vmidRange.min, max: c.vmidRange.max } } : {}),
    templates: Object.fromEntries(Object.entries(c.templates).map(([k, t]) => [k, { vmid: t.vmid }])),
    machineTypes: Object.fromEntries(
      Object.entries(c.machineTypes).map(([k, m]) => [
        k,
        { cores: m.cores, memoryMiB: m.memoryMiB, ...(m.diskGiB !== undefined ? { diskGiB: m.diskGiB } : {}) },
      ]),
    ),
    ...(c.requestTimeoutSeconds !== undefined ? { requestTimeoutSeconds: c.requestTimeoutSeconds } : {}),
    ...(c.vendorData !== undefined ? { vendorData: c.vendorData } : {}),
    ...(c.installGuestAgent !== undefined ? { installGuestAgent: c.installGuestAgent } : {}),
  };
  // The app's own limits on top of the operator's (the profile is what the app saves and clones with).
  const draft = ProfileDraft.safeParse(mapped);
  if (!draft.success) {
    offer.problems = draft.error.issues.map((i) => `${operatorKey(i.path)}: ${i.message}`);
    return offer;
  }
  offer.draft = draft.data;
  offer.notes = notesOf(entry.data);
  return offer;
}

/** One server for the app: the same scheme, host (without case) and port, whatever the trailing slash. */
export function sameServerUrl(a: string, b: string): boolean {
  const x = parseWebUrl(a.trim());
  const y = parseWebUrl(b.trim());
  if (!x || !y) return a.trim().toLowerCase() === b.trim().toLowerCase();
  return x.protocol === y.protocol && x.host.toLowerCase() === y.host.toLowerCase();
}

/** The saved profile that already talks to this server, if any: offered instead of a duplicate. */
export function profileWithUrl<P extends { url: string }>(url: string, saved: readonly P[]): P | undefined {
  return saved.find((p) => sameServerUrl(p.url, url));
}

/** What the connect wizard found on the cluster it reached (the doctor's discovery, reduced to names). */
export interface FoundOnCluster {
  nodes: readonly string[];
  isoStorages: readonly string[];
  bridges: readonly string[];
  /** The VMIDs of the templates the app can clone (suitable ones). */
  templates: readonly number[];
}

/** The draft's choices the wizard's last page opens with, kept to what the cluster has; what it lacks, in words. */
export interface FittedDraft {
  nodes: string[];
  isoStorage?: string | undefined;
  bridge?: string | undefined;
  templates: Record<string, { vmid: number }>;
  notes: string[];
}

/**
 * The entry's nodes, seed storage, bridge and templates, as far as the cluster the wizard reached has them:
 * a node, storage, bridge or template the cluster lacks is left out and said, never saved unseen.
 */
export function fitDraftToCluster(draft: ProfileDraft, found: FoundOnCluster): FittedDraft {
  const notes: string[] = [];
  const nodes = draft.nodes.filter((n) => found.nodes.includes(n));
  const missingNodes = draft.nodes.filter((n) => !found.nodes.includes(n));
  if (missingNodes.length > 0)
    notes.push(
      `nodes: ${missingNodes.join(', ')} from the entry ${missingNodes.length === 1 ? 'is' : 'are'} not in this cluster, so left out.`,
    );
  const isoStorage = found.isoStorages.includes(draft.isoStorage) ? draft.isoStorage : undefined;
  if (isoStorage === undefined)
    notes.push(`isoStorage: ${draft.isoStorage} from the entry holds no ISO content here (or is not there): choose the seed storage.`);
  const bridge = draft.bridge === undefined || found.bridges.includes(draft.bridge) ? draft.bridge : undefined;
  if (draft.bridge !== undefined && bridge === undefined)
    notes.push(`bridge: ${draft.bridge} from the entry is on no node here: choose a bridge.`);
  const templates: Record<string, { vmid: number }> = {};
  for (const [key, t] of Object.entries(draft.templates)) {
    if (found.templates.includes(t.vmid)) templates[key] = { vmid: t.vmid };
    else notes.push(`templates.${key}: VMID ${t.vmid} is not a template the app can clone here, so left out.`);
  }
  return { nodes, isoStorage, bridge, templates, notes };
}
