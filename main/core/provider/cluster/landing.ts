/**
 * Where a create can land (issue 11). Proxmox clones with `target` onto
 * another node only when every disk of the template sits on a shared
 * storage (qemu-server clone_vm: "can't clone VM to node '…' (VM uses local
 * storage)"), and only onto a shared `storage` ("can't clone to non-shared
 * storage '…'"). So, for each node of the profile, this says whether a create
 * of an image can land there and how:
 *
 * - `here`: the template is on that node; a plain clone.
 * - `target`: the template's disks (and the profile's disk storage, if set)
 *   are shared; a clone with `target`.
 * - `migrate`: neither, but the node has the storages the copy needs; the
 *   clone runs on the template's node and the stopped VM is then migrated
 *   (offline, with its local disks) before the seed is attached.
 *
 * or why it cannot, in plain words, with the ways out. The rules are pure
 * (`judgeLanding`), over facts read with one listing and one config read
 * per template (`readLandingFacts`). The template for a node is the image's
 * per-node template when the profile names one for it, else its default.
 */
import type { PveApi } from '../../pve/api';
import type { ClusterResource, VmConfig } from '../calls/context';
import type { Profile } from '../rules/profile';
import { findVm } from './resources';
import { clusterListing } from './lookup';
import { recentTemplateConfig } from './template-reads';

/** A catalogue image: its default template and, optionally, one per node. */
export interface TemplateEntry {
  vmid: number;
  perNode?: Readonly<Record<string, number>> | undefined;
}

/** The template VMID a create on `node` clones: the per-node one when the profile names one, else the default. */
export function templateVmidFor(entry: TemplateEntry, node: string): number {
  return (entry.perNode && Object.hasOwn(entry.perNode, node) ? entry.perNode[node] : undefined) ?? entry.vmid;
}

export interface NodeFact {
  node: string;
  online: boolean;
}

export interface StorageFact {
  storage: string;
  node: string;
  shared: boolean;
  content: readonly string[];
}

export interface TemplateFact {
  vmid: number;
  /** Undefined: no QEMU VM with this VMID is listed. */
  node?: string;
  config?: VmConfig;
  /** Why the config could not be read, when it could not. */
  readError?: string;
}

export interface LandingFacts {
  nodes: readonly NodeFact[];
  storages: readonly StorageFact[];
  templates: ReadonlyMap<number, TemplateFact>;
}

export type LandingWay = 'here' | 'target' | 'migrate';

export interface Landing {
  node: string;
  /** The template a create on this node clones. */
  templateVmid: number;
  ok: boolean;
  way?: LandingWay;
  /** Where the clone runs: the template's node. */
  cloneNode?: string;
  /** Why a create cannot land here, in plain words. */
  reason?: string;
  /** The ways out when it cannot. */
  hint?: string;
  /** For `migrate`: what it costs, e.g. "clone on pv1-2, then move to pv1-1: about 35 s longer". */
  note?: string;
  /** For `migrate`: the estimate behind the note, in seconds. */
  extraSeconds?: number;
}

/**
 * The estimate of a move: the disks' provisioned size over a 1 GbE
 * migration network (about 110 MB/s after TCP and ssh), plus a few seconds
 * for the task itself. A ceiling: a thin volume may move less.
 */
export const MOVE_BYTES_PER_SECOND = 110_000_000;
export const MOVE_OVERHEAD_SECONDS = 5;

const VOLUME_KEY = /^(?:ide|sata|scsi|virtio)\d+$|^efidisk0$|^tpmstate0$/;
const UNIT: Record<string, number> = { '': 1, K: 1024, M: 1024 ** 2, G: 1024 ** 3, T: 1024 ** 4 };

interface Volume {
  slot: string;
  volid: string;
  storage: string;
  cdrom: boolean;
  bytes: number;
}

/** Every volume a config references, as clone_vm's storage-access check sees them: disks and CD-ROM images, not `none`/`cdrom`. */
export function templateVolumes(config: VmConfig): Volume[] {
  const out: Volume[] = [];
  for (const [slot, value] of Object.entries(config)) {
    if (!VOLUME_KEY.test(slot) || typeof value !== 'string') continue;
    const volid = value.split(',')[0] ?? '';
    if (volid === 'none' || volid === 'cdrom' || !volid.includes(':')) continue;
    const size = /(?:^|,)size=(\d+(?:\.\d+)?)([KMGT]?)(?:,|$)/.exec(value);
    out.push({
      slot,
      volid,
      storage: volid.slice(0, volid.indexOf(':')),
      cdrom: /(?:^|,)media=cdrom(?:,|$)/.test(value),
      bytes: size ? Math.round(Number(size[1]) * UNIT[size[2] ?? '']!) : 0,
    });
  }
  return out.sort((a, b) => a.slot.localeCompare(b.slot));
}

/** What the rules need from the profile. */
export type LandingProfile = Pick<Profile, 'storage'>;

/** Whether, and how, a create of template `templateVmid` can land on `node`. Pure. */
export function judgeLanding(profile: LandingProfile, node: string, templateVmid: number, facts: LandingFacts): Landing {
  const base = { node, templateVmid };
  const no = (reason: string, hint: string): Landing => ({ ...base, ok: false, reason, hint });
  const nodeFact = facts.nodes.find((n) => n.node === node);
  if (!nodeFact) return no(`${node} is not a node of this cluster`, 'Check the node names in the cluster profile.');
  if (!nodeFact.online) return no(`${node} is down`, 'Wait for it to come back, or choose another node.');
  const template = facts.templates.get(templateVmid);
  if (!template?.node)
    return no(`template ${templateVmid} does not exist`, 'Fix the template catalogue in the cluster profile, or create the template.');
  const source = template.node;
  if (source !== node && !facts.nodes.find((n) => n.node === source)?.online)
    return no(
      `template ${templateVmid} is on ${source}, which is down`,
      `Wait for ${source}, or give this image a template on ${node} too (a template per node in the profile).`,
    );
  if (!template.config)
    return no(`the config of template ${templateVmid} could not be read${template.readError ? ` (${template.readError})` : ''}`, 'Try again.');

  const at = (storage: string, on: string) => facts.storages.find((s) => s.storage === storage && s.node === on);
  const shared = (storage: string) => facts.storages.some((s) => s.storage === storage && s.shared);
  const holdsDisks = (storage: string, on: string) => at(storage, on)?.content.includes('images') ?? false;
  const target = profile.storage;
  if (target !== undefined && !holdsDisks(target, source))
    return no(
      at(target, source)
        ? `the disk storage ${target} holds no VM disks on ${source}, where template ${templateVmid} is`
        : `the disk storage ${target} is not on ${source}, where template ${templateVmid} is`,
      `Choose a disk storage that ${source} has, or leave it empty to keep the template's storage.`,
    );
  if (source === node) return { ...base, ok: true, way: 'here', cloneNode: source };

  const volumes = templateVolumes(template.config);
  const local = volumes.filter((v) => !shared(v.storage));
  const targetShared = target === undefined || shared(target);
  // Where the copy's volumes live once the clone is made: the disk storage for disks when set; CD-ROM images stay put.
  const finalStorages = [...new Set(volumes.map((v) => (target !== undefined && !v.cdrom ? target : v.storage)))];
  const missingOn = (on: string) => finalStorages.filter((s) => (volumes.some((v) => v.cdrom && v.storage === s) ? !at(s, on) : !holdsDisks(s, on)));
  const waysOut = `Choose ${source}, give this image a template on ${node} (a template per node in the profile), or put the template's disks on a storage every node shares.`;

  if (local.length === 0 && targetShared) {
    const missing = missingOn(node);
    if (missing.length === 0) return { ...base, ok: true, way: 'target', cloneNode: source };
    return no(`the storage ${missing[0]} is not available on ${node}`, `Make ${missing[0]} available on ${node}, or choose another node.`);
  }

  const direct =
    local.length > 0
      ? `the template's disk is on ${local[0]!.storage}, which is local to ${source}`
      : `the target storage ${target} is not shared`;
  const localCdrom = local.find((v) => v.cdrom);
  if (localCdrom)
    return no(`${direct}, and its CD-ROM image ${localCdrom.volid} cannot be moved to another node`, `Remove the CD-ROM image from the template, or: ${waysOut}`);
  const missing = missingOn(node);
  if (missing.length > 0) return no(`${direct}, and ${node} has no storage ${missing[0]} to move the copy to`, waysOut);

  const moved = volumes.filter((v) => !v.cdrom && !shared(target !== undefined ? target : v.storage));
  const extraSeconds = Math.round(MOVE_OVERHEAD_SECONDS + moved.reduce((n, v) => n + v.bytes, 0) / MOVE_BYTES_PER_SECOND);
  return {
    ...base,
    ok: true,
    way: 'migrate',
    cloneNode: source,
    note: `clone on ${source}, then move to ${node}: about ${extraSeconds} s longer (${direct})`,
    extraSeconds,
  };
}

/** The verdict for every node of the profile, in profile order, for one image of the catalogue. */
export function judgeLandings(profile: LandingProfile & Pick<Profile, 'nodes'>, entry: TemplateEntry, facts: LandingFacts): Landing[] {
  return profile.nodes.map((node) => judgeLanding(profile, node, templateVmidFor(entry, node), facts));
}

/** Nodes and storages from a `/cluster/resources` listing (no type filter, or `node` plus `storage`). */
export function clusterFacts(resources: readonly ClusterResource[]): Pick<LandingFacts, 'nodes' | 'storages'> {
  const nodes = resources.filter((r) => r.type === 'node' && r.node).map((r) => ({ node: r.node!, online: r.status === 'online' }));
  const storages = resources
    .filter((r) => r.type === 'storage' && r.node && r.storage)
    .map((r) => ({
      storage: r.storage!,
      node: r.node!,
      shared: r.shared === true || (r.shared as unknown) === 1,
      content: Array.isArray(r.content) ? r.content : [],
    }));
  return { nodes, storages };
}

/** Reads what the rules need for these templates: one listing, then each template's config on its node while that node is online. */
export async function readLandingFacts(api: PveApi, vmids: Iterable<number>, signal?: AbortSignal): Promise<LandingFacts> {
  // Recorded for the creates this placement starts: their lookup may use it (lookup.ts).
  const resources = await clusterListing(api, { signal });
  const { nodes, storages } = clusterFacts(resources);
  const templates = new Map<number, TemplateFact>();
  // Each template is read on its own node, so the reads go out together (each node's pace is its own), afresh (what
  // a user is offered is never from an old read), and kept for the creates this placement starts (template-reads.ts).
  const facts = [...new Set(vmids)].map(async (vmid): Promise<TemplateFact> => {
    const r = findVm(resources, vmid);
    if (!r?.node) return { vmid };
    const fact: TemplateFact = { vmid, node: r.node };
    if (nodes.find((n) => n.node === r.node)?.online) {
      try {
        fact.config = await recentTemplateConfig(api, r.node, vmid, { maxAgeMs: 0, signal });
      } catch (e) {
        signal?.throwIfAborted();
        fact.readError = e instanceof Error ? e.message : String(e);
      }
    }
    return fact;
  });
  for (const fact of await Promise.all(facts)) templates.set(fact.vmid, fact);
  return { nodes, storages, templates };
}

/** Every node's verdict for one image, read now. */
export async function landingsFor(
  api: PveApi,
  profile: LandingProfile & Pick<Profile, 'nodes'>,
  entry: TemplateEntry,
  signal?: AbortSignal,
): Promise<Landing[]> {
  const facts = await readLandingFacts(
    api,
    profile.nodes.map((n) => templateVmidFor(entry, n)),
    signal,
  );
  return judgeLandings(profile, entry, facts);
}
