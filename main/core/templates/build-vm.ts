/**
 * The build's VM: created with its disk imported from the image (POST
 * /nodes/{node}/qemu, scsi0 import-from), unless an earlier attempt's is
 * found by the build id in its description (its create waited on if it still
 * runs), then converted to a template.
 */
import type { VmConfig } from '../pve/schemas';
import { permanent } from '../provider/rules/errors';
import { pollUntil } from '../provider/calls/poll';
import { runTaskStep } from '../provider/calls/task-step';
import { findOwnVm, settle, type BuildResume, type Run } from './build-run';
import type { BuildPreflight } from './preflight';
import { createParams } from './recipe';

export async function ensureVm(
  run: Run,
  pf: BuildPreflight,
  resume: BuildResume,
  own: { node: string; config: VmConfig } | undefined,
): Promise<VmConfig> {
  const vmid = run.vmid!;
  if (own) {
    run.node = own.node;
    let config = own.config;
    if (config.lock) {
      // An earlier create is still running: wait for it to end (its VM then has its disk, or is gone).
      run.report('create-vm', 'started', { node: run.node, vmid, fresh: false });
      await settle(run, resume.createUpid, run.budgets.createMs);
      const after = await pollUntil(
        { schedule: run.budgets, budgetMs: run.budgets.createMs, what: `the earlier create of VM ${vmid}`, signal: run.signal },
        async () => {
          const again = await findOwnVm(run, pf.name, true);
          return again === undefined ? null : again.config.lock ? undefined : again;
        },
      );
      if (after === null) return createVm(run, pf);
      config = after.config;
    }
    if (config.scsi0 && !config.scsi0.includes('import-from')) {
      run.report('create-vm', 'skipped', { node: run.node, vmid, note: 'created by an earlier attempt' });
      return config;
    }
    throw permanent(`VM ${vmid} of this build has no imported disk on scsi0`, `Destroy it (\`qm destroy ${vmid}\`) and build again.`);
  }
  return createVm(run, pf);
}

async function createVm(run: Run, pf: BuildPreflight): Promise<VmConfig> {
  const { ctx, request } = run;
  const vmid = run.vmid!;
  const params = createParams({
    vmid,
    name: pf.name,
    buildId: request.buildId,
    imageLabel: pf.image.label,
    imageUrl: pf.image.url,
    importFrom: run.volid!,
    targetStorage: request.targetStorage,
    bridge: request.bridge,
    ...(request.vlanTag !== undefined ? { vlanTag: request.vlanTag } : {}),
    cores: request.cores ?? 2,
    memoryMiB: request.memoryMiB ?? 2048,
    builtAt: (ctx.now ?? (() => new Date()))(),
  });
  const submit = async () => {
    const upid = await ctx.api.createVm(run.node, params, { signal: run.signal });
    run.vmIsOurs = true;
    return upid;
  };
  const at = { node: run.node, vmid };
  await runTaskStep(run.tasks, run.report, {
    step: 'create-vm',
    at,
    submit,
    budgetMs: run.budgets.createMs,
    signal: run.signal,
    started: { fresh: true },
    done: false,
  });
  const config = await ctx.api.vmConfig(run.node, vmid, { signal: run.signal });
  run.report('create-vm', 'done', at);
  return config;
}

/** The convert step: a journaled convert of an earlier attempt waited on first; skipped once the VM is a template. */
export async function convert(run: Run, resume: BuildResume, config: VmConfig): Promise<void> {
  const at = { node: run.node, vmid: run.vmid };
  if (String(config.template) === '1') return run.report('convert', 'skipped', at);
  run.report('convert', 'started', at);
  await settle(run, resume.templateUpid, run.budgets.templateMs);
  const now = await run.ctx.api.vmConfig(run.node, run.vmid!, { signal: run.signal });
  if (String(now.template) !== '1') {
    const submit = () => run.ctx.api.convertToTemplate(run.node, run.vmid!, { signal: run.signal });
    await runTaskStep(run.tasks, run.report, {
      step: 'convert',
      at,
      submit,
      budgetMs: run.budgets.templateMs,
      signal: run.signal,
      started: false,
      done: false,
    });
  }
  run.report('convert', 'done', at);
}
