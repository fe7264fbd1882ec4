import { describe, expect, it } from 'vitest';
import { templateProblems } from '../../../main/core/provider/cluster/template';
import { cloudInitTemplate, goodTemplate, noNetTemplate } from '../../../main/simulator';

const asConfig = (def: { config: Record<string, unknown> }): Record<string, string> => ({
  ...Object.fromEntries(Object.entries(def.config).map(([k, v]) => [k, String(v)])),
  template: '1',
});
const codes = (def: { vmid: number; config: Record<string, unknown> }, needs = { bridge: 'vmbr0', diskGiB: 8 }) =>
  templateProblems(def.vmid, asConfig(def), needs).map((p) => p.code);

describe('templateProblems: every reason create would refuse a template, all at once', () => {
  it('the recipe template has none', () => {
    expect(codes(goodTemplate())).toEqual([]);
  });

  it('a Proxmox cloud-init drive is named with its slot', () => {
    const problems = templateProblems(9000, asConfig(cloudInitTemplate()), {});
    expect(problems).toEqual([{ code: 'cloud-init-drive', message: expect.stringContaining('ide2') }]);
  });

  it('no net0 matters only when a bridge or VLAN tag will be written', () => {
    expect(codes(noNetTemplate())).toEqual(['no-net0']);
    expect(codes(noNetTemplate(), { bridge: '', diskGiB: 8 })).toEqual([]);
  });

  it('no boot disk matters only when the disk will be grown; a plain VM is not a template', () => {
    const { scsi0: _disk, ...diskless } = asConfig(goodTemplate());
    expect(templateProblems(9001, diskless, { diskGiB: 8 }).map((p) => p.code)).toEqual(['no-boot-disk']);
    expect(templateProblems(9001, diskless, {})).toEqual([]);
    expect(templateProblems(9001, { ...asConfig(goodTemplate()), template: '0' }, {}).map((p) => p.code)).toEqual(['not-template']);
  });
});
