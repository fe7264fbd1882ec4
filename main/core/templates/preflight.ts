/**
 * The build's preflight (issue 14): one read pass before any write request,
 * then a pure verdict. It answers: can this token build this image on this
 * node over the API, where does the image go, which VMID, is there room, and
 * if not, exactly what to run (pveum, pvesm, or the whole shell recipe on a
 * release too old for the API path).
 *
 * Long because the verdict is one pure pass over one set of facts
 * (`preflightVerdict`: image, storages, room, network and VMID, privileges,
 * the recipe), and the read pass beside it gathers exactly those facts; the
 * request and fact types they share are declared here with them.
 */
import type { PveApi } from '../pve/api';
import type { TemplateBuildApi } from '../pve/build-api';
import type { ClusterResource, StorageEntry, StorageVolume } from '../pve/schemas';
import {
  catalogueImage,
  CHECKSUM_HEX_LENGTH,
  IMPORT_FILE_NAME,
  importFileNameFor,
  type ChecksumAlgorithm,
  type ImageArch,
} from '../../../shared/domain/image-catalogue';
import { grantCommands, roleCommand } from '../provider/rules/pveum';
import { buildPathFor, parsePveRelease, type BuildPath } from './capabilities';
import { builderNeeds, DOWNLOAD_ROOT_ALTERNATIVE, type BuilderNeed } from './privileges';
import { buildIdOf, shellCommands } from './recipe';

const GiB = 1024 ** 3;

export type ImageRequest = { kind: 'catalogue'; id: string } | { kind: 'custom'; url: string; fileName?: string; label?: string };

export interface BuildTemplateRequest {
  /** Stable across resumes: the task's id. Written into the template's description. */
  buildId: string;
  node: string;
  image: ImageRequest;
  /** The value the user pasted from the publisher's list (see shared/domain/image-catalogue.ts); unverified build without it. */
  checksum?: { algorithm: ChecksumAlgorithm; value: string };
  /** Default: the first active storage on the node with `import` content. */
  importStorage?: string;
  /** Where the template's disks go (needs `images` content). */
  targetStorage: string;
  bridge: string;
  vlanTag?: number;
  /** Default: the cluster's next free VMID outside the proxy range. */
  vmid?: number;
  /** Default: `<image id>-template`. */
  name?: string;
  cores?: number;
  memoryMiB?: number;
  /** Keep the downloaded image (for another build or a retry); default false: deleted after the build and after a failure. */
  keepImage?: boolean;
  /** download-url's `verify-certificates` (default on). */
  verifyCertificates?: boolean;
  /** The profile's proxy VMID range, which the template stays out of (default 100000–199999, vmid.ts). */
  proxyRange?: { min: number; max: number };
  /** The token id, for the pveum commands. */
  tokenId: string;
}

export interface ResolvedImage {
  id: string;
  label: string;
  url: string;
  fileName: string;
  arch: ImageArch;
  /** About how big the download is; undefined for a custom URL. */
  approxBytes?: number;
  virtualBytes?: number;
}

export function resolveImage(image: ImageRequest): ResolvedImage {
  if (image.kind === 'catalogue') {
    const c = catalogueImage(image.id);
    if (!c) throw new Error(`no image "${image.id}" in the catalogue`);
    return {
      id: c.id,
      label: c.label,
      url: c.url,
      fileName: c.fileName,
      arch: c.arch,
      approxBytes: c.approxBytes,
      virtualBytes: c.virtualGiB * GiB,
    };
  }
  return {
    id: 'custom',
    label: image.label ?? image.url,
    url: image.url,
    fileName: image.fileName ?? importFileNameFor(image.url),
    arch: 'amd64',
  };
}

export const DEFAULT_PROXY_RANGE = { min: 100_000, max: 199_999 };

export interface PreflightIssue {
  code: string;
  message: string;
  /** Exact commands (root on a node) that fix it, one per line. */
  fix?: string;
}

export interface PrivilegeGap {
  path: string;
  missing: string[];
  why: string;
}

export interface BuildPreflight {
  /** True when the API build may start. */
  ok: boolean;
  path: BuildPath;
  node: string;
  release?: string;
  /** Why the API path is unavailable. */
  reason?: string;
  image: ResolvedImage;
  vmid: number;
  name: string;
  importStorage?: string;
  targetStorage: string;
  /** `<storage>:import/<file>` when the image is already there (a previous build kept it). */
  existingImage?: { volid: string; size: number };
  blockers: PreflightIssue[];
  warnings: PreflightIssue[];
  privileges: PrivilegeGap[];
  /** pveum commands that close every privilege gap. */
  grantCommands: string[];
  /** When `path` is `shell`: root's commands for this node, storage and image, as one block. */
  shell?: string;
}

/** Everything the read pass learned; the verdict is a pure function of it. */
export interface PreflightFacts {
  pveversion?: string;
  /** The node's `uname -m` (`x86_64`, `aarch64`) where the release reports it (8.1 on). */
  machine?: string;
  storages: StorageEntry[];
  bridges?: string[];
  resources: ClusterResource[];
  nextId: number;
  /** Effective privileges per ACL path asked. */
  permissions: Record<string, string[]>;
  importVolumes?: StorageVolume[];
  /** Description of the VM at the requested VMID, when it exists (a resume finds its own build there). */
  vmidDescription?: string;
}

const FILE_BASED = new Set(['dir', 'nfs', 'cifs', 'cephfs', 'btrfs', 'glusterfs']);
const contentOf = (s: StorageEntry) => s.content;
const isActive = (s: StorageEntry) => s.active !== false && s.enabled !== false;

export function pickImportStorage(storages: readonly StorageEntry[], wanted?: string): StorageEntry | undefined {
  if (wanted) return storages.find((s) => s.storage === wanted);
  return storages.find((s) => isActive(s) && contentOf(s).includes('import'));
}

export function nameFor(request: Pick<BuildTemplateRequest, 'name'>, image: ResolvedImage): string {
  return request.name ?? `${image.id}-template`;
}

/** The VMID: the asked one, else Proxmox's next free one, stepped past the proxy range and taken VMIDs. */
export function chooseVmid(
  request: Pick<BuildTemplateRequest, 'vmid' | 'proxyRange'>,
  facts: Pick<PreflightFacts, 'resources' | 'nextId'>,
): number {
  if (request.vmid !== undefined) return request.vmid;
  const range = request.proxyRange ?? DEFAULT_PROXY_RANGE;
  const taken = new Set(facts.resources.map((r) => r.vmid).filter((v): v is number => v !== undefined));
  let id = facts.nextId;
  while (taken.has(id) || (id >= range.min && id <= range.max)) id = id >= range.min && id <= range.max ? range.max + 1 : id + 1;
  return id;
}

function privilegeGaps(needs: BuilderNeed[], permissions: Record<string, string[]>): PrivilegeGap[] {
  const gaps: PrivilegeGap[] = [];
  for (const need of needs) {
    const held = new Set(permissions[need.path] ?? []);
    if (need.alternatives) {
      const root = new Set(permissions['/'] ?? []);
      const viaRoot = DOWNLOAD_ROOT_ALTERNATIVE.every((p) => root.has(p));
      if (viaRoot || need.alternatives.some((alt) => alt.every((p) => held.has(p)))) continue;
    }
    const missing = need.all.filter((p) => !held.has(p));
    if (missing.length > 0) gaps.push({ path: need.path, missing, why: need.why });
  }
  return gaps;
}

function grantFor(needs: BuilderNeed[], gaps: PrivilegeGap[], tokenId: string): string[] {
  const out: string[] = [];
  const seen = new Set<string>();
  for (const gap of gaps) {
    const need = needs.find((n) => n.path === gap.path)!;
    const key = `${need.role.role}@${need.grantPath}`;
    if (seen.has(key)) continue;
    seen.add(key);
    if (!out.includes(roleCommand(need.role))) out.push(roleCommand(need.role));
    out.push(...grantCommands(need.grantPath, need.role, tokenId));
  }
  return out;
}

export function preflightVerdict(request: BuildTemplateRequest, facts: PreflightFacts): BuildPreflight {
  const image = resolveImage(request.image);
  const release = parsePveRelease(facts.pveversion);
  const choice = buildPathFor(release);
  const blockers: PreflightIssue[] = [];
  const warnings: PreflightIssue[] = [];
  const vmid = chooseVmid(request, facts);
  const name = nameFor(request, image);
  const node = request.node;

  // A guest runs the node's own architecture (qemu-server's `arch` defaults to the host's, and only root@pam
  // may set another), so the image must match the node. Official Proxmox VE nodes are amd64; an arm64 node
  // (a community port) says so in `current-kernel.machine`.
  const nodeArch = facts.machine === 'aarch64' || facts.machine === 'arm64' ? 'arm64' : 'amd64';
  if (image.arch !== nodeArch)
    blockers.push({
      code: 'arch',
      message: `${image.label} is an ${image.arch} image, and ${node} runs ${nodeArch} guests (${facts.machine ?? 'Proxmox VE nodes are amd64'}). Choose the ${nodeArch} image.`,
    });
  if (!IMPORT_FILE_NAME.test(image.fileName))
    blockers.push({
      code: 'file-name',
      message: `"${image.fileName}" is not a name Proxmox stores as an import image (letters, digits, - . + = _, ending in .qcow2, .raw or .vmdk).`,
    });
  if (request.checksum) {
    const hexLength = CHECKSUM_HEX_LENGTH[request.checksum.algorithm];
    if (!new RegExp(`^[0-9a-fA-F]{${hexLength}}$`).test(request.checksum.value))
      blockers.push({ code: 'checksum', message: `The ${request.checksum.algorithm} checksum must be ${hexLength} hex digits.` });
    const c = request.image.kind === 'catalogue' ? catalogueImage(request.image.id) : undefined;
    if (c && c.checksum.algorithm !== request.checksum.algorithm)
      blockers.push({
        code: 'checksum',
        message: `${c.label} is published with ${c.checksum.algorithm} checksums (${c.checksum.listUrl}), not ${request.checksum.algorithm}.`,
      });
  } else {
    const c = request.image.kind === 'catalogue' ? catalogueImage(request.image.id) : undefined;
    warnings.push({
      code: 'no-checksum',
      message: c
        ? `No checksum: the download will not be verified. The publisher's ${c.checksum.algorithm} list is ${c.checksum.listUrl} (line "${c.checksum.listEntry}").`
        : 'No checksum: the download will not be verified.',
    });
  }

  // Storages.
  const importStorage = pickImportStorage(facts.storages, request.importStorage);
  if (!importStorage || !contentOf(importStorage).includes('import')) {
    const candidates = facts.storages.filter((s) => isActive(s) && FILE_BASED.has(s.type));
    const fix = candidates.map((s) => `pvesm set ${s.storage} --content ${[...contentOf(s), 'import'].join(',')}`).join('\n');
    blockers.push({
      code: 'no-import-storage',
      message: importStorage
        ? `Storage ${importStorage.storage} on ${node} does not hold import content${FILE_BASED.has(importStorage.type) ? '' : ` (and cannot: ${importStorage.type} is not file based)`}.`
        : request.importStorage
          ? `Storage ${request.importStorage} does not exist on ${node}.`
          : `No storage on ${node} holds import content.${candidates.length > 0 ? ` ${candidates.map((s) => s.storage).join(', ')} could: it is file based.` : ' None of its storages is file based (dir, NFS, CIFS, CephFS, BTRFS).'}`,
      ...(candidates.length > 0 ? { fix } : {}),
    });
  }
  const target = facts.storages.find((s) => s.storage === request.targetStorage);
  if (!target) blockers.push({ code: 'target-storage', message: `Storage ${request.targetStorage} does not exist on ${node}.` });
  else if (!contentOf(target).includes('images'))
    blockers.push({
      code: 'target-storage',
      message: `Storage ${target.storage} does not hold VM disks (images content).`,
      fix: `pvesm set ${target.storage} --content ${[...contentOf(target), 'images'].join(',')}`,
    });

  // The image already there, and free space.
  const volid = importStorage ? `${importStorage.storage}:import/${image.fileName}` : undefined;
  const existing = facts.importVolumes?.find((v) => v.volid === volid);
  if (importStorage && !existing) {
    if (image.approxBytes === undefined)
      warnings.push({
        code: 'space-unknown',
        message: 'The size of a custom image is not known before the download; make sure the import storage has room.',
      });
    else if (importStorage.avail !== undefined && importStorage.avail < image.approxBytes * 1.1)
      blockers.push({
        code: 'space-import',
        message: `${importStorage.storage} has ${gib(importStorage.avail)} free; the image needs about ${gib(image.approxBytes)}.`,
      });
  }
  if (target?.avail !== undefined) {
    const data = existing?.size ?? image.approxBytes;
    if (data !== undefined && target.avail < data * 1.1)
      blockers.push({
        code: 'space-target',
        message: `${target.storage} has ${gib(target.avail)} free; the template disk needs about ${gib(data)}.`,
      });
    else if (image.virtualBytes !== undefined && target.avail < image.virtualBytes)
      warnings.push({
        code: 'space-virtual',
        message: `${target.storage} has ${gib(target.avail)} free, less than the disk's ${gib(image.virtualBytes)} virtual size: fine on thin storage, not on thick.`,
      });
  }

  // The network and the VMID.
  if (facts.bridges && !facts.bridges.includes(request.bridge))
    blockers.push({
      code: 'bridge',
      message: `Bridge ${request.bridge} does not exist on ${node} (it has ${facts.bridges.join(', ') || 'none'}).`,
    });
  const range = request.proxyRange ?? DEFAULT_PROXY_RANGE;
  const holder = facts.resources.find((r) => r.vmid === vmid);
  if (holder && buildIdOf(facts.vmidDescription) !== request.buildId)
    blockers.push({
      code: 'vmid-taken',
      message: `VMID ${vmid} is taken by ${holder.name ?? 'another VM'} on ${holder.node ?? 'a node'}.`,
    });
  if (vmid >= range.min && vmid <= range.max)
    warnings.push({
      code: 'vmid-in-proxy-range',
      message: `VMID ${vmid} is inside the proxy range ${range.min}–${range.max}: every proxy create that lands on it will probe past it.`,
    });

  // Privileges.
  const needs = builderNeeds({
    node,
    importStorage: importStorage?.storage ?? request.importStorage ?? 'local',
    targetStorage: request.targetStorage,
    vmid,
    bridge: request.bridge,
    ...(request.vlanTag !== undefined ? { vlanTag: request.vlanTag } : {}),
    deleteImage: !request.keepImage,
  });
  const privileges = privilegeGaps(needs, facts.permissions);
  const grantCommands = grantFor(needs, privileges, request.tokenId);
  if (privileges.length > 0)
    blockers.push({
      code: 'privileges',
      message: `The token lacks ${privileges.map((g) => `${g.missing.join(', ')} on ${g.path} (${g.why})`).join('; ')}.`,
      fix: grantCommands.join('\n'),
    });

  const shell =
    choice.path === 'shell'
      ? shellCommands({
          vmid,
          name,
          buildId: request.buildId,
          imageLabel: image.label,
          imageUrl: image.url,
          fileName: image.fileName,
          targetStorage: request.targetStorage,
          bridge: request.bridge,
          ...(request.vlanTag !== undefined ? { vlanTag: request.vlanTag } : {}),
          cores: request.cores ?? 2,
          memoryMiB: request.memoryMiB ?? 2048,
          builtAt: new Date(0),
          ...(request.checksum ? { checksum: { algorithm: request.checksum.algorithm, value: request.checksum.value.toLowerCase() } } : {}),
          shellImport: choice.shellImport,
        })
      : undefined;

  return {
    ok: choice.path === 'api' && blockers.length === 0,
    path: choice.path,
    node,
    ...(release ? { release: release.text } : {}),
    ...(choice.reason ? { reason: choice.reason } : {}),
    image,
    vmid,
    name,
    ...(importStorage ? { importStorage: importStorage.storage } : {}),
    targetStorage: request.targetStorage,
    ...(existing && volid ? { existingImage: { volid, size: existing.size } } : {}),
    blockers,
    warnings,
    privileges,
    grantCommands,
    ...(shell ? { shell } : {}),
  };
}

function gib(bytes: number): string {
  return `${(bytes / GiB).toFixed(1)} GiB`;
}

/** The one read pass: node version, storages, bridges, VMs, next VMID, the token's privileges and the import listing. No writes. */
export async function readPreflightFacts(
  api: PveApi & Pick<TemplateBuildApi, 'nextVmid'>,
  request: BuildTemplateRequest,
  signal?: AbortSignal,
): Promise<PreflightFacts> {
  const o = { signal };
  const [status, storages, bridges, resources, nextId] = await Promise.all([
    api.nodeStatus(request.node, o),
    api.storageList(request.node, o),
    api.network(request.node, 'bridge', o).then(
      (list) => list.map((b) => b.iface),
      () => undefined,
    ),
    api.clusterResources('vm', o),
    api.nextVmid(undefined, o),
  ]);
  const importStorage = pickImportStorage(storages, request.importStorage);
  const vmid = chooseVmid(request, { resources, nextId });
  const needs = builderNeeds({
    node: request.node,
    importStorage: importStorage?.storage ?? request.importStorage ?? 'local',
    targetStorage: request.targetStorage,
    vmid,
    bridge: request.bridge,
    ...(request.vlanTag !== undefined ? { vlanTag: request.vlanTag } : {}),
    deleteImage: !request.keepImage,
  });
  const paths = [...new Set(['/', ...needs.map((n) => n.path)])];
  const answers = await Promise.all(paths.map((p) => api.permissions(p, o)));
  const permissions: Record<string, string[]> = {};
  paths.forEach((p, i) => (permissions[p] = Object.keys(answers[i]?.[p] ?? {})));
  const importVolumes =
    importStorage && importStorage.content.includes('import')
      ? await api.storageContent(request.node, importStorage.storage, 'import', o)
      : undefined;
  const holder = resources.find((r) => r.vmid === vmid);
  const vmidDescription = holder?.node ? (await api.vmConfig(holder.node, vmid, o)).description : undefined;
  return {
    pveversion: status.pveversion,
    ...(status.machine ? { machine: status.machine } : {}),
    storages,
    ...(bridges ? { bridges } : {}),
    resources,
    nextId,
    permissions,
    ...(importVolumes ? { importVolumes } : {}),
    ...(vmidDescription !== undefined ? { vmidDescription } : {}),
  };
}

export async function preflight(
  api: PveApi & Pick<TemplateBuildApi, 'nextVmid'>,
  request: BuildTemplateRequest,
  signal?: AbortSignal,
): Promise<BuildPreflight> {
  return preflightVerdict(request, await readPreflightFacts(api, request, signal));
}
