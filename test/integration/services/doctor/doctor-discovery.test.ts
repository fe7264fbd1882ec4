import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createLogger } from '../../../../main/log/logger';
import { runDoctor } from '../../../../main/services/doctor';
import { SEED_STORAGE, startSimulator, type Simulator } from '../../../../main/simulator';
import type { DoctorReport } from '../../../../shared/channels/doctor';

const logger = createLogger({ sinks: [] });
let sim: Simulator;
let report: DoctorReport;
beforeAll(async () => {
  sim = await startSimulator({ timeScale: 0.001 });
  const { tokenId, secret } = sim.tokens.operator!;
  report = await runDoctor({ url: sim.url, tokenId, secret, tls: { mode: 'pin', fingerprint: sim.fingerprint } }, { logger });
});
afterAll(() => sim.close());

const template = (vmid: number) => report.discovery.data.templates.find((t) => t.vmid === vmid)!;

describe('connect doctor: discovery on the minimal simulated cluster (pv1-1 as Phase 0 found it)', () => {
  it('lists the node and its status', () => {
    expect(report.discovery.data.nodes).toEqual([{ node: 'pv1-1', status: 'online' }]);
    expect(report.suggestedProfile.nodes).toEqual(['pv1-1']);
  });

  it('the template with a Proxmox cloud-init drive is unsuitable, with the slot and the command that removes it', () => {
    expect(template(9000)).toMatchObject({ suitable: false, problems: [{ code: 'cloud-init-drive' }] });
    expect(template(9000).problems[0]!.message).toContain('ide2');
    expect(template(9000).problems[0]!.fix).toContain('qm set 9000 --delete ide2');
  });

  it('the template without net0 is unsuitable (a bridge will be set), and its agent being off is noted', () => {
    expect(template(9002)).toMatchObject({ suitable: false, problems: [{ code: 'no-net0' }] });
    expect(template(9002).problems[0]!.fix).toContain('qm set 9002 --net0 virtio,bridge=vmbr0');
    expect(template(9002).notes.join(' ')).toContain('guest agent is off');
  });

  it('the recipe template is suitable and is the only one in the suggested catalogue; VM 100 is not a template', () => {
    expect(template(9001)).toMatchObject({ suitable: true, problems: [], notes: [], name: 'debian-13-template' });
    expect(report.suggestedProfile.templates).toEqual({ 'debian-13-template': { vmid: 9001 } });
    expect(report.discovery.data.templates.map((t) => t.vmid)).toEqual([9000, 9001, 9002]);
  });

  it('picks the dedicated ISO storage for seeds and says why; the shared-purpose one is listed but not chosen', () => {
    const iso = report.discovery.data.isoStorages.map((s) => [s.storage, s.dedicated]);
    expect(iso).toEqual(
      expect.arrayContaining([
        [SEED_STORAGE, true],
        ['local', false],
      ]),
    );
    expect(report.discovery.data.seedStorage).toMatchObject({ storage: SEED_STORAGE, dedicated: true });
    expect(report.suggestedProfile.isoStorage).toBe(SEED_STORAGE);
    expect(report.suggestedProfile.isoStorageReason).toMatch(/Datastore.Allocate.*cannot touch backups/);
  });

  it('lists the bridges with their VLAN awareness and suggests vmbr0', () => {
    expect(report.discovery.data.bridges).toEqual([
      { node: 'pv1-1', iface: 'vmbr0', vlanAware: true },
      { node: 'pv1-1', iface: 'vmbr1', vlanAware: false },
    ]);
    expect(report.suggestedProfile).toMatchObject({ bridge: 'vmbr0', bridgeVlanAware: true });
  });

  it('reports the room in the default VMID range', () => {
    expect(report.discovery.data.vmidRange).toEqual({ min: 100_000, max: 199_999, used: 0, free: 100_000, usedBy: [] });
    expect(report.suggestedProfile).toMatchObject({ vmidRange: { min: 100_000, max: 199_999 }, vmidFree: 100_000 });
  });

  it('with the operator token everything passes: the suggested profile is ready to save', () => {
    expect(report.discovery.status).toBe('ok');
    expect(report.privileges.status).toBe('ok');
    expect(report.ready).toBe(true);
  });
});

describe('connect doctor: discovery with a profile whose choices do not fit', () => {
  it('a VLAN on a bridge that is not VLAN-aware, and VMs in the range, are named', async () => {
    const { tokenId, secret } = sim.tokens.admin!;
    const r = await runDoctor(
      { profileId: 'p' },
      {
        logger,
        resolveProfile: () => ({
          url: sim.url,
          tls: { mode: 'pin', fingerprint: sim.fingerprint },
          token: { kind: 'secret', tokenId, secret: () => secret },
          bridge: 'vmbr1',
          vlanTag: 4,
          vmidRange: { min: 100, max: 9001 },
        }),
      },
    );
    expect(r.discovery.status).toBe('warn');
    expect(r.discovery.message).toContain('vmbr1 is not VLAN-aware');
    expect(r.discovery.hint).toContain('VLAN aware');
    expect(r.discovery.data.vmidRange).toMatchObject({ used: 3, free: 8902 - 3 }); // 100, 9000 and 9001; 9002 is above the range
    expect(r.discovery.data.vmidRange.usedBy).toContain('100 ubuntu-vm-1');
  });

  it('a seed storage that does not exist fails discovery with the command that makes one', async () => {
    const { tokenId, secret } = sim.tokens.admin!;
    const r = await runDoctor(
      { profileId: 'p' },
      {
        logger,
        resolveProfile: () => ({
          url: sim.url,
          tls: { mode: 'pin', fingerprint: sim.fingerprint },
          token: { kind: 'secret', tokenId, secret: () => secret },
          isoStorage: 'no-such-store',
        }),
      },
    );
    expect(r.discovery).toMatchObject({ status: 'fail', blocking: true });
    expect(r.discovery.message).toContain('no-such-store');
    expect(r.discovery.hint).toContain('pvesm add dir proxy-seeds --path /var/lib/proxy-seeds --content iso');
    // The privileges are still checked, on the storage the profile names.
    expect(r.privileges.data.checks.map((c) => c.path)).toEqual(['/', '/storage/no-such-store']);
  });
});

// Issue 23, item 14: the wizard's name for a cluster is Proxmox's own (GET /cluster/status).
describe("connect doctor: the cluster's own name", () => {
  it('a standalone node (no cluster entry, as the reconstructed capture shows) is named after its node', () => {
    expect(report.suggestedProfile.clusterName).toBe('pv1-1');
  });

  it("a cluster is named as Proxmox names it (the `type: cluster` entry), not after the URL's host", async () => {
    const clustered = await startSimulator({ dataset: 'demo', timeScale: 0.001 });
    try {
      const { tokenId, secret } = clustered.tokens.operator!;
      const r = await runDoctor({ url: clustered.url, tokenId, secret, tls: { mode: 'pin', fingerprint: clustered.fingerprint } }, { logger });
      expect(r.suggestedProfile.clusterName).toBe('homelab');
    } finally {
      await clustered.close();
    }
  });
});
