/**
 * What crashed template builds left (issue 14), for the Cleanup view: VMs
 * whose description carries the builder's `egress-desk-template-build=<id>`
 * line but that are not templates (a build that never finished and was
 * neither resumed nor cleaned up), and images in `import` content nobody
 * uses: only ones the task journal says a build downloaded (and did not keep
 * on purpose), or named like a catalogue image's file, and that no VM
 * references. It reads and never changes anything; the delete of a VM goes
 * through the build's own clean-up (cleanupTemplateBuild), which checks the
 * build id at that VMID right before the destroy.
 */
import type { ImportImageRow, TemplateBuildRow } from '../../../shared/channels/cleanup';
import { IMAGE_CATALOGUE } from '../../../shared/domain/image-catalogue';
import { BUILD_IMAGE_KEY, buildIdOf, type ClusterResource } from '../../core';
import type { Cluster } from '../clusters/cluster';
import { formatAge } from './age';
import { readConfigs, type ConfigRead } from './references';

const BUILT_AT_KEY = 'egress-desk-template-built-at';

/** A template build the task journal knows (TaskManager.templateBuilds). */
export interface JournalledBuild {
  taskId: string;
  state: string;
  /** The task can still be resumed or cleaned up from Tasks. */
  open: boolean;
  buildId: string;
  node: string;
  volid?: string;
  downloadedByUs?: boolean;
  keepImage?: boolean;
}

export interface TemplateLeftoversInput {
  cluster: Cluster;
  resources: readonly ClusterResource[];
  builds: readonly JournalledBuild[];
  graceMinutes: number;
  now: Date;
  signal?: AbortSignal;
}

export interface TemplateLeftovers {
  templateBuilds: TemplateBuildRow[];
  importImages: ImportImageRow[];
  problems: { node: string; message: string }[];
}

const running = (b: JournalledBuild) => b.state === 'running' || b.state === 'queued';
const errorText = (e: unknown) => (e instanceof Error ? e.message : String(e));

function lineOf(description: string | undefined, key: string): string | undefined {
  for (const line of (description ?? '').split('\n')) if (line.trim().startsWith(`${key}=`)) return line.trim().slice(key.length + 1);
  return undefined;
}

/** The VMs a half-built template could be: stopped QEMU VMs that are not templates (the builder never starts one). */
function candidates(resources: readonly ClusterResource[], nodes: readonly string[]): ClusterResource[] {
  return resources.filter(
    (r) =>
      r.type === 'qemu' && !r.template && r.vmid !== undefined && r.node !== undefined && nodes.includes(r.node) && r.status === 'stopped',
  );
}

function buildRows(reads: ConfigRead[], o: TemplateLeftoversInput): TemplateBuildRow[] {
  const rows: TemplateBuildRow[] = [];
  for (const r of reads) {
    if (!('config' in r)) continue;
    const description = r.config.description;
    const buildId = buildIdOf(description);
    if (!buildId || String(r.config.template) === '1') continue;
    const known = o.builds.find((b) => b.buildId === buildId);
    if (known && running(known)) continue; // the build is at work on it
    const startedAt = lineOf(description, BUILT_AT_KEY);
    const started = startedAt && !Number.isNaN(Date.parse(startedAt)) ? new Date(startedAt) : undefined;
    const ageSeconds = started ? Math.max(0, (o.now.getTime() - started.getTime()) / 1000) : undefined;
    if (!known && ageSeconds !== undefined && ageSeconds < o.graceMinutes * 60) continue; // too young to judge
    const image = lineOf(description, BUILD_IMAGE_KEY);
    rows.push({
      node: r.vm.node!,
      vmid: r.vm.vmid!,
      name: r.vm.name ?? r.config.name ?? `VM ${r.vm.vmid}`,
      buildId,
      ...(started ? { startedAt: started.toISOString() } : {}),
      ...(image ? { imageUrl: image } : {}),
      ...(known?.open ? { taskId: known.taskId } : {}),
      reason: `A template build that did not finish (build ${buildId}, started ${started ? `${started.toISOString().replace(/\.\d{3}Z$/, 'Z')}, ${formatAge(ageSeconds!)} ago` : 'at an unknown time'}): not converted to a template${known ? `; its task is ${known.state}` : ', and no task of this app knows it'}.`,
    });
  }
  return rows;
}

const catalogueFile = (volid: string) => IMAGE_CATALOGUE.find((i) => volid.endsWith(`:import/${i.fileName}`));

async function imageRows(
  o: TemplateLeftoversInput,
  reads: ConfigRead[],
  problems: TemplateLeftovers['problems'],
): Promise<ImportImageRow[]> {
  const { cluster, signal } = o;
  const found = new Map<string, ImportImageRow & { shared: boolean }>();
  for (const node of cluster.profile.nodes) {
    let storages;
    try {
      storages = await cluster.api.storageList(node, { signal });
    } catch (e) {
      signal?.throwIfAborted();
      problems.push({ node, message: `Its storages could not be listed for import images: ${errorText(e)}` });
      continue;
    }
    for (const s of storages.filter((x) => x.content.includes('import') && x.active !== false && x.enabled !== false)) {
      let volumes;
      try {
        volumes = await cluster.api.storageContent(node, s.storage, 'import', { signal });
      } catch (e) {
        signal?.throwIfAborted();
        problems.push({ node, message: `The import images on ${s.storage} could not be listed: ${errorText(e)}` });
        continue;
      }
      for (const v of volumes) {
        if (found.has(v.volid) && s.shared) continue;
        const journal = o.builds.find((b) => b.volid === v.volid && (s.shared || b.node === node) && b.downloadedByUs);
        const listed = catalogueFile(v.volid);
        if (!journal && !listed) continue; // not ours to judge
        if (journal && (running(journal) || journal.keepImage)) continue; // in use, or kept on purpose
        const ageSeconds = v.ctime !== undefined ? Math.max(0, o.now.getTime() / 1000 - v.ctime) : undefined;
        if (!journal && ageSeconds !== undefined && ageSeconds < o.graceMinutes * 60) continue;
        if (o.builds.some((b) => running(b) && b.volid === v.volid)) continue;
        found.set(s.shared ? v.volid : `${node}/${v.volid}`, {
          node,
          storage: s.storage,
          volid: v.volid,
          sizeBytes: v.size,
          ...(ageSeconds !== undefined ? { ageSeconds } : {}),
          ...(journal?.open ? { taskId: journal.taskId } : {}),
          shared: s.shared ?? false,
          reason: journal
            ? `Downloaded by the template build ${journal.buildId} (its task is ${journal.state}) and left behind; no VM uses it.`
            : `Named like the catalogue image ${listed!.label} (${listed!.fileName}), and no VM uses it: an image a template build left, or one downloaded by hand.`,
        });
      }
    }
  }
  // An image a VM's config still names (a create importing it) stays.
  const referenced = (volid: string) => reads.some((r) => 'config' in r && Object.values(r.config).some((x) => String(x).includes(volid)));
  const unread = reads.filter((r) => 'error' in r);
  return [...found.values()]
    .filter((row) => !referenced(row.volid))
    .map(({ shared: _s, ...row }) =>
      unread.length > 0 ? { ...row, reason: `${row.reason} (${unread.length} VM config(s) could not be read.)` } : row,
    );
}

export async function scanTemplateLeftovers(o: TemplateLeftoversInput): Promise<TemplateLeftovers> {
  const problems: TemplateLeftovers['problems'] = [];
  const stopped = candidates(o.resources, o.cluster.profile.nodes);
  const reads = await readConfigs(o.cluster.api, stopped, o.signal);
  // A VM being created (locked) may be importing an image: its config is read too.
  const locked = o.resources.filter((r) => r.type === 'qemu' && r.lock && !stopped.includes(r) && r.vmid !== undefined && r.node);
  reads.push(...(await readConfigs(o.cluster.api, locked, o.signal)));
  for (const r of reads)
    if ('error' in r) problems.push({ node: r.vm.node ?? '?', message: `VM ${r.vm.vmid} could not be read: ${r.error}` });
  return { templateBuilds: buildRows(reads, o), importImages: await imageRows(o, reads, problems), problems };
}
