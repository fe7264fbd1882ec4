/**
 * Issue 14: the doctor on a saved profile judges every template its
 * catalogue names, per node (an entry's `perNode` VMIDs as well as its
 * default), and a cluster with no suitable template yet is a warning that
 * points at the template builder, not a failure.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { createLogger } from '../../../../main/log/logger';
import { runDoctor } from '../../../../main/services/doctor';
import type { DoctorConnection } from '../../../../main/services/doctor/ports';
import { minimalCluster, startSimulator, type Simulator } from '../../../../main/simulator';

const logger = createLogger({ sinks: [] });
let sim: Simulator | undefined;
afterEach(async () => {
  await sim?.close();
  sim = undefined;
});

async function doctorOn(more: Partial<DoctorConnection>, dataset = minimalCluster()) {
  sim = await startSimulator({ timeScale: 0.001, dataset });
  const s = sim;
  const { tokenId, secret } = s.tokens.operator!;
  return runDoctor(
    { profileId: 'p' },
    {
      logger,
      resolveProfile: () => ({
        url: s.url,
        tls: { mode: 'pin', fingerprint: s.fingerprint },
        token: { kind: 'secret', tokenId, secret: () => secret },
        nodes: ['pv1-1'],
        ...more,
      }),
    },
  );
}

describe('the doctor judges each template of the catalogue, per node', () => {
  it('a per-node VMID is judged for its node, the default for the others; a missing or unconverted one is named', async () => {
    const report = await doctorOn({
      templates: {
        debian: { vmid: 9001, perNode: { 'pv1-2': 9002 } },
        ubuntu: { vmid: 9000 },
        gone: { vmid: 4242 },
        plain: { vmid: 100 },
      },
    });
    const rows = report.discovery.data.catalogue!;
    const row = (key: string, node: string) => rows.find((r) => r.key === key && r.node === node)!;
    expect(rows.map((r) => `${r.key}/${r.node}:${r.vmid}${r.perNode ? '*' : ''}`)).toEqual([
      'debian/pv1-1:9001',
      'debian/pv1-2:9002*',
      'gone/pv1-1:4242',
      'plain/pv1-1:100',
      'ubuntu/pv1-1:9000',
    ]);
    expect(row('debian', 'pv1-1').verdict).toMatchObject({ vmid: 9001, suitable: true });
    expect(row('debian', 'pv1-2').verdict).toMatchObject({ vmid: 9002, suitable: false, problems: [{ code: 'no-net0' }] });
    expect(row('ubuntu', 'pv1-1').verdict?.problems.map((p) => p.code)).toEqual(['cloud-init-drive']);
    expect(row('gone', 'pv1-1').verdict).toBeUndefined();
    // VM 100 is not a template: judged anyway, so its verdict says how to make it one.
    expect(row('plain', 'pv1-1').verdict?.problems.map((p) => p.code)).toContain('not-template');
    expect(row('plain', 'pv1-1').verdict?.problems.find((p) => p.code === 'not-template')?.fix).toContain('qm template 100');
    // Discovered templates stay the cluster's templates only.
    expect(report.discovery.data.templates.map((t) => t.vmid)).toEqual([9000, 9001, 9002]);

    expect(report.discovery).toMatchObject({ status: 'warn', blocking: false });
    expect(report.discovery.message).toContain('template "debian" for pv1-2 (VMID 9002, its own) is not suitable');
    expect(report.discovery.message).toContain('template "gone" for pv1-1 (VMID 4242) was not found');
    expect(report.discovery.message).not.toContain('template "debian" for pv1-1');
  });

  it('a URL-and-token run (no profile) has no catalogue rows', async () => {
    sim = await startSimulator({ timeScale: 0.001 });
    const { tokenId, secret } = sim.tokens.operator!;
    const report = await runDoctor({ url: sim.url, tokenId, secret, tls: { mode: 'pin', fingerprint: sim.fingerprint } }, { logger });
    expect(report.discovery.data.catalogue).toBeUndefined();
    expect(report.discovery.status).toBe('ok');
  });
});

describe('no suitable template yet', () => {
  it('is a warning that says the builder can make one, not a failure', async () => {
    const def = minimalCluster();
    def.nodes[0]!.vms = def.nodes[0]!.vms.filter((v) => !v.template);
    const report = await doctorOn({}, def);
    expect(report.discovery).toMatchObject({ status: 'warn', blocking: false });
    expect(report.discovery.message).toMatch(/^No suitable template was found \(the cluster has no template yet/);
    expect(report.discovery.message).toContain('The template builder can make one: Build a template.');
    expect(report.discovery.message).not.toMatch(/failed|Missing:/);
    expect(report.discovery.hint).toContain('Build a template');
    expect(report.privileges.status).toBe('ok');
  });

  it('with only unsuitable templates: the same warning, counting them', async () => {
    const def = minimalCluster();
    def.nodes[0]!.vms = def.nodes[0]!.vms.filter((v) => v.vmid !== 9001);
    const report = await doctorOn({}, def);
    expect(report.discovery.status).toBe('warn');
    expect(report.discovery.message).toMatch(/^No suitable template was found: none of the 2 template\(s\) is suitable/);
  });

  it('with another failure it still fails, and says the template part the same way', async () => {
    const def = minimalCluster();
    def.nodes[0]!.vms = def.nodes[0]!.vms.filter((v) => !v.template);
    const report = await doctorOn({ isoStorage: 'no-such-store' }, def);
    expect(report.discovery).toMatchObject({ status: 'fail', blocking: true });
    expect(report.discovery.message).toMatch(/^No suitable template was found/);
    expect(report.discovery.message).toContain('Missing: storage no-such-store');
  });
});
