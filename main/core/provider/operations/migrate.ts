/**
 * Migrate a proxy's VM to another node (issue 16), under the per-name lock.
 *
 * Checked first, from one `/cluster/resources` read and the VM's config and
 * status, before any request that changes anything (`judgeMigration`, pure):
 * the VM is the one meant (ownership.ts notTheOne), the target is another
 * node of the cluster and of the profile, online, has every storage the VM's
 * disks are on (with `images`) and the seed's ISO storage (with `iso`), and,
 * for a running VM, free memory for it. Each refusal is classified with a
 * hint, and nothing is sent.
 *
 * What Proxmox does (proxmox/qemu-server@e6352be6): API2/Qemu.pm migrate_vm
 * refuses the local node as target ("target is local node."), a lock, a
 * running VM without `online`, a storage missing on the target
 * (QemuServer.pm check_storage_availability, pve-storage
 * storage_check_enabled: "storage '…' is not available on node '…'"); then a
 * `qmigrate` task holds `lock: migrate` (QemuMigrate.pm phase1). Its volume
 * scan (QemuMigrate.pm scan_local_volumes) refuses a CD-ROM holding an ISO
 * on a node-local storage ("can't migrate local disk '…': local cdrom
 * image") and, online, an attached local disk without `with-local-disks`
 * ("can't live migrate attached local disks without with-local-disks
 * option"). So the core sends `online: 1` for a running VM and
 * `with-local-disks: 1` whenever a disk is on local storage.
 *
 * The seed. When its ISO storage is shared, it goes with the VM untouched.
 * When it is local, the same seed (same volume name, same bytes: rebuilt
 * from the caller's user-data and instance-id, seed-source.ts) is uploaded
 * to the target first, the CD-ROM is emptied for the move (a live media
 * change), the VM moves, the CD-ROM is pointed at the target's copy, and the
 * source's copy is deleted only then, after the usual "who uses it" check.
 * The guest never boots without its seed, so cloud-init never sees a new
 * instance-id. Without the user-data a local seed cannot be reproduced:
 * refused (permanent, code `seed-unknown`).
 *
 * Resumable at every step from what Proxmox shows: the VM's node, its ide2,
 * and the seed files listed on each node. A rerun with the same target (and
 * `from`, the node lookup reported) skips what is done: a seed already on
 * the target with the rebuilt size, an empty CD-ROM, a VM already on the
 * target, a CD-ROM already holding the seed, a source copy already gone.
 *
 * Long because a migrate is one sequence of steps (`run`: copy the seed,
 * detach it, migrate, attach it, delete the source copy), each step's resume
 * reading what the steps before it left; the pure checks are migrate-rules.ts.
 */
import type { PveApi } from '../../pve/api';
import { judgeMigration, judgePrecondition, MIGRATE_CODES, type MigrationPlan } from '../cluster/migrate-rules';
import type { CallOptions, CoreContext } from '../calls/context';
import { toProviderError } from '../rules/classify';
import { ProviderError } from '../rules/errors';
import { parseProviderId } from '../rules/ids';
import { templateVolumes } from '../cluster/landing';
import { seedHolds } from '../cluster/ownership';
import { progressReporter, type ProgressReporter } from '../calls/progress';
import { findVm } from '../cluster/resources';
import { buildProxySeed, cdromVolume, isSharedStorage, type SeedSource } from '../cluster/seed-source';
import { LOCK_SUSPENDED, waitTask, waitUnlocked } from '../calls/tasks';
import { runTaskStep } from '../calls/task-step';
import { goneError, lockedError, readConfigOrGone, refuseIfNotTheOne } from '../cluster/vm-lookup';

export { judgeMigration, MIGRATE_CODES, type MigrationFacts, type MigrationPlan, type MigrationVerdict } from '../cluster/migrate-rules';

export interface MigrateOptions extends CallOptions {
  /** The UID in the mark the caller saw; without it any marked VM with the ID's name is ours (as delete). */
  expect?: { uid: string };
  /** The seed's user-data and instance-id: needed only when the seed's ISO storage is not shared. */
  seed?: SeedSource;
  /**
   * The node the VM was on when the migrate began (lookup's `done` event names it): on a resume that finds the VM on
   * the target already, the source copy of the seed is deleted there. Without it, a VM found on the target is refused
   * as "already there".
   */
  from?: string;
}

export interface MigrateResult {
  id: string;
  vmid: number;
  from: string;
  to: string;
  /** Live migration (the VM ran). */
  online: boolean;
  /** Local disks were copied to the target. */
  withLocalDisks: boolean;
  /** `shared`: the seed's storage is shared, nothing to do; `moved`: copied, re-attached, source copy deleted; `none`: no seed attached. */
  seed: 'shared' | 'moved' | 'none';
  /** Plain words for the task's summary. */
  message: string;
}

/**
 * Steps (progress.ts migrateSteps): lookup, copy-seed, detach-seed, migrate, attach-seed, delete-source-seed; the
 * seed steps are skipped when the seed's storage is shared. Resumable states, all read back from Proxmox: the seed on
 * the target (copy-seed done), ide2 empty (detach-seed done), the VM on the target (migrate done), ide2 holding the
 * seed on the target (attach-seed done), no seed on the source (done).
 */
export async function migrate(ctx: CoreContext, id: string, target: string, options: MigrateOptions = {}): Promise<MigrateResult> {
  const { signal } = options;
  const report = progressReporter('migrate', options.onProgress);
  try {
    const { vmid, name } = parseProviderId(id);
    const release = await ctx.locks.acquire(name, signal);
    try {
      return await run(ctx, { id, vmid, name, target }, options, report);
    } finally {
      release();
    }
  } catch (e) {
    throw toProviderError('migrate', e, id);
  }
}

interface Subject {
  id: string;
  vmid: number;
  name: string;
  target: string;
}

async function run(ctx: CoreContext, s: Subject, options: MigrateOptions, report: ProgressReporter): Promise<MigrateResult> {
  const { signal } = options;
  const { vmid, name, target } = s;
  const { isoStorage } = ctx.profile;
  const seedVolume = ctx.seed.seedVolumeId(isoStorage, name);

  report('lookup', 'started', { vmid });
  const resources = await ctx.api.clusterResources(undefined, { signal });
  const r = findVm(resources, vmid);
  if (!r?.node) throw goneError(vmid);
  if (r.lock && r.lock !== LOCK_SUSPENDED) throw lockedError(vmid, r.lock);
  const node = r.node;
  const config = await readConfigOrGone(ctx, node, vmid, signal);
  refuseIfNotTheOne(vmid, config, { name, ...(options.expect ? { uid: options.expect.uid } : {}) }, MIGRATE_CODES.notTheOne);
  if (config.lock && config.lock !== LOCK_SUSPENDED) throw lockedError(vmid, config.lock);
  if (config.lock === LOCK_SUSPENDED)
    throw new ProviderError(
      'permanent',
      `VM ${vmid} is hibernated; nothing was sent.`,
      undefined,
      undefined,
      'Start it (to resume it) or stop it, then migrate.',
      'hibernated',
    );
  const source = node === target ? options.from : node;
  const resumed = node === target && options.from !== undefined && options.from !== target;
  const status = await ctx.api.vmStatus(node, vmid, { signal });
  const running = status.status === 'running';
  const attached = cdromVolume(config);
  const seedListed = async (on: string) => listedSize(ctx.api, on, isoStorage, seedVolume, signal);
  // An empty CD-ROM with the seed still listed on a node: an earlier attempt detached it for the move.
  const hasSeed =
    attached === seedVolume ||
    (attached === undefined &&
      ((await seedListed(node)) !== undefined || (source !== undefined && source !== node && (await seedListed(source)) !== undefined)));

  // Issue 25: from here on a failure puts a detached seed back and removes the target's copy (putSeedBack).
  const seedIsLocal = hasSeed && !isSharedStorage(resources, isoStorage);
  try {
    return await afterLookup(ctx, s, options, report, { resources, node, config, source, resumed, running, attached, hasSeed });
  } catch (e) {
    if (signal?.aborted || !seedIsLocal || node === target) throw e;
    const undone = await putSeedBack(ctx, { vmid, name, node, target, seedVolume });
    const pe = toProviderError('migrate', e, s.id);
    // A refusal says "nothing was sent"; once something was put back, it says what instead.
    const said = undone ? pe.message.replace(/; nothing was sent\.$/, '') : pe.message;
    throw new ProviderError(pe.kind, `${said}${undone}`, pe.op, pe.id, pe.hint, pe.code);
  }
}

interface LookedUp {
  resources: Awaited<ReturnType<PveApi['clusterResources']>>;
  node: string;
  config: Awaited<ReturnType<PveApi['vmConfig']>>;
  source: string | undefined;
  resumed: boolean;
  running: boolean;
  attached: string | undefined;
  hasSeed: boolean;
}

/** The rest of a migrate once the VM is found: the checks, then copy-seed, detach-seed, migrate, attach-seed, delete-source-seed. */
async function afterLookup(ctx: CoreContext, s: Subject, options: MigrateOptions, report: ProgressReporter, l: LookedUp): Promise<MigrateResult> {
  const { signal } = options;
  const { vmid, name, target } = s;
  const { resources, node, config, source, resumed, running, attached, hasSeed } = l;
  const { isoStorage } = ctx.profile;
  const seedVolume = ctx.seed.seedVolumeId(isoStorage, name);
  const seedFile = ctx.seed.seedIsoName(name);
  const seedListed = async (on: string) => listedSize(ctx.api, on, isoStorage, seedVolume, signal);
  let plan: MigrationPlan;
  if (resumed) {
    plan = { online: running, withLocalDisks: false, moveSeed: hasSeed && !isSharedStorage(resources, isoStorage) };
  } else {
    const verdict = judgeMigration({
      resources,
      profileNodes: ctx.profile.nodes,
      isoStorage,
      seedVolume,
      vmid,
      node,
      target,
      config,
      running,
      hasSeed,
    });
    if (!verdict.ok) throw verdict.error;
    plan = verdict.plan;
    // Issue 25: Proxmox's own precondition (local devices, storages; VM.Migrate: a token without it is refused here).
    const pre = await ctx.api.migratePrecondition?.(node, vmid, target, { signal });
    const blocked = pre ? judgePrecondition(pre, vmid, target) : undefined;
    if (blocked) throw blocked;
  }
  let seedBytes: Uint8Array | undefined;
  if (plan.moveSeed) {
    if (!options.seed)
      throw new ProviderError(
        'permanent',
        `VM ${vmid}'s seed ${seedVolume} is on ${isoStorage}, which is local to each node, and Egress Desk does not have the user-data to rebuild it on ${target}; nothing was sent.`,
        undefined,
        undefined,
        `Reconfigure its cloud-init first (that writes a seed Egress Desk can rebuild), or make ${isoStorage} a shared storage.`,
        MIGRATE_CODES.seedUnknown,
      );
    seedBytes = buildProxySeed(ctx, name, options.seed, config);
  }
  report('lookup', 'done', { node: source ?? node, vmid });
  const at = { node: target, vmid };

  // copy-seed: the same bytes on the target, checked against the source copy's size first.
  if (seedBytes) {
    report('copy-seed', 'started', at);
    const onSource = source !== undefined && source !== target ? await seedListed(source) : undefined;
    if (onSource !== undefined && onSource !== seedBytes.length)
      throw new ProviderError(
        'permanent',
        `the seed rebuilt for VM ${vmid} (${seedBytes.length} bytes) differs from ${seedVolume} on ${source} (${onSource} bytes): the user-data given is not the one the VM has; nothing was sent.`,
        undefined,
        undefined,
        'Reconfigure its cloud-init with the user-data it should have, then migrate.',
        MIGRATE_CODES.seedDiffers,
      );
    // A Resume after a crash mid-upload: Proxmox may still be copying the first upload into place (its `imgcopy`
    // task outlives the client that sent it). Let it end before judging the target's copy, or we upload it twice.
    await settleRunningUploads(ctx, target, signal);
    if ((await seedListed(target)) === seedBytes.length) report('copy-seed', 'skipped', at);
    else {
      const submit = () => ctx.api.uploadIso(target, isoStorage, seedFile, seedBytes, { signal });
      await runTaskStep(ctx, report, { step: 'copy-seed', at, submit, budgetMs: ctx.budgets.uploadMs, signal, started: false });
    }
  } else report('copy-seed', 'skipped', at);

  // detach-seed: an empty CD-ROM for the move (a media change, live on a running VM).
  if (seedBytes && node !== target && attached === seedVolume) {
    report('detach-seed', 'started', { node, vmid });
    await ctx.api.setVmConfig(node, vmid, { ide2: 'none,media=cdrom' }, { signal });
    report('detach-seed', 'done', { node, vmid });
  } else report('detach-seed', 'skipped', { node, vmid });

  // migrate
  let withLocalDisks = plan.withLocalDisks;
  if (node === target) report('migrate', 'skipped', at);
  else {
    // A local disk is copied: a copy slot of the target's storage, held with the source's, for the migrate task alone.
    const disk = templateVolumes(config).find((v) => !v.cdrom && !isSharedStorage(resources, v.storage));
    const params = {
      target,
      ...(running ? { online: 1 as const } : {}),
      ...(plan.withLocalDisks ? { 'with-local-disks': 1 as const } : {}),
    };
    await runTaskStep(ctx, report, {
      step: 'migrate',
      at,
      submit: () => ctx.api.migrate(node, vmid, params, { signal }),
      budgetMs: ctx.budgets.cloneMs,
      signal,
      done: false,
      ...(disk
        ? {
            slot: {
              take: () => ctx.cloneGate?.({ node: target, storage: disk.storage, from: { node, storage: disk.storage } }, signal),
              what: `a copy slot on ${disk.storage}`,
            },
          }
        : {}),
    });
    await waitUnlocked(ctx, target, vmid, signal);
    report('migrate', 'done', at);
  }
  if (node === target) withLocalDisks = false;

  // attach-seed: the target's copy back in the CD-ROM.
  if (seedBytes) {
    const now = await ctx.api.vmConfig(target, vmid, { signal });
    if (cdromVolume(now) === seedVolume) report('attach-seed', 'skipped', at);
    else {
      report('attach-seed', 'started', at);
      await ctx.api.setVmConfig(target, vmid, { ide2: `${seedVolume},media=cdrom` }, { signal });
      report('attach-seed', 'done', at);
    }
  } else report('attach-seed', 'skipped', at);

  // delete-source-seed: only now, and only when no VM on the source uses it.
  if (seedBytes && source !== undefined && source !== target) {
    report('delete-source-seed', 'started', { node: source });
    // The VM itself now names the target's copy (the volume id is the same string on every node): not a holder here.
    const hold = (await seedHolds(ctx.api, { volid: seedVolume, name, nodes: [source], except: vmid, signal })).get(source);
    if (hold) {
      ctx.log.info('proxmox seed kept on the source: another vm uses it', { node: source, reason: hold.reason });
      report('delete-source-seed', 'skipped', { node: source });
    } else if ((await seedListed(source)) === undefined) report('delete-source-seed', 'skipped', { node: source });
    else {
      const submit = () => ctx.api.deleteVolume(source, isoStorage, seedVolume, { signal });
      await runTaskStep(ctx, report, {
        step: 'delete-source-seed',
        at: { node: source },
        submit,
        budgetMs: ctx.budgets.seedDeleteMs,
        signal,
        started: false,
      });
    }
  } else report('delete-source-seed', 'skipped', { node: source ?? node });

  const seed = !hasSeed ? 'none' : plan.moveSeed ? 'moved' : 'shared';
  const how = running ? 'live' : 'offline';
  const from = source ?? node;
  ctx.log.info('proxmox vm migrated', { vmid, from, to: target, online: running, withLocalDisks, seed });
  return {
    id: s.id,
    vmid,
    from,
    to: target,
    online: running,
    withLocalDisks,
    seed,
    message: `moved ${how} from ${from} to ${target}${seed === 'moved' ? '; its seed followed' : ''}`,
  };
}

/**
 * Issue 25: a migrate that failed after (or on a rerun, before) the seed's detach leaves the VM on its node with an
 * empty CD-ROM and a copy of the seed on the target: the next boot would have no NoCloud seed. Put it back (the
 * source's copy is deleted only after a move, so it is there) and delete the target's copy when no VM there uses it.
 * Not on a cancel (the task may still run; Resume goes on). Without the caller's signal: this is the way back.
 * Answers the words to add to the failure.
 */
async function putSeedBack(
  ctx: CoreContext,
  v: { vmid: number; name: string; node: string; target: string; seedVolume: string },
): Promise<string> {
  const { isoStorage } = ctx.profile;
  try {
    const here = await ctx.api.vmConfig(v.node, v.vmid).catch(() => undefined);
    // The VM moved (or is gone) after all: nothing to put back on its old node.
    if (!here) return '';
    const words: string[] = [];
    if (cdromVolume(here) !== v.seedVolume) {
      await ctx.api.setVmConfig(v.node, v.vmid, { ide2: `${v.seedVolume},media=cdrom` });
      words.push(`its seed is back in its CD-ROM on ${v.node}`);
    }
    if ((await listedSize(ctx.api, v.target, isoStorage, v.seedVolume)) !== undefined) {
      const hold = (await seedHolds(ctx.api, { volid: v.seedVolume, name: v.name, nodes: [v.target], except: v.vmid })).get(v.target);
      if (!hold) {
        await waitTask(ctx, await ctx.api.deleteVolume(v.target, isoStorage, v.seedVolume), ctx.budgets.seedDeleteMs);
        words.push(`the copy on ${v.target} is deleted`);
      }
    }
    ctx.log.info('proxmox migrate failed: seed put back', { vmid: v.vmid, node: v.node, target: v.target });
    return words.length > 0 ? `. The VM stays on ${v.node}: ${words.join(', and ')}.` : '';
  } catch (e) {
    ctx.log.warn('proxmox migrate failed: seed not put back', { vmid: v.vmid, error: e instanceof Error ? e.message : String(e) });
    return `. Its seed could not be put back in its CD-ROM (${e instanceof Error ? e.message : String(e)}): run the migrate again (Resume), or attach ${v.seedVolume} to ide2 in Proxmox.`;
  }
}

/** The size of `volid` on `node`'s `storage` as listed, or undefined when it is not there. */
async function listedSize(api: PveApi, node: string, storage: string, volid: string, signal?: AbortSignal): Promise<number | undefined> {
  const content = await api.storageContent(node, storage, 'iso', { signal });
  return content.find((v) => v.volid === volid)?.size;
}

/**
 * Waits for the ISO uploads still running on `node` (`imgcopy` tasks; pve-storage's upload forks one with no
 * volume id, so any running one may be ours). A failed one is not our concern here: the caller checks the
 * listing after. Without a task listing (test fakes) there is nothing to wait for.
 */
async function settleRunningUploads(ctx: CoreContext, node: string, signal?: AbortSignal): Promise<void> {
  const active = (await ctx.api.nodeTasks?.(node, { source: 'active', typefilter: 'imgcopy' }, { signal })) ?? [];
  for (const task of active.filter((t) => t.endtime === undefined && (t.type ?? 'imgcopy') === 'imgcopy')) {
    try {
      await waitTask(ctx, task.upid, ctx.budgets.uploadMs, signal);
    } catch (e) {
      if (signal?.aborted) throw e;
    }
  }
}
