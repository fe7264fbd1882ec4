/**
 * Where the template rule's verdicts come from: a periodic read of each
 * cluster's catalogue templates, judged with the doctor's own verdict
 * (doctor/template-verdicts.ts templateVerdict: core templateProblems, the
 * checks a create makes before it clones: still a template, no Proxmox
 * cloud-init drive, a net0 the profile's bridge can rewrite, a boot disk to
 * grow). The node health check only sees a template that is missing or no
 * longer a template (core/provider/operations/check.ts checkTemplates reads the
 * resource list, no config), so this reads what it cannot: one
 * `GET /cluster/resources?type=vm` and one `GET …/qemu/{vmid}/config` per
 * catalogue template (qemu-server PVE/API2/Qemu.pm vm_config), per cluster
 * every 10 minutes. Templates change rarely; sooner when a cluster's profile
 * changes (a template built or added), and a few seconds after a health
 * check says a template is missing or stops saying so.
 *
 * A cluster that cannot be read now (down, no secret) says nothing either
 * way: its alerts stay as they are (the node rule speaks for it).
 */
import { type ClusterResource, templateVmidFor } from '../../core';
import type { Logger } from '../../log/logger';
import type { HealthReason } from '../../../shared/channels/health';
import type { Cluster, ClusterDirectory } from '../clusters/cluster';
import { templateVerdict } from '../doctor/template-verdicts';
import { TemplateRules, type CatalogueVerdict } from './template-rules';

export const TEMPLATE_CHECK_INTERVAL_MS = 10 * 60_000;
/** After a hint (a profile change, a health verdict), the read waits this long, so a burst of hints costs one read. */
const SOON_MS = 3_000;

export interface TemplateWatchOptions {
  directory: ClusterDirectory;
  rules: TemplateRules;
  logger: Logger;
  intervalMs?: number;
  soonMs?: number;
}

export interface TemplateWatch {
  start(): void;
  /** Reads and judges one cluster's catalogue now (every cluster without an id); resolves when judged. */
  checkNow(clusterId?: string): Promise<void>;
  /** A node health result: a template reported missing, or no longer, asks for a read soon. */
  observeHealth(clusterId: string, reason: HealthReason): void;
  stop(): void;
}

/** The doctor's needs for a saved profile (doctor/from-directory.ts): its bridge and VLAN, the largest machine disk. */
function needsOf(cluster: Cluster) {
  const disks = Object.values(cluster.profile.machineTypes).map((m) => m.diskGiB ?? 0);
  return { bridge: cluster.profile.bridge, vlanTag: cluster.profile.vlanTag, diskGiB: Math.max(1, ...disks) };
}

/** Every (key, VMID) the catalogue names: the default template and each node's own (a VMID under two keys is judged once). */
function catalogueVmids(cluster: Cluster): { key: string; vmid: number }[] {
  const named: { key: string; vmid: number }[] = [];
  for (const [key, entry] of Object.entries(cluster.profile.templates).sort(([a], [b]) => a.localeCompare(b))) {
    named.push({ key, vmid: entry.vmid });
    for (const node of Object.keys(entry.perNode ?? {}).sort()) named.push({ key, vmid: templateVmidFor(entry, node) });
  }
  return named;
}

export async function judgeCatalogue(cluster: Cluster, signal?: AbortSignal): Promise<CatalogueVerdict[]> {
  const resources = await cluster.api.clusterResources('vm', { signal, loop: true });
  const needs = needsOf(cluster);
  const judged = new Map<number, CatalogueVerdict>();
  const verdicts: CatalogueVerdict[] = [];
  for (const { key, vmid } of catalogueVmids(cluster)) {
    const known = judged.get(vmid);
    if (known) {
      verdicts.push({ ...known, key });
      continue;
    }
    const vm: ClusterResource | undefined = resources.find((r) => r.type === 'qemu' && r.vmid === vmid && r.node !== undefined);
    let verdict: CatalogueVerdict;
    if (!vm) verdict = TemplateRules.missing(key, vmid);
    else {
      const config = await cluster.api.vmConfig(vm.node!, vmid, { signal, loop: true });
      const doctor = templateVerdict(vmid, vm.node!, config, needs);
      verdict = { key, vmid, node: vm.node!, problems: doctor.problems.map((p) => ({ code: p.code, message: p.message, fix: p.fix })) };
    }
    judged.set(vmid, verdict);
    verdicts.push(verdict);
  }
  return verdicts;
}

export function createTemplateWatch(options: TemplateWatchOptions): TemplateWatch {
  const log = options.logger.child({ part: 'template-watch' });
  const intervalMs = options.intervalMs ?? TEMPLATE_CHECK_INTERVAL_MS;
  const soonMs = options.soonMs ?? SOON_MS;
  const running = new Map<string, Promise<void>>();
  const soon = new Map<string, ReturnType<typeof setTimeout>>();
  const lastHealth = new Map<string, HealthReason>();
  const closing = new AbortController();
  let timer: ReturnType<typeof setInterval> | undefined;
  let offDirectory: (() => void) | undefined;

  async function checkCluster(cluster: Cluster): Promise<void> {
    if (cluster.secretMissing?.()) return;
    try {
      options.rules.observeCatalogue(cluster.id, await judgeCatalogue(cluster, closing.signal));
    } catch (err) {
      if (!closing.signal.aborted) log.info('catalogue templates not read now', { cluster: cluster.id, error: (err as Error).message });
    }
  }

  /** One read per cluster at a time: a second ask while one runs gets that one. */
  function check(cluster: Cluster): Promise<void> {
    const under = running.get(cluster.id);
    if (under) return under;
    const run = checkCluster(cluster).finally(() => running.delete(cluster.id));
    running.set(cluster.id, run);
    return run;
  }

  function checkSoon(clusterId: string): void {
    if (soon.has(clusterId) || closing.signal.aborted) return;
    const t = setTimeout(() => {
      soon.delete(clusterId);
      const cluster = options.directory.list().find((c) => c.id === clusterId);
      if (cluster) void check(cluster);
    }, soonMs);
    t.unref?.();
    soon.set(clusterId, t);
  }

  const checkAll = () => Promise.all(options.directory.list().map(check)).then(() => undefined);

  return {
    start() {
      if (timer) return;
      timer = setInterval(() => void checkAll(), intervalMs);
      timer.unref?.();
      offDirectory = options.directory.subscribe(() => options.directory.list().forEach((c) => checkSoon(c.id)));
      void checkAll();
    },
    async checkNow(clusterId) {
      if (clusterId === undefined) return checkAll();
      await check(options.directory.get(clusterId));
    },
    observeHealth(clusterId, reason) {
      const before = lastHealth.get(clusterId);
      lastHealth.set(clusterId, reason);
      if (reason === 'TemplateNotFound' || (before === 'TemplateNotFound' && reason === 'Reachable')) checkSoon(clusterId);
    },
    stop() {
      closing.abort();
      if (timer) clearInterval(timer);
      timer = undefined;
      offDirectory?.();
      soon.forEach((t) => clearTimeout(t));
      soon.clear();
    },
  };
}
