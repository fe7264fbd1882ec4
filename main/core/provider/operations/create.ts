/**
 * Create (spec entry 10): validate placement, then, under the per-name lock,
 * adopt the VM a previous attempt left or clone a new one, and carry it
 * through seed, config, resize and start until it runs. Resolves to the ID
 * `vms/<vmid>/<name>`.
 *
 * Issue 11: the clone lands where Proxmox lets it (landing.ts). When the
 * template's disks are local to another node, the clone runs there and the
 * stopped VM is migrated to the chosen node before its seed is uploaded and
 * attached (a seed ISO on local storage cannot be migrated). A rerun finds
 * the VM wherever it is and migrates it if it is not on the chosen node yet.
 *
 * Long (over 300 lines) because the create's steps read here top to bottom in
 * the spec's order, each in one place, with the clone's config and the move.
 */
import type { CallOptions, ClusterResource, CoreContext, VmConfig } from '../calls/context';
import { isConfigMissing } from '../../pve/errors';
import { configOption, diskKeyPattern } from '../rules/boot-disk';
import { toProviderError } from '../rules/classify';
import { permanent } from '../rules/errors';
import { formatProviderId } from '../rules/ids';
import { clusterFacts, judgeLanding, type LandingWay } from '../cluster/landing';
import { formatMark } from '../rules/mark';
import { adoptByName, nodeOf, type OwnedVm } from '../cluster/ownership';
import { resolvePlacement, type CreateRequest, type Placement } from '../cluster/placement';
import { lookupListing } from '../cluster/lookup';
import { createSteps, haltingReporter, progressReporter, type ProgressReporter } from '../calls/progress';
import { provision } from './provision';
import { allocateWithSeed, type CloneWithSeed, type SeedBesideClone, uploadSeed } from './seed-beside-clone';
import { waitUnlocked } from '../calls/tasks';
import { runTaskStep } from '../calls/task-step';
import type { Companion } from '../calls/task-watcher';
import { checkTemplate } from '../cluster/template';
import { staticMacOf } from '../rules/net0';
import { effectiveNet, rewritesNet0 } from '../rules/vm-params';
import { writtenMarksOf } from '../cluster/written-marks';
import { bootDiskStorage, checkNewDiskRoom } from '../cluster/disk-room';

export async function create(core: CoreContext, request: CreateRequest, options: CallOptions = {}): Promise<string> {
  const { signal } = options;
  // The caller's gate (the task manager's per-storage clone slots) wins over the provider's own.
  const ctx = options.cloneGate ? { ...core, cloneGate: options.cloneGate } : core;
  const report = progressReporter('create', options.onProgress);
  try {
    const placement = resolvePlacement(ctx.profile, request);
    ctx.log.debug('proxmox create resolved', { name: request.name, node: placement.node, cloudInitBytes: request.cloudInit.length });
    const release = await ctx.locks.acquire(request.name, signal);
    try {
      const vm = await ensureRunning(ctx, placement, request, report, signal);
      ctx.log.info('proxmox vm ensured running', { name: request.name, vmid: vm.vmid, node: vm.node });
      return formatProviderId(vm.vmid, request.name);
    } finally {
      release();
    }
  } catch (e) {
    throw toProviderError('create', e);
  }
}

/**
 * The spec's steps after the lock, in order: the lookup by name (step 2);
 * with nothing found, the template checked, the VMID allocated and the clone
 * made with its seed uploading beside it (steps 3 and 4); an adopted VM that
 * runs ends here (step 3); a stopped one moves to the chosen node, then
 * provision.ts runs steps 5 to 9.
 */
async function ensureRunning(
  ctx: CoreContext,
  placement: Placement,
  request: CreateRequest,
  report: ProgressReporter,
  signal?: AbortSignal,
) {
  // The seed's upload runs beside the clone: a step the listener could not record stops both.
  ({ report, signal } = haltingReporter(report, signal));
  report('lookup', 'started');
  const listed = await lookupListing(ctx, request.name, signal);
  const settled = await adoptSettled(ctx, listed, request, signal);
  const found: Found = settled.vm
    ? { vm: settled.vm, adopted: true, seed: undefined, reseed: false }
    : await cloneFresh(ctx, settled.resources, placement, request, report, signal);
  let { vm } = found;
  if (found.adopted && (await runsAlready(ctx, vm, request, found.reseed, report, signal))) return vm;
  // Still stopped, and without its seed attached: the VM moves to the chosen node now, wherever the clone (or an
  // earlier attempt) left it.
  if (vm.node !== placement.node) vm = await moveTo(ctx, vm, placement.node, report, signal);
  else report('migrate', 'skipped', { node: vm.node, vmid: vm.vmid });
  await provision(ctx, vm, placement, request, report, signal, { seedUploaded: found.seed !== undefined });
  return vm;
}

/** The VM a create carries on with: adopted (an earlier attempt's) or its own clone, and its seed's state. */
interface Found {
  vm: OwnedVm;
  adopted: boolean;
  /** The seed's upload that ran beside this create's clone. */
  seed: SeedBesideClone | undefined;
  /** The seed must go up again even if the VM runs: it was uploaded dated by this attempt, not the VM's mark. */
  reseed: boolean;
}

/** No VM of the name: the template checked, where the clone lands decided, and the clone made with its seed beside it. */
async function cloneFresh(
  ctx: CoreContext,
  resources: ClusterResource[],
  placement: Placement,
  request: CreateRequest,
  report: ProgressReporter,
  signal?: AbortSignal,
): Promise<Found> {
  // The template is checked only when a clone may be needed: an existing VM no longer depends on it.
  const { source, config: templateConfig } = await checkTemplate(ctx, resources, request.placement.image, placement, signal);
  // Where the copy lands: the profile's disk storage, else the template's own (Proxmox keeps each disk's storage).
  const cloneStorage = ctx.profile.storage ?? bootDiskStorage(templateConfig);
  const way = await landingOf(ctx, source, templateConfig, placement, request, signal);
  const cloneNode = way === 'migrate' ? nodeOf(source) : placement.node;
  const grownTo = placement.machineType.diskGiB;
  await checkNewDiskRoom(
    ctx,
    { name: request.name, nodes: [cloneNode, placement.node], storage: cloneStorage, templateVmid: placement.templateVmid },
    templateConfig,
    grownTo,
    signal,
  );
  report('lookup', 'done', { node: placement.node });
  // The mark's created-at dates the seed too (seed-source.ts), so both are known before the clone.
  const description = formatMark(request.uid, ctx.now());
  const job: CloneJob = { source, templateConfig, node: cloneNode, storage: cloneStorage, description, placement, request };
  const clone: CloneWithSeed = (vmid, cloneSignal, beside, task) => cloneOnto(ctx, job, vmid, report, cloneSignal, beside, task);
  const { vm, adopted, seed } = await allocateWithSeed(
    ctx,
    { resources, request, description, node: placement.node },
    clone,
    report,
    signal,
  );
  if (adopted && seed) {
    // The VMID held our own earlier attempt's VM (the lookup missed it): its seed is dated by its mark, not by
    // this attempt's, so it is uploaded again, once this one has settled.
    await seed.done.catch(() => undefined);
    return { vm, adopted, seed: undefined, reseed: true };
  }
  return { vm, adopted, seed, reseed: false };
}

/** An adopted VM: true when it runs already (the remaining steps are skipped, the seed uploaded again if `reseed`). */
async function runsAlready(
  ctx: CoreContext,
  vm: OwnedVm,
  request: CreateRequest,
  reseed: boolean,
  report: ProgressReporter,
  signal?: AbortSignal,
): Promise<boolean> {
  report('lookup', 'done', { node: vm.node, vmid: vm.vmid });
  report('clone', 'skipped', { node: vm.node, vmid: vm.vmid });
  const status = await ctx.api.vmStatus(vm.node, vm.vmid, { signal });
  ctx.log.info('proxmox vm adopted', { vmid: vm.vmid, status: status.status, qmpstatus: status.qmpstatus });
  if (status.status !== 'running') return false;
  const at = { node: vm.node, vmid: vm.vmid };
  for (const step of createSteps.slice(2)) {
    if (step === 'upload-seed' && reseed) await uploadSeed(ctx, at, request, vm.config, report, signal);
    else report(step, 'skipped', at);
  }
  return true;
}

/**
 * The VM with the proxy's name, once no task holds it. A migrate an earlier
 * attempt started may end while the ownership check waits on its lock: the
 * config then lives on the other node, so the listing is read again.
 */
async function adoptSettled(
  ctx: CoreContext,
  resources: ClusterResource[],
  request: CreateRequest,
  signal?: AbortSignal,
): Promise<{ vm: OwnedVm | undefined; resources: ClusterResource[] }> {
  try {
    return { vm: await adoptByName(ctx, resources, request, signal), resources };
  } catch (e) {
    if (!isConfigMissing(e)) throw e;
    const again = await ctx.api.clusterResources('vm', { signal });
    ctx.log.info('proxmox vm moved or vanished while adopting it, looking again', { name: request.name });
    return { vm: await adoptByName(ctx, again, request, signal), resources: again };
  }
}

/**
 * How a clone of the template reaches the chosen node (landing.ts): on its
 * own node, with `target`, or on the template's node and then a migrate.
 * Refused, before any write, when none works, naming the ways out.
 */
async function landingOf(
  ctx: CoreContext,
  source: ClusterResource,
  templateConfig: VmConfig,
  placement: Placement,
  request: CreateRequest,
  signal?: AbortSignal,
): Promise<LandingWay> {
  const sourceNode = nodeOf(source);
  if (sourceNode === placement.node) return 'here';
  // The template's config was just read by the template check: its disks' storages decide the landing.
  const listing = await ctx.api.clusterResources(undefined, { signal });
  const facts = {
    ...clusterFacts(listing),
    templates: new Map([[placement.templateVmid, { vmid: placement.templateVmid, node: sourceNode, config: templateConfig }]]),
  };
  const landing = judgeLanding(ctx.profile, placement.node, placement.templateVmid, facts);
  if (!landing.ok || !landing.way) {
    throw permanent(
      `a proxy from "${request.placement.image}" cannot be created on ${placement.node}: ${landing.reason ?? 'no way to get a clone there'}`,
      landing.hint,
    );
  }
  if (landing.way === 'migrate')
    ctx.log.info('proxmox create clones on the template node, then migrates', { node: placement.node, cloneNode: sourceNode });
  return landing.way;
}

/** What a create's clone makes: `node` is where it lands, `storage` where its disks go (undefined: the template's). */
interface CloneJob {
  source: ClusterResource;
  templateConfig: VmConfig;
  node: string;
  storage: string | undefined;
  description: string;
  placement: Placement;
  request: CreateRequest;
}

/**
 * Step 4: a full clone carrying the mark, so the VM is never unmarked (spec
 * entry 8), landing on `node`: the chosen one, or the template's when a
 * migrate follows. Events name the node the proxy is for, as every step's
 * do; the UPID names where the task runs.
 */
async function cloneOnto(
  ctx: CoreContext,
  job: CloneJob,
  vmid: number,
  report: ProgressReporter,
  signal: AbortSignal | undefined,
  beside: () => void = () => undefined,
  task?: Companion,
): Promise<OwnedVm> {
  const { templateConfig, node, storage, description, placement, request } = job;
  const sourceNode = nodeOf(job.source);
  const at = { node: placement.node, vmid };
  const marks = writtenMarksOf(ctx.api);
  const submit = () => {
    marks.expect(vmid, request.name);
    const posted = ctx.api.clone(
      sourceNode,
      placement.templateVmid,
      {
        newid: vmid,
        name: request.name,
        description,
        full: 1,
        ...(ctx.profile.storage ? { storage: ctx.profile.storage } : {}),
        ...(node !== sourceNode ? { target: node } : {}),
      },
      { signal },
    );
    // What runs beside the clone starts once its POST is queued, so the clone, which the disk waits on, goes first.
    beside();
    return posted;
  };
  try {
    await runTaskStep(ctx, report, {
      step: 'clone',
      at,
      submit,
      budgetMs: ctx.budgets.cloneMs,
      signal,
      done: false,
      companion: task,
      // A full clone copies the template's disk onto `storage`: it takes one of that storage's copy slots for the
      // clone task alone (not the whole create), so the upload and start of other creates go on meanwhile. A create
      // cut off while it waited (cancelled, or its seed's upload beside it failed) sends no clone.
      slot: { take: () => ctx.cloneGate?.({ node, storage }, signal), what: `a clone slot on ${storage ?? node}`, whileWaiting: beside },
    });
    marks.record(vmid, request.name, description);
  } finally {
    marks.forget(vmid, request.name);
  }
  // The clone task ended OK, so its lock is gone and its config final (qemu-server API2/Qemu.pm clone_vm deletes
  // `lock` and writes the config inside the task). What the later steps read of it is the template's, except the
  // MAC clone_vm always renews: read it back only when step 6 rewrites net0 and must keep that MAC.
  const config = rewritesNet0(effectiveNet(ctx.profile, request.network, staticMacOf(request.uid, request.network)))
    ? await waitUnlocked(ctx, node, vmid, signal)
    : configOfOwnClone(templateConfig, { name: request.name, description, storage });
  report('clone', 'done', at);
  return { node, vmid, config };
}

/**
 * The config a full clone of `template` got, for the steps after it: the template's keys (clone_vm copies them all
 * but snapshot state and unused volumes), the name and description given, no `template` flag, and every disk on the
 * target storage. The new disks' volume names are not known and not needed (the resize names the slot, the migrate
 * the storage); net0's MAC is the template's, so this is never used to write net0 (see rewritesNet0).
 */
export function configOfOwnClone(template: VmConfig, given: { name: string; description: string; storage: string | undefined }): VmConfig {
  const config: VmConfig = { ...template, name: given.name, description: given.description };
  delete config.template;
  if (given.storage) {
    for (const [key, value] of Object.entries(config)) {
      if (!diskKeyPattern.test(key) || configOption(value, 'media') === 'cdrom') continue;
      const colon = value.indexOf(':');
      if (colon > 0) config[key] = `${given.storage}${value.slice(colon)}`;
    }
  }
  return config;
}

/**
 * The migrate step: the stopped VM, with its local disks, moves to `node`
 * (an offline migration, a `qmigrate` task on its current node holding
 * `lock: migrate`). Budgeted like a clone: it copies the same disks.
 */
async function moveTo(ctx: CoreContext, vm: OwnedVm, node: string, report: ProgressReporter, signal?: AbortSignal): Promise<OwnedVm> {
  const { vmid } = vm;
  // The move reads the disk on the VM's node and writes it to the same storage on `node`: a copy slot of the
  // target's storage, held with the source's (the gate takes both, in one order), for the migrate task alone.
  const storage = bootDiskStorage(vm.config);
  const take = () => ctx.cloneGate?.({ node, storage, from: storage ? { node: vm.node, storage } : undefined }, signal);
  await runTaskStep(ctx, report, {
    step: 'migrate',
    at: { node, vmid },
    submit: () => ctx.api.migrate(vm.node, vmid, { target: node, 'with-local-disks': 1 }, { signal }),
    budgetMs: ctx.budgets.cloneMs,
    signal,
    done: false,
    slot: { take, what: `a copy slot on ${storage ?? node}` },
  });
  const config = await waitUnlocked(ctx, node, vmid, signal);
  report('migrate', 'done', { node, vmid });
  ctx.log.info('proxmox vm migrated', { vmid, from: vm.node, to: node });
  return { node, vmid, config };
}
