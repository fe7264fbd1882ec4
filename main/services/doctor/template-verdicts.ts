/**
 * Template suitability for the report: the core's templateProblems (the
 * rules create applies before a clone) plus a fix for each, and notes
 * that do not stop a create but matter.
 */
import { cloudInitDriveSlot, configOption, type TemplateNeeds, type TemplateProblem, templateProblems, type VmConfig } from '../../core';
import type { TemplateVerdict } from '../../../shared/channels/doctor';

function fixFor(problem: TemplateProblem, vmid: number, config: VmConfig, needs: TemplateNeeds): string {
  switch (problem.code) {
    case 'cloud-init-drive':
      return `Remove the Proxmox cloud-init drive: \`qm set ${vmid} --delete ${cloudInitDriveSlot(config) ?? 'ide2'}\`. Egress Desk attaches its own seed; the two would compete.`;
    case 'no-net0':
      return `Give the template a network device: \`qm set ${vmid} --net0 virtio,bridge=${needs.bridge ?? 'vmbr0'}\`.`;
    case 'no-boot-disk':
      return 'Rebuild the template with the recipe (the cloud image imported on scsi0, `--boot order=scsi0`) so the clone has a boot disk with a size to grow.';
    case 'not-template':
      return `Make it a template: \`qm template ${vmid}\`.`;
  }
}

/** The agent option is `[enabled=]1|0[,…]`. */
function agentOn(config: VmConfig): boolean {
  const first = (config.agent ?? '').split(',')[0] ?? '';
  return first === '1' || configOption(config.agent, 'enabled') === '1';
}

export function templateVerdict(vmid: number, node: string, config: VmConfig, needs: TemplateNeeds): TemplateVerdict {
  const problems = templateProblems(vmid, config, needs).map((p) => ({ ...p, fix: fixFor(p, vmid, config, needs) }));
  const notes: string[] = [];
  if (!agentOn(config)) {
    notes.push(
      'The guest agent is off in the template. Egress Desk turns it on in each clone, but the template must ship qemu-guest-agent or install it at first boot, or the proxy address is never learned.',
    );
  }
  return { vmid, name: config.name ?? `VM ${vmid}`, node, suitable: problems.length === 0, problems, notes };
}

/** A catalogue key for a template: its name made safe, else `vm<vmid>`. */
function catalogueKey(t: TemplateVerdict): string {
  const key = t.name
    .toLowerCase()
    .replace(/[^a-z0-9-]+/g, '-')
    .replace(/^-+|-+$/g, '');
  return key.length > 0 ? key : `vm${t.vmid}`;
}

/** The suggested catalogue: every suitable template under its name; two with one name (copies on two nodes) both keep a key. */
export function suggestedCatalogue(verdicts: readonly TemplateVerdict[]): Record<string, { vmid: number }> {
  const catalogue: Record<string, { vmid: number }> = {};
  for (const t of verdicts.filter((v) => v.suitable)) {
    const key = catalogueKey(t);
    catalogue[Object.hasOwn(catalogue, key) ? `${key}-${t.vmid}` : key] = { vmid: t.vmid };
  }
  return catalogue;
}
