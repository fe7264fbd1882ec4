/**
 * The template checks before any clone (spec entry 4). The clone copies the
 * template's config, so what the config or resize step would refuse on the
 * clone is refused here, while no VM exists that fixing the template could
 * no longer help.
 */
import type { ClusterResource, CoreContext, VmConfig } from '../calls/context';
import { diskKeyPattern } from '../rules/boot-disk';
import { permanent } from '../rules/errors';
import type { Placement } from './placement';
import { nodeOf } from './ownership';
import { findVm } from './resources';
import { forgetTemplateConfig, recentTemplateConfig } from './template-reads';
import { configParams, resizePlan } from '../rules/vm-params';

/** A well-formed seed volume for the dry runs of configParams below: only the template's config is being judged. */
const PROBE_SEED_VOLUME = 'probe:iso/probe-seed.iso';

export async function checkTemplate(
  ctx: CoreContext,
  resources: readonly ClusterResource[],
  image: string,
  placement: Placement,
  signal?: AbortSignal,
): Promise<{ source: ClusterResource; config: VmConfig }> {
  const vmid = placement.templateVmid;
  const source = findVm(resources, vmid);
  if (!source) throw permanent(`placement.image "${image}": template VM ${vmid} does not exist`);
  const node = nodeOf(source);
  const config = await recentTemplateConfig(ctx.api, node, vmid, { now: () => ctx.now().getTime(), signal });
  try {
    judgeTemplate(ctx, image, vmid, config, placement);
  } catch (e) {
    // A refused template is read afresh next time: the operator may fix it and run the create again.
    forgetTemplateConfig(ctx.api, node, vmid);
    throw e;
  }
  return { source, config };
}

function judgeTemplate(ctx: CoreContext, image: string, vmid: number, config: VmConfig, placement: Placement): void {
  if (String(config.template) !== '1') throw permanent(`placement.image "${image}": VM ${vmid} is not a template`);
  const cloudInit = cloudInitDriveSlot(config);
  if (cloudInit) {
    throw permanent(
      `placement.image "${image}": template ${vmid} has a Proxmox cloud-init drive on ${cloudInit}`,
      'Remove the cloud-init drive from the template: Egress Desk attaches its own seed.',
    );
  }
  configParams(ctx.profile, vmid, config, placement.machineType, PROBE_SEED_VOLUME);
  resizePlan(vmid, config, placement.machineType.diskGiB);
}


/** The first disk slot holding a Proxmox cloud-init drive (a value containing `cloudinit`), which would compete with the seed. */
export function cloudInitDriveSlot(config: VmConfig): string | undefined {
  return Object.keys(config)
    .sort()
    .find((key) => diskKeyPattern.test(key) && (config[key] ?? '').includes('cloudinit'));
}

export type TemplateProblemCode = 'not-template' | 'cloud-init-drive' | 'no-net0' | 'no-boot-disk';

export interface TemplateProblem {
  code: TemplateProblemCode;
  message: string;
}

/** What a clone will need: a bridge or VLAN rewrite of net0, and a disk to grow. */
export interface TemplateNeeds {
  bridge?: string;
  vlanTag?: number;
  diskGiB?: number;
}

/**
 * Every reason checkTemplate would refuse this config, not only the first,
 * for a report that lists them all (the connect doctor). Runs the same
 * rules as create: configParams and resizePlan.
 */
export function templateProblems(vmid: number, config: VmConfig, needs: TemplateNeeds): TemplateProblem[] {
  const problems: TemplateProblem[] = [];
  if (String(config.template) !== '1') problems.push({ code: 'not-template', message: `VM ${vmid} is not a template` });
  const cloudInit = cloudInitDriveSlot(config);
  if (cloudInit) problems.push({ code: 'cloud-init-drive', message: `template ${vmid} has a Proxmox cloud-init drive on ${cloudInit}` });
  const probeMachine = { cores: 1, memoryMiB: 1, diskGiB: needs.diskGiB };
  try {
    configParams({ bridge: needs.bridge, vlanTag: needs.vlanTag }, vmid, config, probeMachine, PROBE_SEED_VOLUME);
  } catch (e) {
    problems.push({ code: 'no-net0', message: e instanceof Error ? e.message : String(e) });
  }
  try {
    resizePlan(vmid, config, needs.diskGiB);
  } catch (e) {
    problems.push({ code: 'no-boot-disk', message: e instanceof Error ? e.message : String(e) });
  }
  return problems;
}
