/**
 * Issue 14: the Cleanup scan lists what crashed template builds left (VMs
 * carrying the builder's build id that are not templates; images in import
 * content named like a catalogue image and used by no VM), and the delete
 * goes through the build's own clean-up, which destroys a VM only when its
 * description still carries that build id at that VMID right before the destroy.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { IMAGE_CATALOGUE } from '../../../../shared/domain/image-catalogue';
import { templateDescription } from '../../../../main/core/templates/recipe';
import { createCleanupService } from '../../../../main/services/cleanup/service';
import { simImages } from '../../../../main/simulator';
import { startEnv, type Env } from '../tasks/harness';

let env: Env | undefined;
afterEach(async () => {
  await env?.close();
  env = undefined;
});

const NODE = 'pv1-1';
const debian = IMAGE_CATALOGUE.find((i) => i.id === 'debian-13-amd64')!;
const startedAt = new Date(Date.now() - 3 * 3600_000);
const description = (buildId: string, at = startedAt) =>
  templateDescription({ buildId, imageLabel: debian.label, imageUrl: debian.url, builtAt: at });

async function setup() {
  env = await startEnv();
  const e = env;
  const cleanup = createCleanupService({ directory: e.t.directory, tasks: e.manager });
  e.t.sim.state.node(NODE)!.storages.get('local')!.content = 'iso,vztmpl,backup,import';
  // A build that crashed three hours ago: its VM, not converted.
  e.t.sim.state.addVm(NODE, {
    vmid: 9100,
    config: { name: 'debian-13-amd64-template', description: description('b-crashed'), scsi0: 'local-lvm:vm-9100-disk-1,size=3G' },
  });
  // One that finished: a template, not a leftover.
  e.t.sim.state.addVm(NODE, {
    vmid: 9101,
    template: true,
    config: { name: 'done-template', description: description('b-done'), scsi0: 'local-lvm:base-9101-disk-1,size=3G' },
  });
  // One a minute old: too young to judge (grace period).
  e.t.sim.state.addVm(NODE, { vmid: 9102, config: { name: 'fresh', description: description('b-fresh', new Date(Date.now() - 60_000)) } });
  // Someone else's VM: no build id.
  e.t.sim.state.addVm(NODE, { vmid: 4242, config: { name: 'someone-elses-vm' } });
  const image = {
    bytes: 1000,
    virtualBytes: 3 * 1024 ** 3,
    format: 'qcow2' as const,
    checksums: {},
    ctime: Math.floor(startedAt.getTime() / 1000),
  };
  simImages(e.t.sim).put(NODE, 'local', { ...image, filename: debian.fileName, url: debian.url });
  simImages(e.t.sim).put(NODE, 'local', { ...image, filename: 'my-own-disk.qcow2', url: 'https://x.test/my-own-disk.qcow2' });
  return { e, cleanup };
}

describe('what crashed template builds left, in the Cleanup scan', () => {
  it('lists the half-built template VM with its build and start time, and the leftover catalogue image', async () => {
    const { cleanup } = await setup();
    const report = await cleanup.scan('sim');
    expect(report.templateBuilds?.map((r) => r.vmid)).toEqual([9100]);
    const row = report.templateBuilds![0]!;
    expect(row).toMatchObject({ node: NODE, buildId: 'b-crashed', name: 'debian-13-amd64-template', imageUrl: debian.url });
    expect(row.reason).toMatch(
      new RegExp(`^A template build that did not finish \\(build b-crashed, started ${startedAt.toISOString().slice(0, 16)}.*3 h ago\\)`),
    );
    expect(report.importImages?.map((i) => i.volid)).toEqual([`local:import/${debian.fileName}`]);
    expect(report.importImages![0]!.reason).toMatch(/Named like the catalogue image Debian 13 .*no VM uses it/);
    // The proxy part of the report is unchanged.
    expect(report.orphans).toEqual([]);
  });

  it('an image a VM still names (a create importing it) is not listed', async () => {
    const { e, cleanup } = await setup();
    e.t.sim.state.addVm(NODE, {
      vmid: 9200,
      config: { name: 'importing', scsi0: `local-lvm:0,import-from=local:import/${debian.fileName}` },
    });
    const report = await cleanup.scan('sim');
    expect(report.importImages).toEqual([]);
  });

  it('deletes the half-built VM through the checked clean-up; a VMID now holding another build is left alone', async () => {
    const { e, cleanup } = await setup();
    const { taskIds } = cleanup.deleteTemplateBuilds('sim', [{ node: NODE, vmid: 9100, buildId: 'b-crashed' }]);
    const done = await e.manager.wait(taskIds[0]!);
    expect(done.kind).toBe('clean-up-build');
    expect(done.state).toBe('succeeded');
    expect(e.t.sim.state.vm(9100)).toBeUndefined();

    // Between the scan and the delete, VMID 9102 is another build's: the identity check refuses it.
    const wrong = cleanup.deleteTemplateBuilds('sim', [{ node: NODE, vmid: 9102, buildId: 'b-not-this-one' }]);
    const refused = await e.manager.wait(wrong.taskIds[0]!);
    expect(refused.message).toMatch(/does not carry this build's id: left alone/);
    expect(e.t.sim.state.vm(9102)).toBeDefined();
    // Someone else's VM is never a candidate.
    const foreign = cleanup.deleteTemplateBuilds('sim', [{ node: NODE, vmid: 4242, buildId: 'b-crashed' }]);
    await e.manager.wait(foreign.taskIds[0]!);
    expect(e.t.sim.state.vm(4242)).toBeDefined();
    // A finished template is never destroyed, even with its own build id.
    const template = cleanup.deleteTemplateBuilds('sim', [{ node: NODE, vmid: 9101, buildId: 'b-done' }]);
    const kept = await e.manager.wait(template.taskIds[0]!);
    expect(kept.message).toMatch(/already a template: kept/);
    expect(e.t.sim.state.vm(9101)).toBeDefined();
  });
});
